//! The Spot plug-in: calibrates on the game it is attached to (or takes a map it is given),
//! reads the game from RAM through that map, and plays its seats by pressing pad buttons
//! like a person would.

use super::board::CELLS;
use super::calibrate::{Calibration, Calibrator, Progress};
use super::fork_check::{pad_moves_cursor, plan_works};
use super::levels::Level;
use super::moves::{Kind, Move};
use super::pad_plan::{Plan, Step};
use super::play::{Next, best_prize_of_kind, next_press, phase, plan_for};
use super::players::{Seat, SeatKind, default_algorithm};
use super::position::{MAX_PLAYERS, Outcome, Position};
use super::ram_map::{
    BUILTIN_RAM_MAPS, RamMap, find_ram_map, load_ram_maps, no_map_for, parse_ram_maps,
};
use nesmind_host::{Buttons, Frame, Plugin, PluginOptions, RomInfo, Setup};
use sight::SightState;

mod sight;
use nesmind_search::{Algorithm, SearchResult};
use std::time::Duration;

/// Frames to wait for the game to react to a committed move before planning again.
const REACTION_FRAMES: u32 = 240;
/// Frames between two tries of a pad on a fork while waiting for a turn.
const PROBE_EVERY: u64 = 8;
/// Plans refused on a fork in a row (same position) before the player gives up.
const MAX_REFUSED_PLANS: u32 = 3;

enum MapState {
    Unattached,
    Calibrating(Box<Calibrator>),
    Ready(RamMap),
    /// Calibration or play found something it cannot explain: no more presses.
    Failed(String),
}

pub struct SpotPlugin {
    maps: Vec<RamMap>,
    /// `ram_map=FILE` was given: its map is used without calibrating, once the picture
    /// agrees with it (`hint_unconfirmed`).
    trusted: bool,
    save_map: Option<String>,
    state: MapState,
    /// RAM player slots to play (0-based); `None` plays every pad-played slot.
    seats: Option<Vec<usize>>,
    algorithm: Option<Algorithm>,
    /// Expect the other seats to play like the cartridge's AI model.
    model: bool,
    move_time: Duration,
    /// `move_nodes` / `depth`: a reproducible budget per move instead of `move_time`.
    move_nodes: Option<u64>,
    depth: Option<u32>,
    /// `level=`: a strength for play against people (replaces the budget and the model).
    level: Option<u8>,
    players: Vec<Option<Seat>>,
    plan: Option<Plan>,
    /// Pad held or released by the last press, and frames left before the next one.
    pressing: Option<(usize, u64)>,
    hold: u64,
    /// The prize move won in the bonus game, entered once the game asks for it.
    pending_prize: Option<Move>,
    was_playing: bool,
    /// Without screen bytes: a game is on between a start position and an end position.
    game_on: bool,
    /// Per slot this game: pad-played (`Some(true)`), computer-played (`Some(false)`).
    pad_played: [Option<bool>; MAX_PLAYERS],
    last_probe: [u64; MAX_PLAYERS],
    last_board: Option<[u8; CELLS]>,
    still_frames: u32,
    next_ready_probe: u64,
    refused_plans: u32,
    pub calibration: Option<Calibration>,
    status: String,
    pub moves_entered: u64,
    /// Moves chosen (searched or not), whether or not entered yet.
    pub choices: u64,
    pub games: u32,
    pub wins: u32,
    pub errors: Vec<String>,
    /// The picture player (`sight=on`, the default), on hosts that have a picture.
    sight: Option<Box<SightState>>,
    /// `ram=off`: never read the game's RAM, play from the picture alone.
    use_ram: bool,
    /// Why the RAM shortcut is not in use (with the picture player).
    ram_problem: Option<String>,
    /// A given map (`ram_map=FILE`) not yet confirmed by the picture: a hint, not yet a
    /// map in use.
    hint_unconfirmed: bool,
    /// The picture player counts games and wins (the RAM player steering for it does not).
    sight_counts_games: bool,
    /// The RAM player is entering moves for the picture player this frame.
    steering_for_sight: bool,
    /// Whether the RAM player may enter moves for the picture player (until it fails to).
    ram_may_steer: bool,
    /// The pads the picture player has seen move its pieces: the only ones RAM steers.
    sight_pads: [bool; MAX_PLAYERS],
    rom: Option<RomInfo>,
}

impl SpotPlugin {
    pub fn from_options(opts: &PluginOptions) -> Result<SpotPlugin, String> {
        let mut plugin = SpotPlugin {
            maps: parse_ram_maps(BUILTIN_RAM_MAPS, "built-in RAM maps")?,
            trusted: false,
            save_map: None,
            state: MapState::Unattached,
            seats: None,
            algorithm: None,
            model: true,
            move_time: Duration::from_millis(200),
            move_nodes: None,
            depth: None,
            level: None,
            players: (0..MAX_PLAYERS).map(|_| None).collect(),
            plan: None,
            pressing: None,
            hold: 1,
            pending_prize: None,
            was_playing: false,
            game_on: false,
            pad_played: [None; MAX_PLAYERS],
            last_probe: [0; MAX_PLAYERS],
            last_board: None,
            still_frames: 0,
            next_ready_probe: 0,
            refused_plans: 0,
            calibration: None,
            status: String::new(),
            moves_entered: 0,
            choices: 0,
            games: 0,
            wins: 0,
            errors: Vec::new(),
            sight: Some(Box::new(SightState::new())),
            use_ram: true,
            ram_problem: None,
            hint_unconfirmed: false,
            sight_counts_games: false,
            steering_for_sight: false,
            ram_may_steer: true,
            sight_pads: [false; MAX_PLAYERS],
            rom: None,
        };
        for (key, value) in opts {
            match key.as_str() {
                "ram_map" => {
                    plugin.maps = load_ram_maps(value)?;
                    plugin.trusted = true;
                }
                "save_map" => plugin.save_map = Some(value.clone()),
                "seats" => plugin.seats = Some(parse_slots(value)?),
                "search" => plugin.algorithm = Some(Algorithm::parse(value)?),
                "model" => {
                    plugin.model = match value.as_str() {
                        "on" | "true" | "1" => true,
                        "off" | "false" | "0" => false,
                        _ => return Err(format!("model: '{value}' is not on/off")),
                    }
                }
                "move_ms" => {
                    let ms: u64 = value.parse().map_err(|_| {
                        format!("move_ms: '{value}' is not a number of milliseconds")
                    })?;
                    plugin.move_time = Duration::from_millis(ms.max(1));
                }
                "move_nodes" => {
                    plugin.move_nodes =
                        Some(value.parse().map_err(|_| {
                            format!("move_nodes: '{value}' is not a number of nodes")
                        })?);
                }
                "level" => plugin.level = Some(Level::parse(value)?.number),
                "sight" => {
                    plugin.sight = on_off("sight", value)?.then(|| Box::new(SightState::new()))
                }
                "ram" => plugin.use_ram = on_off("ram", value)?,
                "depth" => {
                    plugin.depth = Some(
                        value
                            .parse()
                            .map_err(|_| format!("depth: '{value}' is not a number of plies"))?,
                    );
                }
                _ => {
                    return Err(format!(
                        "unknown spot option '{key}' (ram_map, save_map, seats, search, model, move_ms, move_nodes, depth, level, sight, ram)"
                    ));
                }
            }
        }
        Ok(plugin)
    }

    /// The map being played on, once calibration (or the given map) has one.
    pub fn map(&self) -> Option<&RamMap> {
        match &self.state {
            MapState::Ready(m) => Some(m),
            _ => None,
        }
    }

    /// The RAM map the player reads positions through: a calibrated one, or a given one
    /// once the picture has confirmed it (with the picture player off, as given).
    pub fn map_in_use(&self) -> Option<&RamMap> {
        let unconfirmed = self.hint_unconfirmed && self.sight.is_some();
        self.map().filter(|_| !unconfirmed)
    }

    /// The last search made for `slot` this game (none before its first move, after a
    /// weak level's random move, or once the game is over).
    pub fn last_search(&self, slot: usize) -> Option<&SearchResult<Move>> {
        self.players.get(slot)?.as_ref()?.last_search.as_ref()
    }

    /// The status line it last set.
    pub fn status_line(&self) -> &str {
        match &self.sight {
            Some(st) if !st.status().is_empty() => st.status(),
            _ => &self.status,
        }
    }

    /// Why the RAM shortcut is not in use: the last RAM calibration try's problem, or why
    /// the map was dropped.
    pub fn ram_problem(&self) -> Option<&str> {
        match &self.state {
            MapState::Calibrating(c) if c.problem.is_some() => c.problem.as_deref(),
            MapState::Failed(why) => Some(why),
            _ => self.ram_problem.as_deref(),
        }
    }

    /// What the picture player learned, once it has calibrated.
    pub fn sight_calibration(&self) -> Option<&crate::sight::Calibrated> {
        self.sight.as_ref()?.calibrated()
    }

    /// Why the player stopped, if it did.
    pub fn failure(&self) -> Option<&str> {
        match &self.state {
            MapState::Failed(why) => Some(why),
            _ => None,
        }
    }

    /// The picture player's last calibration problem, if it has one.
    pub fn sight_problem(&self) -> Option<&str> {
        self.sight.as_ref().and_then(|s| s.problem())
    }

    /// Why the player stopped, or why its last calibration try failed while it waits for
    /// another start position.
    pub fn problem(&self) -> Option<&str> {
        if let Some(p) = self.sight.as_ref().and_then(|s| s.problem()) {
            return Some(p);
        }
        match &self.state {
            MapState::Failed(why) => Some(why),
            MapState::Calibrating(c) => c.problem.as_deref(),
            _ => None,
        }
    }

    fn set_status(&mut self, frame: &mut dyn Frame, line: String) {
        if line != self.status {
            frame.set_status(&line);
            self.status = line;
        }
    }

    fn fail(&mut self, frame: &mut dyn Frame, why: String) {
        if self.steering_for_sight {
            // The picture player goes on, entering its moves itself; the map still fills
            // what the hand hides while it agrees with the picture.
            log::info!(
                "spot: the RAM map cannot enter moves ({why}); entering them from the picture from now on"
            );
            self.ram_may_steer = false;
            self.plan = None;
            return;
        }
        log::error!("spot: {why}; pressing no more buttons");
        self.set_status(frame, format!("spot: stopped: {why}"));
        self.errors.push(why.clone());
        self.plan = None;
        self.state = MapState::Failed(why);
    }

    fn calibrated(&mut self, frame: &mut dyn Frame, cal: Calibration) {
        for line in &cal.lines {
            log::info!("spot: calibration: {line}");
        }
        log::info!(
            "spot: calibration took {} frames on forks, done at frame {}",
            cal.fork_frames,
            cal.frame
        );
        if let Some(path) = &self.save_map {
            match nesmind_host::kit::save(path, &cal.map) {
                Ok(()) => log::info!("spot: wrote the calibrated map to {path}"),
                Err(e) => self
                    .errors
                    .push(format!("cannot write the calibrated map to {path}: {e}")),
            }
        }
        if self.sight.is_none() {
            self.set_status(frame, cal.summary());
        }
        self.hold = u64::from(cal.map.press_frames);
        self.state = MapState::Ready(cal.map.clone());
        self.calibration = Some(cal);
    }

    /// With the picture player: RAM calibration runs beside it (a slice per frame), and
    /// the map it finds is a shortcut the picture player checks. A RAM calibration that
    /// fails costs nothing but the shortcut.
    fn step_ram(&mut self, frame: &mut dyn Frame) {
        if let MapState::Calibrating(c) = &mut self.state {
            match c.step(frame) {
                Progress::Waiting(_) => {}
                Progress::Done(cal) => self.calibrated(frame, *cal),
                Progress::Failed(why) => {
                    log::info!(
                        "spot: RAM calibration failed ({why}); playing from the picture alone"
                    );
                    self.ram_problem = Some(why);
                    self.state = MapState::Unattached;
                }
            }
        }
    }

    /// The RAM map found to disagree with the picture: dropped, and RAM is calibrated
    /// again (the game may have moved its data).
    pub(super) fn drop_ram_map(&mut self, why: &str) {
        log::info!(
            "spot: the RAM map disagrees with the picture ({why}); playing from the picture and calibrating RAM again"
        );
        self.ram_problem = Some(why.to_string());
        self.state = MapState::Calibrating(Box::new(Calibrator::new(
            &self.rom.clone().expect("attached"),
            None,
        )));
    }

    /// Whether this player plays `slot` now.
    fn plays(&mut self, map: &RamMap, frame: &dyn Frame, slot: usize) -> bool {
        // Steering for the picture player: only on pads the picture showed to be its own
        // (a seat RAM calls human may be a person's, at a pad the player must not touch).
        if self.steering_for_sight {
            let pad = map.pad_of_player.get(slot).copied();
            if !pad.is_some_and(|p| self.sight_pads[p]) {
                return false;
            }
        }
        if let Some(s) = &self.seats {
            return s.contains(&slot);
        }
        if let Some(human) = map.is_human(frame, slot) {
            return human;
        }
        match self.pad_played[slot] {
            Some(known) => known,
            None => self.pad_answers(map, frame, slot),
        }
    }

    /// Without seat bytes: whether the slot's pad moves the cursor now (tried on a fork at
    /// most every few frames, and only on a settled board).
    fn pad_answers(&mut self, map: &RamMap, frame: &dyn Frame, slot: usize) -> bool {
        let now = frame.frame_number();
        if self.still_frames < 2 || now < self.last_probe[slot] + PROBE_EVERY {
            return false;
        }
        self.last_probe[slot] = now;
        let answers = pad_moves_cursor(frame, map, map.pad_of_player[slot]) == Some(true);
        if answers {
            self.pad_played[slot] = Some(true);
        }
        answers
    }

    fn seat(&mut self, slot: usize, players: usize) -> &mut Seat {
        let algorithm = self.algorithm.unwrap_or_else(|| default_algorithm(players));
        let kind = if let Some(level) = self.level {
            SeatKind::Level(level)
        } else if self.model {
            SeatKind::Modeled(algorithm)
        } else {
            SeatKind::Search(algorithm)
        };
        let (move_time, nodes, depth) = (self.move_time, self.move_nodes, self.depth);
        self.players[slot].get_or_insert_with(|| {
            let mut seat = Seat::new(kind, players, move_time, 0x5EED + slot as u64);
            if nodes.is_some() || depth.is_some() {
                seat.set_fixed_budget(nodes, depth);
            }
            seat
        })
    }

    /// A plan for the situation, or none when nothing is to be done.
    fn make_plan(
        &mut self,
        map: &RamMap,
        frame: &dyn Frame,
        slot: usize,
        phase: u8,
    ) -> Result<Option<Plan>, String> {
        let (pos, _) = map.decode(frame, phase != 0)?;
        if pos.is_over() {
            return Ok(None);
        }
        let mut legal = Vec::new();
        pos.generate(&mut legal);
        let mv = match phase {
            1 => {
                let mv = self.seat(slot, pos.players()).choose(&pos);
                self.choices += 1;
                self.pending_prize = Some(mv);
                mv
            }
            2 => {
                let b = map
                    .bonus
                    .as_ref()
                    .ok_or("a prize move on a map without a bonus game")?;
                let kind = if frame.peek(b.prize_mode) == b.prize_cherry {
                    Kind::Cherry
                } else {
                    Kind::Swap
                };
                match self
                    .pending_prize
                    .take()
                    .filter(|m| m.kind == kind && legal.contains(m))
                {
                    Some(m) => m,
                    None => best_prize_of_kind(&pos, &legal, kind)
                        .ok_or("the game asks for a prize move that has no legal choice")?,
                }
            }
            _ => {
                if legal == [Move::PASS] {
                    return Ok(None); // the game passes by itself
                }
                let mv = self.seat(slot, pos.players()).choose(&pos);
                self.choices += 1;
                if !legal.contains(&mv) || mv.kind != Kind::Step {
                    return Err(format!("search returned {mv}, not a legal step"));
                }
                mv
            }
        };
        plan_for(map, map.board_bytes(frame), &pos, mv, slot, phase).map(Some)
    }

    /// Without screen bytes: a game is on from a start position until a finished one. The
    /// first start position with blocked cells teaches the blocked code if it is not known.
    fn track_game(&mut self, map: &mut RamMap, frame: &dyn Frame) -> bool {
        if map.cells.blocked.is_none() && !self.game_on {
            learn_blocked(map, frame);
        }
        let Ok((pos, slots)) = map.decode(frame, false) else {
            return false;
        };
        if pos.is_over() {
            if self.game_on {
                self.game_on = false;
                self.note_game_end(map, frame, &pos, &slots);
            }
            return false;
        }
        if !self.game_on && is_start(&pos) {
            self.game_on = true;
            self.pad_played = [None; MAX_PLAYERS];
            self.refused_plans = 0;
        }
        self.game_on
    }

    fn note_game_end(&mut self, map: &RamMap, frame: &dyn Frame, pos: &Position, slots: &[usize]) {
        if self.sight_counts_games {
            return;
        }
        self.games += 1;
        if let Outcome::Win(p) = pos.ranking_outcome() {
            let slot = slots[p];
            let ours = match (&self.seats, map.is_human(frame, slot)) {
                (Some(s), _) => s.contains(&slot),
                (None, Some(human)) => human,
                (None, None) => self.pad_played[slot] == Some(true),
            };
            if ours {
                self.wins += 1;
            }
        }
        self.players.iter_mut().for_each(|s| *s = None);
    }

    /// Without screen bytes, a new plan waits for a settled board on which the slot's pad
    /// moves the cursor (tried on a fork every other frame).
    fn ready(&mut self, map: &RamMap, frame: &dyn Frame, slot: usize) -> bool {
        if map.screen.is_some() {
            return true;
        }
        let now = frame.frame_number();
        if self.still_frames < 2 || now < self.next_ready_probe {
            return false;
        }
        self.next_ready_probe = now + 2;
        pad_moves_cursor(frame, map, map.pad_of_player[slot]) == Some(true)
    }

    /// Without screen bytes, a plan for a move is first run on a fork: its move must land as
    /// the rules say. Refused plans are retried a little later; a few in a row stop the player.
    fn tried_on_fork(&mut self, map: &RamMap, frame: &mut dyn Frame, plan: &Plan) -> bool {
        if map.screen.is_some() || plan.phase != 0 {
            return true;
        }
        let Ok((pos, slots)) = map.decode(frame, false) else {
            return false;
        };
        let want = map.encode_board(&pos.play(plan.mv), &slots);
        match plan_works(frame, map, plan, &want) {
            Some(false) => {
                self.refused_plans += 1;
                log::warn!(
                    "spot: {} did not land on a fork as planned ({} of {MAX_REFUSED_PLANS})",
                    plan.mv,
                    self.refused_plans
                );
                self.next_ready_probe = frame.frame_number() + 30;
                if self.refused_plans >= MAX_REFUSED_PLANS {
                    let why = format!(
                        "the game did not take move {} the way calibration predicted, {MAX_REFUSED_PLANS} times",
                        plan.mv
                    );
                    self.fail(frame, why);
                }
                false
            }
            _ => {
                self.refused_plans = 0;
                true
            }
        }
    }

    /// Advances the plan by at most one press.
    fn drive(&mut self, map: &RamMap, frame: &mut dyn Frame) {
        let Some(plan) = self.plan.as_mut() else {
            return;
        };
        match next_press(plan, map, frame) {
            Next::Press { buttons, commits } => {
                let (pad, slot, mv) = (plan.pad, plan.slot, plan.mv);
                frame.set_buttons(pad, buttons);
                self.pressing = Some((pad, 2 * self.hold - 1));
                if commits {
                    self.moves_entered += 1;
                    self.set_status(frame, format!("spot: slot {} plays {mv}", slot + 1));
                }
            }
            Next::Wait | Next::Lost => {
                // Lost cursor or a finished plan: the game owes a reaction, but not forever.
                if plan.is_done()
                    || !plan
                        .steps
                        .iter()
                        .any(|s| matches!(s, Step::StopReel { .. }))
                {
                    plan.idle += 1;
                    if plan.idle > REACTION_FRAMES {
                        self.plan = None;
                    }
                }
            }
            Next::BoardChanged => self.plan = None,
            Next::NoLongerLegal => {
                self.errors
                    .push(format!("{} no longer legal; not entered", plan.mv));
                self.plan = None;
            }
        }
    }

    /// The RAM player's frame: a press held or released, else calibration or play through
    /// the map.
    fn ram_frame(&mut self, frame: &mut dyn Frame) {
        if let Some((pad, left)) = self.pressing {
            // Hold for `hold` frames, then release for as long.
            if left == self.hold {
                frame.set_buttons(pad, Buttons::NONE);
            }
            self.pressing = (left > 1).then_some((pad, left - 1));
            return;
        }
        match std::mem::replace(&mut self.state, MapState::Unattached) {
            MapState::Calibrating(mut c) => match c.step(frame) {
                Progress::Waiting(line) => {
                    self.set_status(frame, line);
                    self.state = MapState::Calibrating(c);
                }
                Progress::Done(cal) => self.calibrated(frame, *cal),
                Progress::Failed(why) => self.fail(frame, format!("calibration: {why}")),
            },
            MapState::Ready(mut map) => {
                self.play(&mut map, frame);
                if matches!(self.state, MapState::Unattached) {
                    self.state = MapState::Ready(map);
                }
            }
            other => self.state = other,
        }
    }

    fn play(&mut self, map: &mut RamMap, frame: &mut dyn Frame) {
        let board = map.board_bytes(frame);
        self.still_frames = if self.last_board == Some(board) {
            self.still_frames + 1
        } else {
            0
        };
        self.last_board = Some(board);
        let bonus = map.in_bonus_game(frame);
        let playing = match &map.screen {
            Some(s) => frame.peek(s.mode) == s.playfield && (bonus || frame.peek(s.playing) != 0),
            None => self.track_game(map, frame),
        };
        if !playing {
            if self.was_playing
                && map.screen.is_some()
                && let Ok((pos, slots)) = map.decode(frame, false)
            {
                self.note_game_end(map, frame, &pos, &slots);
            }
            self.was_playing = false;
            self.plan = None;
            return;
        }
        self.was_playing = true;
        if !bonus && map.screen_idle(frame) == Some(false) {
            return;
        }
        let Some(slot) = map.slot_to_move(frame) else {
            self.plan = None;
            return;
        };
        if !self.plays(map, frame, slot) {
            self.plan = None;
            return;
        }
        let phase = phase(map, frame);
        if self
            .plan
            .as_ref()
            .is_some_and(|p| p.slot != slot || p.phase != phase)
        {
            self.plan = None;
        }
        if self.plan.is_none() {
            if !self.ready(map, frame, slot) {
                return;
            }
            match self.make_plan(map, frame, slot, phase) {
                Ok(Some(p)) => {
                    if !self.tried_on_fork(map, frame, &p) {
                        return;
                    }
                    self.plan = Some(p);
                }
                Ok(None) => return,
                Err(e) => {
                    log::warn!("spot: {e}");
                    self.errors.push(e);
                    return;
                }
            }
        }
        self.drive(map, frame);
    }
}

/// On a start position whose other cells hold the empty code and one code more, that code
/// is the blocked one.
fn learn_blocked(map: &mut RamMap, frame: &dyn Frame) {
    let board = map.board_bytes(frame);
    let corners = [0usize, 6, 42, 48];
    let mut others: Vec<u8> = (0..CELLS)
        .filter(|c| !corners.contains(c))
        .map(|c| board[c])
        .filter(|&v| v != map.cells.empty)
        .collect();
    others.sort_unstable();
    others.dedup();
    let corner_codes_known = corners
        .iter()
        .all(|&c| board[c] == map.cells.empty || map.slot_of_code(board[c]).is_some());
    if let [code] = others[..]
        && corner_codes_known
        && map.slot_of_code(code).is_none()
    {
        log::info!("spot: a start position shows blocked cells: their code is {code:02X}");
        map.cells.blocked = Some(code);
    }
}

/// Whether every player's pieces stand on corners only, as a game starts.
fn is_start(pos: &Position) -> bool {
    let corners: u64 = [0u8, 6, 42, 48].iter().map(|&c| 1u64 << c).sum();
    let each = if pos.players() == 2 { 2 } else { 1 };
    pos.occupied() & !corners == 0 && (0..pos.players()).all(|p| pos.count(p) == each)
}

fn on_off(key: &str, value: &str) -> Result<bool, String> {
    match value {
        "on" | "true" | "1" => Ok(true),
        "off" | "false" | "0" => Ok(false),
        _ => Err(format!("{key}: '{value}' is not on/off")),
    }
}

fn parse_slots(text: &str) -> Result<Vec<usize>, String> {
    text.split(',')
        .map(|s| match s.trim().parse::<usize>() {
            Ok(n) if (1..=MAX_PLAYERS).contains(&n) => Ok(n - 1),
            _ => Err(format!("seats: '{s}' is not a player slot 1-4")),
        })
        .collect()
}

impl Plugin for SpotPlugin {
    fn name(&self) -> &str {
        "spot"
    }
    fn description(&self) -> &str {
        "Plays Spot seats with an N-player search, through the pads"
    }
    fn on_attach(&mut self, rom: &RomInfo, setup: &mut dyn Setup) -> Result<(), String> {
        self.rom = Some(rom.clone());
        let known = find_ram_map(&self.maps, rom).cloned();
        self.state = if self.trusted {
            let map = known.ok_or_else(|| no_map_for(&self.maps, rom))?;
            self.hold = u64::from(map.press_frames);
            self.hint_unconfirmed = true;
            MapState::Ready(map)
        } else {
            MapState::Calibrating(Box::new(Calibrator::new(rom, known)))
        };
        let pads = match &self.seats {
            Some(s) => s.iter().map(|&slot| slot + 1).max().unwrap_or(1),
            None => MAX_PLAYERS,
        };
        setup.use_pads(pads);
        Ok(())
    }

    fn on_frame(&mut self, frame: &mut dyn Frame) {
        if let Some(mut st) = self.sight.take() {
            if !frame.picture().is_empty() {
                self.sight_counts_games = true;
                if self.use_ram {
                    self.step_ram(frame);
                }
                if !self.steer_by_ram(frame, &mut st) {
                    self.sight_frame(frame, &mut st);
                }
                self.sight = Some(st);
                return;
            }
            if !self.use_ram {
                self.fail(
                    frame,
                    "this host shows no picture and ram=off forbids reading RAM".into(),
                );
                return;
            }
            log::info!("spot: this host shows no picture: playing from RAM through the map");
        }
        if self.use_ram {
            self.ram_frame(frame);
        }
    }

    fn result(&self) -> Option<String> {
        let mut line = format!(
            "spot: {} moves entered, {} games, {} won",
            self.moves_entered, self.games, self.wins
        );
        if let MapState::Failed(why) = &self.state {
            line.push_str(&format!("; stopped: {why}"));
        }
        Some(line)
    }
}
