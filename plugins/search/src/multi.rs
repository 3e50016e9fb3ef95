//! Alternatives to hypermax for 3-4 players, both scored for the searching ("root") player:
//! paranoid search assumes every opponent minimises the root's utility; best-reply search
//! (Schadd & Winands) lets only the single strongest opponent reply between two root moves.

use super::Game;
use super::node::{NodeStart, take_buf};
use super::searcher::Searcher;
use super::utility::NEG_INF;

/// Marks the best-reply child where no opponent could move.
const NOBODY: usize = usize::MAX;

/// Distinguishes best-reply "all opponents" layers from root layers of the same position.
const REPLY_LAYER_SALT: u64 = 0x9d3f_1a5b_77c2_e401;

impl<G: Game> Searcher<G> {
    pub(crate) fn paranoid_root(&mut self, root: &G, depth: u32) -> (i32, Option<G::Move>) {
        self.paranoid(root, NEG_INF, -NEG_INF, depth, 0)
    }

    fn paranoid(
        &mut self,
        node: &G,
        mut alpha: i32,
        mut beta: i32,
        depth: u32,
        ply: u32,
    ) -> (i32, Option<G::Move>) {
        let root = self.root_player;
        let key = node.key();
        let tt_move = match self.start_node(node, key, root, (alpha, beta), depth, ply) {
            NodeStart::Search(mv) => mv,
            NodeStart::Done(v, mv) => return (v, mv),
        };
        let mover = node.to_move();
        let maximising = mover == root;
        let (alpha_orig, beta_orig) = (alpha, beta);
        let ordered = self.ordered_moves(node, tt_move, mover, ply);
        let mut best = if maximising { NEG_INF } else { -NEG_INF };
        let mut best_move = None;
        for &(_, mv) in ordered.iter() {
            let (v, _) = self.paranoid(&node.play(mv), alpha, beta, depth - 1, ply + 1);
            if self.aborted {
                break;
            }
            if (maximising && v > best) || (!maximising && v < best) {
                best = v;
                best_move = Some(mv);
            }
            if maximising {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                self.reward(node, mv, mover, depth);
                break;
            }
        }
        self.put_ordered(ply, ordered);
        self.store_bounded(key, best, best_move, depth, ply, alpha_orig, beta_orig);
        (best, best_move)
    }

    pub(crate) fn brs_root(&mut self, root: &G, depth: u32) -> (i32, Option<G::Move>) {
        self.best_reply(root, NEG_INF, -NEG_INF, depth, 0, true)
    }

    fn best_reply(
        &mut self,
        node: &G,
        mut alpha: i32,
        mut beta: i32,
        depth: u32,
        ply: u32,
        root_layer: bool,
    ) -> (i32, Option<G::Move>) {
        let root = self.root_player;
        let key = node.key() ^ if root_layer { 0 } else { REPLY_LAYER_SALT };
        let tt_move = match self.start_node(node, key, root, (alpha, beta), depth, ply) {
            NodeStart::Search(mv) => mv,
            NodeStart::Done(v, mv) => return (v, mv),
        };
        let (alpha_orig, beta_orig) = (alpha, beta);
        // Children: the root player's moves, or every opponent's moves from this position,
        // as (ordering score, move, who moves); positions are made only when searched.
        let mut children = take_buf(&mut self.reply_bufs, ply);
        if root_layer {
            let ordered = self.ordered_moves(node, tt_move, root, ply);
            children.extend(ordered.iter().map(|&(s, mv)| (s, mv, root)));
            self.put_ordered(ply, ordered);
        } else {
            let mut moves = self.take_moves(ply);
            for q in (0..node.players()).filter(|&q| q != root && node.is_active(q)) {
                let turn = node.with_turn(q);
                self.node_moves(&turn, &mut moves);
                for &mv in &moves {
                    if !turn.is_pass(mv) {
                        let s = if Some(mv) == tt_move {
                            i32::MAX
                        } else {
                            turn.tactical_score(mv)
                        };
                        children.push((s, mv, q));
                    }
                }
            }
            if children.is_empty() {
                // No opponent can move: the root player simply moves again.
                children.push((0, G::Move::default(), NOBODY));
            }
            children.sort_unstable_by_key(|c| std::cmp::Reverse(c.0));
            self.put_moves(ply, moves);
        }
        let maximising = root_layer;
        let mut best = if maximising { NEG_INF } else { -NEG_INF };
        let mut best_move = None;
        for &(_, mv, q) in &children {
            let child = match q {
                NOBODY => node.with_turn(root),
                q if q == root => node.play(mv).with_turn(root),
                q => node.with_turn(q).play(mv).with_turn(root),
            };
            let (v, _) = self.best_reply(&child, alpha, beta, depth - 1, ply + 1, !root_layer);
            if self.aborted {
                break;
            }
            if (maximising && v > best) || (!maximising && v < best) {
                best = v;
                best_move = Some(mv);
            }
            if maximising {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                if root_layer {
                    self.reward(node, mv, root, depth);
                }
                break;
            }
        }
        self.reply_bufs[ply as usize] = children;
        self.store_bounded(key, best, best_move, depth, ply, alpha_orig, beta_orig);
        (best, best_move)
    }
}
