//! Zobrist keys, generated at compile time from a fixed seed so keys are stable across runs.

use super::board::{CELLS, MAX_PLAYERS};

const fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

// Rows: one per player, then blocked squares, then secret squares; the last row holds turn and bonus keys.
const ROWS: usize = MAX_PLAYERS + 3;

const fn build() -> [[u64; CELLS]; ROWS] {
    let mut t = [[0u64; CELLS]; ROWS];
    let mut i = 0;
    while i < ROWS * CELLS {
        t[i / CELLS][i % CELLS] = splitmix(0x5107_u64.wrapping_mul(i as u64 + 1));
        i += 1;
    }
    t
}

static TABLE: [[u64; CELLS]; ROWS] = build();

#[inline(always)]
pub fn piece(player: usize, sq: u8) -> u64 {
    TABLE[player][sq as usize]
}
pub fn blocked(sq: u8) -> u64 {
    TABLE[MAX_PLAYERS][sq as usize]
}
pub fn secret(sq: u8) -> u64 {
    TABLE[MAX_PLAYERS + 1][sq as usize]
}
#[inline(always)]
pub fn turn(player: usize) -> u64 {
    TABLE[MAX_PLAYERS + 2][player]
}
pub fn bonus() -> u64 {
    TABLE[MAX_PLAYERS + 2][MAX_PLAYERS]
}
