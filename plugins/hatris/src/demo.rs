//! The open Hatris-like demo cartridge (source in `cart/`, RAM map in `cart/README.md`) and
//! `nesmind demo hatris --headless`, which lets the Hatris player play it without a window.

use super::play::{RunResult, run_parallel};
use super::sim::{parse, summarize};
use clap::Parser;
use nesmind_host::Demo;
use nesmind_host::Rom;
use nesmind_host::{Buttons, PadOwner, Plugin, PluginOptions, Session};

pub static DEMO: Demo = Demo {
    file_name: "hatris-like.nes",
    image: include_bytes!("../cart/hatris-like.nes"),
    window_options: &[],
    headless: run,
};

/// Pairs spawned in the current game (3 bytes, little-endian).
pub const SPAWN_COUNT: u16 = 0x0310;
/// The cart's state byte; [`STATE_OVER`] once a pile has grown past the limit.
pub const GAME_STATE: u16 = 0x0313;
pub const STATE_OVER: u8 = 7;
const SHOP: u16 = 0x03A8;
const STAGE: u16 = 0x03A9;
const CASH: u16 = 0x03E8;
/// Spawn cap of a headless run unless `--max-spawns` says otherwise.
pub const DEFAULT_CAP: u64 = 1000;
/// A game that spawns nothing for this long has stalled (a bug, never a result).
const STALL_FRAMES: u64 = 3600;

/// The frame (after power-on) on which Start is pressed for `seed`. The frame counter feeds
/// the hat generator, so each start frame gives another hat sequence. The title is up from
/// frame 12 and starts a game by itself 240 frames later; every start frame lies between.
pub fn start_frame(seed: u64) -> u64 {
    16 + seed % 224
}

/// A session on the demo cartridge with `plugin` attached and sound synthesis off.
pub fn cart_session(plugin: Box<dyn Plugin>) -> Result<Session, String> {
    let rom = Rom::parse(DEMO.image, DEMO.file_name).map_err(|e| e.to_string())?;
    let mut session = Session::new(rom)?;
    session.machine_mut().set_audio_enabled(false);
    session.attach(plugin, &[])?;
    Ok(session)
}

fn spawns(session: &Session) -> u64 {
    let m = session.machine();
    (0..3).fold(0, |acc, i| {
        acc | (m.peek(SPAWN_COUNT + i) as u64) << (8 * i)
    })
}

/// Presses Start at `start_frame(seed)` and steps until the game ends or `cap` pairs have
/// spawned (the capped pair is not played, as in `nesmind sim hatris`).
pub fn drive(session: &mut Session, seed: u64, cap: Option<u64>) -> Result<RunResult, String> {
    let start = start_frame(seed);
    for _ in 0..start {
        session.step()?;
    }
    // Start is held for one frame on the player's pad, then the pad goes back to it.
    session.set_owner(0, PadOwner::Human);
    session.set_human_buttons(0, Buttons::START);
    session.step()?;
    session.set_human_buttons(0, Buttons::NONE);
    session.set_owner(0, PadOwner::Plugin);
    let (mut last, mut since) = (0, 0);
    loop {
        session.step()?;
        let n = spawns(session);
        let over = session.machine().peek(GAME_STATE) == STATE_OVER;
        let capped = cap.is_some_and(|c| n >= c);
        if over || capped {
            let m = session.machine();
            let cash = (0..8)
                .rev()
                .fold(0, |acc, d| acc * 10 + m.peek(CASH + d) as u64 % 10);
            return Ok(RunResult {
                spawns: n,
                finished_at: None,
                capped: capped && !over,
                cash,
                level: m.peek(SHOP) as u32 * 10 + m.peek(STAGE) as u32,
            });
        }
        if n != last {
            (last, since) = (n, 0);
        }
        since += 1;
        if since > STALL_FRAMES {
            return Err(format!(
                "seed {seed}: no pair spawned for {STALL_FRAMES} frames after spawn {n}"
            ));
        }
    }
}

/// One game of the Hatris player on the demo cartridge.
pub fn play(seed: u64, cap: Option<u64>) -> Result<RunResult, String> {
    let player = super::player::create(&PluginOptions::new())?;
    drive(&mut cart_session(player)?, seed, cap)
}

#[derive(Parser, Debug)]
#[command(
    about = "Plays the Hatris-like demo cartridge with the Hatris player, headless",
    after_help = "Each game presses Start on a frame chosen by its seed, which gives it its own \
                  hat sequence. Games stop at the spawn cap (default 1000) unless --max-spawns 0."
)]
struct HeadlessArgs {
    /// Number of games.
    #[arg(long, default_value_t = 10)]
    runs: usize,
    /// Seed of the first game (game i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Stop a game once this many pairs have spawned; 0 plays every game to its end.
    #[arg(long, default_value_t = DEFAULT_CAP)]
    max_spawns: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
}

/// `nesmind demo hatris --headless [...]`: ends with the line `mean_spawns M`.
pub fn run(args: &[String]) -> Result<(), String> {
    let Some(a) = parse::<HeadlessArgs>("nesmind demo hatris --headless", args)? else {
        return Ok(());
    };
    if a.runs == 0 {
        return Err("--runs must be at least 1".into());
    }
    let cap = (a.max_spawns > 0).then_some(a.max_spawns);
    let threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let job = |i: usize| play(a.seed.wrapping_add(i as u64), cap);
    // Each game's line comes as soon as it ends, so a long batch reports as it goes.
    let report = |_: usize, i: usize, r: &Result<RunResult, String>| {
        if let Ok(r) = r {
            let seed = a.seed.wrapping_add(i as u64);
            println!(
                "game {} seed {seed} start frame {}: {} spawns, {}, level {}, cash {}",
                i + 1,
                start_frame(seed),
                r.spawns,
                if r.capped {
                    "stopped at the cap"
                } else {
                    "topped out"
                },
                r.level,
                r.cash
            );
        }
    };
    let runs = run_parallel(a.runs, threads, &job, &report)
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?;
    let s = summarize(&runs);
    println!(
        "games {} seeds {}..{} cap {}: {} reached the cap, {} topped out; spawns sd {:.1} median {:.1}",
        a.runs,
        a.seed,
        a.seed.wrapping_add(a.runs as u64 - 1),
        cap.map_or("none".to_string(), |c| format!("{c} spawns")),
        s.capped,
        a.runs - s.capped,
        s.sd,
        s.median
    );
    println!("mean_spawns {:.1}", s.mean);
    Ok(())
}
