//! `nesmind bench`: headless frames per second and machine clone cost.

use crate::emu::{AccessKind, Buttons, Machine, Rom};
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::time::Instant;

/// A fixed input script for pad 1: Start taps, then walking round with A presses. The
/// determinism test, the fingerprints and the Nestopia bench play it, so a game leaves its
/// title screen the same way in each.
pub fn scripted_buttons(frame: u64) -> Buttons {
    match frame % 120 {
        0..=5 if frame < 240 => Buttons::START,
        10..=40 => Buttons::RIGHT,
        50..=80 => Buttons::DOWN | Buttons::A,
        90..=110 => Buttons::LEFT,
        _ => Buttons::NONE,
    }
}

/// One ROM's measurement.
pub struct BenchResult {
    pub name: String,
    pub frames: u64,
    pub seconds: f64,
}

impl BenchResult {
    pub fn fps(&self) -> f64 {
        self.frames as f64 / self.seconds.max(1e-9)
    }
}

/// Runs `frames` frames of `rom` from power-on with no input and no output.
pub fn run_rom(rom: &Rom, frames: u64) -> Result<BenchResult, String> {
    let mut m = Machine::new(rom).map_err(|e| e.to_string())?;
    let start = Instant::now();
    for _ in 0..frames {
        // A jammed CPU still produces frames, so keep timing the PPU.
        let _ = m.run_frame();
    }
    Ok(BenchResult {
        name: rom.info.file_name.clone(),
        frames,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// What the second machine of a paired run does that the first does not.
#[derive(Clone)]
pub enum Extra {
    /// A CPU access watch, its hits taken every frame as a host does.
    Watch(AccessKind, RangeInclusive<u16>),
    /// Sound synthesis on, the samples taken every frame.
    Audio,
}

/// The same ROM run without and with `extra`, in five alternating rounds of a fifth of
/// `frames` each, so both see the same load on a shared machine; both run the same frames.
pub fn paired_cost(
    rom: &Rom,
    frames: u64,
    extra: &Extra,
) -> Result<(BenchResult, BenchResult), String> {
    let mut plain = Machine::new(rom).map_err(|e| e.to_string())?;
    let mut other = plain.clone();
    match extra {
        Extra::Watch(kind, range) => other.set_watches(vec![(*kind, range.clone())]),
        Extra::Audio => other.set_audio_enabled(true),
    }
    let (mut a, mut b) = (0f64, 0f64);
    let (mut hits, mut samples) = (Vec::new(), Vec::new());
    let round = frames.div_ceil(5);
    for _ in 0..5 {
        let start = Instant::now();
        for _ in 0..round {
            let _ = plain.run_frame();
        }
        a += start.elapsed().as_secs_f64();
        let start = Instant::now();
        for _ in 0..round {
            let _ = other.run_frame();
            match extra {
                Extra::Watch(..) => other.take_watch_hits(&mut hits),
                Extra::Audio => other.take_audio(&mut samples),
            }
        }
        b += start.elapsed().as_secs_f64();
    }
    let result = |seconds| BenchResult {
        name: rom.info.file_name.clone(),
        frames: round * 5,
        seconds,
    };
    Ok((result(a), result(b)))
}

/// Average wall time of `Machine::clone` in microseconds, on a machine that has run a while.
pub fn clone_micros(rom: &Rom) -> Result<f64, String> {
    let mut m = Machine::new(rom).map_err(|e| e.to_string())?;
    for _ in 0..60 {
        let _ = m.run_frame();
    }
    let n = 20_000;
    let start = Instant::now();
    let mut keep = 0u64;
    for _ in 0..n {
        let c = std::hint::black_box(m.clone());
        keep = keep.wrapping_add(c.cpu_cycles());
    }
    std::hint::black_box(keep);
    Ok(start.elapsed().as_secs_f64() * 1e6 / f64::from(n))
}

/// A bench binary's positional arguments: `cargo bench` adds flags such as `--bench`.
pub fn positional_args() -> Vec<String> {
    std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect()
}

/// The default workload: cpu_timing_test6 and the homebrew games of the test corpus.
pub fn default_roms() -> Result<Vec<PathBuf>, String> {
    let corpus = crate::conformance::find_corpus()?;
    let mut roms = vec![corpus.join("blargg/cpu_timing_test6/cpu_timing_test.nes")];
    let homebrew = corpus.join("homebrew");
    let mut games: Vec<PathBuf> = std::fs::read_dir(&homebrew)
        .map_err(|e| format!("cannot list {}: {e}", homebrew.display()))?
        .filter_map(|e| e.ok())
        .flat_map(|dir| {
            std::fs::read_dir(dir.path())
                .into_iter()
                .flatten()
                .filter_map(|e| e.ok())
        })
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "nes"))
        .collect();
    games.sort();
    roms.extend(games);
    Ok(roms)
}
