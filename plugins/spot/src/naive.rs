//! A deliberately simple second move generator (arrays and loops, no bitboards) that
//! cross-checks the bitboard generator's perft counts for 3 and 4 players.

use super::board::{CELLS, SIDE};
use super::position::Position;

const EMPTY: i8 = -1;
const BLOCK: i8 = -2;

#[derive(Clone)]
pub struct NaiveBoard {
    cells: [i8; CELLS],
    players: usize,
    to_move: usize,
}

fn dist(a: usize, b: usize) -> usize {
    let (ar, ac) = (a / SIDE, a % SIDE);
    let (br, bc) = (b / SIDE, b % SIDE);
    ar.abs_diff(br).max(ac.abs_diff(bc))
}

impl NaiveBoard {
    pub fn from_position(pos: &Position) -> NaiveBoard {
        let mut cells = [EMPTY; CELLS];
        for (sq, cell) in cells.iter_mut().enumerate() {
            if pos.blocked() >> sq & 1 == 1 {
                *cell = BLOCK;
            } else if let Some(p) = pos.owner(sq as u8) {
                *cell = p as i8;
            }
        }
        NaiveBoard {
            cells,
            players: pos.players(),
            to_move: pos.to_move(),
        }
    }

    fn count(&self, p: usize) -> usize {
        self.cells.iter().filter(|&&c| c == p as i8).count()
    }

    fn targets(&self, p: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for to in 0..CELLS {
            if self.cells[to] != EMPTY {
                continue;
            }
            let mut clone_seen = false;
            for from in 0..CELLS {
                if self.cells[from] != p as i8 {
                    continue;
                }
                match dist(from, to) {
                    1 if !clone_seen => {
                        clone_seen = true;
                        out.push((to, to));
                    }
                    2 => out.push((from, to)),
                    _ => {}
                }
            }
        }
        out
    }

    fn over(&self) -> bool {
        let alive: Vec<usize> = (0..self.players).filter(|&p| self.count(p) > 0).collect();
        if alive.len() <= 1 || !self.cells.contains(&EMPTY) {
            return true;
        }
        alive.iter().all(|&p| self.targets(p).is_empty())
    }

    fn apply(&self, from: usize, to: usize) -> NaiveBoard {
        let mut b = self.clone();
        let me = self.to_move as i8;
        if from != to {
            b.cells[from] = EMPTY;
        }
        b.cells[to] = me;
        for sq in 0..CELLS {
            if dist(sq, to) == 1 && b.cells[sq] >= 0 {
                b.cells[sq] = me;
            }
        }
        b.pass_on();
        b
    }

    fn pass_on(&mut self) {
        for i in 1..=self.players {
            let q = (self.to_move + i) % self.players;
            if self.count(q) > 0 {
                self.to_move = q;
                return;
            }
        }
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.over() {
            return 0;
        }
        let moves = self.targets(self.to_move);
        if moves.is_empty() {
            let mut b = self.clone();
            b.pass_on();
            return b.perft(depth - 1);
        }
        moves
            .iter()
            .map(|&(f, t)| self.apply(f, t).perft(depth - 1))
            .sum()
    }
}
