//! Fuzzing on stable Rust: each target takes seeded, mutated inputs and must answer every
//! one with a value or an error, never a panic.
//!
//! `cargo test --test fuzz` runs 10,000 cases per target. The long run sets the count:
//! `NESMIND_FUZZ_CASES=1000000 cargo test --release --test fuzz -- --nocapture`
//! (`NESMIND_FUZZ_SEED` picks another seed). Each target prints its case and panic counts.
//! Cases are numbered; a long run reports every 100,000, and `NESMIND_FUZZ_FROM=N` starts at
//! case N, so a stopped run can be finished in pieces (N plus the count of the next piece).

mod inputs;

use inputs::Mutator;
use nesmind::emu::{Machine, Rom};
use nesmind::host::Session;
use nesmind::host::external::protocol;
use nesmind::host::replay::Player;
use nesmind::host::savestate;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

fn cases() -> u64 {
    std::env::var("NESMIND_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

/// The first case index (cases run from here up to `cases()`).
fn first_case() -> u64 {
    std::env::var("NESMIND_FUZZ_FROM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

fn seed() -> u64 {
    std::env::var("NESMIND_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5EED)
}

/// Runs `case` for every input index, catching panics; fails listing the first few.
fn fuzz(target: &str, mut case: impl FnMut(&mut Mutator) -> bool) {
    static QUIET: Once = Once::new();
    // One case (NESMIND_FUZZ_ONLY=N) panics loudly, with a backtrace; otherwise panics are
    // counted here, not printed thousands of times.
    let only: Option<u64> = std::env::var("NESMIND_FUZZ_ONLY")
        .ok()
        .and_then(|v| v.parse().ok());
    if only.is_none() {
        QUIET.call_once(|| std::panic::set_hook(Box::new(|_| {})));
    }
    let (n, mut panics, mut accepted) = (cases(), Vec::new(), 0u64);
    let range = only.map_or(first_case().min(n)..n, |i| i..i + 1);
    let (start, run) = (range.start, range.end - range.start);
    for i in range {
        if i > start && i % 100_000 == 0 {
            // Long runs report as they go, so a stopped run still tells how far it got.
            eprintln!(
                "fuzz {target}: cases {start}..{i} done, {} panics so far",
                panics.len()
            );
        }
        let mut m = Mutator::new(seed() ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        match catch_unwind(AssertUnwindSafe(|| case(&mut m))) {
            Ok(ok) => accepted += u64::from(ok),
            Err(p) => {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                panics.push(format!("case {i}: {msg}"));
                if std::env::var_os("NESMIND_FUZZ_VERBOSE").is_some() {
                    eprintln!("fuzz {target}: case {i}: {msg}");
                }
            }
        }
    }
    println!(
        "fuzz {target}: {run} cases, {accepted} accepted, {} rejected with an error, {} panics",
        run - accepted - panics.len() as u64,
        panics.len()
    );
    assert!(
        panics.is_empty(),
        "{target}: {} panics, first: {:?}",
        panics.len(),
        &panics[..panics.len().min(5)]
    );
}

/// Runs a few frames of a machine that was accepted; jams are fine, panics are not.
fn run_a_little(m: &mut Machine, frames: u32) {
    for _ in 0..frames {
        if m.run_frame().is_err() {
            return;
        }
    }
}

#[test]
fn rom_loader() {
    let seeds = inputs::rom_images();
    fuzz("rom-loader", |m| {
        let mut image = if m.chance(3) {
            m.random_image()
        } else {
            m.pick(&seeds).clone()
        };
        m.mutate_bytes(&mut image, true);
        let Ok(rom) = Rom::parse(&image, "fuzz.nes") else {
            return false;
        };
        match Machine::new(&rom) {
            Ok(mut machine) => {
                run_a_little(&mut machine, 1);
                true
            }
            Err(_) => false,
        }
    });
}

#[test]
fn savestates() {
    let seeds = inputs::saved_states();
    fuzz("savestates", |m| {
        let (rom, body) = m.pick(&seeds);
        let mut body = body.clone();
        m.mutate_ron(&mut body);
        let text = inputs::state_file(rom, &body, m.chance(20));
        match savestate::decode(&text, rom) {
            Ok(mut machine) => {
                run_a_little(&mut machine, 2);
                true
            }
            Err(_) => false,
        }
    });
}

#[test]
fn replays() {
    let (rom, text) = inputs::replay();
    fuzz("replays", |m| {
        let mut bytes = text.clone().into_bytes();
        m.mutate_lines(&mut bytes);
        let Ok(text) = String::from_utf8(bytes) else {
            return false;
        };
        let Ok(player) = Player::parse(&text, &rom, true) else {
            return false;
        };
        let mut s = Session::new(rom.clone()).unwrap();
        s.machine_mut().set_audio_enabled(false);
        s.replay(player);
        for _ in 0..3 {
            if s.step().is_err() {
                break;
            }
        }
        true
    });
}

#[test]
fn plugin_protocol() {
    fuzz("plugin-protocol", |m| {
        let line = m.protocol_line();
        let reply = protocol::parse_reply(&line);
        let attach = protocol::parse_attach(&line);
        let words = protocol::split_command(&line);
        let range = protocol::parse_range(line.split(' ').next().unwrap_or(""));
        if let Ok(words) = &words {
            // Quoting the words back gives a command that splits into the same words.
            let quoted: Vec<String> = words
                .iter()
                .map(|w| format!("'{}'", w.replace('\'', r"'\''")))
                .collect();
            assert_eq!(&protocol::split_command(&quoted.join(" ")).unwrap(), words);
        }
        reply.is_ok() || attach.is_ok() || words.is_ok() || range.is_ok()
    });
}
