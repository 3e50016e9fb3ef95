//! Command-line tools: `nesmind arena spot`, `nesmind perft spot`, `nesmind bench spot`
//! (the bench is also `nesmind arena spot --bench`).

use super::arena::{self, ArenaConfig};
use super::layouts::{ThirdCorner, parse_fen, parse_layout, start_position};
use super::moves::Move;
use super::perft::{perft, perft_parallel, perft_unmake};
use super::position::Position;
use clap::Parser;
use nesmind_host::parse_args;
use nesmind_search::{Algorithm, SearchConfig, Searcher};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Play Spot games between AI seats.
#[derive(Parser, Debug)]
#[command(name = "nesmind arena spot")]
struct ArenaArgs {
    /// Number of games.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Players per game (2-4).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4))]
    players: u8,
    /// Seats, comma separated: spot (the plug-in's player), hypermax, hypermax-article,
    /// paranoid, brs, negamax, expectimax, NAME-model (expects opponents to pick at random
    /// among the NES AI model's tied best moves; all but brs-model then run expectimax),
    /// nes-ai[:1-5], greedy, random. A short list repeats its last seat.
    #[arg(long, default_value = "spot,nes-ai:5")]
    seats: String,
    /// Search budget per move, in milliseconds (depends on the machine and its load; use
    /// --move-nodes or --depth for figures others can reproduce).
    #[arg(long, default_value_t = 100)]
    move_time: u64,
    /// Reproducible budget: at most this many search nodes per move (replaces --move-time;
    /// the same games for the same --seed on any machine and thread count).
    #[arg(long)]
    move_nodes: Option<u64>,
    /// Reproducible budget: search this many plies deep per move (replaces --move-time;
    /// with --move-nodes, whichever ends first).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// A fixed layout: built-in number 0-511 or 7 rows of '.'/'#' separated by '/'.
    #[arg(long)]
    layout: Option<String>,
    /// Play without the secret square and its bonus game.
    #[arg(long)]
    no_bonus: bool,
    /// Index of the first game (to replay one game of a run).
    #[arg(long, default_value_t = 0)]
    first_game: usize,
    /// Include built-in layouts where the players can never reach each other (drawn by the
    /// layout; under the layout hypothesis 25 of the 512 are like that).
    #[arg(long)]
    all_layouts: bool,
    /// 2 players: also skip layouts where a 6-ply full-width search proves a forced win from
    /// the start (25 of the 512 at 7 plies: the first mover wipes the second out).
    #[arg(long)]
    skip_decided: bool,
    /// 2 players: replay every game seat 1 did not win on an undecided layout and search each
    /// of its turns this many plies deep (full-width negamax, bonus game ignored) for a
    /// forced win it gave away. Needs --move-nodes or --depth (replays must repeat the game).
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u32).range(1..=20))]
    check_losses: Option<u32>,
    /// Measure search speed instead of playing games.
    #[arg(long)]
    bench: bool,
    /// Positions per search in the bench.
    #[arg(long, default_value_t = 20)]
    bench_positions: usize,
}

pub fn arena_tool(args: &[String]) -> Result<(), String> {
    let Some(a) = parse_args::<ArenaArgs>("nesmind arena spot", args)? else {
        return Ok(());
    };
    if a.bench {
        return bench(a.seed, a.bench_positions);
    }
    let players = a.players as usize;
    let cfg = ArenaConfig {
        games: a.games,
        players,
        seats: arena::parse_seats(&a.seats, players)?,
        move_time: Duration::from_millis(a.move_time),
        seed: a.seed,
        threads: a.threads.unwrap_or_else(default_threads),
        layout: arena::parse_optional_layout(a.layout.as_deref())?,
        bonus: !a.no_bonus,
        first_game: a.first_game,
        all_layouts: a.all_layouts,
        skip_decided: a.skip_decided,
        budget: arena::MoveBudget {
            nodes: a.move_nodes,
            depth: a.depth,
        },
    };
    if cfg.budget.nodes == Some(0) {
        return Err("--move-nodes must be at least 1".into());
    }
    let progress = std::sync::Mutex::new(nesmind_host::progress::Progress::new(
        "games",
        Some(cfg.games as u64),
    ));
    let records = arena::run(&cfg, |done| {
        progress
            .lock()
            .expect("progress lock")
            .update(done as u64, "");
    });
    progress.lock().expect("progress lock").finish();
    for (i, r) in records.iter().enumerate() {
        log::info!(
            "game {i} layout {} plies {} counts {:?} placings {:?}",
            r.layout,
            r.plies,
            r.counts,
            r.placings
        );
    }
    print!("{}", arena::report_in_game_order(&cfg, &records));
    if let Some(depth) = a.check_losses {
        check_losses(&cfg, &records, depth)?;
    }
    Ok(())
}

/// Prints, per game seat 1 did not win on an undecided layout, the forced wins it missed.
fn check_losses(
    cfg: &ArenaConfig,
    records: &[arena::GameRecord],
    depth: u32,
) -> Result<(), String> {
    if cfg.players != 2 || !cfg.budget.is_fixed() {
        return Err("--check-losses needs 2 players and --move-nodes or --depth".into());
    }
    let (mut games, mut missed_games) = (0, 0);
    for (i, r) in records.iter().enumerate() {
        let blocked = arena::split::record_layout(cfg.layout, r);
        if r.placings[0] == arena::Placing::Won || arena::split::is_decided(blocked) {
            continue;
        }
        let index = cfg.first_game + i;
        let c = arena::check::missed_wins(cfg, index, 0, depth);
        games += 1;
        let mut line = format!(
            "check game {index} layout {} {:?} counts {:?} plies {}{}: {} turns searched {depth} plies deep",
            r.layout,
            r.placings[0],
            r.counts,
            r.plies,
            if r.adjudicated { " (adjudicated)" } else { "" },
            c.turns
        );
        if c.missed.is_empty() {
            line.push_str(", no forced win missed");
        } else {
            missed_games += 1;
            for m in &c.missed {
                line.push_str(&format!(
                    "; ply {} played {} but {} wins by force",
                    m.ply, m.played, m.winning
                ));
            }
        }
        println!("{line}");
    }
    println!(
        "checked {games} games not won on undecided layouts; {missed_games} gave away a forced win within {depth} plies"
    );
    Ok(())
}

/// Count move-generator leaves.
#[derive(Parser, Debug)]
#[command(name = "nesmind perft spot")]
struct PerftArgs {
    #[arg(long, default_value_t = 5)]
    depth: u32,
    /// Players (2-4) for the start position.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4))]
    players: u8,
    /// Built-in layout 0-511 or a custom pattern of 7 rows ('.' open, '#' blocked) split by '/'.
    #[arg(long, default_value = "0")]
    layout: String,
    /// Start the third player in the lower-right corner instead of the lower-left.
    #[arg(long)]
    third_right: bool,
    /// A libataxx-style FEN (x o y z for players 1-4); overrides --layout.
    #[arg(long)]
    fen: Option<String>,
    /// Use make/unmake instead of copy-make.
    #[arg(long)]
    unmake: bool,
    /// Threads (root moves are split between them).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

pub fn perft_tool(args: &[String]) -> Result<(), String> {
    let Some(a) = parse_args::<PerftArgs>("nesmind perft spot", args)? else {
        return Ok(());
    };
    let players = a.players as usize;
    let pos = match &a.fen {
        Some(f) => parse_fen(f, players)?,
        None => {
            let third = if a.third_right {
                ThirdCorner::LowerRight
            } else {
                ThirdCorner::LowerLeft
            };
            start_position(players, parse_layout(&a.layout)?, third)?
        }
    };
    for depth in 1..=a.depth {
        let start = Instant::now();
        let cpu_start = thread_cpu_seconds();
        let leaves = if a.unmake {
            perft_unmake(&pos, depth)
        } else if a.threads > 1 {
            perft_parallel(&pos, depth, a.threads)
        } else {
            perft(&pos, depth)
        };
        let secs = start.elapsed().as_secs_f64();
        let cpu = match (cpu_start, thread_cpu_seconds()) {
            // Worker threads' time is not the calling thread's.
            (Some(a0), Some(b0)) if a.threads <= 1 || a.unmake => {
                format!("  {:>14.0} per CPU s", leaves as f64 / (b0 - a0).max(1e-9))
            }
            _ => String::new(),
        };
        println!(
            "depth {depth:>2} leaves {leaves:>14} time {secs:>8.3} s  {:>14.0} leaves/s{cpu}",
            leaves as f64 / secs.max(1e-9)
        );
    }
    Ok(())
}

/// Measure search speed on fixed positions.
#[derive(Parser, Debug)]
#[command(name = "nesmind bench spot")]
struct BenchArgs {
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Positions per player count.
    #[arg(long, default_value_t = 20)]
    positions: usize,
}

pub fn bench_tool(args: &[String]) -> Result<(), String> {
    let Some(a) = parse_args::<BenchArgs>("nesmind bench spot", args)? else {
        return Ok(());
    };
    bench(a.seed, a.positions)
}

/// Middle-game positions reached by random play on random layouts.
pub fn bench_positions(players: usize, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed ^ players as u64);
    let mut out = Vec::new();
    let mut moves: Vec<Move> = Vec::new();
    while out.len() < count {
        let blocked = super::layouts::builtin_layout(rng.gen_range(0..512)).expect("in range");
        let mut pos = start_position(players, blocked, ThirdCorner::LowerLeft).expect("valid");
        for _ in 0..rng.gen_range(6..24) {
            pos.legal_moves(&mut moves);
            let Some(&mv) = moves.choose(&mut rng) else {
                break;
            };
            pos = pos.play(mv);
        }
        if !pos.is_over() {
            out.push(pos);
        }
    }
    out
}

/// CPU time of the calling thread in seconds (Linux only), which keeps speed figures
/// meaningful on a machine shared with other jobs.
#[cfg(target_os = "linux")]
pub(crate) fn thread_cpu_seconds() -> Option<f64> {
    cpu_seconds(3)
}

/// CPU time of the whole process (every thread: calibration runs on its own), if known.
#[cfg(target_os = "linux")]
pub(crate) fn process_cpu_seconds() -> Option<f64> {
    cpu_seconds(2)
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn process_cpu_seconds() -> Option<f64> {
    None
}

#[cfg(target_os = "linux")]
fn cpu_seconds(clock: i32) -> Option<f64> {
    #[repr(C)]
    struct Timespec {
        secs: i64,
        nanos: std::ffi::c_long,
    }
    unsafe extern "C" {
        fn clock_gettime(clock: i32, out: *mut Timespec) -> i32;
    }
    let mut t = Timespec { secs: 0, nanos: 0 };
    // SAFETY: clock_gettime only writes the timespec we pass, which lives on our stack.
    let rc = unsafe { clock_gettime(clock, &mut t) };
    (rc == 0).then_some(t.secs as f64 + t.nanos as f64 * 1e-9)
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn thread_cpu_seconds() -> Option<f64> {
    None
}

/// Single-threaded nodes per second of each search at fixed depth, with the full heuristic,
/// per wall-clock second and per second of the thread's CPU time.
fn bench(seed: u64, count: usize) -> Result<(), String> {
    // (players, search, depth, opponent model): the shipped defaults are the model rows.
    let runs: &[(usize, Algorithm, u32, bool)] = &[
        (2, Algorithm::Hypermax, 4, false),
        (2, Algorithm::Negamax, 6, false),
        (2, Algorithm::Expectimax, 8, true),
        (3, Algorithm::Hypermax, 4, false),
        (3, Algorithm::Expectimax, 8, true),
        (4, Algorithm::Hypermax, 5, false),
        (4, Algorithm::Paranoid, 6, false),
        (4, Algorithm::BestReply, 6, false),
        (4, Algorithm::Expectimax, 9, true),
    ];
    let (mut all_nodes, mut all_secs, mut all_cpu) = (0u64, 0f64, 0f64);
    for &(players, algorithm, depth, model_opponents) in runs {
        let positions = bench_positions(players, count, seed);
        // Fresh tables per position, allocated before the clocks start.
        let mut searchers: Vec<Searcher<Position>> = (0..positions.len())
            .map(|i| {
                Searcher::new(SearchConfig {
                    algorithm,
                    max_depth: depth,
                    move_time: None,
                    iterative: true,
                    use_tt: true,
                    tt_bits: 16,
                    seed: seed + i as u64,
                    model_opponents,
                })
            })
            .collect();
        let (mut nodes, mut secs) = (0u64, 0f64);
        let cpu_start = thread_cpu_seconds();
        for (pos, s) in positions.iter().zip(&mut searchers) {
            let start = Instant::now();
            let r = s.search(pos);
            secs += start.elapsed().as_secs_f64();
            nodes += r.nodes;
        }
        let cpu = match (cpu_start, thread_cpu_seconds()) {
            (Some(a), Some(b)) => b - a,
            _ => f64::NAN,
        };
        all_nodes += nodes;
        all_secs += secs;
        all_cpu += cpu;
        let name = format!("{algorithm:?}").to_ascii_lowercase();
        let name = if model_opponents {
            name + "-model"
        } else {
            name
        };
        println!(
            "{players} players {name:<16} depth {depth}: {nodes:>10} nodes {secs:>7.3} s {:>10.0} nodes/s {:>10.0} per CPU s",
            nodes as f64 / secs.max(1e-9),
            nodes as f64 / cpu.max(1e-9)
        );
    }
    println!(
        "total {all_nodes} nodes {all_secs:.3} s {:.0} nodes/s; thread CPU {all_cpu:.3} s {:.0} nodes per CPU s",
        all_nodes as f64 / all_secs.max(1e-9),
        all_nodes as f64 / all_cpu.max(1e-9)
    );
    Ok(())
}
