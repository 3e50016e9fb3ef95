//! Where the board is on screen: the 7 x 7 blocks of the picture that show its cells, and
//! where the hand (or highlight) that the D-pad moves stands for each cell. Both are found
//! by experiment (`walk.rs`, `learn.rs`); nothing here assumes a cell size or a place.

use crate::board::{CELLS, SIDE};
use nesmind_host::sight::Rect;

/// A point on screen, in pixels (fractions come from averaging changed pixels).
pub type Point = (f64, f64);

/// The board's geometry on screen.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// Top-left pixel of cell (0, 0)'s block.
    pub origin: (i32, i32),
    /// Pixels from one cell to the next, across and down.
    pub pitch: (i32, i32),
    /// Where the cursor's own pixels are centred when it stands on cell (0, 0): the mean of
    /// the pixels a press changes is half-way between two such points.
    pub cursor0: Point,
    /// Whether the cursor wraps round at the edges (else it stops there).
    pub wraps: bool,
    /// The part of a cell's block its picture takes up (a board may leave gaps between
    /// cells, where other things can be drawn).
    pub inner: Rect,
}

impl Grid {
    /// The part of the picture that shows `cell` (row-major from the top left).
    pub fn cell_rect(&self, cell: u8) -> Rect {
        let b = self.block(cell);
        Rect::new(
            b.x + self.inner.x,
            b.y + self.inner.y,
            self.inner.w,
            self.inner.h,
        )
    }

    /// A cell's whole block, one pitch square.
    pub fn block(&self, cell: u8) -> Rect {
        let (r, c) = (i32::from(cell) / SIDE as i32, i32::from(cell) % SIDE as i32);
        Rect::new(
            self.origin.0 + c * self.pitch.0,
            self.origin.1 + r * self.pitch.1,
            self.pitch.0,
            self.pitch.1,
        )
    }

    /// The whole board.
    pub fn board_rect(&self) -> Rect {
        Rect::new(
            self.origin.0,
            self.origin.1,
            self.pitch.0 * SIDE as i32,
            self.pitch.1 * SIDE as i32,
        )
    }

    /// The board and a cell's margin round it, where a hand that overhangs its cell may
    /// draw (changes there are the board's, not the side panel's).
    pub fn board_area(&self) -> Rect {
        let b = self.board_rect();
        Rect::new(
            b.x - self.pitch.0,
            b.y - self.pitch.1,
            b.w + 2 * self.pitch.0,
            b.h + 2 * self.pitch.1,
        )
    }

    /// The cursor's centre on `cell`.
    pub fn cursor_point(&self, cell: u8) -> Point {
        let (r, c) = (f64::from(cell / SIDE as u8), f64::from(cell % SIDE as u8));
        (
            self.cursor0.0 + c * f64::from(self.pitch.0),
            self.cursor0.1 + r * f64::from(self.pitch.1),
        )
    }

    /// The cell whose cursor centre is nearest to `p`, if within half a cell.
    pub fn cursor_cell_near(&self, p: Point) -> Option<u8> {
        let c = ((p.0 - self.cursor0.0) / f64::from(self.pitch.0)).round();
        let r = ((p.1 - self.cursor0.1) / f64::from(self.pitch.1)).round();
        if !(0.0..SIDE as f64).contains(&c) || !(0.0..SIDE as f64).contains(&r) {
            return None;
        }
        let cell = (r as u8) * SIDE as u8 + c as u8;
        let q = self.cursor_point(cell);
        let near = (q.0 - p.0).abs() <= f64::from(self.pitch.0) / 2.0
            && (q.1 - p.1).abs() <= f64::from(self.pitch.1) / 2.0;
        near.then_some(cell)
    }

    /// The cell one press of `dir` (column and row steps) moves the cursor to from `cell`:
    /// round the board if it wraps, else `None` at the edge.
    pub fn step(&self, cell: u8, dir: (i32, i32)) -> Option<u8> {
        let side = SIDE as i32;
        let (r, c) = (i32::from(cell) / side, i32::from(cell) % side);
        let (mut nr, mut nc) = (r + dir.1, c + dir.0);
        if self.wraps {
            nr = nr.rem_euclid(side);
            nc = nc.rem_euclid(side);
        } else if !(0..side).contains(&nr) || !(0..side).contains(&nc) {
            return None;
        }
        Some((nr * side + nc) as u8)
    }

    /// Every cell whose block a rectangle touches.
    pub fn cells_touching(&self, r: Rect) -> Vec<u8> {
        (0..CELLS as u8)
            .filter(|&c| self.cell_rect(c).intersects(&r))
            .collect()
    }

    /// The cell whose block holds pixel (x, y).
    pub fn cell_at(&self, x: i32, y: i32) -> Option<u8> {
        (0..CELLS as u8).find(|&c| self.cell_rect(c).contains(x, y))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dots() -> Grid {
        Grid {
            origin: (32, 0),
            pitch: (32, 32),
            cursor0: (58.0, 19.0),
            wraps: false,
            inner: Rect::new(0, 0, 32, 32),
        }
    }

    #[test]
    fn cells_and_cursor_points_follow_the_pitch() {
        let g = dots();
        assert_eq!(g.cell_rect(0), Rect::new(32, 0, 32, 32));
        assert_eq!(g.cell_rect(48), Rect::new(224, 192, 32, 32));
        assert_eq!(g.board_rect(), Rect::new(32, 0, 224, 224));
        assert_eq!(g.cursor_point(8), (90.0, 51.0));
        assert_eq!(g.cursor_cell_near((92.0, 49.0)), Some(8));
        assert_eq!(g.cursor_cell_near((20.0, 19.0)), None);
        assert_eq!(g.cell_at(40, 40), Some(7));
        assert_eq!(g.cells_touching(Rect::new(60, 28, 8, 8)), vec![0, 1, 7, 8]);
    }

    #[test]
    fn steps_stop_or_wrap_at_the_edges() {
        let mut g = dots();
        assert_eq!(g.step(6, (1, 0)), None);
        assert_eq!(g.step(6, (-1, 0)), Some(5));
        assert_eq!(g.step(3, (0, -1)), None);
        g.wraps = true;
        assert_eq!(g.step(6, (1, 0)), Some(0));
        assert_eq!(g.step(3, (0, -1)), Some(45));
    }
}
