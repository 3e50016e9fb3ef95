//! The node search: fail-soft negamax with PVS, the table, reverse futility, null move,
//! internal iterative reduction, late move pruning, futility pruning and late move reductions.

use super::Duel;
use super::eval::{MATERIAL, evaluate};
use super::order::{HISTORY_MAX, Ordering as MoveOrder, pick};
use super::search::{DuelSearcher, INF, MAX_PLY, decided_score};
use super::tt::Bound;
use crate::moves::Move;
use nesmind_search::WIN;

/// Reverse futility: a node this far above beta at this depth is not searched.
const RFP_DEPTH: i32 = 6;
const RFP_MARGIN: i32 = 70;
/// Futility: a move that cannot lift the score to alpha at low depth is skipped.
const FUTILITY_DEPTH: i32 = 3;
const FUTILITY_MARGIN: i32 = 90;
/// Late move pruning: after this many moves at low depth the rest are skipped.
const LMP_DEPTH: i32 = 4;
/// Null move: below this many empty squares zugzwang is common, so it is off.
const NULL_MIN_EMPTY: u32 = 6;

fn lmp_limit(depth: i32) -> usize {
    (4 + 3 * depth * depth) as usize
}

/// Late move reduction for the `searched`-th move at `depth` (Ataxx nodes have ~100 moves).
fn lmr(depth: i32, searched: usize) -> i32 {
    let r = 0.8 + (depth as f32).ln() * (searched as f32).ln() / 2.2;
    r as i32
}

impl DuelSearcher {
    /// Value of `pos` for its side to move, searched `depth` plies, in (`alpha`, `beta`).
    pub(super) fn negamax(
        &mut self,
        pos: &Duel,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        null_ok: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = 0;
        if ply > 0 {
            if let Some(d) = pos.decided() {
                return decided_score(d, ply);
            }
            if self.check_stop() {
                return 0;
            }
        }
        self.nodes += 1;
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return evaluate(pos);
        }
        if !pos.has_moves() {
            // Forced pass (the opponent can move, or the game would be decided).
            let s = -self.negamax(&pos.play(Move::PASS), depth, -beta, -alpha, ply + 1, false);
            self.set_pv(ply, Move::PASS);
            return s;
        }
        let key = pos.key();
        let entry = self.tt.probe(key, ply);
        let tt_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry
            && !pv_node
            && i32::from(e.depth) >= depth
        {
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
            };
            if cut {
                return e.score;
            }
        }
        let mut eval = evaluate(pos);
        if let Some(e) = entry {
            // A searched score beats the static one when its bound points the right way.
            let better = match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score > eval,
                Bound::Upper => e.score < eval,
            };
            if better && e.score.abs() < WIN / 2 {
                eval = e.score;
            }
        }
        if !pv_node && beta.abs() < WIN / 2 {
            if depth <= RFP_DEPTH && eval - RFP_MARGIN * depth >= beta {
                return eval;
            }
            if null_ok && depth >= 3 && eval >= beta && pos.empties() >= NULL_MIN_EMPTY {
                let r = 3 + depth / 4;
                let s = -self.negamax(&pos.null(), depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s > WIN / 2 { beta } else { s };
                }
            }
        }
        if tt_move.is_none() && depth >= 4 {
            depth -= 1;
        }

        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        pos.moves(&mut moves);
        self.order.score(pos, &moves, tt_move, ply, &mut scores);
        let prunable = !pv_node && alpha.abs() < WIN / 2;
        let mut best = -INF;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut bound = Bound::Upper;
        for i in 0..moves.len() {
            let mv = pick(&mut moves, &mut scores, i);
            let gain = MoveOrder::gain(pos, mv);
            if prunable && searched > 0 && best > -WIN / 2 {
                if depth <= LMP_DEPTH && searched >= lmp_limit(depth) {
                    break;
                }
                if depth <= FUTILITY_DEPTH
                    && eval + MATERIAL * 2 * gain + FUTILITY_MARGIN * depth <= alpha
                {
                    continue;
                }
            }
            let child = pos.play(mv);
            let mut score;
            if searched == 0 {
                score = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true);
            } else {
                let mut r = 0;
                if depth >= 3 && searched >= 2 + usize::from(pv_node) {
                    r = lmr(depth, searched) - i32::from(pv_node) - i32::from(gain >= 3);
                    r -= self.order.history(pos.stm, mv) * 2 / HISTORY_MAX;
                    r = r.clamp(0, depth - 2);
                }
                score = -self.negamax(&child, depth - 1 - r, -alpha - 1, -alpha, ply + 1, true);
                if score > alpha && r > 0 {
                    score = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, true);
                }
                if score > alpha && score < beta {
                    score = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true);
                }
            }
            searched += 1;
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    self.set_pv(ply, mv);
                    if score >= beta {
                        bound = Bound::Lower;
                        self.order.reward(pos.stm, ply, mv, &moves[..=i], depth);
                        break;
                    }
                    alpha = score;
                    bound = Bound::Exact;
                }
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        if self.stopped {
            return 0;
        }
        self.tt.store(key, ply, depth, best, bound, best_move);
        best
    }

    /// The principal variation at `ply` is `mv` followed by the child's.
    fn set_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let n = self.pv_len[ply + 1].min(MAX_PLY - 1);
        head[ply][0] = mv;
        head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        self.pv_len[ply] = n + 1;
    }
}
