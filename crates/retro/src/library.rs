//! The user's ROMs for integrations. stable-retro names each game's ROM only by its SHA-1
//! (`rom.sha`), so importing hashes every file offered and copies each match to
//! `<library>/<Integration>/rom.nes`. The library is `$NESMIND_RETRO_ROMS` if set, else
//! `$XDG_DATA_HOME/nesmind/retro`, else `~/.local/share/nesmind/retro`.

use crate::integration::Integration;
use nesmind_emu::Rom;
use nesmind_emu::cart::check_supported;
use sha1::{Digest, Sha1};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub const ROMS_ENV: &str = "NESMIND_RETRO_ROMS";

/// Files larger than this are not NES ROMs (the largest boards hold a few MiB).
const MAX_ROM: u64 = 16 << 20;

/// The library folder (not created here).
pub fn library_dir() -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os(ROMS_ENV) {
        return Ok(PathBuf::from(p));
    }
    if let Some(p) = std::env::var_os("XDG_DATA_HOME").filter(|p| !p.is_empty()) {
        return Ok(PathBuf::from(p).join("nesmind/retro"));
    }
    let home = std::env::var_os("HOME")
        .ok_or_else(|| format!("neither {ROMS_ENV}, XDG_DATA_HOME nor HOME is set"))?;
    Ok(PathBuf::from(home).join(".local/share/nesmind/retro"))
}

/// Where an integration's imported ROM lives.
pub fn rom_path(library: &Path, integration: &str) -> PathBuf {
    library.join(integration).join("rom.nes")
}

/// A file's hashes as `rom.sha` may give them: of PRG+CHR (what `RomInfo` hashes) and,
/// for the rare integration that hashed the whole file, of all of it.
pub fn rom_hashes(bytes: &[u8]) -> Vec<String> {
    let mut out = vec![hex(&Sha1::digest(bytes))];
    // Decoding does not ask for a board, so a mapper nesmind lacks is hashed too.
    if let Ok(rom) = Rom::parse(bytes, "") {
        out.push(hex(&rom.info.sha1));
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// What importing found.
#[derive(Debug, Default)]
pub struct ImportReport {
    /// (integration, source file) for each ROM copied.
    pub imported: Vec<(String, PathBuf)>,
    /// Files read that matched no integration.
    pub unmatched: usize,
    /// Files that could not be read, with the reason.
    pub errors: Vec<String>,
}

/// Hashes every file under `dir` (recursively) and copies each one an integration names.
pub fn import(
    dir: &Path,
    integrations: &[Integration],
    library: &Path,
) -> Result<ImportReport, String> {
    let mut wanted: HashMap<&str, Vec<&Integration>> = HashMap::new();
    for i in integrations {
        for sha in &i.rom_sha1 {
            wanted.entry(sha.as_str()).or_default().push(i);
        }
    }
    let mut files = Vec::new();
    walk(dir, &mut files).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    files.sort();
    let mut report = ImportReport::default();
    for file in files {
        let size = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
        if size > MAX_ROM {
            continue;
        }
        let bytes = match std::fs::read(&file) {
            Ok(b) => b,
            Err(e) => {
                report.errors.push(format!("{}: {e}", file.display()));
                continue;
            }
        };
        let matches: Vec<&Integration> = rom_hashes(&bytes)
            .iter()
            .filter_map(|h| wanted.get(h.as_str()))
            .flatten()
            .copied()
            .collect();
        if matches.is_empty() {
            report.unmatched += 1;
        }
        for i in matches {
            let dest = rom_path(library, &i.name);
            let copy = std::fs::create_dir_all(dest.parent().unwrap_or(library))
                .and_then(|()| std::fs::write(&dest, &bytes));
            match copy {
                Ok(()) => report.imported.push((i.name.clone(), file.clone())),
                Err(e) => report.errors.push(format!("{}: {e}", dest.display())),
            }
        }
    }
    Ok(report)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(&entry.path(), out)?;
        } else if kind.is_file() {
            out.push(entry.path());
        }
    }
    Ok(())
}

/// Whether an integration can be played, and if not, why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Usability {
    Usable,
    NoRom,
    /// The imported file no longer parses, or its mapper is missing.
    RomUnusable(String),
}

/// Checks the imported ROM of `integration`.
pub fn usability(library: &Path, integration: &Integration) -> Usability {
    let path = rom_path(library, &integration.name);
    let Ok(bytes) = std::fs::read(&path) else {
        return Usability::NoRom;
    };
    match Rom::parse(&bytes, &path.to_string_lossy()).and_then(|rom| check_supported(&rom)) {
        Ok(()) => Usability::Usable,
        Err(e) => Usability::RomUnusable(e.to_string()),
    }
}
