//! Hypermax: N-player alpha-beta over zero-sum utility vectors. Every node evaluates its
//! children, shuffles them and sorts them by the mover's heuristic utility; the alpha vector
//! holds what each player is already assured of, and a node stops once the vector sums to
//! zero or more. The table adds its best move in front and reuses fully searched values.

use super::Game;
use super::node::take_buf;
use super::searcher::{Kid, Searcher};
use super::tt::{Bound, utility_from_tt, utility_to_tt};
use super::utility::{NEG_INF, Utility};
use rand::seq::SliceRandom;

impl<G: Game> Searcher<G> {
    pub(crate) fn hypermax_root(
        &mut self,
        root: &G,
        depth: u32,
    ) -> (Utility, Option<G::Move>, bool) {
        self.hypermax(root, [NEG_INF; 4], depth, 0)
    }

    /// Returns the selected utility vector, the move leading to it, and whether the value is
    /// exact (nothing below was cut off, so the table may reuse it).
    fn hypermax(
        &mut self,
        node: &G,
        mut alpha: Utility,
        depth: u32,
        ply: u32,
    ) -> (Utility, Option<G::Move>, bool) {
        let players = node.players();
        let me = node.to_move();
        let key = node.key();
        if self.repeats(key, ply) {
            // A draw, and not exact: the value belongs to this line, not the position.
            return (Utility::default(), None, false);
        }
        let mut tt_move = None;
        if self.cfg.use_tt
            && let Some(e) = self.tt.probe(key)
        {
            if e.bound == Bound::Exact && e.depth as u32 >= depth {
                return (utility_from_tt(e.value, ply), Some(e.mv), true);
            }
            tt_move = Some(e.mv);
        }

        let mut kids = self.take_kids(ply);
        let mut moves = self.take_moves(ply);
        node.moves(&mut moves);
        self.keep_root_moves(ply, &mut moves);
        for &mv in &moves {
            let pos = node.play(mv);
            self.tick();
            let result = pos.result();
            let utility = if result.is_none() && self.repeats(pos.key(), ply + 1) {
                Utility::default()
            } else {
                self.leaf_utility(&pos, result, ply + 1)
            };
            kids.push(Kid {
                mv,
                pos,
                utility,
                terminal: result.is_some(),
            });
        }
        self.put_moves(ply, moves);
        kids.shuffle(&mut self.rng);
        kids.sort_by_key(|k| std::cmp::Reverse(k.utility[me]));
        if let Some(t) = tt_move
            && let Some(i) = kids.iter().position(|k| k.mv == t)
        {
            kids[..=i].rotate_right(1);
        }

        let mut best_utility = kids[0].utility;
        let mut best_move = kids[0].mv;
        let mut exact = true;
        for (i, kid) in kids.iter().enumerate() {
            let (u, kid_exact) = if depth <= 1 || kid.terminal {
                (kid.utility, true)
            } else {
                let (u, _, e) = self.hypermax(&kid.pos, alpha, depth - 1, ply + 1);
                (u, e)
            };
            if self.aborted {
                break;
            }
            exact &= kid_exact;
            if i == 0 {
                best_utility = u;
                best_move = kid.mv;
            }
            if u[me] > alpha[me] {
                alpha[me] = u[me];
                best_utility = u;
                best_move = kid.mv;
            }
            let sum: i64 = alpha[..players].iter().map(|&a| a as i64).sum();
            if sum >= 0 {
                exact &= i + 1 == kids.len();
                break;
            }
        }
        self.put_kids(ply, kids);
        if self.cfg.use_tt && !self.aborted {
            let bound = if exact { Bound::Exact } else { Bound::Lower };
            let stored = utility_to_tt(best_utility, ply);
            self.tt.store(key, stored, best_move, depth, bound);
        }
        (best_utility, Some(best_move), exact)
    }

    fn take_kids(&mut self, ply: u32) -> Vec<Kid<G>> {
        take_buf(&mut self.kid_bufs, ply)
    }
    fn put_kids(&mut self, ply: u32, v: Vec<Kid<G>>) {
        self.kid_bufs[ply as usize] = v;
    }
}
