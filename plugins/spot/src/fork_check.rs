//! Trying presses on a fork before making them in the real game, for maps without screen
//! bytes (what calibration finds): does the pad move the cursor now (its player's turn, the
//! game ready for input), and does a plan's move land as the rules say it should.

use super::pad_plan::Plan;
use super::play::{Next, next_press};
use super::ram_map::RamMap;
use nesmind_host::sight::{Lab, Meter};
use nesmind_host::{Buttons, Frame};

/// Frames run after a probe's release before the cursor is compared.
const SETTLE: u64 = 6;
/// Frames a plan may take on the fork, and frames its move may take to show.
const PLAN_FRAMES: u64 = 900;
const SHOW_FRAMES: u64 = 240;

/// Whether `pad` moves the cursor now; `None` on a host that cannot fork.
pub fn pad_moves_cursor(frame: &dyn Frame, map: &RamMap, pad: usize) -> Option<bool> {
    let base = frame.fork()?;
    let Some(cell) = map.cursor_cell(&base) else {
        return Some(false);
    };
    let dir = if cell % 7 < 6 {
        Buttons::RIGHT
    } else {
        Buttons::LEFT
    };
    let mut meter = Meter::unlimited();
    let mut lab = Lab::new(&mut meter, u64::from(map.press_frames));
    let mut pressed = base.clone();
    let mut left = base;
    let run = (|| -> Result<(), String> {
        lab.tap_then(&mut pressed, pad, dir, SETTLE)?;
        lab.run(&mut left, lab.hold + SETTLE)
    })();
    Some(run.is_ok() && map.cursor_cell(&pressed) != map.cursor_cell(&left))
}

/// Runs `plan` on a fork: whether the board then shows `want` (the bytes of the position
/// after the move) before anyone else's new piece appears. `None` on a host that cannot fork.
pub fn plan_works(frame: &dyn Frame, map: &RamMap, plan: &Plan, want: &[u8; 49]) -> Option<bool> {
    let mut f = frame.fork()?;
    let mut plan = plan.clone();
    let mut meter = Meter::unlimited();
    let mut lab = Lab::new(&mut meter, u64::from(map.press_frames));
    let mut spent = 0;
    let ok = (|| -> Result<bool, String> {
        loop {
            if spent > PLAN_FRAMES {
                return Ok(false);
            }
            match next_press(&mut plan, map, &f) {
                Next::Press { buttons, .. } => {
                    lab.tap(&mut f, plan.pad, buttons)?;
                    spent += 2 * lab.hold;
                }
                Next::Wait => {
                    lab.run(&mut f, 1)?;
                    spent += 1;
                }
                Next::BoardChanged => break,
                Next::Lost | Next::NoLongerLegal => return Ok(false),
            }
        }
        let mine = map.cells.players[plan.slot];
        for _ in 0..SHOW_FRAMES {
            let now = map.board_bytes(&f);
            if now == *want {
                return Ok(true);
            }
            let other_new = (0..49).any(|c| {
                plan.board[c] == map.cells.empty && now[c] != map.cells.empty && now[c] != mine
            });
            if other_new {
                return Ok(false);
            }
            lab.run(&mut f, 1)?;
        }
        Ok(false)
    })();
    Some(ok.unwrap_or(false))
}
