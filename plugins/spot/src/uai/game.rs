//! The game state a UAI client sets with `position`: 2-player 7x7 Ataxx in libataxx's
//! conventions (FEN `x`/`o` pieces, `-` gaps, side, half-move clock; moves `b2`, `a1c3`,
//! `0000` for a pass).

use crate::board::parse_square;
use crate::layouts::parse_fen;
use crate::moves::{Kind, Move};
use crate::position::Position;

pub const STARTPOS_FEN: &str = "x5o/7/7/7/7/7/o5x x 0 1";

/// Plies without a clone after which libataxx scores the game a draw.
pub const FIFTY_MOVE_PLIES: u32 = 100;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    pub pos: Position,
    /// Plies since the last clone (libataxx's half-move clock).
    pub halfmove: u32,
}

impl Game {
    pub fn startpos() -> Game {
        Game::from_fen(STARTPOS_FEN).expect("the start FEN parses")
    }

    /// Reads a FEN of 1-4 fields: board, side to move (`x`/`o`, also `b`/`w` as
    /// python-ataxx writes), half-move clock, full-move number.
    pub fn from_fen(text: &str) -> Result<Game, String> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.is_empty() || fields.len() > 4 {
            return Err(format!(
                "FEN '{text}' has {} fields (board, side, half-moves, full-moves)",
                fields.len()
            ));
        }
        let board: String = fields[0].chars().map(libataxx_letter).collect();
        let side = match fields.get(1).copied().unwrap_or("x") {
            s if s.len() == 1 => libataxx_letter(s.chars().next().expect("one char")),
            s => return Err(format!("FEN '{text}': bad side to move '{s}' (x or o)")),
        };
        if !"xoXO".contains(side) {
            return Err(format!("FEN '{text}': bad side to move '{side}' (x or o)"));
        }
        let number = |i: usize, what: &str| -> Result<u32, String> {
            fields.get(i).map_or(Ok(0), |f| {
                f.parse()
                    .map_err(|_| format!("FEN '{text}': bad {what} '{f}'"))
            })
        };
        let halfmove = number(2, "half-move clock")?;
        number(3, "full-move number")?;
        let pos = parse_fen(&format!("{board} {side}"), 2)?;
        Ok(Game { pos, halfmove })
    }

    /// Whether the game has ended, by the board or by the fifty-move rule.
    pub fn is_over(&self) -> bool {
        self.pos.is_over() || self.halfmove >= FIFTY_MOVE_PLIES
    }

    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        if !self.is_over() {
            self.pos.legal_moves(&mut moves);
        }
        moves
    }

    /// Plays a move written in UAI notation if it is legal here.
    pub fn play_text(&mut self, text: &str) -> Result<(), String> {
        let mv = parse_move(text)?;
        if !self.legal_moves().contains(&mv) {
            let why = if self.is_over() {
                "the game is over"
            } else if mv == Move::PASS {
                "a pass is legal only without any other move"
            } else {
                "not legal in this position"
            };
            return Err(format!("move '{text}': {why}"));
        }
        self.play(mv);
        Ok(())
    }

    pub fn play(&mut self, mv: Move) {
        self.halfmove = if mv.is_clone() { 0 } else { self.halfmove + 1 };
        self.pos = self.pos.play(mv);
    }
}

/// python-ataxx also accepts `b`/`w` (black moves first, as `x` does).
fn libataxx_letter(c: char) -> char {
    match c {
        'b' | 'B' => 'x',
        'w' | 'W' => 'o',
        c => c,
    }
}

/// A move in UAI notation: `0000` (pass), a clone target `b2`, or a jump `a1c3`.
pub fn parse_move(text: &str) -> Result<Move, String> {
    if text == "0000" {
        return Ok(Move::PASS);
    }
    let square = |s: &str| parse_square(s).map_err(|e| format!("move '{text}': {e}"));
    match text.len() {
        2 => Ok(Move::clone_to(square(text)?)),
        4 if text.is_char_boundary(2) => {
            let (from, to) = (square(&text[..2])?, square(&text[2..])?);
            let (df, dt) = (crate::board::row_col(from), crate::board::row_col(to));
            let distance = df.0.abs_diff(dt.0).max(df.1.abs_diff(dt.1));
            if distance != 2 {
                return Err(format!(
                    "move '{text}': a jump goes exactly two squares (a one-square move is written as its target, e.g. '{}')",
                    &text[2..]
                ));
            }
            Ok(Move::jump(from, to))
        }
        _ => Err(format!(
            "move '{text}': expected a square (b2), a jump (a1c3) or 0000"
        )),
    }
}

/// A move in UAI notation (the inverse of [`parse_move`]).
pub fn move_text(mv: Move) -> String {
    match mv.kind {
        Kind::Pass => "0000".into(),
        _ => mv.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_fields_moves_and_the_half_move_clock() {
        let mut g = Game::startpos();
        assert_eq!(g.legal_moves().len(), 16);
        g.play_text("f2").unwrap();
        assert_eq!(g.halfmove, 0);
        g.play_text("a1c3").unwrap();
        assert_eq!((g.halfmove, g.pos.to_move()), (1, 0));
        assert!(g.play_text("a1c3").unwrap_err().contains("not legal"));
        assert!(g.play_text("a1b2").unwrap_err().contains("two squares"));
        assert!(g.play_text("h9").unwrap_err().contains("bad square"));
        assert!(g.play_text("0000").unwrap_err().contains("pass"));
        let w = Game::from_fen("b5w/7/7/7/7/7/w5b w 7 9").unwrap();
        assert_eq!((w.pos.to_move(), w.halfmove), (1, 7));
        assert!(Game::from_fen("x5o/7/7/7/7/7/o5x q").is_err());
        assert!(Game::from_fen("x5o/7/7/7/7/7/o5x x z").is_err());
        assert!(Game::from_fen("x5o/7/7/7/7/7/o5y x").is_err());
        assert!(Game::from_fen("").is_err());
        assert!(Game::from_fen("x5o/7/7/7/7/7/o5x x 100").unwrap().is_over());
        // o (g1) is walled in by gaps; x (a3) has one square left: o must pass.
        let mut p =
            Game::from_fen("-------/-------/-------/-------/x1-----/-------/------o o").unwrap();
        assert_eq!(p.legal_moves(), vec![Move::PASS]);
        assert!(p.play_text("g1").is_err());
        p.play_text("0000").unwrap();
        p.play_text("b3").unwrap();
        assert!(p.is_over());
    }

    #[test]
    fn move_text_round_trips() {
        for t in ["0000", "a1", "g7", "a1c3", "g7e5"] {
            assert_eq!(move_text(parse_move(t).unwrap()), t);
        }
        assert!(parse_move("é1").is_err() && parse_move("a1c").is_err());
    }
}
