//! Move ordering: the table's move, then by stones gained (captures, plus one for a clone),
//! then killers and history within the same gain.

use super::Duel;
use crate::moves::Move;

/// History scores stay within +-HISTORY_MAX (the gravity update keeps them there).
pub const HISTORY_MAX: i32 = 16_384;
const GAIN_STEP: i32 = 100_000;
const KILLER: i32 = 40_000;
const TT_MOVE: i32 = 1 << 30;

pub struct Ordering {
    history: Vec<i32>,
    killers: Vec<[Option<Move>; 2]>,
}

impl Ordering {
    pub fn new(max_ply: usize) -> Ordering {
        Ordering {
            history: vec![0; 2 * Move::SLOTS],
            killers: vec![[None; 2]; max_ply + 1],
        }
    }

    /// Keeps half of the history for the next search; killers belong to one search.
    pub fn age(&mut self) {
        for h in &mut self.history {
            *h /= 2;
        }
        self.killers.fill([None; 2]);
    }

    #[inline(always)]
    fn index(stm: u8, mv: Move) -> usize {
        stm as usize * Move::SLOTS + mv.slot()
    }

    pub fn history(&self, stm: u8, mv: Move) -> i32 {
        self.history[Self::index(stm, mv)]
    }

    /// Stones `mv` adds to the mover's count.
    #[inline(always)]
    pub fn gain(pos: &Duel, mv: Move) -> i32 {
        pos.captures(mv).count_ones() as i32 + i32::from(mv.is_clone())
    }

    /// Scores `moves` for picking, best first.
    pub fn score(
        &self,
        pos: &Duel,
        moves: &[Move],
        tt_move: Option<Move>,
        ply: usize,
        out: &mut Vec<i32>,
    ) {
        out.clear();
        let killers = self.killers[ply];
        for &mv in moves {
            let s = if Some(mv) == tt_move {
                TT_MOVE
            } else {
                let mut s = GAIN_STEP * Self::gain(pos, mv) + self.history(pos.stm, mv);
                if killers.contains(&Some(mv)) {
                    s += KILLER;
                }
                s
            };
            out.push(s);
        }
    }

    /// A move that cut off at `ply`: rewards it and penalises the moves tried before it.
    pub fn reward(&mut self, stm: u8, ply: usize, best: Move, tried: &[Move], depth: i32) {
        let bonus = (depth * depth * 16).min(HISTORY_MAX / 4);
        for &mv in tried {
            let h = &mut self.history[Self::index(stm, mv)];
            let b = if mv == best { bonus } else { -bonus };
            *h += b - *h * b.abs() / HISTORY_MAX;
        }
        let k = &mut self.killers[ply];
        if k[0] != Some(best) {
            k[1] = k[0];
            k[0] = Some(best);
        }
    }
}

/// Swaps the best-scored remaining move to `i` and returns it.
#[inline(always)]
pub fn pick(moves: &mut [Move], scores: &mut [i32], i: usize) -> Move {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    scores.swap(i, best);
    moves[i]
}
