//! 7x7 bitboard geometry. Bit `r * 7 + c` is row `r` (0 = top) and column `c` (0 = left),
//! the same order as the cartridge's cell index, so RAM cells map to bits directly.

/// Player slots a board holds pieces for (a game has 2-4 players).
pub const MAX_PLAYERS: usize = 4;
pub const SIDE: usize = 7;
pub const CELLS: usize = SIDE * SIDE;
pub const FULL: u64 = (1u64 << CELLS) - 1;
/// Marker for "no square".
pub const NO_SQUARE: u8 = 0xFF;

const fn column_mask(col: usize) -> u64 {
    let mut m = 0u64;
    let mut r = 0;
    while r < SIDE {
        m |= 1u64 << (r * SIDE + col);
        r += 1;
    }
    m
}

/// Squares from which a step of `dc` columns stays on the board.
const fn keep_for_dc(dc: i32) -> u64 {
    let mut m = 0u64;
    let mut c = 0;
    while c < SIDE {
        let t = c as i32 + dc;
        if t >= 0 && t < SIDE as i32 {
            m |= column_mask(c);
        }
        c += 1;
    }
    m
}

/// Moves every bit by (`dr`, `dc`), dropping bits that would leave the board.
#[inline(always)]
pub fn shift(bb: u64, dr: i32, dc: i32) -> u64 {
    let masked = bb & KEEP_DC[(dc + 2) as usize];
    let s = dr * SIDE as i32 + dc;
    let moved = if s >= 0 { masked << s } else { masked >> -s };
    moved & FULL
}

const KEEP_DC: [u64; 5] = [
    keep_for_dc(-2),
    keep_for_dc(-1),
    keep_for_dc(0),
    keep_for_dc(1),
    keep_for_dc(2),
];

/// The eight king-step directions.
pub const DIRS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// All squares at Chebyshev distance exactly 1 from some bit of `bb`.
#[inline(always)]
pub fn dilate1(bb: u64) -> u64 {
    let row = bb | shift(bb, 0, 1) | shift(bb, 0, -1);
    (row | shift(row, 1, 0) | shift(row, -1, 0)) & !bb
}

/// All squares at Chebyshev distance exactly 2 from some bit of `bb` (jump targets).
#[inline(always)]
pub fn ring2_union(bb: u64) -> u64 {
    // Distance exactly 2 means |dc| = 2 with |dr| <= 2, or |dr| = 2 with |dc| <= 2.
    let v1 = bb | shift(bb, 1, 0) | shift(bb, -1, 0);
    let v2 = v1 | shift(bb, 2, 0) | shift(bb, -2, 0);
    let h1 = bb | shift(bb, 0, 1) | shift(bb, 0, -1);
    let h2 = h1 | shift(bb, 0, 2) | shift(bb, 0, -2);
    shift(v2, 0, 2) | shift(v2, 0, -2) | shift(h2, 2, 0) | shift(h2, -2, 0)
}

const fn build_ring(dist: i32) -> [u64; CELLS] {
    let mut out = [0u64; CELLS];
    let mut sq = 0;
    while sq < CELLS {
        let (r, c) = ((sq / SIDE) as i32, (sq % SIDE) as i32);
        let mut m = 0u64;
        let mut dr = -dist;
        while dr <= dist {
            let mut dc = -dist;
            while dc <= dist {
                let d = if dr.abs() > dc.abs() {
                    dr.abs()
                } else {
                    dc.abs()
                };
                let (tr, tc) = (r + dr, c + dc);
                if d == dist && tr >= 0 && tr < SIDE as i32 && tc >= 0 && tc < SIDE as i32 {
                    m |= 1u64 << (tr as usize * SIDE + tc as usize);
                }
                dc += 1;
            }
            dr += 1;
        }
        out[sq] = m;
        sq += 1;
    }
    out
}

/// Neighbours of each square (distance 1).
pub static ADJACENT: [u64; CELLS] = build_ring(1);
/// Jump targets of each square (distance 2).
pub static JUMPS: [u64; CELLS] = build_ring(2);

/// Iterates over the set bits of a bitboard, lowest first.
#[derive(Clone, Copy)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u8;
    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let sq = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(sq)
    }
}

pub fn row_col(sq: u8) -> (usize, usize) {
    (sq as usize / SIDE, sq as usize % SIDE)
}

pub fn square(row: usize, col: usize) -> u8 {
    (row * SIDE + col) as u8
}

/// Algebraic name: file a-g left to right, rank 7 at the top (the libataxx convention).
pub fn square_name(sq: u8) -> String {
    let (r, c) = row_col(sq);
    format!("{}{}", (b'a' + c as u8) as char, SIDE - r)
}

pub fn parse_square(text: &str) -> Result<u8, String> {
    let b = text.as_bytes();
    if b.len() == 2 && (b'a'..=b'g').contains(&b[0]) && (b'1'..=b'7').contains(&b[1]) {
        let col = (b[0] - b'a') as usize;
        let row = SIDE - (b[1] - b'0') as usize;
        return Ok(square(row, col));
    }
    Err(format!("bad square '{text}' (expected a1..g7)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dilations_match_per_square_tables() {
        let mut rng = 0x1234_5678_9abc_def0u64;
        for _ in 0..2000 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let bb = rng & FULL & (rng >> 11);
            let mut near = 0;
            let mut far = 0;
            for sq in Bits(bb) {
                near |= ADJACENT[sq as usize];
                far |= JUMPS[sq as usize];
            }
            assert_eq!(dilate1(bb), near & !bb);
            assert_eq!(ring2_union(bb), far);
        }
    }

    #[test]
    fn corner_and_centre_counts() {
        assert_eq!(ADJACENT[0].count_ones(), 3);
        assert_eq!(JUMPS[0].count_ones(), 5);
        assert_eq!(ADJACENT[24].count_ones(), 8);
        assert_eq!(JUMPS[24].count_ones(), 16);
        assert_eq!(parse_square("a7").unwrap(), 0);
        assert_eq!(square_name(48), "g1");
        assert!(parse_square("h1").is_err());
    }
}
