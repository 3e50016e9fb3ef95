//! Entering a move with the pad, first on a fork. The hand is walked one press at a time,
//! each press waited out and checked (the picture must change where the hand leaves and
//! arrives), the piece picked up (the picture must change) and put down; then the board
//! must read as the rules say. The presses, frame by frame, make a [`Tape`] that the real
//! game is then given, with checkpoints: the real picture must look exactly as the fork's
//! did at those frames, or the tape stops. Where a hand shows in a picture (drawn into a
//! cell, or a box round its points) is here too, for the probes as well.

use super::Sight;
use crate::board::{CELLS, SIDE};
use nesmind_host::sight::{Lab, Rect, Shot};
pub use nesmind_host::sight::{Tape, Taped};
use nesmind_host::{Buttons, Fork};

/// Runs `t` released until the board area has settled.
fn settle_taped(t: &mut Taped, lab: &mut Lab, sight: &Sight) -> Result<Shot, String> {
    t.settle(
        lab,
        sight.grid.board_area(),
        &sight.live,
        super::STILL,
        super::SETTLE_MAX,
    )
}

/// The direction (column step, row step) of the next press from `from` towards `to`:
/// rows first, never round the edge. A wrap saves a few presses at most, and a walk
/// can take a hand that flickers at the edge for one that wraps.
pub fn direction(from: u8, to: u8) -> Option<(i32, i32)> {
    let side = SIDE as i32;
    let (r, c) = (i32::from(from) / side, i32::from(from) % side);
    let (tr, tc) = (i32::from(to) / side, i32::from(to) % side);
    match ((tr - r).signum(), (tc - c).signum()) {
        (0, 0) => None,
        (0, dc) => Some((dc, 0)),
        (dr, _) => Some((0, dr)),
    }
}

pub fn buttons_of(dir: (i32, i32)) -> Buttons {
    match dir {
        (1, 0) => Buttons::RIGHT,
        (-1, 0) => Buttons::LEFT,
        (0, 1) => Buttons::DOWN,
        _ => Buttons::UP,
    }
}

/// Whether the change between two settled pictures is the hand stepping from `a` to `b`:
/// a fair part of it lies round their hand points, and its mean there near their middle
/// (other things may change on the board meanwhile: a mark under the hand, a blink).
fn stepped(sight: &Sight, before: &Shot, after: &Shot, a: u8, b: u8) -> bool {
    let ch = before
        .pic
        .changes_in(&after.pic, sight.grid.board_area())
        .unmasked(&sight.live);
    let (p, q) = (sight.grid.cursor_point(a), sight.grid.cursor_point(b));
    let round = ch.within(around(sight, p, q));
    if 4 * round.pixels.len() < ch.pixels.len() {
        return false;
    }
    // A hand drawn into the cells shows its look at `b` (the cell it left may look the
    // same either way).
    if hand_drawn(sight, after) == Some(b) {
        return true;
    }
    let Some(m) = round.centroid() else {
        return false;
    };
    let mid = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0);
    (m.0 - mid.0).abs() <= f64::from(sight.grid.pitch.0) / 2.0
        && (m.1 - mid.1).abs() <= f64::from(sight.grid.pitch.1) / 2.0
}

/// Walks the hand on `t` from `from` to `to`, checking each step; returns the last shot.
pub fn goto(
    sight: &Sight,
    lab: &mut Lab,
    t: &mut Taped,
    from: u8,
    to: u8,
    mut shot: Shot,
) -> Result<Shot, String> {
    let mut at = from;
    let mut lost = 0;
    for _ in 0..4 * SIDE {
        let Some(dir) = direction(at, to) else {
            return Ok(shot);
        };
        let next = sight
            .grid
            .step(at, dir)
            .ok_or("the hand would leave the board")?;
        t.tap(lab, buttons_of(dir))?;
        let now = settle_taped(t, lab, sight)?;
        if now
            .pic
            .same_except(&shot.pic, sight.grid.board_area(), &sight.live)
        {
            lost += 1;
            if lost > 2 {
                return Err(format!(
                    "the hand did not move from {} (three presses lost)",
                    crate::board::square_name(at)
                ));
            }
            continue;
        }
        if !stepped(sight, &shot, &now, at, next) {
            return Err(format!(
                "the hand did not step from {} to {} as expected",
                crate::board::square_name(at),
                crate::board::square_name(next)
            ));
        }
        at = next;
        shot = now;
    }
    Err("the hand did not reach its cell".into())
}

/// Presses A on `t`; the picture must change (a piece picked up or put down). With
/// `last`, the real picture must match this fork's just before the press.
pub fn press_a(
    sight: &Sight,
    lab: &mut Lab,
    t: &mut Taped,
    shot: &Shot,
    last: bool,
) -> Result<Shot, String> {
    if last {
        t.checkpoint()?;
    }
    t.tap(lab, Buttons::A)?;
    let unchanged = |now: &Shot| {
        now.pic
            .same_except(&shot.pic, sight.grid.board_area(), &sight.live)
    };
    let now = settle_taped(t, lab, sight)?;
    if !unchanged(&now) {
        return Ok(now);
    }
    // A game may think a few frames before it draws anything (the picture stays still
    // meanwhile): a change is waited for a while.
    for _ in 0..A_WAIT {
        t.run(lab, Buttons::NONE, 1)?;
        if !unchanged(&t.shot()?) {
            let now = settle_taped(t, lab, sight)?;
            if !unchanged(&now) {
                return Ok(now);
            }
        }
    }
    Err("the game did not take the A press".into())
}

/// Frames a game may take to show anything after an A press.
const A_WAIT: u64 = 60;

/// Frames the game may take after the last press to show the move (captures turning).
const SHOW_FRAMES: u64 = 300;

/// Enters source -> destination on a copy of `base` (hand on `cursor`), then waits until
/// `shows(shot, settled)` says the board shows the move (`settled`: the board has been
/// still for a few frames): the fork then and its tape. An error says
/// what went wrong (a press not taken, the move never shown).
pub fn enter(
    sight: &Sight,
    lab: &mut Lab,
    base: &Fork,
    pad: usize,
    (cursor, source, dest): (u8, u8, u8),
    mut shows: impl FnMut(&Shot, bool) -> bool,
) -> Result<(Fork, Tape), String> {
    let mut tape = Tape::new(pad, sight.grid.board_area());
    let mut t = Taped {
        fork: base.clone(),
        tape: &mut tape,
    };
    let shot = settle_taped(&mut t, lab, sight)?;
    goto(sight, lab, &mut t, cursor, source, shot)?;
    // A game may show a piece picked up only in its hand or beside the board, or not
    // at all: the pick-up is taken on trust, and the press that puts the piece down,
    // which must change the board, checks both.
    t.tap(lab, Buttons::A)?;
    let shot = settle_taped(&mut t, lab, sight)?;
    let shot = goto(sight, lab, &mut t, source, dest, shot)?;
    press_a(sight, lab, &mut t, &shot, true)?;
    t.commit();
    let start = t.tape.frames.len() as u64;
    // Every frame, not only settled ones: a quick player after us may answer before the
    // picture has been still for long.
    let mut still = nesmind_host::sight::Stillness::new(Some(sight.grid.board_area()))
        .ignoring(sight.live.clone());
    loop {
        let now = Shot::take(&t.fork).ok_or("no picture")?;
        let settled = still.observe(&now.pic) >= super::STILL;
        if shows(&now, settled) {
            break;
        }
        if t.tape.frames.len() as u64 - start > SHOW_FRAMES {
            return Err(format!(
                "the board did not show the move within {SHOW_FRAMES} frames of the last press"
            ));
        }
        t.run(lab, Buttons::NONE, 1)?;
    }
    t.checkpoint()?;
    let fork = t.fork;
    Ok((fork, tape))
}

/// The one cell of `shot` whose picture is a hand's look (learned under the hand) and no
/// look the hand is absent from; `None` where the hand is a sprite or no such cell is one.
pub(super) fn hand_drawn(sight: &Sight, shot: &Shot) -> Option<u8> {
    let mut found = None;
    for c in 0..CELLS as u8 {
        let look = sight.look(shot, c);
        if sight.book.classify(&look).known().is_none()
            && sight.under_hand.classify(&look).known().is_some()
        {
            if found.is_some() {
                return None;
            }
            found = Some(c);
        }
    }
    found
}

/// The box round two hand points, a cell wider all round (a hand may light its whole
/// cell, and its point need not be the cell's middle).
pub fn around(sight: &Sight, p: (f64, f64), q: (f64, f64)) -> Rect {
    let (px, py) = (f64::from(sight.grid.pitch.0), f64::from(sight.grid.pitch.1));
    let (x0, y0) = (p.0.min(q.0) - px, p.1.min(q.1) - py);
    let (x1, y1) = (p.0.max(q.0) + px, p.1.max(q.1) + py);
    Rect::new(
        x0.floor() as i32,
        y0.floor() as i32,
        (x1 - x0).ceil() as i32 + 1,
        (y1 - y0).ceil() as i32 + 1,
    )
}

#[cfg(test)]
mod tests {
    use super::super::grid::Grid;
    use super::*;

    #[test]
    fn directions_take_rows_first_and_never_wrap() {
        assert_eq!(direction(0, 48), Some((0, 1)));
        assert_eq!(direction(42, 48), Some((1, 0)));
        assert_eq!(direction(6, 0), Some((-1, 0)));
        assert_eq!(direction(0, 42), Some((0, 1)));
        assert_eq!(direction(5, 5), None);
        // On a board whose hand wraps, every walk still takes the straight way: as many
        // presses as the cells between, none across an edge.
        let g = Grid {
            origin: (0, 0),
            pitch: (16, 16),
            cursor0: (8.0, 8.0),
            wraps: true,
            inner: nesmind_host::sight::Rect::new(0, 0, 16, 16),
        };
        let side = SIDE as i32;
        for from in 0..(side * side) as u8 {
            for to in 0..(side * side) as u8 {
                let (mut at, mut presses) = (from, 0);
                while let Some(dir) = direction(at, to) {
                    at = g.step(at, dir).expect("a step on the board");
                    presses += 1;
                    assert!(presses <= 2 * side, "{from} -> {to} does not end");
                }
                let (a, b) = (i32::from(from), i32::from(to));
                let far = (a / side - b / side).abs() + (a % side - b % side).abs();
                assert_eq!(presses, far, "{from} -> {to}");
            }
        }
    }
}
