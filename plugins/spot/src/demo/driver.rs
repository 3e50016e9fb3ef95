//! The harness side of a demo game: a plug-in that sets the cart's title menu through pad 1
//! (closed loop: it reads the menu back from RAM), presses Start after a chosen number of
//! frames (which seeds the cart's RNG), lets the Spot plug-in play (when a slot is set to
//! HUMAN; otherwise the cart's computer plays every slot), and checks every move and every
//! result against the rules model from the cart's test port (`port.rs`): the board as the
//! cart's own storage module decodes it whenever a turn begins, so the check does not depend
//! on how the board is kept. It knows the cart's menu bytes from its definitions
//! (`cart.rs`); the Spot plug-in is told nothing and calibrates, and where a RAM map can
//! describe the cart's board its reading is compared with the truth on every idle frame.

use super::cart::{self, CartFacts};
use super::port::{self, PortReader, PortReport};
use crate::bots::nes_move_rating;
use crate::layouts::builtin_layout;
use crate::moves::Move;
use crate::plugin::SpotPlugin;
use crate::position::{Outcome, Position};
use crate::ram_map::RamMap;
use nesmind_host::ramsearch::Snapshot;
use nesmind_host::{AccessKind, Buttons, Frame, Plugin, RomInfo, Setup};
use std::sync::{Arc, Mutex};

/// Frames of play without a report from the cart after which the game counts as stuck.
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
    /// Why the plug-in was not using a RAM map at each game's end (it played from the
    /// picture), one per game where it said so.
    pub ram_problems: Vec<String>,
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
        self.ram_problems.extend(r.ram_problems);
        for (t, n) in self.moves_by_slot.iter_mut().zip(r.moves_by_slot) {
            *t += n;
        }
    }
}

pub struct Driver {
    /// The Spot plug-in, when any slot is played through a pad (else the cart plays alone).
    inner: Option<SpotPlugin>,
    cfg: RunConfig,
    facts: CartFacts,
    /// The cart's RAM as a map (the truth), when a map can describe its board: what the
    /// plug-in's calibration is compared with.
    map: Option<RamMap>,
    report: Arc<Mutex<Report>>,
    /// The watch on the test port, and the reports it has carried.
    port_watch: Option<usize>,
    reader: PortReader,
    game: Option<GameState>,
    release: bool,
    wait: u32,
    seed: u64,
    phase: u8,
    phase_frames: u64,
    game_frames: u64,
    /// Frames of play since the port last reported.
    quiet_frames: u64,
    refused: u8,
    calibration_noted: bool,
}

/// The game in play as the test port told it.
struct GameState {
    layout: u16,
    first: usize,
    settings: [u8; 4],
    /// Slots in play, in slot order (the rules' players).
    slots: Vec<usize>,
    /// The last board reported, as a position.
    pos: Option<Position>,
}

impl Driver {
    pub fn new(
        inner: Option<SpotPlugin>,
        cfg: RunConfig,
        facts: CartFacts,
        report: Arc<Mutex<Report>>,
    ) -> Driver {
        let mut d = Driver {
            inner,
            map: facts.truth_map(),
            facts,
            report,
            port_watch: None,
            reader: PortReader::default(),
            game: None,
            release: false,
            wait: 0,
            seed: cfg.seed,
            phase: 0xFF,
            phase_frames: 0,
            game_frames: 0,
            quiet_frames: 0,
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

    /// Reads what the test port carried this frame.
    fn read_port(&mut self, frame: &dyn Frame) {
        let Some(id) = self.port_watch else {
            return;
        };
        let bytes: Vec<u8> = frame
            .watch_hits()
            .iter()
            .filter(|h| h.watch == id)
            .map(|h| h.value)
            .collect();
        for b in bytes {
            match self.reader.feed(b) {
                Some(Ok(r)) => {
                    self.quiet_frames = 0;
                    if let Err(e) = self.on_report(r) {
                        self.fail(e);
                    }
                }
                Some(Err(e)) => self.fail(e),
                None => {}
            }
        }
    }

    fn on_report(&mut self, r: PortReport) -> Result<(), String> {
        match r {
            PortReport::Game {
                layout,
                first,
                settings,
            } => {
                if settings != self.cfg.settings {
                    return Err(format!(
                        "the cart started a game with settings {settings:?}, not {:?}",
                        self.cfg.settings
                    ));
                }
                self.game = Some(GameState {
                    layout,
                    first: usize::from(first),
                    settings,
                    slots: (0..4).filter(|&s| settings[s] != 0).collect(),
                    pos: None,
                });
                self.game_frames = 0;
                Ok(())
            }
            PortReport::Board { cells, to_move } => {
                let game = self
                    .game
                    .as_mut()
                    .ok_or("a board reported outside a game")?;
                let now = port::position(&cells, to_move, &game.slots)?;
                match game.pos.replace(now) {
                    None => {
                        let blocked = builtin_layout(game.layout as usize)?;
                        if now.blocked() != blocked {
                            return Err(format!(
                                "layout {}: blocked cells {:013X} are not the built-in layout",
                                game.layout,
                                now.blocked()
                            ));
                        }
                        Ok(())
                    }
                    Some(before) => self.check_turn(&before, &now),
                }
            }
            PortReport::Over { winner, counts } => self.game_ended(winner, counts),
            PortReport::Fail {
                screen,
                cell,
                stored,
                shadow,
            } => Err(format!(
                "the cart's self-check failed: {} of cell {cell} decodes to {stored:#04X}, its \
                 shadow says {shadow:#04X}",
                if screen {
                    "the screen copy"
                } else {
                    "the board"
                }
            )),
        }
    }

    /// Between two board reports: either the slot to move made a move, or it passed (and then
    /// must have had none); the next slot to move must be the rules' next player.
    fn check_turn(&mut self, before: &Position, after: &Position) -> Result<(), String> {
        let game = self.game.as_ref().ok_or("no game")?;
        let slot = game.slots[before.to_move()];
        if before.is_over() {
            return Err(format!(
                "slot {} moved after the game was over by the rules",
                slot + 1
            ));
        }
        let mut legal = Vec::new();
        before.generate(&mut legal);
        let mv = if before.all_pieces() == after.all_pieces() && before.blocked() == after.blocked()
        {
            if legal != [Move::PASS] {
                return Err(format!(
                    "slot {} was passed over with {} moves to choose from",
                    slot + 1,
                    legal.len()
                ));
            }
            Move::PASS
        } else {
            let mv = find_move(before, after).ok_or_else(|| {
                format!("slot {} changed the board with no single move", slot + 1)
            })?;
            if !legal.contains(&mv) {
                return Err(format!("slot {} played {mv}, not a legal move", slot + 1));
            }
            mv
        };
        let expected = before.play(mv);
        if expected.all_pieces() != after.all_pieces() || expected.blocked() != after.blocked() {
            return Err(format!(
                "slot {} played {mv} but the cart's board differs from the rules",
                slot + 1
            ));
        }
        if expected.to_move() != after.to_move() {
            return Err(format!(
                "after slot {}'s {mv} the cart has slot {} to move, the rules slot {}",
                slot + 1,
                game.slots[after.to_move()] + 1,
                game.slots[expected.to_move()] + 1
            ));
        }
        if mv == Move::PASS {
            return Ok(());
        }
        let level = game.settings[slot];
        let mut r = self.report.lock().expect("report lock");
        r.moves_by_slot[slot] += 1;
        if level == 5 {
            let best = legal.iter().map(|&m| nes_move_rating(before, m)).max();
            r.cpu_moves += 1;
            if best != Some(nes_move_rating(before, mv)) {
                r.cpu_off_model += 1;
            }
        }
        Ok(())
    }

    /// The game is over: the last board reported must end it by the rules, with the winner
    /// and the counts the cart names.
    fn game_ended(&mut self, winner: Option<u8>, counts: [u8; 4]) -> Result<(), String> {
        let game = self.game.take().ok_or("a game ended that never started")?;
        let pos = game
            .pos
            .ok_or("a game ended before any board was reported")?;
        if !pos.is_over() {
            return Err("the cart ended a game the rules say goes on".into());
        }
        let rules = match pos.ranking_outcome() {
            Outcome::Win(p) => Some(game.slots[p]),
            Outcome::Draw => None,
        };
        let cart_winner = winner.map(usize::from);
        if cart_winner != rules {
            return Err(format!(
                "the cart names winner {cart_winner:?}, the counts say {rules:?}"
            ));
        }
        for (p, &s) in game.slots.iter().enumerate() {
            if u32::from(counts[s]) != pos.count(p) {
                return Err(format!(
                    "the cart counts {} pieces for slot {}, the board has {}",
                    counts[s],
                    s + 1,
                    pos.count(p)
                ));
            }
        }
        let record = GameRecord {
            layout: game.layout,
            first: game.first,
            counts: game
                .slots
                .iter()
                .enumerate()
                .map(|(p, &s)| (s, pos.count(p)))
                .collect(),
            winner: rules,
            plugin_won: rules.is_some_and(|s| game.settings[s] == cart::SETTING_HUMAN),
            frames: self.game_frames,
        };
        let mut r = self.report.lock().expect("report lock");
        r.games.push(record);
        if let Some(inner) = self.inner.as_mut() {
            r.ram_problems
                .extend(inner.ram_problem().map(str::to_string));
            r.plugin_moves = inner.moves_entered;
            for e in inner.errors.drain(..) {
                r.errors.push(format!("plug-in: {e}"));
            }
        }
        Ok(())
    }

    /// What the plug-in says about itself, for a failure message: the picture player
    /// first (it plays), then why the RAM shortcut is not in use.
    fn plugin_says(&self) -> String {
        match self.inner.as_ref() {
            Some(p) if p.failure().is_some() => {
                format!(
                    " (the plug-in stopped: {})",
                    p.failure().unwrap_or_default()
                )
            }
            Some(p) => {
                let mut parts = Vec::new();
                if let Some(s) = p.sight_problem() {
                    parts.push(format!("the plug-in is still calibrating: {s}"));
                } else if !p.status_line().is_empty() {
                    parts.push(format!("the plug-in says: {}", p.status_line()));
                }
                if let Some(r) = p.ram_problem() {
                    parts.push(format!("the plug-in's RAM map: {r}"));
                }
                if parts.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", parts.join("; "))
                }
            }
            None => String::new(),
        }
    }

    /// During play: notice a stuck or endless game and refused presses.
    fn watch(&mut self, frame: &dyn Frame) {
        self.game_frames += 1;
        self.quiet_frames += 1;
        if self.quiet_frames > STUCK_FRAMES {
            let why = self.plugin_says();
            let mover = self.game.as_ref().and_then(|g| {
                g.pos
                    .map(|p| g.slots.get(p.to_move()).copied().unwrap_or(0) + 1)
            });
            self.fail(format!(
                "stuck: no move for {STUCK_FRAMES} frames (slot {mover:?} to move){why}"
            ));
        }
        if self.game_frames > self.cfg.max_game_frames {
            let why = self.plugin_says();
            self.fail(format!(
                "a game lasted more than {} frames{why}",
                self.cfg.max_game_frames
            ));
        }
        let refused = frame.peek(self.facts.addr("REFUSED"));
        if refused != self.refused {
            self.refused = refused;
            let mover = self
                .game
                .as_ref()
                .and_then(|g| g.pos.map(|p| g.slots[p.to_move()] + 1));
            let why = format!(
                "the cart refused an A press: slot {mover:?} to move, picked-up cell {}",
                frame.peek(self.facts.addr("selected"))
            );
            self.report.lock().expect("report lock").errors.push(why);
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
        "Sets up the DOTS cart's games, lets the Spot plug-in play them and checks every move"
    }
    fn on_attach(&mut self, rom: &RomInfo, setup: &mut dyn Setup) -> Result<(), String> {
        let port = self.facts.port();
        self.port_watch = Some(setup.watch(AccessKind::Write, port..=port));
        match self.inner.as_mut() {
            Some(p) => p.on_attach(rom, setup),
            None => Ok(()),
        }
    }

    fn on_frame(&mut self, frame: &mut dyn Frame) {
        let released = std::mem::take(&mut self.release);
        if released {
            frame.set_buttons(0, Buttons::NONE);
        }
        if self.report.lock().expect("report lock").done {
            return;
        }
        self.read_port(frame);
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
                if entering {
                    self.quiet_frames = 0;
                }
                self.watch(frame);
                if let Some(inner) = self.inner.as_mut() {
                    inner.on_frame(frame);
                }
                self.note_calibration();
                if let Err(e) = self.check_reading(frame) {
                    self.fail(e);
                }
            }
            cart::PHASE_OVER => {
                if let Some(inner) = self.inner.as_mut() {
                    inner.on_frame(frame);
                }
                if entering {
                    let refused = frame.peek(self.facts.addr("REFUSED"));
                    self.report.lock().expect("report lock").refused_presses = u32::from(refused);
                } else if self.phase_frames == 4 {
                    self.press(frame, Buttons::START);
                }
            }
            _ => {}
        }
    }

    fn result(&self) -> Option<String> {
        self.inner.as_ref().and_then(|p| p.result())
    }
}

impl Driver {
    /// On an idle frame, the plug-in's map (calibrated) must read what the cart's own
    /// definitions read: the same pieces, blocked cells, player to move and hand cell. Only
    /// where a map can describe the cart's board.
    fn check_reading(&self, frame: &dyn Frame) -> Result<(), String> {
        let (Some(map), Some(found)) =
            (&self.map, self.inner.as_ref().and_then(|p| p.map_in_use()))
        else {
            return Ok(());
        };
        let Some(screen) = map.screen else {
            return Ok(());
        };
        let ram = Snapshot::take(frame, self.facts.board_in_prg_ram());
        let idle =
            ram.byte(screen.animation) == Some(screen.idle) && ram.byte(screen.playing) != Some(0);
        if !idle {
            return Ok(());
        }
        let (truth, _) = map.decode(&ram, false)?;
        // A turn byte that holds no player's value cannot mislead: the player reads no turn
        // from it (and drops the map if it needs one). A state machine's human turn /
        // computer turn byte follows the turns exactly but for a pass or the end, and no
        // calibration round can tell it from the turn until then.
        if found.slot_to_move(&ram).is_none() {
            return Ok(());
        }
        let (seen, _) = found
            .decode(&ram, false)
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
        let hand = map.cursor_cell(&ram);
        if hand.is_some() && found.cursor_cell(&ram) != hand {
            return Err(format!(
                "the plug-in's map reads the hand on cell {:?}, the cart has it on {hand:?}",
                found.cursor_cell(&ram)
            ));
        }
        Ok(())
    }

    /// Records what the plug-in's calibration found, once, and stops the run if it gave up.
    fn note_calibration(&mut self) {
        let Some(inner) = self.inner.as_ref() else {
            return;
        };
        if self.calibration_noted {
            return;
        }
        if let Some(c) = &inner.calibration {
            self.calibration_noted = true;
            let mut r = self.report.lock().expect("report lock");
            r.calibrations.push((c.map.clone(), c.frame, c.fork_frames));
        } else if let Some(why) = inner.failure() {
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
