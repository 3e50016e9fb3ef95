//! Finding stable-retro for the tests: its data folder and a Python that imports it.
//! `$NESMIND_RETRO_DATA` names the data; the Python is python/.venv's (python/test.sh
//! installs stable-retro there), else `$PYTHON`, else `python3`. The test-ROM corpus is
//! found as `nesmind test-roms` finds it (`nesmind-testroms`). Without them a test says
//! `SKIPPED` and passes, and fails under `CI=true`.
// Each test file uses some of these.
#![allow(dead_code)]

use nesmind_retro::integration;
use std::path::{Path, PathBuf};

// The corpus lookup and the rule for checks that cannot run, as every crate's tests have them.
#[allow(unused_imports)]
pub use nesmind_testroms::support::{cannot_run, corpus_rom};

/// A Python whose `stable_retro` imports, and the package's folder.
pub fn python() -> Result<(PathBuf, PathBuf), String> {
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python/.venv/bin/python");
    let mut tried = Vec::new();
    let candidates = [
        Some(venv),
        std::env::var_os("PYTHON").map(PathBuf::from),
        Some(PathBuf::from("python3")),
    ];
    for py in candidates.into_iter().flatten() {
        let out = std::process::Command::new(&py)
            .args([
                "-c",
                "import importlib.util as u; s = u.find_spec('stable_retro'); \
                 print(s.submodule_search_locations[0] if s else '')",
            ])
            .output();
        let dir = out
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default();
        if !dir.is_empty() {
            return Ok((py, PathBuf::from(dir)));
        }
        tried.push(py.display().to_string());
    }
    Err(format!(
        "no Python with stable_retro (tried {}; python/test.sh installs stable-retro==1.0.1)",
        tried.join(", ")
    ))
}

/// The data folder: `$NESMIND_RETRO_DATA`, else the installed package's.
pub fn data_root() -> Option<PathBuf> {
    let found = match std::env::var_os(integration::DATA_ENV) {
        Some(_) => integration::find_data(None).map(|r| r.path),
        None => python().map(|(_, pkg)| pkg.join("data")),
    };
    match found {
        Ok(p) => Some(p),
        Err(e) => {
            cannot_run(&format!("stable-retro's integrations are missing: {e}"));
            None
        }
    }
}
