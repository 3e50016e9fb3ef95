//! `CartTable`: a game on the DOTS cart in the emulator with every seat played from outside,
//! one move at a time (the cart backend of the Python PettingZoo environments).
//!
//! Power-on walks the title menu through the pad (every slot in play HUMAN, the rest OFF,
//! animations off) and keeps that machine; each reset starts from a copy of it, waits a
//! seeded number of frames (the cart steps its RNG once a frame, so the wait draws the
//! layout, the third corner and the first mover) and presses Start. A move is entered with
//! the Spot plug-in's own button plans (`play::plan_for` / `next_press`: the hand walked a
//! cell per press, A on the source, A on the destination, each press held for the map's press
//! frames and released as long) on the mover's pad. The board, the player to move and the
//! end come back from RAM through the cart's own definitions (`CartFacts::truth_map`).
//!
//! The cart passes a player with no move by itself; the table keeps such a player to move
//! until its PASS is played here, so the seats take turns exactly as in the rules model. The
//! board after every move is checked against the rules (a disagreement is an error, not a
//! silently different game).

use super::cart::{self, CartFacts, MENU_LINES, SETTING_HUMAN};
use super::variant::Cart;
use crate::moves::{Kind, Move};
use crate::play::{Next, next_press, plan_for};
use crate::position::{MAX_PLAYERS, Outcome, Position};
use crate::ram_map::RamMap;
use nesmind_host::{Buttons, Fork, Frame, Rom, Session};

const LAYOUTS_S: &str = include_str!("../../cart/src/layouts.s");

/// Frames the cart may take to react (to a press, a move, a pass, Start) before the table
/// gives up; the committed cart needs a handful with animations off.
const PATIENCE: u32 = 600;
/// Title frames before Start are 1..=WAITS, drawn from the seed. The title starts a game by
/// itself after 300 frames without input, so the wait stays well below.
const WAITS: u64 = 256;

/// The built-in layout numbers the cart offers, in its menu's order (LAYOUT_CHOICE k is the
/// k-th, 1-based; 0 draws one at random).
pub fn offered_layouts() -> Vec<u16> {
    let Some(start) = LAYOUTS_S.find(".define LAYOUTS") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for line in LAYOUTS_S[start + ".define LAYOUTS".len()..].lines() {
        let code = line.split(';').next().unwrap_or("").trim();
        let (body, more) = match code.strip_suffix('\\') {
            Some(b) => (b, true),
            None => (code, false),
        };
        out.extend(body.split(',').filter_map(|s| s.trim().parse::<u16>().ok()));
        if !more {
            break;
        }
    }
    out
}

fn splitmix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// How a game on the table ended (or not yet).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Playing,
    /// The cart showed its game-over screen; the winning seat, `None` for a draw.
    Over(Option<usize>),
}

pub struct CartTable {
    facts: CartFacts,
    map: RamMap,
    players: usize,
    /// The machine on the title screen with the seats set (a reset copies it).
    title: Fork,
    /// The layout line's setting when a layout was asked for (else drawn per reset).
    choice: Option<u8>,
    /// Layouts on the cart's menu.
    offered: usize,
    machine: Fork,
    started: bool,
    /// The position the seats see: the cart's board, and the player to move by the rules.
    view: Position,
    /// The seat the cart waits for (differs from the view's only while passes are owed).
    cart_mover: usize,
    end: End,
    layout: u16,
    first: usize,
    /// Frames run since the last reset.
    pub frames: u64,
}

impl CartTable {
    /// Powers `cart` on and sets its title menu for `players` seats; `layout` is a built-in
    /// layout number the cart offers (see `offered_layouts`), `None` for one drawn from
    /// each reset's seed.
    pub fn new(cart: &Cart, players: usize, layout: Option<u16>) -> Result<CartTable, String> {
        if !(2..=MAX_PLAYERS).contains(&players) {
            return Err(format!("DOTS has 2-4 players, not {players}"));
        }
        let offered = offered_layouts();
        let choice = match layout {
            None => None,
            Some(n) => match offered.iter().position(|&l| l == n) {
                Some(i) => Some(i as u8 + 1),
                None => {
                    return Err(format!(
                        "layout {n} is not among the cart's layouts {offered:?}"
                    ));
                }
            },
        };
        let rom = Rom::parse(&cart.image, &cart.file_name).map_err(|e| e.to_string())?;
        let mut session = Session::new(rom)?;
        session.machine_mut().set_audio_enabled(false);
        // Slots 3 and 4 read their pads through a Four Score, as in the window.
        session.machine_mut().set_four_score(players > 2);
        let machine = Fork::new(session.machine());
        let facts = cart.facts.clone();
        let map = facts.truth_map().ok_or(
            "the table reads the board from RAM: it needs a cart of the classic family \
             (one byte per cell), not a wide variant",
        )?;
        let view = Position::new(players, 0, [0; MAX_PLAYERS], 0)?;
        let mut t = CartTable {
            facts,
            map,
            players,
            title: machine.clone(),
            choice,
            offered: offered.len(),
            machine,
            started: false,
            view,
            cart_mover: 0,
            end: End::Playing,
            layout: 0,
            first: 0,
            frames: 0,
        };
        t.reach_title()?;
        let mut wanted = [Some(0); MENU_LINES];
        wanted[..players].fill(Some(SETTING_HUMAN));
        wanted[4] = Some(choice.unwrap_or(0));
        wanted[5] = Some(0); // animations off
        t.walk_menu(&wanted)?;
        t.title = t.machine.clone();
        Ok(t)
    }

    fn run(&mut self, frames: u64) -> Result<(), String> {
        self.frames += frames;
        self.machine.run_frames(frames)
    }

    /// Holds `buttons` on `pad` for the map's press frames, then releases as long.
    fn press(&mut self, pad: usize, buttons: Buttons) -> Result<(), String> {
        let hold = u64::from(self.map.press_frames.max(1));
        self.machine.set_buttons(pad, buttons);
        self.run(hold)?;
        self.machine.set_buttons(pad, Buttons::NONE);
        self.run(hold)
    }

    fn phase(&self) -> u8 {
        self.machine.peek(self.facts.addr("CART_PHASE"))
    }

    /// From power-on to the title screen.
    fn reach_title(&mut self) -> Result<(), String> {
        let (mode, title) = (self.facts.addr("MODE"), self.facts.byte("MODE_TITLE"));
        let mut waited = 0;
        while !(self.phase() == cart::PHASE_TITLE && self.machine.peek(mode) == title) {
            if waited > PATIENCE {
                return Err("the cart never showed its title screen".into());
            }
            if self.phase() == cart::PHASE_SPLASH {
                self.press(0, Buttons::START)?;
            } else {
                self.run(1)?;
            }
            waited += 1;
        }
        Ok(())
    }

    /// Presses on pad 1 until the title menu shows `wanted` (`None` lines left alone).
    fn walk_menu(&mut self, wanted: &[Option<u8>; MENU_LINES]) -> Result<(), String> {
        for _ in 0..PATIENCE {
            match cart::menu_press(&self.machine, &self.facts, wanted) {
                Some(b) => self.press(0, b)?,
                None => return Ok(()),
            }
        }
        Err("the title menu did not take the settings".into())
    }

    /// Starts a game from the title as power-on left it. `seed` draws the layout (unless
    /// one was asked for), set on the menu, and how long the title then waits before Start:
    /// the cart's RNG, stepped once a frame, draws the first mover and the third corner.
    /// (Left to the cart, the layout would come from the same 256 waits, which reach only
    /// some of the layout, corner and first-mover combinations.)
    pub fn reset(&mut self, seed: u64) -> Result<(), String> {
        self.machine = self.title.clone();
        self.frames = 0;
        self.started = false;
        self.end = End::Playing;
        let draw = splitmix(seed);
        let choice = self
            .choice
            .unwrap_or(1 + (splitmix(draw) % self.offered as u64) as u8);
        let mut wanted = [None; MENU_LINES];
        wanted[4] = Some(choice);
        self.walk_menu(&wanted)?;
        self.run(1 + draw % WAITS)?;
        self.press(0, Buttons::START)?;
        let mut waited = 0;
        while self.phase() != cart::PHASE_PLAYING {
            waited += 1;
            if waited > PATIENCE {
                return Err("Start did not begin a game".into());
            }
            self.run(1)?;
        }
        let a = self.facts.addr("LAYOUT_NUMBER");
        self.layout = u16::from_le_bytes([self.machine.peek(a), self.machine.peek(a + 1)]);
        self.first = usize::from(self.machine.peek(self.facts.addr("FIRST_MOVER")));
        self.settle(None, None)?;
        self.started = true;
        Ok(())
    }

    /// Runs the cart until it waits for a seat with a move or shows the game over. After a
    /// move (`before`: the board it was made on, `mover` its seat) the board must have
    /// changed first; the view's player to move follows the rules from the mover.
    fn settle(&mut self, before: Option<[u8; 49]>, mover: Option<usize>) -> Result<(), String> {
        let screen = self.map.screen.expect("the cart's map has screen bytes");
        for _ in 0..PATIENCE {
            let board = self.map.board_bytes(&self.machine);
            let moved = before.is_none_or(|b| b != board);
            let phase = self.phase();
            if moved && phase == cart::PHASE_OVER {
                return self.read_end();
            }
            let waiting = self.machine.peek(screen.animation) == screen.idle
                && self.machine.peek(screen.playing) != 0;
            if moved && phase == cart::PHASE_PLAYING && waiting {
                let (pos, _) = self.map.decode(&self.machine, false)?;
                let mut legal = Vec::new();
                pos.generate(&mut legal);
                if legal != [Move::PASS] {
                    return self.read_turn(pos, mover);
                }
            }
            self.run(1)?;
        }
        Err(format!(
            "the cart did not get to a player's turn or the game's end in {PATIENCE} frames"
        ))
    }

    fn with_mover(pos: &Position, seat: usize) -> Result<Position, String> {
        let pieces = std::array::from_fn(|p| pos.pieces(p));
        Position::new(pos.players(), pos.blocked(), pieces, seat)
    }

    fn read_turn(&mut self, pos: Position, mover: Option<usize>) -> Result<(), String> {
        self.cart_mover = pos.to_move();
        self.view = match mover {
            // The rules' next player after the mover: a PASS from the mover's seat.
            Some(m) => Self::with_mover(&pos, m)?.play(Move::PASS),
            None => pos,
        };
        self.check_turn()
    }

    /// The view's mover is the cart's, or a player the cart passed (who has no move).
    fn check_turn(&self) -> Result<(), String> {
        if self.view.to_move() == self.cart_mover {
            return Ok(());
        }
        let mut legal = Vec::new();
        self.view.legal_moves(&mut legal);
        if legal == [Move::PASS] {
            return Ok(());
        }
        Err(format!(
            "the cart waits for seat {} but by the rules seat {} moves",
            self.cart_mover,
            self.view.to_move()
        ))
    }

    fn read_end(&mut self) -> Result<(), String> {
        let (pos, _) = self.map.decode(&self.machine, false)?;
        if !pos.is_over() {
            return Err("the cart ended a game the rules say goes on".into());
        }
        let winner = match self.machine.peek(self.facts.addr("WINNER")) {
            0xFF => None,
            s => Some(usize::from(s)),
        };
        let by_rules = match pos.ranking_outcome() {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
        };
        if winner != by_rules {
            return Err(format!(
                "the cart names winner {winner:?}, the counts say {by_rules:?}"
            ));
        }
        self.view = pos;
        self.end = End::Over(winner);
        Ok(())
    }

    fn require_started(&self) -> Result<(), String> {
        match (self.started, self.end) {
            (false, _) => Err("no game: call reset first".into()),
            (true, End::Over(_)) => Err("the game is over".into()),
            (true, End::Playing) => Ok(()),
        }
    }

    /// Plays `mv` (legal for the view's player to move): a PASS only settles a pass the
    /// cart already made; a step is entered with the pad and the cart's answer read back.
    pub fn play(&mut self, mv: Move) -> Result<(), String> {
        self.require_started()?;
        let mut legal = Vec::new();
        self.view.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            return Err(format!(
                "{mv} is not legal for seat {} now",
                self.view.to_move()
            ));
        }
        if mv == Move::PASS {
            self.view = self.view.play(mv);
            return self.check_turn();
        }
        if mv.kind != Kind::Step {
            return Err(format!("{mv} is not a move of this cart"));
        }
        let seat = self.view.to_move();
        let expected = self.view.play(mv);
        let board = self.map.board_bytes(&self.machine);
        let mut plan = plan_for(&self.map, board, &self.view, mv, seat, 0)?;
        let mut waited = 0;
        loop {
            let next = if self.map.screen_idle(&self.machine) == Some(false) {
                Next::Wait
            } else {
                next_press(&mut plan, &self.map, &self.machine)
            };
            match next {
                Next::Press { buttons, .. } => {
                    self.press(plan.pad, buttons)?;
                    waited = 0;
                }
                Next::BoardChanged => break,
                Next::Wait => {
                    waited += 1;
                    if waited > PATIENCE {
                        return Err(format!("the cart did not take {mv}"));
                    }
                    self.run(1)?;
                }
                Next::Lost => return Err("the hand cursor reads as no cell".into()),
                Next::NoLongerLegal => return Err(format!("{mv} no longer legal on the cart")),
            }
        }
        self.settle(Some(board), Some(seat))?;
        if (0..self.players).any(|p| self.view.pieces(p) != expected.pieces(p)) {
            return Err(format!(
                "seat {seat} played {mv} but the cart's board differs from the rules"
            ));
        }
        Ok(())
    }

    /// The position the seats see (the cart's board).
    pub fn position(&self) -> &Position {
        &self.view
    }

    pub fn end(&self) -> End {
        self.end
    }

    pub fn players(&self) -> usize {
        self.players
    }

    /// The built-in layout number the cart drew (or was given) for this game.
    pub fn layout(&self) -> u16 {
        self.layout
    }

    /// The seat that moved first this game.
    pub fn first_mover(&self) -> usize {
        self.first
    }

    /// The machine, for its picture.
    pub fn machine(&self) -> &Fork {
        &self.machine
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::demo::committed_cart;
    use crate::layouts::builtin_layout;

    #[test]
    fn the_offered_layouts_are_the_carts_list() {
        let l = offered_layouts();
        assert_eq!(l.len(), 32);
        assert_eq!((l[0], l[1], l[31]), (0, 256, 97));
        assert!(l.iter().all(|&n| builtin_layout(n as usize).is_ok()));
    }

    #[test]
    fn moves_entered_with_the_pad_land_as_the_rules_say() {
        let mut t = CartTable::new(&committed_cart(), 3, Some(4)).unwrap();
        t.reset(7).unwrap();
        assert_eq!(t.layout(), 4);
        assert_eq!(t.position().blocked(), builtin_layout(4).unwrap());
        let mut legal = Vec::new();
        for _ in 0..300 {
            if t.end() != End::Playing {
                break;
            }
            let before = *t.position();
            before.legal_moves(&mut legal);
            // The last legal move: jumps as well as clones get entered.
            let mv = *legal.last().unwrap();
            t.play(mv).unwrap();
            let after = before.play(mv);
            for p in 0..3 {
                assert_eq!(t.position().pieces(p), after.pieces(p));
            }
            if t.end() == End::Playing {
                assert_eq!(t.position().to_move(), after.to_move());
            }
        }
        let pos = *t.position();
        assert!(pos.is_over());
        let winner = match pos.ranking_outcome() {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
        };
        assert_eq!(t.end(), End::Over(winner));
        assert!(t.play(Move::PASS).unwrap_err().contains("over"));
        t.reset(7).unwrap();
        assert!(t.play(Move::jump(0, 48)).unwrap_err().contains("not legal"));
        let other = CartTable::new(&committed_cart(), 2, Some(3));
        assert!(other.err().unwrap().contains("not among"));
    }

    #[test]
    fn a_seed_gives_one_game_and_seeds_spread_over_the_layouts() {
        let mut t = CartTable::new(&committed_cart(), 2, None).unwrap();
        let offered = offered_layouts();
        let mut layouts = Vec::new();
        for seed in 0..8 {
            t.reset(seed).unwrap();
            let start = (t.layout(), t.first_mover(), *t.position());
            assert!(offered.contains(&start.0));
            assert_eq!(start.2.blocked(), builtin_layout(start.0 as usize).unwrap());
            assert_eq!(start.2.to_move(), start.1);
            t.reset(seed).unwrap();
            assert_eq!((t.layout(), t.first_mover(), *t.position()), start);
            layouts.push(start.0);
        }
        layouts.sort_unstable();
        layouts.dedup();
        assert!(layouts.len() >= 4, "8 seeds drew layouts {layouts:?}");
    }
}
