//! Every savestate version this build reads, loaded from files written by the builds that
//! wrote that version (`tests/savestates/`): each must continue exactly as a run that was
//! never saved. The states were taken at frame 300 of the DOTS demo cart with no input and
//! sound off (the version-3 ones by a throwaway program calling that build's
//! `savestate::save` after 300 `run_frame`s, as `straight(300)` below does).

use nesmind_emu::{Machine, Rom};
use nesmind_host::savestate::{self, StateError, state_hash};

/// The DOTS image the fixtures were taken with (built by 7dca7d5; a state belongs to one
/// ROM, and the cart has been rebuilt since).
const DOTS: &[u8] = include_bytes!("../savestates/dots-7dca7d5.nes");

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
        // Written by 73ee43c, before the three fields later version-3 builds added.
        ("v3-before-pending-dots-frame300.state", 3),
        // Written by f66818f, the last build that wrote version 3 (all three fields).
        ("v3-dots-frame300.state", 3),
        // Written by a734e86, the last build that wrote version 4.
        ("v4-dots-frame300.state", 4),
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
    m.set_watches(vec![(nesmind_host::AccessKind::Write, 0..=0x7FF)]);
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
    let newer = (savestate::VERSION + 1).to_string();
    let text = savestate::encode(&straight(1), &dots()).unwrap().replacen(
        &format!(" {}\n", savestate::VERSION),
        &format!(" {newer}\n"),
        1,
    );
    let err = savestate::decode(&text, &dots()).err().unwrap();
    assert!(
        matches!(&err, StateError::Version(v) if *v == newer),
        "{err}"
    );
}

/// The current state of `straight(300)` with `from` replaced by `to` in its body (which must
/// contain it) and the header's length and checksum recomputed, as a forger would.
fn forged(from: &str, to: &str) -> String {
    let text = savestate::encode(&straight(300), &dots()).unwrap();
    let mut parts = text.splitn(4, '\n');
    let (magic, rom) = (parts.next().unwrap(), parts.next().unwrap());
    let body = parts.nth(1).unwrap();
    assert!(body.contains(from), "no {from:?} in the state");
    let body = body.replacen(from, to, 1);
    format!(
        "{magic}\n{rom}\nbody-crc32 {:08X} len {}\n{body}",
        crc32fast::hash(body.as_bytes()),
        body.len()
    )
}

#[test]
fn the_current_version_has_no_optional_fields() {
    // The fields version 3 gained without a bump are required from version 4 on, and those
    // version 5 added are required too (but `oam_corrupt`: serde reads a missing `Option`
    // as `None`, which is what a state without it means).
    for field in [
        "pending",
        "frame_ack_at",
        "disable_delay",
        "ending",
        "enable_seen",
        "enable_later",
        "at_feed",
        "attrs",
        "x_counter",
        "drawing",
        "flat",
        "fetch_clean",
        "late_start",
    ] {
        let text = savestate::encode(&straight(300), &dots()).unwrap();
        let body = text.splitn(4, '\n').nth(3).unwrap();
        let start = body.find(&format!(",{field}:")).unwrap();
        let value = start + field.len() + 2;
        // A bare value ends at the next `,` or `)`; a tuple (of numbers) at its `)`.
        let len = if body[value..].starts_with('(') {
            body[value..].find(')').unwrap() + 1 + value - start
        } else {
            body[start + 1..].find([',', ')']).unwrap() + 1
        };
        let err = savestate::decode(&forged(&body[start..start + len], ""), &dots())
            .err()
            .unwrap_or_else(|| panic!("a state without {field} was accepted"));
        assert!(
            matches!(&err, StateError::Body(e) if e.contains(field)),
            "{field}: {err}"
        );
    }
}

#[test]
fn forged_fields_are_refused_by_name() {
    for (from, to, field) in [
        (
            ",pending:None,",
            ",pending:Some((true,4000000000)),",
            "bus.input.pending",
        ),
        (
            ",frame_ack_at:0,",
            ",frame_ack_at:1,",
            "bus.apu.frame_ack_at",
        ),
        (
            ",disable_delay:0,",
            ",disable_delay:4,",
            "bus.apu.dmc.disable_delay",
        ),
        (",period:214,", ",period:215,", "bus.apu.dmc.period"),
        (",t:0,x:0,", ",t:0,x:8,", "bus.ppu.x"),
        ("vram:[32,", "vram:[", "bus.cart.core.vram"),
        // Fuzzing forged these (counts near 2^64 overflowed, an open-bus window with an
        // offset was read past the ROM, a branch after the bus's clock underflowed).
        (
            ",cycles:8931654,",
            ",cycles:18446744073709551615,",
            "bus.cycles",
        ),
        (
            ",ppu_master:107179820,",
            ",ppu_master:12,",
            "bus.ppu_master",
        ),
        (
            ",frame:299,odd_frame",
            ",frame:18446744073709551615,odd_frame",
            "bus.ppu.frame",
        ),
        (
            ",dots:26794955,",
            ",dots:18446744073709551615,",
            "bus.ppu.dots",
        ),
        (
            ",loop_cycles:8931651)",
            ",loop_cycles:8931655)",
            "cpu.loop_cycles",
        ),
        (
            "cpu:((source:Ram,offset:0,",
            "cpu:((source:OpenBus,offset:8192,",
            "bus.cart.core.cpu[0]",
        ),
    ] {
        match savestate::decode(&forged(from, to), &dots()) {
            Err(StateError::Invalid(e)) => assert_eq!(e.field, field, "{e}"),
            Err(e) => panic!("{field}: refused for another reason: {e}"),
            Ok(_) => panic!("{field}: the forged state was accepted"),
        }
    }
}
