//! Command-line interface.

use clap::{Parser, Subcommand};

mod battery;
mod demo;
mod info;
mod ramsearch;
pub mod ramsearch_tool;
mod retro;
mod retro_run;
mod run;
mod window_flags;

#[derive(Parser, Debug)]
#[command(
    name = "nesmind",
    version,
    about = "A cycle-accurate NES emulator that hosts AI plug-ins"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run a ROM in the window or headless, optionally with a plug-in playing.
    Run(Box<run::RunArgs>),
    /// Watch an in-tree plug-in play its open demo cartridge (spot, hatris).
    Demo(Box<demo::DemoArgs>),
    /// Show a ROM's header, hashes, mapper and which plug-ins know the game.
    Info(info::InfoArgs),
    /// List the in-tree plug-ins.
    Plugins,
    /// Measure headless emulation speed (frames per second) and machine clone cost.
    Bench(BenchArgs),
    /// Run the test-ROM conformance suite listed in crates/testroms/conformance.ron.
    TestRoms(TestRomsArgs),
    /// Play games between AI seats: `nesmind arena spot --games 100 ...`.
    #[command(disable_help_flag = true)]
    Arena(ToolArgs),
    /// Run a plug-in's offline simulator: `nesmind sim hatris --runs 100 ...`.
    #[command(disable_help_flag = true)]
    Sim(ToolArgs),
    /// Train a plug-in's evaluation: `nesmind train hatris ...`.
    #[command(disable_help_flag = true)]
    Train(ToolArgs),
    /// Find a game's variables in RAM: snapshots, filters, watches, export (commands on
    /// stdin or from --script).
    Ramsearch(Box<ramsearch::RamSearchArgs>),
    /// stable-retro's NES integrations: import ROMs, list what is playable, read a state.
    #[command(subcommand)]
    Retro(retro::RetroCommand),
    /// Count move-generator leaves: `nesmind perft spot ...`.
    #[command(disable_help_flag = true)]
    Perft(ToolArgs),
    /// Speak an engine protocol on stdin/stdout: `nesmind uai spot` (Universal Ataxx Interface).
    #[command(disable_help_flag = true)]
    Uai(ToolArgs),
}

#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// ROMs to run (default: cpu_timing_test6 and the corpus's homebrew games).
    pub roms: Vec<std::path::PathBuf>,
    /// Frames per ROM.
    #[arg(long, default_value_t = 3000)]
    pub frames: u64,
    /// Also measure the cost of a watch, `ADDR[-ADDR][:write|read|exec]` (e.g.
    /// `$4018-$401F:read`): each ROM runs with and without it in alternation.
    #[arg(long, conflicts_with = "audio")]
    pub watch: Option<String>,
    /// Also measure the cost of sound synthesis: each ROM runs with and without it in
    /// alternation.
    #[arg(long)]
    pub audio: bool,
    /// Play `DIR/<ROM file stem>.replay` where there is one (e.g. benches/replays), instead
    /// of the fixed input script.
    #[arg(long, value_name = "DIR")]
    pub replays: Option<std::path::PathBuf>,
    /// Instructions per frame and their split between CPU, PPU, APU, mapper, bus (with
    /// scheduling and DMA) and other code, from two runs under valgrind's callgrind. With
    /// --watch or --audio: also with the watch or sound, and the instructions they add.
    #[arg(long)]
    pub callgrind: bool,
    /// Run the frames and nothing else (what --callgrind measures; with --watch or --audio
    /// the run has the watch or the sound).
    #[arg(long, hide = true)]
    pub bare: bool,
}

#[derive(clap::Args, Debug)]
pub struct TestRomsArgs {
    /// Corpus directory (default: $NES_TEST_ROMS, else test-roms/ in the working
    /// directory, else ../shared/test-roms beside the checkout nesmind was built from, else
    /// test-roms/ in it, where tests/fetch-test-roms.sh downloads it).
    pub dir: Option<std::path::PathBuf>,
    /// Only run ROMs whose path contains this text.
    #[arg(long)]
    pub filter: Option<String>,
    /// Write the Markdown table into this README (between its conformance markers).
    #[arg(long)]
    pub markdown: Option<std::path::PathBuf>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub speedups: SpeedupFlags,
}

/// Switches for the emulator's shortcuts, to show they change no result and to bisect a
/// difference (see `Speedups`).
#[derive(clap::Args, Debug, Default)]
pub struct SpeedupFlags {
    /// Run every part of the machine on every cycle (all shortcuts off): the reference.
    #[arg(long)]
    pub lockstep: bool,
    /// Run the PPU on every cycle instead of catching it up on demand.
    #[arg(long)]
    pub no_lazy_ppu: bool,
    /// Draw visible lines dot by dot instead of whole.
    #[arg(long)]
    pub no_whole_lines: bool,
    /// Never draw a line ahead of the CPU's clock.
    #[arg(long)]
    pub no_lines_ahead: bool,
    /// Run wait loops pass by pass instead of skipping them.
    #[arg(long)]
    pub no_skip_wait_loops: bool,
    /// Tick the APU on every cycle instead of from event to event.
    #[arg(long)]
    pub no_apu_events: bool,
}

impl SpeedupFlags {
    pub fn speedups(&self) -> crate::emu::Speedups {
        if self.lockstep {
            return crate::emu::Speedups::NONE;
        }
        crate::emu::Speedups {
            lazy_ppu: !self.no_lazy_ppu,
            whole_lines: !self.no_whole_lines,
            lines_ahead: !self.no_lines_ahead,
            skip_wait_loops: !self.no_skip_wait_loops,
            apu_events: !self.no_apu_events,
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct ToolArgs {
    /// Plug-in whose tool to run (`--help` here: this command's help).
    #[arg(allow_hyphen_values = true)]
    pub plugin: String,
    /// Arguments for the tool; `--help` here prints the tool's own help.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub args: Vec<String>,
}

/// Parses the command line, runs it and returns the process exit code.
pub fn main() -> i32 {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    stop_quietly_on_a_closed_stdout();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("nesmind: {msg}");
            1
        }
    }
}

/// `nesmind ... | head`: once the reader is gone, a write to stdout fails with a broken pipe
/// and `println!` panics. For a Unix tool that is the signal to stop, so stop quietly with
/// the status a tool that SIGPIPE killed has (128 + 13). SIGPIPE itself stays ignored, as
/// Rust leaves it: an external plug-in that dies must be an error the host reports, not a
/// signal that kills the host mid-write.
fn stop_quietly_on_a_closed_stdout() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(141);
        }
        report(info);
    }));
}

/// Runs a command; `Ok` holds the exit status (a plug-in may end a run with its own).
fn run(cli: Cli) -> Result<i32, String> {
    use crate::plugins;
    match cli.command {
        Command::Run(a) => return run::run(*a),
        Command::TestRoms(a) => return test_roms(a),
        Command::Ramsearch(a) => return ramsearch::ramsearch(*a),
        Command::Demo(a) => return demo::demo(*a),
        _ => {}
    }
    match cli.command {
        Command::Run(_) | Command::TestRoms(_) | Command::Ramsearch(_) | Command::Demo(_) => Ok(()),
        Command::Info(a) => info::info(a),
        Command::Retro(c) => retro::retro(c),
        Command::Plugins => {
            for e in plugins::registry() {
                println!("{:<10} {}", e.name, e.description);
            }
            Ok(())
        }
        Command::Bench(a) => bench(a),
        Command::Arena(t) => tool("arena", &t),
        Command::Sim(t) => tool("sim", &t),
        Command::Train(t) => tool("train", &t),
        Command::Perft(t) => tool("perft", &t),
        Command::Uai(t) => tool("uai", &t),
    }
    .map(|()| 0)
}

/// A plug-in's tool; `nesmind TOOL --help` (the help flag is the tool's own after the
/// plug-in's name) says what the command does and which plug-ins have it.
fn tool(name: &str, t: &ToolArgs) -> Result<(), String> {
    if !matches!(t.plugin.as_str(), "--help" | "-h") {
        if t.plugin.starts_with('-') {
            return Err(format!(
                "'{}': name the plug-in first: nesmind {name} PLUGIN [ARGS...]",
                t.plugin
            ));
        }
        return crate::plugins::run_tool(name, &t.plugin, &t.args);
    }
    use clap::CommandFactory;
    let mut cli = Cli::command();
    if let Some(sub) = cli.find_subcommand_mut(name) {
        let help = sub
            .clone()
            .bin_name(format!("nesmind {name}"))
            .override_usage(format!("nesmind {name} PLUGIN [ARGS...]"))
            .render_long_help();
        println!("{help}");
    }
    let have: Vec<&str> = crate::plugins::registry()
        .iter()
        .filter(|e| e.tools.iter().any(|(t, _)| *t == name))
        .map(|e| e.name)
        .collect();
    match have.first() {
        Some(first) => println!(
            "Plug-ins with this tool: {}. Their options: nesmind {name} {first} --help",
            have.join(", ")
        ),
        None => println!("No in-tree plug-in has this tool."),
    }
    Ok(())
}

/// Exit status 1 when a ROM failed, 2 when none ran (a wrong directory or filter).
fn test_roms(args: TestRomsArgs) -> Result<i32, String> {
    use crate::conformance as conf;
    // A directory given is checked like the default places, so a wrong one is one error
    // instead of a failure line per ROM.
    let corpus = match args.dir {
        Some(d) => conf::find_corpus_in([d])?,
        None => conf::find_corpus()?,
    };
    let mut entries = conf::load_expectations(conf::EXPECTATIONS)?;
    if let Some(f) = &args.filter {
        entries.retain(|e| e.path.contains(f.as_str()));
    }
    let speedups = args.speedups.speedups();
    for e in &mut entries {
        e.speedups = speedups;
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let outcomes = conf::run_all(&corpus, &entries, threads);
    for o in &outcomes {
        println!("{}", o.line());
    }
    if let Some(readme) = &args.markdown {
        let text = std::fs::read_to_string(readme)
            .map_err(|e| format!("cannot read {}: {e}", readme.display()))?;
        let updated = conf::update_readme(&text, &conf::markdown_table(&outcomes))?;
        std::fs::write(readme, updated)
            .map_err(|e| format!("cannot write {}: {e}", readme.display()))?;
    }
    let passed = outcomes.iter().filter(|o| o.passed).count();
    println!("passed {passed}/{}", outcomes.len());
    if outcomes.is_empty() {
        eprintln!("nesmind: no test ROM ran (check the --filter)");
        Ok(2)
    } else if passed < outcomes.len() {
        Ok(1)
    } else {
        Ok(0)
    }
}

fn bench(args: BenchArgs) -> Result<(), String> {
    use crate::frontend::{bench, callgrind};
    if args.frames == 0 {
        return Err("--frames must be at least 1".into());
    }
    let paths = if args.roms.is_empty() {
        bench::default_roms()?
    } else {
        args.roms.clone()
    };
    let mut work = Vec::new();
    for p in &paths {
        let rom = crate::emu::Rom::load(p)?;
        let input = bench::Input::for_rom(&rom, p, args.replays.as_deref())?;
        work.push((rom, input));
    }
    let extra = match &args.watch {
        Some(text) => {
            let (range, kind) = match text.split_once(':') {
                Some((r, k)) => (r, Some(k)),
                None => (text.as_str(), None),
            };
            let (kind, range) =
                ramsearch_tool::parse_watch(range, kind).map_err(|e| format!("--watch: {e}"))?;
            Some(bench::Extra::Watch(kind, range))
        }
        None => args.audio.then_some(bench::Extra::Audio),
    };
    if args.bare {
        for (rom, input) in &work {
            match &extra {
                Some(extra) => bench::run_rom_with(rom, args.frames, input, extra)?,
                None => bench::run_rom(rom, args.frames, input)?,
            };
        }
        return Ok(());
    }
    if args.callgrind {
        println!(
            "{:<32} {:>6} {:>10}  {}",
            "ROM",
            "input",
            "Ir/frame",
            callgrind::PARTS.map(|p| format!("{p:>6}")).join(" ")
        );
        for (p, (rom, input)) in paths.iter().zip(&work) {
            let mut child = vec![
                "bench".to_string(),
                "--bare".into(),
                p.display().to_string(),
            ];
            if let Some(dir) = &args.replays {
                child.extend(["--replays".into(), dir.display().to_string()]);
            }
            let (ipf, shares) = callgrind::measure(&child)?;
            println!(
                "{:<32} {:>6} {:>8.2} M  {}",
                rom.info.file_name,
                input.label(),
                ipf / 1e6,
                shares.map(|s| format!("{:>5.1}%", s * 100.0)).join(" ")
            );
            if extra.is_some() {
                match &args.watch {
                    Some(w) => child.extend(["--watch".into(), w.clone()]),
                    None => child.push("--audio".into()),
                }
                let (with, shares) = callgrind::measure(&child)?;
                println!(
                    "{:<32} {:>6} {:>8.2} M  {}  cost {:+.1}%",
                    "",
                    if args.audio { "sound" } else { "watch" },
                    with / 1e6,
                    shares.map(|s| format!("{:>5.1}%", s * 100.0)).join(" "),
                    (with / ipf.max(1.0) - 1.0) * 100.0
                );
            }
        }
        return Ok(());
    }
    if let Some(extra) = extra {
        let label = if args.audio { "sound" } else { "watched" };
        for (rom, input) in &work {
            let (plain, other) = bench::paired_cost(rom, args.frames, &extra, input)?;
            println!(
                "{:<32} {:>6} {:>9.1} fps plain {:>9.1} fps {label}  cost {:+.1}%",
                plain.name,
                input.label(),
                plain.fps(),
                other.fps(),
                (other.seconds / plain.seconds.max(1e-9) - 1.0) * 100.0
            );
        }
        return Ok(());
    }
    let (mut frames, mut seconds) = (0u64, 0f64);
    for (rom, input) in &work {
        let r = bench::run_rom(rom, args.frames, input)?;
        println!(
            "{:<32} {:>6} {:>8} frames {:>9.1} fps",
            r.name,
            input.label(),
            r.frames,
            r.fps()
        );
        frames += r.frames;
        seconds += r.seconds;
    }
    println!("clone_us {:.2}", bench::clone_micros(&work[0].0)?);
    println!("fps {:.1}", frames as f64 / seconds.max(1e-9));
    Ok(())
}
