//! `nesmind run --state` with stable-retro's FCEUmm states (made up here; the comparison
//! with stable-retro itself is `crates/retro/tests/state_play.rs`): one of the ROM's board
//! starts play, raw or gzip-wrapped; one of another board is refused with the reason.

mod common;

use common::{nesmind, text};
use std::path::PathBuf;

fn game() -> PathBuf {
    common::rom_dir().join("homebrew/lawn_mower/lawn_mower.nes")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("nesmind-cli-retro-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// A section's named entries.
type Entries = Vec<(&'static str, Vec<u8>)>;

/// An uncompressed FCEUmm state: the CPU at `pc` with empty RAM, the PPU at rest, and
/// these board entries.
fn fcs(pc: u16, board: Entries) -> Vec<u8> {
    let cpu: Entries = vec![
        ("PC", pc.to_le_bytes().to_vec()),
        ("A", vec![0]),
        ("P", vec![0x24]),
        ("X", vec![0]),
        ("Y", vec![0]),
        ("S", vec![0xFD]),
        ("DB", vec![0]),
        ("RAM", vec![0; 0x800]),
    ];
    let ppu: Entries = vec![
        ("NTAR", vec![0; 0x800]),
        ("PRAM", vec![0x0F; 0x20]),
        ("SPRA", vec![0xFF; 0x100]),
        ("PPUR", vec![0; 4]),
        ("XOFF", vec![0]),
        ("VTGL", vec![0]),
        ("RADD", vec![0; 2]),
        ("TADD", vec![0; 2]),
        ("VBUF", vec![0]),
        ("PGEN", vec![0]),
    ];
    let mut body = Vec::new();
    for (kind, entries) in [(1u8, cpu), (3, ppu), (0x10, board)] {
        let mut data = Vec::new();
        for (name, bytes) in entries {
            let mut n = name.as_bytes().to_vec();
            n.resize(4, 0);
            data.extend(n);
            data.extend((bytes.len() as u32).to_le_bytes());
            data.extend(bytes);
        }
        body.push(kind);
        body.extend((data.len() as u32).to_le_bytes());
        body.extend(data);
    }
    let mut out = b"FCS\xFF".to_vec();
    out.extend((body.len() as u32).to_le_bytes());
    out.extend(9813u32.to_le_bytes());
    out.extend([0; 4]);
    out.extend(body);
    out
}

fn run_with(state: &[u8], name: &str) -> std::process::Output {
    let path = scratch(name);
    std::fs::write(&path, state).unwrap();
    let g = game();
    nesmind(&[
        "run",
        g.to_str().unwrap(),
        "--headless",
        "--frames",
        "30",
        "--state",
        path.to_str().unwrap(),
    ])
}

#[test]
fn a_stable_retro_state_starts_play_and_another_board_is_refused() {
    let rom = std::fs::read(game()).unwrap();
    // The reset vector: the state starts the game's code from the top.
    let pc = u16::from_le_bytes([rom[rom.len() - 0x2000 - 4], rom[rom.len() - 0x2000 - 3]]);
    let nrom = fcs(pc, vec![("WRAM", vec![0; 0x2000])]);
    for (state, name) in [
        (nrom.clone(), "raw.state"),
        (nesmind_retro::gzip::deflate(&nrom), "gz.state"),
    ] {
        let o = run_with(&state, name);
        let (out, err) = text(&o);
        assert!(o.status.success(), "{name}: {err}");
        assert!(out.starts_with("frames 30\n"), "{name}: {out}");
    }

    let mmc1 = fcs(
        pc,
        vec![
            ("DREG", vec![0x0C, 0, 0, 0]),
            ("LRST", vec![0; 8]),
            ("BFFR", vec![0]),
            ("BFRS", vec![0]),
        ],
    );
    // Konami VRC1: decoded, but not this ROM's board.
    let vrc1 = fcs(
        pc,
        vec![
            ("MODE", vec![0]),
            ("CREG", vec![0; 2]),
            ("PREG", vec![0; 3]),
        ],
    );
    // Namco 163: a board whose states nesmind does not decode yet.
    let n163 = fcs(
        pc,
        vec![
            ("IRAM", vec![0; 128]),
            ("PRG", vec![0; 3]),
            ("CHR", vec![0; 8]),
            ("NTA", vec![0; 4]),
        ],
    );
    let mut cut = nesmind_retro::gzip::deflate(&nrom);
    cut.truncate(cut.len() / 2);
    for (state, name, needles) in [
        (
            mmc1,
            "mmc1.state",
            &["cannot load stable-retro state", "MMC1", "mapper 0"][..],
        ),
        (vrc1, "vrc1.state", &["mapper [75]", "mapper 0"][..]),
        (
            n163,
            "n163.state",
            &["Namco 163", "a decoder for this board"][..],
        ),
        (cut, "cut.state", &["not a readable gzip file"][..]),
    ] {
        let o = run_with(&state, name);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(1), "{name}: {err}");
        for needle in needles {
            assert!(err.contains(needle), "{name}: '{needle}' not in {err}");
        }
        assert!(!err.contains("panicked"), "{err}");
    }
}
