//! The DOTS demo cartridge (`cart/`, built from source) and `nesmind demo spot --headless`:
//! the Spot plug-in plays games against the cart's own 6502 computer player, with the
//! whole loop on the emulated machine (menu set through the pad, moves read from RAM,
//! buttons pressed back).

pub mod cart;
pub mod driver;
pub mod human;
pub mod port;
pub mod table;
pub mod timing;
pub mod variant;

use crate::plugin::SpotPlugin;
use cart::CartFacts;
use clap::Parser;
use driver::{Driver, GameRecord, Report, RunConfig};
use nesmind_host::Demo;
use nesmind_host::Rom;
use nesmind_host::progress::Progress;
use nesmind_host::{PluginOptions, Session};
use std::sync::{Arc, Mutex};

pub use cart::{COLOURS, SETTING_HUMAN};
pub use variant::Cart;

pub static DEMO: Demo = Demo {
    file_name: "dots.nes",
    image: include_bytes!("../../cart/dots.nes"),
    window_options: &[],
    headless: headless_tool,
    human: Some(human::setup),
};

/// The headless demo's default budget per move: the same games on every run.
pub const DEFAULT_MOVE_NODES: u64 = 20_000;

/// A headless run.
#[derive(Clone, Debug)]
pub struct Options {
    pub games: usize,
    /// Menu setting per slot (0 off, 1-5 computer level, 6 the plug-in).
    pub settings: [u8; 4],
    pub animations: bool,
    pub move_ms: u64,
    /// A reproducible budget per move (nodes, plies); when either is set, `move_ms` is not used.
    pub move_nodes: Option<u64>,
    pub depth: Option<u32>,
    pub seed: u64,
    pub threads: usize,
    pub max_game_frames: u64,
    /// The cart played: the committed one, or a variant.
    pub cart: Cart,
    /// Extra plug-in options (e.g. `save_map`).
    pub plugin_options: PluginOptions,
}

/// The committed DOTS cart.
pub fn committed_cart() -> Cart {
    Cart {
        image: DEMO.image.to_vec(),
        facts: CartFacts::dots(),
        file_name: DEMO.file_name.to_string(),
    }
}

impl Options {
    /// `players` slots in play, the plug-in in `seats` of them (slot 1 first, then 3, 2, 4;
    /// none: the cart plays itself), the cart's computer at `level` in the others.
    pub fn new(players: usize, seats: usize, level: u8) -> Result<Options, String> {
        if !(2..=4).contains(&players) {
            return Err(format!("players: {players} is not 2-4"));
        }
        if seats >= players {
            return Err(format!(
                "plug-in seats: {seats} is not 0-{} (the cart needs an opponent)",
                players - 1
            ));
        }
        if !(1..=5).contains(&level) {
            return Err(format!("level: {level} is not 1-5"));
        }
        let mut settings = [0u8; 4];
        settings[..players].fill(level);
        for &slot in &[0, 2, 1, 3][..seats] {
            settings[slot] = SETTING_HUMAN;
        }
        Ok(Options {
            games: 10,
            settings,
            animations: false,
            move_ms: 100,
            move_nodes: None,
            depth: None,
            seed: 1,
            threads: 1,
            max_game_frames: 40_000,
            cart: committed_cart(),
            plugin_options: PluginOptions::new(),
        })
    }
}

/// The seed of worker `t`'s games.
pub fn worker_seed(seed: u64, t: usize) -> u64 {
    seed ^ (t as u64).wrapping_mul(0xD1B5_4A32_D192_ED03)
}

/// Plays the games on `opts.threads` machines and merges what they saw.
pub fn play(opts: &Options) -> Result<Report, String> {
    let threads = opts.threads.clamp(1, opts.games.max(1));
    let progress = Mutex::new(GamesProgress::new(opts.games as u64));
    let progress = &progress;
    let results: Vec<Result<Report, String>> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let games = opts.games / threads + usize::from(t < opts.games % threads);
                let cfg = RunConfig {
                    games,
                    settings: opts.settings,
                    animations: opts.animations,
                    seed: worker_seed(opts.seed, t),
                    max_game_frames: opts.max_game_frames,
                };
                s.spawn(move || run_worker(cfg, opts, progress))
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|_| Err("a worker panicked".into())))
            .collect()
    });
    let mut total = Report::default();
    for r in results {
        total.absorb(r?);
    }
    total.done = true;
    Ok(total)
}

/// Games finished and won so far over all workers, shown on a terminal as they come.
struct GamesProgress {
    done: u64,
    won: u64,
    line: Progress,
}

impl GamesProgress {
    fn new(total: u64) -> GamesProgress {
        GamesProgress {
            done: 0,
            won: 0,
            line: Progress::new("games", Some(total)),
        }
    }

    fn game_over(&mut self, won: bool) {
        self.done += 1;
        self.won += u64::from(won);
        let rate = 100.0 * self.won as f64 / self.done as f64;
        self.line
            .update(self.done, &format!("plug-in won {rate:.1}%"));
    }
}

fn run_worker(
    cfg: RunConfig,
    run: &Options,
    progress: &Mutex<GamesProgress>,
) -> Result<Report, String> {
    let report = Arc::new(Mutex::new(Report::default()));
    let mut opts = run.plugin_options.clone();
    opts.insert("move_ms".into(), run.move_ms.to_string());
    if let Some(n) = run.move_nodes {
        opts.insert("move_nodes".into(), n.to_string());
    }
    if let Some(d) = run.depth {
        opts.insert("depth".into(), d.to_string());
    }
    // With no slot played through a pad the cart plays alone: no player to attach.
    let inner = if cfg.settings.contains(&SETTING_HUMAN) {
        Some(SpotPlugin::from_options(&opts)?)
    } else {
        None
    };
    let games = cfg.games as u64;
    let limit = games * (cfg.max_game_frames + 2_000);
    let driver = Driver::new(inner, cfg, run.cart.facts.clone(), Arc::clone(&report));
    let rom = Rom::parse(&run.cart.image, &run.cart.file_name).map_err(|e| e.to_string())?;
    let mut session = Session::new(rom)?;
    session.machine_mut().set_audio_enabled(false);
    session.attach(Box::new(driver), &[])?;
    let mut seen = 0;
    for _ in 0..limit {
        {
            let r = report.lock().expect("report lock");
            for g in &r.games[seen..] {
                progress
                    .lock()
                    .expect("progress lock")
                    .game_over(g.plugin_won);
            }
            seen = r.games.len();
            if r.done || games == 0 {
                break;
            }
        }
        session.step()?;
    }
    session.detach();
    let mut r = std::mem::take(&mut *report.lock().expect("report lock"));
    if r.games.len() < games as usize && r.errors.is_empty() {
        r.errors
            .push(format!("only {} of {games} games finished", r.games.len()));
    }
    Ok(r)
}

/// Play the DOTS demo cart headless: the Spot plug-in against the cart's computer.
#[derive(Parser, Debug)]
#[command(name = "nesmind demo spot --headless")]
struct HeadlessArgs {
    /// Games to play.
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// Players per game (2-4).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=4))]
    players: u8,
    /// Slots the plug-in plays (slot 1, then 3, 2): fewer than the players; 0 lets the
    /// cart's computer play every slot (a check of the cart alone).
    #[arg(long, default_value_t = 1)]
    plugin_seats: u8,
    /// Level of the cart's computer players: 1-5 (5 is the pure heuristic).
    #[arg(long, default_value_t = 5)]
    level: u8,
    /// The plug-in's search nodes per move. The same --seed then gives the same games
    /// on every run (with the same --threads). Default: 20000 unless --move-ms is given.
    #[arg(long, value_name = "N")]
    move_nodes: Option<u64>,
    /// The plug-in's deepest search, in plies (reproducible like --move-nodes).
    #[arg(long, value_name = "PLIES")]
    depth: Option<u32>,
    /// The plug-in's search time per move, in milliseconds. Time budgets depend on the
    /// machine's speed and load, so runs with the same --seed differ.
    #[arg(long, value_name = "MS")]
    move_ms: Option<u64>,
    /// Seeds how many frames pass before each Start, which seeds the cart's own RNG.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Machines played in parallel (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Keep the cart's animations on (slower, as in the window).
    #[arg(long)]
    animations: bool,
    /// Play a variant of the cart drawn from this seed (or `random`): its variables moved,
    /// recoded and reshaped, its board one byte per cell (the classic family, which the
    /// player reads from RAM). `wide:SEED` or `wide:random` draws from the wide space: the
    /// board's storage (packed fields, bit planes, flag bits, buffers that flip) and the play
    /// screen's picture vary too. Built at run time with ca65/ld65 (cc65); the plug-in is not
    /// told. Every move is checked through the cart's test port either way.
    #[arg(long, value_name = "SEED|random|wide:SEED|wide:random")]
    cart_variant: Option<String>,
    /// With --cart-variant: build it as a test build that checks its board storage against a
    /// plain shadow copy after every change (a mismatch stops the run with the cell named).
    #[arg(long, requires = "cart_variant")]
    cart_check: bool,
    /// Write what the plug-in's calibration found to FILE (the `save_map` plug-in option).
    #[arg(long, value_name = "FILE")]
    save_map: Option<String>,
    /// Plug-in options for the player, e.g. `ram=off` to play from the picture alone
    /// (repeatable).
    #[arg(long = "plugin-opt", value_name = "KEY=VALUE", value_parser = nesmind_host::parse_option)]
    plugin_opt: Vec<(String, String)>,
}

fn headless_tool(args: &[String]) -> Result<(), String> {
    let Some(a) = nesmind_host::parse_args::<HeadlessArgs>("nesmind demo spot --headless", args)?
    else {
        return Ok(());
    };
    let mut opts = Options::new(a.players.into(), a.plugin_seats.into(), a.level)?;
    opts.games = a.games;
    // Reproducible by default: a node budget unless a time or depth budget is asked for.
    opts.move_ms = a.move_ms.unwrap_or(100).max(1);
    opts.depth = a.depth;
    opts.move_nodes = match (a.move_nodes, a.move_ms, a.depth) {
        (Some(n), _, _) => Some(n.max(1)),
        (None, None, None) => Some(DEFAULT_MOVE_NODES),
        _ => None,
    };
    opts.seed = a.seed;
    opts.animations = a.animations;
    opts.threads = a
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if let Some(v) = &a.cart_variant {
        let mut spec = variant::parse_spec(v)?;
        spec.check = a.cart_check;
        println!("cart variant {}", spec.name());
        opts.cart = variant::build_spec(&spec)?;
    }
    if let Some(path) = &a.save_map {
        opts.plugin_options.insert("save_map".into(), path.clone());
    }
    opts.plugin_options.extend(a.plugin_opt.iter().cloned());
    let report = play(&opts)?;
    for (i, g) in report.games.iter().enumerate() {
        println!("{}", game_line(i + 1, g, &opts.settings));
    }
    print!("{}", summary(&report, &opts));
    if !report.errors.is_empty() {
        return Err(format!(
            "{} problem(s):\n{}",
            report.errors.len(),
            report.errors.join("\n")
        ));
    }
    Ok(())
}

/// `game 3  layout 164  first BLUE  RED 30  BLUE 19  won by RED (plug-in)`
pub fn game_line(number: usize, g: &GameRecord, settings: &[u8; 4]) -> String {
    let counts: Vec<String> = g
        .counts
        .iter()
        .map(|&(s, c)| format!("{} {c}", COLOURS[s]))
        .collect();
    let verdict = match g.winner {
        Some(s) if settings[s] == SETTING_HUMAN => format!("won by {} (plug-in)", COLOURS[s]),
        Some(s) => format!("won by {} (cart, level {})", COLOURS[s], settings[s]),
        None => "draw".into(),
    };
    format!(
        "game {number:3}  layout {:3}  first {:5}  {}  {verdict}",
        g.layout,
        COLOURS[g.first],
        counts.join("  ")
    )
}

/// The closing lines; the last is `win_rate W`.
pub fn summary(r: &Report, opts: &Options) -> String {
    let n = r.games.len();
    let wins = r.games.iter().filter(|g| g.plugin_won).count();
    let draws = r.games.iter().filter(|g| g.winner.is_none()).count();
    let plugin_first = r
        .games
        .iter()
        .filter(|g| opts.settings[g.first] == SETTING_HUMAN)
        .count();
    let frames: u64 = r.games.iter().map(|g| g.frames).sum();
    format!(
        "{n} games: plug-in won {wins}, drew {draws}, lost {}; plug-in moved first in {plugin_first}\n\
         {} plug-in moves, {frames} frames in play; cart moves at level 5: {} checked, {} not among the heuristic's best; refused A presses {}\n\
         win_rate {:.4}\n",
        n - wins - draws,
        r.plugin_moves,
        r.cpu_moves,
        r.cpu_off_model,
        r.refused_presses,
        if n == 0 { 0.0 } else { wins as f64 / n as f64 }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_name_bad_seat_counts() {
        let o = Options::new(4, 2, 3).unwrap();
        assert_eq!(o.settings, [SETTING_HUMAN, 3, SETTING_HUMAN, 3]);
        assert!(Options::new(2, 2, 5).unwrap_err().contains("seats"));
        assert!(Options::new(5, 1, 5).unwrap_err().contains("players"));
        assert!(Options::new(2, 1, 6).unwrap_err().contains("level"));
        let g = GameRecord {
            layout: 7,
            first: 1,
            counts: vec![(0, 30), (1, 19)],
            winner: Some(0),
            plugin_won: true,
            frames: 400,
        };
        assert_eq!(
            game_line(3, &g, &o.settings),
            "game   3  layout   7  first BLUE   RED 30  BLUE 19  won by RED (plug-in)"
        );
    }
}
