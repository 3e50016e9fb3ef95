//! A RAM-image host: an offline stand-in for the Spot cartridge. It keeps the documented RAM
//! addresses current every frame (through the same RAM map the plug-in reads) and reacts to
//! pad input the way the cartridge is described to: a hand cursor moved one cell per D-pad
//! press, A to select a piece and A again on the destination, animations, automatic passes,
//! the bonus reels and the prize moves. Computer seats play the NES AI model.

use super::board::{Bits, CELLS, NO_SQUARE, SIDE, row_col};
use super::bots::nes_ai_move;
use super::layouts::{ThirdCorner, start_position};
use super::moves::{Kind, Move};
use super::position::{MAX_PLAYERS, Position};
use super::ram_map::{Bonus, RamMap, Screen, Seats};
use nesmind_host::Buttons;
use nesmind_host::kit::{RamGame, RamImage};

mod ram_image;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

pub const ANIMATION_FRAMES: u32 = 20;
pub const CPU_DELAY_FRAMES: u32 = 8;
pub const PASS_DELAY_FRAMES: u32 = 8;
pub const REEL_STEP_FRAMES: u32 = 3;

#[derive(Clone, Debug)]
pub struct HostConfig {
    /// Setting per RAM slot: 1-5 computer level, the map's human value, or 0 = not playing.
    pub settings: [u8; MAX_PLAYERS],
    pub blocked: u64,
    pub third: ThirdCorner,
    pub secret: u8,
    pub seed: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Turn { selected: Option<u8>, wait: u32 },
    Animating { frames: u32, mv: Move },
    Bonus { stopped: usize, tick: u32 },
    Prize { kind: Kind, selected: Option<u8> },
    Over,
}

pub struct RamHost {
    map: RamMap,
    seats: Seats,
    screen: Screen,
    bonus: Bonus,
    image: RamImage,
    pos: Position,
    slots: Vec<usize>,
    settings: [u8; MAX_PLAYERS],
    previous: [Buttons; MAX_PLAYERS],
    cursor: u8,
    reels: [u8; 3],
    state: State,
    rng: StdRng,
    /// Every move applied, with the RAM slot that made it.
    pub history: Vec<(usize, Move)>,
    /// A presses the game ignored (a correct player causes none).
    pub rejected_presses: u32,
    /// Bonus games: (slot, reel positions when all three stopped).
    pub bonus_results: Vec<(usize, [u8; 3])>,
    /// Test knob: swallow every n-th D-pad press (0 = none), as a lagging game might.
    pub drop_dpad_every: u32,
    dpad_presses: u32,
}

impl RamHost {
    /// A host for a map that has every part (seats, screen and bonus bytes).
    pub fn new(map: RamMap, cfg: &HostConfig) -> Result<RamHost, String> {
        let (Some(seats), Some(screen), Some(bonus)) = (map.seats, map.screen, map.bonus) else {
            return Err(format!(
                "RAM map '{}' lacks seats, screen or bonus bytes",
                map.name
            ));
        };
        if map.players() != MAX_PLAYERS {
            return Err(format!(
                "RAM map '{}' codes only {} slots",
                map.name,
                map.players()
            ));
        }
        let slots: Vec<usize> = (0..MAX_PLAYERS).filter(|&s| cfg.settings[s] != 0).collect();
        let mut pos = start_position(slots.len(), cfg.blocked, cfg.third)?;
        pos.set_secret(cfg.secret);
        let mut host = RamHost {
            map,
            seats,
            screen,
            bonus,
            image: RamImage::default(),
            pos,
            slots,
            settings: cfg.settings,
            previous: [Buttons::NONE; MAX_PLAYERS],
            cursor: (CELLS / 2) as u8,
            reels: [0; 3],
            state: State::Turn {
                selected: None,
                wait: 0,
            },
            rng: StdRng::seed_from_u64(cfg.seed),
            history: Vec::new(),
            rejected_presses: 0,
            bonus_results: Vec::new(),
            drop_dpad_every: 0,
            dpad_presses: 0,
        };
        host.write_ram();
        Ok(host)
    }

    pub fn position(&self) -> &Position {
        &self.pos
    }
    pub fn slots(&self) -> &[usize] {
        &self.slots
    }
    pub fn is_over(&self) -> bool {
        self.state == State::Over
    }

    /// Test hook: continues from `pos` (same number of players) with its player to move.
    pub fn set_position(&mut self, pos: Position) -> Result<(), String> {
        if pos.players() != self.slots.len() {
            return Err(format!(
                "position has {} players, the host {}",
                pos.players(),
                self.slots.len()
            ));
        }
        self.pos = pos;
        self.state = State::Turn {
            selected: None,
            wait: 0,
        };
        self.write_ram();
        Ok(())
    }

    /// Test hook: the player to move wins the bonus game now, as if it had landed on the secret square.
    pub fn force_bonus(&mut self) {
        self.pos.set_secret(NO_SQUARE);
        self.pos.set_bonus_pending(true);
        self.start_bonus();
        self.write_ram();
    }

    fn start_bonus(&mut self) {
        let n = self.bonus.reel_positions;
        self.reels = [
            self.rng.gen_range(0..n),
            self.rng.gen_range(0..n),
            self.rng.gen_range(0..n),
        ];
        self.state = State::Bonus {
            stopped: 0,
            tick: 0,
        };
    }

    fn slot_to_move(&self) -> usize {
        self.slots[self.pos.to_move()]
    }
    fn is_human(&self, slot: usize) -> bool {
        self.settings[slot] == self.seats.human
    }

    /// Runs one frame of the game: reads the pads (edge-triggered), updates, rewrites RAM.
    pub fn step(&mut self) {
        let slot = self.slot_to_move();
        let pad = self.map.pad_of_player[slot];
        let pads = self.image.pads;
        let pressed = Buttons(pads[pad].0 & !self.previous[pad].0);
        self.previous = pads;
        let human = self.is_human(slot);
        self.state = match self.state {
            State::Over => State::Over,
            State::Animating { frames, mv } if frames > 1 => State::Animating {
                frames: frames - 1,
                mv,
            },
            State::Animating { mv, .. } => self.apply(mv),
            State::Turn { selected, wait } => self.turn(selected, wait, human, pressed),
            State::Bonus { stopped, tick } => self.bonus(stopped, tick, human, pressed),
            State::Prize { kind, selected } => self.prize(kind, selected, human, pressed),
        };
        self.image.frame += 1;
        self.write_ram();
    }

    fn turn(&mut self, selected: Option<u8>, wait: u32, human: bool, pressed: Buttons) -> State {
        let mut moves = Vec::new();
        self.pos.generate(&mut moves);
        if moves == [Move::PASS] {
            return if wait + 1 >= PASS_DELAY_FRAMES {
                self.apply(Move::PASS)
            } else {
                State::Turn {
                    selected,
                    wait: wait + 1,
                }
            };
        }
        if !human {
            if wait + 1 < CPU_DELAY_FRAMES {
                return State::Turn {
                    selected,
                    wait: wait + 1,
                };
            }
            let level = self.settings[self.slot_to_move()].clamp(1, 5);
            let mv = nes_ai_move(&self.pos, level, &mut self.rng);
            return State::Animating {
                frames: ANIMATION_FRAMES,
                mv,
            };
        }
        self.move_cursor(pressed);
        if !pressed.contains(Buttons::A) {
            return State::Turn { selected, wait };
        }
        let cell = self.cursor;
        let me = self.pos.to_move();
        if self.pos.owner(cell) == Some(me) {
            return State::Turn {
                selected: Some(cell),
                wait,
            };
        }
        if let Some(from) = selected
            && self.pos.empty() >> cell & 1 == 1
        {
            let mv = match distance(from, cell) {
                1 => Some(Move::clone_to(cell)),
                2 => Some(Move::jump(from, cell)),
                _ => None,
            };
            if let Some(mv) = mv {
                return State::Animating {
                    frames: ANIMATION_FRAMES,
                    mv,
                };
            }
        }
        self.rejected_presses += 1;
        State::Turn { selected, wait }
    }

    fn bonus(&mut self, stopped: usize, tick: u32, human: bool, pressed: Buttons) -> State {
        let mut stopped = stopped;
        let stop_now = if human {
            pressed.contains(Buttons::A)
        } else {
            self.rng.gen_range(0..20) == 0
        };
        if stop_now {
            stopped += 1;
        }
        if stopped >= 3 {
            return self.resolve_bonus();
        }
        if tick % REEL_STEP_FRAMES == REEL_STEP_FRAMES - 1 {
            for reel in &mut self.reels[stopped..] {
                *reel = (*reel + 1) % self.bonus.reel_positions;
            }
        }
        State::Bonus {
            stopped,
            tick: tick + 1,
        }
    }

    fn resolve_bonus(&mut self) -> State {
        let slot = self.slot_to_move();
        self.bonus_results.push((slot, self.reels));
        let [a, b, c] = self.reels;
        let symbol = if a == b && b == c { Some(a) } else { None };
        let human = self.is_human(slot);
        let kind = match symbol {
            Some(s) if s == self.bonus.reel_spot => Kind::ExtraTurn,
            Some(s) if s == self.bonus.reel_cherry => Kind::Cherry,
            Some(s) if s == self.bonus.reel_arcadia => Kind::Swap,
            _ => Kind::NoPrize,
        };
        let mut prizes = Vec::new();
        self.pos.generate(&mut prizes);
        prizes.retain(|m| m.kind == kind);
        match kind {
            Kind::Cherry | Kind::Swap if !prizes.is_empty() && human => State::Prize {
                kind,
                selected: None,
            },
            Kind::Cherry | Kind::Swap if !prizes.is_empty() => {
                let mv = prizes[self.rng.gen_range(0..prizes.len())];
                self.apply(mv)
            }
            Kind::ExtraTurn => self.apply(Move::prize(Kind::ExtraTurn, NO_SQUARE, NO_SQUARE)),
            _ => self.apply(Move::prize(Kind::NoPrize, NO_SQUARE, NO_SQUARE)),
        }
    }

    fn prize(&mut self, kind: Kind, selected: Option<u8>, human: bool, pressed: Buttons) -> State {
        debug_assert!(human, "computer prizes are applied at once");
        self.move_cursor(pressed);
        if !pressed.contains(Buttons::A) {
            return State::Prize { kind, selected };
        }
        let cell = self.cursor;
        let me = self.pos.to_move();
        let owner = self.pos.owner(cell);
        match kind {
            Kind::Cherry if owner == Some(me) => {
                return State::Prize {
                    kind,
                    selected: Some(cell),
                };
            }
            Kind::Cherry if selected.is_some() && self.pos.empty() >> cell & 1 == 1 => {
                return self.apply(Move::prize(Kind::Cherry, selected.unwrap_or(cell), cell));
            }
            Kind::Swap => {
                if let Some(q) = owner.filter(|&q| q != me) {
                    return self.apply(Move::prize(Kind::Swap, NO_SQUARE, q as u8));
                }
            }
            _ => {}
        }
        self.rejected_presses += 1;
        State::Prize { kind, selected }
    }

    fn apply(&mut self, mv: Move) -> State {
        self.history.push((self.slot_to_move(), mv));
        self.pos = self.pos.play(mv);
        if self.pos.is_over() {
            State::Over
        } else if self.pos.bonus_pending() {
            self.start_bonus();
            self.state
        } else {
            State::Turn {
                selected: None,
                wait: 0,
            }
        }
    }

    /// One cell per D-pad press; the cursor stops at the edges.
    fn move_cursor(&mut self, pressed: Buttons) {
        if pressed.0 & 0xF0 != 0 {
            self.dpad_presses += 1;
            if self.drop_dpad_every > 0 && self.dpad_presses.is_multiple_of(self.drop_dpad_every) {
                return;
            }
        }
        let (r, c) = row_col(self.cursor);
        let (mut r, mut c) = (r as i32, c as i32);
        if pressed.contains(Buttons::UP) {
            r -= 1;
        } else if pressed.contains(Buttons::DOWN) {
            r += 1;
        } else if pressed.contains(Buttons::LEFT) {
            c -= 1;
        } else if pressed.contains(Buttons::RIGHT) {
            c += 1;
        }
        let last = SIDE as i32 - 1;
        self.cursor = (r.clamp(0, last) * SIDE as i32 + c.clamp(0, last)) as u8;
    }
}

fn distance(a: u8, b: u8) -> usize {
    let ((ar, ac), (br, bc)) = (row_col(a), row_col(b));
    ar.abs_diff(br).max(ac.abs_diff(bc))
}

/// Squares of the player in `slot` (for tests).
pub fn squares_of(host: &RamHost, slot: usize) -> Vec<u8> {
    host.slots()
        .iter()
        .position(|&s| s == slot)
        .map_or(Vec::new(), |p| Bits(host.position().pieces(p)).collect())
}

impl RamGame for RamHost {
    fn image(&self) -> &RamImage {
        &self.image
    }
    fn image_mut(&mut self) -> &mut RamImage {
        &mut self.image
    }
}
