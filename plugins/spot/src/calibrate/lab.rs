//! Experiments on forks: pressing a pad on a copy of the machine and comparing its memory
//! with a copy left alone, so that only what the press caused shows up.

use crate::map_read::Memory;
use crate::pad_plan::direction;
use crate::ram_map::Cursor;
use nesmind_host::ramsearch::{Search, Snapshot, Test, Width};
use nesmind_host::sight::Meter;
use nesmind_host::{Buttons, Fork, Frame};

/// Frames run after a button is released before memory is compared.
pub const SETTLE: u64 = 8;
/// The D-pad directions in the order the probes use them.
pub const DIRS: [Buttons; 4] = [Buttons::RIGHT, Buttons::LEFT, Buttons::DOWN, Buttons::UP];

/// Counts the frames run on forks, charging them to a meter (calibration runs a slice
/// per game frame); `hold` is how long a press lasts.
pub struct Lab<'m> {
    pub frames: u64,
    pub hold: u64,
    meter: &'m mut Meter,
}

/// What one direction did, per byte: the pressed fork's value minus the untouched one's.
pub type Effect = Vec<(u16, u8)>;

impl<'m> Lab<'m> {
    pub fn new(hold: u64, meter: &'m mut Meter) -> Lab<'m> {
        Lab {
            frames: 0,
            hold,
            meter,
        }
    }

    pub fn run(&mut self, f: &mut Fork, n: u64) -> Result<(), String> {
        for _ in 0..n {
            self.meter.charge(1)?;
            self.frames += 1;
            f.run_frame()?;
        }
        Ok(())
    }

    /// Holds `b` on `pad`, releases it and runs `settle` frames more.
    pub fn tap(&mut self, f: &mut Fork, pad: usize, b: Buttons, settle: u64) -> Result<(), String> {
        f.set_buttons(pad, b);
        self.run(f, self.hold)?;
        f.set_buttons(pad, Buttons::NONE);
        self.run(f, settle)
    }

    /// The base left alone for as long as a tap takes.
    pub fn control(&mut self, base: &Fork) -> Result<Snapshot, String> {
        let mut f = base.clone();
        self.run(&mut f, self.hold + SETTLE)?;
        Ok(Snapshot::take(&f, true))
    }

    /// The bytes a tap of `b` changed, against `control`.
    pub fn effect(
        &mut self,
        base: &Fork,
        control: &Snapshot,
        pad: usize,
        b: Buttons,
    ) -> Result<Effect, String> {
        let mut f = base.clone();
        self.tap(&mut f, pad, b, SETTLE)?;
        let pressed = Snapshot::take(&f, true);
        Ok(control
            .differing(&pressed)
            .into_iter()
            .map(|a| {
                let d = pressed
                    .byte(a)
                    .unwrap_or(0)
                    .wrapping_sub(control.byte(a).unwrap_or(0));
                (a, d)
            })
            .collect())
    }

    /// Whether a tap of Right or Left on `pad` leaves any trace (a cheap first look).
    pub fn any_effect(&mut self, base: &Fork, pad: usize) -> Result<bool, String> {
        let control = self.control(base)?;
        for b in [Buttons::RIGHT, Buttons::LEFT] {
            if !self.effect(base, &control, pad, b)?.is_empty() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Bytes that follow the D-pad like a cursor: opposite directions move them by opposite
    /// amounts (or one of the two does nothing, at an edge). Empty when the pad does not
    /// move anything, e.g. on another player's turn.
    pub fn cursor_bytes(&mut self, base: &Fork, pad: usize) -> Result<Vec<u16>, String> {
        let control = self.control(base)?;
        let mut effects = Vec::new();
        for b in DIRS {
            effects.push(self.effect(base, &control, pad, b)?);
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
    pub fn responds(&mut self, base: &Fork, pad: usize) -> Result<bool, String> {
        Ok(self.any_effect(base, pad)? && !self.cursor_bytes(base, pad)?.is_empty())
    }

    /// Walks the cursor to `target` one press at a time, reading it back after each press;
    /// false if it cannot be read or stops moving.
    pub fn drive(
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
            self.tap(f, pad, direction(cell, target), 3)?;
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

/// Releases every pad on a fork taken from the running game.
pub fn release_all(f: &mut Fork) {
    for pad in 0..4 {
        f.set_buttons(pad, Buttons::NONE);
    }
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
