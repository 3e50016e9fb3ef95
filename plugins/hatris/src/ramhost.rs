//! A RAM-image host: the simulator run frame by frame behind the plug-in `Frame` API (through
//! the host's `RamImage`, which answers every peek and pad the way all players' hosts do).
//!
//! It keeps the documented addresses (and the \[GAP\] ones of its own RAM-map entry) current
//! every frame and reacts to pad edges: Left/Right shift the pair (or the free hat once the
//! pair has split), A swaps the two hats' columns, Down drops fast, B calls the ready helper.
//! \[GAP\] The helper screen is modelled as: Left/Right move a column cursor; with Alexey each
//! A removes the bottom hat under the cursor until five are gone or B ends it; with Vladimir
//! the first A picks a pile and a second A on another pile swaps them.

use super::game::{Action, Game};
use super::moves::Placement;
use super::ram_map::{PileLayout, RamMap, Space};
use super::rules::{COLUMNS, Helper, STAGES_PER_SHOP};
use nesmind_host::Buttons;
use nesmind_host::kit::{RamGame, RamImage};

/// Y of a freshly spawned pair (the spawn routine's value).
pub const SPAWN_Y: i16 = 169;
/// \[GAP\] Fall speed: one pixel every `FALL_PERIOD` frames, `FAST_FALL` pixels a frame with Down.
const FALL_PERIOD: u64 = 4;
const FAST_FALL: i16 = 8;
/// \[GAP\] Frames between a landing and the next spawn.
const SPAWN_DELAY: u32 = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Both hats fall; `left` is the left column, `swapped` puts the pair's second hat there.
    Pair {
        left: u8,
        swapped: bool,
        y: i16,
    },
    /// One hat stopped at `stopped_col`; the other (`free_is_first`) falls alone.
    Split {
        stopped_col: u8,
        free_is_first: bool,
        col: u8,
        y: i16,
    },
    Waiting(u32),
    Alexey {
        cursor: u8,
        counts: [u8; COLUMNS],
    },
    Vladimir {
        cursor: u8,
        first: Option<u8>,
    },
    Over,
}

pub struct RamHost {
    pub game: Game,
    map: RamMap,
    image: RamImage,
    previous: Buttons,
    phase: Phase,
    /// Set if the host was asked to do something the rules forbid (a host bug).
    pub error: Option<String>,
    pub helpers_used: u32,
}

impl RamHost {
    /// Hosts `game` using `map` (which must give pile and helper addresses).
    pub fn new(game: Game, map: RamMap) -> Result<RamHost, String> {
        let cpu_piles = matches!(
            map.piles,
            PileLayout::Columns { counts, hats, .. }
                if counts.space == Space::Cpu && hats.space == Space::Cpu
        );
        let pool = map
            .helpers
            .as_ref()
            .is_some_and(|h| h.pool.is_some() && h.pool_count.is_some());
        if !cpu_piles || !pool {
            return Err(format!(
                "RAM map '{}' lacks pile or helper addresses",
                map.name
            ));
        }
        let mut h = RamHost {
            game,
            map,
            image: RamImage::default(),
            previous: Buttons::NONE,
            phase: Phase::Waiting(1),
            error: None,
            helpers_used: 0,
        };
        h.write_ram();
        Ok(h)
    }

    /// The player's last status line.
    pub fn status(&self) -> &str {
        &self.image.status
    }

    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }

    /// Advances one frame using the buttons currently held on pad 0.
    pub fn advance(&mut self) {
        self.image.frame += 1;
        self.game.frame = self.game.frame.wrapping_add(1);
        let held = self.image.pads[0];
        let pressed = held & !self.previous;
        self.previous = held;
        self.phase = self.next_phase(held, pressed);
        self.write_ram();
    }

    fn finish(&mut self, action: Action) -> Phase {
        match self.game.step(action, 0) {
            Ok(()) if self.game.over => Phase::Over,
            Ok(()) => Phase::Waiting(SPAWN_DELAY),
            Err(e) => {
                self.error = Some(e);
                Phase::Over
            }
        }
    }

    fn next_phase(&mut self, held: Buttons, pressed: Buttons) -> Phase {
        let h = self.game.board.heights();
        let fall = if held.contains(Buttons::DOWN) {
            FAST_FALL
        } else {
            self.image.frame.is_multiple_of(FALL_PERIOD) as i16
        };
        match self.phase {
            Phase::Over => Phase::Over,
            Phase::Waiting(0) => Phase::Pair {
                left: 2,
                swapped: false,
                y: SPAWN_Y,
            },
            Phase::Waiting(n) => Phase::Waiting(n - 1),
            Phase::Pair {
                mut left,
                mut swapped,
                y,
            } => {
                if pressed.contains(Buttons::B) {
                    return match self.game.ready_helper() {
                        Some(Helper::Alexey) => Phase::Alexey {
                            cursor: 0,
                            counts: [0; COLUMNS],
                        },
                        Some(Helper::Vladimir) => Phase::Vladimir {
                            cursor: 0,
                            first: None,
                        },
                        None => self.phase,
                    };
                }
                if pressed.contains(Buttons::A) {
                    swapped = !swapped;
                }
                let l = left as usize;
                if pressed.contains(Buttons::LEFT) && l > 0 && h[l - 1] < y {
                    left -= 1;
                } else if pressed.contains(Buttons::RIGHT) && l + 2 < COLUMNS && h[l + 2] < y {
                    left += 1;
                }
                let (l, r) = (left as usize, left as usize + 1);
                let y = (y - fall).max(h[l].max(h[r]));
                if y > h[l].max(h[r]) {
                    return Phase::Pair { left, swapped, y };
                }
                let (first, second) = if swapped { (r, l) } else { (l, r) };
                if h[l] == h[r] {
                    return self.finish(Action::Place(Placement {
                        first: first as u8,
                        second: second as u8,
                    }));
                }
                let stopped = if h[l] > h[r] { l } else { r };
                let free = l + r - stopped;
                Phase::Split {
                    stopped_col: stopped as u8,
                    free_is_first: free == first,
                    col: free as u8,
                    y,
                }
            }
            Phase::Split {
                stopped_col,
                free_is_first,
                mut col,
                y,
            } => {
                let c = col as usize;
                let can = |n: usize| n != stopped_col as usize && h[n] < y;
                if pressed.contains(Buttons::LEFT) && c > 0 && can(c - 1) {
                    col -= 1;
                } else if pressed.contains(Buttons::RIGHT) && c + 1 < COLUMNS && can(c + 1) {
                    col += 1;
                }
                let y = (y - fall).max(h[col as usize]);
                if y > h[col as usize] {
                    return Phase::Split {
                        stopped_col,
                        free_is_first,
                        col,
                        y,
                    };
                }
                let (first, second) = if free_is_first {
                    (col, stopped_col)
                } else {
                    (stopped_col, col)
                };
                self.finish(Action::Place(Placement { first, second }))
            }
            Phase::Alexey {
                mut cursor,
                mut counts,
            } => {
                cursor = move_cursor(cursor, pressed);
                let c = cursor as usize;
                let total: u32 = counts.iter().map(|&k| k as u32).sum();
                if pressed.contains(Buttons::A)
                    && (counts[c] as usize) < self.game.board.piles[c].len()
                {
                    counts[c] += 1;
                }
                let total_now: u32 = counts.iter().map(|&k| k as u32).sum();
                if total_now >= self.game.settings.alexey_max
                    || (pressed.contains(Buttons::B) && total == total_now)
                {
                    self.helpers_used += 1;
                    return self.finish(Action::Alexey(counts));
                }
                Phase::Alexey { cursor, counts }
            }
            Phase::Vladimir { mut cursor, first } => {
                cursor = move_cursor(cursor, pressed);
                if !pressed.contains(Buttons::A) {
                    return Phase::Vladimir { cursor, first };
                }
                match first {
                    None => Phase::Vladimir {
                        cursor,
                        first: Some(cursor),
                    },
                    Some(f) if f != cursor => {
                        self.helpers_used += 1;
                        self.finish(Action::Vladimir(f, cursor))
                    }
                    Some(_) => Phase::Vladimir { cursor, first },
                }
            }
        }
    }

    fn write_ram(&mut self) {
        let m = self.map.clone();
        let g = &self.game;
        self.image.clear();
        let ram = &mut self.image.ram;
        let (t1, t2) = g.current;
        // (column, y, landed) of the pair's first and second hat.
        let hats: Option<[(u8, i16, bool); 2]> = match self.phase {
            Phase::Pair { left, swapped, y } => {
                let (a, b) = if swapped {
                    (left + 1, left)
                } else {
                    (left, left + 1)
                };
                Some([(a, y, false), (b, y, false)])
            }
            Phase::Split {
                stopped_col,
                free_is_first,
                col,
                y,
            } => {
                let stopped = (
                    stopped_col,
                    g.board.piles[stopped_col as usize].height(),
                    true,
                );
                let free = (col, y, false);
                Some(if free_is_first {
                    [free, stopped]
                } else {
                    [stopped, free]
                })
            }
            _ => None,
        };
        let code = |t: u8| {
            m.hat_codes
                .get(t as usize - 1)
                .copied()
                .flatten()
                .unwrap_or(0)
        };
        if let Some(hats) = hats {
            for (i, (col, y, _landed)) in hats.into_iter().enumerate() {
                ram[m.falling[i] as usize] = code([t1, t2][i]);
                ram[m.column[i] as usize] = encode(m.column_code, col as i16);
                ram[m.y[i] as usize] = encode(m.y_code, y);
            }
        }
        ram[m.next[0] as usize] = code(g.next.0);
        ram[m.next[1] as usize] = code(g.next.1);
        let level = g.rules_level();
        if let Some(a) = m.shop {
            ram[a as usize] = (level / STAGES_PER_SHOP) as u8;
        }
        if let Some(a) = m.stage {
            ram[a as usize] = (level % STAGES_PER_SHOP) as u8;
        }
        if let Some(a) = m.cash {
            let mut cash = g.cash;
            for d in 0..8 {
                ram[a as usize + d] = (cash % 10) as u8;
                cash /= 10;
            }
        }
        if let PileLayout::Columns {
            counts,
            counts_stride,
            hats,
            stride,
            step,
        } = m.piles
        {
            // Alexey's work shows at once, as on the cartridge.
            let mut shown = g.board.clone();
            if let Phase::Alexey { counts, .. } = self.phase {
                shown.remove_bottoms(&g.geo, &counts);
            }
            for (c, pile) in shown.piles.iter().enumerate() {
                let list: Vec<u8> = pile.hats().collect();
                let at = |o: i32| (o as usize) & 0x7FF;
                ram[at(counts.addr as i32 + counts_stride * c as i32)] = list.len() as u8;
                for (i, &h) in list.iter().enumerate() {
                    ram[at(hats.addr as i32 + stride * c as i32 + step * i as i32)] = code(h);
                }
            }
        }
        if let Some(hm) = &m.helpers {
            if let (Some(count), Some(pool)) = (hm.pool_count, hm.pool) {
                ram[count as usize] = g.pool.len() as u8;
                for (i, h) in g.pool.iter().enumerate() {
                    ram[pool as usize + i] = if *h == Helper::Alexey { 1 } else { 2 };
                }
            }
            let cursor = match self.phase {
                Phase::Alexey { cursor, .. } | Phase::Vladimir { cursor, .. } => cursor,
                _ => 0,
            };
            ram[hm.cursor as usize] = encode(hm.cursor_code, cursor as i16);
        }
    }
}

/// The byte `code` stores for `n`.
fn encode(code: super::ram_map::Linear, n: i16) -> u8 {
    (code.offset + code.step * n) as u8
}

fn move_cursor(cursor: u8, pressed: Buttons) -> u8 {
    if pressed.contains(Buttons::LEFT) && cursor > 0 {
        cursor - 1
    } else if pressed.contains(Buttons::RIGHT) && (cursor as usize) + 1 < COLUMNS {
        cursor + 1
    } else {
        cursor
    }
}

impl RamGame for RamHost {
    fn image(&self) -> &RamImage {
        &self.image
    }
    fn image_mut(&mut self) -> &mut RamImage {
        &mut self.image
    }
}
