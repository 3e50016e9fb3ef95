//! Button plans: what the plug-in presses to carry out a decision, one frame at a time, with
//! every press followed by a release frame and every A press checked against RAM first.

use super::board::{SIDE, row_col};
use super::moves::Move;
use nesmind_host::Buttons;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Walk the hand cursor to a cell, one D-pad press at a time, re-reading it after each.
    Cursor(u8),
    /// Press A with the cursor on this cell; `last` marks the press that commits the move.
    PressA { cell: u8, last: bool },
    /// Press A when reel `reel` shows `position` (stops that reel).
    StopReel { reel: usize, position: u8 },
}

/// A sequence of steps for one pad, built for one decision.
#[derive(Clone, Debug)]
pub struct Plan {
    pub slot: usize,
    /// 0 normal turn, 1 bonus reels, 2 prize move.
    pub phase: u8,
    pub pad: usize,
    pub steps: Vec<Step>,
    pub next: usize,
    /// Board bytes when the plan was made; a change means the plan is stale.
    pub board: Vec<u8>,
    /// The move being entered (for the legality check before the committing press).
    pub mv: Move,
    /// Frames spent since the last step finished (to notice lost inputs).
    pub idle: u32,
}

impl Plan {
    pub fn is_done(&self) -> bool {
        self.next >= self.steps.len()
    }
}

/// The D-pad direction that brings the cursor one cell closer to `target` (rows first).
pub fn direction(cursor: u8, target: u8) -> Buttons {
    let (r, c) = row_col(cursor.min((SIDE * SIDE - 1) as u8));
    let (tr, tc) = row_col(target);
    if r > tr {
        Buttons::UP
    } else if r < tr {
        Buttons::DOWN
    } else if c > tc {
        Buttons::LEFT
    } else if c < tc {
        Buttons::RIGHT
    } else {
        Buttons::NONE
    }
}

/// Steps that enter a move: select the source piece, then the destination.
pub fn move_steps(source: u8, destination: u8) -> Vec<Step> {
    vec![
        Step::Cursor(source),
        Step::PressA {
            cell: source,
            last: false,
        },
        Step::Cursor(destination),
        Step::PressA {
            cell: destination,
            last: true,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directions_walk_rows_then_columns() {
        assert_eq!(direction(0, 48), Buttons::DOWN);
        assert_eq!(direction(42, 48), Buttons::RIGHT);
        assert_eq!(direction(48, 0), Buttons::UP);
        assert_eq!(direction(3, 1), Buttons::LEFT);
        assert_eq!(direction(5, 5), Buttons::NONE);
    }
}
