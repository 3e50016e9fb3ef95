//! A whole Hatris game at spawn granularity: levels, cash, helpers, refills and the generator.

use super::board::{Board, Geometry, Landing, Undo};
use super::moves::{Placement, placements};
use super::rng::GameRng;
use super::rules::{COLUMNS, Helper, LEVELS, STACK_CASH, STAGES_PER_SHOP, Settings};
use rand::Rng;

/// What the player does with a falling pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Place(Placement),
    /// Call Alexey and remove this many hats from the bottom of each pile.
    Alexey([u8; COLUMNS]),
    /// Call Vladimir and swap these two piles.
    Vladimir(u8, u8),
}

#[derive(Clone, Debug)]
pub struct Game {
    pub settings: Settings,
    pub geo: Geometry,
    pub board: Board,
    /// Level 0-59 (shop x 10 + stage); 60 once all levels are done.
    pub level: u32,
    pub stacks_left: u32,
    pub stacks_cleared: u64,
    pub cash: u64,
    /// Helper pool; the last one earned is the one called.
    pub pool: Vec<Helper>,
    /// Stacks counted towards the next Alexey and the next Vladimir.
    pub progress: [u32; 2],
    pub rng: GameRng,
    /// Frame counter ($0300, 16 bits).
    pub frame: u16,
    pub current: (u8, u8),
    pub next: (u8, u8),
    pub spawns: u64,
    pub over: bool,
    /// Spawn count at which the 60th level was completed.
    pub finished_at: Option<u64>,
}

fn helper_slot(h: Helper) -> usize {
    match h {
        Helper::Alexey => 0,
        Helper::Vladimir => 1,
    }
}

impl Game {
    /// Starts at level 0, with the menu time before the start drawn from `rand`.
    pub fn new(settings: Settings, rand: &mut impl Rng) -> Game {
        let geo = Geometry::new(&settings);
        let mut g = Game {
            stacks_left: settings.stacks_per_stage,
            rng: GameRng::new(settings.first_pick_carry),
            settings,
            geo,
            board: Board::default(),
            level: 0,
            stacks_cleared: 0,
            cash: 0,
            pool: Vec::new(),
            progress: [0; 2],
            frame: rand.r#gen(),
            current: (0, 0),
            next: (0, 0),
            spawns: 0,
            over: false,
            finished_at: None,
        };
        g.next = g.pick_pair();
        g.frame = g.frame.wrapping_add(1);
        g.spawn();
        g
    }

    /// A game in the state a player observes (used by the plug-in to search from RAM).
    pub fn observed(
        settings: Settings,
        board: Board,
        (current, next): ((u8, u8), (u8, u8)),
        pool: Vec<Helper>,
        level: u32,
        cash: u64,
    ) -> Game {
        let geo = Geometry::new(&settings);
        Game {
            stacks_left: settings.stacks_per_stage,
            rng: GameRng::new(true),
            settings,
            geo,
            board,
            level,
            stacks_cleared: 0,
            cash,
            pool,
            progress: [0; 2],
            frame: 0,
            current,
            next,
            spawns: 0,
            over: false,
            finished_at: None,
        }
    }

    /// The level whose rules apply (play past the last level keeps its settings).
    pub fn rules_level(&self) -> u32 {
        self.level.min(LEVELS - 1)
    }

    fn pick_pair(&mut self) -> (u8, u8) {
        let lv = self.rules_level();
        let (shop, stage) = ((lv / STAGES_PER_SHOP) as u8, (lv % STAGES_PER_SHOP) as u8);
        let calls = self.settings.pick_calls_per_frame;
        self.rng.next_pair(
            &mut self.frame,
            calls,
            (shop, stage),
            self.settings.pair_skew,
        )
    }

    fn spawn(&mut self) {
        self.current = self.next;
        self.next = self.pick_pair();
        self.spawns += 1;
    }

    /// The helper that B would call now.
    pub fn ready_helper(&self) -> Option<Helper> {
        self.pool.last().copied()
    }

    /// Every placement of the falling pair.
    pub fn legal_placements(&self) -> super::moves::Placements {
        placements(
            &self.geo,
            &self.board.heights(),
            self.current.0 == self.current.1,
        )
    }

    /// Whether `action` is allowed now.
    pub fn is_legal(&self, action: &Action) -> bool {
        match *action {
            Action::Place(p) => self.legal_placements().contains(p),
            Action::Alexey(counts) => {
                self.ready_helper() == Some(Helper::Alexey)
                    && counts.iter().map(|&k| k as u32).sum::<u32>() <= self.settings.alexey_max
                    && counts
                        .iter()
                        .zip(&self.board.piles)
                        .all(|(&k, p)| k as usize <= p.len())
            }
            Action::Vladimir(a, b) => {
                self.ready_helper() == Some(Helper::Vladimir)
                    && a != b
                    && (a as usize) < COLUMNS
                    && (b as usize) < COLUMNS
            }
        }
    }

    /// Plays `action`, then lets `frames` frames pass and spawns the next pair.
    pub fn step(&mut self, action: Action, frames: u32) -> Result<(), String> {
        if self.over {
            return Err("the game is over".into());
        }
        if !self.is_legal(&action) {
            return Err(format!("illegal action {action:?}"));
        }
        self.act(action);
        self.frame = self.frame.wrapping_add(frames as u16);
        if !self.over {
            self.spawn();
        }
        Ok(())
    }

    /// Plays `action` with the frame gap drawn from the settings' spawn model.
    pub fn step_random(&mut self, action: Action, rand: &mut impl Rng) -> Result<(), String> {
        let f = rand.gen_range(self.settings.spawn_frames_min..=self.settings.spawn_frames_max);
        self.step(action, f)
    }

    fn act(&mut self, action: Action) {
        match action {
            Action::Place(p) => {
                let mut log: Vec<Undo> = Vec::with_capacity(2);
                for (col, hat) in [(p.first, self.current.0), (p.second, self.current.1)] {
                    match self.board.land(&self.geo, col as usize, hat, &mut log) {
                        Landing::Stays => {}
                        Landing::Cleared(h) => self.stack_cleared(h),
                        Landing::Overflow => self.over = true,
                    }
                }
                if self.board.max_height() > self.geo.height_limit {
                    self.over = true;
                }
            }
            Action::Alexey(counts) => {
                self.pool.pop();
                self.board.remove_bottoms(&self.geo, &counts);
            }
            Action::Vladimir(a, b) => {
                self.pool.pop();
                self.board.swap_piles(a as usize, b as usize);
            }
        }
    }

    fn stack_cleared(&mut self, hat: u8) {
        self.stacks_cleared += 1;
        self.cash += STACK_CASH[hat as usize - 1];
        let helper = self.settings.helper_for(hat);
        let slot = helper_slot(helper);
        self.progress[slot] += 1;
        if self.progress[slot] >= self.settings.stacks_per_helper {
            self.progress[slot] = 0;
            if self.pool.len() < self.settings.pool_capacity {
                self.pool.push(helper);
            }
        }
        self.stacks_left = self.stacks_left.saturating_sub(1);
        if self.stacks_left == 0 && self.level < LEVELS {
            self.level += 1;
            self.stacks_left = self.settings.stacks_per_stage;
            if self.level == LEVELS {
                self.finished_at = Some(self.spawns);
            } else if self.level.is_multiple_of(STAGES_PER_SHOP) && self.settings.shop_refill {
                self.refill();
            }
        }
    }

    /// \[I\] After a shop's cut-scene the piles are emptied and 6 x shop hats are dealt evenly;
    /// their types are assumed to come from the same generator.
    fn refill(&mut self) {
        self.frame = self
            .frame
            .wrapping_add(self.settings.cutscene_frames as u16);
        let per_column = (self.level / STAGES_PER_SHOP) as usize;
        let mut columns: [Vec<u8>; COLUMNS] = Default::default();
        for _ in 0..per_column {
            for pair in columns.chunks_mut(2) {
                let (a, b) = self.rng.randomize(self.frame as u8);
                pair[0].push(a);
                pair[1].push(b);
            }
        }
        self.board.set_piles(&self.geo, &columns);
    }
}

#[cfg(test)]
mod tests {
    use super::super::rules::*;
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn game() -> Game {
        Game::new(Settings::default(), &mut StdRng::seed_from_u64(1))
    }

    #[test]
    fn stacks_advance_levels_award_helpers_and_cash() {
        let mut g = game();
        for _ in 0..15 {
            g.stack_cleared(CROWN);
        }
        assert_eq!(g.level, 1);
        assert_eq!(g.cash, 15 * 300);
        assert_eq!(g.pool, vec![Helper::Alexey; 3]);
        for _ in 0..50 {
            g.stack_cleared(COWBOY);
        }
        assert_eq!(g.pool.len(), 8, "pool is capped");
        assert_eq!(g.ready_helper(), Some(Helper::Vladimir));
    }

    #[test]
    fn shop_end_refills_and_sixtieth_level_is_recorded() {
        let mut g = game();
        for _ in 0..150 {
            g.stack_cleared(TOP);
        }
        assert_eq!(g.level, 10);
        assert_eq!(g.board.total_hats(), 6);
        assert!(g.board.piles.iter().all(|p| p.len() == 1));
        for _ in 0..(50 * 15) {
            g.stack_cleared(TOP);
        }
        assert_eq!(g.level, 60);
        assert_eq!(g.finished_at, Some(g.spawns));
        assert_eq!(g.rules_level(), 59);
    }

    #[test]
    fn illegal_actions_are_refused_and_topping_out_ends() {
        let mut g = game();
        assert!(g.step(Action::Vladimir(0, 1), 30).is_err());
        let far = Action::Place(Placement {
            first: 0,
            second: 5,
        });
        assert!(g.step(far, 30).is_err());
        let mut spawns = 0;
        while !g.over {
            // Alternating hats never complete a stack.
            g.current = if spawns % 2 == 0 {
                (TOP, WIZARD)
            } else {
                (WIZARD, TOP)
            };
            g.step(
                Action::Place(Placement {
                    first: 0,
                    second: 1,
                }),
                30,
            )
            .unwrap();
            spawns += 1;
            assert!(spawns < 20);
        }
        assert!(g.board.max_height() > 128);
    }
}
