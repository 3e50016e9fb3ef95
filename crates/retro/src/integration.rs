//! Finding stable-retro's integration folders and reading one: `rom.sha`, `data.json`,
//! `scenario.json` (and any other `*.json` scenarios), `metadata.json`, `script.lua`, and
//! the `.state` files. Integrations are read where they are installed; nothing is copied
//! into this repository.

use crate::data::GameData;
use crate::scenario::Scenario;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The environment variable naming an integration data folder.
pub const DATA_ENV: &str = "NESMIND_RETRO_DATA";

/// stable-retro's three integration sets, as subfolders of its `data` folder.
pub const SETS: [&str; 3] = ["stable", "experimental", "contrib"];

/// Where integrations were found, and how.
#[derive(Clone, Debug)]
pub struct DataRoot {
    pub path: PathBuf,
    pub source: &'static str,
}

/// The data folder: `explicit`, else `$NESMIND_RETRO_DATA`, else the installed
/// `stable_retro` package's `data` folder (asked of `python3`, without importing the
/// package's compiled core).
pub fn find_data(explicit: Option<&Path>) -> Result<DataRoot, String> {
    if let Some(p) = explicit {
        return checked(p.to_path_buf(), "the argument");
    }
    if let Some(p) = std::env::var_os(DATA_ENV) {
        return checked(PathBuf::from(p), DATA_ENV);
    }
    let python = std::env::var_os("PYTHON").unwrap_or_else(|| "python3".into());
    let script = "import importlib.util as u; s = u.find_spec('stable_retro'); \
                  print(s.submodule_search_locations[0] if s else '')";
    let out = Command::new(&python)
        .args(["-c", script])
        .output()
        .map_err(|e| {
            format!("no integrations: {DATA_ENV} is unset and python3 could not run ({e})")
        })?;
    let dir = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if dir.is_empty() {
        return Err(format!(
            "no integrations: {DATA_ENV} is unset and python3 has no stable_retro package \
             (pip install stable-retro==1.0.1, or point {DATA_ENV} at a data folder)"
        ));
    }
    checked(Path::new(&dir).join("data"), "the stable_retro package")
}

fn checked(path: PathBuf, source: &'static str) -> Result<DataRoot, String> {
    if path.is_dir() {
        Ok(DataRoot { path, source })
    } else {
        Err(format!(
            "{} (from {source}) is not a folder",
            path.display()
        ))
    }
}

/// The NES integration folders under `root`: those of the named sets if `root` is a
/// stable-retro `data` folder, else `root`'s own subfolders; sorted by name.
pub fn nes_integrations(root: &Path, sets: &[&str]) -> Result<Vec<PathBuf>, String> {
    let has_sets = SETS.iter().any(|s| root.join(s).is_dir());
    let dirs: Vec<PathBuf> = if has_sets {
        sets.iter()
            .map(|s| root.join(s))
            .filter(|d| d.is_dir())
            .collect()
    } else {
        vec![root.to_path_buf()]
    };
    let mut out = Vec::new();
    for dir in dirs {
        let list =
            std::fs::read_dir(&dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
        for entry in list.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() && name.contains("-Nes") {
                out.push(path);
            }
        }
    }
    out.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    Ok(out)
}

/// One integration folder, parsed.
#[derive(Clone, Debug)]
pub struct Integration {
    pub name: String,
    pub dir: PathBuf,
    /// Lower-case hex SHA-1s of the ROM (usually of PRG+CHR without the iNES header).
    pub rom_sha1: Vec<String>,
    pub data: GameData,
    /// `scenario.json`, the default scenario.
    pub scenario: Scenario,
    /// `metadata.json`'s `default_state`, if any.
    pub default_state: Option<String>,
    /// The `.state` files' names without the extension, sorted.
    pub states: Vec<String>,
    pub has_script: bool,
}

impl Integration {
    pub fn load(dir: &Path) -> Result<Integration, String> {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let read = |file: &str| {
            std::fs::read_to_string(dir.join(file))
                .map_err(|e| format!("{name}: cannot read {file}: {e}"))
        };
        let rom_sha1 =
            parse_rom_sha(&read("rom.sha")?).map_err(|e| format!("{name}: rom.sha: {e}"))?;
        let data =
            GameData::parse(&read("data.json")?).map_err(|e| format!("{name}: data.json: {e}"))?;
        let scenario = Scenario::parse(&read("scenario.json")?)
            .map_err(|e| format!("{name}: scenario.json: {e}"))?;
        let default_state = match dir.join("metadata.json").exists() {
            false => None,
            true => {
                let meta: serde_json::Value = serde_json::from_str(&read("metadata.json")?)
                    .map_err(|e| format!("{name}: metadata.json: not JSON: {e}"))?;
                meta.get("default_state")
                    .and_then(|s| s.as_str())
                    .map(str::to_string)
            }
        };
        let mut states = Vec::new();
        let list = std::fs::read_dir(dir).map_err(|e| format!("{name}: cannot list: {e}"))?;
        for entry in list.flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            if let Some(stem) = file.strip_suffix(".state") {
                states.push(stem.to_string());
            }
        }
        states.sort();
        Ok(Integration {
            name,
            dir: dir.to_path_buf(),
            rom_sha1,
            data,
            scenario,
            default_state,
            states,
            has_script: dir.join("script.lua").exists(),
        })
    }

    /// An evaluator of its default scenario (`scenario.json`, with its Lua scripts).
    pub fn evaluator(&self) -> Result<crate::Evaluator, String> {
        crate::Evaluator::load(self.data.clone(), self.scenario.clone(), &self.dir)
            .map_err(|e| format!("{}: {e}", self.name))
    }

    pub fn state_path(&self, state: &str) -> PathBuf {
        self.dir.join(format!("{state}.state"))
    }
}

/// The SHA-1s in a `rom.sha` file: 40 hex digits each, one or more, whitespace-separated.
pub fn parse_rom_sha(text: &str) -> Result<Vec<String>, String> {
    let list: Vec<String> = text
        .split_whitespace()
        .map(str::to_ascii_lowercase)
        .collect();
    if list.is_empty() {
        return Err("empty".into());
    }
    for s in &list {
        if s.len() != 40 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("{s:?} is not a 40-digit hex SHA-1"));
        }
    }
    Ok(list)
}
