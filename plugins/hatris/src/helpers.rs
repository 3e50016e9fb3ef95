//! Helpers at run time: keeping count of the pool (the player sees every stack it clears;
//! which stacks earn which helper is one of two documented rules, settled by what the game
//! gives), and steering the helper screen.

use super::game::Action;
use super::ram_map::{HelperMap, RamMap};
use super::rules::{COLUMNS, Helper, HelperAwards, Settings};
use super::runtime::{self, toward};
use nesmind_host::{Buttons, Frame};

const RULES: [HelperAwards; 2] = [HelperAwards::Seed, HelperAwards::TetrisWiki];

/// The pool as each award rule would have it.
#[derive(Clone, Debug, Default)]
pub struct Tracker {
    progress: [[u32; 2]; 2],
    pools: [Vec<Helper>; 2],
    /// The rule the game has been seen to follow, once told apart.
    rule: Option<usize>,
}

fn slot(h: Helper) -> usize {
    match h {
        Helper::Alexey => 0,
        Helper::Vladimir => 1,
    }
}

impl Tracker {
    /// A stack of `hat` vanished.
    pub fn cleared(&mut self, hat: u8, settings: &Settings) {
        for (r, &rule) in RULES.iter().enumerate() {
            let helper = Settings {
                helper_awards: rule,
                ..settings.clone()
            }
            .helper_for(hat);
            let p = &mut self.progress[r][slot(helper)];
            *p += 1;
            if *p >= settings.stacks_per_helper {
                *p = 0;
                if self.pools[r].len() < settings.pool_capacity {
                    self.pools[r].push(helper);
                }
            }
        }
    }

    /// The pool under the rule the game follows (the seed article's until told otherwise).
    pub fn pool(&self) -> &[Helper] {
        &self.pools[self.rule.unwrap_or(0)]
    }
    pub fn awards(&self) -> HelperAwards {
        RULES[self.rule.unwrap_or(0)]
    }
    /// Whether some rule expects a helper in the pool.
    pub fn expects_any(&self) -> bool {
        self.pools.iter().any(|p| !p.is_empty())
    }

    /// B brought `helper` (or nothing): keep the rules that expected it, and make the pool
    /// agree with the game whatever the rules say.
    pub fn seen(&mut self, helper: Option<Helper>) {
        let fits: Vec<usize> = (0..RULES.len())
            .filter(|&r| self.pools[r].last().copied() == helper)
            .collect();
        if self.rule.is_none() && fits.len() == 1 {
            self.rule = Some(fits[0]);
            log::info!("hatris: helpers are awarded as {:?} says", RULES[fits[0]]);
        }
        for pool in &mut self.pools {
            match helper {
                None => pool.clear(),
                Some(h) if pool.last() != Some(&h) => {
                    if pool.is_empty() {
                        pool.push(h);
                    } else if let Some(last) = pool.last_mut() {
                        *last = h;
                    }
                }
                Some(_) => {}
            }
        }
    }

    /// The newest helper was used.
    pub fn used(&mut self) {
        for pool in &mut self.pools {
            pool.pop();
        }
    }
}

/// A helper call in progress.
#[derive(Clone, Debug)]
pub struct Call {
    pub action: Action,
    /// Piles when B was pressed (type codes).
    start: [Vec<u8>; COLUMNS],
    /// Vladimir: A has been pressed on the first pile, and frames since.
    picked: Option<u32>,
    /// The pair has gone (the helper screen is up).
    gone: bool,
}

impl Call {
    pub fn new(action: Action, frame: &dyn Frame, map: &RamMap) -> Call {
        Call {
            action,
            start: runtime::pile_codes(frame, map),
            picked: None,
            gone: false,
        }
    }

    /// The button for this frame: B until the pair is gone, then the helper's work.
    /// `can_press` is false on the frames the pad must be released (nothing changes then).
    pub fn step(
        &mut self,
        frame: &dyn Frame,
        map: &RamMap,
        hm: &HelperMap,
        can_press: bool,
    ) -> Buttons {
        if !can_press {
            return Buttons::NONE;
        }
        let pair = map
            .falling
            .iter()
            .any(|&a| map.hat_of(frame.peek(a)).is_some());
        match (pair, self.gone) {
            (true, false) => return Buttons::B,
            // The next pair has come: the helper's work is over.
            (true, true) => return Buttons::NONE,
            (false, _) => self.gone = true,
        }
        let Some(cursor) = hm
            .cursor_code
            .decode(frame.peek(hm.cursor))
            .and_then(|c| u8::try_from(c).ok())
        else {
            return Buttons::NONE;
        };
        let piles = runtime::pile_codes(frame, map);
        match self.action {
            Action::Alexey(counts) => {
                let todo = (0..COLUMNS).find(|&c| {
                    let removed = self.start[c].len().saturating_sub(piles[c].len());
                    removed < counts[c] as usize
                });
                match todo {
                    Some(c) if cursor as usize == c => Buttons::A,
                    Some(c) => toward(cursor, c as u8),
                    None => Buttons::B,
                }
            }
            Action::Vladimir(a, b) => {
                if let Some(waited) = self.picked {
                    if cursor != b {
                        return toward(cursor, b);
                    }
                    // The swap did not come: the first pick was missed, start again.
                    self.picked = (waited < 12).then_some(waited + 1);
                    return if waited % 4 == 0 {
                        Buttons::A
                    } else {
                        Buttons::NONE
                    };
                }
                if cursor != a {
                    return toward(cursor, a);
                }
                self.picked = Some(0);
                Buttons::A
            }
            Action::Place(_) => Buttons::NONE,
        }
    }
}
