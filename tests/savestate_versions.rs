//! Every savestate version this build reads, loaded from files written by the builds that
//! wrote that version (`tests/savestates/`): each must continue exactly as a run that was
//! never saved. The states were taken at frame 300 of the DOTS demo cart with no input.

use nesmind::emu::{Machine, Rom};
use nesmind::host::savestate::{self, StateError, state_hash};

const DOTS: &[u8] = include_bytes!("../plugins/spot/cart/dots.nes");

fn dots() -> Rom {
    Rom::parse(DOTS, "dots.nes").unwrap()
}

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/savestates/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// RAM, CPU cycles, state hash and picture after `frames` more frames.
fn after(mut m: Machine, frames: u64) -> (Vec<u8>, u64, u64, Vec<u16>) {
    for _ in 0..frames {
        m.run_frame().unwrap();
    }
    (
        m.ram().to_vec(),
        m.cpu_cycles(),
        state_hash(&m),
        m.picture().to_vec(),
    )
}

fn straight(frames: u64) -> Machine {
    let mut m = Machine::new(&dots()).unwrap();
    m.set_audio_enabled(false);
    for _ in 0..frames {
        m.run_frame().unwrap();
    }
    m
}

#[test]
fn every_readable_version_continues_like_an_unsaved_run() {
    let want = after(straight(300), 60);
    for (name, version) in [
        // Written by b52d725, before the PPU's `recent` pixels were added.
        ("v2-before-recent-dots-frame300.state", 2),
        // Written by 34b3348, the last build that wrote version 2.
        ("v2-dots-frame300.state", 2),
    ] {
        let text = fixture(name);
        assert!(text.starts_with(&format!("nesmind-savestate {version}\n")));
        let m = savestate::decode(&text, &dots()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(m.frame_number(), straight(300).frame_number(), "{name}");
        assert!(after(m, 60) == want, "{name} continues differently");
    }
}

#[test]
fn the_current_version_round_trips_without_picture_or_watches() {
    let rom = dots();
    let mut m = straight(300);
    m.set_watches(vec![(nesmind::host::AccessKind::Write, 0..=0x7FF)]);
    let text = savestate::encode(&m, &rom).unwrap();
    assert!(text.starts_with(&format!("nesmind-savestate {}\n", savestate::VERSION)));
    // No derived or host data: the 61,440-pixel picture and the watches stay out.
    // Version 2 of the same state was 241,203 bytes, 189,000 of them the picture.
    assert!(text.len() < 60_000, "state is {} bytes", text.len());
    assert!(!text.contains("frame_buffer") && !text.contains("watches"));
    let loaded = savestate::decode(&text, &rom).unwrap();
    assert!(!loaded.watching());
    assert!(
        loaded.picture().iter().all(|&p| p == 0),
        "picture not blank"
    );
    m.set_watches(Vec::new());
    assert!(after(loaded, 60) == after(m, 60));
}

#[test]
fn a_state_from_a_newer_build_is_refused_by_version() {
    let text = savestate::encode(&straight(1), &dots()).unwrap().replacen(
        &format!(" {}\n", savestate::VERSION),
        " 4\n",
        1,
    );
    let err = savestate::decode(&text, &dots()).err().unwrap();
    assert!(matches!(&err, StateError::Version(v) if v == "4"), "{err}");
}
