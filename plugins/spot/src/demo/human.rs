//! `nesmind demo spot --human SEATS`: people play some seats of the DOTS cart in the window
//! and the Spot plug-in plays the others. A harness round the plug-in sets the title menu
//! (through a pad the plug-in holds: the menu answers every pad), keeps a status line
//! saying whose turn it is and what the plug-in expects, and writes a transcript: each
//! game's start, every move (the plug-in's with its score and line), the position as FEN at
//! each person's turn with the hand's cell, and the result.

use super::cart::{self, COLOURS, CartFacts, SETTING_HUMAN};
use super::driver::find_move;
use crate::board::square_name;
use crate::eval::score_text;
use crate::layouts::to_fen;
use crate::levels::{DEFAULT_LEVEL, Level};
use crate::moves::Move;
use crate::plugin::SpotPlugin;
use crate::ram_map::RamMap;
use nesmind_host::ramsearch::Snapshot;
use nesmind_host::{Buttons, Frame, HumanGame, HumanSetup, Plugin, PluginOptions, RomInfo, Setup};
use std::collections::VecDeque;

/// Where the transcript's lines go (stdout for the command).
pub type Transcript = Box<dyn FnMut(&str) + Send>;

/// `nesmind demo spot --human`: the harness with its transcript on stdout.
pub fn setup(game: &HumanGame) -> Result<HumanSetup, String> {
    let driver = HumanDriver::new(game, Box::new(|line| println!("{line}")))?;
    let pads = driver.humans.clone();
    Ok(HumanSetup {
        plugin: Box::new(driver),
        pads,
    })
}

/// What the plug-in expected after its last searched move: its score and the rest of its
/// line, consumed as the game follows it.
struct Expectation {
    by: usize,
    score: i32,
    line: VecDeque<Move>,
}

pub struct HumanDriver {
    inner: SpotPlugin,
    facts: CartFacts,
    /// The cart's RAM as it defines it (the plug-in is not given this; it calibrates).
    map: RamMap,
    players: usize,
    /// Slots people play (0-based), in the order given; on DOTS slot k plays on pad k.
    pub humans: Vec<usize>,
    level: Level,
    /// The pad that walks the title menu: the first of the plug-in's.
    menu_pad: usize,
    release: bool,
    phase: u8,
    games: u32,
    /// The last idle frame in play, to read each move from.
    idle: Option<Snapshot>,
    /// Turns (moves and passes) this game; a person's turn is announced once.
    turns: u32,
    announced: Option<u32>,
    /// The plug-in's choice counter when the turn under way began.
    choices_at_turn: u64,
    expect: Option<Expectation>,
    stopped_noted: bool,
    seats_said: bool,
    out: Transcript,
}

impl HumanDriver {
    /// Checks the seats and level; `out` receives the transcript.
    pub fn new(game: &HumanGame, out: Transcript) -> Result<HumanDriver, String> {
        let mut humans: Vec<usize> = Vec::new();
        for &s in &game.humans {
            if s >= 4 {
                return Err(format!("--human: seat {} is not 1-4", s + 1));
            }
            if humans.contains(&s) {
                return Err(format!("--human: seat {} is given twice", s + 1));
            }
            humans.push(s);
        }
        let highest = humans
            .iter()
            .max()
            .ok_or("--human: name at least one seat (1-4)")?
            + 1;
        let players = game.players.unwrap_or(highest.max(2));
        if !(2..=4).contains(&players) {
            return Err(format!("players: {players} is not 2-4"));
        }
        if highest > players {
            return Err(format!(
                "--human: seat {highest} is not among the {players} players (add --players {highest})"
            ));
        }
        if humans.len() >= players {
            return Err(format!(
                "--human: people hold all {players} seats; leave at least one to the plug-in"
            ));
        }
        let level = match &game.ai_level {
            Some(text) => Level::parse(text)?,
            None => Level::number(DEFAULT_LEVEL)?,
        };
        let ai: Vec<usize> = (0..players).filter(|s| !humans.contains(s)).collect();
        let seats: Vec<String> = ai.iter().map(|s| (s + 1).to_string()).collect();
        let mut opts = PluginOptions::new();
        opts.insert("seats".into(), seats.join(","));
        opts.insert("level".into(), level.number.to_string());
        let facts = CartFacts::dots();
        Ok(HumanDriver {
            inner: SpotPlugin::from_options(&opts)?,
            map: facts
                .truth_map()
                .ok_or("the committed DOTS cart keeps its board where a RAM map reads it")?,
            facts,
            players,
            menu_pad: ai[0],
            humans,
            level,
            release: false,
            phase: 0xFF,
            games: 0,
            idle: None,
            turns: 0,
            announced: None,
            choices_at_turn: 0,
            expect: None,
            stopped_noted: false,
            seats_said: false,
            out,
        })
    }

    fn say(&mut self, line: String) {
        (self.out)(&line);
    }

    fn is_human(&self, slot: usize) -> bool {
        self.humans.contains(&slot)
    }

    /// `RED (you)` or `BLUE (AI)`.
    fn who(&self, slot: usize) -> String {
        let role = if self.is_human(slot) { "you" } else { "AI" };
        format!("{} ({role})", COLOURS[slot])
    }

    fn idle(&self, ram: &Snapshot) -> bool {
        self.map.screen.is_some_and(|s| {
            ram.byte(s.animation) == Some(s.idle) && ram.byte(s.playing) != Some(0)
        })
    }

    /// Title screen: the seats' lines to people and the plug-in (layout and animation are
    /// left to the person).
    fn title(&mut self, frame: &mut dyn Frame, released: bool) -> String {
        let people: Vec<&str> = self.humans.iter().map(|&s| COLOURS[s]).collect();
        let mut wanted = [None; cart::MENU_LINES];
        for (slot, w) in wanted.iter_mut().take(4).enumerate() {
            *w = Some(if slot < self.players {
                SETTING_HUMAN
            } else {
                0
            });
        }
        if let Some(b) = cart::menu_press(frame, &self.facts, &wanted) {
            if !released {
                frame.set_buttons(self.menu_pad, b);
                self.release = true;
            }
            return "setting up the seats".into();
        }
        if !self.seats_said {
            // Said once the menu is set, so Start from here plays the game announced.
            self.seats_said = true;
            let seats: Vec<String> = (0..self.players).map(|s| self.who(s)).collect();
            let line = format!(
                "{}; AI level {} ({}). Start begins a game (or wait 5 s)",
                seats.join(", "),
                self.level.number,
                self.level.name
            );
            self.say(line);
        }
        format!(
            "you: {}; AI {}. Start: play",
            people.join("+"),
            self.level.name
        )
    }

    fn game_started(&mut self, ram: &Snapshot) {
        self.games += 1;
        self.turns = 0;
        self.announced = None;
        self.idle = None;
        self.expect = None;
        self.choices_at_turn = self.inner.choices;
        let a = self.facts.addr("LAYOUT_NUMBER");
        let layout = u16::from_le_bytes([ram.byte(a).unwrap_or(0), ram.byte(a + 1).unwrap_or(0)]);
        let first = ram.byte(self.facts.addr("FIRST_MOVER")).unwrap_or(0) as usize;
        let fen = self
            .map
            .decode(ram, false)
            .map(|(p, _)| to_fen(&p))
            .unwrap_or_else(|e| format!("(unreadable: {e})"));
        let line = format!(
            "game {}: layout {layout}, {} moves first: {fen}",
            self.games,
            self.who(first.min(3))
        );
        self.say(line);
    }

    /// Between two idle frames: a move, a pass, or nothing yet.
    fn note_turn(&mut self, before: &Snapshot, after: &Snapshot, choices: u64) {
        let (Some(slot), Ok((pos, _))) = (
            self.map.slot_to_move(before),
            self.map.decode(before, false),
        ) else {
            return;
        };
        let mv = if self.map.board_bytes(before) != self.map.board_bytes(after) {
            let found = self
                .map
                .decode(after, false)
                .ok()
                .and_then(|(now, _)| find_move(&pos, &now));
            match found {
                Some(mv) => mv,
                None => {
                    let line = format!(
                        "{} made a move that reads as no single step",
                        self.who(slot)
                    );
                    self.say(line);
                    return;
                }
            }
        } else if self.map.slot_to_move(after) != Some(slot) {
            Move::PASS
        } else {
            return;
        };
        self.turns += 1;
        self.choices_at_turn = choices;
        let played = if mv == Move::PASS {
            "passes".to_string()
        } else {
            format!("plays {mv}")
        };
        let searched = self
            .inner
            .last_search(slot)
            .filter(|r| !self.is_human(slot) && r.best == mv)
            .map(|r| (r.score, r.depth, r.pv.clone()));
        let mut line = format!("{} {played}", self.who(slot));
        if let Some((score, depth, pv)) = searched {
            let pv: Vec<String> = pv.iter().map(Move::to_string).collect();
            line.push_str(&format!(
                ": {} at depth {depth}, line {}",
                score_text(score),
                pv.join(" ")
            ));
            self.expect = Some(Expectation {
                by: slot,
                score,
                line: pv_moves(&self.inner, slot),
            });
        } else {
            if let Some(e) = self.expect.as_ref().filter(|_| self.is_human(slot)) {
                match e.line.front() {
                    Some(&m) if m == mv => {
                        line.push_str(&format!(" as {} expected", COLOURS[e.by]))
                    }
                    Some(m) => line.push_str(&format!(" ({} expected {m})", COLOURS[e.by])),
                    None => {}
                }
            }
            if !self.is_human(slot) && mv != Move::PASS && self.level.random_share > 0.0 {
                line.push_str(&format!(" (a random move: level {})", self.level.name));
                self.expect = None;
            }
            if let Some(e) = &mut self.expect {
                if e.line.front() == Some(&mv) {
                    e.line.pop_front();
                } else {
                    e.line.clear();
                }
            }
        }
        self.say(line);
    }

    /// A person's turn: the position as FEN and the hand's cell, once.
    fn announce(&mut self, slot: usize, ram: &Snapshot) {
        self.announced = Some(self.turns);
        let fen = match self.map.decode(ram, false) {
            Ok((pos, _)) => to_fen(&pos),
            Err(e) => format!("(unreadable: {e})"),
        };
        let hand = self.map.cursor_cell(ram).map_or("?".into(), square_name);
        let line = format!("{} to move, hand on {hand}: {fen}", self.who(slot));
        self.say(line);
    }

    fn playing(&mut self, frame: &dyn Frame, entering: bool, choices: u64) -> String {
        let ram = Snapshot::take(frame, self.facts.board_in_prg_ram());
        if entering {
            self.game_started(&ram);
        }
        if let Some(why) = self.inner.failure() {
            let line = format!("spot: stopped: {why}");
            if !self.stopped_noted {
                self.stopped_noted = true;
                self.say(line.clone());
            }
            return line;
        }
        if self.inner.map().is_none() {
            return self.inner.status_line().to_string();
        }
        let idle = self.idle(&ram);
        if idle {
            if let Some(before) = self.idle.take() {
                self.note_turn(&before, &ram, choices);
            }
            self.idle = Some(ram.clone());
        }
        let Some(slot) = self.map.slot_to_move(&ram) else {
            return String::new();
        };
        if idle && self.is_human(slot) && self.announced != Some(self.turns) {
            self.announce(slot, &ram);
        }
        self.turn_status(slot)
    }

    /// `RED (you) to move. BLUE +1.5, expects d3` or `BLUE (AI) plays c3e5: +1.5`.
    fn turn_status(&self, slot: usize) -> String {
        let colour = COLOURS[slot];
        if self.is_human(slot) {
            let mut s = format!("{colour} (you) to move");
            if let Some(e) = &self.expect {
                s.push_str(&format!(". {} {}", COLOURS[e.by], score_text(e.score)));
                if let Some(m) = e.line.front() {
                    s.push_str(&format!(", expects {m}"));
                }
            }
            return s;
        }
        match self.inner.last_search(slot) {
            Some(r) if self.inner.choices != self.choices_at_turn => {
                format!("{colour} (AI) plays {}: {}", r.best, score_text(r.score))
            }
            _ => format!("{colour} (AI) to move"),
        }
    }

    fn over(&mut self, frame: &dyn Frame, entering: bool) -> String {
        let ram = Snapshot::take(frame, self.facts.board_in_prg_ram());
        if entering && let Some(before) = self.idle.take() {
            let choices = self.inner.choices;
            self.note_turn(&before, &ram, choices);
        }
        let Ok((pos, slots)) = self.map.decode(&ram, false) else {
            return "game over".into();
        };
        let counts: Vec<String> = slots
            .iter()
            .enumerate()
            .map(|(p, &s)| format!("{} {}", COLOURS[s], pos.count(p)))
            .collect();
        let verdict = match ram.byte(self.facts.addr("WINNER")) {
            Some(s) if (s as usize) < 4 => format!("{} wins", self.who(s as usize)),
            _ => "a draw".into(),
        };
        if entering {
            let line = format!("game {} over: {}: {verdict}", self.games, counts.join(" "));
            self.say(line);
        }
        format!("{verdict}, {}. Start: title", counts.join(" "))
    }
}

/// The plug-in's line after its own move.
fn pv_moves(inner: &SpotPlugin, slot: usize) -> VecDeque<Move> {
    inner
        .last_search(slot)
        .map(|r| r.pv.iter().skip(1).copied().collect())
        .unwrap_or_default()
}

impl Plugin for HumanDriver {
    fn name(&self) -> &str {
        "spot"
    }
    fn description(&self) -> &str {
        "People against the Spot plug-in on the DOTS cart"
    }
    fn on_attach(&mut self, rom: &RomInfo, setup: &mut dyn Setup) -> Result<(), String> {
        self.inner.on_attach(rom, setup)?;
        // Pads 3 and 4 go through a Four Score, for people and the plug-in alike.
        setup.use_pads(self.players);
        Ok(())
    }

    fn on_frame(&mut self, frame: &mut dyn Frame) {
        let released = std::mem::take(&mut self.release);
        if released {
            frame.set_buttons(self.menu_pad, Buttons::NONE);
        }
        let phase = frame.peek(self.facts.addr("CART_PHASE"));
        let entering = phase != self.phase;
        self.phase = phase;
        let status = match phase {
            cart::PHASE_TITLE => self.title(frame, released),
            cart::PHASE_PLAYING => {
                let choices = self.inner.choices;
                self.inner.on_frame(frame);
                self.playing(frame, entering, choices)
            }
            cart::PHASE_OVER => {
                self.inner.on_frame(frame);
                self.over(frame, entering)
            }
            _ => String::new(),
        };
        if !status.is_empty() {
            frame.set_status(&status);
        }
    }

    fn result(&self) -> Option<String> {
        self.inner.result()
    }
}
