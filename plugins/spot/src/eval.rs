//! The position heuristic of the hypermax article, per player: material, shelter of every
//! piece (own neighbour 10, opponent neighbour 5, edge 2) and jump mobility.

use super::board::{ring2_union, shift};
use super::position::{MAX_PLAYERS, Position};
use nesmind_search::Utility;

pub const PIECE: i32 = 20;
pub const SHELTER_OWN: i32 = 10;
pub const SHELTER_OPPONENT: i32 = 5;
/// Applied to off-board neighbours, and (by inference: they shield the same way) to blocked squares.
pub const SHELTER_EDGE: i32 = 2;
pub const JUMP_MOBILITY: i32 = 1;
/// Heuristic value of one piece of material on an open board (a piece plus its eight
/// edge-free neighbours): UAI shows it as 100 centipieces, the window as 1.0.
pub const PIECE_VALUE: i32 = PIECE + 8 * SHELTER_EDGE;

/// A search score for people: `+1.5` pieces for the side that searched, or `+M3` / `-M3`
/// when the search proved a win or loss in that many of the winner's moves.
pub fn score_text(score: i32) -> String {
    let win = nesmind_search::WIN;
    if score.abs() > win / 2 {
        let moves = (win - score.abs() + 1) / 2;
        return format!("{}M{moves}", if score > 0 { '+' } else { '-' });
    }
    format!("{:+.1}", f64::from(score) / f64::from(PIECE_VALUE))
}

/// Per-square neighbour count of `bb` (0-8) as four bit planes, from a carry-save adder tree
/// over the eight shifted boards; lets the per-player sums use 4 popcounts instead of 8.
#[inline(always)]
pub(crate) fn neighbour_count_planes(bb: u64) -> [u64; 4] {
    #[inline(always)]
    fn full_add(x: u64, y: u64, z: u64) -> (u64, u64) {
        let xy = x ^ y;
        (xy ^ z, (x & y) | (z & xy))
    }
    let (s1, c1) = full_add(shift(bb, -1, -1), shift(bb, -1, 0), shift(bb, -1, 1));
    let (s2, c2) = full_add(shift(bb, 0, -1), shift(bb, 0, 1), shift(bb, 1, -1));
    let (g, h) = (shift(bb, 1, 0), shift(bb, 1, 1));
    let (s3, c3) = (g ^ h, g & h);
    let (bit0, c4) = full_add(s1, s2, s3);
    let (t1, k1) = full_add(c1, c2, c3);
    let (bit1, k2) = (t1 ^ c4, t1 & c4);
    [bit0, bit1, k1 ^ k2, k1 & k2]
}

#[inline(always)]
fn weighted_count(p: u64, planes: &[u64; 4]) -> i32 {
    ((p & planes[0]).count_ones()
        + 2 * (p & planes[1]).count_ones()
        + 4 * (p & planes[2]).count_ones()
        + 8 * (p & planes[3]).count_ones()) as i32
}

/// Raw heuristic value of each player (players beyond `pos.players()` get 0).
///
/// Every neighbour of a piece is own, opponent, empty or wall (off-board or blocked), so
/// 10 own + 5 opp + 2 wall = 5 own + 3 occupied - 2 empty + 16 per piece, which needs only
/// the occupied and empty neighbour counts plus the own pairs.
#[inline]
pub fn heuristic(pos: &Position) -> Utility {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has POPCNT (checked just above; the check is cached by std).
        return unsafe { heuristic_popcnt(pos) };
    }
    heuristic_body(pos)
}

/// The same code compiled with the POPCNT instruction, which the default x86-64 target
/// lacks; popcounts dominate the heuristic.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn heuristic_popcnt(pos: &Position) -> Utility {
    heuristic_body(pos)
}

#[inline(always)]
fn heuristic_body(pos: &Position) -> Utility {
    const _: () = assert!(SHELTER_OWN == 10 && SHELTER_OPPONENT == 5 && SHELTER_EDGE == 2);
    let n = pos.players();
    let occupied_around = neighbour_count_planes(pos.occupied());
    let empty = pos.empty();
    let empty_around = neighbour_count_planes(empty);
    let mut out = [0; MAX_PLAYERS];
    for (p, slot) in out.iter_mut().enumerate().take(n) {
        let mine = pos.pieces(p);
        let own_pairs = (mine & shift(mine, 0, 1)).count_ones()
            + (mine & shift(mine, 1, 0)).count_ones()
            + (mine & shift(mine, 1, 1)).count_ones()
            + (mine & shift(mine, 1, -1)).count_ones();
        let count = mine.count_ones() as i32;
        *slot = (PIECE + 8 * SHELTER_EDGE) * count
            + (SHELTER_OWN - SHELTER_OPPONENT) * 2 * own_pairs as i32
            + (SHELTER_OPPONENT - SHELTER_EDGE) * weighted_count(mine, &occupied_around)
            - SHELTER_EDGE * weighted_count(mine, &empty_around)
            + JUMP_MOBILITY * (ring2_union(mine) & empty).count_ones() as i32;
    }
    out
}

/// Material only (the article's comparison baseline).
pub fn material(pos: &Position) -> Utility {
    let mut out = [0; MAX_PLAYERS];
    for (p, slot) in out.iter_mut().enumerate().take(pos.players()) {
        *slot = pos.count(p) as i32;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{ADJACENT, Bits, CELLS};
    use crate::layouts::parse_fen;

    #[test]
    fn scores_read_as_pieces_or_proven_results() {
        assert_eq!(score_text(54), "+1.5");
        assert_eq!(score_text(-36), "-1.0");
        assert_eq!(score_text(0), "+0.0");
        let win = nesmind_search::WIN;
        assert_eq!(score_text(win - 5), "+M3");
        assert_eq!(score_text(-(win - 2)), "-M1");
    }

    /// Square-by-square version of the same rules.
    fn slow(pos: &Position) -> Utility {
        let mut out = [0; MAX_PLAYERS];
        for (p, slot) in out.iter_mut().enumerate().take(pos.players()) {
            let mut v = 0;
            for sq in Bits(pos.pieces(p)) {
                v += PIECE;
                let around = ADJACENT[sq as usize];
                v += SHELTER_EDGE * (8 - around.count_ones() as i32);
                for n in Bits(around) {
                    v += match pos.owner(n) {
                        Some(q) if q == p => SHELTER_OWN,
                        Some(_) => SHELTER_OPPONENT,
                        None if pos.blocked() >> n & 1 == 1 => SHELTER_EDGE,
                        None => 0,
                    };
                }
            }
            let jumps = (0..CELLS as u8)
                .filter(|&t| pos.empty() >> t & 1 == 1)
                .filter(|&t| {
                    Bits(pos.pieces(p)).any(|s| crate::board::JUMPS[s as usize] >> t & 1 == 1)
                })
                .count();
            *slot = v + JUMP_MOBILITY * jumps as i32;
        }
        out
    }

    #[test]
    fn bitboard_heuristic_matches_the_square_by_square_rules() {
        for fen in [
            "x5o/7/7/7/7/7/o5x x",
            "x1-1o2/1xx1o2/2-y3/3z3/ooo3x/7/z5y x",
            "xxxxxxx/ooooooo/yyyyyyy/zzzzzzz/-------/7/x5o o",
        ] {
            let pos = parse_fen(fen, 4).unwrap();
            assert_eq!(heuristic(&pos), slow(&pos), "{fen}");
        }
        let two = parse_fen("x5o/7/7/7/7/7/o5x x", 2).unwrap();
        // Corner piece: 20 + 5 edge neighbours * 2 + 5 jump squares; both players alike.
        assert_eq!(heuristic(&two)[0], 2 * (20 + 10) + 10);
        assert_eq!(heuristic(&two)[0], heuristic(&two)[1]);
    }
}
