//! Finding out how helpers are called and steered, on forks, once the game has awarded one:
//! B during a falling pair should make it vanish; then Right and Left move a column
//! cursor, and A either takes the bottom hat of the pile under it (Alexey) or picks it for
//! a swap (Vladimir).

use super::lab::{Lab, PAD, fork_of};
use super::snap::Snap;
use crate::ram_map::{Linear, Loc, RamMap};
use crate::rules::{COLUMNS, Helper};
use crate::runtime;
use nesmind_host::kit::Memory;
use nesmind_host::ramsearch::Test;
use nesmind_host::{Buttons, Fork, Frame};

/// Frames each fork runs after its presses.
const LOOK: u64 = 8;
/// Frames a helper screen may take to give way to the next pair.
const END_WAIT: u64 = 180;

/// What the helper screen showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Screen {
    /// The cursor byte and how it stores the column.
    pub cursor: u16,
    pub cursor_code: Linear,
    /// The helper that came.
    pub helper: Helper,
}

/// Whether the pair that was falling is gone (its type bytes hold no hat).
fn pair_gone(f: &dyn Frame, map: &RamMap) -> bool {
    map.falling.iter().all(|&a| map.hat_of(f.peek(a)).is_none())
}

/// The cursor on a helper screen: the byte Right moves by s, twice by 2s, Left by -s (the
/// smallest such step), and its value over column 0.
fn cursor(lab: &mut Lab, screen: &Fork) -> Result<Option<(u16, Linear)>, String> {
    let base = Snap::take(&lab.after(screen, PAD, Buttons::NONE, 0, LOOK)?);
    let right = Snap::take(&lab.after(screen, PAD, Buttons::RIGHT, 1, LOOK)?);
    let right2 = Snap::take(&lab.after(screen, PAD, Buttons::RIGHT, 2, LOOK)?);
    let left = Snap::take(&lab.after(screen, PAD, Buttons::LEFT, 1, LOOK)?);
    let mut left_side = screen.clone();
    for _ in 0..COLUMNS {
        lab.tap(&mut left_side, PAD, Buttons::LEFT)?;
    }
    let at_left = Snap::take(&left_side);
    // The cursor may start against the left wall, where Left does nothing.
    let mut search = base.search();
    search.filter_pair(base.cpu(), right.cpu(), Test::Changed);
    search.filter_pair(base.cpu(), right2.cpu(), Test::Changed);
    let delta = |a: &Snap, b: &Snap, at: Loc| b.at(at).wrapping_sub(a.at(at)) as i8 as i16;
    let best = search
        .addresses()
        .iter()
        .map(|&a| Loc::cpu(a))
        .filter_map(|at| {
            let s = delta(&base, &right, at);
            let l = delta(&base, &left, at);
            (delta(&base, &right2, at) == 2 * s && (l == -s || l == 0)).then_some((at, s))
        })
        .min_by_key(|(at, s)| (s.abs(), at.addr));
    Ok(best.map(|(at, s)| {
        (
            at.addr,
            Linear {
                offset: at_left.at(at) as i16,
                step: s,
            },
        )
    }))
}

/// Moves the helper screen's cursor on `fork` to `col`.
fn move_to(
    lab: &mut Lab,
    fork: &mut Fork,
    cursor: u16,
    code: Linear,
    col: i16,
) -> Result<(), String> {
    for _ in 0..2 * COLUMNS {
        let Some(now) = code.decode(fork.peek(cursor)) else {
            break;
        };
        let b = match now.cmp(&col) {
            std::cmp::Ordering::Less => Buttons::RIGHT,
            std::cmp::Ordering::Greater => Buttons::LEFT,
            std::cmp::Ordering::Equal => return Ok(()),
        };
        lab.tap(fork, PAD, b)?;
    }
    Ok(())
}

/// Presses B on a fork of `frame`, where a pair is falling, to see whether a helper comes
/// and how its screen works. `Ok(None)`: B did nothing (no helper in the pool).
pub fn probe(frame: &dyn Frame, map: &RamMap) -> Result<(Option<Screen>, u64), String> {
    let mut lab = super::lab::new();
    let start = fork_of(frame)?;
    let mut screen = start.clone();
    lab.tap(&mut screen, PAD, Buttons::B)?;
    lab.hold_for(&mut screen, PAD, Buttons::NONE, LOOK)?;
    if !pair_gone(&screen, map) {
        return Ok((None, lab.frames()));
    }
    let Some((cursor, cursor_code)) = cursor(&mut lab, &screen)? else {
        return Err("the helper screen's cursor (no byte follows Right and Left)".into());
    };
    // A on the tallest pile: Alexey takes its bottom hat away, Vladimir only picks it.
    let before = runtime::pile_codes(&screen, map);
    let tallest = (0..COLUMNS).max_by_key(|&c| before[c].len()).unwrap_or(0);
    if before[tallest].is_empty() {
        return Err("how helpers work (every pile was empty when one came)".into());
    }
    let mut tried = screen.clone();
    move_to(&mut lab, &mut tried, cursor, cursor_code, tallest as i16)?;
    lab.tap(&mut tried, PAD, Buttons::A)?;
    lab.hold_for(&mut tried, PAD, Buttons::NONE, LOOK)?;
    let after = runtime::pile_codes(&tried, map);
    let helper = if after[tallest] == before[tallest][1..] {
        Helper::Alexey
    } else if after == before {
        Helper::Vladimir
    } else {
        return Err(format!(
            "how helpers work (A on pile {} turned {:?} into {:?})",
            tallest + 1,
            before[tallest],
            after[tallest]
        ));
    };
    if helper == Helper::Alexey {
        // B should end Alexey's work and bring the next pair.
        lab.tap(&mut tried, PAD, Buttons::B)?;
        let mut ended = false;
        for _ in 0..END_WAIT {
            lab.hold_for(&mut tried, PAD, Buttons::NONE, 1)?;
            if !pair_gone(&tried, map) {
                ended = true;
                break;
            }
        }
        if !ended {
            return Err("how to end Alexey's work (B did not bring the next pair)".into());
        }
    }
    Ok((
        Some(Screen {
            cursor,
            cursor_code,
            helper,
        }),
        lab.frames(),
    ))
}
