//! The Hatris plug-in. It first works out the cartridge by experiment (`calib`): until a
//! falling pair is found it only watches; once calibrated it reads the game through the
//! map it found, searches once per spawn and steers with the pad; if calibration cannot
//! make sense of the game it says which fact it could not find and presses nothing.
//!
//! Steering reads the columns back every frame instead of counting presses, so a press the
//! game ignored is simply repeated. Every press is followed by a release frame because the
//! game acts on newly pressed buttons; Down is held to drop.

use crate::board::{Board, Geometry};

mod decide;
mod learn;
mod sight;
use crate::calib::{self, level::LevelFinder};
use crate::eval::Weights;
use crate::game::Action;
use crate::helpers::{Call, Tracker};
use crate::moves::Route;
use crate::ram_map::{self, RamMap};
use crate::rules::{COLUMNS, Settings};
use crate::runtime;
use crate::search::Searcher;
use nesmind_host::{Buttons, Frame, Plugin, PluginOptions, RomInfo, Setup};

/// Frames between two looks for a falling pair while none has been found.
const PROBE_EVERY: u64 = 20;
/// Frames after which "no falling pair yet" is reported as a warning.
const PATIENCE: u64 = 3600;
/// Frames a new pair may take to settle (the spawn routine may run over several frames).
const SETTLE_FRAMES: u64 = 12;

enum Phase {
    /// No pair found yet; look again at this frame.
    Waiting {
        next_probe: u64,
        warned: bool,
    },
    /// Calibrating on forks, a slice per frame.
    Calibrating(Box<calib::CalJob>),
    Playing,
    /// Calibration could not make sense of the game: the message, and nothing is pressed.
    Failed(String),
}

/// A new pair seen; the decision waits until its spawn routine has finished.
struct Spawning {
    since: u64,
    heights: [Option<i16>; 2],
    next: [u8; 2],
}

pub struct HatrisPlayer {
    maps: Vec<RamMap>,
    save_map: Option<String>,
    base_settings: Settings,
    rom: Option<RomInfo>,
    phase: Phase,
    map: Option<RamMap>,
    settings: Settings,
    geo: Geometry,
    searcher: Searcher,
    /// Heights of the pair on the previous frame, and whether its bytes held hats.
    prev_heights: Option<[i16; 2]>,
    prev_hats: bool,
    /// Spawns the RAM player has seen (the picture checks RAM at each while RAM steers).
    ram_spawns: u64,
    spawning: Option<Spawning>,
    /// The piles the falling pair came over, and the way chosen for it.
    board: Option<Board>,
    plan: Option<Route>,
    /// What the piles should be at the next spawn, from the last decision, and the stacks
    /// that decision clears.
    expect: Option<[Vec<u8>; COLUMNS]>,
    clears: Vec<u8>,
    /// The pool as the stacks seen cleared make it, and a helper call under way.
    tracker: Tracker,
    call: Option<Call>,
    /// Helpers could not be worked out: the player plays without them.
    no_helpers: bool,
    level: LevelFinder,
    /// Whether a button other than Down was pressed last frame (so this frame releases).
    released_needed: bool,
    pub decisions: u64,
    pub helper_calls: u64,
    /// Spawns at which the piles were not what the model predicted.
    pub surprises: u64,
    /// Frame at which calibration finished, and the frames it ran on forks in all.
    pub calibrated_at: Option<u64>,
    pub fork_frames: u64,
    last_action: Option<Action>,
    /// The picture player (`sight=on`, the default) on hosts that show a picture.
    sight: Option<Box<sight::SightPlay>>,
    /// `ram=off`: never read the game's RAM.
    use_ram: bool,
    /// RAM maps dropped because they disagreed with the picture.
    pub ram_dropped: u64,
    /// RAM calibration tries that failed beside the picture player, and the game frame
    /// from which it tries again (the game's state at a try, such as piles about to top
    /// out on the copies, may be what made it fail).
    ram_failures: u32,
    /// The picture player is running this frame (`sight` is taken out while it does).
    in_sight: bool,
    ram_retry_at: u64,
    ram_failed: Option<String>,
}

/// RAM calibration tries beside the picture player, and game frames between them.
const RAM_TRIES: u32 = 3;
const RAM_RETRY_FRAMES: u64 = 1200;

/// Builds the player from `--plugin-opt` values: `ram_map`, `save_map`, `weights`,
/// `settings`.
pub fn create(opts: &PluginOptions) -> Result<Box<dyn Plugin>, String> {
    Ok(Box::new(HatrisPlayer::from_options(opts)?))
}

impl HatrisPlayer {
    pub fn from_options(opts: &PluginOptions) -> Result<HatrisPlayer, String> {
        let mut maps = Vec::new();
        let mut weights = Weights::shipped();
        let mut settings = Settings::default();
        let mut save_map = None;
        let mut sight = true;
        let mut use_ram = true;
        for (key, value) in opts {
            match key.as_str() {
                "ram_map" => maps = nesmind_host::kit::load(value)?,
                "save_map" => save_map = Some(value.clone()),
                "weights" => weights = Weights::load(value)?,
                "settings" => settings = crate::sim::load_settings(Some(value))?,
                "sight" => sight = on_off("sight", value)?,
                "ram" => use_ram = on_off("ram", value)?,
                other => {
                    return Err(format!(
                        "hatris: unknown option '{other}' (known: ram_map, save_map, weights, \
                         settings, sight, ram)"
                    ));
                }
            }
        }
        Ok(HatrisPlayer {
            maps,
            save_map,
            geo: Geometry::new(&settings),
            searcher: Searcher::new(&weights),
            settings: settings.clone(),
            base_settings: settings,
            rom: None,
            phase: Phase::Waiting {
                next_probe: 0,
                warned: false,
            },
            map: None,
            prev_heights: None,
            prev_hats: false,
            ram_spawns: 0,
            spawning: None,
            board: None,
            plan: None,
            expect: None,
            clears: Vec::new(),
            tracker: Tracker::default(),
            call: None,
            no_helpers: false,
            level: LevelFinder::default(),
            released_needed: false,
            decisions: 0,
            helper_calls: 0,
            surprises: 0,
            calibrated_at: None,
            fork_frames: 0,
            last_action: None,
            sight: sight.then(|| Box::new(sight::SightPlay::new())),
            use_ram,
            ram_dropped: 0,
            ram_failures: 0,
            in_sight: false,
            ram_retry_at: 0,
            ram_failed: None,
        })
    }

    /// The action chosen for the pair now falling (or the last one), for tests and tools.
    pub fn last_action(&self) -> Option<Action> {
        self.last_action
    }
    /// The map in use, once there is one.
    pub fn map(&self) -> Option<&RamMap> {
        self.map.as_ref()
    }
    /// Why the player gave up, if it did. With the picture player, a RAM calibration
    /// that fails only costs the shortcut.
    pub fn failure(&self) -> Option<&str> {
        match &self.phase {
            Phase::Failed(why) if self.sight.is_none() => Some(why),
            _ => None,
        }
    }

    /// What the picture player learned, once it has calibrated.
    pub fn sight(&self) -> Option<&crate::sight::HatSight> {
        self.sight.as_ref()?.sight()
    }

    /// Why the picture player's last calibration try failed, if it did.
    pub fn sight_problem(&self) -> Option<&str> {
        self.sight.as_ref()?.problem()
    }

    /// Why RAM calibration failed, if it did (the last try's reason while it tries again).
    pub fn ram_problem(&self) -> Option<&str> {
        match &self.phase {
            Phase::Failed(why) => Some(why),
            _ if self.map.is_none() => self.ram_failed.as_deref(),
            _ => None,
        }
    }

    fn use_map(&mut self, map: RamMap) {
        self.settings = Settings {
            nest_reading: map.nest_reading,
            height_limit: map.height_limit,
            ..self.base_settings.clone()
        };
        self.geo = Geometry::new(&self.settings);
        self.map = Some(map);
        self.phase = Phase::Playing;
        self.save();
    }

    fn save(&self) {
        let (Some(path), Some(map)) = (&self.save_map, &self.map) else {
            return;
        };
        match nesmind_host::kit::save(path, map) {
            Ok(()) => log::info!("hatris: saved the map to {path}"),
            Err(e) => log::error!("hatris: cannot save the map: {e}"),
        }
    }

    fn fail(&mut self, frame: &mut dyn Frame, why: String) {
        // RAM work that fails while the picture player runs (it steers through RAM) is
        // only the shortcut failing: the picture plays on.
        if self.sight.is_some() || self.in_sight {
            self.ram_failures += 1;
            self.ram_retry_at = frame.frame_number() + RAM_RETRY_FRAMES;
            let next = if self.ram_failures < RAM_TRIES {
                "; trying again later"
            } else {
                ""
            };
            log::info!(
                "hatris: RAM calibration could not find {why}; playing from the picture alone{next}"
            );
            self.ram_failed = Some(why.clone());
            self.phase = Phase::Failed(why);
            return;
        }
        let line = format!("hatris: could not find {why}; not playing");
        log::error!("{line}");
        frame.set_status(&line);
        frame.set_buttons(0, Buttons::NONE);
        self.phase = Phase::Failed(why);
    }

    fn play(&mut self, frame: &mut dyn Frame) {
        let Some(map) = self.map.clone() else { return };
        let n = frame.frame_number();
        let view = runtime::pair(&*frame, &map);
        let present =
            view.cols.iter().all(Option::is_some) && view.heights.iter().all(Option::is_some);
        let heights = view.heights.map(|h| h.unwrap_or(0));
        // A new pair: the hats jump up, or hats appear where there were none (after a
        // helper, the next pair may come in at the height the last one vanished at).
        let hats = view.codes.iter().all(|&c| map.hat_of(c).is_some());
        let jumped = present
            && (self
                .prev_heights
                .is_none_or(|p| heights[0] > p[0] + 8 || heights[1] > p[1] + 8)
                || (hats && !self.prev_hats));
        self.prev_heights = present.then_some(heights);
        self.prev_hats = hats;
        if jumped {
            self.ram_spawns += 1;
            self.plan = None;
            self.call = None;
            self.board = None;
            self.spawning = Some(Spawning {
                since: n,
                heights: view.heights,
                next: view.next_codes,
            });
        }
        // Only a pair of known hats is decided on: other bytes there mean no pair (a title,
        // a helper screen); a new hat type shows in the next pair (or the piles) first.
        if let Some(s) = self.spawning.as_ref().filter(|_| hats) {
            let moved = view.heights != s.heights || view.next_codes != s.next;
            if moved || n >= s.since + SETTLE_FRAMES {
                self.spawning = None;
                self.decide(frame, &view);
                if matches!(self.phase, Phase::Failed(_)) {
                    return;
                }
            }
        }
        let helper_map = map.helpers.clone();
        let press = match (&mut self.call, &helper_map) {
            (Some(call), Some(hm)) => Some(call.step(&*frame, &map, hm, !self.released_needed)),
            _ => None,
        };
        let press = press.unwrap_or_else(|| match (&self.plan, &self.board) {
            (Some(route), Some(board)) if present => {
                let view = runtime::pair(&*frame, self.map.as_ref().unwrap_or(&map));
                runtime::steer(&view, board, route)
            }
            _ => Buttons::NONE,
        });
        // Press on one frame, release on the next; Down may stay held, except before a
        // split (a Down held as the pair lands would end the free hat's hover).
        let splits = self.plan.as_ref().is_some_and(|r| r.free_target.is_some());
        if self.released_needed || press == Buttons::NONE {
            self.released_needed = false;
            frame.set_buttons(0, Buttons::NONE);
        } else {
            self.released_needed = press != Buttons::DOWN || splits;
            frame.set_buttons(0, press);
        }
    }
}

impl Plugin for HatrisPlayer {
    fn name(&self) -> &str {
        "hatris"
    }
    fn description(&self) -> &str {
        crate::ENTRY.description
    }

    fn on_attach(&mut self, rom: &RomInfo, setup: &mut dyn Setup) -> Result<(), String> {
        self.rom = Some(rom.clone());
        setup.use_pads(1);
        // A map given by the user is used as given; otherwise the game is calibrated.
        if let Some(map) = ram_map::find(&self.maps, rom).cloned() {
            if map.piles == ram_map::PileLayout::Unknown {
                return Err(format!(
                    "hatris: the given map '{}' does not say where the piles are",
                    map.name
                ));
            }
            log::info!("hatris: using the given map '{}'", map.name);
            self.use_map(map);
        }
        Ok(())
    }

    fn on_frame(&mut self, frame: &mut dyn Frame) {
        if self.sight.is_some() {
            if !frame.picture().is_empty() {
                if self.use_ram {
                    self.ram_beside(frame);
                }
                let mut st = self.sight.take().expect("checked");
                self.in_sight = true;
                self.sight_frame(frame, &mut st);
                self.in_sight = false;
                self.sight = Some(st);
                return;
            }
            log::info!("hatris: this host shows no picture: playing from RAM through the map");
            self.sight = None;
        }
        if !self.use_ram {
            frame.set_buttons(0, Buttons::NONE);
            return;
        }
        match &self.phase {
            Phase::Waiting { next_probe, warned } => {
                let (n, w) = (*next_probe, *warned);
                self.wait(frame, n, w)
            }
            Phase::Calibrating(_) => self.poll_calibration(frame),
            Phase::Playing => self.play(frame),
            Phase::Failed(_) => frame.set_buttons(0, Buttons::NONE),
        }
    }

    fn result(&self) -> Option<String> {
        if let Some(st) = &self.sight {
            if st.sight().is_none() {
                return Some("no falling pair found; nothing played".into());
            }
            return Some(format!(
                "decisions {} helper calls {} surprises {} calibrated at frame {} ({} frames on forks){}",
                self.decisions,
                self.helper_calls,
                self.surprises,
                self.calibrated_at.map_or("-".into(), |f| f.to_string()),
                self.fork_frames,
                match (&self.map, self.ram_dropped) {
                    (Some(_), 0) => "; RAM map in use, agreeing with the picture".to_string(),
                    (_, 0) => String::new(),
                    (_, n) => format!("; RAM map dropped {n} time(s)"),
                }
            ));
        }
        Some(match &self.phase {
            Phase::Failed(why) => format!("calibration failed: could not find {why}"),
            Phase::Waiting { .. } | Phase::Calibrating(_) => {
                "no falling pair found; nothing played".into()
            }
            Phase::Playing => format!(
                "decisions {} helper calls {} surprises {} calibrated at frame {} ({} frames on forks)",
                self.decisions,
                self.helper_calls,
                self.surprises,
                self.calibrated_at.map_or("-".into(), |f| f.to_string()),
                self.fork_frames
            ),
        })
    }
}

fn on_off(key: &str, value: &str) -> Result<bool, String> {
    match value {
        "on" | "true" | "1" => Ok(true),
        "off" | "false" | "0" => Ok(false),
        _ => Err(format!("hatris: {key}: '{value}' is not on/off")),
    }
}

/// The window's status line for a decision, e.g. "hatris: top hat to 2, cap to 5".
fn describe(action: Action, pair: (u8, u8)) -> String {
    let hat = |h: u8| {
        calib::HAT_NAMES
            .get(usize::from(h).wrapping_sub(1))
            .copied()
            .unwrap_or("hat")
    };
    match action {
        Action::Place(p) => format!(
            "hatris: {} to {}, {} to {}",
            hat(pair.0),
            p.first + 1,
            hat(pair.1),
            p.second + 1
        ),
        Action::Alexey(removed) => {
            let cols: Vec<String> = (1..)
                .zip(removed)
                .filter(|(_, n)| *n > 0)
                .map(|(c, n)| format!("{n} from {c}"))
                .collect();
            format!("hatris: Alexey removes {}", cols.join(", "))
        }
        Action::Vladimir(a, b) => format!("hatris: Vladimir swaps piles {} and {}", a + 1, b + 1),
    }
}
