//! A Spot position for 2-4 players: bitboards, move generation, copy-make and make/unmake.

use super::board::{ADJACENT, Bits, FULL, JUMPS, NO_SQUARE, dilate1, ring2_union};
use super::moves::{Kind, Move};
use super::zobrist;

mod make;
pub use super::board::MAX_PLAYERS;
pub use make::Undo;

/// Whether the cherry prize's free jump converts the pieces around its destination like a
/// normal jump. The manual only says "cheat move"; this is the one switch if it does not.
pub const CHERRY_CONVERTS: bool = true;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(usize),
    /// Two or more players share the largest piece count.
    Draw,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pieces: [u64; MAX_PLAYERS],
    blocked: u64,
    players: u8,
    to_move: u8,
    /// The bonus square, or NO_SQUARE once used (or when the bonus game is ignored).
    secret: u8,
    /// The player to move has just landed on the secret square and picks a prize.
    bonus: bool,
    key: u64,
}

impl Position {
    /// Builds a position; pieces of players >= `players` must be empty.
    pub fn new(
        players: usize,
        blocked: u64,
        pieces: [u64; MAX_PLAYERS],
        to_move: usize,
    ) -> Result<Position, String> {
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(format!("Spot has 2-4 players, not {players}"));
        }
        if to_move >= players {
            return Err(format!(
                "player {} to move, but only {players} play",
                to_move + 1
            ));
        }
        let mut seen = blocked & FULL;
        for (p, &bb) in pieces.iter().enumerate() {
            if bb & !FULL != 0 || bb & seen != 0 {
                return Err(format!(
                    "player {} pieces overlap blocked or other pieces",
                    p + 1
                ));
            }
            if p >= players && bb != 0 {
                return Err(format!(
                    "player {} has pieces but only {players} play",
                    p + 1
                ));
            }
            seen |= bb;
        }
        let mut pos = Position {
            pieces,
            blocked: blocked & FULL,
            players: players as u8,
            to_move: to_move as u8,
            secret: NO_SQUARE,
            bonus: false,
            key: 0,
        };
        pos.key = pos.compute_key();
        Ok(pos)
    }

    pub fn compute_key(&self) -> u64 {
        let mut k = zobrist::turn(self.to_move as usize);
        for p in 0..MAX_PLAYERS {
            for sq in Bits(self.pieces[p]) {
                k ^= zobrist::piece(p, sq);
            }
        }
        for sq in Bits(self.blocked) {
            k ^= zobrist::blocked(sq);
        }
        if self.secret != NO_SQUARE {
            k ^= zobrist::secret(self.secret);
        }
        if self.bonus {
            k ^= zobrist::bonus();
        }
        k
    }

    pub fn key(&self) -> u64 {
        self.key
    }
    pub fn players(&self) -> usize {
        self.players as usize
    }
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }
    pub fn pieces(&self, player: usize) -> u64 {
        self.pieces[player]
    }
    pub fn all_pieces(&self) -> [u64; MAX_PLAYERS] {
        self.pieces
    }
    pub fn blocked(&self) -> u64 {
        self.blocked
    }
    pub fn count(&self, player: usize) -> u32 {
        self.pieces[player].count_ones()
    }
    pub fn occupied(&self) -> u64 {
        self.pieces[0] | self.pieces[1] | self.pieces[2] | self.pieces[3]
    }
    pub fn empty(&self) -> u64 {
        FULL & !self.blocked & !self.occupied()
    }
    pub fn secret(&self) -> u8 {
        self.secret
    }
    pub fn bonus_pending(&self) -> bool {
        self.bonus
    }
    /// Who owns `sq`, if anyone.
    pub fn owner(&self, sq: u8) -> Option<usize> {
        (0..MAX_PLAYERS).find(|&p| self.pieces[p] >> sq & 1 == 1)
    }

    /// Hides (or sets) the secret square; the key follows.
    pub fn set_secret(&mut self, sq: u8) {
        if self.secret != NO_SQUARE {
            self.key ^= zobrist::secret(self.secret);
        }
        self.secret = sq;
        if sq != NO_SQUARE {
            self.key ^= zobrist::secret(sq);
        }
    }
    /// Marks the player to move as having won the bonus game (used when reading RAM).
    pub fn set_bonus_pending(&mut self, pending: bool) {
        if self.bonus != pending {
            self.key ^= zobrist::bonus();
            self.bonus = pending;
        }
    }
    /// Gives the turn to `player` (best-reply search and RAM decoding need this).
    pub fn set_to_move(&mut self, player: usize) {
        self.key ^= zobrist::turn(self.to_move as usize) ^ zobrist::turn(player);
        self.to_move = player as u8;
    }

    /// Squares `player` could move to.
    #[inline]
    pub fn reach(&self, player: usize) -> u64 {
        let p = self.pieces[player];
        (dilate1(p) | ring2_union(p)) & self.empty()
    }

    pub fn can_move(&self, player: usize) -> bool {
        self.reach(player) != 0
    }

    /// The game ends when the board is full, one colour (or none) remains, or nobody can move.
    pub fn is_over(&self) -> bool {
        let empty = self.empty();
        if empty == 0 {
            return true;
        }
        let mut alive = 0;
        let mut mover = 0u64;
        for p in 0..self.players as usize {
            if self.pieces[p] != 0 {
                alive += 1;
                mover |= self.pieces[p];
            }
        }
        if alive <= 1 {
            return true;
        }
        // Usually some piece touches an empty square; only then is the jump ring needed.
        dilate1(mover) & empty == 0 && ring2_union(mover) & empty == 0
    }

    pub fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        Some(self.ranking_outcome())
    }

    /// Majority winner of the current counts (a shared majority is a draw).
    pub fn ranking_outcome(&self) -> Outcome {
        let best = (0..self.players())
            .map(|p| self.count(p))
            .max()
            .unwrap_or(0);
        let leaders: Vec<usize> = (0..self.players())
            .filter(|&p| self.count(p) == best)
            .collect();
        if leaders.len() == 1 {
            Outcome::Win(leaders[0])
        } else {
            Outcome::Draw
        }
    }

    /// The next player after `player` who still has pieces (players without pieces never return).
    fn next_after(&self, player: usize) -> usize {
        let n = self.players as usize;
        for i in 1..=n {
            let q = (player + i) % n;
            if self.pieces[q] != 0 {
                return q;
            }
        }
        player
    }

    /// Legal moves (empty when the game is over). A player with pieces but no step gets `PASS`.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if !self.is_over() {
            self.generate(out);
        }
    }

    /// Moves of an unfinished position (the caller checked `is_over`).
    pub fn generate(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.bonus {
            self.generate_prizes(out);
            return;
        }
        let me = self.pieces[self.to_move as usize];
        let empty = self.empty();
        for to in Bits(dilate1(me) & empty) {
            out.push(Move::clone_to(to));
        }
        for from in Bits(me) {
            for to in Bits(JUMPS[from as usize] & empty) {
                out.push(Move::jump(from, to));
            }
        }
        if out.is_empty() {
            out.push(Move::PASS);
        }
    }

    fn generate_prizes(&self, out: &mut Vec<Move>) {
        let me = self.to_move as usize;
        out.push(Move::prize(Kind::NoPrize, NO_SQUARE, NO_SQUARE));
        out.push(Move::prize(Kind::ExtraTurn, NO_SQUARE, NO_SQUARE));
        let empty = self.empty();
        for from in Bits(self.pieces[me]) {
            for to in Bits(empty) {
                out.push(Move::prize(Kind::Cherry, from, to));
            }
        }
        for q in 0..self.players as usize {
            if q != me && self.pieces[q] != 0 {
                out.push(Move::prize(Kind::Swap, NO_SQUARE, q as u8));
            }
        }
    }

    /// Number of legal moves of an unfinished position, without listing them (perft leaves).
    #[inline]
    pub fn count_moves(&self) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has POPCNT (checked just above).
            return unsafe { self.count_moves_popcnt() };
        }
        self.count_moves_body()
    }

    /// `count_moves` compiled with POPCNT, which the default x86-64 target lacks.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn count_moves_popcnt(&self) -> u64 {
        self.count_moves_body()
    }

    #[inline(always)]
    fn count_moves_body(&self) -> u64 {
        if self.bonus {
            let mut v = Vec::new();
            self.generate_prizes(&mut v);
            return v.len() as u64;
        }
        let me = self.pieces[self.to_move as usize];
        let empty = self.empty();
        let mut n = (dilate1(me) & empty).count_ones() as u64;
        for from in Bits(me) {
            n += (JUMPS[from as usize] & empty).count_ones() as u64;
        }
        n.max(1)
    }

    /// Pieces `mv` would convert.
    #[inline]
    pub fn captures(&self, mv: Move) -> u64 {
        match mv.kind {
            Kind::Cherry if !CHERRY_CONVERTS => 0,
            Kind::Step | Kind::Cherry => {
                ADJACENT[mv.to as usize] & self.occupied() & !self.pieces[self.to_move as usize]
            }
            _ => 0,
        }
    }
}
