//! RAM search: finding a game's variables by comparing memory between moments, as the RAM
//! search windows of FCEUX and Nintaco do.
//!
//! A [`Snapshot`] copies the console's work RAM and, if asked, the cartridge RAM window
//! ($6000-$7FFF) from any [`Frame`] (the running session or a [`crate::Fork`]). A [`Search`]
//! starts with every address as a candidate and narrows the set with [`Test`]s that compare
//! two snapshots: "changed since the last snapshot", "went up by 7", "equals 3" ...
//! What survives, with its current value, is the answer.
//!
//! ```
//! use nesmind_host::ramsearch::{Search, Snapshot, Test, Width};
//! let before = Snapshot::from_parts(0, vec![0; 0x800], None).unwrap();
//! let mut ram = vec![0; 0x800];
//! ram[0x29] = 25; // the cursor moved right ...
//! ram[0x40] = 9; // ... and something else changed
//! let after = Snapshot::from_parts(1, ram, None).unwrap();
//! let mut search = Search::new(before, Width::U8);
//! search.filter(after, Test::ChangedBy(25));
//! assert_eq!(search.addresses(), &[0x0029]);
//! ```
//!
//! The module knows no game; players use it for their calibration and `nesmind ramsearch`
//! puts a command line around it.

use crate::Frame;
use std::ops::RangeInclusive;

/// Console work RAM as the CPU addresses it (mirrors excluded).
pub const WORK_RAM: RangeInclusive<u16> = 0x0000..=0x07FF;
/// The cartridge RAM window (PRG RAM on boards that have it; open bus elsewhere).
pub const PRG_RAM: RangeInclusive<u16> = 0x6000..=0x7FFF;

const RAM_LEN: usize = 0x800;
const PRG_RAM_LEN: usize = 0x2000;

/// The memory of one moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    frame: u64,
    ram: Vec<u8>,
    prg_ram: Option<Vec<u8>>,
}

impl Snapshot {
    /// Copies work RAM and, with `prg_ram`, $6000-$7FFF (read with `peek`: no side effects).
    pub fn take(frame: &dyn Frame, prg_ram: bool) -> Snapshot {
        let prg_ram = prg_ram.then(|| PRG_RAM.map(|a| frame.peek(a)).collect());
        Snapshot {
            frame: frame.frame_number(),
            ram: frame.ram()[..RAM_LEN].to_vec(),
            prg_ram,
        }
    }

    /// A snapshot from raw bytes (RAM images, tests): 2 KiB of work RAM and optionally
    /// 8 KiB of cartridge RAM.
    pub fn from_parts(
        frame: u64,
        ram: Vec<u8>,
        prg_ram: Option<Vec<u8>>,
    ) -> Result<Snapshot, String> {
        if ram.len() != RAM_LEN {
            return Err(format!("work RAM is {RAM_LEN} bytes, not {}", ram.len()));
        }
        if let Some(p) = &prg_ram
            && p.len() != PRG_RAM_LEN
        {
            return Err(format!(
                "cartridge RAM is {PRG_RAM_LEN} bytes, not {}",
                p.len()
            ));
        }
        Ok(Snapshot {
            frame,
            ram,
            prg_ram,
        })
    }

    /// The frame number the snapshot was taken at.
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// Whether the cartridge RAM window was copied.
    pub fn has_prg_ram(&self) -> bool {
        self.prg_ram.is_some()
    }

    /// The byte at a CPU address, if the snapshot covers it.
    pub fn byte(&self, addr: u16) -> Option<u8> {
        if WORK_RAM.contains(&addr) {
            Some(self.ram[usize::from(addr)])
        } else if PRG_RAM.contains(&addr) {
            let i = usize::from(addr - PRG_RAM.start());
            self.prg_ram.as_ref().map(|p| p[i])
        } else {
            None
        }
    }

    /// The value of `width` at `addr`, if every byte of it is covered.
    pub fn value(&self, addr: u16, width: Width) -> Option<u32> {
        let lo = u32::from(self.byte(addr)?);
        match width {
            Width::U8 => Some(lo),
            Width::U16Le => Some(lo | u32::from(self.byte(addr.checked_add(1)?)?) << 8),
            Width::U16Be => Some(lo << 8 | u32::from(self.byte(addr.checked_add(1)?)?)),
        }
    }

    /// Every address the snapshot covers, in order.
    pub fn addresses(&self) -> impl Iterator<Item = u16> + '_ {
        let prg = self.prg_ram.is_some().then_some(PRG_RAM);
        WORK_RAM.chain(prg.into_iter().flatten())
    }

    /// Addresses whose byte differs between two snapshots (both must cover them).
    pub fn differing(&self, other: &Snapshot) -> Vec<u16> {
        self.addresses()
            .filter(|&a| other.byte(a).is_some_and(|b| Some(b) != self.byte(a)))
            .collect()
    }
}

/// How many bytes a variable spans, and their order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    U8,
    U16Le,
    U16Be,
}

impl Width {
    /// The largest value plus one (values wrap around it).
    pub fn modulus(self) -> i64 {
        match self {
            Width::U8 => 0x100,
            Width::U16Le | Width::U16Be => 0x1_0000,
        }
    }
}

/// A comparison between a candidate's value before and after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    /// The same value (FCEUX's "equal to previous value").
    Unchanged,
    Changed,
    /// Went up (unsigned, no wrap-around).
    Increased,
    /// Went down (unsigned, no wrap-around).
    Decreased,
    /// The new value is this one (the old one does not matter).
    EqualTo(u32),
    /// The new value is anything but this one.
    NotEqualTo(u32),
    /// The new value is the old one plus this (wrapping at the width, so -1 from 0 is $FF).
    ChangedBy(i64),
}

impl Test {
    /// Whether the test holds for a candidate that went from `before` to `after`.
    pub fn holds(self, before: u32, after: u32, width: Width) -> bool {
        match self {
            Test::Unchanged => before == after,
            Test::Changed => before != after,
            Test::Increased => after > before,
            Test::Decreased => after < before,
            Test::EqualTo(v) => after == v,
            Test::NotEqualTo(v) => after != v,
            Test::ChangedBy(d) => {
                let m = width.modulus();
                (i64::from(before) + d).rem_euclid(m) == i64::from(after)
            }
        }
    }

    /// Reads a test as written on a command line: `changed`, `unchanged` (or `equal`),
    /// `increased`, `decreased`, `= 5`, `!= $FF`, `+7`, `-1`, `delta -7`.
    pub fn parse(text: &str) -> Result<Test, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let arg = |i: usize| -> Result<&str, String> {
            words
                .get(i)
                .copied()
                .ok_or_else(|| format!("'{text}': a value is missing"))
        };
        let test = match words.first().copied().unwrap_or("") {
            "changed" => Test::Changed,
            "unchanged" | "equal" | "same" => Test::Unchanged,
            "increased" | "up" => Test::Increased,
            "decreased" | "down" => Test::Decreased,
            "=" | "==" | "is" => Test::EqualTo(parse_value(arg(1)?)?),
            "!=" | "not" => Test::NotEqualTo(parse_value(arg(1)?)?),
            "delta" | "by" => Test::ChangedBy(parse_delta(arg(1)?)?),
            w if w.starts_with('+') || w.starts_with('-') => Test::ChangedBy(parse_delta(w)?),
            w => {
                return Err(format!(
                    "unknown test '{w}' (changed, unchanged, increased, decreased, = V, != V, +D, -D)"
                ));
            }
        };
        Ok(test)
    }
}

/// A number as people write it: `12`, `$0C`, `0x0C`.
pub fn parse_value(text: &str) -> Result<u32, String> {
    let t = text.trim();
    let (digits, radix) = match t.strip_prefix('$').or_else(|| t.strip_prefix("0x")) {
        Some(h) => (h, 16),
        None => (t, 10),
    };
    u32::from_str_radix(digits, radix).map_err(|_| format!("'{text}' is not a number"))
}

fn parse_delta(text: &str) -> Result<i64, String> {
    let (sign, rest) = match text.strip_prefix('-') {
        Some(r) => (-1, r),
        None => (1, text.strip_prefix('+').unwrap_or(text)),
    };
    Ok(sign * i64::from(parse_value(rest)?))
}

/// A candidate left standing, with its value in the latest snapshot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Survivor {
    pub addr: u16,
    pub value: u32,
}

/// A set of candidate addresses narrowed step by step.
#[derive(Clone, Debug)]
pub struct Search {
    width: Width,
    candidates: Vec<u16>,
    previous: Snapshot,
}

impl Search {
    /// Every address `start` covers is a candidate.
    pub fn new(start: Snapshot, width: Width) -> Search {
        let candidates = start
            .addresses()
            .filter(|&a| start.value(a, width).is_some())
            .collect();
        Search {
            width,
            candidates,
            previous: start,
        }
    }

    /// Only `addresses` (those `start` covers) are candidates.
    pub fn over(start: Snapshot, width: Width, addresses: impl IntoIterator<Item = u16>) -> Search {
        let mut candidates: Vec<u16> = addresses
            .into_iter()
            .filter(|&a| start.value(a, width).is_some())
            .collect();
        candidates.sort_unstable();
        candidates.dedup();
        Search {
            width,
            candidates,
            previous: start,
        }
    }

    /// Keeps the candidates for which `test` holds from the previous snapshot to `now`,
    /// which then becomes the previous one. Returns how many are left.
    pub fn filter(&mut self, now: Snapshot, test: Test) -> usize {
        let before = std::mem::replace(&mut self.previous, now);
        let (width, after) = (self.width, &self.previous);
        self.candidates
            .retain(|&a| match (before.value(a, width), after.value(a, width)) {
                (Some(b), Some(n)) => test.holds(b, n, width),
                _ => false,
            });
        self.candidates.len()
    }

    /// Keeps the candidates for which `test` holds from `before` to `after`, two snapshots
    /// of the caller's choosing (e.g. two forks run with and without a button held); the
    /// previous snapshot stays as it was.
    pub fn filter_pair(&mut self, before: &Snapshot, after: &Snapshot, test: Test) -> usize {
        let width = self.width;
        self.candidates
            .retain(|&a| match (before.value(a, width), after.value(a, width)) {
                (Some(b), Some(n)) => test.holds(b, n, width),
                _ => false,
            });
        self.candidates.len()
    }

    /// Keeps the candidates `keep` accepts.
    pub fn retain(&mut self, keep: impl FnMut(&u16) -> bool) -> usize {
        self.candidates.retain(keep);
        self.candidates.len()
    }

    /// The candidates left, in address order.
    pub fn addresses(&self) -> &[u16] {
        &self.candidates
    }

    pub fn len(&self) -> usize {
        self.candidates.len()
    }

    pub fn is_empty(&self) -> bool {
        self.candidates.is_empty()
    }

    pub fn width(&self) -> Width {
        self.width
    }

    /// The snapshot the next [`Search::filter`] compares against.
    pub fn previous(&self) -> &Snapshot {
        &self.previous
    }

    /// The candidates left with their values in the previous snapshot.
    pub fn survivors(&self) -> Vec<Survivor> {
        self.candidates
            .iter()
            .filter_map(|&addr| {
                let value = self.previous.value(addr, self.width)?;
                Some(Survivor { addr, value })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snap(frame: u64, set: &[(u16, u8)]) -> Snapshot {
        let mut ram = vec![0u8; RAM_LEN];
        let mut prg = vec![0u8; PRG_RAM_LEN];
        for &(a, v) in set {
            if a < 0x800 {
                ram[usize::from(a)] = v;
            } else {
                prg[usize::from(a - 0x6000)] = v;
            }
        }
        Snapshot::from_parts(frame, ram, Some(prg)).unwrap()
    }

    #[test]
    fn tests_compare_before_and_after() {
        let w = Width::U8;
        assert!(Test::Unchanged.holds(3, 3, w) && !Test::Unchanged.holds(3, 4, w));
        assert!(Test::Changed.holds(3, 4, w) && !Test::Changed.holds(4, 4, w));
        assert!(Test::Increased.holds(3, 4, w) && !Test::Increased.holds(4, 3, w));
        assert!(Test::Decreased.holds(4, 3, w) && !Test::Decreased.holds(3, 3, w));
        assert!(Test::EqualTo(9).holds(0, 9, w) && !Test::EqualTo(9).holds(9, 8, w));
        assert!(Test::NotEqualTo(9).holds(9, 8, w));
        assert!(Test::ChangedBy(-1).holds(0, 0xFF, w));
        assert!(Test::ChangedBy(7).holds(0xFE, 5, w));
        assert!(!Test::ChangedBy(7).holds(0xFE, 5, Width::U16Le));
        assert!(Test::ChangedBy(-7).holds(10, 3, Width::U16Be));
    }

    #[test]
    fn tests_parse_as_written() {
        assert_eq!(Test::parse("changed"), Ok(Test::Changed));
        assert_eq!(Test::parse("equal"), Ok(Test::Unchanged));
        assert_eq!(Test::parse("= $1F"), Ok(Test::EqualTo(0x1F)));
        assert_eq!(Test::parse("!= 0x10"), Ok(Test::NotEqualTo(16)));
        assert_eq!(Test::parse("+7"), Ok(Test::ChangedBy(7)));
        assert_eq!(Test::parse("delta -$10"), Ok(Test::ChangedBy(-16)));
        assert!(Test::parse("bigger").unwrap_err().contains("unknown test"));
        assert!(Test::parse("=").unwrap_err().contains("missing"));
        assert!(Test::parse("= ten").unwrap_err().contains("not a number"));
    }

    #[test]
    fn a_search_narrows_to_the_variable() {
        // A cursor at $29 moves +1, +7, -1; a frame counter at $43 counts up; the
        // cartridge RAM byte $6010 follows the cursor too.
        let cursor = [24u8, 25, 32, 31];
        let snaps: Vec<Snapshot> = (0..4)
            .map(|i| {
                snap(
                    i,
                    &[
                        (0x29, cursor[i as usize]),
                        (0x43, i as u8),
                        (0x6010, cursor[i as usize]),
                    ],
                )
            })
            .collect();
        let mut s = Search::new(snaps[0].clone(), Width::U8);
        assert_eq!(s.len(), RAM_LEN + PRG_RAM_LEN);
        assert_eq!(s.filter(snaps[1].clone(), Test::Increased), 3);
        assert_eq!(s.filter(snaps[2].clone(), Test::ChangedBy(7)), 2);
        assert_eq!(s.filter(snaps[3].clone(), Test::Decreased), 2);
        assert_eq!(
            s.survivors(),
            vec![
                Survivor {
                    addr: 0x29,
                    value: 31
                },
                Survivor {
                    addr: 0x6010,
                    value: 31
                }
            ]
        );
        s.retain(|&a| a < 0x800);
        assert_eq!(s.addresses(), &[0x29]);
        // A pair of the caller's choosing leaves `previous` alone.
        assert_eq!(s.filter_pair(&snaps[0], &snaps[3], Test::ChangedBy(7)), 1);
        assert_eq!(s.previous().frame(), 3);
        assert_eq!(s.filter_pair(&snaps[0], &snaps[3], Test::Unchanged), 0);
    }

    #[test]
    fn words_and_coverage() {
        let a = snap(0, &[(0x10, 0x34), (0x11, 0x12), (0x7FF, 1)]);
        assert_eq!(a.value(0x10, Width::U16Le), Some(0x1234));
        assert_eq!(a.value(0x10, Width::U16Be), Some(0x3412));
        assert_eq!(a.value(0x7FF, Width::U16Le), None, "$0800 is not covered");
        assert_eq!(a.byte(0x2000), None);
        let ram_only = Snapshot::from_parts(0, vec![0; RAM_LEN], None).unwrap();
        assert_eq!(ram_only.byte(0x6000), None);
        assert_eq!(ram_only.addresses().count(), RAM_LEN);
        let s = Search::new(ram_only, Width::U16Le);
        assert_eq!(s.len(), RAM_LEN - 1);
        let b = snap(1, &[(0x10, 0x34), (0x11, 0x13), (0x6000, 5)]);
        assert_eq!(a.differing(&b), vec![0x11, 0x7FF, 0x6000]);
        let only = Search::over(a, Width::U8, [0x6000, 0x10, 0x10, 0x2000]);
        assert_eq!(only.addresses(), &[0x10, 0x6000]);
        assert!(
            Snapshot::from_parts(0, vec![0; 10], None)
                .unwrap_err()
                .contains("2048")
        );
    }
}
