//! Hatris game facts and the settings that hold every inferred or unknown value.
//!
//! Hat types use the game's own coding (1 top, 2 wizard, 3 crown, 4 cap, 5 derby,
//! 6 cowboy); arrays below are indexed by `type - 1`.

use serde::{Deserialize, Serialize};

pub const COLUMNS: usize = 6;
pub const HAT_TYPES: usize = 6;
pub const TOP: u8 = 1;
pub const WIZARD: u8 = 2;
pub const CROWN: u8 = 3;
pub const CAP: u8 = 4;
pub const DERBY: u8 = 5;
pub const COWBOY: u8 = 6;
/// Levels in the game: 6 shops of 10 stages.
pub const LEVELS: u32 = 60;
pub const STAGES_PER_SHOP: u32 = 10;
/// Identical hats that vanish together.
pub const STACK: usize = 5;

/// Hat heights in pixels (ROM table at $B9D2).
pub const HAT_HEIGHT: [u16; HAT_TYPES] = [20, 24, 16, 12, 8, 11];

/// The ROM's nesting table at $B9D8, as printed: `NEST[row][col]`, both in type order.
pub const NEST: [[u16; HAT_TYPES]; HAT_TYPES] = [
    [2, 18, 18, 18, 18, 18],
    [8, 4, 16, 20, 19, 19],
    [9, 10, 10, 10, 10, 10],
    [8, 8, 7, 6, 9, 8],
    [2, 3, 3, 4, 2, 4],
    [5, 6, 5, 5, 6, 5],
];

/// Cash per cleared stack (ROM table at $96B1).
pub const STACK_CASH: [u64; HAT_TYPES] = [150, 200, 300, 120, 50, 80];

/// The two helpers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Helper {
    /// Removes up to five hats from the bottoms of piles.
    Alexey,
    /// Swaps two piles.
    Vladimir,
}

/// \[I\] How the nesting table is read; the ROM map does not say which index is the lower hat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NestReading {
    /// Row = hat already on the pile, column = landing hat, value = brim-to-brim offset.
    A,
    /// Row = landing hat, column = hat below, value = growth of the pile top.
    B,
}

/// Sources disagree on which stacks earn which helper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum HelperAwards {
    /// The seed article: crowns, derbies, wizards earn Alexey; caps, cowboys, tops earn Vladimir.
    Seed,
    /// tetris.wiki: tops, wizards, crowns earn Alexey; derbies, caps, cowboys earn Vladimir.
    TetrisWiki,
}

/// Every rule value that is inferred \[I\] or unknown \[GAP\], in one place.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// \[I\] Nesting-table orientation.
    pub nest_reading: NestReading,
    /// \[GAP\] Pile height in pixels above which the game ends. Best estimate: the falling Y
    /// counts down from $80, so a pile taller than 128 px meets a pair as it enters.
    pub height_limit: u16,
    /// \[I\] A free hat may slide over a neighbouring pile only when that pile is strictly lower
    /// than the hat's bottom; `true` also allows equal heights.
    pub slide_over_equal: bool,
    /// Stacks to clear per stage (15 when the game is started from the first level).
    pub stacks_per_stage: u32,
    /// Stacks of one helper's hat group that earn one helper.
    pub stacks_per_helper: u32,
    /// Largest helper pool.
    pub pool_capacity: usize,
    /// Hats Alexey removes at most.
    pub alexey_max: u32,
    /// Which stacks earn which helper (the sources disagree).
    pub helper_awards: HelperAwards,
    /// \[GAP\] Extra cash for a "hatris"; amount and condition unknown, so 0 by default.
    pub hatris_bonus: u64,
    /// The matching-pair re-pick of the spawn routine (the skew). Off reproduces a fair generator.
    pub pair_skew: bool,
    /// Refill the playfield with 6 x shop hats after each shop's cut-scene.
    pub shop_refill: bool,
    /// \[GAP\] Fewest frames between two spawns (player moves, drop, clear animation).
    pub spawn_frames_min: u32,
    /// \[GAP\] Most frames between two spawns.
    pub spawn_frames_max: u32,
    /// \[GAP\] Frames spent in a shop's cut-scene.
    pub cutscene_frames: u32,
    /// \[I\] Calls of the randomize routine per frame while the pick loop re-rolls (roughly
    /// 700 CPU cycles per call); the frame counter keeps running during the loop.
    pub pick_calls_per_frame: u32,
    /// \[GAP\] 6502 carry flag on the first PRNG call after power-on (every later call enters with it set).
    pub first_pick_carry: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            nest_reading: NestReading::A,
            height_limit: 128,
            slide_over_equal: false,
            stacks_per_stage: 15,
            stacks_per_helper: 5,
            pool_capacity: 8,
            alexey_max: 5,
            helper_awards: HelperAwards::Seed,
            hatris_bonus: 0,
            pair_skew: true,
            shop_refill: true,
            spawn_frames_min: 24,
            spawn_frames_max: 120,
            cutscene_frames: 600,
            pick_calls_per_frame: 40,
            first_pick_carry: true,
        }
    }
}

impl Settings {
    /// Parses settings from RON text (missing fields keep their defaults).
    pub fn from_ron(text: &str) -> Result<Settings, String> {
        let s: Settings = ron::from_str(text).map_err(|e| format!("bad hatris settings: {e}"))?;
        s.validate()?;
        Ok(s)
    }

    pub fn validate(&self) -> Result<(), String> {
        if !(24..=1000).contains(&self.height_limit) {
            return Err(format!(
                "height_limit {} out of range 24..=1000",
                self.height_limit
            ));
        }
        if self.spawn_frames_min > self.spawn_frames_max {
            return Err("spawn_frames_min exceeds spawn_frames_max".into());
        }
        if self.stacks_per_stage == 0 || self.stacks_per_helper == 0 {
            return Err("stacks_per_stage and stacks_per_helper must be positive".into());
        }
        if self.pool_capacity > 32 {
            return Err("pool_capacity above 32".into());
        }
        Ok(())
    }

    /// Offset from a hat's brim to the brim of the hat landing on it: `[lower-1][upper-1]`.
    /// Both readings are expressed this way so piles need only one update rule
    /// (reading B keeps the pile top equal to the last hat's brim plus its height).
    pub fn brim_offsets(&self) -> [[i16; HAT_TYPES]; HAT_TYPES] {
        let mut out = [[0i16; HAT_TYPES]; HAT_TYPES];
        for (lower, row) in out.iter_mut().enumerate() {
            for (upper, cell) in row.iter_mut().enumerate() {
                *cell = match self.nest_reading {
                    NestReading::A => NEST[lower][upper] as i16,
                    NestReading::B => {
                        HAT_HEIGHT[lower] as i16 + NEST[upper][lower] as i16
                            - HAT_HEIGHT[upper] as i16
                    }
                };
            }
        }
        out
    }

    /// The helper a cleared stack of `hat` advances.
    pub fn helper_for(&self, hat: u8) -> Helper {
        let alexey = match self.helper_awards {
            HelperAwards::Seed => matches!(hat, CROWN | DERBY | WIZARD),
            HelperAwards::TetrisWiki => matches!(hat, TOP | WIZARD | CROWN),
        };
        if alexey {
            Helper::Alexey
        } else {
            Helper::Vladimir
        }
    }
}

/// Hat types the pair generator may produce at `level` (0-59), as the pick loop enforces:
/// derbies from level 1, wizards from level 3, crowns from level 6.
pub fn allowed_hats(level: u32) -> [bool; HAT_TYPES] {
    let mut ok = [true; HAT_TYPES];
    if level < 10 {
        let stage = level;
        ok[(CROWN - 1) as usize] = stage >= 6;
        ok[(WIZARD - 1) as usize] = stage >= 3;
        ok[(DERBY - 1) as usize] = stage >= 1;
    }
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_b_grows_pile_by_table_value() {
        let s = Settings {
            nest_reading: NestReading::B,
            ..Settings::default()
        };
        let off = s.brim_offsets();
        // A derby landing on a top hat: row derby, column top = 2 px of growth.
        let lower = (TOP - 1) as usize;
        let upper = (DERBY - 1) as usize;
        let growth = off[lower][upper] + HAT_HEIGHT[upper] as i16 - HAT_HEIGHT[lower] as i16;
        assert_eq!(growth, 2);
    }

    #[test]
    fn hat_introduction_follows_pick_loop() {
        assert_eq!(allowed_hats(0), [true, false, false, true, false, true]);
        assert_eq!(allowed_hats(1), [true, false, false, true, true, true]);
        assert_eq!(allowed_hats(3), [true, true, false, true, true, true]);
        assert_eq!(allowed_hats(6), [true; 6]);
        assert_eq!(allowed_hats(59), [true; 6]);
    }

    #[test]
    fn bad_settings_are_named() {
        let err = Settings::from_ron("(height_limit: 5)").unwrap_err();
        assert!(err.contains("height_limit"), "{err}");
        let err = Settings::from_ron("(nest_reading: C)").unwrap_err();
        assert!(err.contains("bad hatris settings"), "{err}");
    }
}
