//! Where the cells' pictures begin. The hand's steps give the pitch, not where a cell's
//! picture starts. Cut at the right place, the 49 blocks of a board show few different
//! pictures (one per state: empty, blocked, each player's pieces); cut across the cells,
//! a piece or a blocked cell spreads over several blocks and each part is a picture of its
//! own. So the cut is the one that leaves the fewest different blocks; where several do
//! (cells with a margin), the middle one, which centres the blocks on the cells.

use super::grid::Point;
use nesmind_host::sight::{Rect, Shot};
use std::collections::HashSet;

const SIDE: i32 = 7;

/// The origin (top-left of cell (0, 0)) that cuts `shot` into the fewest different cells,
/// for a board of `pitch` whose hand stands near `cursor0` on cell (0, 0): the cut is
/// searched within one pitch up and left of the hand.
pub fn align(shot: &Shot, pitch: (i32, i32), cursor0: Point) -> (i32, i32) {
    let (px, py) = pitch;
    let bx = (cursor0.0 - f64::from(px)).floor() as i32;
    let by = (cursor0.1 - f64::from(py)).floor() as i32;
    // Each phase of the cut is scored where it sees the most blocks: one pitch further up
    // or left too, for a hand drawn past its cell's edge (a bar under the cell), whose
    // window would otherwise only hold that phase a cell too low, its last row off screen.
    // Which cell is (0, 0) is settled later, by where the first move's piece shows.
    // (phase, the origin it is scored at, its score)
    let mut scores = Vec::new();
    for oy in 0..py {
        for ox in 0..px {
            let (origin, s) = [(0, 0), (-1, 0), (0, -1), (-1, -1)]
                .map(|(kx, ky)| (bx + ox + kx * px, by + oy + ky * py))
                .map(|o| (o, score(shot, o, pitch)))
                .into_iter()
                .reduce(|a, b| if b.1.1 > a.1.1 { b } else { a })
                .expect("four tries");
            scores.push(((ox, oy), origin, s));
        }
    }
    // Fewest different pictures, then most blocks seen, among the cuts that see all but a
    // few blocks (a sprite's): a cut that leaves a row or column of cells off the screen
    // also leaves out whatever pictures only that row shows.
    let most = scores.iter().map(|s| s.2.1).max().unwrap_or(0);
    let best = scores
        .iter()
        .map(|s| s.2)
        .filter(|&(_, used)| used + SIDE as usize > most)
        .min_by_key(|&(distinct, used)| (distinct, std::cmp::Reverse(used)))
        .unwrap_or((0, 0));
    let ties: Vec<(i32, i32)> = scores.iter().filter(|s| s.2 == best).map(|s| s.0).collect();
    let middle = |axis: fn(&(i32, i32)) -> i32| {
        let mut v: Vec<i32> = ties.iter().map(axis).collect();
        v.sort_unstable();
        v.dedup();
        // The ties may wrap round the pitch (a margin split by the search's start).
        mid_of_run(&v, if axis(&(1, 0)) == 1 { px } else { py })
    };
    let (ox, oy) = (middle(|t| t.0), middle(|t| t.1));
    scores
        .iter()
        .find(|s| s.0 == (ox, oy))
        .map_or((bx + ox, by + oy), |s| s.1)
}

/// The middle of the longest run of consecutive values in `v` (sorted), counting round
/// `period`.
fn mid_of_run(v: &[i32], period: i32) -> i32 {
    if v.is_empty() {
        return 0;
    }
    let set: HashSet<i32> = v.iter().copied().collect();
    let mut best = (0, v[0]);
    for &start in v {
        if set.contains(&(start - 1).rem_euclid(period)) && v.len() < period as usize {
            continue; // not the start of a run
        }
        let mut len = 0;
        while len < period && set.contains(&((start + len) % period)) {
            len += 1;
        }
        if len > best.0 {
            best = (len, start);
        }
    }
    (best.1 + best.0 / 2) % period
}

/// (different pictures, blocks used) for the cut at `origin`: blocks that a sprite may
/// touch or that leave the screen are left out.
fn score(shot: &Shot, origin: (i32, i32), pitch: (i32, i32)) -> (usize, usize) {
    let mut seen = HashSet::new();
    let mut used = 0;
    for r in 0..SIDE {
        for c in 0..SIDE {
            let rect = Rect::new(
                origin.0 + c * pitch.0,
                origin.1 + r * pitch.1,
                pitch.0,
                pitch.1,
            );
            if rect.clipped() != rect || shot.sprites.touches(rect) {
                continue;
            }
            used += 1;
            seen.insert(shot.pic.hash_rect(rect));
        }
    }
    (seen.len(), used)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nesmind_host::sight::{Picture, SpriteMask};

    /// A board of 7x7 cells of `pitch` from `origin`: a dark cell with a light frame one
    /// pixel in from its edge, corners holding a 4x4 piece in the middle.
    fn board(origin: (i32, i32), pitch: i32) -> Shot {
        let mut pic = Picture::filled(0x0F);
        for r in 0..7 {
            for c in 0..7 {
                let (x0, y0) = (origin.0 + c * pitch, origin.1 + r * pitch);
                for d in 1..pitch - 1 {
                    for (x, y) in [
                        (x0 + d, y0 + 1),
                        (x0 + d, y0 + pitch - 2),
                        (x0 + 1, y0 + d),
                        (x0 + pitch - 2, y0 + d),
                    ] {
                        pic.set(x, y, 0x11);
                    }
                }
                if (r == 0 || r == 6) && (c == 0 || c == 6) {
                    let m = pitch / 2 - 2;
                    for dy in 0..4 {
                        for dx in 0..4 {
                            pic.set(x0 + m + dx, y0 + m + dy, 0x16);
                        }
                    }
                }
            }
        }
        Shot {
            pic,
            sprites: SpriteMask::none(),
        }
    }

    #[test]
    fn the_cut_that_leaves_fewest_pictures_is_the_cells() {
        for (origin, pitch) in [((32, 8), 16), ((40, 20), 24), ((17, 3), 32)] {
            let shot = board(origin, pitch);
            // The hand drawn off-centre: the search starts a pitch up-left of it.
            let hand = (f64::from(origin.0 + pitch - 3), f64::from(origin.1 + 5));
            assert_eq!(align(&shot, (pitch, pitch), hand), origin, "pitch {pitch}");
        }
    }

    #[test]
    fn a_hand_below_its_cell_still_finds_a_board_at_the_top_of_the_screen() {
        // Cells of 32 from y 0: 7 rows fill 224 of the 240 lines, a status line of text
        // just below. Corner pieces fill their cells; the hand's point lies 2 px below
        // cell (0, 0), so the window one pitch up from it starts at y 2.
        let mut shot = board((32, 0), 32);
        for (r, c) in [(0, 0), (0, 6), (6, 0), (6, 6)] {
            for d in 2..30 {
                shot.pic.set(32 + c * 32 + d, r * 32 + d, 0x16);
                shot.pic.set(32 + c * 32 + 31 - d, r * 32 + d, 0x16);
            }
        }
        for x in (32..256).step_by(3) {
            shot.pic.set(x, 226 + x % 5, 0x30);
        }
        let (x, y) = align(&shot, (32, 32), (48.0, 34.0));
        assert!(
            (x - 32).rem_euclid(32) <= 1 && y.rem_euclid(32) <= 1,
            "({x}, {y})"
        );
        assert!(y + 7 * 32 <= 240, "the last row is on screen: ({x}, {y})");
    }

    #[test]
    fn runs_are_found_round_the_period() {
        assert_eq!(mid_of_run(&[0, 1, 2, 14, 15], 16), 0);
        assert_eq!(mid_of_run(&[3, 4, 5, 6, 7], 16), 5);
        assert_eq!(mid_of_run(&[9], 16), 9);
    }
}
