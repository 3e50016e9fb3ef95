//! Dropping pairs on a fork into chosen columns and recording what each landing did.

use super::lab::{Lab, PAD};
use super::pair::Pair;
use super::snap::Snap;
use nesmind_host::{Buttons, Fork, Frame};

/// Frames to wait for the next pair after a landing before calling the game over.
pub const SPAWN_WAIT: u64 = 240;
/// Frames a fresh pair may take to start falling before it is taken as settled anyway.
const SETTLE_WAIT: u64 = 12;
/// Frames allowed for steering a pair to its columns.
const STEER_FRAMES: u64 = 40;
/// Most frames one drop may take, whatever the game does.
const DROP_FRAMES: u64 = 1200;

/// One pair dropped: memory while it fell, where its hats stopped, and what came after.
#[derive(Clone)]
pub struct Drop {
    /// Memory once the pair was settled, before any press.
    pub before: Snap,
    /// Memory on the last frame the pair moved (a game may clear its bytes on landing).
    pub falling: Snap,
    /// Memory on the first frame both hats were down.
    pub landed: Snap,
    /// Column of each hat when it landed.
    pub cols: [i16; 2],
    /// False when no pair followed: the game ended.
    pub spawned: bool,
}

/// Reads the falling pair of a fork through what the probe found.
pub struct PairReader<'a> {
    pub pair: &'a Pair,
}

impl PairReader<'_> {
    pub fn cols(&self, f: &dyn Frame) -> [Option<i16>; 2] {
        self.pair.cols.map(|c| self.pair.col_code.decode(f.peek(c)))
    }
    /// Height bytes, read so that larger means higher.
    pub fn heights(&self, f: &dyn Frame) -> [i16; 2] {
        self.pair.ys.map(|y| self.pair.y_dir * f.peek(y) as i16)
    }
}

/// Runs `fork` with nothing pressed until the pair it shows has started falling (the
/// game's spawn routine has finished), at most `SETTLE_WAIT` frames.
pub fn settle(lab: &mut Lab, fork: &mut Fork, r: &PairReader) -> Result<(), String> {
    let start = r.heights(fork);
    for _ in 0..SETTLE_WAIT {
        lab.hold_for(fork, PAD, Buttons::NONE, 1)?;
        if r.heights(fork) != start {
            break;
        }
    }
    Ok(())
}

/// Steers the settled pair on `fork` so its left hat is over `left` (as far as it can go in
/// `STEER_FRAMES`), presses A first when `swap`, then holds Down until the next pair has
/// appeared and settled, or the game has ended.
pub fn drop_pair(
    lab: &mut Lab,
    fork: &mut Fork,
    r: &PairReader,
    left: i16,
    swap: bool,
) -> Result<Drop, String> {
    let before = Snap::take(fork);
    if swap {
        lab.tap(fork, PAD, Buttons::A)?;
    }
    let mut spent = 0;
    while spent < STEER_FRAMES {
        let now = match r.cols(fork) {
            [Some(a), Some(b)] => a.min(b),
            _ => break,
        };
        let b = match now.cmp(&left) {
            std::cmp::Ordering::Less => Buttons::RIGHT,
            std::cmp::Ordering::Greater => Buttons::LEFT,
            std::cmp::Ordering::Equal => break,
        };
        lab.tap(fork, PAD, b)?;
        spent += 2 * lab.hold;
    }
    fork.set_buttons(0, Buttons::DOWN);
    let mut heights = r.heights(fork);
    let mut cols = r.cols(fork).map(|c| c.unwrap_or(-1));
    // Memory on the first frame both hats were still for good: the spawn routine that
    // follows may write the next pair's types before it moves the hats back up.
    let mut landed: Option<Snap> = None;
    let mut falling = Snap::take(fork);
    let mut waited = 0;
    for spent in 0.. {
        if spent > DROP_FRAMES {
            return Err(format!(
                "a pair that lands: one dropped on a copy of the game kept moving for \
                 {DROP_FRAMES} frames"
            ));
        }
        lab.hold_for(fork, PAD, Buttons::DOWN, 1)?;
        let now = r.heights(fork);
        // A new pair enters above the old one: a height jumps up.
        if now[0] > heights[0] + 8 || now[1] > heights[1] + 8 {
            break;
        }
        if now != heights {
            waited = 0;
            heights = now;
            // Still frames before this were a pause (a hat hovering, slow gravity).
            landed = None;
            falling = Snap::take(fork);
            if let [Some(a), Some(b)] = r.cols(fork) {
                cols = [a, b];
            }
            continue;
        }
        waited += 1;
        if landed.is_none() {
            landed = Some(Snap::take(fork));
        }
        if waited > SPAWN_WAIT {
            return Ok(Drop {
                before,
                falling,
                landed: landed.unwrap_or_else(|| Snap::take(fork)),
                cols,
                spawned: false,
            });
        }
    }
    // A pair that lands at once (a hard drop) may be followed by the next on the frame
    // after: then the last frame it moved shows where it stopped.
    let landed = landed.unwrap_or_else(|| falling.clone());
    fork.set_buttons(0, Buttons::NONE);
    settle(lab, fork, r)?;
    Ok(Drop {
        before,
        falling,
        landed,
        cols,
        spawned: true,
    })
}
