//! `nesmind bench`: headless frames per second and machine clone cost.

use crate::emu::{AccessKind, Buttons, Machine, Rom, WatchHit};
use crate::host::replay::Player;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::Arc;
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

/// The pad input a benchmark plays: the fixed script, or a recorded replay of real play
/// (`benches/replays/`).
#[derive(Clone)]
pub enum Input {
    Script,
    Replay(Arc<Player>),
}

impl Input {
    /// The replay `dir/<ROM file stem>.replay` when `dir` is given and it exists, else the
    /// script. A replay must be of this ROM and hold no resets or power cycles.
    pub fn for_rom(rom: &Rom, path: &Path, dir: Option<&Path>) -> Result<Input, String> {
        let Some(dir) = dir else {
            return Ok(Input::Script);
        };
        let stem = path.file_stem().unwrap_or_default().to_string_lossy();
        let file = dir.join(format!("{stem}.replay"));
        if !file.exists() {
            return Ok(Input::Script);
        }
        let player = Player::load(&file, rom, false).map_err(|e| e.to_string())?;
        if (0..player.len()).any(|s| !player.events(s).is_empty()) {
            return Err(format!(
                "{}: a replay with resets or power cycles cannot be benchmarked",
                file.display()
            ));
        }
        Ok(Input::Replay(Arc::new(player)))
    }

    /// Frames to run when `wanted` are asked for: a replay ends where it ends.
    pub fn frames(&self, wanted: u64) -> u64 {
        match self {
            Input::Script => wanted,
            Input::Replay(p) => wanted.min(p.len() + 1),
        }
    }

    /// What the pads hold while frame `frame` runs (a replay's step N is set after frame N,
    /// as a session plays it).
    pub fn pads(&self, frame: u64) -> [Buttons; 4] {
        match self {
            Input::Script => [
                scripted_buttons(frame),
                Buttons::NONE,
                Buttons::NONE,
                Buttons::NONE,
            ],
            Input::Replay(p) => frame
                .checked_sub(1)
                .and_then(|s| p.pads(s))
                .unwrap_or([Buttons::NONE; 4]),
        }
    }

    /// A fresh machine for `rom`, configured as the input needs, sound off (as headless
    /// runs have it; a machine starts with it on).
    pub fn machine(&self, rom: &Rom) -> Result<Machine, String> {
        let mut m = Machine::new(rom).map_err(|e| e.to_string())?;
        m.set_audio_enabled(false);
        if let Input::Replay(p) = self {
            m.set_four_score(p.four_score());
        }
        Ok(m)
    }

    /// Sets the pads for `frame` and runs it (a jammed CPU still produces frames, so the
    /// PPU keeps being timed).
    pub fn run_frame(&self, m: &mut Machine, frame: u64) {
        for (pad, b) in self.pads(frame).into_iter().enumerate() {
            m.set_buttons(pad, b);
        }
        let _ = m.run_frame();
    }

    pub fn label(&self) -> &'static str {
        match self {
            Input::Script => "script",
            Input::Replay(_) => "replay",
        }
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

/// Runs `frames` frames of `rom` from power-on with `input`, no sound and no output.
pub fn run_rom(rom: &Rom, frames: u64, input: &Input) -> Result<BenchResult, String> {
    let mut m = input.machine(rom)?;
    let frames = input.frames(frames);
    let start = Instant::now();
    for f in 0..frames {
        input.run_frame(&mut m, f);
    }
    Ok(BenchResult {
        name: rom.info.file_name.clone(),
        frames,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// `run_rom` with `extra` (a watch, or sound), its output taken every frame as a host does.
pub fn run_rom_with(
    rom: &Rom,
    frames: u64,
    input: &Input,
    extra: &Extra,
) -> Result<BenchResult, String> {
    let mut m = input.machine(rom)?;
    extra.apply(&mut m);
    let frames = input.frames(frames);
    let (mut hits, mut samples) = (Vec::new(), Vec::new());
    let start = Instant::now();
    for f in 0..frames {
        input.run_frame(&mut m, f);
        extra.take(&mut m, &mut hits, &mut samples);
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

impl Extra {
    fn apply(&self, m: &mut Machine) {
        match self {
            Extra::Watch(kind, range) => m.set_watches(vec![(*kind, range.clone())]),
            Extra::Audio => m.set_audio_enabled(true),
        }
    }

    /// Takes a frame's watch hits or samples (and drops them; the buffers are reused).
    fn take(&self, m: &mut Machine, hits: &mut Vec<WatchHit>, samples: &mut Vec<i16>) {
        match self {
            Extra::Watch(..) => m.take_watch_hits(hits),
            Extra::Audio => m.take_audio(samples),
        }
        hits.clear();
        samples.clear();
    }
}

/// The same ROM run without and with `extra`, in five alternating rounds of a fifth of
/// `frames` each, so both see the same load on a shared machine; both run the same frames.
pub fn paired_cost(
    rom: &Rom,
    frames: u64,
    extra: &Extra,
    input: &Input,
) -> Result<(BenchResult, BenchResult), String> {
    let mut plain = input.machine(rom)?;
    let mut other = plain.clone();
    extra.apply(&mut other);
    let (mut a, mut b) = (0f64, 0f64);
    let (mut hits, mut samples) = (Vec::new(), Vec::new());
    let round = (input.frames(frames) / 5).max(1);
    for r in 0..5 {
        let start = Instant::now();
        for f in r * round..(r + 1) * round {
            input.run_frame(&mut plain, f);
        }
        a += start.elapsed().as_secs_f64();
        let start = Instant::now();
        for f in r * round..(r + 1) * round {
            input.run_frame(&mut other, f);
            extra.take(&mut other, &mut hits, &mut samples);
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

/// The default workload: cpu_timing_test6, the homebrew games of the test corpus and
/// holy-mapperel's MMC3 board, then (in a checkout) the two demo carts and the MMC3 cart.
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
    roms.push(corpus.join("holy-mapperel/M4_P128K_CR8K.nes"));
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    roms.extend(
        [
            "plugins/spot/cart/dots.nes",
            "plugins/hatris/cart/hatris-like.nes",
            "benches/carts/mmc3/mmc3-workload.nes",
        ]
        .iter()
        .map(|p| repo.join(p))
        .filter(|p| p.exists()),
    );
    Ok(roms)
}
