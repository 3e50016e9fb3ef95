//! Watching the other players on a fork after the calibrating pad's first move: which
//! kinds of piece appear, in which order, until the pad is asked for a move again. A seat
//! played on another pad (a person, or another seat of this player) is asked too: the
//! fork makes a move for it.

use super::probe::{Answer, class_of_pad, locate, look_further, read_board};
use super::steer;
use super::{Cell, Sight};
use crate::board::{ADJACENT, Bits, CELLS};
use nesmind_host::Fork;
use nesmind_host::sight::{Lab, Shot, Stillness};

/// Frames of the fork's game watched at most (a minute).
const OBSERVE_FRAMES: u64 = 3600;
/// Frames without change after which the other pads are asked.
const QUIET: u32 = 120;

/// What the fork showed.
pub(super) struct Watched {
    /// Classes that placed pieces, in order (the calibrating pad's own left out).
    pub movers: Vec<u8>,
    /// The board when the pad was asked again.
    pub board: [Cell; CELLS],
}

pub(super) fn observe(
    sight: &Sight,
    lab: &mut Lab,
    mut f: Fork,
    pad: usize,
    ours: u8,
    after: &[Cell; CELLS],
    allowed: &dyn Fn(&[u8]) -> Vec<[Cell; CELLS]>,
) -> Result<Watched, String> {
    let mut known: [Cell; CELLS] = *after;
    let mut movers: Vec<u8> = Vec::new();
    let mut still = Stillness::new(Some(sight.grid.board_area())).ignoring(sight.live.clone());
    let mut frames = 0;
    while frames < OBSERVE_FRAMES {
        lab.run(&mut f, 1)?;
        frames += 1;
        let shot = Shot::take(&f).ok_or("no picture")?;
        let quiet = still.observe(&shot.pic);
        let seen = sight.read(&shot);
        for (was, now) in known.iter_mut().zip(seen.cells) {
            let Some(now) = now else { continue };
            if *was == Cell::Empty
                && let Cell::Piece(k) = now
                && k != ours
                && movers.last() != Some(&k)
                && !movers.contains(&k)
            {
                movers.push(k);
            }
            *was = now;
        }
        if quiet < super::STILL || frames % 8 != 0 {
            continue;
        }
        let answer = locate(sight, lab, &f, &shot, pad)?;
        if frames % 240 == 0 {
            log::trace!(
                "spot: watching, frame {frames}: pad answers {}, movers {movers:?}",
                match &answer {
                    Answer::Silent => "nothing".to_string(),
                    Answer::Other => "with a change unlike the hand".to_string(),
                    Answer::Hand(at) => format!("hand on {}", at.cell),
                }
            );
        }
        if let Answer::Hand(at) = answer {
            // The pad is asked again: everyone else has had a turn (a player who could
            // not move passed).
            let mut seen = read_board(sight, &shot, &at)?;
            look_further(sight, lab, &mut seen, &at, pad)?;
            if seen.complete().is_none() {
                // Cells hidden in every look: what the rules allow after the moves seen.
                let candidates = allowed(&movers);
                let ok = seen.infer(&candidates);
                log::debug!(
                    "spot: {} cell(s) hidden after a round; {} boards the rules allow{}; movers {movers:?}",
                    seen.unknown().len(),
                    candidates.len(),
                    if ok {
                        ", which agree on them"
                    } else {
                        ", which do not settle them"
                    }
                );
            }
            let board = seen.complete().ok_or_else(|| {
                format!(
                    "after a round of moves the picture of {} could not be read{}",
                    seen.unknown()
                        .iter()
                        .map(|&c| crate::board::square_name(c))
                        .collect::<Vec<_>>()
                        .join(", "),
                    if seen.unseen.is_empty() {
                        " (hidden)"
                    } else {
                        " (never seen before)"
                    }
                )
            })?;
            return Ok(Watched { movers, board });
        }
        if quiet >= QUIET && quiet % QUIET < 8 {
            for other in (0..4).filter(|&p| p != pad) {
                if let Answer::Hand(at) = locate(sight, lab, &f, &shot, other)? {
                    let mut seen = read_board(sight, &shot, &at)?;
                    look_further(sight, lab, &mut seen, &at, other)?;
                    let board = seen
                        .complete()
                        .ok_or("a pad-played seat's board could not be read")?;
                    let mut skip = vec![ours];
                    skip.extend(&movers);
                    let Some(k) = class_of_pad(sight, lab, &f, other, at.cell, &board, &skip)?
                    else {
                        return Err(format!(
                            "pad {} moves the hand but picks up no piece",
                            other + 1
                        ));
                    };
                    f = move_for(sight, lab, &f, other, at.cell, &board, k)?;
                    movers.push(k);
                    still =
                        Stillness::new(Some(sight.grid.board_area())).ignoring(sight.live.clone());
                    break;
                }
            }
        }
    }
    Err(format!(
        "no round of moves finished within {} s on the fork",
        OBSERVE_FRAMES / 60
    ))
}

/// Clones a piece of class `k` to a free neighbouring cell, entered with `pad` on a copy
/// of `f` (hand on `hand`): the fork after.
fn move_for(
    sight: &Sight,
    lab: &mut Lab,
    f: &Fork,
    pad: usize,
    hand: u8,
    board: &[Cell; CELLS],
    k: u8,
) -> Result<Fork, String> {
    let empty: u64 = (0..CELLS)
        .filter(|&c| board[c] == Cell::Empty)
        .fold(0, |m, c| m | 1 << c);
    for src in (0..CELLS as u8).filter(|&c| board[usize::from(c)] == Cell::Piece(k)) {
        if let Some(dest) = Bits(ADJACENT[usize::from(src)] & empty).next() {
            let shows = |s: &Shot, settled: bool| {
                settled && sight.read(s).cells[usize::from(dest)] == Some(Cell::Piece(k))
            };
            let (fork, _) = steer::enter(sight, lab, f, pad, (hand, src, dest), shows)?;
            return Ok(fork);
        }
    }
    Err("a pad-played seat has no clone to make".into())
}
