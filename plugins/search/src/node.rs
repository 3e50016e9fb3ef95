//! Per-node helpers shared by the searches: how a scalar node starts (count, leaf, table
//! probe), storing bounded values, move lists and their order, per-ply buffers.

use super::Game;
use super::searcher::Searcher;
use super::tt::{Bound, value_from_tt, value_to_tt};

/// How a scalar search node begins (see [`Searcher::start_node`]).
pub(crate) enum NodeStart<M> {
    /// Settled without searching moves: out of time (value 0), a leaf, or a table cut-off.
    Done(i32, Option<M>),
    /// Search the moves, the table's move (if any) first.
    Search(Option<M>),
}

/// An empty buffer for one ply, reusing the allocation the ply had before (recursive
/// searches would otherwise allocate at every node). Give it back by storing it at `ply`.
pub(crate) fn take_buf<T>(bufs: &mut Vec<Vec<T>>, ply: u32) -> Vec<T> {
    let ply = ply as usize;
    if bufs.len() <= ply {
        bufs.resize_with(ply + 1, Vec::new);
    }
    let mut v = std::mem::take(&mut bufs[ply]);
    v.clear();
    v
}

impl<G: Game> Searcher<G> {
    /// Moves of `node` for expectimax chance nodes and best-reply layers: the opponent
    /// model's choices for opponents when enabled.
    #[inline]
    pub(crate) fn node_moves(&self, node: &G, out: &mut Vec<G::Move>) {
        if self.cfg.model_opponents && node.to_move() != self.root_player {
            node.modeled_moves(out);
        } else {
            node.moves(out);
        }
    }

    /// The common start of a scalar search node: counts it, scores a leaf for `viewer`, and
    /// probes the table under `key`.
    pub(crate) fn start_node(
        &mut self,
        node: &G,
        key: u64,
        viewer: usize,
        (alpha, beta): (i32, i32),
        depth: u32,
        ply: u32,
    ) -> NodeStart<G::Move> {
        if self.tick() {
            return NodeStart::Done(0, None);
        }
        let result = node.result();
        if result.is_none() && self.repeats(key, ply) {
            return NodeStart::Done(0, None);
        }
        if result.is_some() || depth == 0 {
            return NodeStart::Done(self.leaf_utility(node, result, ply)[viewer], None);
        }
        match self.tt_lookup(key, depth, ply, alpha, beta) {
            (mv, Some(v)) => NodeStart::Done(v, mv),
            (mv, None) => NodeStart::Search(mv),
        }
    }

    /// Transposition-table probe for the scalar (two-sided) searches: the stored move for
    /// ordering, and a value when the entry is deep enough to end the search of this node
    /// (never at the root, which must return a move).
    pub(crate) fn tt_lookup(
        &self,
        key: u64,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> (Option<G::Move>, Option<i32>) {
        if !self.cfg.use_tt {
            return (None, None);
        }
        let Some(e) = self.tt.probe(key) else {
            return (None, None);
        };
        let v = value_from_tt(e.value[0], ply);
        let cutoff = (u32::from(e.depth) >= depth && ply > 0)
            && match e.bound {
                Bound::Exact => true,
                Bound::Lower => v >= beta,
                Bound::Upper => v <= alpha,
            };
        (Some(e.mv), cutoff.then_some(v))
    }

    /// Stores a scalar value found at `ply`, classed as a bound by the window it was
    /// searched with.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn store_bounded(
        &mut self,
        key: u64,
        best: i32,
        best_move: Option<G::Move>,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) {
        if !self.cfg.use_tt || self.aborted {
            return;
        }
        let Some(mv) = best_move else { return };
        let bound = if best <= alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt
            .store(key, [value_to_tt(best, ply), 0, 0, 0], mv, depth, bound);
    }

    pub(crate) fn take_moves(&mut self, ply: u32) -> Vec<G::Move> {
        take_buf(&mut self.move_bufs, ply)
    }
    pub(crate) fn put_moves(&mut self, ply: u32, v: Vec<G::Move>) {
        self.move_bufs[ply as usize] = v;
    }

    /// The moves of `node` in search order, in a per-ply buffer (give it back with
    /// `put_ordered`).
    pub(crate) fn ordered_moves(
        &mut self,
        node: &G,
        tt_move: Option<G::Move>,
        player: usize,
        ply: u32,
    ) -> Vec<(i32, G::Move)> {
        let mut moves = self.take_moves(ply);
        node.moves(&mut moves);
        self.keep_root_moves(ply, &mut moves);
        let ordered = self.ordered(node, &moves, tt_move, player, ply);
        self.put_moves(ply, moves);
        ordered
    }

    /// Orders `moves` (TT move, then captures, then history) into a per-ply buffer.
    pub(crate) fn ordered(
        &mut self,
        node: &G,
        moves: &[G::Move],
        tt_move: Option<G::Move>,
        player: usize,
        ply: u32,
    ) -> Vec<(i32, G::Move)> {
        let mut out = take_buf(&mut self.scored_bufs, ply);
        let base = player * G::MOVE_SLOTS;
        for &mv in moves {
            let score = if Some(mv) == tt_move {
                i32::MAX
            } else {
                node.tactical_score(mv) * 1_000_000
                    + self.history[base + G::move_slot(mv)].min(999_999)
            };
            out.push((score, mv));
        }
        out.sort_unstable_by_key(|&(s, _)| std::cmp::Reverse(s));
        out
    }
    pub(crate) fn put_ordered(&mut self, ply: u32, v: Vec<(i32, G::Move)>) {
        self.scored_bufs[ply as usize] = v;
    }

    /// Rewards a quiet move that caused a cut-off.
    pub(crate) fn reward(&mut self, node: &G, mv: G::Move, player: usize, depth: u32) {
        if node.tactical_score(mv) <= 1 {
            let h = &mut self.history[player * G::MOVE_SLOTS + G::move_slot(mv)];
            *h = (*h + (depth * depth) as i32).min(999_999);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::utility::{NEG_INF, Utility, WIN};
    use crate::{Algorithm, SearchConfig};

    /// Just enough of a game to give a searcher its move type.
    #[derive(Clone)]
    struct One;

    impl Game for One {
        type Move = u8;
        const MOVE_SLOTS: usize = 1;
        fn players(&self) -> usize {
            2
        }
        fn to_move(&self) -> usize {
            0
        }
        fn result(&self) -> Option<Option<usize>> {
            None
        }
        fn moves(&self, out: &mut Vec<u8>) {
            out.push(0);
        }
        fn play(&self, _mv: u8) -> One {
            One
        }
        fn heuristic(&self) -> Utility {
            [0; 4]
        }
        fn key(&self) -> u64 {
            1
        }
        fn tactical_score(&self, _mv: u8) -> i32 {
            0
        }
        fn move_slot(_mv: u8) -> usize {
            0
        }
        fn is_pass(&self, _mv: u8) -> bool {
            false
        }
        fn is_active(&self, _player: usize) -> bool {
            true
        }
        fn with_turn(&self, _player: usize) -> One {
            One
        }
    }

    /// A position stored where a win was 3 plies below it, met again 3 plies from the root:
    /// the win is 6 plies away, not the 4 it was from the first root. (Read as 4, a move
    /// that walked back into the position looked faster than the win itself: in an Ataxx
    /// game the engine jumped to and fro while the other side passed until the game was
    /// drawn by the move limit.)
    #[test]
    fn a_stored_win_keeps_its_distance_from_the_position() {
        let cfg = SearchConfig::timed(Algorithm::Negamax, std::time::Duration::from_secs(1), 1);
        let mut s: Searcher<One> = Searcher::new(cfg);
        let open = (NEG_INF, -NEG_INF);
        s.store_bounded(7, WIN - 4, Some(3), 5, 1, open.0, open.1);
        assert_eq!(
            s.tt_lookup(7, 2, 3, open.0, open.1),
            (Some(3), Some(WIN - 6))
        );
        // A loss for the side to move, stored 2 plies down and met at 1.
        s.store_bounded(8, -(WIN - 6), Some(2), 5, 2, open.0, open.1);
        assert_eq!(s.tt_lookup(8, 2, 1, open.0, open.1).1, Some(-(WIN - 5)));
        // Heuristic values are the same at every ply.
        s.store_bounded(9, 250, Some(1), 5, 4, open.0, open.1);
        assert_eq!(s.tt_lookup(9, 2, 1, open.0, open.1).1, Some(250));
    }
}
