//! 2-player arena figures split by layout: the layouts a full-width search proves won from
//! the start (the loser cannot do anything about them), and the rest, where the target of
//! the Spot player applies.

use super::{DECIDED_DEPTH, GameRecord, Placing, decided_by_layout, wilson95};
use crate::layouts::builtin_layout;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// [`decided_by_layout`], remembered per layout (an arena meets the same layouts often).
pub fn is_decided(blocked: u64) -> bool {
    static SEEN: OnceLock<Mutex<HashMap<u64, bool>>> = OnceLock::new();
    let seen = SEEN.get_or_init(Default::default);
    if let Some(&d) = seen.lock().unwrap_or_else(|e| e.into_inner()).get(&blocked) {
        return d;
    }
    let d = decided_by_layout(blocked);
    seen.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(blocked, d);
    d
}

/// The blocked squares a record was played on.
pub fn record_layout(fixed: Option<u64>, r: &GameRecord) -> u64 {
    fixed.unwrap_or_else(|| builtin_layout(r.layout).expect("records hold built-in layouts"))
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
}

impl Tally {
    fn add(&mut self, p: Placing) {
        self.games += 1;
        match p {
            Placing::Won => self.wins += 1,
            Placing::Drew => self.draws += 1,
            Placing::Lost => self.losses += 1,
        }
    }
    pub fn win_rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.wins as f64 / self.games as f64
        }
    }
    fn line(&self, name: &str) -> String {
        let (lo, hi) = wilson95(self.wins, self.games);
        format!(
            "{name:<10} games {:>6} seat 1 wins {:>6} draws {:>5} losses {:>5}  {:>6.2}%  [{lo:.4}, {hi:.4}]",
            self.games,
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.win_rate()
        )
    }
}

/// Seat 1's results over all games, decided layouts and the rest; `first_mover` (when the
/// records are in game order) adds seat 1's results on decided layouts when it moved first.
pub struct Split {
    pub all: Tally,
    pub decided: Tally,
    pub undecided: Tally,
    pub decided_first: Option<Tally>,
    /// Distinct layouts met, and how many of them the search proved decided.
    pub layouts: usize,
    pub decided_layouts: usize,
}

pub fn split(fixed: Option<u64>, records: &[GameRecord], first_mover: Option<&[usize]>) -> Split {
    let mut s = Split {
        all: Tally::default(),
        decided: Tally::default(),
        undecided: Tally::default(),
        decided_first: first_mover.map(|_| Tally::default()),
        layouts: 0,
        decided_layouts: 0,
    };
    let mut layouts: HashMap<u64, bool> = HashMap::new();
    for (i, r) in records.iter().enumerate() {
        let blocked = record_layout(fixed, r);
        let decided = *layouts
            .entry(blocked)
            .or_insert_with(|| is_decided(blocked));
        let p = r.placings[0];
        s.all.add(p);
        if decided {
            s.decided.add(p);
            if let (Some(t), Some(f)) = (s.decided_first.as_mut(), first_mover)
                && f[i] == 0
            {
                t.add(p);
            }
        } else {
            s.undecided.add(p);
        }
    }
    s.layouts = layouts.len();
    s.decided_layouts = layouts.values().filter(|&&d| d).count();
    s
}

impl Split {
    /// Three lines: all games, decided layouts (with the proof), the rest.
    pub fn lines(&self) -> String {
        let mut out = self.all.line("all");
        out.push_str(&format!("  ({} layouts)\n", self.layouts));
        out.push_str(&self.decided.line("decided"));
        out.push_str(&format!(
            "  ({} layouts a {DECIDED_DEPTH}-ply full-width negamax proves won from the start",
            self.decided_layouts
        ));
        if let Some(t) = self.decided_first {
            out.push_str(&format!(
                "; seat 1 moving first won {} of {}",
                t.wins, t.games
            ));
        }
        out.push_str(")\n");
        out.push_str(&self.undecided.line("undecided"));
        out.push('\n');
        out
    }
}
