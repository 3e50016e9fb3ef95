//! The player that plays from the picture (`sight/`): it looks for a pad that moves a hand
//! on a 7 x 7 board, calibrates on forks a slice per frame, and then, whenever one of its
//! pads moves the hand, reads the board from the picture, searches, enters the move on a
//! fork and checks it there, and gives the real game the same presses. While a RAM map is
//! in use, the RAM player enters the moves instead, each after the picture has been
//! compared with RAM (`steer_by_ram`). The status line always says what it does or waits
//! for; a wait where it should act becomes a warning.

use super::SpotPlugin;
use crate::board::{CELLS, square_name};
use crate::moves::Move;
use crate::position::{MAX_PLAYERS, Outcome};
use crate::sight::probe::{Answer, Located, class_of_pad, locate, look_further, read_board};
use crate::sight::steer::enter;
use crate::sight::{
    Calibrated, Cell, STILL, Sight, boards_after_orders, calibrate, cells_of, narrow_orders,
};
use nesmind_host::sight::{Job, Lab, Meter, Narrator, Picture, Shot, Stillness, TapeRun, TapeStep};
use nesmind_host::{Buttons, Frame};

/// Fork frames of calibration run per game frame (about 10 ms).
const GRANT: u64 = 40;
/// Game frames between two looks for a pad that moves a hand, before calibration.
const LOOK_EVERY: u64 = 20;
/// Game frames between two asks of the player's pads in play.
const ASK_EVERY: u64 = 4;
/// Press lengths tried in turn (frames held), for games that read the pads slowly.
const HOLDS: [u64; 3] = [1, 2, 4];
/// Game frames the board may stay still with no pad of ours asked before the player says so.
const QUIET_WARN: u32 = 600;
/// Frames of a still board with no move planned after which the picture player looks
/// for a turn on forks even while RAM steers.
const RAM_QUIET: u32 = 120;
/// Moves refused on a fork in a row before the player stops trying that position.
const MAX_REFUSED: u32 = 3;

type CalJob = Job<Result<Calibrated, String>>;

enum Mode {
    Looking,
    Calibrating { job: CalJob, pad: usize },
    Playing(Box<Calibrated>),
}

/// The tape being played into the real game, and the move it enters.
struct Running {
    tape: TapeRun,
    mv: Move,
}

pub(super) struct SightState {
    mode: Mode,
    still: Stillness,
    next_look: u64,
    hold: usize,
    tries: u32,
    problem: Option<String>,
    class_of_pad: [Option<u8>; MAX_PLAYERS],
    running: Option<Running>,
    refused: u32,
    refused_key: u64,
    /// The boards the rules allow until our next turn, from the last move made.
    expected: Vec<[Cell; CELLS]>,
    /// The board right after our last move and the class that made it (to narrow the turn
    /// orders down at the next turn).
    after_ours: Option<([Cell; CELLS], u8)>,
    over_noted: bool,
    /// The RAM player enters the moves (see `steer_by_ram`).
    ram_steers: bool,
    narr: Narrator,
}

impl SightState {
    pub(super) fn new() -> SightState {
        SightState {
            mode: Mode::Looking,
            still: Stillness::new(None),
            next_look: 0,
            hold: 0,
            tries: 0,
            problem: None,
            class_of_pad: [None; MAX_PLAYERS],
            running: None,
            refused: 0,
            refused_key: 0,
            expected: Vec::new(),
            after_ours: None,
            over_noted: false,
            ram_steers: false,
            narr: Narrator::new("spot"),
        }
    }

    /// The calibration in use, once there is one.
    pub(super) fn calibrated(&self) -> Option<&Calibrated> {
        match &self.mode {
            Mode::Playing(c) => Some(c),
            _ => None,
        }
    }

    pub(super) fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }

    pub(super) fn status(&self) -> &str {
        self.narr.line()
    }
}

impl SpotPlugin {
    /// One frame of the picture player.
    pub(super) fn sight_frame(&mut self, frame: &mut dyn Frame, st: &mut SightState) {
        st.narr.refresh(frame);
        if self.run_tape(frame, st) {
            return;
        }
        let Some(shot) = Shot::take(frame) else {
            return;
        };
        let quiet = st.still.observe(&shot.pic);
        match std::mem::replace(&mut st.mode, Mode::Looking) {
            Mode::Looking => self.look(frame, st, &shot, quiet),
            Mode::Calibrating { mut job, pad } => match job.step(GRANT) {
                None => {
                    st.narr.say(
                        frame,
                        &format!(
                            "calibrating on pad {} (experiments on copies of the game)",
                            pad + 1
                        ),
                    );
                    st.mode = Mode::Calibrating { job, pad };
                }
                Some(Ok(Ok(cal))) => {
                    for line in &cal.lines {
                        log::info!("spot: calibration: {line}");
                    }
                    st.class_of_pad[cal.pad] = Some(cal.ours);
                    let line = format!(
                        "calibrated from the picture at frame {}",
                        frame.frame_number()
                    );
                    st.narr.say(frame, &line);
                    st.problem = None;
                    st.still = Stillness::new(Some(cal.sight.grid.board_area()))
                        .ignoring(cal.sight.live.clone());
                    st.mode = Mode::Playing(Box::new(cal));
                }
                Some(Ok(Err(why)) | Err(why)) => {
                    st.tries += 1;
                    log::info!("spot: calibration on pad {} failed: {why}", pad + 1);
                    // Lost presses may need longer ones.
                    if why.contains("presses") || why.contains("press") {
                        st.hold = (st.hold + 1).min(HOLDS.len() - 1);
                    }
                    st.next_look =
                        frame.frame_number() + LOOK_EVERY * (1 + u64::from(st.tries.min(15)));
                    st.problem = Some(why);
                }
            },
            Mode::Playing(mut cal) => {
                self.play_seen(frame, st, &mut cal, &shot, quiet);
                if matches!(st.mode, Mode::Looking) {
                    st.mode = Mode::Playing(cal);
                }
            }
        }
    }

    /// With a calibrated picture and a RAM map in use, the RAM player enters the moves as
    /// it would without a picture (no rehearsal on a fork, no wait for a settled picture
    /// between presses: a move takes the game's own frames, and deciding costs the search).
    /// Before it may plan a move the settled picture is read and compared with RAM; a
    /// disagreement drops the map (said at info level) and the picture player takes over,
    /// as it does for a frame whenever the board has been still for [`RAM_QUIET`] frames
    /// with nothing planned (so a turn RAM does not see is found on forks, and a wait is
    /// never silent). False when the picture player plays this frame.
    pub(super) fn steer_by_ram(&mut self, frame: &mut dyn Frame, st: &mut SightState) -> bool {
        let steers = self.use_ram
            && self.ram_may_steer
            && st.running.is_none()
            && matches!(st.mode, Mode::Playing(_))
            && self.map_in_use().is_some();
        if steers != st.ram_steers {
            log::info!(
                "spot: {}",
                if steers {
                    "the RAM map is in use: entering moves through it, checked against the picture before each"
                } else {
                    "entering moves from the picture"
                }
            );
            st.ram_steers = steers;
        }
        if !steers {
            return false;
        }
        let Some(shot) = Shot::take(frame) else {
            return false;
        };
        let Mode::Playing(cal) = std::mem::replace(&mut st.mode, Mode::Looking) else {
            unreachable!("checked above");
        };
        let quiet = st.still.observe(&shot.pic);
        self.note_game(st, &cal, &shot);
        st.narr.refresh(frame);
        let idle = self.plan.is_none() && self.pressing.is_none();
        if idle && quiet >= RAM_QUIET {
            let mut cal = cal;
            self.play_seen(frame, st, &mut cal, &shot, quiet);
            if matches!(st.mode, Mode::Looking) {
                st.mode = Mode::Playing(cal);
            }
        } else if idle && quiet < STILL {
            // Nothing is planned on a board that is still moving.
            st.mode = Mode::Playing(cal);
        } else {
            self.sight_pads = st.class_of_pad.map(|k| k.is_some());
            // RAM says a pad of ours is to move: it will plan, so the picture checks first.
            let seen = (idle && self.ram_turn_is_ours(frame)).then(|| cal.sight.read(&shot));
            st.mode = Mode::Playing(cal);
            if let Some(seen) = seen
                && self.ram_board(frame, &seen, 0).is_none()
            {
                // Dropped: the picture player takes over from the next frame.
                return true;
            }
            let entered = self.moves_entered;
            self.steering_for_sight = true;
            self.ram_frame(frame);
            self.steering_for_sight = false;
            // The picture player's expectations date from its own last move.
            st.expected.clear();
            st.after_ours = None;
            st.narr.acted();
            if self.moves_entered > entered {
                let line = self.status.trim_start_matches("spot: ").to_string();
                st.narr.say(frame, &line);
            } else if self.plan.is_none() {
                st.narr.say(frame, "waiting for my turn");
            }
        }
        true
    }

    /// Whether RAM has a slot to move whose pad the picture player plays.
    fn ram_turn_is_ours(&self, frame: &dyn Frame) -> bool {
        let Some(map) = self.map() else { return false };
        map.slot_to_move(frame)
            .and_then(|slot| map.pad_of_player.get(slot).copied())
            .is_some_and(|pad| self.sight_pads[pad])
    }

    /// The pads this player plays: `seats=` (slot N on pad N), else all four.
    fn our_pads(&self) -> Vec<usize> {
        match &self.seats {
            Some(s) => s.clone(),
            None => (0..MAX_PLAYERS).collect(),
        }
    }

    /// Before calibration: every few frames of a still picture, does a pad of ours change
    /// the picture with Left or Right? Then calibrate on that pad.
    fn look(&mut self, frame: &mut dyn Frame, st: &mut SightState, shot: &Shot, quiet: u32) {
        let why = match &st.problem {
            Some(p) => {
                format!("waiting for a game to start: the last look at the board failed ({p})")
            }
            None => {
                "waiting for a game to start: no pad of mine moves a hand on a board yet".into()
            }
        };
        st.narr.say(frame, &why);
        let now = frame.frame_number();
        if quiet < STILL || now < st.next_look {
            return;
        }
        st.next_look = now + LOOK_EVERY;
        let Some(base) = frame.fork() else { return };
        let mut meter = Meter::unlimited();
        let hold = HOLDS[st.hold];
        let mut lab = Lab::new(&mut meter, hold);
        for pad in self.our_pads() {
            if responds(&mut lab, &base, shot, pad).unwrap_or(false) {
                log::info!(
                    "spot: pad {} changes the picture at frame {now}; calibrating on forks",
                    pad + 1
                );
                let job = Job::start("spot-calibration", move |m: &mut Meter| {
                    calibrate(m, base, pad, hold)
                });
                st.mode = Mode::Calibrating { job, pad };
                return;
            }
        }
    }

    /// Plays the running tape's next frame; false when no tape runs.
    fn run_tape(&mut self, frame: &mut dyn Frame, st: &mut SightState) -> bool {
        let Some(run) = st.running.as_mut() else {
            return false;
        };
        match run.tape.step(frame) {
            TapeStep::Pressed => true,
            TapeStep::Done => {
                st.running = None;
                false
            }
            TapeStep::Diverged { what, after_commit } => {
                // After the committing press only waiting is left: someone else (a person
                // at another pad, a harness) moved the game on.
                if after_commit {
                    log::debug!("spot: {what} after {} was entered", run.mv);
                } else {
                    log::info!("spot: {what} while entering {}; stopped pressing", run.mv);
                }
                st.running = None;
                false
            }
        }
    }

    fn play_seen(
        &mut self,
        frame: &mut dyn Frame,
        st: &mut SightState,
        cal: &mut Calibrated,
        shot: &Shot,
        quiet: u32,
    ) {
        if quiet < STILL {
            st.narr.acted();
            return;
        }
        self.note_game(st, cal, shot);
        let now = frame.frame_number();
        if !now.is_multiple_of(ASK_EVERY) {
            return;
        }
        let Some(base) = frame.fork() else { return };
        let mut meter = Meter::unlimited();
        let mut lab = Lab::new(&mut meter, cal.sight.hold);
        for pad in self.our_pads() {
            match locate(&cal.sight, &mut lab, &base, shot, pad) {
                Ok(Answer::Hand(at)) => {
                    if let Err(why) = self.decide(frame, st, cal, &mut lab, &base, shot, pad, &at) {
                        st.narr.waiting(frame, &why);
                    }
                    return;
                }
                Ok(_) => {}
                Err(why) => log::debug!("spot: asking pad {}: {why}", pad + 1),
            }
        }
        if quiet >= QUIET_WARN {
            st.narr.waiting(
                frame,
                &format!(
                    "the board has been still for {} s and no pad of mine moves the hand",
                    quiet / 60
                ),
            );
        } else {
            st.narr.acted();
            st.narr.say(frame, "waiting for my turn");
        }
    }

    /// Counts a finished game once (when the board, fully read, is over) and starts a new
    /// one's bookkeeping at a start position.
    fn note_game(&mut self, st: &mut SightState, cal: &Calibrated, shot: &Shot) {
        let Some(board) = cal.sight.read(shot).complete() else {
            return;
        };
        let Ok(pos) = Sight::position(&board, &cal.order, 0) else {
            return;
        };
        if is_start(&board) {
            st.after_ours = None;
            st.expected.clear();
            if st.over_noted {
                self.players.iter_mut().for_each(|s| *s = None);
            }
            st.over_noted = false;
            return;
        }
        if !pos.is_over() || st.over_noted {
            return;
        }
        st.over_noted = true;
        self.games += 1;
        if let Outcome::Win(p) = pos.ranking_outcome() {
            let winner = cal.order[p];
            if st.class_of_pad.iter().flatten().any(|&k| k == winner) {
                self.wins += 1;
            }
        }
        self.players.iter_mut().for_each(|s| *s = None);
    }

    #[allow(clippy::too_many_arguments)]
    fn decide(
        &mut self,
        frame: &mut dyn Frame,
        st: &mut SightState,
        cal: &mut Calibrated,
        lab: &mut Lab,
        base: &nesmind_host::Fork,
        shot: &Shot,
        pad: usize,
        at: &Located,
    ) -> Result<(), String> {
        let sight = &cal.sight;
        let mut seen = read_board(sight, shot, at)?;
        // The RAM map, while it agrees with the picture, fills what the hand hides;
        // otherwise the hand is moved further on a fork.
        let ram = self.ram_board(frame, &seen, pad);
        if let Some(ram) = &ram {
            for (c, v) in seen.cells.iter_mut().zip(ram) {
                if c.is_none() {
                    *c = *v;
                }
            }
        }
        if !seen.unknown().is_empty() {
            look_further(sight, lab, &mut seen, at, pad)?;
        }
        if !seen.unknown().is_empty() && !st.expected.is_empty() {
            // Cells hidden in every look: what the rules allow since the last move.
            seen.infer(&st.expected);
        }
        if let Some(&c) = seen.unseen.first() {
            return Err(format!(
                "the picture of {} matches no cell I know: pressing nothing",
                square_name(c)
            ));
        }
        let board = seen.complete().ok_or_else(|| {
            format!(
                "{} cell(s) cannot be read even with the hand moved aside: pressing nothing",
                seen.unknown().len()
            )
        })?;
        let class = match st.class_of_pad[pad] {
            Some(k) => k,
            None => {
                let k = class_of_pad(sight, lab, base, pad, at.cell, &board, &[])?.ok_or_else(
                    || format!("pad {} moves the hand but picks up no piece", pad + 1),
                )?;
                log::info!("spot: pad {} plays the pieces of class {k}", pad + 1);
                st.class_of_pad[pad] = Some(k);
                k
            }
        };
        if cal.orders.len() > 1
            && let Some((after, mover)) = st.after_ours
            && narrow_orders(&mut cal.orders, &after, mover, &board, class)
            && cal.orders[0] != cal.order
        {
            log::info!(
                "spot: the turn order is {:?} by piece class ({} order(s) still fit)",
                cal.orders[0],
                cal.orders.len()
            );
            cal.order = cal.orders[0].clone();
        }
        let to_move = cal
            .order
            .iter()
            .position(|&k| k == class)
            .ok_or("my pieces are not among the players calibration saw")?;
        let pos = Sight::position(&board, &cal.order, to_move)?;
        log::debug!(
            "spot: frame {}: pad {} to move, hand on {}, board {}",
            frame.frame_number(),
            pad + 1,
            square_name(at.cell),
            board_text(&board)
        );
        if pos.is_over() {
            return Ok(());
        }
        let key = pos.key();
        if st.refused_key == key && st.refused >= MAX_REFUSED {
            return Err(format!(
                "my moves were not taken on a fork {MAX_REFUSED} times in this position: pressing nothing"
            ));
        }
        let mv = self.seat(pad, pos.players()).choose(&pos);
        self.choices += 1;
        if mv == Move::PASS {
            return Ok(());
        }
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            return Err(format!("the search chose {mv}, not a legal move"));
        }
        let source = if mv.is_clone() {
            crate::board::Bits(crate::board::ADJACENT[usize::from(mv.to)] & pos.pieces(to_move))
                .next()
                .ok_or("a clone without a source")?
        } else {
            mv.from
        };
        // The board after the move, or after the others' replies too (a fast computer
        // player may answer before the picture has settled), in any turn order still open.
        let moved = cells_of(&pos.play(mv), &cal.order);
        let wants = boards_after_orders(&moved, &cal.orders, class, pos.players() - 1);
        let dest = mv.to;
        // The move alone is accepted the frame it shows; the others' replies only once
        // the board has settled (a board mid-animation may pass through anything).
        let shows = |s: &Shot, settled: bool| {
            let r = sight.read_with_hand(s, Some(dest));
            let fits =
                |want: &[Cell; CELLS]| (0..CELLS).all(|c| r.cells[c].is_none_or(|v| v == want[c]));
            let candidates = if settled { &wants[..] } else { &wants[..1] };
            let ok = r.unknown().len() <= 2 && r.unseen.is_empty() && candidates.iter().any(fits);
            if !ok && settled {
                log::trace!(
                    "spot: after {mv}: unknown {:?}, unseen {:?}, board {}",
                    r.unknown(),
                    r.unseen,
                    board_text(&r.cells.map(|c| c.unwrap_or(Cell::Blocked)))
                );
            }
            ok
        };
        match enter(sight, lab, base, pad, (at.cell, source, dest), shows) {
            Ok((_, tape)) => {
                st.expected = wants.clone();
                st.after_ours = Some((moved, class));
                st.refused = 0;
                self.moves_entered += 1;
                st.narr.acted();
                st.narr.say(frame, &format!("pad {} plays {mv}", pad + 1));
                let mut run = Running {
                    tape: TapeRun::new(tape),
                    mv,
                };
                run.tape.step(frame);
                st.running = Some(run);
                Ok(())
            }
            Err(why) => {
                if st.refused_key != key {
                    st.refused = 0;
                }
                st.refused_key = key;
                st.refused += 1;
                log::warn!(
                    "spot: {mv} was not taken on a fork as planned ({} of {MAX_REFUSED}): {why}",
                    st.refused
                );
                self.errors.push(format!("{mv} not taken on a fork: {why}"));
                Ok(())
            }
        }
    }
}

impl SpotPlugin {
    /// The board as the RAM map reads it, in the picture's piece classes, if a map is in
    /// use and agrees with every cell the picture shows (else the map is dropped, said at
    /// info level, and RAM calibrated again).
    fn ram_board(
        &mut self,
        frame: &dyn Frame,
        seen: &crate::sight::Seen,
        _pad: usize,
    ) -> Option<[Option<Cell>; CELLS]> {
        let map = self.map()?.clone();
        let (pos, slots) = match map.decode(frame, false) {
            Ok(d) => d,
            Err(why) => {
                self.drop_ram_map(&format!("RAM no longer reads as a board: {why}"));
                return None;
            }
        };
        // Which picture class each RAM player is, from the cells both see.
        let mut class_of: [Option<u8>; MAX_PLAYERS] = [None; MAX_PLAYERS];
        let mut out = [None; CELLS];
        for (sq, o) in out.iter_mut().enumerate() {
            let ram = if pos.blocked() >> sq & 1 == 1 {
                Some(Cell::Blocked)
            } else {
                pos.owner(sq as u8).map(|p| Cell::Piece(p as u8))
            };
            let disagree = match (ram, seen.cells[sq]) {
                (_, None) => false,
                (None, Some(v)) => v != Cell::Empty,
                (Some(Cell::Blocked), Some(v)) => v != Cell::Blocked,
                (Some(Cell::Piece(p)), Some(Cell::Piece(k))) => {
                    let slot = &mut class_of[usize::from(p)];
                    let clash = slot.is_some_and(|c| c != k)
                        || class_of
                            .iter()
                            .enumerate()
                            .any(|(q, c)| q != usize::from(p) && *c == Some(k));
                    class_of[usize::from(p)] = Some(k);
                    clash
                }
                (Some(_), Some(_)) => true,
            };
            if disagree {
                let why = format!(
                    "at {} RAM says {} and the picture {:?}",
                    square_name(sq as u8),
                    match ram {
                        None => "empty".to_string(),
                        Some(Cell::Blocked) => "blocked".to_string(),
                        Some(Cell::Piece(p)) => format!("slot {}", slots[usize::from(p)] + 1),
                        Some(Cell::Empty) => "empty".to_string(),
                    },
                    seen.cells[sq].expect("known")
                );
                self.drop_ram_map(&why);
                return None;
            }
            *o = ram.or(Some(Cell::Empty));
        }
        self.hint_unconfirmed = false;
        // RAM players as picture classes (a player the picture shows nowhere stays unknown).
        for v in out.iter_mut() {
            if let Some(Cell::Piece(p)) = *v {
                *v = class_of[usize::from(p)].map(Cell::Piece);
            }
        }
        Some(out)
    }
}

/// Whether a Left or Right press on `pad` changes the picture of a copy of `base`
/// compared with a copy left alone.
fn responds(
    lab: &mut Lab,
    base: &nesmind_host::Fork,
    _shot: &Shot,
    pad: usize,
) -> Result<bool, String> {
    let mut control = base.clone();
    nesmind_host::sight::release_all(&mut control);
    let frames = 2 * lab.hold + 8;
    lab.run(&mut control, frames)?;
    let c = Picture::take(&control).ok_or("no picture")?;
    for b in [Buttons::RIGHT, Buttons::LEFT] {
        let mut f = base.clone();
        nesmind_host::sight::release_all(&mut f);
        lab.tap(&mut f, pad, b)?;
        lab.run(&mut f, 8)?;
        if Picture::take(&f).is_some_and(|p| p != c) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Only the corners hold pieces, one kind each (two each with two players).
fn is_start(board: &[Cell; CELLS]) -> bool {
    let corners = [0usize, 6, 42, 48];
    (0..CELLS).all(|c| corners.contains(&c) || !matches!(board[c], Cell::Piece(_)))
        && corners
            .iter()
            .filter(|&&c| matches!(board[c], Cell::Piece(_)))
            .count()
            >= 3
}

/// The board in rows from the top: `.` empty, `#` blocked, `0`-`3` piece classes.
fn board_text(board: &[Cell; CELLS]) -> String {
    board
        .chunks(7)
        .map(|row| {
            row.iter()
                .map(|c| match c {
                    Cell::Empty => '.',
                    Cell::Blocked => '#',
                    Cell::Piece(k) => char::from(b'0' + k),
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}
