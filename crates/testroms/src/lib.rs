//! The test-ROM conformance suite, shared by `nesmind test-roms` and every crate's tests:
//! the expectations file (`conformance.ron`, the one way to declare a ROM test), the corpus
//! lookup, the result readers and the report (`PASS path` / `FAIL path: reason`,
//! `passed P/T`, the README table). Also the rules the tests share for checks that cannot
//! run here (`support`). Depends only on the machine (`nesmind-emu`).

pub mod accuracycoin;
mod corpus;
pub mod nestest;
mod readers;
pub use corpus::find_corpus_in;
pub use readers::screen_text;
mod report;
pub mod support;

pub use report::{markdown_table, readme_section, update_readme};

use nesmind_emu::{Machine, Rom, Speedups};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// How a ROM reports its result.
#[derive(Clone, Debug, Deserialize)]
pub enum Check {
    /// The per-instruction trace must equal this log (path relative to the corpus).
    Nestest(String),
    /// blargg's $6000 status protocol with text at $6004.
    Protocol6000,
    /// The 2005-era ROMs: a zero-page result byte (pass value) once the screen shows a verdict.
    ZeroPage { addr: u16, pass: u8 },
    /// Text on the first nametable: passes when `pass` appears, fails early on any of `fail`.
    Screen {
        pass: Vec<String>,
        fail: Vec<String>,
    },
    /// Holy Mapperel's report screen.
    HolyMapperel,
    /// blargg's nmi_sync NTSC demo: a line drawn by timed greyscale writes must start at
    /// the left edge of the reference lines above and below it, its first pixel flashing
    /// (the pattern its readme draws).
    NmiSyncLine,
    /// Interactive ROMs that name a button on the screen's last line and wait for it: the
    /// reader presses each named button like a person (held, then released), and the
    /// verdict is read from the screen as for `Screen`.
    Prompted {
        pass: Vec<String>,
        fail: Vec<String>,
    },
    /// AccuracyCoin's run-all mode, started at each of `starts` (frames after power-on, so
    /// several CPU/PPU alignments are tried); passes when the lowest score reaches `min`.
    /// `asm` (relative to the corpus) is the source whose table names the result bytes.
    AccuracyCoin {
        asm: String,
        starts: Vec<u32>,
        min: u32,
    },
}

/// One line of the expectations file.
#[derive(Clone, Debug, Deserialize)]
pub struct Entry {
    pub path: String,
    pub sha256: String,
    pub check: Check,
    /// Frames to run before giving up.
    pub frames: u32,
    /// Buttons held on pad 1 from power-on (some ROMs choose tests this way).
    #[serde(default)]
    pub hold: Option<String>,
    /// The NES 2.0 submapper of the board the ROM was written for, when its iNES 1.0 header
    /// cannot say so (what a game database supplies for commercial dumps).
    #[serde(default)]
    pub submapper: Option<u8>,
    /// Present when the ROM is known not to pass; the suite then expects a failure.
    #[serde(default)]
    pub known_failure: Option<String>,
    /// The shortcuts the machine runs with (not in the file: the suite runs every entry
    /// with all of them, and again in lockstep, to show they change nothing).
    #[serde(skip)]
    pub speedups: Speedups,
}

/// A machine for `rom` running with `speedups`.
pub(crate) fn machine(rom: &Rom, speedups: Speedups) -> Result<Machine, String> {
    let mut m = Machine::new(rom).map_err(|e| e.to_string())?;
    m.set_speedups(speedups);
    Ok(m)
}

/// What happened when one ROM ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub path: String,
    pub passed: bool,
    pub detail: String,
    pub known_failure: Option<String>,
    /// The submapper the ROM ran as, when the expectations file chose it.
    pub submapper: Option<u8>,
    /// The check measures a score (AccuracyCoin): `detail` says what it measured even when
    /// it passes.
    pub scored: bool,
}

impl Outcome {
    /// True when the result is what the expectations file predicts.
    pub fn as_expected(&self) -> bool {
        self.passed == self.known_failure.is_none()
    }
    pub fn line(&self) -> String {
        if self.passed && self.scored {
            format!("PASS {}: {}", self.path, self.detail)
        } else if self.passed {
            format!("PASS {}", self.path)
        } else {
            format!("FAIL {}: {}", self.path, self.detail)
        }
    }
}

/// The expectations file shipped in the repository (`crates/testroms/conformance.ron`).
pub const EXPECTATIONS: &str = include_str!("../conformance.ron");

pub fn load_expectations(text: &str) -> Result<Vec<Entry>, String> {
    ron::from_str(text).map_err(|e| format!("bad conformance expectations: {e}"))
}

/// Where the corpus is: `$NES_TEST_ROMS`, else `test-roms/` in the working directory,
/// else `../shared/test-roms` beside the checkout, else `test-roms/` in it.
pub fn find_corpus() -> Result<PathBuf, String> {
    corpus::find_corpus_from(&support::workspace())
}

/// Runs one entry from `corpus`.
pub fn run_entry(corpus: &Path, entry: &Entry) -> Outcome {
    // A panic is an emulator bug; report it as this ROM's failure instead of ending the run.
    let result = std::panic::catch_unwind(|| run_checked(corpus, entry))
        .unwrap_or_else(|p| Err(format!("emulator panicked: {}", panic_text(&p))));
    let (passed, detail) = match result {
        Ok(detail) => (true, detail),
        Err(detail) => (false, detail),
    };
    Outcome {
        path: entry.path.clone(),
        passed,
        detail,
        known_failure: entry.known_failure.clone(),
        submapper: entry.submapper,
        scored: matches!(entry.check, Check::AccuracyCoin { .. }),
    }
}

fn run_checked(corpus: &Path, entry: &Entry) -> Result<String, String> {
    let path = corpus.join(&entry.path);
    let data = std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let digest: String = Sha256::digest(&data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    if !digest.eq_ignore_ascii_case(&entry.sha256) {
        return Err(format!(
            "sha256 {digest} differs from the expected {}",
            entry.sha256
        ));
    }
    let mut rom = Rom::parse(&data, &entry.path).map_err(|e| e.to_string())?;
    if let Some(sub) = entry.submapper {
        rom.submapper = sub;
    }
    readers::run(corpus, &rom, entry)
}

/// Runs every entry on `threads` worker threads, keeping the file's order in the result.
pub fn run_all(corpus: &Path, entries: &[Entry], threads: usize) -> Vec<Outcome> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(vec![None; entries.len()]);
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(entry) = entries.get(i) else { break };
                    let outcome = run_entry(corpus, entry);
                    results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(outcome);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect()
}

fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    p.downcast_ref::<String>()
        .cloned()
        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_default()
}
