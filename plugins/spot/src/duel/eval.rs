//! The two-player evaluation, in centipieces for the side to move: material, stones that
//! cannot be taken (no empty neighbour), clone room, the capture the mover can cash at once
//! and a tempo term.

use super::Duel;
use crate::board::{dilate1, ring2_union};
use crate::eval::neighbour_count_planes;

pub const MATERIAL: i32 = 100;
/// A stone without an empty neighbour can never be converted.
pub const SAFE: i32 = 8;
/// Empty squares next to own stones: room to clone (grow without leaving holes).
pub const ROOM: i32 = 4;
/// Share of the best immediate gain of the side to move that the evaluation credits: it
/// moves next, so the gain is real unless the reply takes more back.
pub const GAIN: i32 = 45;
/// Moving is worth something in Ataxx (the mover captures first).
pub const TEMPO: i32 = 20;

/// Largest value of the 4-bit per-square counts `planes` over `mask` (0 when `mask` is empty).
#[inline(always)]
fn max_count(planes: &[u64; 4], mask: u64) -> i32 {
    let mut live = mask;
    let mut best = 0;
    for bit in (0..4).rev() {
        let with = live & planes[bit];
        if with != 0 {
            best |= 1 << bit;
            live = with;
        }
    }
    best
}

/// Static value of an undecided position for the side to move.
#[inline]
pub fn evaluate(pos: &Duel) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has POPCNT (checked just above; std caches the check).
        return unsafe { evaluate_popcnt(pos) };
    }
    evaluate_body(pos)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn evaluate_popcnt(pos: &Duel) -> i32 {
    evaluate_body(pos)
}

#[inline(always)]
fn evaluate_body(pos: &Duel) -> i32 {
    let (us, them) = (pos.us(), pos.them());
    let empty = pos.empty();
    let near_empty = dilate1(empty);
    let safe = |bb: u64| (bb & !near_empty).count_ones() as i32;
    let (clone_us, clone_them) = (dilate1(us) & empty, dilate1(them) & empty);
    let room = clone_us.count_ones() as i32 - clone_them.count_ones() as i32;
    // The mover's best move converts its target's enemy neighbours, plus one stone for a clone.
    let their_planes = neighbour_count_planes(them);
    let jump_only = ring2_union(us) & empty & !clone_us;
    let gain = (max_count(&their_planes, clone_us) + 1).max(max_count(&their_planes, jump_only));
    let gain = if clone_us | jump_only == 0 { 0 } else { gain };
    MATERIAL * (us.count_ones() as i32 - them.count_ones() as i32)
        + SAFE * (safe(us) - safe(them))
        + ROOM * room
        + GAIN * gain
        + TEMPO
}
