//! FCEUmm savestates from a synthetic file: read back field by field, and every cut and
//! every flipped byte gives an error or a parse, never a panic.

use nesmind_retro::fceumm::{FceuState, SectionKind, StateError};
use nesmind_retro::gzip;
use nesmind_retro::layout;

fn entry(out: &mut Vec<u8>, name: &str, data: &[u8]) {
    let mut n = [0u8; 4];
    n[..name.len()].copy_from_slice(name.as_bytes());
    out.extend(n);
    out.extend((data.len() as u32).to_le_bytes());
    out.extend(data);
}

fn section(out: &mut Vec<u8>, kind: u8, entries: &[(&str, Vec<u8>)]) {
    let mut body = Vec::new();
    for (n, d) in entries {
        entry(&mut body, n, d);
    }
    out.push(kind);
    out.extend((body.len() as u32).to_le_bytes());
    out.extend(body);
}

/// A small state: an MMC1 board with CPU registers and a patterned RAM.
fn sample() -> Vec<u8> {
    let ram: Vec<u8> = (0..0x800u32).map(|i| (i * 7) as u8).collect();
    let mut body = Vec::new();
    section(
        &mut body,
        1,
        &[
            ("PC", vec![0x34, 0x12]),
            ("A", vec![1]),
            ("X", vec![2]),
            ("Y", vec![3]),
            ("S", vec![0xFD]),
            ("P", vec![0x24]),
            ("DB", vec![0x80]),
            ("RAM", ram),
        ],
    );
    section(
        &mut body,
        2,
        &[("JAMM", vec![0]), ("ICou", vec![1, 2, 3, 4])],
    );
    section(&mut body, 3, &[("PPUR", vec![0x80, 0x1E, 0, 0])]);
    section(
        &mut body,
        0x10,
        &[
            ("WRAM", vec![0; 64]),
            ("DREG", vec![0x0C, 0, 0, 0]),
            ("LRST", vec![0; 8]),
            ("BFFR", vec![0]),
            ("BFRS", vec![0]),
        ],
    );
    let mut raw = b"FCS\xFF".to_vec();
    raw.extend((body.len() as u32).to_le_bytes());
    raw.extend(9813u32.to_le_bytes());
    raw.extend([0; 4]);
    raw.extend(body);
    raw
}

#[test]
fn reads_a_state_field_by_field() {
    let file = gzip::deflate(&sample());
    let s = FceuState::parse(&file).unwrap();
    assert_eq!(s.version, 9813);
    let cpu = s.cpu().unwrap();
    assert_eq!(
        (cpu.pc, cpu.a, cpu.x, cpu.y, cpu.s, cpu.p, cpu.data_bus),
        (0x1234, 1, 2, 3, 0xFD, 0x24, 0x80)
    );
    assert_eq!(s.ram().unwrap()[3], 21);
    assert_eq!(s.section(SectionKind::Ppu).unwrap().entries[0].name, "PPUR");
    // WRAM of another size is still the cartridge's, not the board's.
    assert_eq!(layout::identify(&s.board_entries()).unwrap().board, "MMC1");
    // The same bytes without gzip read the same.
    assert_eq!(FceuState::parse(&sample()).unwrap(), s);
}

#[test]
fn every_cut_is_an_error() {
    let raw = sample();
    for len in 0..raw.len() {
        let e = FceuState::parse_raw(&raw[..len]).unwrap_err();
        assert!(!e.to_string().is_empty());
    }
    let file = gzip::deflate(&raw);
    for len in 0..file.len() {
        assert!(
            FceuState::parse(&file[..len]).is_err(),
            "cut at {len} of the gzip file"
        );
    }
}

#[test]
fn every_flipped_byte_is_handled() {
    let raw = sample();
    for at in 0..raw.len() {
        for flip in [0x01u8, 0x80, 0xFF] {
            let mut bad = raw.clone();
            bad[at] ^= flip;
            // Data bytes may change without breaking the structure; lengths and the header
            // must not be trusted.
            if let Ok(s) = FceuState::parse_raw(&bad) {
                let _ = (s.cpu(), s.ram(), layout::describe(&s.board_entries()));
            }
        }
    }
    let file = gzip::deflate(&raw);
    for at in 0..file.len() {
        let mut bad = file.clone();
        bad[at] ^= 0x55;
        // The trailer's CRC catches what the deflate stream does not.
        assert!(
            FceuState::parse(&bad).is_err() || at < 10,
            "flip at {at} accepted"
        );
    }
}

#[test]
fn huge_lengths_are_refused_without_allocating() {
    let mut raw = sample();
    // The first section's length.
    raw[17..21].copy_from_slice(&u32::MAX.to_le_bytes());
    match FceuState::parse_raw(&raw) {
        Err(StateError::Malformed { at, what }) => {
            assert!(at == 21 && what.contains("runs past"), "{at} {what}")
        }
        other => panic!("{other:?}"),
    }
}
