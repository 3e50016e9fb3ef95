//! Reading a running game through its map, and steering the falling pair.

use super::board::Board;
use super::moves::Route;
use super::ram_map::{PileLayout, RamMap};
use super::rules::{COLUMNS, Helper};
use nesmind_host::kit::Memory;
use nesmind_host::{Buttons, Frame};

/// The falling pair as the map decodes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairView {
    pub codes: [u8; 2],
    /// Types 1-6, `None` for a byte that is no known hat.
    pub types: [Option<u8>; 2],
    pub cols: [Option<i16>; 2],
    /// Bottoms, pixels above the heads.
    pub heights: [Option<i16>; 2],
    pub next_codes: [u8; 2],
}

pub fn pair(frame: &dyn Frame, map: &RamMap) -> PairView {
    let codes = map.falling.map(|a| frame.peek(a));
    PairView {
        codes,
        types: codes.map(|c| map.hat_of(c)),
        cols: map.column.map(|a| map.column_code.decode(frame.peek(a))),
        heights: map.y.map(|a| map.y_code.decode_wrapping(frame.peek(a))),
        next_codes: map.next.map(|a| frame.peek(a)),
    }
}

impl PairView {
    /// Both hats are known types over real columns at real heights.
    pub fn live(&self) -> bool {
        self.types.iter().all(Option::is_some)
            && self
                .cols
                .iter()
                .all(|c| c.is_some_and(|c| (0..COLUMNS as i16).contains(&c)))
            && self.heights.iter().all(Option::is_some)
    }
    pub fn hats(&self) -> (u8, u8) {
        (self.types[0].unwrap_or(0), self.types[1].unwrap_or(0))
    }
    pub fn col(&self, i: usize) -> u8 {
        self.cols[i].unwrap_or(0).clamp(0, COLUMNS as i16 - 1) as u8
    }
    pub fn height(&self, i: usize) -> i16 {
        self.heights[i].unwrap_or(i16::MAX)
    }
}

/// The byte codes of each pile, bottom first.
pub fn pile_codes(frame: &dyn Frame, map: &RamMap) -> [Vec<u8>; COLUMNS] {
    let PileLayout::Columns {
        counts,
        counts_stride,
        hats,
        stride,
        step,
    } = map.piles
    else {
        return Default::default();
    };
    std::array::from_fn(|c| {
        let n = frame.at(counts.offset(counts_stride * c as i32)).min(96) as i32;
        (0..n)
            .map(|i| frame.at(hats.offset(stride * c as i32 + step * i)))
            .collect()
    })
}

/// Codes the map does not know, among the pair, the next pair and the piles.
pub fn unknown_codes(frame: &dyn Frame, map: &RamMap, view: &PairView) -> Vec<u8> {
    let mut out: Vec<u8> = Vec::new();
    let piles = pile_codes(frame, map);
    for &c in view
        .codes
        .iter()
        .chain(&view.next_codes)
        .chain(piles.iter().flatten())
    {
        if map.hat_of(c).is_none() && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

/// The pool, oldest first, when the map says where it is.
pub fn pool(frame: &dyn Frame, map: &RamMap) -> Option<Vec<Helper>> {
    let h = map.helpers.as_ref()?;
    let (count, pool) = (h.pool_count?, h.pool?);
    Some(
        (0..frame.peek(count).min(8) as u16)
            .map(|i| {
                if frame.peek(pool + i) == 1 {
                    Helper::Alexey
                } else {
                    Helper::Vladimir
                }
            })
            .collect(),
    )
}

/// One steering step towards `target` for a hat or pair over column `col`.
pub fn toward(col: u8, target: u8) -> Buttons {
    match col.cmp(&target) {
        std::cmp::Ordering::Less => Buttons::RIGHT,
        std::cmp::Ordering::Greater => Buttons::LEFT,
        std::cmp::Ordering::Equal => Buttons::DOWN,
    }
}

/// Where the pair is in its fall over `board` (the piles it spawned over).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fall {
    /// Both hats fall together.
    Pair,
    /// Hat `free` still falls; the other has stopped on the taller pile.
    Split { free: usize },
    /// Both hats are down.
    Down,
}

/// How far the pair has got: a hat is down when its bottom has reached its pile.
pub fn fall(view: &PairView, board: &Board) -> Fall {
    let h = board.heights();
    let on = |i: usize| view.height(i) <= h[view.col(i) as usize];
    match (on(0), on(1)) {
        (false, false) => Fall::Pair,
        (true, false) => Fall::Split { free: 1 },
        (false, true) => Fall::Split { free: 0 },
        (true, true) => Fall::Down,
    }
}

/// The button that takes the pair along `route` now.
pub fn steer(view: &PairView, board: &Board, route: &Route) -> Buttons {
    match fall(view, board) {
        Fall::Pair => {
            let left = if view.col(0) <= view.col(1) { 0 } else { 1 };
            let t = view.hats();
            if t.0 != t.1 && view.types[left] != Some(route.left_type) {
                Buttons::A
            } else {
                toward(view.col(left), route.left)
            }
        }
        Fall::Split { free } => route
            .free_target
            .map_or(Buttons::DOWN, |f| toward(view.col(free), f)),
        Fall::Down => Buttons::NONE,
    }
}
