//! 2-player negamax with alpha-beta, principal variation search and a transposition table.
//! A move that keeps the same player on turn (a bonus extra turn) is searched without the
//! sign flip.

use super::Game;
use super::node::NodeStart;
use super::searcher::Searcher;
use super::utility::NEG_INF;

impl<G: Game> Searcher<G> {
    pub(crate) fn negamax_root(&mut self, root: &G, depth: u32) -> (i32, Option<G::Move>) {
        let (v, mv) = self.negamax(root, NEG_INF, -NEG_INF, depth, 0);
        (v, mv)
    }

    /// Value for the player to move, searched with the window (alpha, beta).
    fn negamax(
        &mut self,
        node: &G,
        mut alpha: i32,
        beta: i32,
        depth: u32,
        ply: u32,
    ) -> (i32, Option<G::Move>) {
        let me = node.to_move();
        let key = node.key();
        let tt_move = match self.start_node(node, key, me, (alpha, beta), depth, ply) {
            NodeStart::Search(mv) => mv,
            NodeStart::Done(v, mv) => return (v, mv),
        };
        let alpha_orig = alpha;
        let ordered = self.ordered_moves(node, tt_move, me, ply);

        let mut best = NEG_INF;
        let mut best_move = None;
        for (i, &(_, mv)) in ordered.iter().enumerate() {
            let child = node.play(mv);
            let v = if i == 0 {
                self.child_value(&child, me, alpha, beta, depth, ply)
            } else {
                let probe = self.child_value(&child, me, alpha, alpha + 1, depth, ply);
                if probe > alpha && probe < beta {
                    self.child_value(&child, me, alpha, beta, depth, ply)
                } else {
                    probe
                }
            };
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                self.reward(node, mv, me, depth);
                break;
            }
        }
        self.put_ordered(ply, ordered);
        self.store_bounded(key, best, best_move, depth, ply, alpha_orig, beta);
        (best, best_move)
    }

    fn child_value(
        &mut self,
        child: &G,
        me: usize,
        alpha: i32,
        beta: i32,
        depth: u32,
        ply: u32,
    ) -> i32 {
        if child.to_move() == me {
            self.negamax(child, alpha, beta, depth - 1, ply + 1).0
        } else {
            -self.negamax(child, -beta, -alpha, depth - 1, ply + 1).0
        }
    }
}
