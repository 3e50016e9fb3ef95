//! Game-tree search shared by plug-ins: N-player hypermax, paranoid and best-reply search,
//! 2-player negamax with PVS, and expectimax against a stochastic opponent model, all with
//! iterative deepening, a two-tier transposition table and history move ordering. Games plug
//! in through the [`Game`] trait.

mod alphabeta;
mod expectimax;
mod hypermax;
mod multi;
mod node;
mod searcher;
mod tt;
mod utility;

pub use searcher::{Algorithm, SearchConfig, SearchResult, Searcher};
pub use tt::{Bound, TranspositionTable};
pub use utility::{MAX_PLAYERS, NEG_INF, Utility, WIN, terminal_utility, utility_bounds, zero_sum};

use std::fmt::{Debug, Display};

/// A turn-based game with 2 to [`MAX_PLAYERS`] players, as the searches see it.
pub trait Game: Clone + Send {
    type Move: Copy + Eq + Default + Debug + Display + Send;
    /// Size of the range [`Game::move_slot`] maps into (history tables).
    const MOVE_SLOTS: usize;

    fn players(&self) -> usize;
    fn to_move(&self) -> usize;
    /// `None` while the game runs, `Some(Some(p))` when player `p` won, `Some(None)` for a draw.
    fn result(&self) -> Option<Option<usize>>;
    /// Moves of an unfinished game; never empty (a forced pass is a move).
    fn moves(&self, out: &mut Vec<Self::Move>);
    fn play(&self, mv: Self::Move) -> Self;
    /// Heuristic worth of the position for each player (any scale; made zero-sum by the search).
    fn heuristic(&self) -> Utility;
    /// Zobrist key of the position, including the player to move.
    fn key(&self) -> u64;
    /// Ordering hint for a move from this position: larger is more forcing (captures).
    fn tactical_score(&self, mv: Self::Move) -> i32;
    fn move_slot(mv: Self::Move) -> usize;
    /// Whether `mv` is a forced pass (best-reply search does not count those as replies).
    fn is_pass(&self, mv: Self::Move) -> bool;
    /// Whether `player` can still take part (best-reply search skips the others).
    fn is_active(&self, player: usize) -> bool;
    /// The same position with `player` to move (best-reply search lets any opponent reply).
    fn with_turn(&self, player: usize) -> Self;
    /// Opponent modelling: the moves a known opponent program picks from at random here (its
    /// tied best choices). The default has no model and lists every move.
    fn modeled_moves(&self, out: &mut Vec<Self::Move>) {
        self.moves(out);
    }
}
