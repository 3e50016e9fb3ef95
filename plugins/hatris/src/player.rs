//! The Hatris plug-in. It first works out the cartridge by experiment (`calib`): until a
//! falling pair is found it only watches; once calibrated it reads the game through the
//! map it found, searches once per spawn and steers with the pad; if calibration cannot
//! make sense of the game it says which fact it could not find and presses nothing.
//!
//! Steering reads the columns back every frame instead of counting presses, so a press the
//! game ignored is simply repeated. Every press is followed by a release frame because the
//! game acts on newly pressed buttons; Down is held to drop.

use super::board::{Board, Geometry, Landing};
use super::calib::{self, identify, lab::Lab, level::LevelFinder, pair};
use super::eval::Weights;
use super::game::{Action, Game};
use super::helpers::{Call, Tracker};
use super::moves::{Route, route};
use super::ram_map::{self, HelperMap, RamMap};
use super::rules::{COLUMNS, CROWN, DERBY, Settings, WIZARD};
use super::runtime::{self, PairView};
use super::search::Searcher;
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
}

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
        for (key, value) in opts {
            match key.as_str() {
                "ram_map" => {
                    let text = std::fs::read_to_string(value)
                        .map_err(|e| format!("hatris: cannot read ram_map {value}: {e}"))?;
                    maps = ram_map::parse_maps(&text, value)?;
                }
                "save_map" => save_map = Some(value.clone()),
                "weights" => weights = Weights::load(value)?,
                "settings" => settings = super::sim::load_settings(Some(value))?,
                other => {
                    return Err(format!(
                        "hatris: unknown option '{other}' (known: ram_map, save_map, weights, \
                         settings)"
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
    /// Why the player gave up, if it did.
    pub fn failure(&self) -> Option<&str> {
        match &self.phase {
            Phase::Failed(why) => Some(why),
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
        let result = map
            .to_ron()
            .and_then(|text| std::fs::write(path, text).map_err(|e| e.to_string()));
        match result {
            Ok(()) => log::info!("hatris: saved the map to {path}"),
            Err(e) => log::error!("hatris: cannot save the map to {path}: {e}"),
        }
    }

    fn fail(&mut self, frame: &mut dyn Frame, why: String) {
        let line = format!("hatris: could not find {why}; not playing");
        log::error!("{line}");
        frame.set_status(&line);
        frame.set_buttons(0, Buttons::NONE);
        self.phase = Phase::Failed(why);
    }

    /// Looks for a falling pair; once one is there, calibrates on forks of this frame.
    fn wait(&mut self, frame: &mut dyn Frame, next_probe: u64, warned: bool) {
        let n = frame.frame_number();
        if n < next_probe {
            return;
        }
        if frame.fork().is_none() {
            // Nothing can be tried out (an offline RAM-image host): a shipped map for this
            // very cartridge is the only way to play.
            let shipped = ram_map::shipped();
            let known = self
                .rom
                .as_ref()
                .and_then(|rom| ram_map::find(&shipped, |c| rom.matches_crc(c)))
                .filter(|m| m.piles != ram_map::PileLayout::Unknown)
                .cloned();
            return match known {
                Some(map) => {
                    log::info!(
                        "hatris: this host cannot fork; using the shipped map '{}'",
                        map.name
                    );
                    self.use_map(map);
                }
                None => self.fail(
                    frame,
                    "a way to try things out (this host cannot fork the machine) or a map for \
                     this cartridge"
                        .into(),
                ),
            };
        }
        let mut lab = Lab::default();
        let probe = pair::probe(&mut lab, &*frame);
        self.fork_frames += lab.frames;
        let found = match probe {
            Ok(found) => found,
            Err(e) => return self.fail(frame, format!("a way to try things out ({e})")),
        };
        let Some(pair) = found else {
            let warned = warned || n >= PATIENCE;
            if warned && n < PATIENCE + PROBE_EVERY {
                log::warn!(
                    "hatris: no falling pair after {} s; is this Hatris, and has a game started?",
                    PATIENCE / 60
                );
            }
            frame.set_status(if warned {
                "hatris: still no falling pair (not Hatris, or no game started?); pressing nothing"
            } else {
                "hatris: waiting for a falling pair"
            });
            self.phase = Phase::Waiting {
                next_probe: n + PROBE_EVERY,
                warned,
            };
            return;
        };
        let (file, crc32) = self
            .rom
            .as_ref()
            .map_or(("?".to_string(), 0), |r| (r.file_name.clone(), r.crc32));
        let name = format!("{file} (calibrated)");
        match calib::calibrate(&*frame, &pair, &name, crc32) {
            Ok(c) => {
                self.fork_frames += c.lab.frames;
                self.calibrated_at = Some(n);
                let line = format!(
                    "hatris: calibrated at frame {n} ({} frames on forks): {}; the game ended \
                     at {} px",
                    self.fork_frames,
                    calib::describe(&c.map),
                    c.ended_at
                );
                log::info!("{line}");
                self.compare_with_shipped(&c.map);
                frame.set_status(&line);
                self.use_map(c.map);
            }
            Err(why) => self.fail(frame, why),
        }
    }

    /// Says where calibration agrees with the shipped map for this cartridge, if any.
    fn compare_with_shipped(&self, found: &RamMap) {
        let shipped = ram_map::shipped();
        let Some(rom) = &self.rom else { return };
        let Some(known) = ram_map::find(&shipped, |c| rom.matches_crc(c)) else {
            return;
        };
        let mut differ = Vec::new();
        if known.falling != found.falling {
            differ.push("falling types");
        }
        if known.next != found.next {
            differ.push("next pair");
        }
        if known.column != found.column {
            differ.push("columns");
        }
        if known.y != found.y {
            differ.push("heights");
        }
        if known.piles != ram_map::PileLayout::Unknown && known.piles != found.piles {
            differ.push("piles");
        }
        if differ.is_empty() {
            log::info!(
                "hatris: calibration confirms the shipped map '{}'",
                known.name
            );
        } else {
            log::warn!(
                "hatris: calibration differs from the shipped map '{}' in: {}",
                known.name,
                differ.join(", ")
            );
        }
    }

    fn observe(&self, frame: &dyn Frame, view: &PairView, map: &RamMap) -> Option<Game> {
        // The pool: where the map says, else as counted; none until helpers are understood.
        let pool = match runtime::pool(frame, map) {
            Some(p) => p,
            None if map.helpers.is_some() => self.tracker.pool().to_vec(),
            None => Vec::new(),
        };
        let codes = runtime::pile_codes(frame, map);
        let mut piles: [Vec<u8>; COLUMNS] = Default::default();
        for (c, col) in codes.iter().enumerate() {
            piles[c] = col
                .iter()
                .map(|&k| map.hat_of(k))
                .collect::<Option<Vec<u8>>>()?;
        }
        let mut board = Board::default();
        board.set_piles(&self.geo, &piles);
        let next = view.next_codes.map(|c| map.hat_of(c));
        let next = (next[0]?, next[1]?);
        // The level only sets which pairs may come: the game's digits once found, else the
        // types seen so far say enough.
        let known = |t: u8| map.hat_codes[t as usize - 1].is_some();
        let level = if let (Some(shop), Some(stage)) = (map.shop, map.stage) {
            (frame.peek(shop) as u32 * 10 + frame.peek(stage) as u32).min(59)
        } else if known(CROWN) {
            6
        } else if known(WIZARD) {
            3
        } else {
            known(DERBY) as u32
        };
        Some(Game::observed(
            self.settings.clone(),
            board,
            (view.hats(), next),
            pool,
            level,
            0,
        ))
    }

    /// Chooses what to do with the pair that has just appeared.
    fn decide(&mut self, frame: &mut dyn Frame, view: &PairView) {
        let Some(mut map) = self.map.clone() else {
            return;
        };
        // Unknown bytes in the next pair or the piles are hats of a type not seen yet.
        let unknown: Vec<u8> = runtime::unknown_codes(&*frame, &map, view)
            .into_iter()
            .filter(|c| !view.codes.contains(c) || view.next_codes.contains(c))
            .collect();
        if !unknown.is_empty() {
            match identify::identify(&*frame, &map, &unknown) {
                Ok((codes, lab)) => {
                    self.fork_frames += lab.frames;
                    map.hat_codes = codes;
                    log::info!(
                        "hatris: new hat byte(s) identified ({} frames on forks): {}",
                        lab.frames,
                        calib::describe(&map)
                    );
                    self.map = Some(map.clone());
                    self.save();
                }
                Err(why) => return self.fail(frame, why),
            }
        }
        let view = runtime::pair(&*frame, &map);
        let Some(first_look) = self.observe(&*frame, &view, &map) else {
            return;
        };
        let now: [Vec<u8>; COLUMNS] =
            std::array::from_fn(|c| first_look.board.piles[c].hats().collect());
        let clears = std::mem::take(&mut self.clears);
        let known = match self.expect.take() {
            Some(want) if want == now => {
                for &hat in &clears {
                    self.tracker.cleared(hat, &self.settings);
                }
                true
            }
            Some(want) => {
                self.surprises += 1;
                log::debug!("hatris: piles {now:?}, model expected {want:?}");
                false
            }
            None => true,
        };
        self.find_level(frame, &mut map, clears.len() as u32, known);
        if map.helpers.is_none() && !self.no_helpers && self.tracker.expects_any() {
            self.learn_helpers(frame, &mut map);
        }
        let mut game = self.observe(&*frame, &view, &map).unwrap_or(first_look);
        let mut action = self.searcher.choose(&game);
        if !matches!(action, Action::Place(_))
            && runtime::pool(&*frame, &map).is_none()
            && !self.confirm_helper(frame, &map, &mut game)
        {
            // The pool was not what the count said: decide again with the game's pool.
            action = self.searcher.choose(&game);
        }
        self.decisions += 1;
        self.last_action = Some(action);
        let mut b = game.board.clone();
        let mut log = Vec::new();
        match action {
            Action::Place(p) => {
                self.plan = route(&self.geo, &game.board.heights(), game.current, p);
                for (col, hat) in [(p.first, game.current.0), (p.second, game.current.1)] {
                    if let Landing::Cleared(h) = b.land(&self.geo, col as usize, hat, &mut log) {
                        self.clears.push(h);
                    }
                }
            }
            Action::Alexey(counts) => {
                b.remove_bottoms(&self.geo, &counts);
                self.start_call(frame, &map, action);
            }
            Action::Vladimir(x, y) => {
                b.swap_piles(x as usize, y as usize);
                self.start_call(frame, &map, action);
            }
        }
        self.expect = Some(std::array::from_fn(|c| b.piles[c].hats().collect()));
        self.board = Some(game.board.clone());
        frame.set_status(&describe(action, game.current));
    }

    /// Follows the level digits' search and records them in the map once found.
    fn find_level(&mut self, frame: &dyn Frame, map: &mut RamMap, cleared: u32, known: bool) {
        if map.shop.is_some() && map.stage.is_some() {
            return;
        }
        let now = nesmind_host::ramsearch::Snapshot::take(frame, true);
        self.level.spawn(now, cleared, known);
        if let (Some(stage), Some(shop)) = (self.level.found_stage, self.level.found_shop) {
            log::info!("hatris: the level digits are shop ${shop:04X}, stage ${stage:04X}");
            map.stage = Some(stage);
            map.shop = Some(shop);
            self.map = Some(map.clone());
            self.save();
        }
    }

    fn start_call(&mut self, frame: &dyn Frame, map: &RamMap, action: Action) {
        self.helper_calls += 1;
        self.tracker.used();
        self.plan = None;
        self.call = Some(Call::new(action, frame, map));
    }

    /// Tries B on a fork to learn the helper screen, now that a helper should be in the pool.
    fn learn_helpers(&mut self, frame: &mut dyn Frame, map: &mut RamMap) {
        match calib::helpers::probe(&*frame, map) {
            Ok((screen, lab)) => {
                self.fork_frames += lab.frames;
                self.tracker.seen(screen.as_ref().map(|s| s.helper));
                if let Some(s) = screen {
                    map.helpers = Some(HelperMap {
                        cursor: s.cursor,
                        cursor_code: s.cursor_code,
                        awards: self.tracker.awards(),
                        pool_count: None,
                        pool: None,
                    });
                    log::info!(
                        "hatris: helpers worked out ({} frames on forks): B calls {:?}; the \
                         cursor is ${:04X} (column = (byte - {}) / {})",
                        lab.frames,
                        s.helper,
                        s.cursor,
                        s.cursor_code.offset,
                        s.cursor_code.step
                    );
                    self.map = Some(map.clone());
                    self.save();
                }
            }
            Err(why) => {
                log::warn!("hatris: could not find {why}; playing on without helpers");
                self.no_helpers = true;
            }
        }
    }

    /// Checks on a fork that B brings the helper the pool's count says; if not, corrects
    /// the count and `game`'s pool and returns false.
    fn confirm_helper(&mut self, frame: &dyn Frame, map: &RamMap, game: &mut Game) -> bool {
        let expected = game.pool.last().copied();
        let seen = match calib::helpers::probe(frame, map) {
            Ok((screen, lab)) => {
                self.fork_frames += lab.frames;
                screen.map(|s| s.helper)
            }
            Err(_) => None,
        };
        if seen == expected {
            return true;
        }
        log::debug!("hatris: expected helper {expected:?}, B brings {seen:?}");
        self.tracker.seen(seen);
        game.pool = self.tracker.pool().to_vec();
        false
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
        // Press on one frame, release on the next; Down may stay held.
        if self.released_needed || press == Buttons::NONE {
            self.released_needed = false;
            frame.set_buttons(0, Buttons::NONE);
        } else {
            self.released_needed = press != Buttons::DOWN;
            frame.set_buttons(0, press);
        }
    }
}

impl Plugin for HatrisPlayer {
    fn name(&self) -> &str {
        "hatris"
    }
    fn description(&self) -> &str {
        super::ENTRY.description
    }

    fn on_attach(&mut self, rom: &RomInfo, setup: &mut dyn Setup) -> Result<(), String> {
        self.rom = Some(rom.clone());
        setup.use_pads(1);
        // A map given by the user is used as given; otherwise the game is calibrated.
        if let Some(map) = ram_map::find(&self.maps, |c| rom.matches_crc(c)).cloned() {
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
        match self.phase {
            Phase::Waiting { next_probe, warned } => self.wait(frame, next_probe, warned),
            Phase::Playing => self.play(frame),
            Phase::Failed(_) => frame.set_buttons(0, Buttons::NONE),
        }
    }

    fn result(&self) -> Option<String> {
        Some(match &self.phase {
            Phase::Failed(why) => format!("calibration failed: could not find {why}"),
            Phase::Waiting { .. } => "no falling pair found; nothing played".into(),
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
