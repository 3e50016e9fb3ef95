//! The harness side of a demo game: a plug-in that sets the cart's title menu through pad 1
//! (closed loop: it reads the menu back from RAM), presses Start after a chosen number of
//! frames (which seeds the cart's RNG), lets the Spot plug-in play, and checks every move
//! the cart makes against the rules model. It knows the cart's RAM from its definitions
//! (`cart.rs`); the Spot plug-in is told nothing and calibrates.

use super::cart::{self, CartFacts};
use crate::bots::nes_move_rating;
use crate::layouts::builtin_layout;
use crate::moves::Move;
use crate::plugin::SpotPlugin;
use crate::position::{Outcome, Position};
use crate::ram_map::RamMap;
use nesmind_host::ramsearch::Snapshot;
use nesmind_host::{Buttons, Frame, Plugin, RomInfo, Setup};
use std::sync::{Arc, Mutex};

/// Frames without a board change during play after which the game counts as stuck.
const STUCK_FRAMES: u64 = 1800;

/// What one worker plays.
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub games: usize,
    /// Menu setting per slot: 0 off, 1-5 computer level, 6 human (played by the plug-in).
    pub settings: [u8; 4],
    pub animations: bool,
    /// Frames waited on the title screen before each Start: drawn from this seed.
    pub seed: u64,
    /// A game still running after this many frames is an error.
    pub max_game_frames: u64,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub layout: u16,
    /// Slot that moved first.
    pub first: usize,
    /// (slot, final count) for every slot in the game.
    pub counts: Vec<(usize, u32)>,
    /// Winning slot; `None` for a draw.
    pub winner: Option<usize>,
    pub plugin_won: bool,
    pub frames: u64,
}

/// Everything a worker saw; shared with the thread running the session.
#[derive(Debug, Default)]
pub struct Report {
    pub games: Vec<GameRecord>,
    /// Problems: a stuck game, an illegal or wrongly applied move, a wrong result.
    pub errors: Vec<String>,
    /// Moves of level-5 computer seats checked against the heuristic ...
    pub cpu_moves: u32,
    /// ... and how many of them were not among its best-rated moves.
    pub cpu_off_model: u32,
    /// A presses the cart refused (it counts them in RAM).
    pub refused_presses: u32,
    /// Moves entered by the plug-in.
    pub plugin_moves: u64,
    /// Moves checked, per slot that made them.
    pub moves_by_slot: [u32; 4],
    /// What the plug-in's calibration found (one per machine), and the fork frames it took.
    pub calibrations: Vec<(RamMap, u64, u64)>,
    pub done: bool,
}

impl Report {
    /// Adds another worker's report (its games after these).
    pub fn absorb(&mut self, r: Report) {
        self.games.extend(r.games);
        self.errors.extend(r.errors);
        self.cpu_moves += r.cpu_moves;
        self.cpu_off_model += r.cpu_off_model;
        self.refused_presses += r.refused_presses;
        self.plugin_moves += r.plugin_moves;
        self.calibrations.extend(r.calibrations);
        for (t, n) in self.moves_by_slot.iter_mut().zip(r.moves_by_slot) {
            *t += n;
        }
    }
}

pub struct Driver {
    inner: SpotPlugin,
    cfg: RunConfig,
    facts: CartFacts,
    /// The cart's RAM as a map (the truth), for the checks.
    map: RamMap,
    report: Arc<Mutex<Report>>,
    release: bool,
    wait: u32,
    seed: u64,
    phase: u8,
    phase_frames: u64,
    game_frames: u64,
    still_frames: u64,
    board: Vec<u8>,
    idle: Option<Snapshot>,
    refused: u8,
    calibration_noted: bool,
}

impl Driver {
    pub fn new(
        inner: SpotPlugin,
        cfg: RunConfig,
        facts: CartFacts,
        report: Arc<Mutex<Report>>,
    ) -> Driver {
        let mut d = Driver {
            inner,
            map: facts.truth_map(),
            facts,
            report,
            release: false,
            wait: 0,
            seed: cfg.seed,
            phase: 0xFF,
            phase_frames: 0,
            game_frames: 0,
            still_frames: 0,
            board: Vec::new(),
            idle: None,
            refused: 0,
            calibration_noted: false,
            cfg,
        };
        d.wait = d.next_wait();
        d
    }

    /// 1-96 frames on the title screen: a splitmix64 step of the run's seed.
    fn next_wait(&mut self) -> u32 {
        self.seed = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) as u32 % 96 + 1
    }

    fn fail(&self, why: String) {
        let mut r = self.report.lock().expect("report lock");
        r.errors.push(why);
        r.done = true;
    }

    fn press(&mut self, frame: &mut dyn Frame, buttons: Buttons) {
        frame.set_buttons(0, buttons);
        self.release = true;
    }

    /// Title screen: walk the menu to the configured values, then wait and press Start.
    fn title(&mut self, frame: &mut dyn Frame) {
        if self.report.lock().expect("report lock").games.len() >= self.cfg.games {
            self.report.lock().expect("report lock").done = true;
            return;
        }
        let mut wanted = [Some(0); cart::MENU_LINES];
        for (w, &s) in wanted.iter_mut().zip(&self.cfg.settings) {
            *w = Some(s);
        }
        // Line 4 (layout) stays 0: random.
        wanted[5] = Some(u8::from(self.cfg.animations));
        if let Some(button) = cart::menu_press(frame, &self.facts, &wanted) {
            self.press(frame, button);
        } else if self.wait > 0 {
            self.wait -= 1;
        } else {
            self.press(frame, Buttons::START);
            self.wait = self.next_wait();
        }
    }

    fn map(&self) -> &RamMap {
        &self.map
    }

    fn byte(&self, ram: &Snapshot, name: &str) -> u8 {
        ram.byte(self.facts.addr(name)).unwrap_or(0)
    }

    fn layout_number(&self, ram: &Snapshot) -> u16 {
        let a = self.facts.addr("LAYOUT_NUMBER");
        u16::from_le_bytes([ram.byte(a).unwrap_or(0), ram.byte(a + 1).unwrap_or(0)])
    }

    /// First frame of a game: the board must be the announced built-in layout.
    fn game_started(&mut self, ram: &Snapshot) {
        self.game_frames = 0;
        self.still_frames = 0;
        self.idle = None;
        let number = self.layout_number(ram);
        match (
            self.map().decode(ram, false),
            builtin_layout(number as usize),
        ) {
            (Ok((pos, _)), Ok(blocked)) if pos.blocked() == blocked => {}
            (Ok((pos, _)), _) => self.fail(format!(
                "layout {number}: blocked cells {:013X} are not the built-in layout",
                pos.blocked()
            )),
            (Err(e), _) => self.fail(format!("game start: {e}")),
        }
    }

    /// During play: notice a stuck game and check each move between two idle frames.
    fn watch(&mut self, ram: &Snapshot) {
        self.game_frames += 1;
        let board = self.map().board_bytes(ram).to_vec();
        if board == self.board {
            self.still_frames += 1;
        } else {
            self.still_frames = 0;
            self.board = board;
        }
        if self.still_frames > STUCK_FRAMES {
            let why = match (self.inner.failure(), self.inner.problem()) {
                (Some(f), _) => format!(" (the plug-in stopped: {f})"),
                (None, Some(p)) => format!(" (the plug-in is still calibrating: {p})"),
                (None, None) => String::new(),
            };
            self.fail(format!(
                "stuck: no move for {STUCK_FRAMES} frames (slot {:?} to move, cursor at cell {:?}){why}",
                self.map.slot_to_move(ram).map(|s| s + 1),
                self.map.cursor_cell(ram)
            ));
        }
        if self.game_frames > self.cfg.max_game_frames {
            self.fail(format!(
                "a game lasted more than {} frames",
                self.cfg.max_game_frames
            ));
        }
        let refused = self.byte(ram, "REFUSED");
        if refused != self.refused {
            self.refused = refused;
            let why = format!(
                "the cart refused an A press: slot {:?} to move, hand on cell {:?}, picked-up cell {}",
                self.map.slot_to_move(ram).map(|s| s + 1),
                self.map.cursor_cell(ram),
                self.byte(ram, "selected")
            );
            self.report.lock().expect("report lock").errors.push(why);
        }
        let screen = self.map.screen.expect("the truth map has screen bytes");
        let idle =
            ram.byte(screen.animation) == Some(screen.idle) && ram.byte(screen.playing) != Some(0);
        if !idle {
            return;
        }
        if let Some(before) = self.idle.take()
            && let Err(e) = self.check_turn(&before, ram)
        {
            self.fail(e);
        }
        self.idle = Some(ram.clone());
    }

    /// Between two idle frames: either the slot to move made a move, or it passed (and then
    /// must have had none), or nothing happened yet.
    fn check_turn(&mut self, before: &Snapshot, after: &Snapshot) -> Result<(), String> {
        let map = self.map();
        if map.board_bytes(before) != map.board_bytes(after) {
            return self.check_move(before, after);
        }
        let slot = map.slot_to_move(before).ok_or("no slot to move")?;
        if Some(slot) == map.slot_to_move(after) {
            return Ok(());
        }
        let (pos, _) = map.decode(before, false)?;
        let mut legal = Vec::new();
        pos.generate(&mut legal);
        if legal != [Move::PASS] {
            return Err(format!(
                "slot {} was passed over with {} moves to choose from",
                slot + 1,
                legal.len()
            ));
        }
        Ok(())
    }

    /// The move between two idle positions must be legal and applied as the rules say; a
    /// level-5 computer's move must be one of the heuristic's best.
    fn check_move(&mut self, before: &Snapshot, after: &Snapshot) -> Result<(), String> {
        let map = self.map();
        let (pos, _) = map.decode(before, false)?;
        let (now, _) = map.decode(after, false)?;
        let slot = map.slot_to_move(before).ok_or("no slot to move")?;
        if pos.is_over() {
            return Err(format!(
                "slot {} moved after the game was over by the rules",
                slot + 1
            ));
        }
        let mv = find_move(&pos, &now)
            .ok_or_else(|| format!("slot {} changed the board with no single move", slot + 1))?;
        let mut legal = Vec::new();
        pos.generate(&mut legal);
        if !legal.contains(&mv) {
            return Err(format!("slot {} played {mv}, not a legal move", slot + 1));
        }
        if pos.play(mv).all_pieces() != now.all_pieces() {
            return Err(format!(
                "slot {} played {mv} but the cart's board differs from the rules",
                slot + 1
            ));
        }
        let level = before
            .byte(self.facts.addr("SETTINGS") + slot as u16)
            .unwrap_or(0);
        let mut r = self.report.lock().expect("report lock");
        r.moves_by_slot[slot] += 1;
        if level == 5 {
            let best = legal.iter().map(|&m| nes_move_rating(&pos, m)).max();
            r.cpu_moves += 1;
            if best != Some(nes_move_rating(&pos, mv)) {
                r.cpu_off_model += 1;
            }
        }
        Ok(())
    }

    /// The game just ended: record it and check the last move and the cart's verdict
    /// against the model.
    fn game_ended(&mut self, ram: &Snapshot) {
        if let Some(before) = self.idle.take()
            && let Err(e) = self.check_turn(&before, ram)
        {
            self.fail(e);
        }
        let (pos, slots) = match self.map().decode(ram, false) {
            Ok(p) => p,
            Err(e) => return self.fail(format!("game end: {e}")),
        };
        if !pos.is_over() {
            self.fail("the cart ended a game the rules say goes on".into());
        }
        let winner = match pos.ranking_outcome() {
            Outcome::Win(p) => Some(slots[p]),
            Outcome::Draw => None,
        };
        let cart_winner = match self.byte(ram, "WINNER") {
            0xFF => None,
            s => Some(s as usize),
        };
        if cart_winner != winner {
            self.fail(format!(
                "the cart names winner {cart_winner:?}, the counts say {winner:?}"
            ));
        }
        let settings = self.facts.addr("SETTINGS");
        let record = GameRecord {
            layout: self.layout_number(ram),
            first: self.byte(ram, "FIRST_MOVER") as usize,
            counts: slots
                .iter()
                .enumerate()
                .map(|(p, &s)| (s, pos.count(p)))
                .collect(),
            winner,
            plugin_won: winner
                .is_some_and(|s| ram.byte(settings + s as u16) == Some(cart::SETTING_HUMAN)),
            frames: self.game_frames,
        };
        let mut r = self.report.lock().expect("report lock");
        r.games.push(record);
        r.refused_presses = u32::from(self.byte(ram, "REFUSED"));
        r.plugin_moves = self.inner.moves_entered;
        for e in self.inner.errors.drain(..) {
            r.errors.push(format!("plug-in: {e}"));
        }
    }
}

/// The single step that turns `pos` into `now` (the mover's new cell, and the cell it left).
pub(super) fn find_move(pos: &Position, now: &Position) -> Option<Move> {
    let me = pos.to_move();
    let gained = now.pieces(me) & pos.empty();
    let left = pos.pieces(me) & now.empty();
    if gained.count_ones() != 1 || left.count_ones() > 1 {
        return None;
    }
    let to = gained.trailing_zeros() as u8;
    Some(match left {
        0 => Move::clone_to(to),
        l => Move::jump(l.trailing_zeros() as u8, to),
    })
}

impl Plugin for Driver {
    fn name(&self) -> &str {
        "spot-demo"
    }
    fn description(&self) -> &str {
        "Sets up the DOTS cart's games and lets the Spot plug-in play them"
    }
    fn on_attach(&mut self, rom: &RomInfo, setup: &mut dyn Setup) -> Result<(), String> {
        self.inner.on_attach(rom, setup)
    }

    fn on_frame(&mut self, frame: &mut dyn Frame) {
        let released = std::mem::take(&mut self.release);
        if released {
            frame.set_buttons(0, Buttons::NONE);
        }
        if self.report.lock().expect("report lock").done {
            return;
        }
        let phase = frame.peek(self.facts.addr("CART_PHASE"));
        if phase != self.phase {
            self.phase_frames = 0;
        }
        let entering = phase != self.phase;
        self.phase = phase;
        self.phase_frames += 1;
        match phase {
            cart::PHASE_TITLE if !released => self.title(frame),
            cart::PHASE_SPLASH if !released && self.phase_frames % 8 == 4 => {
                self.press(frame, Buttons::START);
            }
            cart::PHASE_PLAYING => {
                let ram = Snapshot::take(frame, self.facts.board_in_prg_ram());
                if entering {
                    self.game_started(&ram);
                }
                self.watch(&ram);
                self.inner.on_frame(frame);
                self.note_calibration();
                if let Err(e) = self.check_reading(&ram) {
                    self.fail(e);
                }
            }
            cart::PHASE_OVER => {
                self.inner.on_frame(frame);
                if entering {
                    let ram = Snapshot::take(frame, self.facts.board_in_prg_ram());
                    self.game_ended(&ram);
                } else if self.phase_frames == 4 {
                    self.press(frame, Buttons::START);
                }
            }
            _ => {}
        }
    }

    fn result(&self) -> Option<String> {
        self.inner.result()
    }
}

impl Driver {
    /// On an idle frame, the plug-in's map (calibrated) must read what the cart's own
    /// definitions read: the same pieces, blocked cells, player to move and hand cell.
    fn check_reading(&self, ram: &Snapshot) -> Result<(), String> {
        let (Some(found), Some(screen)) = (self.inner.map(), self.map.screen) else {
            return Ok(());
        };
        let idle =
            ram.byte(screen.animation) == Some(screen.idle) && ram.byte(screen.playing) != Some(0);
        if !idle {
            return Ok(());
        }
        let (truth, _) = self.map.decode(ram, false)?;
        let (seen, _) = found
            .decode(ram, false)
            .map_err(|e| format!("the plug-in's map cannot read an idle position: {e}"))?;
        if truth.all_pieces() != seen.all_pieces()
            || truth.blocked() != seen.blocked()
            || truth.to_move() != seen.to_move()
        {
            return Err(format!(
                "the plug-in's map ({}) reads an idle position differently from the cart's definitions",
                found.name
            ));
        }
        let hand = self.map.cursor_cell(ram);
        if hand.is_some() && found.cursor_cell(ram) != hand {
            return Err(format!(
                "the plug-in's map reads the hand on cell {:?}, the cart has it on {hand:?}",
                found.cursor_cell(ram)
            ));
        }
        Ok(())
    }

    /// Records what the plug-in's calibration found, once, and stops the run if it gave up.
    fn note_calibration(&mut self) {
        if self.calibration_noted {
            return;
        }
        if let Some(c) = &self.inner.calibration {
            self.calibration_noted = true;
            let mut r = self.report.lock().expect("report lock");
            r.calibrations.push((c.map.clone(), c.frame, c.fork_frames));
        } else if let Some(why) = self.inner.failure() {
            self.calibration_noted = true;
            let why = format!("the plug-in stopped: {why}");
            self.fail(why);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layouts::parse_fen;

    #[test]
    fn moves_are_read_back_from_two_boards() {
        let before = parse_fen("x5o/7/7/7/7/7/o5x x", 2).unwrap();
        let clone = before.play(Move::clone_to(1));
        assert_eq!(find_move(&before, &clone), Some(Move::clone_to(1)));
        let jump = before.play(Move::jump(0, 2));
        assert_eq!(find_move(&before, &jump), Some(Move::jump(0, 2)));
        // Two new pieces from nowhere is no single move.
        let odd = parse_fen("xx4o/1x5/7/7/7/7/o5x o", 2).unwrap();
        assert_eq!(find_move(&before, &odd), None);
    }
}
