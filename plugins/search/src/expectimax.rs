//! Search against a stochastic opponent: the root player maximises, and every other player's
//! turn is a chance node, uniform over the moves the opponent model lists there (every legal
//! move without a model). The NES AI breaks ties between its best-rated moves at random, so
//! against it this maximises the expected outcome (about the winning chance, since a won game
//! is worth far more than any heuristic value) where the worst tie-break would call a position
//! simply lost.
//!
//! Chance nodes prune with Ballard's Star1 rule: values lie in the known range of
//! [`utility_bounds`], so after some children have been searched, the window for the next one
//! follows from assuming the best or the worst for the rest.

use super::Game;
use super::node::NodeStart;
use super::searcher::Searcher;
use super::utility::{NEG_INF, utility_bounds};

impl<G: Game> Searcher<G> {
    pub(crate) fn expectimax_root(&mut self, root: &G, depth: u32) -> (i32, Option<G::Move>) {
        self.expectimax(root, NEG_INF, -NEG_INF, depth, 0)
    }

    /// Value for the root player searched with the window (alpha, beta), fail-soft.
    fn expectimax(
        &mut self,
        node: &G,
        alpha: i32,
        beta: i32,
        depth: u32,
        ply: u32,
    ) -> (i32, Option<G::Move>) {
        let root = self.root_player;
        let key = node.key();
        let tt_move = match self.start_node(node, key, root, (alpha, beta), depth, ply) {
            NodeStart::Search(mv) => mv,
            NodeStart::Done(v, mv) => return (v, mv),
        };
        let (best, best_move) = if node.to_move() == root {
            self.max_node(node, (alpha, beta), depth, ply, tt_move)
        } else {
            self.chance_node(node, (alpha, beta), depth, ply)
        };
        self.store_bounded(key, best, best_move, depth, ply, alpha, beta);
        (best, best_move)
    }

    /// The root player's turn: alpha-beta with null-window probes after the first move.
    fn max_node(
        &mut self,
        node: &G,
        (mut alpha, beta): (i32, i32),
        depth: u32,
        ply: u32,
        tt_move: Option<G::Move>,
    ) -> (i32, Option<G::Move>) {
        let me = node.to_move();
        let ordered = self.ordered_moves(node, tt_move, me, ply);
        let mut best = NEG_INF;
        let mut best_move = None;
        for (i, &(_, mv)) in ordered.iter().enumerate() {
            let child = node.play(mv);
            let mut v = if i == 0 {
                NEG_INF
            } else {
                self.expectimax(&child, alpha, alpha + 1, depth - 1, ply + 1)
                    .0
            };
            if i == 0 || (v > alpha && v < beta && !self.aborted) {
                v = self.expectimax(&child, alpha, beta, depth - 1, ply + 1).0;
            }
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                self.reward(node, mv, me, depth);
                break;
            }
        }
        self.put_ordered(ply, ordered);
        (best, best_move)
    }

    /// An opponent's turn: the mean over its (modeled) moves. The move returned is the one
    /// worst for the root player, for the table and the principal variation.
    fn chance_node(
        &mut self,
        node: &G,
        (alpha, beta): (i32, i32),
        depth: u32,
        ply: u32,
    ) -> (i32, Option<G::Move>) {
        let mut moves = self.take_moves(ply);
        self.node_moves(node, &mut moves);
        let n = moves.len() as i64;
        let (lo, hi) = utility_bounds(node.players());
        let (lo, hi) = (i64::from(lo), i64::from(hi));
        let (alpha, beta) = (i64::from(alpha), i64::from(beta));
        let mut sum = 0i64;
        let mut value = None;
        let mut worst: Option<(i32, G::Move)> = None;
        for (k, &mv) in moves.iter().enumerate() {
            let rest = n - 1 - k as i64;
            // The mean fails low if this child is <= a even when the rest are all `hi`,
            // and fails high if it is >= b even when the rest are all `lo`.
            let a = n * alpha - sum - rest * hi;
            let b = n * beta - sum - rest * lo;
            let window = (
                a.max(i64::from(NEG_INF)) as i32,
                b.min(-i64::from(NEG_INF)) as i32,
            );
            let (v, _) = self.expectimax(&node.play(mv), window.0, window.1, depth - 1, ply + 1);
            if self.aborted {
                break;
            }
            if worst.is_none_or(|(w, _)| v < w) {
                worst = Some((v, mv));
            }
            let v = i64::from(v);
            if v <= a {
                value = Some((sum + v + rest * hi).div_euclid(n));
                break;
            }
            if v >= b {
                value = Some((sum + v + rest * lo).div_euclid(n));
                break;
            }
            sum += v;
        }
        self.put_moves(ply, moves);
        let value = value.unwrap_or_else(|| sum.div_euclid(n));
        (value as i32, worst.map(|(_, mv)| mv))
    }
}
