//! Calibration from the picture, on forks of the game at a moment when a pad moves a hand:
//! the walk gives the hand's steps (`walk.rs`); picking up a corner piece and cloning it
//! next to it shows where a cell's picture lies (the new piece's pixels, centred in its
//! block), what the start position's cells look like, and which pieces the pad plays;
//! watching the others move on the fork (`observe.rs`) gives the turn order and checks
//! everything against the rules.

use super::grid::Grid;
use super::observe::observe;
use super::steer::{self, Tape, Taped};
use super::walk::{Walked, walk};
use super::{Cell, STILL, Sight, live_pixels};
use crate::board::{CELLS, SIDE, square_name};
use crate::position::Position;
use nesmind_host::sight::{Codebook, Lab, Look, Meter, PixelMask, Rect, Shot, Verdict};
use nesmind_host::{Buttons, Fork};

/// Corners, clockwise from the top left (the order piece classes are numbered in).
pub const CORNERS: [u8; 4] = [0, 6, 48, 42];
/// Frames watched for things that move by themselves before the walk.
const LIVE_FRAMES: u64 = 60;
/// Most frames a piece may take to appear after the A press that places it.
const PLACE_FRAMES: u64 = 240;

/// What calibration found.
#[derive(Clone, Debug)]
pub struct Calibrated {
    pub sight: Sight,
    /// The pad calibrated on, and the class of pieces it plays.
    pub pad: usize,
    pub ours: u8,
    /// The piece classes in turn order, starting with `ours`.
    pub order: Vec<u8>,
    /// Facts for the log.
    pub lines: Vec<String>,
    /// Frames run on forks.
    pub fork_frames: u64,
}

/// The picture of a cell while the hand stands at least two cells away, from the walk.
fn start_looks(sight: &Sight, walked: &Walked) -> Vec<Option<Look>> {
    (0..CELLS as u8)
        .map(|cell| {
            walked
                .shots
                .iter()
                .filter(|(_, at)| chebyshev(*at, cell) >= 2)
                .map(|(shot, _)| sight.look(shot, cell))
                .find(Look::is_whole)
        })
        .collect()
}

fn chebyshev(a: u8, b: u8) -> u8 {
    let (ar, ac) = (a / SIDE as u8, a % SIDE as u8);
    let (br, bc) = (b / SIDE as u8, b % SIDE as u8);
    ar.abs_diff(br).max(ac.abs_diff(bc))
}

/// The cells next to `cell`.
fn neighbours(cell: u8) -> Vec<u8> {
    let (r, c) = (i32::from(cell) / SIDE as i32, i32::from(cell) % SIDE as i32);
    let mut out = Vec::new();
    for dr in -1..=1 {
        for dc in -1..=1 {
            let (nr, nc) = (r + dr, c + dc);
            if (dr, dc) != (0, 0)
                && (0..SIDE as i32).contains(&nr)
                && (0..SIDE as i32).contains(&nc)
            {
                out.push((nr * SIDE as i32 + nc) as u8);
            }
        }
    }
    out
}

/// The first move: a piece the pad can pick up, cloned next to it.
struct FirstMove {
    source: u8,
    dest: u8,
    /// The new piece's pixels.
    piece: Rect,
    /// The fork after the move.
    after: Fork,
}

/// Tries the pad on the cells that do not look empty (corners first: a game starts
/// there), and clones the first piece it can pick up to a neighbour that looks empty.
fn first_move(
    sight: &Sight,
    lab: &mut Lab,
    walked: &Walked,
    pad: usize,
    kinds: &[Option<usize>; CELLS],
) -> Result<FirstMove, String> {
    let area = sight.grid.board_area();
    let empty = Some(0);
    let mut sources: Vec<u8> = CORNERS.to_vec();
    sources.extend((0..CELLS as u8).filter(|c| !CORNERS.contains(c)));
    sources.retain(|&c| kinds[usize::from(c)].is_some() && kinds[usize::from(c)] != empty);
    for source in sources {
        // Cells that look empty first; the board's cells are only roughly placed yet, so
        // a neighbour that looks otherwise may still be empty.
        let mut dests = neighbours(source);
        dests.sort_by_key(|&d| kinds[usize::from(d)] != empty);
        let mut tape = Tape::new(pad, area);
        let mut t = Taped {
            fork: walked.fork.clone(),
            tape: &mut tape,
        };
        let shot = sight.settle(lab, &mut t.fork)?;
        let at_source = steer::goto(sight, lab, &mut t, walked.end, source, shot)?;
        let Ok(picked) = steer::press_a(sight, lab, &mut t, &at_source, false) else {
            continue; // not this pad's piece
        };
        // The selection mark: what the A press changed with the hand standing still.
        let mut mark = PixelMask::new();
        mark.add(&at_source.pic.changes_in(&picked.pic, area));
        for &dest in &dests {
            let mut tape2 = Tape::new(pad, area);
            let mut t2 = Taped {
                fork: t.fork.clone(),
                tape: &mut tape2,
            };
            let Ok(before) = steer::goto(sight, lab, &mut t2, source, dest, picked.clone()) else {
                continue;
            };
            let mut f = t2.fork;
            lab.tap(&mut f, pad, Buttons::A)?;
            if let Some(piece) = watch_piece(sight, lab, &mut f, &before, dest, &mark)? {
                return Ok(FirstMove {
                    source,
                    dest,
                    piece,
                    after: f,
                });
            }
        }
        return Err(format!(
            "the pad picked up the piece on {} but could not clone it to any cell next to it",
            square_name(source)
        ));
    }
    Err("the pad could pick up no piece (is it this pad's turn?)".into())
}

/// Runs `f` until the picture round `dest` has changed and then stayed still: the changed
/// pixels' bounds (sprites, the selection mark and what animates by itself left out), or
/// `None` if nothing changed there (the game refused the move).
fn watch_piece(
    sight: &Sight,
    lab: &mut Lab,
    f: &mut Fork,
    before: &Shot,
    dest: u8,
    mark: &PixelMask,
) -> Result<Option<Rect>, String> {
    let (px, py) = sight.grid.pitch;
    let p = sight.grid.cursor_point(dest);
    let window = Rect::new(p.0 as i32 - px, p.1 as i32 - py, 2 * px, 2 * py);
    let changed = |now: &Shot| {
        let ch = before
            .pic
            .changes_in(&now.pic, window)
            .unmasked(mark)
            .unmasked(&sight.live);
        let pixels: Vec<(i32, i32)> = ch
            .pixels
            .into_iter()
            .filter(|&(x, y)| !before.sprites.covers(x, y) && !now.sprites.covers(x, y))
            .collect();
        pixels
    };
    let mut last: Option<Shot> = None;
    let mut still = 0;
    for _ in 0..PLACE_FRAMES {
        lab.run(f, 1)?;
        let now = Shot::take(f).ok_or("no picture")?;
        if changed(&now).is_empty() {
            last = None;
            continue;
        }
        match &last {
            Some(l) if l.pic.same_in(&now.pic, window) => still += 1,
            _ => still = 0,
        }
        last = Some(now);
        if still >= STILL {
            let px = changed(last.as_ref().expect("set above"));
            let (x0, y0) = px
                .iter()
                .fold((i32::MAX, i32::MAX), |a, &(x, y)| (a.0.min(x), a.1.min(y)));
            let (x1, y1) = px
                .iter()
                .fold((i32::MIN, i32::MIN), |a, &(x, y)| (a.0.max(x), a.1.max(y)));
            return Ok(Some(Rect::new(x0, y0, x1 - x0 + 1, y1 - y0 + 1)));
        }
    }
    Ok(None)
}

/// The board's origin moved by at most a quarter cell so every cell lies wholly on screen
/// (a piece is rarely centred to the pixel, and a cell cut by the screen edge would look
/// unlike its neighbours).
fn on_screen(origin: (i32, i32), pitch: (i32, i32)) -> (i32, i32) {
    let fit = |o: i32, p: i32, size: i32| {
        let span = 7 * p;
        let slack = p / 4;
        if o < 0 && -o <= slack {
            0
        } else if o + span > size && o + span - size <= slack {
            size - span
        } else {
            o
        }
    };
    (
        fit(origin.0, pitch.0, nesmind_host::sight::picture::WIDTH),
        fit(origin.1, pitch.1, nesmind_host::sight::picture::HEIGHT),
    )
}

/// The distinct pictures of the board's cells (from the walk, the hand far away), the
/// commonest first, and each cell's.
fn kinds_of(sight: &Sight, walked: &Walked) -> (Vec<Look>, [Option<usize>; CELLS]) {
    let looks = start_looks(sight, walked);
    let mut kinds: Vec<(Look, usize)> = Vec::new();
    for l in looks.iter().flatten() {
        match kinds.iter_mut().find(|(k, _)| k == l) {
            Some(k) => k.1 += 1,
            None => kinds.push((l.clone(), 1)),
        }
    }
    kinds.sort_by_key(|k| std::cmp::Reverse(k.1));
    let cells = std::array::from_fn(|c| {
        looks[c]
            .as_ref()
            .and_then(|l| kinds.iter().position(|(k, _)| k == l))
    });
    (kinds.into_iter().map(|(l, _)| l).collect(), cells)
}

/// A provisional label for the k-th kind of picture that is neither an empty cell nor
/// the pad's own piece: a player's piece or a blocked cell, told apart by watching moves.
const OTHER: u8 = 100;

fn book_of(kinds: &[Look], labels: &[Cell]) -> Result<Codebook<Cell>, String> {
    let mut book = Codebook::new();
    for (l, &v) in kinds.iter().zip(labels) {
        book.learn(l, v)
            .map_err(|old| format!("one picture stands for both {old:?} and {v:?}"))?;
    }
    Ok(book)
}
/// Calibrates on `base`, where `pad` moves a hand; presses last `hold` frames.
pub fn calibrate(
    meter: &mut Meter,
    base: Fork,
    pad: usize,
    hold: u64,
) -> Result<Calibrated, String> {
    let mut lab = Lab::new(meter, hold);
    let mut base = base;
    nesmind_host::sight::release_all(&mut base);
    let live = live_pixels(&mut lab, &mut base.clone(), LIVE_FRAMES)?;
    let walked = walk(&mut lab, &base, pad, &live)?;
    let (px, py) = walked.pitch;
    let ours = 0;
    // Until a piece shows where the cells are, assume the hand is centred on its cell.
    let mut sight = Sight {
        grid: Grid {
            origin: (
                (walked.cursor0.0 - f64::from(px) / 2.0).round() as i32,
                (walked.cursor0.1 - f64::from(py) / 2.0).round() as i32,
            ),
            pitch: walked.pitch,
            cursor0: walked.cursor0,
            wraps: walked.wraps,
        },
        book: Codebook::new(),
        under_hand: Codebook::new(),
        live,
        hold,
    };
    log::debug!(
        "spot: walk: pitch {:?}, hand at {:?} on a1's row/column 0, wraps {}, from {} to {}",
        walked.pitch,
        walked.cursor0,
        walked.wraps,
        walked.start,
        walked.end
    );
    let (_, rough) = kinds_of(&sight, &walked);
    let first = first_move(&sight, &mut lab, &walked, pad, &rough)?;
    log::debug!(
        "spot: first move {} -> {}, new piece at {:?}",
        square_name(first.source),
        square_name(first.dest),
        first.piece
    );
    let (dr, dc) = (
        i32::from(first.dest) / SIDE as i32,
        i32::from(first.dest) % SIDE as i32,
    );
    let centre = (
        first.piece.x * 2 + first.piece.w,
        first.piece.y * 2 + first.piece.h,
    );
    sight.grid.origin = on_screen(
        ((centre.0 - px) / 2 - dc * px, (centre.1 - py) / 2 - dr * py),
        (px, py),
    );
    let (kinds, cells) = kinds_of(&sight, &walked);
    if let Some(c) = (0..CELLS).find(|&c| cells[c].is_none()) {
        return Err(format!(
            "the cell {} was never seen without the hand or a sprite over it",
            square_name(c as u8)
        ));
    }
    let kind = |c: u8| cells[usize::from(c)].expect("every cell has a kind");
    let (empty, own) = (kind(first.dest), kind(first.source));
    if empty == own || kinds.len() > 8 {
        return Err(format!(
            "the board's cells show {} different pictures: not read as a board",
            kinds.len()
        ));
    }
    let mut others = 0u8;
    let labels: Vec<Cell> = (0..kinds.len())
        .map(|k| match k {
            _ if k == empty => Cell::Empty,
            _ if k == own => Cell::Piece(0),
            _ => {
                others += 1;
                Cell::Piece(OTHER + others - 1)
            }
        })
        .collect();
    sight.book = book_of(&kinds, &labels)?;
    let board: [Cell; CELLS] = std::array::from_fn(|c| labels[kind(c as u8)]);
    // The board after the clone, then the others' moves until the pad is asked again.
    let mut after = board;
    after[usize::from(first.dest)] = Cell::Piece(0);
    let players_at_most = (1 + usize::from(others)).min(4);
    let watched = observe(
        &sight,
        &mut lab,
        first.after,
        pad,
        0,
        &after,
        players_at_most,
    )?;
    // Kinds that moved are players, in turn order; one kind that never moved is blocked.
    let still: Vec<u8> = (0..others)
        .map(|i| OTHER + i)
        .filter(|k| !watched.movers.contains(k))
        .collect();
    if still.len() > 1 {
        return Err(format!(
            "{} kinds of cell neither moved nor looked empty: cannot tell blocked cells from pieces",
            still.len()
        ));
    }
    let relabel = |v: Cell| match v {
        Cell::Piece(k) if k >= OTHER => match watched.movers.iter().position(|&m| m == k) {
            Some(i) => Cell::Piece(i as u8 + 1),
            None => Cell::Blocked,
        },
        v => v,
    };
    let labels: Vec<Cell> = labels.into_iter().map(relabel).collect();
    sight.book = book_of(&kinds, &labels)?;
    let after = after.map(relabel);
    let reached_board = watched.board.map(relabel);
    let order: Vec<u8> = (0..=watched.movers.len() as u8).collect();
    if !(2..=4).contains(&order.len()) {
        return Err(format!(
            "{} players seen moving (Spot has 2-4)",
            order.len()
        ));
    }
    // What a cell looks like with the hand on it, where the hand changes its picture.
    for (shot, at) in &walked.shots {
        let look = sight.look(shot, *at);
        if let Verdict::Unseen = sight.book.classify(&look) {
            let _ = sight.under_hand.learn(&look, labels[kind(*at)]);
        }
    }
    let pos = Sight::position(&after, &order, 1 % order.len())?;
    let reached = Sight::position(&reached_board, &order, 0)?;
    if !reachable(&pos, &reached, order.len() - 1) {
        return Err(
            "the board read after a round of moves is not what the rules allow: the picture is read wrongly"
                .into(),
        );
    }
    let g = &sight.grid;
    let first_of = |k: u8| {
        (0..CELLS as u8)
            .find(|&c| reached_board[usize::from(c)] == Cell::Piece(k))
            .map_or("-".to_string(), square_name)
    };
    let lines = vec![
        format!(
            "board: cells {}x{} px from ({}, {}), the hand {} at the edges",
            g.pitch.0,
            g.pitch.1,
            g.origin.0,
            g.origin.1,
            if g.wraps { "wraps" } else { "stops" }
        ),
        format!(
            "cells: {} pictures learned ({} with the hand on them); {} players; pad {} plays the pieces it picked up on {}",
            sight.book.len(),
            sight.under_hand.len(),
            order.len(),
            pad + 1,
            square_name(first.source)
        ),
        format!(
            "turn order from the pad's player, by a square each holds: {}",
            order
                .iter()
                .map(|&k| first_of(k))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    ];
    Ok(Calibrated {
        sight,
        pad,
        ours,
        order,
        lines,
        fork_frames: lab.frames(),
    })
}

/// Whether `plies` legal moves lead from `pos` to the pieces of `target`.
pub fn reachable(pos: &Position, target: &Position, plies: usize) -> bool {
    if plies == 0 {
        return pos.all_pieces() == target.all_pieces();
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves
        .into_iter()
        .any(|m| reachable(&pos.play(m), target, plies - 1))
}
