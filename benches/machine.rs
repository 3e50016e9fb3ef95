//! Machine benchmark: headless fps per ROM, `Machine` clone cost, and resident memory
//! before and after a long run (it must stay flat).
//!
//! `cargo bench --bench machine [-- FRAMES [LONG_RUN_FRAMES]]`

use nesmind::emu::{Machine, Rom};
use nesmind::frontend::bench;

/// Resident set size in KiB, from /proc (Linux); None elsewhere.
fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() -> Result<(), String> {
    let args: Vec<u64> = nesmind::frontend::bench::positional_args()
        .iter()
        .filter_map(|a| a.parse().ok())
        .collect();
    let frames = args.first().copied().unwrap_or(3000);
    let long_run = args.get(1).copied().unwrap_or(100_000);
    let roms = bench::default_roms()?
        .iter()
        .map(|p| Rom::load(p))
        .collect::<Result<Vec<_>, _>>()?;
    let (mut total_frames, mut total_seconds) = (0, 0.0);
    for rom in &roms {
        let r = bench::run_rom(rom, frames, &bench::Input::Script)?;
        println!("{:<32} {:>9.1} fps", r.name, r.fps());
        total_frames += r.frames;
        total_seconds += r.seconds;
    }
    println!("clone_us {:.2}", bench::clone_micros(&roms[0])?);

    let mut m = Machine::new(&roms[0]).map_err(|e| e.to_string())?;
    for _ in 0..1000 {
        let _ = m.run_frame();
    }
    let before = rss_kib();
    for _ in 0..long_run {
        let _ = m.run_frame();
    }
    let after = rss_kib();
    if let (Some(b), Some(a)) = (before, after) {
        println!(
            "rss_kib before {b} after {long_run} frames {a} (growth {} KiB)",
            a as i64 - b as i64
        );
    }
    println!("fps {:.1}", total_frames as f64 / total_seconds);
    Ok(())
}
