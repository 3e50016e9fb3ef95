//! Command-line interface.

use clap::{Parser, Subcommand};

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
    /// List the in-tree plug-ins.
    Plugins,
    /// Run the test-ROM conformance suite listed in tests/conformance.ron.
    TestRoms(TestRomsArgs),
    /// Play games between AI seats: `nesmind arena spot --games 100 ...`.
    Arena(ToolArgs),
    /// Run a plug-in's offline simulator: `nesmind sim hatris --runs 100 ...`.
    Sim(ToolArgs),
    /// Train a plug-in's evaluation: `nesmind train hatris ...`.
    Train(ToolArgs),
    /// Count move-generator leaves: `nesmind perft spot ...`.
    Perft(ToolArgs),
}

#[derive(clap::Args, Debug)]
pub struct TestRomsArgs {
    /// Corpus directory (default: $NES_TEST_ROMS, else ../shared/test-roms).
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
}

#[derive(clap::Args, Debug)]
pub struct ToolArgs {
    /// Plug-in whose tool to run.
    pub plugin: String,
    /// Arguments for the tool (see `nesmind <tool> <plugin> --help`).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    pub args: Vec<String>,
}

/// Parses the command line, runs it and returns the process exit code.
pub fn main() -> i32 {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match run(cli) {
        Ok(()) => 0,
        Err(msg) => {
            eprintln!("nesmind: {msg}");
            1
        }
    }
}

fn run(cli: Cli) -> Result<(), String> {
    use crate::plugins;
    match cli.command {
        Command::Plugins => {
            for e in plugins::registry() {
                println!("{:<10} {}", e.name, e.description);
            }
            Ok(())
        }
        Command::TestRoms(a) => test_roms(a),
        Command::Arena(t) => plugins::run_tool("arena", &t.plugin, &t.args),
        Command::Sim(t) => plugins::run_tool("sim", &t.plugin, &t.args),
        Command::Train(t) => plugins::run_tool("train", &t.plugin, &t.args),
        Command::Perft(t) => plugins::run_tool("perft", &t.plugin, &t.args),
    }
}

fn test_roms(args: TestRomsArgs) -> Result<(), String> {
    use crate::conformance as conf;
    let corpus = match args.dir {
        Some(d) => d,
        None => conf::find_corpus()?,
    };
    let mut entries = conf::load_expectations(conf::EXPECTATIONS)?;
    if let Some(f) = &args.filter {
        entries.retain(|e| e.path.contains(f.as_str()));
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
    Ok(())
}
