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
use nesmind_host::sight::{Codebook, Lab, Look, Meter, Rect, Shot, Verdict};
use nesmind_host::{Buttons, Fork};

/// Corners, clockwise from the top left (the order piece classes are numbered in).
pub const CORNERS: [u8; 4] = [0, 6, 48, 42];
/// Frames watched for pixels that change by themselves, after `SETTLE_FRAMES` for a play
/// screen still being drawn.
const LIVE_FRAMES: u64 = 120;
const SETTLE_FRAMES: u64 = 30;
/// Most frames a piece may take to appear after the A press that places it.
const PLACE_FRAMES: u64 = 240;
/// Settled frames waited for the new piece after the source alone changed.
const SHOW_WAIT: u32 = 40;

/// What calibration found.
#[derive(Clone, Debug)]
pub struct Calibrated {
    pub sight: Sight,
    /// The pad calibrated on, and the class of pieces it plays.
    pub pad: usize,
    pub ours: u8,
    /// The piece classes in turn order, starting with `ours`.
    pub order: Vec<u8>,
    /// Every turn order the moves seen so far allow (`order` first); more than one where
    /// the others' moves have not yet touched each other.
    pub orders: Vec<Vec<u8>>,
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
/// there): A there, then A on a neighbour that looks empty; the first piece that appears
/// is the move. (Whether A picked anything up may not show while the hand stands on it.)
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
        // Cells that look empty first; only two are tried: a piece that cannot be cloned
        // to either is not this pad's.
        // The diagonal neighbour first: the cells round it are all on the board, so the
        // piece's pixels are told from anything drawn beside the board.
        let mut dests = neighbours(source);
        dests.sort_by_key(|&d| {
            let diagonal =
                d / SIDE as u8 != source / SIDE as u8 && d % SIDE as u8 != source % SIDE as u8;
            (kinds[usize::from(d)] != empty, !diagonal)
        });
        dests.truncate(2);
        let mut tape = Tape::new(pad, area);
        let mut t = Taped {
            fork: walked.fork.clone(),
            tape: &mut tape,
        };
        let shot = sight.settle(lab, &mut t.fork)?;
        steer::goto(sight, lab, &mut t, walked.end, source, shot)?;
        t.tap(lab, Buttons::A)?;
        let picked = sight.settle(lab, &mut t.fork)?;
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
            // The board as it was, the hand away from both cells: a block that changes
            // back to it is the source's selection going, not the new piece.
            let calm = walked
                .shots
                .iter()
                .find(|(_, at)| chebyshev(*at, source) >= 2 && chebyshev(*at, dest) >= 2)
                .map(|(shot, _)| shot);
            let mut piece = watch_piece(sight, lab, &mut f, &before, calm, (source, dest))?;
            if piece.is_none() {
                // The hand's sprites may hide the destination: back on the source, the
                // picture is compared with the one taken there before the move.
                let mut back = Tape::new(pad, area);
                let mut t3 = Taped {
                    fork: f.clone(),
                    tape: &mut back,
                };
                let now = sight.settle(lab, &mut t3.fork)?;
                if steer::goto(sight, lab, &mut t3, dest, source, now).is_ok() {
                    let mut g = t3.fork;
                    if let Some(p) = watch_piece(sight, lab, &mut g, &picked, calm, (source, dest))?
                    {
                        piece = Some(p);
                        f = g;
                    }
                }
            }
            if let Some(piece) = piece {
                return Ok(FirstMove {
                    source,
                    dest,
                    piece,
                    after: f,
                });
            }
        }
        log::trace!("spot: no clone from {}", square_name(source));
    }
    Err("the pad could clone no piece (is it this pad's turn?)".into())
}

/// Runs `f` until the picture round `dest` has changed and then stayed still: the changed
/// pixels' bounds (sprites, the selection mark and what animates by itself left out), or
/// `None` if nothing changed there (the game refused the move). A block whose changes
/// bring back what `calm` (the board before the pick) shows there is left out too.
fn watch_piece(
    sight: &Sight,
    lab: &mut Lab,
    f: &mut Fork,
    before: &Shot,
    calm: Option<&Shot>,
    (source, dest): (u8, u8),
) -> Result<Option<Rect>, String> {
    // The cut is known up to whole cells: the piece is looked for in the blocks round
    // the destination's. The source, one cell off, may change too (a selection mark
    // going): the destination is the changed block whose neighbour the source's way also
    // changed, else the one changed block.
    let (px, py) = sight.grid.pitch;
    let b = sight.grid.block(dest);
    let window = Rect::new(b.x - 2 * px, b.y - 2 * py, 5 * px, 5 * py);
    let delta = (
        i32::from(source % SIDE as u8) - i32::from(dest % SIDE as u8),
        i32::from(source / SIDE as u8) - i32::from(dest / SIDE as u8),
    );
    let changed = |now: &Shot| {
        let ch = before
            .pic
            .changes_in(&now.pic, window)
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
    let mut waited = 0;
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
            waited += 1;
            let all = changed(last.as_ref().expect("set above"));
            let block_of = |(x, y): (i32, i32)| ((x - window.x) / px, (y - window.y) / py);
            let mut counts = [[0usize; 5]; 5];
            for &p in &all {
                let (c, r) = block_of(p);
                counts[r as usize][c as usize] += 1;
            }
            let count = |c: i32, r: i32| {
                if (0..5).contains(&c) && (0..5).contains(&r) {
                    counts[r as usize][c as usize]
                } else {
                    0
                }
            };
            let shot = last.as_ref().expect("set above");
            // Where the hand stands on the new piece its sprites may hide it all; the
            // source's selection going may then be the only change left.
            let restored = |(c, r): (i32, i32)| {
                calm.is_some_and(|calm| {
                    let back = all
                        .iter()
                        .filter(|&&p| block_of(p) == (c, r))
                        .filter(|&&(x, y)| shot.pic.get(x, y) == calm.pic.get(x, y))
                        .count();
                    10 * back >= 9 * count(c, r)
                })
            };
            let blocks: Vec<(i32, i32)> = (0..5)
                .flat_map(|r| (0..5).map(move |c| (c, r)))
                .filter(|&(c, r)| count(c, r) > 0 && !restored((c, r)))
                .collect();
            // A clone's new piece looks like the piece it was cloned from: the block whose
            // changed pixels the source's way repeats (most of them) is the destination,
            // whatever else changed beside the board (a score, a turn sign). It became
            // like the source: few of its pixels were like it before (a digit redrawn
            // beside a plain margin turns as many pixels to the margin's colour as away).
            let source_way = |x: i32, y: i32| shot.pic.get(x + delta.0 * px, y + delta.1 * py);
            let echo = |(c, r): (i32, i32), pic: &nesmind_host::sight::Picture| {
                all.iter()
                    .filter(|&&p| block_of(p) == (c, r))
                    .filter(|&&(x, y)| pic.get(x, y) == source_way(x, y))
                    .count()
            };
            let echoed = blocks
                .iter()
                .copied()
                .map(|b| (echo(b, &shot.pic), echo(b, &before.pic), b))
                .filter(|&(e, was, (c, r))| e >= 4 && 3 * e >= 2 * count(c, r) && 3 * was <= e)
                // Nearest where the hand put it (a panel beside the board may draw the
                // mover's pieces in a row, one more after a clone), then the most alike.
                .min_by_key(|&(e, _, (c, r))| {
                    ((c - 2).abs().max((r - 2).abs()), std::cmp::Reverse(e))
                })
                .map(|(_, _, b)| b);
            // A pair of small changes (digits of a score beside the board) is not the
            // move when another block changed far more than both together (a small piece
            // beside a large selection mark still is).
            let most = blocks.iter().map(|&(c, r)| count(c, r)).max().unwrap_or(0);
            let paired = echoed.or_else(|| {
                blocks
                    .iter()
                    .copied()
                    .filter(|&(c, r)| {
                        let partner = count(c + delta.0, r + delta.1);
                        partner > 0 && 3 * (count(c, r) + partner) >= most
                    })
                    .max_by_key(|&(c, r)| count(c, r))
            });
            // A lone change may be the selection going before the piece is drawn: wait
            // a little for the pair.
            if paired.is_none() && waited < SHOW_WAIT {
                continue;
            }
            // Else the most changed block, if it looks at least partly like the source: a
            // lone change that does not (the source's selection going) is no new piece,
            // which may yet come (a slow animation) or not (the game refused the move).
            let Some((c, r)) = paired.or_else(|| {
                blocks
                    .iter()
                    .copied()
                    .filter(|&b| 3 * echo(b, &shot.pic) >= count(b.0, b.1))
                    .max_by_key(|&(c, r)| (count(c, r), (c, r) == (2, 2)))
            }) else {
                continue;
            };
            let px: Vec<(i32, i32)> = all.into_iter().filter(|&p| block_of(p) == (c, r)).collect();
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

/// The part of each block the cells' pictures take up: where the pictures of cells that
/// show the same thing more than once (empty cells, blocked cells, a player's corners) and
/// the first move's new piece draw anything but the board's background, one pixel more
/// all round. Elsewhere in the block (a gap between cells) other things may be drawn: the
/// status line, a panel.
fn inner_part(sight: &Sight, walked: &Walked, first: &FirstMove) -> Rect {
    let g = &sight.grid;
    let whole = Rect::new(0, 0, g.pitch.0, g.pitch.1);
    let Some((shot, _)) = walked.shots.first() else {
        return whole;
    };
    let Some(backdrop) = shot.pic.commonest(g.board_rect()) else {
        return whole;
    };
    let looks: Vec<Option<Vec<u8>>> = (0..CELLS as u8)
        .map(|c| {
            let b = g.block(c);
            (b.clipped() == b && !shot.sprites.touches(b)).then(|| shot.pic.block(b))
        })
        .collect();
    let mut bounds: Option<Rect> = None;
    let mut add = |x: i32, y: i32| {
        let one = Rect::new(x, y, 1, 1);
        bounds = Some(bounds.map_or(one, |b| b.union(&one)));
    };
    for (i, l) in looks.iter().enumerate() {
        let Some(l) = l else { continue };
        if looks.iter().filter(|m| m.as_ref() == Some(l)).count() < 2
            && i != usize::from(first.source)
        {
            continue;
        }
        for (k, &p) in l.iter().enumerate() {
            if p != backdrop {
                add(k as i32 % g.pitch.0, k as i32 / g.pitch.0);
            }
        }
    }
    let dest = g.block(first.dest);
    let p = first.piece;
    let (x0, y0) = ((p.x - dest.x).max(0), (p.y - dest.y).max(0));
    let (x1, y1) = (
        (p.x + p.w - 1 - dest.x).min(g.pitch.0 - 1),
        (p.y + p.h - 1 - dest.y).min(g.pitch.1 - 1),
    );
    if x0 <= x1 && y0 <= y1 {
        add(x0, y0);
        add(x1, y1);
    }
    let Some(b) = bounds else { return whole };
    let grown = b.grown(1);
    let x0 = grown.x.max(0);
    let y0 = grown.y.max(0);
    let x1 = (grown.x + grown.w).min(g.pitch.0);
    let y1 = (grown.y + grown.h).min(g.pitch.1);
    Rect::new(x0, y0, x1 - x0, y1 - y0)
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
    let live = live_pixels(&mut lab, &mut base.clone(), SETTLE_FRAMES, LIVE_FRAMES)?;
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
            inner: Rect::new(0, 0, walked.pitch.0, walked.pitch.1),
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
    // Where the cells' pictures begin: the cut leaving the fewest different blocks, and
    // of its whole-cell shifts the one whose cell (0, 0) lies nearest the hand there (the
    // hand points at its cell).
    let first_shot = &walked.shots[0].0;
    let (ox, oy) = super::align::align(first_shot, (px, py), walked.cursor0);
    let near = |o: i32, p: i32, hand: f64| {
        o + ((hand - f64::from(o) - f64::from(p) / 2.0) / f64::from(p)).round() as i32 * p
    };
    sight.grid.origin = (
        near(ox, px, walked.cursor0.0),
        near(oy, py, walked.cursor0.1),
    );
    let (_, rough) = kinds_of(&sight, &walked);
    let first = first_move(&sight, &mut lab, &walked, pad, &rough)?;
    // The new piece shows in its cell's block: that fixes the cut's whole-cell shift.
    let dest = sight.grid.block(first.dest);
    let centre = (
        first.piece.x + first.piece.w / 2,
        first.piece.y + first.piece.h / 2,
    );
    let shift = (
        (centre.0 - dest.x).div_euclid(px),
        (centre.1 - dest.y).div_euclid(py),
    );
    if shift != (0, 0) {
        log::debug!(
            "spot: the new piece shows {shift:?} cells from where the hand put it: moving the cut"
        );
        sight.grid.origin = (
            sight.grid.origin.0 + shift.0 * px,
            sight.grid.origin.1 + shift.1 * py,
        );
    }
    log::debug!(
        "spot: cells cut from {:?}; first move {} -> {}, new piece at {:?}",
        sight.grid.origin,
        square_name(first.source),
        square_name(first.dest),
        first.piece
    );
    sight.grid.origin = on_screen(sight.grid.origin, (px, py));
    sight.grid.inner = inner_part(&sight, &walked, &first);
    let (kinds, cells) = kinds_of(&sight, &walked);
    if let Some(c) = (0..CELLS).find(|&c| cells[c].is_none()) {
        return Err(format!(
            "the cell {} was never seen without the hand or a sprite over it",
            square_name(c as u8)
        ));
    }
    log::debug!(
        "spot: cells are {:?} of their blocks; {} kinds of cell picture: {}",
        sight.grid.inner,
        kinds.len(),
        cells
            .chunks(7)
            .map(|r| r
                .iter()
                .map(|k| k.map_or('?', |k| char::from(b'a' + k as u8)))
                .collect::<String>())
            .collect::<Vec<_>>()
            .join("/")
    );
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
    // Boards the rules allow after the others' moves (for cells hidden in every look):
    // from the provisional classes, with the movers seen so far in turn order.
    let allowed = |movers: &[u8]| -> Vec<[Cell; CELLS]> {
        let mut order = vec![0u8];
        order.extend(movers);
        for k in 0..others {
            if !order.contains(&(OTHER + k)) {
                order.push(OTHER + k);
            }
        }
        order.truncate(4);
        // Kinds beyond the players seen are blocked cells for this purpose.
        let players = (1 + movers.len()).clamp(2, 4);
        let as_blocked = |b: &[Cell; CELLS]| -> [Cell; CELLS] {
            b.map(|v| match v {
                Cell::Piece(k) if !order[..players].contains(&k) => Cell::Blocked,
                v => v,
            })
        };
        let start = as_blocked(&after);
        match Sight::position(&start, &order[..players], 1 % players) {
            Ok(pos) => super::boards_after(&pos, &order[..players], players - 1)
                .into_iter()
                .map(|b| {
                    // Blocked cells stand for the kinds they were.
                    let mut out = b;
                    for c in 0..CELLS {
                        if b[c] == Cell::Blocked {
                            out[c] = after[c];
                        }
                    }
                    out
                })
                .collect(),
            Err(_) => Vec::new(),
        }
    };
    let mut watched = observe(&sight, &mut lab, first.after, pad, 0, &after, &allowed)?;
    // A new piece under the others' hands may not have been seen as it came; the board
    // when the pad is asked again shows every kind that placed one.
    for (was, now) in after.iter().zip(&watched.board) {
        if let (Cell::Empty, Cell::Piece(k)) = (was, now)
            && *k != 0
            && !watched.movers.contains(k)
        {
            watched.movers.push(*k);
        }
    }
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
    // The turn order: as the pieces were seen to come if that fits the rules, else the
    // order of the others that does (a piece that came under a hand is seen late).
    let fits = |movers: &[u8]| {
        let relabel = |v: Cell| relabel(v, movers);
        let order: Vec<u8> = (0..=movers.len() as u8).collect();
        let (Ok(pos), Ok(reached)) = (
            Sight::position(&after.map(relabel), &order, 1 % order.len()),
            Sight::position(&watched.board.map(relabel), &order, 0),
        ) else {
            return false;
        };
        reachable(&pos, &reached, order.len() - 1)
    };
    // Moves that do not touch each other fit any order: every order that fits is kept,
    // and play narrows them down (`narrow_orders`).
    let mut fitting: Vec<Vec<u8>> = permutations(&watched.movers)
        .into_iter()
        .filter(|p| fits(p))
        .collect();
    if let Some(i) = fitting.iter().position(|p| *p == watched.movers) {
        fitting.swap(0, i);
    } else if let Some(p) = fitting.first() {
        log::debug!("spot: the others' turn order is {p:?}, not as their pieces were seen");
        watched.movers = p.clone();
    }
    // In the final labels: ours 0, the others 1.. as `watched.movers` has them.
    let orders: Vec<Vec<u8>> = if fitting.is_empty() {
        vec![(0..=watched.movers.len() as u8).collect()]
    } else {
        fitting
            .iter()
            .map(|p| {
                std::iter::once(0)
                    .chain(p.iter().map(|k| {
                        watched
                            .movers
                            .iter()
                            .position(|m| m == k)
                            .expect("a permutation") as u8
                            + 1
                    }))
                    .collect()
            })
            .collect()
    };
    let relabel = |v: Cell| relabel(v, &watched.movers);
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
        orders,
        lines,
        fork_frames: lab.frames(),
    })
}

/// `v` in the final labels: ours stays 0, the others' provisional classes become 1.. in
/// the order of `movers`, and a class no one moved is no player's (blocked).
fn relabel(v: Cell, movers: &[u8]) -> Cell {
    match v {
        Cell::Piece(k) if k >= OTHER => match movers.iter().position(|&m| m == k) {
            Some(i) => Cell::Piece(i as u8 + 1),
            None => Cell::Blocked,
        },
        v => v,
    }
}

/// Every order of `items`.
fn permutations(items: &[u8]) -> Vec<Vec<u8>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, first);
            out.push(p);
        }
    }
    out
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
