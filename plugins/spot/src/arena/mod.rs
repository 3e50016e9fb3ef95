//! `nesmind arena spot`: games between seats on random built-in layouts, seats rotated over
//! the colours, played on several threads.

pub mod check;
pub mod split;
#[cfg(test)]
mod tests;

use super::board::{Bits, NO_SQUARE};
use super::layouts::{
    BUILTIN_LAYOUTS, ThirdCorner, builtin_layout, parse_layout, players_can_meet, start_position,
};
use super::moves::Move;
use super::players::{Seat, SeatKind};
use super::position::{Outcome, Position};
use nesmind_search::{Algorithm, SearchConfig, Searcher, WIN};
use rand::rngs::StdRng;
use rand::seq::IteratorRandom;
use rand::{Rng, SeedableRng};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// A game in which no empty square gets filled for this many plies (pieces only hop around)
/// is scored as it stands; Spot itself has no such rule.
pub const STALL_PLIES: usize = 150;

#[derive(Clone, Debug)]
pub struct ArenaConfig {
    pub games: usize,
    pub players: usize,
    pub seats: Vec<SeatKind>,
    pub move_time: Duration,
    pub seed: u64,
    pub threads: usize,
    /// Fixed layout (blocked squares), else a random built-in one per game.
    pub layout: Option<u64>,
    pub bonus: bool,
    /// Index of the first game (games are reproducible by index for a given seed).
    pub first_game: usize,
    /// Also use built-in layouts where the players can never reach each other.
    pub all_layouts: bool,
    /// 2 players: skip layouts where a full-width search proves a forced win from the start.
    pub skip_decided: bool,
    /// A per-move node or depth limit for every search seat instead of `move_time`.
    pub budget: MoveBudget,
}

/// A reproducible per-move search budget: the same games for the same seed on any machine
/// and thread count (a time budget depends on the machine's speed and load).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveBudget {
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
}

impl MoveBudget {
    pub fn is_fixed(&self) -> bool {
        self.nodes.is_some() || self.depth.is_some()
    }

    /// How the report names the budget.
    pub fn describe(&self, move_time: Duration) -> String {
        match (self.nodes, self.depth) {
            (None, None) => format!("move-time {} ms", move_time.as_millis()),
            (Some(n), None) => format!("move-nodes {n}"),
            (None, Some(d)) => format!("depth {d}"),
            (Some(n), Some(d)) => format!("move-nodes {n} depth {d}"),
        }
    }
}

/// How one seat did in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placing {
    Won,
    /// Shared the largest piece count.
    Drew,
    Lost,
}

#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub placings: Vec<Placing>,
    /// Built-in layout number (meaningless with a fixed `--layout`).
    pub layout: usize,
    /// Final piece count per seat.
    pub counts: Vec<u32>,
    pub plies: usize,
    pub adjudicated: bool,
}

/// Plays game number `index` (layout, rotation and seeds follow from the index).
pub fn play_game(cfg: &ArenaConfig, index: usize) -> GameRecord {
    play_game_observed(cfg, index, &mut |_, _, _| {})
}

/// [`play_game`], telling `observe` every position, the seat to move and its move.
pub fn play_game_observed(
    cfg: &ArenaConfig,
    index: usize,
    observe: &mut dyn FnMut(&Position, usize, Move),
) -> GameRecord {
    let n = cfg.players;
    let mut rng =
        StdRng::seed_from_u64(cfg.seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let third = if rng.gen_bool(0.5) {
        ThirdCorner::LowerLeft
    } else {
        ThirdCorner::LowerRight
    };
    let mut layout = rng.gen_range(0..BUILTIN_LAYOUTS);
    let unfit = |l: usize| {
        let b = builtin_layout(l).expect("in range");
        (!cfg.all_layouts && !players_can_meet(b, n, third))
            || (cfg.skip_decided && n == 2 && split::is_decided(b))
    };
    while cfg.layout.is_none() && unfit(layout) {
        layout = rng.gen_range(0..BUILTIN_LAYOUTS);
    }
    let blocked = match cfg.layout {
        Some(b) => b,
        None => builtin_layout(layout).expect("index in range"),
    };
    let mut pos = start_position(n, blocked, third).expect("valid player count");
    if cfg.bonus {
        let secret = Bits(pos.empty()).choose(&mut rng).unwrap_or(NO_SQUARE);
        pos.set_secret(secret);
    }
    // Seat s plays colour (s + rotation) % n.
    let rotation = index % n;
    let mut seats: Vec<Seat> = (0..n)
        .map(|s| {
            let mut seat = Seat::new(cfg.seats[s].clone(), n, cfg.move_time, rng.r#gen());
            if cfg.budget.is_fixed() {
                seat.set_fixed_budget(cfg.budget.nodes, cfg.budget.depth);
            }
            seat
        })
        .collect();
    let seat_of = |colour: usize| (colour + n - rotation) % n;
    let mut plies = 0;
    let (mut empties, mut last_fill) = (pos.empty().count_ones(), 0);
    while !pos.is_over() && plies - last_fill < STALL_PLIES {
        let seat = seat_of(pos.to_move());
        let mv = seats[seat].choose(&pos);
        observe(&pos, seat, mv);
        pos = pos.play(mv);
        plies += 1;
        if pos.empty().count_ones() < empties {
            empties = pos.empty().count_ones();
            last_fill = plies;
        }
    }
    let outcome = pos.ranking_outcome();
    let best = (0..n).map(|c| pos.count(c)).max().unwrap_or(0);
    let placings = (0..n)
        .map(|s| {
            let colour = (s + rotation) % n;
            match outcome {
                Outcome::Win(w) if w == colour => Placing::Won,
                Outcome::Draw if pos.count(colour) == best => Placing::Drew,
                _ => Placing::Lost,
            }
        })
        .collect();
    let counts = (0..n).map(|s| pos.count((s + rotation) % n)).collect();
    GameRecord {
        placings,
        layout,
        counts,
        plies,
        adjudicated: !pos.is_over(),
    }
}

/// Plies of the full-width search that looks for a forced win from a 2-player start.
pub const DECIDED_DEPTH: u32 = 6;

/// Whether one side of a 2-player game on this layout has a forced win within
/// [`DECIDED_DEPTH`] plies of the start (the first mover wipes the other out on some small
/// layouts, whoever plays the second colour).
pub fn decided_by_layout(blocked: u64) -> bool {
    let Ok(pos) = start_position(2, blocked, ThirdCorner::LowerLeft) else {
        return false;
    };
    let cfg = SearchConfig {
        algorithm: Algorithm::Negamax,
        max_depth: DECIDED_DEPTH,
        move_time: None,
        iterative: true,
        use_tt: true,
        tt_bits: 14,
        seed: 0,
        model_opponents: false,
    };
    Searcher::new(cfg).search(&pos).score.abs() > WIN / 2
}

/// Plays all games on `cfg.threads` threads; records come back in game order.
pub fn run(cfg: &ArenaConfig, progress: impl Fn(usize) + Sync) -> Vec<GameRecord> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let records = Mutex::new(vec![None; cfg.games]);
    std::thread::scope(|s| {
        for _ in 0..cfg.threads.max(1) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= cfg.games {
                        break;
                    }
                    let r = play_game(cfg, cfg.first_game + i);
                    records.lock().expect("no thread panicked")[i] = Some(r);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                }
            });
        }
    });
    records
        .into_inner()
        .expect("no thread panicked")
        .into_iter()
        .map(|r| r.expect("every game played"))
        .collect()
}

/// Wilson score interval (95%) for `wins` out of `n`.
pub fn wilson95(wins: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_964f64;
    let (n, p) = (n as f64, wins as f64 / n as f64);
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The per-seat table; the last line is `win_rate W` for seat 1 over all games. With 2
/// players, three lines split seat 1's results by layout (all, decided from the start, the
/// rest) and `win_rate_undecided W` gives its rate on the rest. Records may come in any order.
pub fn report(cfg: &ArenaConfig, records: &[GameRecord]) -> String {
    report_with(cfg, records, None)
}

fn report_with(cfg: &ArenaConfig, records: &[GameRecord], first_mover: Option<&[usize]>) -> String {
    let mut out = String::new();
    out.push_str("seat  player            games   wins  draws losses  first%   wilson95\n");
    let mut seat1 = 0.0;
    for s in 0..cfg.players {
        let count = |p: Placing| records.iter().filter(|r| r.placings[s] == p).count();
        let (w, d, l) = (
            count(Placing::Won),
            count(Placing::Drew),
            count(Placing::Lost),
        );
        let n = records.len();
        let rate = if n == 0 { 0.0 } else { w as f64 / n as f64 };
        let (lo, hi) = wilson95(w, n);
        if s == 0 {
            seat1 = rate;
        }
        out.push_str(&format!(
            "{:<5} {:<16} {n:>6} {w:>6} {d:>6} {l:>6}  {:>6.2}  [{:.4}, {:.4}]\n",
            s + 1,
            seat_name(&cfg.seats[s]),
            100.0 * rate,
            lo,
            hi
        ));
    }
    let plies: usize = records.iter().map(|r| r.plies).sum();
    let adjudicated = records.iter().filter(|r| r.adjudicated).count();
    out.push_str(&format!(
        "games {} players {} {} mean plies {:.1} adjudicated {adjudicated}\n",
        records.len(),
        cfg.players,
        cfg.budget.describe(cfg.move_time),
        plies as f64 / records.len().max(1) as f64
    ));
    if cfg.players == 2 {
        let split = split::split(cfg.layout, records, first_mover);
        out.push_str(&split.lines());
        out.push_str(&format!(
            "win_rate_undecided {:.4}\n",
            split.undecided.win_rate()
        ));
    }
    out.push_str(&format!("win_rate {seat1:.4}\n"));
    out
}

/// [`report`] for the records [`run`] returns (in game order): 2-player reports also give
/// seat 1's results on decided layouts when it moved first.
pub fn report_in_game_order(cfg: &ArenaConfig, records: &[GameRecord]) -> String {
    let first: Vec<usize> = (0..records.len())
        .map(|i| first_mover_seat(cfg.players, cfg.first_game + i))
        .collect();
    report_with(cfg, records, Some(&first))
}

/// [`report`] for records that carry their game index (a batch played in slices, e.g. on
/// Ray workers): the same text as [`report_in_game_order`] on the whole run, the decided
/// layouts' first-mover line included.
pub fn report_indexed(cfg: &ArenaConfig, records: &[(usize, GameRecord)]) -> String {
    let first: Vec<usize> = records
        .iter()
        .map(|(i, _)| first_mover_seat(cfg.players, *i))
        .collect();
    let records: Vec<GameRecord> = records.iter().map(|(_, r)| r.clone()).collect();
    report_with(cfg, &records, Some(&first))
}

/// The seat that plays the first colour in game `index`.
pub fn first_mover_seat(players: usize, index: usize) -> usize {
    (players - index % players) % players
}

pub fn seat_name(kind: &SeatKind) -> String {
    match kind {
        SeatKind::Search(a) => format!("{a:?}").to_ascii_lowercase(),
        SeatKind::ArticleHypermax => "hypermax-article".into(),
        SeatKind::Modeled(a) => format!("{a:?}-model").to_ascii_lowercase(),
        SeatKind::Default => "spot".into(),
        SeatKind::NesAi(l) => format!("nes-ai:{l}"),
        SeatKind::Level(l) => format!("level:{l}"),
        SeatKind::Greedy => "greedy".into(),
        SeatKind::Random => "random".into(),
    }
}

/// Parses `--seats`: one entry per colour; a shorter list repeats its last entry.
pub fn parse_seats(text: &str, players: usize) -> Result<Vec<SeatKind>, String> {
    let mut seats: Vec<SeatKind> = text
        .split(',')
        .map(SeatKind::parse)
        .collect::<Result<_, _>>()?;
    if seats.len() > players {
        return Err(format!("{} seats given for {players} players", seats.len()));
    }
    while seats.len() < players {
        seats.push(seats.last().cloned().ok_or("no seats given")?);
    }
    Ok(seats)
}

pub fn parse_optional_layout(text: Option<&str>) -> Result<Option<u64>, String> {
    text.map(parse_layout).transpose()
}
