//! The search driver: configuration, iterative deepening under a time budget, node counting
//! and leaf values, the principal variation and the debug trace.

use super::Game;
use super::tt::TranspositionTable;
use super::utility::{MAX_PLAYERS, Utility, WIN, terminal_utility, utility_bounds, zero_sum};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// N-player hypermax (Fridenfalk) with the alpha vector cut-off.
    Hypermax,
    /// Everyone else plays against the searching player (2-team alpha-beta).
    Paranoid,
    /// Best-reply search: one layer per turn of the searching player, where only the single
    /// most damaging opponent reply is searched.
    BestReply,
    /// 2-player negamax with principal variation search.
    Negamax,
    /// The searching player maximises; the others move at random among the moves the
    /// opponent model lists for them (all their moves without a model).
    Expectimax,
}

impl Algorithm {
    pub fn parse(text: &str) -> Result<Algorithm, String> {
        match text.to_ascii_lowercase().as_str() {
            "hypermax" => Ok(Algorithm::Hypermax),
            "paranoid" => Ok(Algorithm::Paranoid),
            "brs" | "best-reply" => Ok(Algorithm::BestReply),
            "negamax" | "pvs" => Ok(Algorithm::Negamax),
            "expectimax" => Ok(Algorithm::Expectimax),
            _ => Err(format!(
                "unknown search '{text}' (hypermax, paranoid, brs, negamax, expectimax)"
            )),
        }
    }
}

#[derive(Clone, Debug)]
pub struct SearchConfig {
    pub algorithm: Algorithm,
    /// Deepest iteration. The hypermax article's fixed setting is players + 1.
    pub max_depth: u32,
    /// Per-move budget; `None` searches every depth up to `max_depth`.
    pub move_time: Option<Duration>,
    /// Search depths 1, 2, ... (else only `max_depth`, as the article does).
    pub iterative: bool,
    pub use_tt: bool,
    /// The table has 2^tt_bits buckets of two entries.
    pub tt_bits: u32,
    pub seed: u64,
    /// Expect opponents to pick uniformly among [`Game::modeled_moves`]. Their turns become
    /// chance nodes, so every search but best-reply runs as [`Algorithm::Expectimax`];
    /// best-reply searches the modeled moves for its single most damaging reply.
    pub model_opponents: bool,
}

impl SearchConfig {
    /// The hypermax of the article: fixed depth players + 1, no table, no time limit.
    pub fn article_hypermax(players: usize, seed: u64) -> SearchConfig {
        SearchConfig {
            algorithm: Algorithm::Hypermax,
            max_depth: players as u32 + 1,
            move_time: None,
            iterative: false,
            use_tt: false,
            tt_bits: 4,
            seed,
            model_opponents: false,
        }
    }
    /// Iterative deepening with a table under a time budget.
    pub fn timed(algorithm: Algorithm, move_time: Duration, seed: u64) -> SearchConfig {
        SearchConfig {
            algorithm,
            max_depth: 64,
            move_time: Some(move_time),
            iterative: true,
            use_tt: true,
            tt_bits: 16,
            seed,
            model_opponents: false,
        }
    }
}

/// Whether a root value from an iteration `depth` plies deep is a decided game that deeper
/// search cannot change. Expectimax values mix won and lost lines, so only an (almost)
/// certain result counts there. A win or loss further away than the iteration reached came
/// from the table through a longer line (it may walk back into a known position): a faster
/// one may still be found, so the search goes on. (Stopping there, an Ataxx engine jumped a
/// piece to and fro, each move still a "win in 5", instead of filling the board at once.)
fn proven(algorithm: Algorithm, score: i32, players: usize, depth: u32) -> bool {
    let decided = if algorithm == Algorithm::Expectimax {
        let (lo, hi) = utility_bounds(players);
        let margin = WIN / 1000;
        score <= lo + margin || score >= hi - margin
    } else {
        score.abs() > WIN / 2
    };
    decided && decided_plies(score) <= depth
}

/// How many plies from the root a decided value's win or loss is (`terminal_utility`: `k *
/// (WIN - plies)` for a whole `k`).
fn decided_plies(score: i32) -> u32 {
    let size = score.unsigned_abs();
    let k = ((size + WIN as u32 / 2) / WIN as u32).max(1);
    (WIN as u32).saturating_sub(size / k)
}

#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    pub best: M,
    /// Value for the player to move at the root (zero-sum scale).
    pub score: i32,
    /// Deepest completed iteration.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<M>,
}

/// Called after every completed iteration with the result so far (engine protocols print it).
pub type IterationHook<M> = Box<dyn FnMut(&SearchResult<M>) + Send>;

/// A hypermax child, evaluated once and sorted (`hypermax.rs`); kept in the per-ply buffers.
pub(crate) struct Kid<G: Game> {
    pub(crate) mv: G::Move,
    pub(crate) pos: G,
    pub(crate) utility: Utility,
    pub(crate) terminal: bool,
}

/// Reusable search state (the table and history survive between moves of one game).
pub struct Searcher<G: Game> {
    pub(crate) cfg: SearchConfig,
    pub(crate) tt: TranspositionTable<G::Move>,
    pub(crate) history: Vec<i32>,
    pub(crate) rng: StdRng,
    pub(crate) nodes: u64,
    pub(crate) aborted: bool,
    pub(crate) root_player: usize,
    pub(crate) move_bufs: Vec<Vec<G::Move>>,
    pub(crate) scored_bufs: Vec<Vec<(i32, G::Move)>>,
    pub(crate) kid_bufs: Vec<Vec<Kid<G>>>,
    /// Best-reply children: (ordering score, move, player making it).
    pub(crate) reply_bufs: Vec<Vec<(i32, G::Move, usize)>>,
    deadline: Option<Instant>,
    /// A per-move node budget: unlike a time budget, the same search every run.
    max_nodes: Option<u64>,
    may_abort: bool,
    last_root: Option<usize>,
    /// Set by another thread to end the search (an engine protocol's `stop`).
    stop: Option<Arc<AtomicBool>>,
    on_iteration: Option<IterationHook<G::Move>>,
    /// Keys of positions the game has already been in (see `set_game_history`).
    pub(crate) seen: Vec<u64>,
    /// The root moves the next search may choose from (see `restrict_root`).
    root_only: Option<Vec<G::Move>>,
}

impl<G: Game> Searcher<G> {
    pub fn new(cfg: SearchConfig) -> Searcher<G> {
        let tt_bits = if cfg.use_tt { cfg.tt_bits } else { 4 };
        Searcher {
            tt: TranspositionTable::new(tt_bits),
            history: vec![0; G::MOVE_SLOTS * MAX_PLAYERS],
            rng: StdRng::seed_from_u64(cfg.seed),
            cfg,
            nodes: 0,
            aborted: false,
            root_player: 0,
            move_bufs: Vec::new(),
            scored_bufs: Vec::new(),
            kid_bufs: Vec::new(),
            reply_bufs: Vec::new(),
            deadline: None,
            max_nodes: None,
            may_abort: false,
            last_root: None,
            stop: None,
            on_iteration: None,
            seen: Vec::new(),
            root_only: None,
        }
    }

    /// Positions the game has already been in (their `Game::key`s): below the root, a line
    /// that returns to one of them is scored as a draw. A side that is ahead then makes
    /// progress instead of moving a piece to and fro, which a search whose horizon does not
    /// reach the end sees as no worse (no game rule ends such a cycle). Empty: no effect.
    pub fn set_game_history(&mut self, keys: &[u64]) {
        self.seen.clear();
        self.seen.extend_from_slice(keys);
    }

    /// Limits the next searches' choice to `moves` (the rest of the tree is searched as
    /// usual); `None`, or a list that leaves nothing legal, lifts the limit. Values found
    /// under a limit are not the position's own, so the table is emptied around them.
    pub fn restrict_root(&mut self, moves: Option<&[G::Move]>) {
        if moves.is_some() || self.root_only.is_some() {
            self.tt.clear();
        }
        self.root_only = moves.map(<[G::Move]>::to_vec);
    }

    /// Drops the moves `restrict_root` excludes from a root move list (deeper plies keep all).
    #[inline]
    pub(crate) fn keep_root_moves(&self, ply: u32, moves: &mut Vec<G::Move>) {
        if ply == 0
            && let Some(only) = &self.root_only
            && moves.iter().any(|m| only.contains(m))
        {
            moves.retain(|m| only.contains(m));
        }
    }

    /// Whether a position below the root repeats one the game has been in.
    #[inline]
    pub(crate) fn repeats(&self, key: u64, ply: u32) -> bool {
        ply > 0 && self.seen.contains(&key)
    }

    pub fn config(&self) -> &SearchConfig {
        &self.cfg
    }

    /// Replaces the time budget by a reproducible one: at most `nodes` nodes per move
    /// (the first iteration always completes) and at most `depth` plies, either optional.
    pub fn set_fixed_budget(&mut self, nodes: Option<u64>, depth: Option<u32>) {
        self.cfg.move_time = None;
        self.max_nodes = nodes;
        if let Some(d) = depth {
            self.cfg.max_depth = d.max(1);
        }
    }

    /// Sets every limit of the next searches: a time budget, a node budget and the deepest
    /// iteration (any of them may be left open; with none the search runs to `max_depth`).
    pub fn set_budget(&mut self, move_time: Option<Duration>, nodes: Option<u64>, max_depth: u32) {
        self.cfg.move_time = move_time;
        self.max_nodes = nodes;
        self.cfg.max_depth = max_depth.max(1);
    }

    /// A flag another thread sets to end the running search; the result holds the deepest
    /// completed iteration (the first always completes).
    pub fn set_stop_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.stop = flag;
    }

    /// A hook called after each completed iteration.
    pub fn set_on_iteration(&mut self, hook: Option<IterationHook<G::Move>>) {
        self.on_iteration = hook;
    }

    /// Picks a move for the player to move in `root` (which must not be finished).
    pub fn search(&mut self, root: &G) -> SearchResult<G::Move> {
        let start = Instant::now();
        self.nodes = 0;
        self.aborted = false;
        self.root_player = root.to_move();
        self.tt.new_search();
        self.history.iter_mut().for_each(|h| *h /= 4);
        self.deadline = self.cfg.move_time.map(|t| start + t);
        let mut root_moves = Vec::new();
        root.moves(&mut root_moves);
        self.keep_root_moves(0, &mut root_moves);
        let algorithm = match self.cfg.algorithm {
            Algorithm::BestReply => Algorithm::BestReply,
            _ if self.cfg.model_opponents => Algorithm::Expectimax,
            Algorithm::Negamax if root.players() != 2 => Algorithm::Paranoid,
            a => a,
        };
        // Paranoid, best-reply and expectimax values belong to one searching player.
        if matches!(
            algorithm,
            Algorithm::Paranoid | Algorithm::BestReply | Algorithm::Expectimax
        ) && self.last_root != Some(self.root_player)
        {
            self.tt.clear();
        }
        self.last_root = Some(self.root_player);
        let mut result = SearchResult {
            best: root_moves[0],
            score: 0,
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: vec![root_moves[0]],
        };
        if root_moves.len() == 1 {
            result.elapsed = start.elapsed();
            return result;
        }
        let first = if self.cfg.iterative {
            1
        } else {
            self.cfg.max_depth.max(1)
        };
        for depth in first..=self.cfg.max_depth.max(1) {
            // The first iteration always completes, so there is always a searched move.
            self.may_abort = depth > first;
            let (score, best) = match algorithm {
                Algorithm::Hypermax => {
                    let (u, mv, _) = self.hypermax_root(root, depth);
                    (u[self.root_player], mv)
                }
                Algorithm::Paranoid => self.paranoid_root(root, depth),
                Algorithm::BestReply => self.brs_root(root, depth),
                Algorithm::Negamax => self.negamax_root(root, depth),
                Algorithm::Expectimax => self.expectimax_root(root, depth),
            };
            if self.aborted {
                break;
            }
            let Some(best) = best else { break };
            result.best = best;
            result.score = score;
            result.depth = depth;
            result.pv = self.principal_variation(root, best, depth);
            let elapsed = start.elapsed();
            result.nodes = self.nodes;
            result.elapsed = elapsed;
            if let Some(hook) = self.on_iteration.as_mut() {
                hook(&result);
            }
            log::debug!(
                "{depth:>2} {:>8.3}s {score:>9} {:>10} nodes  {}",
                elapsed.as_secs_f64(),
                self.nodes,
                result
                    .pv
                    .iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            );
            if proven(algorithm, score, root.players(), depth)
                || self
                    .stop
                    .as_ref()
                    .is_some_and(|s| s.load(Ordering::Relaxed))
            {
                break;
            }
            if let Some(budget) = self.cfg.move_time
                && elapsed * 3 > budget
            {
                // The next iteration costs several times this one; it would not finish.
                break;
            }
        }
        result.nodes = self.nodes;
        result.elapsed = start.elapsed();
        log::debug!(
            "best {} depth {} nodes {} ({:.0} nodes/s) tt fill {:.1}%",
            result.best,
            result.depth,
            result.nodes,
            result.nodes as f64 / result.elapsed.as_secs_f64().max(1e-9),
            self.tt.fill_percent()
        );
        result
    }

    /// Counts a node and notices when the budget runs out.
    #[inline]
    pub(crate) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.may_abort && self.max_nodes.is_some_and(|max| self.nodes >= max) {
            self.aborted = true;
        }
        if self.nodes & 1023 == 0
            && self.may_abort
            && (self.deadline.is_some_and(|d| Instant::now() >= d) || self.stop_requested())
        {
            self.aborted = true;
        }
        self.aborted
    }

    fn stop_requested(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Zero-sum utility of a leaf: the winner vector, or the heuristic (also for draws).
    #[inline]
    pub(crate) fn leaf_utility(
        &self,
        node: &G,
        result: Option<Option<usize>>,
        ply: u32,
    ) -> Utility {
        match result {
            Some(Some(w)) => terminal_utility(w, node.players(), ply),
            _ => zero_sum(&node.heuristic(), node.players()),
        }
    }

    /// The best move followed by the table's best moves, as far as they stay legal.
    fn principal_variation(&self, root: &G, best: G::Move, depth: u32) -> Vec<G::Move> {
        let mut pv = vec![best];
        let mut pos = root.play(best);
        let mut moves = Vec::new();
        while (pv.len() as u32) < depth && pos.result().is_none() {
            let Some(e) = self.tt.probe(pos.key()) else {
                break;
            };
            pos.moves(&mut moves);
            if !moves.contains(&e.mv) {
                break;
            }
            pv.push(e.mv);
            pos = pos.play(e.mv);
        }
        pv
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::utility::terminal_utility;

    #[test]
    fn a_result_is_final_only_within_the_depth_searched() {
        assert!(proven(Algorithm::Negamax, WIN - 5, 2, 5));
        assert!(!proven(Algorithm::Negamax, WIN - 5, 2, 4));
        assert!(proven(Algorithm::Negamax, -(WIN - 3), 2, 3));
        assert!(!proven(Algorithm::Negamax, 5_000, 2, 64));
        // Four players: the winner's value is three times a loser's.
        let won = terminal_utility(0, 4, 6);
        assert_eq!((decided_plies(won[0]), decided_plies(won[1])), (6, 6));
        assert!(!proven(Algorithm::Paranoid, won[0], 4, 5));
        assert!(proven(Algorithm::Paranoid, won[1], 4, 6));
    }
}
