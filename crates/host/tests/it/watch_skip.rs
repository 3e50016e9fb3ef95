//! Watches and the wait-loop skip: a run with watches reports exactly the hits, at exactly
//! the cycles, that a run of every loop pass (all shortcuts off) reports, and the watches do
//! not change what the machine does.

use nesmind_emu::{AccessKind, Machine, Rom, Speedups, WatchHit};
use nesmind_host::Buttons;
use std::ops::RangeInclusive;

fn buttons_for(frame: u64) -> Buttons {
    match frame % 90 {
        0..=5 => Buttons::START,
        20..=40 => Buttons::RIGHT,
        50..=60 => Buttons::A,
        _ => Buttons::NONE,
    }
}

type Watch = (AccessKind, RangeInclusive<u16>);
/// One frame's hits, then the cycle count, RAM and picture after it.
type FrameTrace = (Vec<WatchHit>, u64, Vec<u8>, Vec<u16>);

/// Runs `frames` frames; the hits of each frame and the picture, RAM and cycle count after it.
fn trace(rom: &Rom, speedups: Speedups, watches: &[Watch], frames: u64) -> Vec<FrameTrace> {
    let mut m = Machine::new(rom).unwrap();
    m.set_speedups(speedups);
    m.set_watches(watches.to_vec());
    let mut hits = Vec::new();
    (0..frames)
        .map(|f| {
            m.set_buttons(0, buttons_for(f));
            m.run_frame().expect("game runs");
            m.take_watch_hits(&mut hits);
            (
                hits.clone(),
                m.cpu_cycles(),
                m.ram().to_vec(),
                m.picture().to_vec(),
            )
        })
        .collect()
}

#[test]
fn watched_runs_skip_no_hit_and_change_nothing() {
    let corpus = nesmind_testroms::support::corpus();
    let sets: [(&str, Vec<Watch>, bool); 4] = [
        // The RAM a wait loop polls: passes hit it, so none may be skipped.
        (
            "reads of RAM",
            vec![(AccessKind::Read, 0x0000..=0x07FF)],
            true,
        ),
        (
            "execution of PRG",
            vec![(AccessKind::Execute, 0x8000..=0xFFFF)],
            true,
        ),
        (
            "writes to RAM",
            vec![(AccessKind::Write, 0x0000..=0x07FF)],
            true,
        ),
        // Nothing reads the test-mode registers: loops are skipped and nothing is reported.
        (
            "reads of $4018-$401F",
            vec![(AccessKind::Read, 0x4018..=0x401F)],
            false,
        ),
    ];
    for game in [
        "homebrew/lawn_mower/lawn_mower.nes",
        "homebrew/kubo/kubo.nes",
        "homebrew/megamountain/megamountain.nes",
        "homebrew/nes15/nes15-NTSC.nes",
    ] {
        let rom = Rom::load(&corpus.join(game)).unwrap();
        let plain = trace(&rom, Speedups::default(), &[], 240);
        for (what, watches, expect_hits) in &sets {
            let fast = trace(&rom, Speedups::default(), watches, 240);
            let slow = trace(&rom, Speedups::NONE, watches, 240);
            for (f, (a, b)) in fast.iter().zip(&slow).enumerate() {
                assert!(
                    a.0 == b.0,
                    "{game}, {what}: frame {f}: hits differ ({} vs {} without shortcuts)",
                    a.0.len(),
                    b.0.len()
                );
                assert!(
                    a == b,
                    "{game}, {what}: frame {f} differs from the run without shortcuts"
                );
                let p = &plain[f];
                assert!(
                    (a.1, &a.2, &a.3) == (p.1, &p.2, &p.3),
                    "{game}, {what}: frame {f}: watching changed the run"
                );
            }
            let any = fast.iter().any(|t| !t.0.is_empty());
            assert_eq!(any, *expect_hits, "{game}, {what}: hits reported: {any}");
        }
    }
}
