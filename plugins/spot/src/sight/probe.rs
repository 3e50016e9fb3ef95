//! Questions the player asks the game on forks while it plays: does this pad move the hand
//! now (its turn), where is the hand, what is under it, and which pieces does a pad play.

use super::steer::{around, buttons_of, hand_drawn};
use super::{Cell, Seen, Sight};
use crate::board::CELLS;
use nesmind_host::sight::{Lab, Shot};
use nesmind_host::{Fork, Frame};

/// Most frames a probe's press may take to settle; a pad whose press does not settle in
/// that time is not being asked for a move.
const PROBE_SETTLE: u64 = 60;

/// Where the hand was, and a fork on which one press moved it.
#[derive(Clone)]
pub struct Located {
    pub cell: u8,
    pub moved_to: u8,
    pub fork: Fork,
    pub shot: Shot,
}

/// What a pad's press did.
pub enum Answer {
    /// Nothing (another player's turn, or the game is busy).
    Silent,
    /// It moved the hand.
    Hand(Box<Located>),
    /// It changed the picture, but not like the hand stepping across the board.
    Other,
}

/// Presses each direction in turn on `pad` on copies of `base` (whose settled picture is
/// `shot`) until one moves the hand.
pub fn locate(
    sight: &Sight,
    lab: &mut Lab,
    base: &Fork,
    shot: &Shot,
    pad: usize,
) -> Result<Answer, String> {
    let area = sight.grid.board_area();
    let mut other = false;
    for dir in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        let mut pressed = base.clone();
        lab.tap(&mut pressed, pad, buttons_of(dir))?;
        let Some(_) =
            lab.settle_except(&mut pressed, area, &sight.live, super::STILL, PROBE_SETTLE)?
        else {
            continue;
        };
        // A control copy left alone as long shows what would have changed anyway.
        let mut control = base.clone();
        let frames = pressed.frame_number() - base.frame_number();
        lab.run(&mut control, frames)?;
        let (Some(p), Some(c)) = (Shot::take(&pressed), Shot::take(&control)) else {
            return Ok(Answer::Silent);
        };
        let ch = c.pic.changes_in(&p.pic, area).unmasked(&sight.live);
        let Some(m) = ch.centroid() else { continue };
        other = true;
        let half = (
            f64::from(dir.0 * sight.grid.pitch.0) / 2.0,
            f64::from(dir.1 * sight.grid.pitch.1) / 2.0,
        );
        // Where the hand is drawn into the cells, the one cell now showing a hand's look
        // is where it went (the cell it left may look the same either way, which pulls
        // the change's middle off the step's).
        let drawn = hand_drawn(sight, &p)
            .and_then(|b| sight.grid.step(b, (-dir.0, -dir.1)).map(|a| (a, b)));
        let near = sight
            .grid
            .cursor_cell_near((m.0 - half.0, m.1 - half.1))
            .and_then(|a| sight.grid.step(a, dir).map(|b| (a, b)));
        let Some((a, b)) = drawn.or(near) else {
            continue;
        };
        let (pa, pb) = (sight.grid.cursor_point(a), sight.grid.cursor_point(b));
        let mid = ((pa.0 + pb.0) / 2.0, (pa.1 + pb.1) / 2.0);
        // A hand wrapping round the edge changes both ends of a row, whose middle lies
        // where a step would: most of a step's change is round its two cells.
        let round = ch.within(around(sight, pa, pb));
        if 4 * round.pixels.len() >= 3 * ch.pixels.len()
            && (drawn.is_some()
                || (m.0 - mid.0).abs() <= f64::from(sight.grid.pitch.0) / 3.0
                    && (m.1 - mid.1).abs() <= f64::from(sight.grid.pitch.1) / 3.0)
            && c.pic.same_except(&shot.pic, area, &sight.live)
        {
            return Ok(Answer::Hand(Box::new(Located {
                cell: a,
                moved_to: b,
                fork: pressed,
                shot: p,
            })));
        }
    }
    Ok(if other { Answer::Other } else { Answer::Silent })
}

/// The board read from `shot`, with what the hand hides read from the copy on which it
/// moved away.
pub fn read_board(sight: &Sight, shot: &Shot, at: &Located) -> Result<Seen, String> {
    let mut seen = sight.read(shot);
    if !seen.merge(&sight.read(&at.shot)) {
        return Err("the board changed while the hand was moved aside".into());
    }
    Ok(seen)
}

/// Reads cells still hidden from copies where the hand moved on from `at`.
pub fn look_further(
    sight: &Sight,
    lab: &mut Lab,
    seen: &mut Seen,
    at: &Located,
    pad: usize,
) -> Result<(), String> {
    for dir in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
        if seen.unknown().is_empty() {
            break;
        }
        if sight.grid.step(at.moved_to, dir).is_none() {
            continue;
        }
        let mut g = at.fork.clone();
        lab.tap(&mut g, pad, buttons_of(dir))?;
        let Ok(s) = sight.settle(lab, &mut g) else {
            continue;
        };
        if !seen.merge(&sight.read(&s)) {
            return Err("the board changed while the hand was moved aside".into());
        }
    }
    Ok(())
}

/// Which piece class `pad` plays: on copies of `base` (hand on `hand`), the pad picks up
/// a piece of each class in turn; the class whose piece it can pick up is its own.
pub fn class_of_pad(
    sight: &Sight,
    lab: &mut Lab,
    base: &Fork,
    pad: usize,
    hand: u8,
    board: &[Cell; CELLS],
    skip: &[u8],
) -> Result<Option<u8>, String> {
    let mut classes: Vec<u8> = board
        .iter()
        .filter_map(|c| match c {
            Cell::Piece(k) if !skip.contains(k) => Some(*k),
            _ => None,
        })
        .collect();
    classes.sort_unstable();
    classes.dedup();
    for k in classes {
        let Some(cell) = (0..CELLS as u8).find(|&c| board[usize::from(c)] == Cell::Piece(k)) else {
            continue;
        };
        let mut tape = super::steer::Tape::new(pad, sight.grid.board_area());
        let mut t = super::steer::Taped {
            fork: base.clone(),
            tape: &mut tape,
        };
        let Ok(shot) = sight.settle(lab, &mut t.fork) else {
            continue;
        };
        let Ok(shot) = super::steer::goto(sight, lab, &mut t, hand, cell, shot) else {
            continue;
        };
        if super::steer::press_a(sight, lab, &mut t, &shot, false).is_ok() {
            return Ok(Some(k));
        }
    }
    Ok(None)
}
