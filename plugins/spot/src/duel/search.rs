//! Iterative deepening with aspiration windows over a fail-soft PVS negamax; the node
//! search with its pruning lives in `node.rs`.

use super::order::Ordering as MoveOrder;
use super::tt::Table;
use super::{Decided, Duel};
use crate::moves::Move;
use nesmind_search::{SearchResult, WIN};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Deepest ply a search reaches (iterations stop well before).
pub const MAX_PLY: usize = 128;
/// Larger than any score.
pub const INF: i32 = WIN + 1;
/// First aspiration half-width, in centipieces.
const ASPIRATION: i32 = 30;

pub type Report = SearchResult<Move>;
pub type Hook = Box<dyn FnMut(&Report) + Send>;

/// When to stop: `soft` is checked between iterations, `hard` and `nodes` anywhere.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
    pub nodes: Option<u64>,
    pub depth: u32,
}

pub struct DuelSearcher {
    pub(super) tt: Table,
    pub(super) order: MoveOrder,
    pub(super) limits: Limits,
    pub(super) start: Instant,
    pub(super) nodes: u64,
    /// Depth of the running iteration; the first one always completes.
    pub(super) iteration: u32,
    pub(super) stopped: bool,
    pub(super) stop_flag: Option<Arc<AtomicBool>>,
    pub(super) hook: Option<Hook>,
    pub(super) moves: Vec<Vec<Move>>,
    pub(super) scores: Vec<Vec<i32>>,
    pub(super) pv: Vec<[Move; MAX_PLY]>,
    pub(super) pv_len: [usize; MAX_PLY + 1],
}

/// Score of a finished game `ply` plies from the root: quicker wins are better.
pub fn decided_score(d: Decided, ply: usize) -> i32 {
    match d {
        Decided::Win => WIN - ply as i32,
        Decided::Draw => 0,
        Decided::Loss => -(WIN - ply as i32),
    }
}

impl DuelSearcher {
    /// A searcher with a table of 2^`tt_bits` two-entry buckets (32 bytes each).
    pub fn new(tt_bits: u32) -> DuelSearcher {
        DuelSearcher {
            tt: Table::new(tt_bits),
            order: MoveOrder::new(MAX_PLY),
            limits: Limits::default(),
            start: Instant::now(),
            nodes: 0,
            iteration: 0,
            stopped: false,
            stop_flag: None,
            hook: None,
            moves: (0..=MAX_PLY)
                .map(|_| Vec::with_capacity(super::MAX_MOVES))
                .collect(),
            scores: (0..=MAX_PLY)
                .map(|_| Vec::with_capacity(super::MAX_MOVES))
                .collect(),
            pv: vec![[Move::PASS; MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
        }
    }

    pub fn set_stop_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.stop_flag = flag;
    }

    /// Called after every completed iteration (the UAI front end prints `info` lines).
    pub fn set_on_iteration(&mut self, hook: Option<Hook>) {
        self.hook = hook;
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.order = MoveOrder::new(MAX_PLY);
    }

    /// Polled every 1024 nodes; once true, the running iteration unwinds.
    pub(super) fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.iteration <= 1 || self.nodes & 1023 != 0 {
            return false;
        }
        let external = self
            .stop_flag
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed));
        let nodes = self.limits.nodes.is_some_and(|n| self.nodes >= n);
        let time = self.limits.hard.is_some_and(|h| self.start.elapsed() >= h);
        self.stopped = external || nodes || time;
        self.stopped
    }

    /// Searches an undecided position within `limits`.
    pub fn search(&mut self, root: &Duel, limits: Limits) -> Report {
        self.limits = limits;
        self.start = Instant::now();
        self.nodes = 0;
        self.stopped = false;
        self.tt.next_generation();
        self.order.age();
        let mut moves = Vec::new();
        root.moves(&mut moves);
        let mut report = Report {
            best: moves[0],
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: vec![moves[0]],
        };
        if moves.len() == 1 {
            // Forced (often a pass): nothing to think about.
            return report;
        }
        for depth in 1..=limits.depth.max(1) {
            self.iteration = depth;
            let score = self.aspiration(root, depth as i32, report.score);
            if self.stopped {
                break;
            }
            report.depth = depth;
            report.score = score;
            report.pv = self.pv[0][..self.pv_len[0]].to_vec();
            report.best = report.pv.first().copied().unwrap_or(report.best);
            report.nodes = self.nodes;
            report.elapsed = self.start.elapsed();
            if let Some(h) = self.hook.as_mut() {
                h(&report);
            }
            let mate_seen = score.abs() > WIN / 2 && WIN - score.abs() <= depth as i32;
            let soft_spent = limits.soft.is_some_and(|s| report.elapsed >= s);
            let nodes_spent = limits.nodes.is_some_and(|n| self.nodes >= n);
            if mate_seen || soft_spent || nodes_spent {
                break;
            }
        }
        report.nodes = self.nodes;
        report.elapsed = self.start.elapsed();
        report
    }

    /// One iteration, first in a narrow window around the last score, widened on failure.
    fn aspiration(&mut self, root: &Duel, depth: i32, last: i32) -> i32 {
        let mut delta = ASPIRATION;
        let (mut alpha, mut beta) = if depth >= 4 && last.abs() < WIN / 2 {
            (last - delta, last + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let score = self.negamax(root, depth, alpha, beta, 0, false);
            if self.stopped {
                return score;
            }
            if score <= alpha && alpha > -INF {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INF);
            } else if score >= beta && beta < INF {
                beta = (score + delta).min(INF);
            } else {
                return score;
            }
            delta *= 2;
            if delta > 1000 {
                (alpha, beta) = (-INF, INF);
            }
        }
    }
}
