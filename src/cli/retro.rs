//! `nesmind retro ...`: brings stable-retro's NES integrations to nesmind. `import` copies
//! the user's ROMs that integrations name (by SHA-1) into nesmind's ROM library, `list`
//! says which integrations are playable and why not, `state` reads an FCEUmm savestate.

use crate::host::files;
use nesmind_retro::library::{self, Usability};
use nesmind_retro::{FceuState, Integration, find_data, layout, nes_integrations};
use std::path::{Path, PathBuf};

#[derive(clap::Subcommand, Debug)]
pub enum RetroCommand {
    /// Copy the ROMs found under DIR that integrations name (by rom.sha) into the library.
    Import(ImportArgs),
    /// Show every NES integration: usable (ROM imported, mapper supported) or why not.
    List(ListArgs),
    /// Read an FCEUmm `.state` file: version, board, CPU registers.
    State(StateArgs),
}

/// Where integrations and ROMs are.
#[derive(clap::Args, Debug)]
pub struct Places {
    /// stable-retro's `data` folder or a folder of integration folders (default:
    /// $NESMIND_RETRO_DATA, else the installed stable_retro package's data).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// The ROM library (default: $NESMIND_RETRO_ROMS, else $XDG_DATA_HOME/nesmind/retro,
    /// else ~/.local/share/nesmind/retro).
    #[arg(long, value_name = "DIR")]
    pub roms: Option<PathBuf>,
    /// Include stable-retro's experimental and contrib integrations, not only stable.
    #[arg(long)]
    pub all: bool,
}

#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// Folder searched recursively for ROM files (.nes, any name).
    pub dir: PathBuf,
    #[command(flatten)]
    pub places: Places,
}

#[derive(clap::Args, Debug)]
pub struct ListArgs {
    #[command(flatten)]
    pub places: Places,
    /// Only the usable integrations.
    #[arg(long)]
    pub usable: bool,
}

#[derive(clap::Args, Debug)]
pub struct StateArgs {
    /// An FCEUmm savestate (gzipped or not).
    pub file: PathBuf,
}

pub fn retro(cmd: RetroCommand) -> Result<(), String> {
    match cmd {
        RetroCommand::Import(a) => import(a),
        RetroCommand::List(a) => list(a),
        RetroCommand::State(a) => state(&a.file),
    }
}

/// The integrations (those that fail to parse are reported and left out) and the library.
fn load(places: &Places) -> Result<(Vec<Integration>, PathBuf), String> {
    let root = find_data(places.data.as_deref())?;
    let sets: &[&str] = if places.all {
        &nesmind_retro::integration::SETS
    } else {
        &["stable"]
    };
    let mut games = Vec::new();
    for dir in nes_integrations(&root.path, sets)? {
        match Integration::load(&dir) {
            Ok(g) => games.push(g),
            Err(e) => eprintln!("skipped: {e}"),
        }
    }
    if games.is_empty() {
        return Err(format!("no NES integrations in {}", root.path.display()));
    }
    let library = match &places.roms {
        Some(p) => p.clone(),
        None => library::library_dir()?,
    };
    Ok((games, library))
}

fn import(a: ImportArgs) -> Result<(), String> {
    let (games, library) = load(&a.places)?;
    let report = library::import(&a.dir, &games, &library)?;
    for (game, file) in &report.imported {
        println!("{game:<44} <- {}", file.display());
    }
    for e in &report.errors {
        eprintln!("error: {e}");
    }
    println!(
        "{} ROM(s) imported into {}; {} file(s) matched no integration",
        report.imported.len(),
        library.display(),
        report.unmatched
    );
    Ok(())
}

fn list(a: ListArgs) -> Result<(), String> {
    let (games, library) = load(&a.places)?;
    let mut usable = 0;
    for g in &games {
        let status = match library::usability(&library, g) {
            Usability::Usable => {
                usable += 1;
                "usable".to_string()
            }
            Usability::NoRom => "no ROM (nesmind retro import DIR)".to_string(),
            Usability::RomUnusable(why) => format!("ROM unusable: {why}"),
        };
        if a.usable && !status.starts_with("usable") {
            continue;
        }
        let states = g.states.len();
        println!("{:<44} {states:2} state(s)  {status}", g.name);
    }
    println!(
        "{usable} of {} integrations usable (ROM library {})",
        games.len(),
        library.display()
    );
    Ok(())
}

fn state(file: &Path) -> Result<(), String> {
    let bytes = files::read_capped(file, nesmind_retro::fceumm::MAX_FILE, "an FCEUmm state")
        .map_err(|e| format!("{}: {e}", file.display()))?;
    let s = FceuState::parse(&bytes).map_err(|e| format!("{}: {e}", file.display()))?;
    let cpu = s.cpu().map_err(|e| e.to_string())?;
    println!("FCEUmm state version {}", s.version);
    println!("board       {}", layout::describe(&s.board_entries()));
    println!(
        "cpu         PC=${:04X} A=${:02X} X=${:02X} Y=${:02X} S=${:02X} P=${:02X}",
        cpu.pc, cpu.a, cpu.x, cpu.y, cpu.s, cpu.p
    );
    for sec in &s.sections {
        let names: Vec<String> = sec
            .entries
            .iter()
            .map(|e| format!("{}:{}", e.name, e.data.len()))
            .collect();
        println!("{:<11} {}", format!("{:?}", sec.kind), names.join(" "));
    }
    Ok(())
}
