//! Fuzzing on stable Rust: each target takes seeded, mutated inputs and must answer every
//! one with a value or an error, never a panic.
//!
//! `cargo test --test fuzz` runs 10,000 cases per target. The long run sets the count:
//! `NESMIND_FUZZ_CASES=1000000 cargo test --test fuzz -- --nocapture` (`NESMIND_FUZZ_SEED`
//! picks another seed). Not `--release`: the test profile is optimised too but keeps
//! overflow checks, which turn wrapping arithmetic on forged input into findings. Each
//! target prints its case and panic counts and lists the failing cases.
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

const DEFAULT_SEED: u64 = 0x5EED;

fn seed() -> u64 {
    std::env::var("NESMIND_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(DEFAULT_SEED)
}

/// Runs `case` for every input index, catching panics; fails listing the first few.
/// `once_panicked` are cases (of the default seed) that panicked before their fix: they run
/// in every run, whatever the range.
fn fuzz(target: &str, once_panicked: &[u64], mut case: impl FnMut(&mut Mutator) -> bool) {
    static QUIET: Once = Once::new();
    // One case (NESMIND_FUZZ_ONLY=N) panics loudly, with a backtrace; otherwise panics are
    // counted here, not printed thousands of times.
    let only: Option<u64> = std::env::var("NESMIND_FUZZ_ONLY")
        .ok()
        .and_then(|v| v.parse().ok());
    if only.is_none() {
        QUIET.call_once(|| std::panic::set_hook(Box::new(|_| {})));
    }
    let mut panics = Vec::new();
    // Runs case `i`: whether the input was accepted, or the panic's message.
    let mut run_one = |i: u64| -> Result<bool, String> {
        let mut m = Mutator::new(seed() ^ i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        catch_unwind(AssertUnwindSafe(|| case(&mut m))).map_err(|p| {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            if std::env::var_os("NESMIND_FUZZ_VERBOSE").is_some() {
                eprintln!("fuzz {target}: case {i}: {msg}");
            }
            format!("case {i}: {msg}")
        })
    };
    if only.is_none() && seed() == DEFAULT_SEED && !once_panicked.is_empty() {
        panics.extend(once_panicked.iter().filter_map(|&i| run_one(i).err()));
        println!(
            "fuzz {target}: {} cases that once panicked, {} panics",
            once_panicked.len(),
            panics.len()
        );
    }
    let n = cases();
    let range = only.map_or(first_case().min(n)..n, |i| i..i + 1);
    let (start, run, mut accepted, before) =
        (range.start, range.end - range.start, 0u64, panics.len());
    for i in range {
        if i > start && i % 100_000 == 0 {
            // Long runs report as they go, so a stopped run still tells how far it got.
            eprintln!(
                "fuzz {target}: cases {start}..{i} done, {} panics so far",
                panics.len() - before
            );
        }
        match run_one(i) {
            Ok(ok) => accepted += u64::from(ok),
            Err(p) => panics.push(p),
        }
    }
    let found = (panics.len() - before) as u64;
    println!(
        "fuzz {target}: {run} cases, {accepted} accepted, {} rejected with an error, {found} panics",
        run - accepted - found,
    );
    // The panic hook is silent, so the failing cases are listed here (replay one with
    // NESMIND_FUZZ_ONLY for its backtrace).
    for p in panics.iter().take(20) {
        println!("fuzz {target}: {p}");
    }
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

/// The 10^6-case run of 27 Nov 2026 (default seed): an MMC3 image writing its IRQ
/// registers with rendering on during the line the PPU powers on in (the IRQ prediction's
/// line start fell below dot count 0).
const ROM_LOADER_ONCE_PANICKED: &[u64] = &[29910];

#[test]
fn rom_loader() {
    let seeds = inputs::rom_images();
    fuzz("rom-loader", ROM_LOADER_ONCE_PANICKED, |m| {
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

/// The 10^6-case run of 27 Nov 2026 (default seed): forged counts near 2^64 (bus cycles,
/// PPU master clock, dots, frame; the wait-loop skipper's last branch after the bus's
/// clock), an open-bus window with an offset, and bodies the mutator emptied (a bug of
/// the harness itself). The second run (27 Nov, after those fixes): an MMC2 latch forged
/// out of 0-1, used as an index (243856, 284754, 334261), and an MMC1 serial port forged
/// holding more than four bits (619656, 635229, 958180). A cart window's offset forged
/// near 2^64, overflowing the ROM page table's bounds sum (521, 623, found by `cargo test`'s
/// own 10,000 cases when that table came in).
const SAVESTATES_ONCE_PANICKED: &[u64] = &[
    521, 623, 18771, 22413, 37702, 61109, 63935, 75663, 78215, 88444, 243856, 284754, 334261,
    619656, 635229, 958180,
];

#[test]
fn savestates() {
    let seeds = inputs::saved_states();
    fuzz("savestates", SAVESTATES_ONCE_PANICKED, |m| {
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

/// stable-retro's FCEUmm savestates, gzipped or not: parsed, their board named, and those of
/// the boards nesmind loads decoded into machine parts and built into machines.
#[test]
fn fceumm_states() {
    let hatris = Rom::parse(inputs::HATRIS, "hatris.nes").unwrap();
    let dots = Rom::parse(inputs::DOTS, "dots.nes").unwrap();
    let mmc3 = Rom::parse(inputs::MMC3_WORKLOAD, "mmc3-workload.nes").unwrap();
    // The Hatris cart relabelled mapper 69 (FME-7), for the board set through its writes.
    let mut fme7 = inputs::HATRIS.to_vec();
    fme7[6] = (fme7[6] & 0x0F) | 0x50;
    fme7[7] = (fme7[7] & 0x0F) | 0x40;
    let fme7 = Rom::parse(&fme7, "fme7.nes").unwrap();
    let seeds = [
        (inputs::fceumm_state(), &hatris),
        (inputs::fceumm_mmc3_state(), &mmc3),
        (inputs::fceumm_fme7_state(), &fme7),
    ];
    for (raw, rom) in &seeds {
        let seed = nesmind_retro::parts::load(raw, rom);
        assert!(seed.is_ok(), "{:?}", seed.err());
    }
    let roms = [&hatris, &dots, &mmc3, &fme7];
    fuzz("fceumm-states", &[], |m| {
        let mut bytes = m.pick(&seeds).0.clone();
        m.mutate_bytes(&mut bytes, false);
        if m.chance(2) {
            bytes = nesmind_retro::gzip::deflate(&bytes);
            if m.chance(4) {
                m.mutate_bytes(&mut bytes, false);
            }
        }
        let Ok(state) = nesmind_retro::FceuState::parse(&bytes) else {
            return false;
        };
        let _ = (state.cpu(), state.ram());
        let _ = nesmind_retro::layout::describe(&state.board_entries());
        let Ok(parts) = nesmind_retro::parts::MachineParts::from_state(&state) else {
            return false;
        };
        // Each seed builds on its own cart; another board is refused.
        for rom in roms {
            if let Ok(mut machine) = parts.to_machine(rom)
                && m.chance(4)
            {
                run_a_little(&mut machine, 1);
            }
        }
        true
    });
}

/// stable-retro's `data.json` and `scenario.json`: parsed and evaluated over a few RAMs.
#[test]
fn retro_integrations() {
    let (data, scenario) = inputs::retro_integration();
    fuzz("retro-integrations", &[], |m| {
        let mut d = data.clone().into_bytes();
        let mut s = scenario.clone().into_bytes();
        if m.chance(2) {
            m.mutate_lines(&mut d);
        } else {
            m.mutate_lines(&mut s);
        }
        let (Ok(d), Ok(s)) = (String::from_utf8(d), String::from_utf8(s)) else {
            return false;
        };
        let (Ok(d), Ok(s)) = (
            nesmind_retro::GameData::parse(&d),
            nesmind_retro::Scenario::parse(&s),
        ) else {
            return false;
        };
        let Ok(mut eval) = nesmind_retro::Evaluator::new(d, s) else {
            return false;
        };
        let mut ram = vec![0u8; nesmind_retro::RAM_SIZE];
        for step in 0..4u8 {
            ram.iter_mut()
                .enumerate()
                .for_each(|(i, b)| *b = (i as u8).wrapping_mul(step) ^ 0x80);
            if eval.update(&ram).is_err() {
                return false;
            }
        }
        true
    });
}

#[test]
fn replays() {
    let (rom, text) = inputs::replay();
    fuzz("replays", &[], |m| {
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
    fuzz("plugin-protocol", &[], |m| {
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
