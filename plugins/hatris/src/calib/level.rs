//! Finding the shop and stage digits while playing: the player counts the stacks it clears
//! (15 a stage), so it knows when the level must have gone up; a RAM search keeps the bytes
//! that went up by one exactly then (the stage; back to 0 after 9, when the shop's byte
//! goes up instead) and held still at every other spawn.

use nesmind_host::ramsearch::{Search, Snapshot, Test, Width};

/// Stacks to clear per stage.
const STACKS_PER_STAGE: u32 = 15;
/// Level-ups seen before a lone survivor is taken as the stage digit.
const CONFIRM: u32 = 2;

#[derive(Default)]
pub struct LevelFinder {
    stage: Option<Search>,
    shop: Option<Search>,
    last: Option<Snapshot>,
    /// Stacks cleared since the search started, and level-ups seen.
    stacks: u32,
    ups: u32,
    /// Something happened the count cannot follow (a refill, a surprise): stop.
    lost: bool,
    pub found_stage: Option<u16>,
    pub found_shop: Option<u16>,
}

impl LevelFinder {
    /// At a spawn: `now` is memory, `cleared` the stacks the last landing cleared, `known`
    /// false when the piles were not what the model expected (the count is then unsure).
    pub fn spawn(&mut self, now: Snapshot, cleared: u32, known: bool) {
        if self.lost || (self.found_stage.is_some() && self.found_shop.is_some()) {
            return;
        }
        let Some(prev) = self.last.replace(now.clone()) else {
            self.stage = Some(Search::new(now.clone(), Width::U8));
            self.shop = Some(Search::new(now, Width::U8));
            return;
        };
        let before = self.stacks / STACKS_PER_STAGE;
        let after = (self.stacks + cleared) / STACKS_PER_STAGE;
        // Piles other than the model's: the count is unsure, unless a shop has just been
        // completed (the game then deals new piles, which is the surprise).
        let crossed_shop = after != before && after.is_multiple_of(10);
        if !known && !crossed_shop {
            self.lost = true;
            return;
        }
        self.stacks += cleared;
        let (stage_test, shop_test) = match after - before {
            0 => (Test::Unchanged, Test::Unchanged),
            1 if after.is_multiple_of(10) => (Test::ChangedBy(-9), Test::ChangedBy(1)),
            1 => (Test::ChangedBy(1), Test::Unchanged),
            _ => {
                self.lost = true;
                return;
            }
        };
        self.ups += after - before;
        if let Some(s) = self.stage.as_mut() {
            s.filter_pair(&prev, &now, stage_test);
            if s.len() == 1 && self.ups >= CONFIRM && self.found_stage.is_none() {
                self.found_stage = Some(s.addresses()[0]);
            }
        }
        if let Some(s) = self.shop.as_mut() {
            s.filter_pair(&prev, &now, shop_test);
            if s.len() == 1 && crossed_shop {
                self.found_shop = Some(s.addresses()[0]);
            }
        }
    }
}
