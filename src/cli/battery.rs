//! Battery RAM (`.sav`): a cartridge with the iNES battery flag keeps its PRG RAM between
//! runs, as it did on the console. Loaded before the first frame, written atomically at
//! the end of the run.
//!
//! Where: `--sav FILE`, else in the window `ROM.sav` beside the ROM, or
//! `$XDG_DATA_HOME/nesmind/saves/ROM.sav` (`~/.local/share/...`) when the ROM's folder is
//! not writable. Headless runs use a file only when `--sav` names one, so a scripted or
//! AI run is reproducible and leaves nothing behind. Replays start from blank battery RAM
//! (their format records none), so `--record` and `--replay` use no `.sav` either.

use crate::host::{Session, files};
use std::io::Read;
use std::path::{Path, PathBuf};

/// What of a run's options decides its `.sav` file.
pub struct SaveChoice<'a> {
    /// `--no-sav`.
    pub no_sav: bool,
    /// `--sav FILE`.
    pub sav: Option<&'a Path>,
    /// `--record` or `--replay` was given.
    pub replay: bool,
    pub headless: bool,
    pub rom: &'a Path,
}

/// The `.sav` file this run loads and writes, if any.
pub fn path(args: &SaveChoice, session: &Session) -> Result<Option<PathBuf>, String> {
    if args.no_sav || !session.rom().battery || session.machine().prg_ram().is_empty() {
        return Ok(None);
    }
    if args.replay {
        if args.sav.is_some() {
            return Err(
                "--sav cannot be used with --record or --replay: replays start from blank \
                 battery RAM"
                    .into(),
            );
        }
        return Ok(None);
    }
    if let Some(p) = args.sav {
        return Ok(Some(p.to_path_buf()));
    }
    if args.headless {
        return Ok(None);
    }
    let beside = args.rom.with_extension("sav");
    if beside.exists() || files::check_writable(&beside).is_ok() {
        return Ok(Some(beside));
    }
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".local/share")))
        .ok_or("the ROM's folder is not writable and there is no $HOME for the battery save")?;
    let dir = base.join("nesmind/saves");
    std::fs::create_dir_all(&dir)
        .map_err(|e| format!("cannot create '{}' for battery saves: {e}", dir.display()))?;
    Ok(Some(dir.join(
        beside.file_name().unwrap_or("nesmind.sav".as_ref()),
    )))
}

/// Loads the save into the cartridge when the file exists (a missing one is a new game).
pub fn load(path: &Path, session: &mut Session) -> Result<(), String> {
    let bad = |why: String| {
        format!(
            "battery save '{}': {why} (--no-sav ignores it)",
            path.display()
        )
    };
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(bad(e.to_string())),
    };
    // Capped: no battery RAM is larger than this, and a device must not be read forever.
    let mut data = Vec::new();
    file.take(1 << 20)
        .read_to_end(&mut data)
        .map_err(|e| bad(e.to_string()))?;
    session.machine_mut().load_prg_ram(&data).map_err(bad)?;
    log::info!("loaded battery RAM from {}", path.display());
    Ok(())
}

/// Writes the cartridge's PRG RAM to the save, atomically.
pub fn save(path: &Path, session: &Session) -> Result<(), String> {
    files::write_atomic(path, session.machine().prg_ram())
}
