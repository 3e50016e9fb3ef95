//! The six piles, with per-hat prefix data so that landing, clearing and undoing are O(1).

use super::rules::{COLUMNS, HAT_HEIGHT, HAT_TYPES, STACK, Settings};

/// Most hats one pile can hold; a pile that would overflow counts as topped out.
pub const PILE_CAPACITY: usize = 96;

/// Pile geometry derived from the settings.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Brim-to-brim offset `[lower-1][upper-1]`.
    pub offsets: [[i16; HAT_TYPES]; HAT_TYPES],
    pub height_limit: i16,
    pub slide_over_equal: bool,
}

impl Geometry {
    pub fn new(settings: &Settings) -> Geometry {
        Geometry {
            offsets: settings.brim_offsets(),
            height_limit: settings.height_limit as i16,
            slide_over_equal: settings.slide_over_equal,
        }
    }
}

/// One hat in a pile together with the pile's state up to and including it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Slot {
    pub hat: u8,
    /// Length of the run of identical hats ending here.
    pub run: u8,
    /// Height of this hat's brim above the heads.
    pub base: i16,
    /// Pile height up to this hat.
    pub height: i16,
    /// Adjacent different hats up to this hat.
    pub mismatches: u16,
    /// Sum of squared run lengths (runs of two or more) up to this hat.
    pub run_squares: u16,
}

/// What the evaluation needs to know about one pile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PileStats {
    pub hats: u16,
    pub height: i16,
    pub run_squares: u16,
    pub top_run: u8,
    pub mismatches: u16,
    /// Type of the top hat, 0 when empty.
    pub top_hat: u8,
}

impl PileStats {
    /// Stats of a pile of `hats` hats whose top slot is `top`.
    fn topped_by(top: Option<&Slot>, hats: usize) -> PileStats {
        match top {
            None => PileStats::default(),
            Some(s) => PileStats {
                hats: hats as u16,
                height: s.height,
                run_squares: s.run_squares,
                top_run: s.run,
                mismatches: s.mismatches,
                top_hat: s.hat,
            },
        }
    }
}

#[derive(Clone, Debug)]
pub struct Pile {
    len: u8,
    slots: [Slot; PILE_CAPACITY],
}

impl Default for Pile {
    fn default() -> Pile {
        Pile {
            len: 0,
            slots: [Slot::default(); PILE_CAPACITY],
        }
    }
}

fn squared_run(run: u8) -> u16 {
    if run >= 2 {
        (run as u16) * (run as u16)
    } else {
        0
    }
}

impl Pile {
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn height(&self) -> i16 {
        if self.len == 0 {
            0
        } else {
            self.slots[self.len as usize - 1].height
        }
    }
    /// Hat types from the bottom up.
    pub fn hats(&self) -> impl Iterator<Item = u8> + '_ {
        self.slots[..self.len()].iter().map(|s| s.hat)
    }
    pub fn top(&self) -> Option<&Slot> {
        self.slots[..self.len()].last()
    }
    pub fn stats(&self) -> PileStats {
        PileStats::topped_by(self.top(), self.len())
    }

    /// The pile's stats after `hat` lands on it, and how it lands; the pile is unchanged.
    pub fn peek_land(&self, geo: &Geometry, hat: u8) -> (PileStats, Landing) {
        let at = self.len();
        if at == PILE_CAPACITY {
            return (self.stats(), Landing::Overflow);
        }
        let slot = self.next_slot(geo, hat);
        if slot.run as usize >= STACK {
            let rest = at + 1 - STACK;
            let top = rest.checked_sub(1).map(|i| &self.slots[i]);
            (PileStats::topped_by(top, rest), Landing::Cleared(hat))
        } else {
            (PileStats::topped_by(Some(&slot), at + 1), Landing::Stays)
        }
    }

    /// The slot a hat landing on this pile would occupy.
    fn next_slot(&self, geo: &Geometry, hat: u8) -> Slot {
        let h = HAT_HEIGHT[hat as usize - 1] as i16;
        match self.top() {
            None => Slot {
                hat,
                run: 1,
                base: 0,
                height: h,
                mismatches: 0,
                run_squares: 0,
            },
            Some(below) => {
                let base = below.base + geo.offsets[below.hat as usize - 1][hat as usize - 1];
                let (run, mismatches) = if below.hat == hat {
                    (below.run + 1, below.mismatches)
                } else {
                    (1, below.mismatches + 1)
                };
                Slot {
                    hat,
                    run,
                    base,
                    height: below.height.max(base + h),
                    mismatches,
                    run_squares: below.run_squares - squared_run(run - 1) + squared_run(run),
                }
            }
        }
    }

    /// Replaces the whole pile (used by helpers and refills, never in the inner search loop).
    pub fn rebuild(&mut self, geo: &Geometry, hats: impl IntoIterator<Item = u8>) {
        self.len = 0;
        for hat in hats {
            if self.len() == PILE_CAPACITY {
                break;
            }
            let slot = self.next_slot(geo, hat);
            self.slots[self.len()] = slot;
            self.len += 1;
        }
    }
}

/// Enough to take back one landing.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    col: u8,
    len: u8,
    overwritten: Slot,
}

/// Result of one hat landing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Landing {
    Stays,
    /// A stack of five of this hat type vanished.
    Cleared(u8),
    /// The pile cannot hold another hat.
    Overflow,
}

#[derive(Clone, Debug, Default)]
pub struct Board {
    pub piles: [Pile; COLUMNS],
}

impl Board {
    pub fn heights(&self) -> [i16; COLUMNS] {
        std::array::from_fn(|c| self.piles[c].height())
    }
    pub fn stats(&self) -> [PileStats; COLUMNS] {
        std::array::from_fn(|c| self.piles[c].stats())
    }
    pub fn total_hats(&self) -> usize {
        self.piles.iter().map(Pile::len).sum()
    }
    pub fn max_height(&self) -> i16 {
        self.heights().into_iter().max().unwrap_or(0)
    }

    /// Lands `hat` on pile `col`, clearing a completed stack, and logs how to undo it.
    pub fn land(&mut self, geo: &Geometry, col: usize, hat: u8, log: &mut Vec<Undo>) -> Landing {
        let pile = &mut self.piles[col];
        let at = pile.len();
        if at == PILE_CAPACITY {
            return Landing::Overflow;
        }
        log.push(Undo {
            col: col as u8,
            len: pile.len,
            overwritten: pile.slots[at],
        });
        let slot = pile.next_slot(geo, hat);
        pile.slots[at] = slot;
        if slot.run as usize >= STACK {
            // Runs never exceed five, so the whole stack sits on top.
            pile.len = (at + 1 - STACK) as u8;
            Landing::Cleared(hat)
        } else {
            pile.len += 1;
            Landing::Stays
        }
    }

    /// Takes back landings until the log is `keep` entries long.
    pub fn undo(&mut self, log: &mut Vec<Undo>, keep: usize) {
        while log.len() > keep {
            let u = log.pop().expect("log longer than keep");
            let pile = &mut self.piles[u.col as usize];
            pile.slots[u.len as usize] = u.overwritten;
            pile.len = u.len;
        }
    }

    /// Removes `counts[c]` hats from the bottom of each pile (Alexey).
    pub fn remove_bottoms(&mut self, geo: &Geometry, counts: &[u8; COLUMNS]) {
        for (pile, &k) in self.piles.iter_mut().zip(counts) {
            if k > 0 {
                let rest: Vec<u8> = pile.hats().skip(k as usize).collect();
                pile.rebuild(geo, rest);
            }
        }
    }

    /// Exchanges two piles (Vladimir).
    pub fn swap_piles(&mut self, a: usize, b: usize) {
        self.piles.swap(a, b);
    }

    /// Sets every pile from bottom-up hat lists; stacks of five in the input vanish.
    pub fn set_piles(&mut self, geo: &Geometry, columns: &[Vec<u8>; COLUMNS]) {
        let mut log = Vec::new();
        for (c, hats) in columns.iter().enumerate() {
            self.piles[c].rebuild(geo, std::iter::empty());
            for &h in hats {
                self.land(geo, c, h, &mut log);
            }
        }
    }

    /// Stats of pile `col` with its `k` bottom hats removed (for rating Alexey's options).
    pub fn stats_without_bottom(&self, geo: &Geometry, col: usize, k: usize) -> PileStats {
        let mut p = Pile::default();
        p.rebuild(geo, self.piles[col].hats().skip(k));
        p.stats()
    }
}

#[cfg(test)]
mod tests {
    use super::super::rules::*;
    use super::*;

    fn geo() -> Geometry {
        Geometry::new(&Settings::default())
    }

    #[test]
    fn reading_a_heights_by_hand() {
        let g = geo();
        let mut b = Board::default();
        let mut log = Vec::new();
        b.land(&g, 0, TOP, &mut log);
        assert_eq!(b.piles[0].height(), 20);
        b.land(&g, 0, TOP, &mut log); // nests 2 px higher
        assert_eq!(b.piles[0].height(), 22);
        b.land(&g, 0, DERBY, &mut log); // brim 18 above the top hat's brim
        assert_eq!(b.piles[0].height(), 2 + 18 + 8);
        b.land(&g, 0, WIZARD, &mut log); // derby row, wizard column: 3
        assert_eq!(b.piles[0].height(), 2 + 18 + 3 + 24);
        let s = b.piles[0].stats();
        assert_eq!(
            (s.hats, s.mismatches, s.run_squares, s.top_run),
            (4, 2, 4, 1)
        );
    }

    #[test]
    fn five_identical_vanish_and_undo_restores() {
        let g = geo();
        let mut b = Board::default();
        let mut log = Vec::new();
        b.land(&g, 2, CAP, &mut log);
        for _ in 0..3 {
            assert_eq!(b.land(&g, 2, COWBOY, &mut log), Landing::Stays);
        }
        let before = b.piles[2].stats();
        let keep = log.len();
        assert_eq!(b.land(&g, 2, COWBOY, &mut log), Landing::Stays);
        assert_eq!(b.land(&g, 2, COWBOY, &mut log), Landing::Cleared(COWBOY));
        assert_eq!(b.piles[2].len(), 1);
        assert_eq!(b.piles[2].height(), 12);
        b.land(&g, 2, TOP, &mut log); // overwrites a cleared slot
        b.undo(&mut log, keep);
        assert_eq!(b.piles[2].stats(), before);
        assert_eq!(
            b.piles[2].hats().collect::<Vec<_>>(),
            vec![CAP, COWBOY, COWBOY, COWBOY]
        );
    }

    #[test]
    fn helpers_reshape_piles() {
        let g = geo();
        let mut b = Board::default();
        b.set_piles(
            &g,
            &[
                vec![TOP, CAP, CAP],
                vec![DERBY],
                vec![],
                vec![],
                vec![],
                vec![],
            ],
        );
        b.remove_bottoms(&g, &[1, 0, 0, 0, 0, 0]);
        assert_eq!(b.piles[0].hats().collect::<Vec<_>>(), vec![CAP, CAP]);
        assert_eq!(b.piles[0].height(), 18);
        assert_eq!(b.stats_without_bottom(&g, 0, 1).height, 12);
        b.swap_piles(0, 1);
        assert_eq!(b.heights()[..2], [8, 18]);
    }

    #[test]
    fn peeking_predicts_landing() {
        let g = geo();
        let mut b = Board::default();
        b.set_piles(
            &g,
            &[
                vec![CAP, COWBOY, COWBOY, COWBOY, COWBOY],
                vec![],
                vec![TOP, WIZARD],
                vec![DERBY; 3],
                vec![CROWN; 4],
                vec![COWBOY],
            ],
        );
        let mut log = Vec::new();
        for col in 0..COLUMNS {
            for hat in 1..=HAT_TYPES as u8 {
                let (stats, how) = b.piles[col].peek_land(&g, hat);
                assert_eq!(b.land(&g, col, hat, &mut log), how);
                assert_eq!(b.piles[col].stats(), stats, "column {col} hat {hat}");
                b.undo(&mut log, 0);
            }
        }
    }
}
