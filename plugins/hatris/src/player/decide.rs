//! Deciding what to do with a pair: reading the game through the map, searching, and the
//! model's expectation of the next spawn.

use super::{HatrisPlayer, describe};
use crate::board::{Board, Landing};
use crate::calib::{self, identify};
use crate::game::{Action, Game};
use crate::helpers::Call;
use crate::moves::route;
use crate::ram_map::RamMap;
use crate::rules::{COLUMNS, CROWN, DERBY, WIZARD};
use crate::runtime::{self, PairView};
use nesmind_host::Frame;

impl HatrisPlayer {
    pub(super) fn observe(&self, frame: &dyn Frame, view: &PairView, map: &RamMap) -> Option<Game> {
        // The pool: where the map says, else as counted; none until helpers are understood.
        let pool = match runtime::pool(frame, map) {
            Some(p) => p,
            None if map.helpers.is_some() => self.tracker.pool().to_vec(),
            None => Vec::new(),
        };
        let codes = runtime::pile_codes(frame, map);
        let mut piles: [Vec<u8>; COLUMNS] = Default::default();
        for (c, col) in codes.iter().enumerate() {
            piles[c] = col
                .iter()
                .map(|&k| map.hat_of(k))
                .collect::<Option<Vec<u8>>>()?;
        }
        let mut board = Board::default();
        board.set_piles(&self.geo, &piles);
        let next = view.next_codes.map(|c| map.hat_of(c));
        let next = (next[0]?, next[1]?);
        // The level only sets which pairs may come: the game's digits once found, else the
        // types seen so far say enough.
        let known = |t: u8| map.hat_codes[t as usize - 1].is_some();
        let level = if let (Some(shop), Some(stage)) = (map.shop, map.stage) {
            (frame.peek(shop) as u32 * 10 + frame.peek(stage) as u32).min(59)
        } else if known(CROWN) {
            6
        } else if known(WIZARD) {
            3
        } else {
            known(DERBY) as u32
        };
        Some(Game::observed(
            self.settings.clone(),
            board,
            (view.hats(), next),
            pool,
            level,
            0,
        ))
    }

    /// Chooses what to do with the pair that has just appeared.
    pub(super) fn decide(&mut self, frame: &mut dyn Frame, view: &PairView) {
        let Some(mut map) = self.map.clone() else {
            return;
        };
        // Unknown bytes in the next pair or the piles are hats of a type not seen yet.
        let unknown: Vec<u8> = runtime::unknown_codes(&*frame, &map, view)
            .into_iter()
            .filter(|c| !view.codes.contains(c) || view.next_codes.contains(c))
            .collect();
        if !unknown.is_empty() {
            match identify::identify(&*frame, &map, &unknown) {
                Ok((codes, spent)) => {
                    self.fork_frames += spent;
                    map.hat_codes = codes;
                    log::info!(
                        "hatris: new hat byte(s) identified ({} frames on forks): {}",
                        spent,
                        calib::describe(&map)
                    );
                    self.map = Some(map.clone());
                    self.save();
                }
                Err(why) => return self.fail(frame, why),
            }
        }
        let view = runtime::pair(&*frame, &map);
        let Some(first_look) = self.observe(&*frame, &view, &map) else {
            return;
        };
        let now: [Vec<u8>; COLUMNS] =
            std::array::from_fn(|c| first_look.board.piles[c].hats().collect());
        let clears = std::mem::take(&mut self.clears);
        let known = match self.expect.take() {
            Some(want) if want == now => {
                for &hat in &clears {
                    self.tracker.cleared(hat, &self.settings);
                }
                true
            }
            Some(want) => {
                self.surprises += 1;
                log::debug!("hatris: piles {now:?}, model expected {want:?}");
                false
            }
            None => true,
        };
        self.find_level(frame, &mut map, clears.len() as u32, known);
        if map.helpers.is_none() && !self.no_helpers && self.tracker.expects_any() {
            self.learn_helpers(frame, &mut map);
        }
        let mut game = self.observe(&*frame, &view, &map).unwrap_or(first_look);
        let mut action = self.searcher.choose(&game);
        if !matches!(action, Action::Place(_))
            && runtime::pool(&*frame, &map).is_none()
            && !self.confirm_helper(frame, &map, &mut game)
        {
            // The pool was not what the count said: decide again with the game's pool.
            action = self.searcher.choose(&game);
        }
        self.decisions += 1;
        self.last_action = Some(action);
        let mut b = game.board.clone();
        let mut log = Vec::new();
        match action {
            Action::Place(p) => {
                self.plan = route(&self.geo, &game.board.heights(), game.current, p);
                for (col, hat) in [(p.first, game.current.0), (p.second, game.current.1)] {
                    if let Landing::Cleared(h) = b.land(&self.geo, col as usize, hat, &mut log) {
                        self.clears.push(h);
                    }
                }
            }
            Action::Alexey(counts) => {
                b.remove_bottoms(&self.geo, &counts);
                self.start_call(frame, &map, action);
            }
            Action::Vladimir(x, y) => {
                b.swap_piles(x as usize, y as usize);
                self.start_call(frame, &map, action);
            }
        }
        self.expect = Some(std::array::from_fn(|c| b.piles[c].hats().collect()));
        self.board = Some(game.board.clone());
        frame.set_status(&describe(action, game.current));
    }

    pub(super) fn start_call(&mut self, frame: &dyn Frame, map: &RamMap, action: Action) {
        self.helper_calls += 1;
        self.tracker.used();
        self.plan = None;
        self.call = Some(Call::new(action, frame, map));
    }
}
