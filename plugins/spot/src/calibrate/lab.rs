//! Spot's experiments on forks, on the host's lab (`nesmind_host::sight::Lab`: press a pad
//! on a copy of the machine and compare its memory with a copy left alone, so that only
//! what the press caused shows up): which bytes follow the pad like a cursor, and walking
//! that cursor.

use crate::map_read::Memory;
use crate::pad_plan::direction;
use crate::ram_map::Cursor;
use nesmind_host::ramsearch::{Search, Snapshot, Test, Width};
pub use nesmind_host::sight::{Lab, release_all};
use nesmind_host::{Buttons, Fork};

/// Frames run after a button is released before memory is compared.
pub const SETTLE: u64 = 8;
/// The D-pad directions in the order the probes use them.
pub const DIRS: [Buttons; 4] = [Buttons::RIGHT, Buttons::LEFT, Buttons::DOWN, Buttons::UP];

/// Spot's probes, on the host's fork lab: which bytes a pad moves like a cursor.
pub trait CursorProbes {
    fn any_effect(&mut self, base: &Fork, pad: usize) -> Result<bool, String>;
    fn cursor_bytes(&mut self, base: &Fork, pad: usize) -> Result<Vec<u16>, String>;
    fn responds(&mut self, base: &Fork, pad: usize) -> Result<bool, String>;
    fn drive(
        &mut self,
        f: &mut Fork,
        pad: usize,
        cursor: &Cursor,
        target: u8,
    ) -> Result<bool, String>;
}

impl CursorProbes for Lab<'_> {
    /// Whether a tap of Right or Left on `pad` leaves any trace (a cheap first look).
    fn any_effect(&mut self, base: &Fork, pad: usize) -> Result<bool, String> {
        let control = self.control(base, SETTLE)?;
        for b in [Buttons::RIGHT, Buttons::LEFT] {
            if !self.effect(base, &control, pad, b, SETTLE)?.is_empty() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Bytes that follow the D-pad like a cursor: opposite directions move them by opposite
    /// amounts (or one of the two does nothing, at an edge). Empty when the pad does not
    /// move anything, e.g. on another player's turn.
    fn cursor_bytes(&mut self, base: &Fork, pad: usize) -> Result<Vec<u16>, String> {
        let control = self.control(base, SETTLE)?;
        let mut effects = Vec::new();
        for b in DIRS {
            effects.push(self.effect(base, &control, pad, b, SETTLE)?);
        }
        let delta = |k: usize, a: u16| {
            effects[k]
                .iter()
                .find(|&&(x, _)| x == a)
                .map_or(0, |&(_, d)| d)
        };
        let opposite = |d1: u8, d2: u8| d1 == 0 || d2 == 0 || d1.wrapping_add(d2) == 0;
        let mut all: Vec<u16> = effects.iter().flatten().map(|&(a, _)| a).collect();
        all.sort_unstable();
        all.dedup();
        Ok(all
            .into_iter()
            .filter(|&a| {
                let d: Vec<u8> = (0..4).map(|k| delta(k, a)).collect();
                opposite(d[0], d[1]) && opposite(d[2], d[3])
            })
            .collect())
    }

    /// Whether `pad` moves a cursor on this fork.
    fn responds(&mut self, base: &Fork, pad: usize) -> Result<bool, String> {
        Ok(self.any_effect(base, pad)? && !self.cursor_bytes(base, pad)?.is_empty())
    }

    /// Walks the cursor to `target` one press at a time, reading it back after each press;
    /// false if it cannot be read or stops moving.
    fn drive(
        &mut self,
        f: &mut Fork,
        pad: usize,
        cursor: &Cursor,
        target: u8,
    ) -> Result<bool, String> {
        let mut stuck = 0;
        for _ in 0..40 {
            let Some(cell) = cursor_cell(cursor, f) else {
                return Ok(false);
            };
            if cell == target {
                return Ok(true);
            }
            self.tap_then(f, pad, direction(cell, target), 3)?;
            if cursor_cell(cursor, f) == Some(cell) {
                stuck += 1;
                if stuck >= 3 {
                    return Ok(false);
                }
            }
        }
        Ok(false)
    }
}

/// The cell a cursor model reads from a fork.
pub fn cursor_cell(cursor: &Cursor, f: &Fork) -> Option<u8> {
    let now: Vec<u8> = cursor.addresses().iter().map(|&(_, a)| f.byte(a)).collect();
    (0..49u8).find(|&c| cursor.bytes(c) == now)
}

/// Addresses whose value is the same in every snapshot of a group and differs between
/// groups (e.g. the turn byte, sampled before each player's moves).
pub fn separating_bytes(groups: &[Vec<&Snapshot>]) -> Vec<u16> {
    let Some(first) = groups.iter().flatten().next() else {
        return Vec::new();
    };
    let mut search = Search::new((*first).clone(), Width::U8);
    for group in groups {
        for s in &group[1..] {
            search.filter_pair(group[0], s, Test::Unchanged);
        }
    }
    for (i, g) in groups.iter().enumerate() {
        for h in &groups[i + 1..] {
            search.filter_pair(g[0], h[0], Test::Changed);
        }
    }
    search.addresses().to_vec()
}
