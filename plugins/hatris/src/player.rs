//! The Hatris plug-in: reads the game from RAM, searches once per spawn, and steers with the pad.
//!
//! Steering reads the columns back from RAM every frame instead of counting presses, so a
//! press the game ignored is simply repeated. Every press is followed by a release frame
//! because the game acts on newly pressed buttons; Down is held to drop.

use super::board::{Board, Geometry};
use super::eval::Weights;
use super::game::{Action, Game};
use super::moves::{Route, route};
use super::ram_map::{self, HatOrder, PileLayout, RamMap};
use super::rules::{COLUMNS, Helper, Settings};
use super::search::Searcher;
use nesmind_host::{Buttons, Frame, Plugin, PluginOptions, RomInfo, Setup};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Plan {
    Place(Route),
    Helper(Action),
}

pub struct HatrisPlayer {
    maps: Vec<RamMap>,
    map: Option<RamMap>,
    settings: Settings,
    geo: Geometry,
    searcher: Searcher,
    plan: Option<Plan>,
    /// Whether a button other than Down was pressed last frame (so this frame releases).
    released_needed: bool,
    pub decisions: u64,
    pub helper_calls: u64,
    last_action: Option<Action>,
}

/// Builds the player from `--plugin-opt` values: `ram_map`, `weights`, `settings` (RON files).
pub fn create(opts: &PluginOptions) -> Result<Box<dyn Plugin>, String> {
    Ok(Box::new(HatrisPlayer::from_options(opts)?))
}

impl HatrisPlayer {
    pub fn from_options(opts: &PluginOptions) -> Result<HatrisPlayer, String> {
        let mut maps = Vec::new();
        let mut weights = Weights::shipped();
        let mut settings = Settings::default();
        for (key, value) in opts {
            match key.as_str() {
                "ram_map" => {
                    let text = std::fs::read_to_string(value)
                        .map_err(|e| format!("hatris: cannot read ram_map {value}: {e}"))?;
                    maps = ram_map::parse_maps(&text, value)?;
                }
                "weights" => weights = Weights::load(value)?,
                "settings" => settings = super::sim::load_settings(Some(value))?,
                other => {
                    return Err(format!(
                        "hatris: unknown option '{other}' (known: ram_map, weights, settings)"
                    ));
                }
            }
        }
        // User maps first, so they override shipped entries with the same CRC.
        maps.extend(ram_map::shipped());
        Ok(HatrisPlayer {
            maps,
            map: None,
            geo: Geometry::new(&settings),
            settings,
            searcher: Searcher::new(&weights),
            plan: None,
            released_needed: false,
            decisions: 0,
            helper_calls: 0,
            last_action: None,
        })
    }

    /// The action chosen for the pair now falling (or the last one), for tests and tools.
    pub fn last_action(&self) -> Option<Action> {
        self.last_action
    }

    fn read_piles(&self, frame: &dyn Frame, layout: &PileLayout) -> Board {
        let mut columns: [Vec<u8>; COLUMNS] = Default::default();
        if let PileLayout::Columns {
            counts,
            hats,
            stride,
            order,
        } = *layout
        {
            for (c, col) in columns.iter_mut().enumerate() {
                let n = (frame.peek(counts + c as u16) as u16).min(stride);
                let base = hats + c as u16 * stride;
                *col = (0..n)
                    .map(|i| frame.peek(base + i))
                    .filter(|h| (1..=6).contains(h))
                    .collect();
                if order == HatOrder::TopDown {
                    col.reverse();
                }
            }
        }
        let mut board = Board::default();
        board.set_piles(&self.geo, &columns);
        board
    }

    fn observe(&self, frame: &dyn Frame, map: &RamMap) -> Game {
        let board = self.read_piles(frame, &map.piles);
        let pair = |a: [u16; 2]| (frame.peek(a[0]), frame.peek(a[1]));
        let pool = match &map.helpers {
            Some(h) => (0..frame.peek(h.pool_count).min(8) as u16)
                .map(|i| {
                    if frame.peek(h.pool + i) == 1 {
                        Helper::Alexey
                    } else {
                        Helper::Vladimir
                    }
                })
                .collect(),
            None => Vec::new(),
        };
        let level = frame.peek(map.shop) as u32 * 10 + frame.peek(map.stage) as u32;
        let cash = (0..8).rev().fold(0u64, |acc, d| {
            acc * 10 + frame.peek(map.cash + d) as u64 % 10
        });
        let mut next = pair(map.next);
        if next.0 == 0 || next.1 == 0 {
            // Unknown next pair: assume a neutral one so the search still has two steps.
            next = (1, 4);
        }
        Game::observed(
            self.settings.clone(),
            board,
            (pair(map.falling), next),
            pool,
            level,
            cash,
        )
    }

    /// One steering step towards `target` for a hat or pair whose column is `col`.
    fn toward(col: u8, target: u8) -> Buttons {
        match col.cmp(&target) {
            std::cmp::Ordering::Less => Buttons::RIGHT,
            std::cmp::Ordering::Greater => Buttons::LEFT,
            std::cmp::Ordering::Equal => Buttons::DOWN,
        }
    }

    fn steer(&mut self, frame: &dyn Frame, map: &RamMap) -> Buttons {
        let t = [frame.peek(map.falling[0]), frame.peek(map.falling[1])];
        let col = [frame.peek(map.column[0]), frame.peek(map.column[1])];
        let landed = [
            frame.peek(map.landed[0]) != 0,
            frame.peek(map.landed[1]) != 0,
        ];
        match self.plan {
            Some(Plan::Place(r)) => match landed {
                [false, false] => {
                    let left = if col[0] <= col[1] { 0 } else { 1 };
                    if t[0] != t[1] && t[left] != r.left_type {
                        Buttons::A
                    } else {
                        Self::toward(col[left], r.left)
                    }
                }
                [true, false] | [false, true] => {
                    let free = if landed[0] { 1 } else { 0 };
                    r.free_target
                        .map_or(Buttons::DOWN, |f| Self::toward(col[free], f))
                }
                [true, true] => Buttons::NONE,
            },
            Some(Plan::Helper(_)) => Buttons::B,
            None => Buttons::NONE,
        }
    }

    fn steer_helper(&self, frame: &dyn Frame, map: &RamMap) -> Buttons {
        let Some(hm) = &map.helpers else {
            return Buttons::NONE;
        };
        let cursor = frame.peek(hm.cursor);
        match self.plan {
            Some(Plan::Helper(Action::Alexey(counts))) => {
                // Columns to press A on, one entry per hat, in column order.
                let queue: Vec<u8> = (0..COLUMNS as u8)
                    .flat_map(|c| std::iter::repeat_n(c, counts[c as usize] as usize))
                    .collect();
                match queue.get(frame.peek(hm.removed) as usize) {
                    Some(&c) if c == cursor => Buttons::A,
                    Some(&c) => Self::toward(cursor, c),
                    None => Buttons::B,
                }
            }
            Some(Plan::Helper(Action::Vladimir(a, b))) => {
                let target = if frame.peek(hm.chosen) == 0xFF { a } else { b };
                if cursor == target {
                    Buttons::A
                } else {
                    Self::toward(cursor, target)
                }
            }
            // A helper screen we did not ask for: leave it.
            _ => Buttons::B,
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
        let map = ram_map::find(&self.maps, |c| rom.matches_crc(c)).ok_or_else(|| {
            format!(
                "hatris: no RAM map for {} (CRC32 {:08X}, PRG CRC32 {:08X}); add one with --plugin-opt ram_map=FILE",
                rom.file_name, rom.crc32, rom.prg_crc32
            )
        })?;
        if map.piles == PileLayout::Unknown {
            return Err(format!(
                "hatris: the pile layout in RAM of '{}' is not known yet (open question); \
                 give a map with a Columns(...) pile entry via --plugin-opt ram_map=FILE",
                map.name
            ));
        }
        self.map = Some(map.clone());
        setup.use_pads(1);
        Ok(())
    }

    fn on_frame(&mut self, frame: &mut dyn Frame) {
        let Some(map) = self.map.clone() else { return };
        let mut press = Buttons::NONE;
        let playing = map.not_playing.iter().all(|&a| frame.peek(a) == 0);
        let helper_screen = map
            .helpers
            .as_ref()
            .is_some_and(|h| frame.peek(h.active) != 0);
        let falling = [frame.peek(map.falling[0]), frame.peek(map.falling[1])];
        let landed = [
            frame.peek(map.landed[0]) != 0,
            frame.peek(map.landed[1]) != 0,
        ];
        if !playing {
            self.plan = None;
        } else if helper_screen {
            press = self.steer_helper(&*frame, &map);
        } else if falling.contains(&0) || landed == [true, true] {
            self.plan = None;
        } else {
            if self.plan.is_none() {
                let game = self.observe(&*frame, &map);
                let action = self.searcher.choose(&game);
                self.decisions += 1;
                self.last_action = Some(action);
                self.plan = match action {
                    Action::Place(p) => {
                        route(&self.geo, &game.board.heights(), game.current, p).map(Plan::Place)
                    }
                    helper => {
                        self.helper_calls += 1;
                        Some(Plan::Helper(helper))
                    }
                };
                frame.set_status(&describe(action, game.current));
            }
            press = self.steer(&*frame, &map);
        }
        // Press on one frame, release on the next; Down may stay held.
        if self.released_needed || press == Buttons::NONE {
            self.released_needed = false;
            frame.set_buttons(0, Buttons::NONE);
        } else {
            self.released_needed = press != Buttons::DOWN;
            frame.set_buttons(0, press);
        }
    }

    fn result(&self) -> Option<String> {
        Some(format!(
            "decisions {} helper calls {}",
            self.decisions, self.helper_calls
        ))
    }
}

/// The window's status line for a decision, e.g. "hatris: top hat to 2, cap to 5".
fn describe(action: Action, pair: (u8, u8)) -> String {
    const HATS: [&str; 6] = ["top hat", "wizard", "crown", "cap", "derby", "cowboy"];
    let hat = |h: u8| {
        HATS.get(usize::from(h).wrapping_sub(1))
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
