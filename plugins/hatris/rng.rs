//! The game's hat-pair generator, following the 6502 routines step by step.
//!
//! The two state bytes live at $0304/$0305 and are mixed with the low byte of the frame
//! counter ($0300). The rotations go through the carry flag: every call made by the spawn
//! and pick routines enters with the carry set (the preceding `SBC`/`CMP` leave it so), and
//! the right rotation's carry-out feeds the left rotation.

use super::rules::{CROWN, DERBY, WIZARD};

/// Power-on seeds written by the seeding routine.
pub const SEED_H1: u8 = 0x3F;
pub const SEED_H2: u8 = 0x85;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRng {
    pub h1: u8,
    pub h2: u8,
    /// Carry flag seen by the next randomize call.
    pub carry: bool,
}

impl GameRng {
    pub fn new(first_carry: bool) -> GameRng {
        GameRng {
            h1: SEED_H1,
            h2: SEED_H2,
            carry: first_carry,
        }
    }

    /// One call of the randomize routine: returns two hat types 1-6.
    pub fn randomize(&mut self, frame: u8) -> (u8, u8) {
        let a = frame ^ self.h1;
        self.h1 = (a >> 1) | ((self.carry as u8) << 7);
        let b = frame ^ self.h2;
        self.h2 = (b << 1) | (a & 1);
        // The routine ends with CLC/ADC; every caller then sets the carry again before the
        // next call (compare-equal or SBC without borrow).
        self.carry = true;
        (self.h1 % 6 + 1, self.h2 % 6 + 1)
    }

    /// The pick loop: re-randomizes until the pair suits the level (shop digit, stage digit).
    ///
    /// With a fixed frame byte the state can cycle through unsuitable pairs forever; the game
    /// escapes because the NMI keeps counting frames while the loop runs. `calls_per_frame`
    /// models that: the frame counter advances after that many calls.
    pub fn pick(&mut self, frame: &mut u16, calls_per_frame: u32, shop: u8, stage: u8) -> (u8, u8) {
        let mut calls = 0;
        loop {
            if calls == calls_per_frame.max(1) {
                calls = 0;
                *frame = frame.wrapping_add(1);
            }
            calls += 1;
            let (a, b) = self.randomize(*frame as u8);
            if shop != 0 || stage >= 6 {
                return (a, b);
            }
            if a == CROWN || b == CROWN {
                continue;
            }
            if stage >= 3 {
                return (a, b);
            }
            if a == WIZARD || b == WIZARD {
                continue;
            }
            if stage != 0 {
                return (a, b);
            }
            if a != DERBY && b != DERBY {
                return (a, b);
            }
        }
    }

    /// A spawn's pick: one more pick when both hats match (the skew), unless `skew` is off.
    pub fn next_pair(
        &mut self,
        frame: &mut u16,
        calls_per_frame: u32,
        (shop, stage): (u8, u8),
        skew: bool,
    ) -> (u8, u8) {
        let first = self.pick(frame, calls_per_frame, shop, stage);
        if skew && first.0 == first.1 {
            self.pick(frame, calls_per_frame, shop, stage)
        } else {
            first
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_call_by_hand() {
        let mut r = GameRng::new(true);
        // frame 0: a = 0x3F, ROR with carry in = 0x9F, carry out 1; b = 0x85, ROL = 0x0B.
        assert_eq!(r.randomize(0), (0x9F % 6 + 1, 0x0B % 6 + 1));
        assert_eq!((r.h1, r.h2), (0x9F, 0x0B));
    }

    #[test]
    fn matching_rate_with_and_without_skew() {
        let mut r = GameRng::new(true);
        let mut frame: u16 = 0;
        let (mut same_skew, mut same_fair) = (0, 0);
        let n = 200_000;
        let mut fair = GameRng::new(true);
        for i in 0..n {
            frame = frame.wrapping_add(37 + (i * 7919 % 61) as u16);
            let (a, b) = r.next_pair(&mut frame, 40, (1, 0), true);
            same_skew += (a == b) as u32;
            let (c, d) = fair.next_pair(&mut frame, 40, (1, 0), false);
            same_fair += (c == d) as u32;
        }
        let skew = same_skew as f64 / n as f64;
        let fair_rate = same_fair as f64 / n as f64;
        assert!((fair_rate - 1.0 / 6.0).abs() < 0.02, "fair {fair_rate}");
        assert!((skew - 1.0 / 36.0).abs() < 0.012, "skew {skew}");
    }

    #[test]
    fn first_level_uses_three_types() {
        let mut r = GameRng::new(true);
        let mut frame = 0u16;
        for _ in 0..2000 {
            frame = frame.wrapping_add(1);
            let (a, b) = r.next_pair(&mut frame, 40, (0, 0), true);
            for h in [a, b] {
                assert!(matches!(h, 1 | 4 | 6), "hat {h} at level 0");
            }
        }
    }
}
