//! Calibration: the Spot player works out the RAM layout of the game it is attached to, by
//! experiment, instead of trusting a map. Each frame until a game starts it looks for a start
//! position in work RAM and cartridge RAM (`scan.rs`). The frame it sees one, it copies the
//! machine and, on the copies only:
//!
//! 1. runs on until a pad moves something like a cursor (its player's turn, `lab.rs`);
//! 2. walks that cursor round the board and fits its bytes to rows and columns (`cursor.rs`);
//! 3. moves a corner piece and reads which array cell changed, and how: the board, its
//!    orientation, and the codes for empty, blocked and the pad's player (`first_move.rs`);
//! 4. plays two rounds (more until every player has moved), noting memory before each
//!    player's move: the turn byte, the turn order, and every other move checked against
//!    the rules (`turns.rs`).
//!
//! The real game is never touched; what calibration cannot explain it names, and the player
//! then presses nothing.

mod cursor;
pub mod first_move;
mod lab;
pub mod scan;
mod turns;

use crate::ram_map::{CellCodes, Cursor, RamMap, SpotMap, Turn};
use lab::{CursorProbes, Lab, release_all};
use nesmind_host::ramsearch::Snapshot;
use nesmind_host::sight::{Job, Meter};
use nesmind_host::{Fork, Frame, RomInfo};
use scan::Found;

/// Press lengths tried in turn (frames held), for games that read the pads slowly.
const HOLDS: [u64; 3] = [1, 2, 4];
/// Fork frames to wait for a pad-played turn after a start position appears.
const TURN_SEARCH: u64 = 1200;
/// Real frames after which a missing start position is worth a warning (10 s).
const PATIENCE: u64 = 600;
/// Start positions tried (each new one once) before calibration gives up, and real frames
/// between two tries. Screens before a game (a title's text buffer) can look like a start
/// position; what the pads do there does not look like a board game, and the try fails.
const MAX_ATTEMPTS: u32 = 6;
const COOLDOWN: u64 = 30;
/// Fork frames of a try run per game frame (calibration never holds a frame up for long).
const GRANT: u64 = 40;

/// A failed try: `fatal` once the board has been confirmed (this is the game, and
/// something about it cannot be explained), else it may just not have been a game start.
struct Problem {
    fatal: bool,
    why: String,
}

impl From<String> for Problem {
    fn from(why: String) -> Problem {
        Problem { fatal: false, why }
    }
}

/// An array's place and contents, to notice a start position seen (and tried) before.
type Fingerprint = Vec<(u16, i16, i16, [u8; 49])>;

/// What calibration found.
#[derive(Clone, Debug)]
pub struct Calibration {
    pub map: RamMap,
    /// One line per fact, for the log.
    pub lines: Vec<String>,
    /// Whether it confirms the shipped entry for this cartridge (and so uses its seats,
    /// screen and bonus bytes).
    pub confirmed: bool,
    /// Frames run on forks, and the game's frame number when calibration finished.
    pub fork_frames: u64,
    pub frame: u64,
}

impl Calibration {
    /// The status line.
    pub fn summary(&self) -> String {
        let m = &self.map;
        let cursor = match m.cursor {
            Cursor::Index { addr, .. } => format!("${addr:04X}"),
            Cursor::Pair { x, y, .. } => format!("${x:04X}/${y:04X}"),
        };
        format!(
            "spot: calibrated at frame {}: board ${:04X}, cursor {cursor}, turn ${:04X}{}",
            self.frame,
            m.board.addr,
            m.turn.addr,
            if self.confirmed {
                "; confirms the shipped map"
            } else {
                ""
            }
        )
    }
}

pub enum Progress {
    /// No start position yet; the status line to show.
    Waiting(String),
    Done(Box<Calibration>),
    /// The fact that could not be found.
    Failed(String),
}

/// What a try needs, moved to the thread it runs on.
#[derive(Clone)]
struct Trial {
    expected: Option<RamMap>,
    rom: RomInfo,
}

type TrialResult = (Result<(RamMap, Vec<String>), Problem>, u64);

/// A try under way: its job, the start position it was started on, and the game frame.
struct Running {
    job: Job<TrialResult>,
    fingerprint: Fingerprint,
    frame: u64,
}

pub struct Calibrator {
    trial: Trial,
    running: Option<Running>,
    frames: u64,
    previous: Fingerprint,
    tried: Vec<Fingerprint>,
    next_try: u64,
    fork_frames: u64,
    /// Why the last try failed.
    pub problem: Option<String>,
}

impl Calibrator {
    /// `expected`: the shipped entry for this cartridge, if any, to be confirmed.
    pub fn new(rom: &RomInfo, expected: Option<RamMap>) -> Calibrator {
        Calibrator {
            trial: Trial {
                expected,
                rom: rom.clone(),
            },
            running: None,
            frames: 0,
            previous: Vec::new(),
            tried: Vec::new(),
            next_try: 0,
            fork_frames: 0,
            problem: None,
        }
    }

    /// One frame of the real game.
    pub fn step(&mut self, frame: &dyn Frame) -> Progress {
        self.frames += 1;
        if let Some(mut run) = self.running.take() {
            return match run.job.step(GRANT) {
                None => {
                    self.running = Some(run);
                    Progress::Waiting("spot: calibrating RAM on copies of the game".into())
                }
                Some(Ok((result, spent))) => self.finished(result, spent, run),
                Some(Err(why)) => Progress::Failed(why),
            };
        }
        let snap = Snapshot::take(frame, true);
        let mut found = scan::scan(&snap);
        // Only arrays that held the same start position a frame ago (a buffer being filled
        // passes through odd states).
        let now: Fingerprint = found
            .iter()
            .map(|f| (f.addr, f.row_step, f.col_step, f.read(&snap)))
            .collect();
        let fingerprint: Fingerprint = now
            .iter()
            .filter(|e| self.previous.contains(e))
            .cloned()
            .collect();
        found.retain(|f| {
            fingerprint
                .iter()
                .any(|e| (e.0, e.1, e.2) == (f.addr, f.row_step, f.col_step))
        });
        self.previous = now;
        let seen_before = fingerprint
            .iter()
            .any(|e| self.tried.iter().any(|t| t.contains(e)));
        if !found.is_empty() && (self.frames < self.next_try || seen_before) {
            found.clear();
        }
        if found.is_empty() {
            if self.frames == PATIENCE {
                log::warn!(
                    "spot: no Spot start position in RAM after {} s of play; is this Spot, and has a game begun?",
                    PATIENCE / 60
                );
            }
            return Progress::Waiting(match &self.problem {
                Some(p) => format!("spot: waiting for a game to start (the last calibration try found no game: {p})"),
                None => "spot: calibrating: waiting for a game to start (player 1 on cells 0 and 48, player 2 on 6 and 42)".into(),
            });
        }
        let Some(base) = frame.fork() else {
            return Progress::Failed(
                "this host cannot copy the machine, so nothing can be tried out; give a map with --plugin-opt ram_map=FILE".into(),
            );
        };
        log::info!(
            "spot: start position seen at frame {} in {} array(s); calibrating on forks",
            frame.frame_number(),
            found.len()
        );
        for f in &found {
            log::debug!("spot: calibration: start position in {f:02X?}");
        }
        let trial = self.trial.clone();
        let job = Job::start("spot-ram-calibration", move |m: &mut Meter| {
            let mut frames = 0;
            let out = trial.experiment(m, base, &found, &mut frames);
            (out, frames)
        });
        self.running = Some(Running {
            job,
            fingerprint,
            frame: frame.frame_number(),
        });
        Progress::Waiting("spot: calibrating RAM on copies of the game".into())
    }

    /// A try's result.
    fn finished(
        &mut self,
        result: Result<(RamMap, Vec<String>), Problem>,
        spent: u64,
        run: Running,
    ) -> Progress {
        self.fork_frames += spent;
        match result {
            Ok((map, lines)) => {
                let (map, confirmed, verdict) = self.trial.confirm(map);
                let mut lines = lines;
                lines.push(verdict);
                Progress::Done(Box::new(Calibration {
                    map,
                    lines,
                    confirmed,
                    fork_frames: self.fork_frames,
                    frame: run.frame,
                }))
            }
            Err(p) if p.fatal || self.tried.len() as u32 + 1 >= MAX_ATTEMPTS => {
                Progress::Failed(p.why)
            }
            Err(p) => {
                log::info!("spot: calibration: not a game start after all: {}", p.why);
                self.tried.push(run.fingerprint);
                self.next_try = self.frames + COOLDOWN;
                let line = format!(
                    "spot: waiting for a game to start (the last calibration try found no game: {})",
                    p.why
                );
                self.problem = Some(p.why);
                Progress::Waiting(line)
            }
        }
    }
}

impl Trial {
    fn experiment(
        &self,
        meter: &mut Meter,
        base: Fork,
        found: &[Found],
        frames: &mut u64,
    ) -> Result<(RamMap, Vec<String>), Problem> {
        for hold in HOLDS {
            let mut lab = Lab::new(meter, hold);
            let turn = find_turn(&mut lab, &base, found);
            *frames += lab.frames();
            let (fork, pad, bytes) = match turn? {
                TurnSearch::Found(f, pad, bytes) => (*f, pad, bytes),
                // Longer presses only help a game that saw none of the short ones.
                TurnSearch::Silent => continue,
                TurnSearch::NoCursor(pad) => {
                    return Err(Problem::from(format!(
                        "cursor: pad {} changes memory on its turn, but no byte moves like a cursor (Right and Left, Down and Up by opposite steps)",
                        pad + 1
                    )));
                }
            };
            let mut lab = Lab::new(meter, hold);
            let out = self.explain(&mut lab, &base, &fork, pad, &bytes, found);
            *frames += lab.frames();
            return out;
        }
        Err(Problem::from(format!(
            "cursor: no pad moved a cursor within {} s of play (tried on forks, pressing for 1, 2 and 4 frames); does a pad-played player take part?",
            TURN_SEARCH / 60
        )))
    }

    fn explain(
        &self,
        lab: &mut Lab,
        start: &Fork,
        base: &Fork,
        pad: usize,
        bytes: &[u16],
        found: &[Found],
    ) -> Result<(RamMap, Vec<String>), Problem> {
        let expected = self.expected.as_ref();
        let cursors = cursor::find_cursor(lab, base, pad, bytes, expected.map(|e| &e.cursor))?;
        let (o, cursor) = first_move::first_move(lab, base, pad, &cursors, found)?;
        // The board is confirmed from here on: what fails now is this game's, not a
        // look-alike's.
        let fatal = |why: String| Problem { fatal: true, why };
        // Slot 0 starts on cell 0 (or the first occupied corner going round).
        let board = first_move::read_board(&o.shape, start);
        let piece = |v: u8| v != o.empty && Some(v) != o.blocked;
        let first = [0usize, 6, 48, 42]
            .into_iter()
            .map(|c| board[c])
            .find(|&v| piece(v))
            .ok_or_else(|| fatal("board: the start position has no piece on a corner".into()))?;
        let mut codes: Vec<u8> = board.iter().copied().filter(|&v| piece(v)).collect();
        codes.sort_unstable();
        codes.dedup();
        let turns = turns::learn_turns(
            lab,
            base,
            pad,
            &cursor,
            &o,
            &codes,
            expected.map(|e| e.turn.addr),
        )
        .map_err(fatal)?;
        let k = turns
            .order
            .iter()
            .position(|&(c, _, _)| c == first)
            .ok_or_else(|| fatal("turn: the player on the first corner never moved".into()))?;
        let order: Vec<(u8, u8, Option<usize>)> = turns.order[k..]
            .iter()
            .chain(&turns.order[..k])
            .copied()
            .collect();
        let map = RamMap {
            name: match expected {
                Some(e) => format!("{} (calibrated)", e.name),
                None => format!("{} (calibrated)", self.rom.file_name),
            },
            crc32: vec![self.rom.crc32],
            game: SpotMap {
                board: o.shape,
                cells: CellCodes {
                    empty: o.empty,
                    blocked: o.blocked,
                    players: order.iter().map(|t| t.0).collect(),
                },
                cursor,
                turn: Turn {
                    addr: turns.addr,
                    values: order.iter().map(|t| t.1).collect(),
                },
                pad_of_player: order
                    .iter()
                    .enumerate()
                    .map(|(slot, t)| t.2.unwrap_or(slot))
                    .collect(),
                press_frames: lab.hold as u8,
                seats: None,
                screen: None,
                bonus: None,
            },
        };
        map.validate().map_err(|e| {
            fatal(format!(
                "calibration found a map that does not hold together: {e}"
            ))
        })?;
        Ok((map.clone(), describe(&map, found.len())))
    }

    /// Compares with the shipped entry: if calibration confirms it, the entry (with the
    /// bytes calibration cannot find) is the map.
    fn confirm(&self, map: RamMap) -> (RamMap, bool, String) {
        let Some(e) = &self.expected else {
            return (map, false, "no shipped map lists this cartridge".into());
        };
        let n = map.players();
        let mut differs = Vec::new();
        if e.board != map.board {
            differs.push(format!("board {:?} (shipped {:?})", map.board, e.board));
        }
        if e.cells.empty != map.cells.empty
            || map
                .cells
                .blocked
                .is_some_and(|b| e.cells.blocked != Some(b))
            || e.cells.players.get(..n) != Some(&map.cells.players[..])
        {
            differs.push(format!(
                "cells {:02X?} (shipped {:02X?})",
                map.cells, e.cells
            ));
        }
        if e.cursor != map.cursor {
            differs.push(format!("cursor {:?} (shipped {:?})", map.cursor, e.cursor));
        }
        if e.turn.addr != map.turn.addr || e.turn.values.get(..n) != Some(&map.turn.values[..]) {
            differs.push(format!("turn {:02X?} (shipped {:02X?})", map.turn, e.turn));
        }
        if differs.is_empty() {
            let verdict = format!("confirms the shipped map '{}'", e.name);
            (e.clone(), true, verdict)
        } else {
            let verdict = format!(
                "differs from the shipped map '{}': {}",
                e.name,
                differs.join("; ")
            );
            (map, false, verdict)
        }
    }
}

/// Whether no start-position array changes while a probe would run from `f`.
fn settled(lab: &mut Lab, f: &Fork, found: &[Found]) -> Result<bool, String> {
    let now = Snapshot::take(f, true);
    let later = lab.control(f, lab::SETTLE)?;
    Ok(found.iter().all(|b| b.read(&now) == b.read(&later)))
}

/// What the search for a pad-played turn found.
enum TurnSearch {
    /// The fork at that turn, the pad, and the bytes that moved like a cursor.
    Found(Box<Fork>, usize, Vec<u16>),
    /// No pad changed anything.
    Silent,
    /// A pad changes memory, but nothing that moves like a cursor.
    NoCursor(usize),
}

/// Probes that find a pad changing memory without a cursor, and fork frames, before the
/// search gives up.
const NO_CURSOR_PROBES: u32 = 6;
const NO_CURSOR_WAIT: u64 = 600;

/// Runs a fork on from the start position until a pad moves a cursor.
fn find_turn(lab: &mut Lab, start: &Fork, found: &[Found]) -> Result<TurnSearch, String> {
    let mut f = start.clone();
    release_all(&mut f);
    let mut no_cursor = 0;
    for t in 0..TURN_SEARCH {
        let every = if t < 120 { 2 } else { 20 };
        // Only where no board changes over a probe: a press on another player's last frame
        // may be taken as soon as this pad's turn begins.
        if t % every == 0 && settled(lab, &f, found)? {
            let pads = if t < 240 { 1 } else { 4 };
            for pad in 0..pads {
                if lab.any_effect(&f, pad)? {
                    let bytes = lab.cursor_bytes(&f, pad)?;
                    if !bytes.is_empty() {
                        return Ok(TurnSearch::Found(Box::new(f), pad, bytes));
                    }
                    no_cursor += 1;
                    // Another player's turn may be under way (a game may keep the last
                    // button pressed): only ten seconds of this count as an answer.
                    if no_cursor >= NO_CURSOR_PROBES && t >= NO_CURSOR_WAIT {
                        return Ok(TurnSearch::NoCursor(pad));
                    }
                }
            }
        }
        lab.run(&mut f, 1)?;
    }
    Ok(TurnSearch::Silent)
}

fn describe(m: &RamMap, arrays: usize) -> Vec<String> {
    let b = &m.board;
    let codes: Vec<String> = m
        .cells
        .players
        .iter()
        .enumerate()
        .map(|(s, c)| format!("slot {} {c:02X}", s + 1))
        .collect();
    let cursor = match m.cursor {
        Cursor::Index {
            addr,
            origin,
            row_step,
            col_step,
        } => format!(
            "cursor: one byte at ${addr:04X} = {origin:02X} + row * {row_step} + column * {col_step}"
        ),
        Cursor::Pair {
            x,
            x_origin,
            x_step,
            y,
            y_origin,
            y_step,
        } => format!(
            "cursor: x at ${x:04X} = {x_origin:02X} + column * {x_step}, y at ${y:04X} = {y_origin:02X} + row * {y_step}"
        ),
    };
    let turns: Vec<String> = m
        .turn
        .values
        .iter()
        .zip(&m.pad_of_player)
        .enumerate()
        .map(|(s, (v, p))| format!("slot {} {v:02X} (pad {})", s + 1, p + 1))
        .collect();
    vec![
        format!(
            "board: ${:04X}, row step {}, column step {} (of {arrays} start-position arrays)",
            b.addr, b.row_step, b.col_step
        ),
        format!(
            "cells: empty {:02X}, blocked {}, {}",
            m.cells.empty,
            m.cells
                .blocked
                .map_or("not on this layout".into(), |v| format!("{v:02X}")),
            codes.join(", ")
        ),
        cursor,
        format!("turn: ${:04X}: {}", m.turn.addr, turns.join(", ")),
        format!("a press lasts {} frame(s)", m.press_frames),
    ]
}
