//! The first move, made on forks: the hand picks up a corner piece and clones it next door.
//! The board array where exactly that cell turned from empty to a player's code is the
//! board; the cell that changed says which way round the array lies on the screen, and the
//! code is the one this pad plays.

use super::lab::{CursorProbes, Lab, release_all};
use super::scan::Found;
use crate::map_read::Memory;
use crate::ram_map::{BoardShape, Cursor};
use nesmind_host::{Buttons, Fork, Frame};

/// Frames to wait after the committing press for the board to show the move.
const SHOW_WAIT: u64 = 60;

/// The board, turned the screen's way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Oriented {
    pub shape: BoardShape,
    pub empty: u8,
    pub blocked: Option<u8>,
    /// The code of the pieces the probed pad plays.
    pub mine: u8,
    /// The move that worked: from a corner to a neighbour (screen cells).
    pub from: u8,
    pub to: u8,
    /// Frames from the committing press until this array showed the move.
    pub delay: u64,
}

/// The eight ways a 7 x 7 array can lie: transpose, then turn rows / columns round.
fn place(t: u8, r: usize, c: usize) -> (usize, usize) {
    let (a, b) = if t & 1 == 1 { (c, r) } else { (r, c) };
    (
        if t & 2 == 2 { 6 - a } else { a },
        if t & 4 == 4 { 6 - b } else { b },
    )
}

/// The screen-oriented shape of array `f` lying as `t`.
fn shape_of(f: &Found, t: u8) -> BoardShape {
    let at = |r, c| {
        let (i, j) = place(t, r, c);
        i32::from(f.addr_of(i, j))
    };
    BoardShape {
        addr: at(0, 0) as u16,
        row_step: (at(1, 0) - at(0, 0)) as i16,
        col_step: (at(0, 1) - at(0, 0)) as i16,
    }
}

/// Reads a screen-oriented board.
pub fn read_board<M: Memory + ?Sized>(shape: &BoardShape, mem: &M) -> [u8; 49] {
    std::array::from_fn(|k| {
        let (r, c) = ((k / 7) as i32, (k % 7) as i32);
        let a =
            i32::from(shape.addr) + r * i32::from(shape.row_step) + c * i32::from(shape.col_step);
        mem.byte(a as u16)
    })
}

/// Moves from each corner: the two straight neighbours, the diagonal one, then the five
/// jumps. A straight neighbour or an off-diagonal jump fixes the array's orientation alone;
/// a diagonal move leaves a transposition open for a second move to settle.
fn tries() -> Vec<(u8, u8)> {
    let mut out = Vec::new();
    for (cr, cc) in [(0i32, 0i32), (0, 6), (6, 0), (6, 6)] {
        let (sr, sc) = (if cr == 0 { 1 } else { -1 }, if cc == 0 { 1 } else { -1 });
        let cell = |dr: i32, dc: i32| ((cr + dr * sr) * 7 + cc + dc * sc) as u8;
        let from = cell(0, 0);
        for (dr, dc) in [
            (0, 1),
            (1, 0),
            (1, 1),
            (0, 2),
            (1, 2),
            (2, 1),
            (2, 0),
            (2, 2),
        ] {
            out.push((from, cell(dr, dc)));
        }
    }
    out
}

/// (empty, blocked, mover) codes a move implies.
type Codes = (u8, Option<u8>, u8);

/// What one candidate array showed so far: the orientations still possible and the codes.
#[derive(Clone)]
struct Reading {
    lies: Vec<u8>,
    codes: Option<Codes>,
    delay: u64,
}

/// Makes first moves on forks of `base` (the pad's player to move) until one array has
/// shown them in exactly one orientation.
pub fn first_move(
    lab: &mut Lab,
    base: &Fork,
    pad: usize,
    cursors: &[Cursor],
    found: &[Found],
) -> Result<(Oriented, Cursor), String> {
    let mut why = String::from("cursor: no model to try");
    for cursor in cursors {
        match moves_with(lab, base, pad, cursor, found)? {
            Ok(o) if tour(lab, base, pad, cursor, o.from)? => return Ok((o, *cursor)),
            Ok(_) => {
                log::debug!(
                    "spot: calibration: cursor {cursor:?} loses its way with a piece picked up"
                );
                why = "cursor: no model keeps its cell with a piece picked up".into();
            }
            Err(e) => {
                log::debug!("spot: calibration: cursor {cursor:?}: {e}");
                why = e;
            }
        }
    }
    Err(why)
}

/// With a piece picked up on `from`, the hand must still go where the model says, all the
/// way across the board (a scratch byte may follow the hand only until then).
fn tour(lab: &mut Lab, base: &Fork, pad: usize, cursor: &Cursor, from: u8) -> Result<bool, String> {
    let mut f = base.clone();
    release_all(&mut f);
    if !lab.drive(&mut f, pad, cursor, from)? {
        return Ok(false);
    }
    lab.tap_then(&mut f, pad, Buttons::A, 3)?;
    Ok(lab.drive(&mut f, pad, cursor, 24)? && lab.drive(&mut f, pad, cursor, 48 - from)?)
}

/// The first moves with one cursor model: the outer error is the machine's, the inner one
/// says what did not work with this model.
fn moves_with(
    lab: &mut Lab,
    base: &Fork,
    pad: usize,
    cursor: &Cursor,
    found: &[Found],
) -> Result<Result<Oriented, String>, String> {
    let mut readings = vec![
        Reading {
            lies: (0..8).collect(),
            codes: None,
            delay: u64::MAX,
        };
        found.len()
    ];
    let mut worked = None;
    let at_start: Vec<[u8; 49]> = found.iter().map(|b| array(b, base)).collect();
    for (from, to) in tries() {
        let mut f = base.clone();
        release_all(&mut f);
        let before: Vec<[u8; 49]> = found.iter().map(|b| array(b, &f)).collect();
        if !lab.drive(&mut f, pad, cursor, from)? {
            return Ok(Err(format!("cursor: the hand does not reach cell {from}")));
        }
        lab.tap_then(&mut f, pad, Buttons::A, 3)?;
        if !lab.drive(&mut f, pad, cursor, to)? {
            return Ok(Err(format!("cursor: the hand does not reach cell {to}")));
        }
        f.set_buttons(pad, Buttons::A);
        lab.run(&mut f, lab.hold)?;
        f.set_buttons(pad, Buttons::NONE);
        // Each array's first change after the press (the opponent may move soon after).
        // Each array when it first changes, and one frame later (a jump may take two frames
        // to write; a quick opponent may have moved by then).
        let mut first: Vec<Vec<(u64, [u8; 49])>> = vec![Vec::new(); found.len()];
        for t in 1..=SHOW_WAIT {
            lab.run(&mut f, 1)?;
            for (k, b) in found.iter().enumerate() {
                let now = array(b, &f);
                if first[k].len() == 1 || (first[k].is_empty() && now != before[k]) {
                    first[k].push((t, now));
                }
            }
        }
        let mut any = false;
        for (k, b) in found.iter().enumerate() {
            let seen = first[k]
                .iter()
                .find_map(|(t, after)| Some((*t, fits(b, &before[k], after, from, to)?)));
            log::debug!(
                "spot: calibration: move {from}->{to}: array ${:04X} (rows {:+}, cells {:+}): {}",
                b.addr,
                b.row_step,
                b.col_step,
                match (&first[k].first(), &seen) {
                    (None, _) => "unchanged".to_string(),
                    (Some(_), Some((t, (lies, _)))) =>
                        format!("shows the move after {t} frames, lying {lies:?}"),
                    (Some((t, a)), None) => format!(
                        "changed after {t} frames at {:?}, not as the move",
                        (0..49)
                            .filter(|&c| a[c] != before[k][c])
                            .collect::<Vec<_>>()
                    ),
                }
            );
            let Some((delay, (lies, codes))) = seen else {
                continue;
            };
            let r = &mut readings[k];
            if r.codes.is_some_and(|c| c != codes) {
                r.lies.clear();
                continue;
            }
            r.codes = Some(codes);
            r.lies.retain(|t| lies.contains(t));
            r.delay = r.delay.min(delay);
            any = true;
        }
        if any {
            worked.get_or_insert((from, to));
        }
        if readings
            .iter()
            .any(|r| r.lies.len() == 1 && r.codes.is_some())
        {
            break;
        }
    }
    let Some((from, to)) = worked else {
        return Ok(Err(
            "board: no move from a corner changed any start-position array as a move would".into(),
        ));
    };
    // The array that showed the move first (a screen buffer may trail the board); of those
    // as quick, the one most other arrays hold the same cells as (a game's copies of its
    // board agree; bytes that only look like a start position, such as a stride that
    // reaches one row of the board, do not).
    let cells = |k: usize| {
        let mut v = at_start[k];
        v.sort_unstable();
        v
    };
    let agreeing = |k: usize| {
        (0..found.len())
            .filter(|&j| j != k && cells(j) == cells(k))
            .count()
    };
    let best = found
        .iter()
        .zip(&readings)
        .enumerate()
        .filter(|(_, (_, r))| r.lies.len() == 1 && r.codes.is_some())
        .min_by_key(|&(k, (b, r))| (r.delay, std::cmp::Reverse(agreeing(k)), b.addr))
        .map(|(_, br)| br);
    let Some((b, r)) = best else {
        return Ok(Err(
            "board: the moves made leave open which way round the board array lies".into(),
        ));
    };
    let (empty, blocked, mine) = r.codes.expect("filtered");
    Ok(Ok(Oriented {
        shape: shape_of(b, r.lies[0]),
        empty,
        blocked,
        mine,
        from,
        to,
        delay: r.delay,
    }))
}

fn array(b: &Found, f: &Fork) -> [u8; 49] {
    std::array::from_fn(|k| f.byte(b.addr_of(k / 7, k % 7)))
}

/// The orientations under which the array's change is the move `from` -> `to` (a clone, or
/// a jump that empties `from`), with the (empty, blocked, mover) codes it implies.
fn fits(
    b: &Found,
    before: &[u8; 49],
    after: &[u8; 49],
    from: u8,
    to: u8,
) -> Option<(Vec<u8>, Codes)> {
    let changed: Vec<usize> = (0..49).filter(|&c| before[c] != after[c]).collect();
    let jump = {
        let (fr, fc, tr, tc) = (from / 7, from % 7, to / 7, to % 7);
        fr.abs_diff(tr).max(fc.abs_diff(tc)) == 2
    };
    let mut lies = Vec::new();
    let mut codes = None;
    for t in 0..8u8 {
        let at = |cell: u8| {
            let (i, j) = place(t, usize::from(cell / 7), usize::from(cell % 7));
            i * 7 + j
        };
        let (src, dst) = (at(from), at(to));
        let expected: Vec<usize> = if jump {
            let mut v = vec![src, dst];
            v.sort_unstable();
            v
        } else {
            vec![dst]
        };
        if changed != expected {
            continue;
        }
        let mover = after[dst];
        let was = before[dst];
        let (empty, blocked) = if was == b.empty {
            (was, b.other)
        } else if Some(was) == b.other {
            (was, Some(b.empty))
        } else {
            continue;
        };
        let source_ok = before[src] == mover && (!jump || after[src] == empty);
        if source_ok && mover != empty && Some(mover) != blocked {
            lies.push(t);
            codes = Some((empty, blocked, mover));
        }
    }
    codes.map(|c| (lies, c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orientations_are_the_eight_symmetries() {
        let mut images: Vec<(usize, usize)> = (0..8).map(|t| place(t, 0, 1)).collect();
        images.sort_unstable();
        images.dedup();
        assert_eq!(
            images.len(),
            8,
            "a cell next to a corner fixes the orientation"
        );
        let f = Found {
            addr: 0x100,
            row_step: 9,
            col_step: 1,
            empty: 0,
            other: None,
            corners: [1, 2, 2, 1],
        };
        let upside_down = shape_of(&f, 2);
        assert_eq!(
            (upside_down.addr, upside_down.row_step, upside_down.col_step),
            (0x100 + 54, -9, 1)
        );
        let transposed = shape_of(&f, 1);
        assert_eq!((transposed.row_step, transposed.col_step), (1, 9));
    }
}
