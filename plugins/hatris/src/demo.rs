//! The open Hatris-like demo cartridge (source in `cart/`, RAM map in `cart/README.md`) and
//! `nesmind demo hatris --headless`, which lets the Hatris player play it without a window.

use super::play::{RunResult, run_parallel};
use super::port::{PortLog, PortTap};
use super::sim::{parse, summarize};
use super::variant::{self, Cart, Family};
use clap::Parser;
use nesmind_host::Demo;
use nesmind_host::Rom;
use nesmind_host::progress::Progress;
use nesmind_host::{Buttons, PadOwner, Plugin, PluginOptions, Session};
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

pub static DEMO: Demo = Demo {
    file_name: variant::COMMITTED_FILE,
    image: variant::COMMITTED_IMAGE,
    window_options: &[],
    headless: run,
    human: None,
};

/// Spawn cap of a headless run unless `--max-spawns` says otherwise.
pub const DEFAULT_CAP: u64 = 1000;
/// A game that spawns nothing for this long has stalled (a bug, never a result).
const STALL_FRAMES: u64 = 3600;
/// Frames after Start at which a menu variant is told to start (A).
const MENU_DELAY: u64 = 10;

/// The frame (after power-on) on which Start is pressed for `seed`. The frame counter feeds
/// the hat generator, so each start frame gives another hat sequence. The title is up from
/// frame 12 and starts a game by itself 240 frames later; every start frame lies between.
pub fn start_frame(seed: u64) -> u64 {
    16 + seed % 224
}

/// A session on a demo cartridge, with the test port read beside the plug-in.
pub struct CartSession {
    pub session: Session,
    /// What the cart reported on its test port so far.
    pub port: Arc<Mutex<PortLog>>,
}

impl Deref for CartSession {
    type Target = Session;
    fn deref(&self) -> &Session {
        &self.session
    }
}
impl DerefMut for CartSession {
    fn deref_mut(&mut self) -> &mut Session {
        &mut self.session
    }
}

impl CartSession {
    /// A copy of the port's log as it is now.
    pub fn port(&self) -> PortLog {
        self.port.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// A session on `cart` with `plugin` attached (behind a [`PortTap`], which the plug-in
/// does not see) and sound synthesis off.
pub fn cart_session(cart: &Cart, plugin: Box<dyn Plugin>) -> Result<CartSession, String> {
    let rom = Rom::parse(&cart.image, &cart.file_name()).map_err(|e| e.to_string())?;
    let mut session = Session::new(rom)?;
    session.machine_mut().set_audio_enabled(false);
    let (tap, port) = PortTap::new(plugin, false);
    session.attach(Box::new(tap), &[])?;
    Ok(CartSession { session, port })
}

/// Holds `buttons` on the player's pad for one frame, as a person would, lets go, then
/// gives the pad back to the plug-in.
fn press(session: &mut Session, buttons: Buttons) -> Result<(), String> {
    session.set_owner(0, PadOwner::Human);
    session.set_human_buttons(0, buttons);
    session.step()?;
    session.set_human_buttons(0, Buttons::NONE);
    session.step()?;
    session.set_owner(0, PadOwner::Plugin);
    Ok(())
}

/// Presses Start at `start_frame(seed)` (and A in a menu variant's menu), then steps until
/// the game ends or `cap` pairs have spawned (the capped pair is not played, as in
/// `nesmind sim hatris`). Spawns, game over, cash and level come from the test port.
pub fn drive(
    session: &mut CartSession,
    cart: &Cart,
    seed: u64,
    cap: Option<u64>,
) -> Result<RunResult, String> {
    drive_counting(session, cart, seed, cap, &AtomicU64::new(0))
}

/// `drive`, adding each new spawn to `spawned` (shared by the games of a batch, for its
/// progress line).
pub fn drive_counting(
    session: &mut CartSession,
    cart: &Cart,
    seed: u64,
    cap: Option<u64>,
    spawned: &AtomicU64,
) -> Result<RunResult, String> {
    for _ in 0..start_frame(seed) {
        session.step()?;
    }
    press(session, Buttons::START)?;
    if cart.has_menu() {
        for _ in 0..MENU_DELAY {
            session.step()?;
        }
        press(session, Buttons::A)?;
    }
    let (mut last, mut since) = (0, 0);
    loop {
        session.step()?;
        let (n, over, cash, level) = {
            let log = session.port.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(e) = &log.error {
                return Err(format!("seed {seed}: {e} ({})", cart.replay_hint()));
            }
            let spawn = log.last_spawn.as_ref();
            let n = spawn.map_or(0, |s| s.spawns as u64);
            let (cash, level) = match (&log.over, spawn) {
                (Some((cash, level, _)), _) => (*cash, *level),
                (None, Some(s)) => (s.cash, s.shop as u32 * 10 + s.stage as u32),
                (None, None) => (0, 0),
            };
            (n, log.over.is_some(), cash, level)
        };
        let capped = cap.is_some_and(|c| n >= c);
        if over || capped {
            return Ok(RunResult {
                spawns: n,
                finished_at: None,
                capped: capped && !over,
                cash,
                level,
            });
        }
        if n != last {
            spawned.fetch_add(n.saturating_sub(last), Ordering::Relaxed);
            (last, since) = (n, 0);
        }
        since += 1;
        if since % 60 == 0
            && let Some(r) = session.plugin_result()
            && r.starts_with("calibration failed")
        {
            return Err(format!("seed {seed}: the player's {r}"));
        }
        if since > STALL_FRAMES {
            return Err(format!(
                "seed {seed}: no pair spawned for {STALL_FRAMES} frames after spawn {n} (the \
                 player says: {})",
                session.status()
            ));
        }
    }
}

/// One game of the Hatris player (built from `opts`) on `cart`.
pub fn play_cart(
    cart: &Cart,
    opts: &PluginOptions,
    seed: u64,
    cap: Option<u64>,
) -> Result<RunResult, String> {
    let player = super::player::create(opts)?;
    drive(&mut cart_session(cart, player)?, cart, seed, cap)
}

/// One game of the Hatris player on the committed demo cartridge.
pub fn play(seed: u64, cap: Option<u64>) -> Result<RunResult, String> {
    play_cart(&Cart::default_cart(), &PluginOptions::new(), seed, cap)
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
    /// Play a variant of the cartridge built from this seed (or `random`: a fresh seed,
    /// printed): SEED draws from the classic family (variables moved and re-encoded, piles
    /// as arrays of codes), `wide:SEED` or `wide:random` from the wide space (piles, pair
    /// and pool in many storage shapes, and another picture). The player is not told
    /// which. Needs ca65/ld65 (cc65).
    #[arg(long, value_name = "SEED|random|wide:SEED|wide:random")]
    cart_variant: Option<String>,
    /// Plug-in options for the player, e.g. `save_map=FILE` (repeatable).
    #[arg(long = "plugin-opt", value_name = "KEY=VALUE", value_parser = nesmind_host::parse_option)]
    plugin_opt: Vec<(String, String)>,
}

/// The cartridge `--cart-variant` asks for.
fn chosen_cart(arg: Option<&str>) -> Result<Cart, String> {
    let Some(arg) = arg else {
        return Ok(Cart::default_cart());
    };
    let (family, seed_arg) = match arg.strip_prefix("wide:") {
        Some(rest) => (Family::Wide, rest),
        None => (Family::Classic, arg),
    };
    let seed = if seed_arg == "random" {
        let seed = variant::fresh_seed();
        match family {
            Family::Classic => println!("cart variant seed {seed}"),
            Family::Wide => println!("cart variant seed wide:{seed}"),
        }
        seed
    } else {
        seed_arg.parse::<u64>().map_err(|_| {
            format!(
                "--cart-variant {arg}: expected a seed (a decimal number), 'random', \
                 'wide:SEED' or 'wide:random'"
            )
        })?
    };
    Cart::build(seed, family, false, &[])
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
    let cart = chosen_cart(a.cart_variant.as_deref())?;
    let opts: PluginOptions = a.plugin_opt.iter().cloned().collect();
    let spawned = AtomicU64::new(0);
    let finished = AtomicU64::new(0);
    let job = |i: usize| {
        let player = super::player::create(&opts)?;
        let mut session = cart_session(&cart, player)?;
        drive_counting(
            &mut session,
            &cart,
            a.seed.wrapping_add(i as u64),
            cap,
            &spawned,
        )
    };
    let progress = Mutex::new(Progress::new("games", Some(a.runs as u64)));
    // Each game's line comes as soon as it ends, so a long batch reports as it goes.
    let report = |_: usize, i: usize, r: &Result<RunResult, String>| {
        finished.fetch_add(1, Ordering::Relaxed);
        // The game line goes on a clean line; the ticker redraws the progress after it.
        progress.lock().expect("progress lock").finish();
        if let Ok(r) = r {
            println!("{}", game_line(i, a.seed.wrapping_add(i as u64), r));
        }
    };
    let running = AtomicBool::new(true);
    let runs = std::thread::scope(|s| {
        // Uncapped games can run for minutes: spawns so far show on a terminal as they come.
        s.spawn(|| {
            while running.load(Ordering::Relaxed) {
                let detail = format!("{} spawns", spawned.load(Ordering::Relaxed));
                let done = finished.load(Ordering::Relaxed);
                progress
                    .lock()
                    .expect("progress lock")
                    .update(done, &detail);
                std::thread::sleep(std::time::Duration::from_millis(250));
            }
            progress.lock().expect("progress lock").finish();
        });
        let runs = run_parallel(a.runs, threads, &job, &report);
        running.store(false, Ordering::Relaxed);
        runs
    })
    .into_iter()
    .collect::<Result<Vec<_>, _>>()?;
    print!("{}", summary(a.seed, cap, &runs));
    Ok(())
}

/// The line `demo hatris` prints for game `index` (from 0) of a batch, played from `seed`.
pub fn game_line(index: usize, seed: u64, r: &RunResult) -> String {
    format!(
        "game {} seed {seed} start frame {}: {} spawns, {}, level {}, cash {}",
        index + 1,
        start_frame(seed),
        r.spawns,
        if r.capped {
            "stopped at the cap"
        } else {
            "topped out"
        },
        r.level,
        r.cash
    )
}

/// The summary `demo hatris` prints after the games (`runs` in seed order from `seed`),
/// ending with `mean_spawns M`.
pub fn summary(seed: u64, cap: Option<u64>, runs: &[RunResult]) -> String {
    let s = summarize(runs);
    format!(
        "games {} seeds {}..{} cap {}: {} reached the cap, {} topped out; spawns sd {:.1} median {:.1}\nmean_spawns {:.1}\n",
        runs.len(),
        seed,
        seed.wrapping_add(runs.len() as u64 - 1),
        cap.map_or("none".to_string(), |c| format!("{c} spawns")),
        s.capped,
        runs.len() - s.capped,
        s.sd,
        s.median,
        s.mean
    )
}
