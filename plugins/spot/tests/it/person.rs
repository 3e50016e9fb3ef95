//! A scripted person for the games against the Spot plug-in (`nesmind demo spot --human`):
//! it reads the transcript line that announces its turn (`RED (you) to move, hand on d4:
//! FEN`), picks a move with its own rules model (the most pieces gained, first in generation
//! order on ties) and turns it into the D-pad and A presses a person would make.
#![allow(dead_code)]

use nesmind_host::Buttons;
use nesmind_spot::board::{SIDE, parse_square, row_col};
use nesmind_spot::layouts::parse_fen;
use nesmind_spot::moves::Move;
use nesmind_spot::position::Position;

/// A turn the transcript announced for a person.
#[derive(Debug)]
pub struct Turn {
    pub colour: String,
    pub hand: u8,
    pub position: Position,
}

/// `RED (you) to move, hand on d4: x5o/7/7/7/7/7/o5x x` for a game of `players`.
pub fn parse_turn(line: &str, players: usize) -> Option<Turn> {
    let (colour, rest) = line.split_once(" (you) to move, hand on ")?;
    let (hand, fen) = rest.split_once(": ")?;
    let position = parse_fen(fen, players).unwrap_or_else(|e| panic!("{line}: {e}"));
    Some(Turn {
        colour: colour.to_string(),
        hand: parse_square(hand).unwrap_or_else(|e| panic!("{line}: {e}")),
        position,
    })
}

/// The move the person makes: the most pieces gained this turn; `None` for a forced pass.
pub fn pick(pos: &Position) -> Option<Move> {
    let mut moves = Vec::new();
    pos.generate(&mut moves);
    moves.retain(|m| *m != Move::PASS);
    let gain = |m: &Move| pos.captures(*m).count_ones() + u32::from(m.is_clone());
    let best = moves.iter().map(gain).max()?;
    moves.into_iter().find(|m| gain(m) == best)
}

/// D-pad presses that walk the hand from `from` to `to` (one cell per press).
fn walk(from: u8, to: u8, out: &mut Vec<Buttons>) {
    let ((r0, c0), (r1, c1)) = (row_col(from), row_col(to));
    let vertical = if r1 > r0 { Buttons::DOWN } else { Buttons::UP };
    let horizontal = if c1 > c0 {
        Buttons::RIGHT
    } else {
        Buttons::LEFT
    };
    out.extend(std::iter::repeat_n(vertical, r0.abs_diff(r1)));
    out.extend(std::iter::repeat_n(horizontal, c0.abs_diff(c1)));
}

fn distance(a: u8, b: u8) -> usize {
    let ((r0, c0), (r1, c1)) = (row_col(a), row_col(b));
    r0.abs_diff(r1).max(c0.abs_diff(c1))
}

/// The presses that enter `mv` with the hand on `hand`: to the piece that moves (for a
/// clone, the own piece next to the target nearest the hand), A, to the target, A.
pub fn presses(pos: &Position, hand: u8, mv: Move) -> Vec<Buttons> {
    let source = if mv.is_clone() {
        let mine = pos.pieces(pos.to_move());
        (0..(SIDE * SIDE) as u8)
            .filter(|&c| mine >> c & 1 == 1 && distance(c, mv.to) == 1)
            .min_by_key(|&c| distance(c, hand))
            .expect("a clone has a piece next to its target")
    } else {
        mv.from
    };
    let mut out = Vec::new();
    walk(hand, source, &mut out);
    out.push(Buttons::A);
    walk(source, mv.to, &mut out);
    out.push(Buttons::A);
    out
}
