//! Seeing a Spot game on screen, as a person does. The player is told neither where the
//! board is drawn nor what its cells look like; it works both out by experiment on forks
//! of the running game (the shared kit is `nesmind_host::sight`):
//!
//! 1. `walk.rs`: a pad whose presses move something across 7 x 7 even steps is a hand on
//!    the board; the steps give the cell pitch and where the hand stands on each cell.
//! 2. `learn.rs`: picking up a corner piece and cloning it shows where a cell's picture
//!    is (the new piece), what each cell looks like at the start (empty, blocked, each
//!    player's pieces) and which pieces the pad plays; watching the other players move on
//!    the fork gives the turn order.
//! 3. `probe.rs`, `steer.rs`: in play, whose pad answers now, the board read from the
//!    picture (looking under the hand on a fork), and every move entered first on a fork
//!    and checked there against the rules before the same presses go to the real game.
//!
//! A cell whose picture matches nothing learned is never guessed: the player waits and
//! says so.

mod align;
pub mod grid;
mod learn;
mod observe;
pub mod probe;
pub mod steer;
mod walk;

use crate::board::CELLS;
use crate::position::{MAX_PLAYERS, Position};
use grid::Grid;
use nesmind_host::sight::{Codebook, Lab, Look, Picture, PixelMask, Rect, Shot, Verdict};
use nesmind_host::{Buttons, Fork};

pub use learn::{Calibrated, calibrate};

/// What a cell shows. Piece classes are numbered in the order the start position's
/// corners show them (top left, top right, bottom right, bottom left).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    Empty,
    Blocked,
    Piece(u8),
}

/// Frames a picture must stay unchanged to count as settled, and the most frames waited.
pub const STILL: u32 = 3;
pub const SETTLE_MAX: u64 = 150;

/// What the player knows of the game's picture.
#[derive(Clone, Debug)]
pub struct Sight {
    pub grid: Grid,
    pub book: Codebook<Cell>,
    /// What a cell looks like with the hand on it, where that differs (a highlight).
    pub under_hand: Codebook<Cell>,
    /// Pixels that change by themselves (a clock, a colour cycle): not counted as change.
    pub live: PixelMask,
    /// Frames a press is held (and released as long).
    pub hold: u64,
}

/// The board as one picture shows it: each cell's reading, `None` where the picture
/// cannot say (the hand over it, a look never seen).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    pub cells: [Option<Cell>; CELLS],
    /// Cells whose whole picture matches nothing learned.
    pub unseen: Vec<u8>,
}

impl Seen {
    pub fn complete(&self) -> Option<[Cell; CELLS]> {
        let mut out = [Cell::Empty; CELLS];
        for (o, c) in out.iter_mut().zip(&self.cells) {
            *o = (*c)?;
        }
        Some(out)
    }

    pub fn unknown(&self) -> Vec<u8> {
        (0..CELLS as u8)
            .filter(|&c| self.cells[usize::from(c)].is_none())
            .collect()
    }

    /// Fills cells unknown here from `other`; false if the two disagree on a cell both
    /// know (the board changed between them).
    pub fn merge(&mut self, other: &Seen) -> bool {
        for c in 0..CELLS {
            match (self.cells[c], other.cells[c]) {
                (Some(a), Some(b)) if a != b => return false,
                (None, Some(b)) => self.cells[c] = Some(b),
                _ => {}
            }
        }
        self.unseen
            .retain(|&c| self.cells[usize::from(c)].is_none() && other.unseen.contains(&c));
        true
    }

    /// Fills the cells the picture cannot read (a sprite over them in every look) from
    /// `candidates`, the boards the rules allow now, when every candidate that fits the
    /// cells seen agrees on them (as a person remembers what a hand covers). False when
    /// they do not, or none fits.
    pub fn infer(&mut self, candidates: &[[Cell; CELLS]]) -> bool {
        let fits: Vec<&[Cell; CELLS]> = candidates
            .iter()
            .filter(|b| (0..CELLS).all(|c| self.cells[c].is_none_or(|v| v == b[c])))
            .collect();
        let Some(first) = fits.first() else {
            return false;
        };
        let unknown = self.unknown();
        if !fits.iter().all(|b| {
            unknown
                .iter()
                .all(|&c| b[usize::from(c)] == first[usize::from(c)])
        }) {
            return false;
        }
        for c in unknown {
            self.cells[usize::from(c)] = Some(first[usize::from(c)]);
        }
        self.unseen.clear();
        true
    }
}

impl Sight {
    /// Reads every cell of `shot`.
    pub fn read(&self, shot: &Shot) -> Seen {
        self.read_with_hand(shot, None)
    }

    /// Reads every cell of `shot`, the hand standing on `hand` if known.
    pub fn read_with_hand(&self, shot: &Shot, hand: Option<u8>) -> Seen {
        let mut cells = [None; CELLS];
        let mut unseen = Vec::new();
        for (c, out) in cells.iter_mut().enumerate() {
            let look = self.look(shot, c as u8);
            let mut verdict = self.book.classify(&look);
            if hand == Some(c as u8) && !matches!(verdict, Verdict::Known(_)) {
                verdict = self.under_hand.classify(&look);
            }
            match verdict {
                Verdict::Known(v) => *out = Some(v),
                Verdict::Unseen if look.is_whole() && hand != Some(c as u8) => unseen.push(c as u8),
                _ => {}
            }
        }
        Seen { cells, unseen }
    }

    pub fn look(&self, shot: &Shot, cell: u8) -> Look {
        Look::of(&shot.pic, self.grid.cell_rect(cell), &shot.sprites)
    }

    /// Runs `f` until the board area has been still for [`STILL`] frames.
    pub fn settle(&self, lab: &mut Lab, f: &mut Fork) -> Result<Shot, String> {
        settle(lab, f, self.grid.board_area(), &self.live)
    }

    /// One press of `b` on `pad`, then settled.
    pub fn tap(&self, lab: &mut Lab, f: &mut Fork, pad: usize, b: Buttons) -> Result<Shot, String> {
        lab.tap(f, pad, b)?;
        self.settle(lab, f)
    }

    /// The pieces of each class on a complete board, as a position with players in
    /// `order` (classes in turn order) and `to_move` (an index into `order`).
    pub fn position(
        board: &[Cell; CELLS],
        order: &[u8],
        to_move: usize,
    ) -> Result<Position, String> {
        let mut pieces = [0u64; MAX_PLAYERS];
        let mut blocked = 0u64;
        for (sq, cell) in board.iter().enumerate() {
            match cell {
                Cell::Empty => {}
                Cell::Blocked => blocked |= 1 << sq,
                Cell::Piece(k) => {
                    let p = order.iter().position(|o| o == k).ok_or_else(|| {
                        format!(
                            "{} shows a piece of a player not in the game",
                            crate::board::square_name(sq as u8)
                        )
                    })?;
                    pieces[p] |= 1 << sq;
                }
            }
        }
        Position::new(order.len(), blocked, pieces, to_move)
    }
}

/// The cells of a position, pieces by class (`order` maps players to classes).
pub fn cells_of(pos: &Position, order: &[u8]) -> [Cell; CELLS] {
    std::array::from_fn(|sq| {
        if pos.blocked() >> sq & 1 == 1 {
            Cell::Blocked
        } else {
            match pos.owner(sq as u8) {
                Some(p) => Cell::Piece(order[p]),
                None => Cell::Empty,
            }
        }
    })
}

/// The boards `plies` moves after `pos` may show (the position itself first, then each
/// ply's), in the piece classes of `order`.
pub fn boards_after(pos: &Position, order: &[u8], plies: usize) -> Vec<[Cell; CELLS]> {
    let mut out = vec![cells_of(pos, order)];
    let mut layer = vec![*pos];
    for _ in 0..plies {
        let mut next = Vec::new();
        for q in &layer {
            let mut ms = Vec::new();
            q.legal_moves(&mut ms);
            next.extend(ms.into_iter().map(|m| q.play(m)));
        }
        out.extend(next.iter().map(|q| cells_of(q, order)));
        layer = next;
    }
    out
}

/// The boards the `plies` moves after `mover`'s may show, under any of `orders` (turn
/// orders of piece classes): `after` (the move alone) first, each board once. A game
/// that ends may hand every empty cell to one player (the usual Ataxx fill rule), so
/// each board's filled forms are kept too.
pub fn boards_after_orders(
    after: &[Cell; CELLS],
    orders: &[Vec<u8>],
    mover: u8,
    plies: usize,
) -> Vec<[Cell; CELLS]> {
    let mut out = vec![*after];
    let mut seen: std::collections::HashSet<[Cell; CELLS]> = out.iter().copied().collect();
    for order in orders {
        let Some(i) = order.iter().position(|&k| k == mover) else {
            continue;
        };
        let Ok(pos) = Sight::position(after, order, (i + 1) % order.len()) else {
            continue;
        };
        for b in boards_after(&pos, order, plies) {
            if seen.insert(b) {
                out.push(b);
            }
        }
    }
    for b in out.clone() {
        for filled in end_fills(&b) {
            if seen.insert(filled) {
                out.push(filled);
            }
        }
    }
    out
}

/// `board` with all its empty cells given to one player, for each player on it.
fn end_fills(board: &[Cell; CELLS]) -> Vec<[Cell; CELLS]> {
    if !board.contains(&Cell::Empty) {
        return Vec::new();
    }
    let mut classes: Vec<u8> = board
        .iter()
        .filter_map(|c| match c {
            Cell::Piece(k) => Some(*k),
            _ => None,
        })
        .collect();
    classes.sort_unstable();
    classes.dedup();
    classes
        .into_iter()
        .map(|k| board.map(|c| if c == Cell::Empty { Cell::Piece(k) } else { c }))
        .collect()
}

/// Keeps the turn orders under which the moves since `mover`'s (whose board right after
/// is `after`) reach `now`, with `to_move` to move. Returns whether any order remains
/// (when none does, the board was likely misread and `orders` is left alone).
pub fn narrow_orders(
    orders: &mut Vec<Vec<u8>>,
    after: &[Cell; CELLS],
    mover: u8,
    now: &[Cell; CELLS],
    to_move: u8,
) -> bool {
    let fits = |order: &Vec<u8>| {
        let n = order.len();
        let (Some(i), Some(j)) = (
            order.iter().position(|&k| k == mover),
            order.iter().position(|&k| k == to_move),
        ) else {
            return false;
        };
        let (Ok(from), Ok(to)) = (
            Sight::position(after, order, (i + 1) % n),
            Sight::position(now, order, j),
        ) else {
            return false;
        };
        learn::reachable(&from, &to, (j + n - i - 1) % n)
    };
    let kept: Vec<Vec<u8>> = orders.iter().filter(|o| fits(o)).cloned().collect();
    if kept.is_empty() {
        return false;
    }
    *orders = kept;
    true
}

/// Runs `f` until `region` has been still for [`STILL`] frames (ignoring `live`).
pub fn settle(lab: &mut Lab, f: &mut Fork, region: Rect, live: &PixelMask) -> Result<Shot, String> {
    match lab.settle_except(f, region, live, STILL, SETTLE_MAX)? {
        Some(_) => Shot::take(f).ok_or_else(|| "this host has no picture".to_string()),
        None => Err(format!(
            "the picture did not settle within {} frames",
            SETTLE_MAX
        )),
    }
}

/// The pixels that change by themselves (a blink, a clock) over `frames` frames of `f`,
/// after `wait` frames for what was still being drawn (a screen fading in as play starts)
/// to finish: masking those would hide the hand wherever it was drawn. `f` is run on, so
/// work on it starts after both.
pub fn live_pixels(
    lab: &mut Lab,
    f: &mut Fork,
    wait: u64,
    frames: u64,
) -> Result<PixelMask, String> {
    lab.run(f, wait)?;
    let mut mask = PixelMask::new();
    let mut last = Picture::take(f).ok_or("this host has no picture")?;
    for _ in 0..frames {
        lab.run(f, 1)?;
        let now = Picture::take(f).ok_or("this host has no picture")?;
        mask.add(&last.changes(&now));
        last = now;
    }
    Ok(mask)
}
