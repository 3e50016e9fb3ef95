//! The harness side of a demo game: a plug-in that sets the cart's title menu through pad 1
//! (closed loop: it reads the menu back from RAM), presses Start after a chosen number of
//! frames (which seeds the cart's RNG), lets the Spot plug-in play, and checks every move
//! the cart makes against the rules model.

use super::cart;
use crate::bots::nes_move_rating;
use crate::layouts::builtin_layout;
use crate::moves::Move;
use crate::plugin::SpotPlugin;
use crate::position::{Outcome, Position};
use crate::ram_map::{BUILTIN_RAM_MAPS, RamMap, find_ram_map, parse_ram_maps};
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
    pub done: bool,
}

pub struct Driver {
    inner: SpotPlugin,
    cfg: RunConfig,
    map: Option<RamMap>,
    report: Arc<Mutex<Report>>,
    release: bool,
    wait: u32,
    seed: u64,
    phase: u8,
    phase_frames: u64,
    game_frames: u64,
    still_frames: u64,
    board: Vec<u8>,
    idle: Option<Vec<u8>>,
    refused: u8,
}

impl Driver {
    pub fn new(inner: SpotPlugin, cfg: RunConfig, report: Arc<Mutex<Report>>) -> Driver {
        let mut d = Driver {
            inner,
            map: None,
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
        let ram = frame.ram();
        let wanted = |line: usize| -> u8 {
            match line {
                0..=3 => self.cfg.settings[line],
                4 => 0, // random layout
                _ => u8::from(self.cfg.animations),
            }
        };
        let shown = |line: usize| -> u8 {
            match line {
                0..=3 => ram[cart::SETTINGS + line],
                4 => ram[cart::LAYOUT_CHOICE],
                _ => ram[cart::ANIM_ON],
            }
        };
        if let Some(line) = (0..cart::MENU_LINES).find(|&l| wanted(l) != shown(l)) {
            let row = ram[cart::MENU_ROW] as usize;
            let button = if row == line {
                Buttons::RIGHT
            } else {
                Buttons::DOWN
            };
            self.press(frame, button);
        } else if self.wait > 0 {
            self.wait -= 1;
        } else {
            self.press(frame, Buttons::START);
            self.wait = self.next_wait();
        }
    }

    fn map(&self) -> &RamMap {
        self.map.as_ref().expect("attached")
    }

    /// First frame of a game: the board must be the announced built-in layout.
    fn game_started(&mut self, ram: &[u8]) {
        self.game_frames = 0;
        self.still_frames = 0;
        self.idle = None;
        let number = u16::from_le_bytes([ram[cart::LAYOUT_NUMBER], ram[cart::LAYOUT_NUMBER + 1]]);
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
    fn watch(&mut self, ram: &[u8]) {
        self.game_frames += 1;
        let board = self.map().board_bytes(ram).to_vec();
        if board == self.board {
            self.still_frames += 1;
        } else {
            self.still_frames = 0;
            self.board = board;
        }
        if self.still_frames > STUCK_FRAMES {
            let slot = ram[cart::CURRENT];
            self.fail(format!(
                "stuck: no move for {STUCK_FRAMES} frames (slot {} to move, cursor at cell {})",
                slot + 1,
                ram[cart::CURSOR]
            ));
        }
        if self.game_frames > self.cfg.max_game_frames {
            self.fail(format!(
                "a game lasted more than {} frames",
                self.cfg.max_game_frames
            ));
        }
        if ram[cart::REFUSED] != self.refused {
            self.refused = ram[cart::REFUSED];
            let why = format!(
                "the cart refused an A press: slot {} to move, hand on cell {}, picked-up cell {}",
                ram[cart::CURRENT] + 1,
                ram[cart::CURSOR],
                ram[cart::SELECTED]
            );
            self.report.lock().expect("report lock").errors.push(why);
        }
        let idle = ram[self.map().animation as usize] == self.map().animation_idle
            && ram[self.map().playing as usize] != 0;
        if !idle {
            return;
        }
        if let Some(before) = self.idle.take()
            && let Err(e) = self.check_turn(&before, ram)
        {
            self.fail(e);
        }
        self.idle = Some(ram.to_vec());
    }

    /// Between two idle frames: either the slot to move made a move, or it passed (and then
    /// must have had none), or nothing happened yet.
    fn check_turn(&mut self, before: &[u8], after: &[u8]) -> Result<(), String> {
        let map = self.map();
        if map.board_bytes(before) != map.board_bytes(after) {
            return self.check_move(before, after);
        }
        let slot = before[cart::CURRENT];
        if slot == after[cart::CURRENT] {
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
    fn check_move(&mut self, before: &[u8], after: &[u8]) -> Result<(), String> {
        let map = self.map();
        let (pos, _) = map.decode(before, false)?;
        let (now, _) = map.decode(after, false)?;
        let slot = before[cart::CURRENT] as usize;
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
        let level = before[cart::SETTINGS + slot];
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
    fn game_ended(&mut self, ram: &[u8]) {
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
        let cart_winner = match ram[cart::WINNER] {
            0xFF => None,
            s => Some(s as usize),
        };
        if cart_winner != winner {
            self.fail(format!(
                "the cart names winner {cart_winner:?}, the counts say {winner:?}"
            ));
        }
        let human = self.map().setting_human;
        let record = GameRecord {
            layout: u16::from_le_bytes([ram[cart::LAYOUT_NUMBER], ram[cart::LAYOUT_NUMBER + 1]]),
            first: ram[cart::FIRST_MOVER] as usize,
            counts: slots
                .iter()
                .enumerate()
                .map(|(p, &s)| (s, pos.count(p)))
                .collect(),
            winner,
            plugin_won: winner.is_some_and(|s| ram[cart::SETTINGS + s] == human),
            frames: self.game_frames,
        };
        let mut r = self.report.lock().expect("report lock");
        r.games.push(record);
        r.refused_presses = u32::from(ram[cart::REFUSED]);
        r.plugin_moves = self.inner.moves_entered;
        for e in self.inner.errors.drain(..) {
            r.errors.push(format!("plug-in: {e}"));
        }
    }
}

/// The single step that turns `pos` into `now` (the mover's new cell, and the cell it left).
fn find_move(pos: &Position, now: &Position) -> Option<Move> {
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
        let maps = parse_ram_maps(BUILTIN_RAM_MAPS, "built-in RAM maps")?;
        self.map = Some(find_ram_map(&maps, rom)?.clone());
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
        let phase = frame.ram()[cart::CART_PHASE];
        if phase != self.phase {
            self.phase_frames = 0;
        }
        let entering = phase != self.phase;
        self.phase = phase;
        self.phase_frames += 1;
        match phase {
            cart::PHASE_TITLE if !released => self.title(frame),
            cart::PHASE_PLAYING => {
                let ram = frame.ram().to_vec();
                if entering {
                    self.game_started(&ram);
                }
                self.watch(&ram);
                self.inner.on_frame(frame);
            }
            cart::PHASE_OVER => {
                self.inner.on_frame(frame);
                if entering {
                    let ram = frame.ram().to_vec();
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
