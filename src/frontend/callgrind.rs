//! `nesmind bench --callgrind`: instructions per frame, and how they split between the
//! parts of the machine, from callgrind's counts.
//!
//! Each ROM runs twice under callgrind, 100 and 400 frames; the difference over 300 frames
//! leaves out start-up. An instruction counts for the part whose source it was compiled
//! from: callgrind names the source file of every instruction, inlined ones included, so a
//! PPU helper inlined into the CPU's loop still counts for the PPU. Code from outside the
//! emulator's crate (the standard library inlined into a function of ours) counts for the
//! function it was inlined into. These are instruction shares, not time shares: code that
//! stalls on memory or mispredicted branches costs more time than its share says.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// The parts reported, in order.
pub const PARTS: [&str; 6] = ["cpu", "ppu", "apu", "mapper", "bus", "other"];

/// The part a source file (or, outside the emulator, a function name) belongs to.
fn part(file: &str, function: &str) -> usize {
    const EMU: &str = "crates/emu/src/";
    let by_module = |name: &str| {
        for (i, module) in ["::cpu", "::ppu", "::apu", "::cart"].iter().enumerate() {
            if name.contains(&format!("nesmind_emu{module}")) {
                return i;
            }
        }
        if name.contains("nesmind_emu::") { 4 } else { 5 }
    };
    match file.find(EMU) {
        Some(at) => {
            let rest = &file[at + EMU.len()..];
            match rest.split('/').next().unwrap_or("") {
                "cpu" => 0,
                "ppu" => 1,
                "apu" => 2,
                "cart" => 3,
                _ => 4,
            }
        }
        None => by_module(function),
    }
}

/// Self instruction counts of one callgrind output file, per part.
pub fn parse(text: &str) -> Result<[u64; 6], String> {
    let mut names: BTreeMap<(char, String), String> = BTreeMap::new();
    // callgrind compresses names: "(7) path" defines id 7, "(7)" repeats it.
    let mut name = |kind: char, spec: &str| -> String {
        let spec = spec.trim();
        match spec.strip_prefix('(').and_then(|s| s.split_once(')')) {
            Some((id, rest)) => {
                let key = (kind, id.to_string());
                let rest = rest.trim();
                if rest.is_empty() {
                    names.get(&key).cloned().unwrap_or_default()
                } else {
                    names.insert(key, rest.to_string());
                    rest.to_string()
                }
            }
            None => spec.to_string(),
        }
    };
    let (mut file, mut inlined, mut function) = (String::new(), None::<String>, String::new());
    let mut skip_next = false;
    let mut out = [0u64; 6];
    let mut events_ok = false;
    for line in text.lines() {
        if let Some(v) = line.strip_prefix("events:") {
            events_ok = v.split_whitespace().next() == Some("Ir");
        } else if let Some(v) = line.strip_prefix("fl=") {
            file = name('f', v);
            inlined = None;
        } else if let Some(v) = line.strip_prefix("fi=").or(line.strip_prefix("fe=")) {
            inlined = Some(name('f', v));
        } else if let Some(v) = line.strip_prefix("fn=") {
            function = name('n', v);
            inlined = None;
        } else if let Some(v) = line.strip_prefix("cfi=").or(line.strip_prefix("cfl=")) {
            name('f', v);
        } else if let Some(v) = line.strip_prefix("cfn=") {
            name('n', v);
        } else if line.starts_with("calls=") {
            // The next cost line is the call's inclusive cost, counted where it was spent.
            skip_next = true;
        } else if line.starts_with(|c: char| c.is_ascii_digit() || "+-*".contains(c)) {
            if std::mem::take(&mut skip_next) {
                continue;
            }
            let ir: u64 = line
                .split_whitespace()
                .nth(1)
                .and_then(|v| v.parse().ok())
                .unwrap_or(0);
            out[part(inlined.as_deref().unwrap_or(&file), &function)] += ir;
        }
    }
    if !events_ok {
        return Err("not a callgrind output file counting Ir".into());
    }
    Ok(out)
}

/// Runs `args` (a `nesmind bench` command line for one ROM, without `--frames`) under
/// callgrind for `frames` frames; returns the per-part counts.
fn counts(exe: &Path, args: &[String], frames: u64) -> Result<[u64; 6], String> {
    let out = std::env::temp_dir().join(format!(
        "nesmind-callgrind-{}-{frames}.out",
        std::process::id()
    ));
    let status = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(exe)
        .args(args)
        .args(["--frames", &frames.to_string()])
        .output()
        .map_err(|e| {
            format!("cannot run valgrind ({e}): install it (apt-get install -y valgrind)")
        })?;
    let text = std::fs::read_to_string(&out);
    std::fs::remove_file(&out).ok();
    if !status.status.success() {
        return Err(format!(
            "valgrind failed: {}",
            String::from_utf8_lossy(&status.stderr)
                .lines()
                .last()
                .unwrap_or("")
        ));
    }
    parse(&text.map_err(|e| format!("{}: {e}", out.display()))?)
}

/// Instructions per frame and each part's share of them, for the bench run `args`.
pub fn measure(args: &[String]) -> Result<(f64, [f64; 6]), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let short = counts(&exe, args, 100)?;
    let long = counts(&exe, args, 400)?;
    let per_part: Vec<f64> = (0..6)
        .map(|i| long[i].saturating_sub(short[i]) as f64 / 300.0)
        .collect();
    let total: f64 = per_part.iter().sum();
    let mut shares = [0.0; 6];
    for (s, p) in shares.iter_mut().zip(&per_part) {
        *s = p / total.max(1.0);
    }
    Ok((total, shares))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_self_cost_by_source_file_and_skips_call_costs() {
        let text = "events: Ir\n\
            fl=(1) /x/crates/emu/src/cpu/mod.rs\n\
            fn=(1) nesmind_emu::cpu::Cpu::step\n\
            10 100\n\
            fi=(2) /x/crates/emu/src/ppu/render.rs\n\
            +2 40\n\
            fe=(1)\n\
            cfl=(3) /x/crates/emu/src/apu/mod.rs\n\
            cfn=(3) nesmind_emu::apu::Apu::run_to\n\
            calls=1 5\n\
            * 999\n\
            fl=(4) /rustc/core/src/iter/zip.rs\n\
            fn=(4) nesmind_emu::ppu::fast_line::fast_line\n\
            3 7\n\
            fl=(3)\n\
            fn=(3)\n\
            5 20\n\
            fl=(5) /x/crates/emu/src/bus.rs\n\
            fn=(5) other\n\
            1 3\n";
        assert_eq!(parse(text).unwrap(), [100, 47, 20, 0, 3, 0]);
        assert!(parse("fn=x\n1 2\n").is_err());
    }
}
