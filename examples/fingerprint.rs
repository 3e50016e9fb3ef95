//! Prints one hash per ROM over everything a run produces (every frame's picture, RAM,
//! CPU registers and cycle count, and the sound), run lazily and in lockstep. Run it before
//! and after a change that should not alter behaviour and compare the lines:
//!
//! `cargo run --release --example fingerprint -- [--frames N] [ROM ...]`
//!
//! Without ROMs it uses a fixed set from the test-ROM corpus and the demo carts.

use nesmind::emu::{Machine, Rom};
use nesmind::frontend::bench::scripted_buttons;
use std::path::PathBuf;

/// Corpus ROMs covering every board family the emulator has and the speed workloads.
const CORPUS_ROMS: &[&str] = &[
    "homebrew/lawn_mower/lawn_mower.nes",
    "homebrew/kubo/kubo.nes",
    "homebrew/megamountain/megamountain.nes",
    "homebrew/melojellos2/melojellos2.nes",
    "homebrew/nes15/nes15-NTSC.nes",
    "homebrew/nesert-golfing/nesert-golfing.nes",
    "homebrew/lala/lala.nes",
    "homebrew/yun/yun.nes",
    "blargg/cpu_timing_test6/cpu_timing_test.nes",
    "blargg/dmc_dma_during_read4/dma_2007_read.nes",
    "blargg/sprite_overflow_tests/3.Timing.nes",
    "holy-mapperel/M1_P128K_C32K.nes",
    "holy-mapperel/M4_P128K_CR8K.nes",
    "holy-mapperel/M4_P256K_C256K.nes",
    "holy-mapperel/M118_P128K_C64K.nes",
    "holy-mapperel/M9_P128K_C64K.nes",
    "holy-mapperel/M10_P128K_C64K_W8K.nes",
    "holy-mapperel/M69_P128K_C64K_W8K.nes",
    "holy-mapperel/M28_P512K_CR32K.nes",
    "blargg/mmc3_test_2/rom_singles/3-A12_clocking.nes",
    "blargg/mmc3_test_2/rom_singles/4-scanline_timing.nes",
];

struct Fnv(u64);
impl Fnv {
    fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3);
        }
    }
}

fn fingerprint(rom: &Rom, frames: u64, lockstep: bool) -> Result<u64, String> {
    let mut m = Machine::new(rom).map_err(|e| e.to_string())?;
    if lockstep {
        m.set_speedups(nesmind::emu::Speedups::NONE);
    }
    let mut h = Fnv(0xCBF2_9CE4_8422_2325);
    let mut audio = Vec::new();
    for f in 0..frames {
        m.set_buttons(0, scripted_buttons(f));
        // A jam is part of the behaviour being fingerprinted, not a failure.
        let jam = m.run_frame().is_err();
        audio.clear();
        m.take_audio(&mut audio);
        for p in m.picture() {
            h.feed(&p.to_le_bytes());
        }
        h.feed(m.ram());
        let c = m.cpu();
        h.feed(&[c.a, c.x, c.y, c.s, c.p, u8::from(jam)]);
        h.feed(&c.pc.to_le_bytes());
        h.feed(&m.cpu_cycles().to_le_bytes());
        for s in &audio {
            h.feed(&s.to_le_bytes());
        }
    }
    Ok(h.0)
}

fn main() -> Result<(), String> {
    let mut frames = 600;
    let mut roms: Vec<PathBuf> = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--frames" {
            frames = args
                .next()
                .and_then(|n| n.parse().ok())
                .ok_or("--frames needs a number")?;
        } else {
            roms.push(a.into());
        }
    }
    if roms.is_empty() {
        let corpus = nesmind::conformance::find_corpus()?;
        roms = CORPUS_ROMS.iter().map(|r| corpus.join(r)).collect();
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        roms.push(root.join("plugins/spot/cart/dots.nes"));
        roms.push(root.join("plugins/hatris/cart/hatris-like.nes"));
    }
    let mut all_equal = true;
    for path in &roms {
        let rom = Rom::load(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let lazy = fingerprint(&rom, frames, false)?;
        let lockstep = fingerprint(&rom, frames, true)?;
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let same = if lazy == lockstep {
            ""
        } else {
            "  LOCKSTEP DIFFERS"
        };
        all_equal &= lazy == lockstep;
        println!("{lazy:016x} {lockstep:016x} {name}{same}");
    }
    if all_equal {
        Ok(())
    } else {
        Err("the lazy and lockstep runs differ".into())
    }
}
