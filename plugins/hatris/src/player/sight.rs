//! The player that plays from the picture (`sight/`): it waits for something that falls by
//! itself, calibrates on forks a slice per frame, and then at each spawn reads the piles
//! from the picture, sees the next pair by dropping this one on a copy, searches, makes
//! the move on a copy (steering from the picture) and gives the real game the same
//! presses. A RAM map, when calibration found one, is checked against the piles read from
//! the picture at every spawn and dropped (said at info level) on a disagreement; while it
//! agrees, the RAM player steers the pair (a sprite may flicker or hide, its bytes do not),
//! and the picture is looked at only at the spawns RAM sees (`steer_by_ram`).

use super::{HatrisPlayer, Phase, describe};
use crate::board::{Board, Geometry, Landing};
use crate::game::{Action, Game};
use crate::moves::route;
use crate::rules::{COLUMNS, CROWN, DERBY, NestReading, Settings, WIZARD};
use crate::sight::act::{Outcome, Spawn, Spawns, call_helper, peek_next, place, spawn_of};
use crate::sight::{Found, HOLD, HatSight, falling, find, sprite_art};
use nesmind_host::Frame;
use nesmind_host::sight::{Job, Lab, Meter, Narrator, Shot, TapeRun, TapeStep};

/// Fork frames of calibration run per game frame.
const GRANT: u64 = 40;
/// Game frames between two looks for something falling, before calibration.
const LOOK_EVERY: u64 = 10;
/// Frames the piles are looked at again, on a copy, before a disagreement is believed: a
/// game may draw a landed hat into its pile a few frames after the next pair appears
/// (one whose Down drops a pair all the way lands it and brings the next at once).
const LOOK_AGAIN: u64 = 12;
/// Frames after a look at the piles while RAM steers before the next, if RAM sees no
/// spawn meanwhile (pairs come every second or two; a helper screen may take longer).
const RAM_CHECK_EVERY: u64 = 300;

enum Mode {
    Looking,
    Calibrating(Job<Result<Found, String>>),
    Playing(Box<HatSight>),
}

pub(super) struct SightPlay {
    mode: Mode,
    next_look: u64,
    tries: u32,
    problem: Option<String>,
    last_oam: Vec<u8>,
    running: Option<TapeRun>,
    /// Tells new pairs from ones already seen.
    spawns: Spawns,
    /// A new pair seen, waiting for its decision.
    pending: bool,
    /// The pair the last frame showed: a pair is decided on once two frames in a row
    /// show it alike (a game may leave OAM half rebuilt for a frame, a hat's top row
    /// missing, which reads as another type).
    last_pair: Option<Spawn>,
    narr: Narrator,
    /// The reading of the nesting table the piles fit.
    reading: NestReading,
    /// A RAM map that agreed with the picture at the last spawn steers the pair (the
    /// RAM player's way); the picture checks it again at every spawn.
    ram_drives: bool,
    /// The RAM player's spawn count when the picture last checked it.
    ram_spawns_seen: u64,
    /// The frame by which the picture checks RAM again even without a spawn RAM saw.
    next_check: u64,
}

impl SightPlay {
    pub(super) fn new() -> SightPlay {
        SightPlay {
            mode: Mode::Looking,
            next_look: 0,
            tries: 0,
            problem: None,
            last_oam: Vec::new(),
            running: None,
            spawns: Spawns::default(),
            pending: false,
            last_pair: None,
            narr: Narrator::new("hatris"),
            reading: NestReading::A,
            ram_drives: false,
            ram_spawns_seen: 0,
            next_check: 0,
        }
    }

    pub(super) fn sight(&self) -> Option<&HatSight> {
        match &self.mode {
            Mode::Playing(s) => Some(s),
            _ => None,
        }
    }

    pub(super) fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }
}

/// Whether some sprites moved straight down since `before`: something falls by itself.
fn something_falls(before: &[u8], now: &[u8]) -> bool {
    now.chunks_exact(4)
        .filter(|a| {
            a[0] < 0xEF
                && before.chunks_exact(4).any(|b| {
                    b[0] < 0xEF && b[3] == a[3] && b[1] == a[1] && a[0] > b[0] && a[0] - b[0] <= 16
                })
        })
        .count()
        >= 2
}

impl HatrisPlayer {
    /// One frame of the picture player.
    pub(super) fn sight_frame(&mut self, frame: &mut dyn Frame, st: &mut SightPlay) {
        st.narr.refresh(frame);
        if let Some(run) = st.running.as_mut() {
            match run.step(frame) {
                TapeStep::Pressed => return,
                TapeStep::Done => {
                    log::trace!(
                        "hatris: frame {}: tape done after {} frames",
                        frame.frame_number(),
                        run.at()
                    );
                    st.running = None;
                    // The copy ended at the next spawn: the real game is there too.
                    st.spawns.reset();
                }
                TapeStep::Diverged { what, after_commit } => {
                    if after_commit {
                        log::debug!("hatris: {what} after the move was made");
                    } else {
                        log::info!("hatris: {what}; stopped pressing");
                    }
                    st.running = None;
                    st.spawns.reset();
                }
            }
        }
        match std::mem::replace(&mut st.mode, Mode::Looking) {
            Mode::Looking => self.sight_look(frame, st),
            Mode::Calibrating(mut job) => match job.step(GRANT) {
                None => {
                    st.narr
                        .say(frame, "calibrating (experiments on copies of the game)");
                    st.mode = Mode::Calibrating(job);
                }
                Some(Ok(Ok(found))) => {
                    for line in &found.lines {
                        log::info!("hatris: calibration: {line}");
                    }
                    self.fork_frames += found.fork_frames;
                    self.calibrated_at = Some(frame.frame_number());
                    st.problem = None;
                    st.narr.say(frame, "calibrated from the picture");
                    st.mode = Mode::Playing(Box::new(found.sight));
                }
                Some(Ok(Err(why)) | Err(why)) => {
                    st.tries += 1;
                    log::info!("hatris: calibration failed: {why}");
                    st.next_look =
                        frame.frame_number() + LOOK_EVERY * 6 * u64::from(st.tries.min(20));
                    st.problem = Some(why);
                }
            },
            Mode::Playing(mut sight) => {
                self.sight_play(frame, st, &mut sight);
                st.mode = Mode::Playing(sight);
            }
        }
    }

    fn sight_look(&mut self, frame: &mut dyn Frame, st: &mut SightPlay) {
        let line = match &st.problem {
            Some(p) => format!("waiting for a falling pair: the last look failed ({p})"),
            None => "waiting for a falling pair".to_string(),
        };
        st.narr.say(frame, &line);
        let now = frame.frame_number();
        let oam = frame.oam().to_vec();
        let falls = something_falls(&st.last_oam, &oam);
        st.last_oam = oam;
        if !falls || now < st.next_look {
            return;
        }
        st.next_look = now + LOOK_EVERY;
        let Some(base) = frame.fork() else { return };
        log::info!("hatris: something falls at frame {now}; calibrating on forks");
        st.mode = Mode::Calibrating(Job::start("hatris-calibration", move |m: &mut Meter| {
            find(m, base)
        }));
    }

    /// The geometry of `reading` with this player's settings.
    fn geometry(&self, reading: NestReading) -> Geometry {
        Geometry::new(&Settings {
            nest_reading: reading,
            ..self.settings.clone()
        })
    }

    fn sight_play(&mut self, frame: &mut dyn Frame, st: &mut SightPlay, sight: &mut HatSight) {
        if st.running.is_some() {
            return;
        }
        if st.ram_drives && self.steer_by_ram(frame, st, sight) {
            return;
        }
        let Some(shot) = Shot::take(frame) else {
            return;
        };
        let tops = sight.tops(&shot);
        let hats = falling(&sight.well, &shot, &*frame, &tops);
        if let Some(s) = st.spawns.see(&hats) {
            let row = sight
                .spawn_row
                .map_or(s.bottom_row, |r| r.min(s.bottom_row));
            sight.spawn_row = Some(row);
            log::trace!("hatris: frame {}: a new pair", frame.frame_number());
            st.pending = true;
        }
        let pair = spawn_of(&hats);
        let steady = pair
            .as_ref()
            .zip(st.last_pair.as_ref())
            .is_some_and(|(a, b)| a.kinds == b.kinds && a.cols == b.cols && a.looks == b.looks);
        st.last_pair = pair.clone();
        match pair.filter(|_| st.pending && steady) {
            None => {
                if !st.pending {
                    st.narr.acted();
                }
            }
            Some(spawn) => match self.decide_seen(frame, st, sight, &shot, &spawn) {
                Ok(()) => {
                    st.pending = false;
                    st.narr.acted();
                }
                Err(why) => {
                    log::debug!(
                        "hatris: frame {}: cannot decide: {why}",
                        frame.frame_number()
                    );
                    st.narr.waiting(frame, &why)
                }
            },
        }
        if st.ram_drives {
            self.play(frame);
        }
    }

    /// The piles as the picture shows them at a spawn (looked at again on a copy where
    /// they surprise), with what the picture can learn there; `None` when the RAM map,
    /// which they were compared with, steers this pair.
    fn look_at_piles(
        &mut self,
        frame: &mut dyn Frame,
        st: &mut SightPlay,
        sight: &mut HatSight,
        shot: &Shot,
    ) -> Result<Option<[Vec<u8>; COLUMNS]>, String> {
        // Types seen falling but not yet landed: their pile pictures from their colours.
        let hats = falling(&sight.well, shot, &*frame, &sight.tops(shot));
        for h in &hats {
            if let (Some(k), Some(art)) = (h.kind, sprite_art(&sight.well, shot, h)) {
                sight.sprite_arts[k as usize - 1].get_or_insert(art.clone());
                sight.learn_from_sprite(k, &art);
            }
        }
        let geo = self.geometry(st.reading);
        // Types that landed since the last spawn show whole on top of their piles.
        if let Some(want) = &self.expect
            && sight.learn_tops(shot, want, &geo)
        {
            log::debug!("hatris: learned the pile pictures of the hats just landed");
        }
        let piles = match sight.read_piles(shot, &geo) {
            Ok(p) => p,
            Err(why) => {
                let other = match st.reading {
                    NestReading::A => NestReading::B,
                    NestReading::B => NestReading::A,
                };
                match sight.read_piles(shot, &self.geometry(other)) {
                    Ok(p) => {
                        log::info!("hatris: the piles fit the nesting table read as {other:?}");
                        st.reading = other;
                        self.settings.nest_reading = other;
                        self.geo = Geometry::new(&self.settings);
                        p
                    }
                    // RAM that nothing has contradicted fills what the picture cannot
                    // read (a hat type whose pile picture is not learned yet).
                    Err(_) if self.ram_ready() => {
                        self.let_ram_steer(
                            st,
                            &format!(
                                "{why}: steering through the RAM map until the picture can check it"
                            ),
                        );
                        return Ok(None);
                    }
                    Err(_) => return Err(format!("{why}: pressing nothing")),
                }
            }
        };
        let geo = self.geometry(st.reading);
        let piles = self.look_again(frame, sight, &geo, piles);
        // The RAM shortcut steers while it agrees with the picture: the RAM player reads
        // the falling pair where the picture may lose it (sprites that flicker or hide).
        if self.ram_ready() {
            self.check_ram(frame, &piles);
            if self.map.is_some() {
                self.let_ram_steer(
                    st,
                    "the RAM map agrees with the picture: steering through it, checked at every spawn",
                );
                return Ok(None);
            }
        }
        Ok(Some(piles))
    }

    fn decide_seen(
        &mut self,
        frame: &mut dyn Frame,
        st: &mut SightPlay,
        sight: &mut HatSight,
        shot: &Shot,
        spawn: &Spawn,
    ) -> Result<(), String> {
        let Some(piles) = self.look_at_piles(frame, st, sight, shot)? else {
            return Ok(());
        };
        if st.ram_drives {
            log::info!("hatris: playing from the picture again");
            st.ram_drives = false;
        }
        let geo = self.geometry(st.reading);
        let mut board = Board::default();
        board.set_piles(&geo, &piles);
        // The model's expectation from the last decision.
        let clears = std::mem::take(&mut self.clears);
        match self.expect.take() {
            Some(want) if want == piles => {
                for &hat in &clears {
                    self.tracker.cleared(hat, &self.settings);
                }
            }
            Some(want) => {
                self.surprises += 1;
                log::info!("hatris: the piles are {piles:?}, the model expected {want:?}");
            }
            None => {}
        }
        self.check_ram(frame, &piles);
        let Some(base) = frame.fork() else {
            return Err("this host cannot copy the game".into());
        };
        let mut meter = Meter::unlimited();
        let mut lab = Lab::new(&mut meter, HOLD);
        let next = peek_next(sight, &mut lab, &base)?;
        let known = |t: u8| sight.arts[t as usize - 1].is_some();
        let level = if known(CROWN) {
            6
        } else if known(WIZARD) {
            3
        } else {
            known(DERBY) as u32
        };
        let game = Game::observed(
            Settings {
                nest_reading: st.reading,
                ..self.settings.clone()
            },
            board.clone(),
            (spawn.kinds, next),
            self.tracker.pool().to_vec(),
            level,
            0,
        );
        let mut game = game;
        // Which helper B brings, if the pool says one waits: tried on a copy (the award
        // rule is one of two documented ones; the game settles it).
        if !game.pool.is_empty() {
            let seen = crate::sight::act::which_helper(sight, &mut lab, &base, &board)?;
            if seen != game.pool.last().copied() {
                log::debug!(
                    "hatris: expected helper {:?}, B brings {seen:?}",
                    game.pool.last()
                );
                self.tracker.seen(seen);
                game.pool = self.tracker.pool().to_vec();
            }
        }
        let mut action = self.searcher.choose(&game);
        log::debug!(
            "hatris: frame {}: pair {:?} over {:?} (bottom row {}), next {next:?}, piles {piles:?}: {action:?}",
            frame.frame_number(),
            spawn.kinds,
            spawn.cols,
            spawn.bottom_row
        );
        let mut outcome = self.try_action(sight, &geo, &mut lab, &base, spawn, &board, action);
        if outcome.is_err() && !matches!(action, Action::Place(_)) {
            // The helper did not come as counted: play without it this time.
            let why = outcome.as_ref().err().cloned().unwrap_or_default();
            log::info!(
                "hatris: the helper call did not go as planned ({why}); placing the pair instead"
            );
            self.tracker.seen(None);
            let mut g = game.clone();
            g.pool.clear();
            action = self.searcher.choose(&g);
            outcome = self.try_action(sight, &geo, &mut lab, &base, spawn, &board, action);
        }
        let outcome = outcome?;
        self.fork_frames += lab.frames();
        // What the model makes of the action, to compare with the next spawn.
        let mut b = board.clone();
        let mut log = Vec::new();
        match action {
            Action::Place(p) => {
                for (col, hat) in [(p.first, spawn.kinds.0), (p.second, spawn.kinds.1)] {
                    if let Landing::Cleared(h) = b.land(&geo, col as usize, hat, &mut log) {
                        self.clears.push(h);
                    }
                }
            }
            Action::Alexey(counts) => {
                b.remove_bottoms(&geo, &counts);
                self.tracker.used();
                self.helper_calls += 1;
            }
            Action::Vladimir(x, y) => {
                b.swap_piles(x as usize, y as usize);
                self.tracker.used();
                self.helper_calls += 1;
            }
        }
        let want: [Vec<u8>; COLUMNS] = std::array::from_fn(|c| b.piles[c].hats().collect());
        if let Ok(after) = &outcome.piles
            && *after != want
        {
            log::debug!("hatris: on the copy the piles became {after:?}, the model said {want:?}");
        }
        self.expect = Some(want);
        self.decisions += 1;
        self.last_action = Some(action);
        st.narr.say(
            frame,
            describe(action, spawn.kinds).trim_start_matches("hatris: "),
        );
        log::trace!(
            "hatris: the move takes {} frames (committed after {}); next pair on the copy {:?}",
            outcome.tape.frames.len(),
            outcome.tape.committed,
            outcome.next.as_ref().map(|n| (n.kinds, n.cols))
        );
        let mut run = TapeRun::new(outcome.tape);
        run.step(frame);
        st.running = Some(run);
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn try_action(
        &self,
        sight: &HatSight,
        geo: &Geometry,
        lab: &mut Lab,
        base: &nesmind_host::Fork,
        spawn: &Spawn,
        board: &Board,
        action: Action,
    ) -> Result<Outcome, String> {
        match action {
            Action::Place(p) => {
                let r = route(geo, &board.heights(), spawn.kinds, p)
                    .ok_or_else(|| format!("no way to steer the pair to {p:?}"))?;
                place(sight, geo, lab, base, spawn, board, &r)
            }
            helper => {
                let out = call_helper(sight, geo, lab, base, helper)?;
                // The helper must have done what the model says it does.
                let mut b = board.clone();
                match helper {
                    Action::Alexey(counts) => b.remove_bottoms(geo, &counts),
                    Action::Vladimir(x, y) => b.swap_piles(x as usize, y as usize),
                    Action::Place(_) => {}
                }
                let want: [Vec<u8>; COLUMNS] = std::array::from_fn(|c| b.piles[c].hats().collect());
                match &out.piles {
                    Ok(p) if *p == want => Ok(out),
                    Ok(p) => Err(format!("the piles became {p:?}, not {want:?}")),
                    Err(e) => Err(e.clone()),
                }
            }
        }
    }

    /// While the RAM map steers, the picture is looked at only at the spawns RAM sees, and
    /// every [`RAM_CHECK_EVERY`] frames in case RAM no longer sees them: the piles are read
    /// there and compared with RAM (a disagreement drops the map). The frames between cost
    /// no picture work. False once the picture must play: it takes the pair at hand.
    fn steer_by_ram(
        &mut self,
        frame: &mut dyn Frame,
        st: &mut SightPlay,
        sight: &mut HatSight,
    ) -> bool {
        let now = frame.frame_number();
        if self.ram_ready() && (self.ram_spawns != st.ram_spawns_seen || now >= st.next_check) {
            st.ram_spawns_seen = self.ram_spawns;
            st.next_check = now + RAM_CHECK_EVERY;
            if let Some(shot) = Shot::take(frame) {
                match self.look_at_piles(frame, st, sight, &shot) {
                    Ok(None) => st.narr.acted(),
                    Ok(Some(_)) => {}
                    Err(why) => log::debug!("hatris: frame {now}: the piles cannot be read: {why}"),
                }
            }
        }
        if self.ram_ready() {
            self.play(frame);
            return true;
        }
        log::info!("hatris: playing from the picture again");
        st.ram_drives = false;
        st.pending = false;
        st.spawns.reset();
        false
    }

    /// Whether the RAM player could steer now: a map calibrated and play under way.
    fn ram_ready(&self) -> bool {
        self.map.is_some() && matches!(self.phase, Phase::Playing)
    }

    /// Hands the pair to the RAM player (`why` is said when it takes over); it starts
    /// afresh, its view of the pair from before being stale.
    fn let_ram_steer(&mut self, st: &mut SightPlay, why: &str) {
        if !st.ram_drives {
            log::info!("hatris: {why}");
            self.prev_heights = None;
            self.spawning = None;
        }
        st.ram_drives = true;
    }

    /// The piles as RAM has them, when the map knows every byte there.
    fn ram_piles(&self, frame: &dyn Frame) -> Option<[Vec<u8>; COLUMNS]> {
        let map = self.map.as_ref()?;
        let codes = crate::runtime::pile_codes(frame, map);
        let ram: Vec<Vec<u8>> = codes
            .iter()
            .map(|col| {
                col.iter()
                    .map(|&k| map.hat_of(k))
                    .collect::<Option<Vec<u8>>>()
            })
            .collect::<Option<_>>()?;
        ram.try_into().ok()
    }

    /// `piles` as read at a spawn, or, where they differ from what the model expected or
    /// RAM says, what a copy of the game shows a few frames on if that agrees: a surprise
    /// is only believed once the picture has had time to catch up.
    fn look_again(
        &mut self,
        frame: &dyn Frame,
        sight: &HatSight,
        geo: &Geometry,
        piles: [Vec<u8>; COLUMNS],
    ) -> [Vec<u8>; COLUMNS] {
        let wanted: Vec<[Vec<u8>; COLUMNS]> = self
            .expect
            .iter()
            .cloned()
            .chain(self.ram_piles(frame))
            .collect();
        if wanted.is_empty() || wanted.contains(&piles) {
            return piles;
        }
        let Some(mut fork) = frame.fork() else {
            return piles;
        };
        fork.set_buttons(0, nesmind_host::Buttons::NONE);
        let mut meter = Meter::unlimited();
        let mut lab = Lab::new(&mut meter, HOLD);
        let mut seen = piles;
        for _ in 0..LOOK_AGAIN {
            if lab.run(&mut fork, 1).is_err() {
                break;
            }
            let Some(shot) = Shot::take(&fork) else { break };
            if let Ok(later) = sight.read_piles(&shot, geo)
                && wanted.contains(&later)
            {
                log::debug!("hatris: the piles {seen:?} showed as {later:?} a few frames on");
                seen = later;
                break;
            }
        }
        self.fork_frames += lab.frames();
        seen
    }

    /// Compares the RAM map's piles with the picture's; a map that disagrees is dropped.
    fn check_ram(&mut self, frame: &dyn Frame, piles: &[Vec<u8>; COLUMNS]) {
        if self.map.is_none() {
            return;
        }
        // Bytes the RAM map has not identified yet (a hat type not seen before) neither
        // confirm nor contradict it.
        let Some(ram) = self.ram_piles(frame) else {
            return;
        };
        // A well the picture shows empty under RAM's hats is a screen between plays (a
        // bonus, a level's title), not a contradiction.
        if piles.iter().all(Vec::is_empty) && ram.iter().any(|c| !c.is_empty()) {
            log::debug!("hatris: the picture shows no piles where RAM has {ram:?}: not compared");
            return;
        }
        if ram.iter().zip(piles).any(|(a, b)| a != b) {
            log::info!(
                "hatris: the RAM map's piles ({ram:?}) disagree with the picture's ({piles:?}); playing from the picture and calibrating RAM again"
            );
            self.map = None;
            self.ram_dropped += 1;
        }
    }
}
