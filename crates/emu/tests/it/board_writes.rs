//! Bank switches while the picture is drawn: the lazy PPU catches up before a board write
//! only when the write moves a CHR or nametable window, so a write that keeps them leaves
//! the PPU behind (or a line drawn ahead as drawn). Frames, RAM and cycles must still equal
//! lockstep's, with the switches landing on every part of the line.

use nesmind_emu::{Machine, Rom, Speedups};

/// A CNROM image (32 KiB PRG, four random 8 KiB CHR banks) whose program fills the palette
/// and a nametable, turns rendering on, then loops: `INX / TXA / LSR / LSR / STA $FFF0 /
/// BIT $2002 / JMP`, so the CHR bank moves on every fourth write and the other three
/// rewrite the bank in use. The loop's 19 cycles drift against the line, and the $2002
/// read makes the PPU draw lines ahead.
fn cnrom_switcher() -> Rom {
    #[rustfmt::skip]
    let program: &[u8] = &[
        0x78, 0xA2, 0xFF, 0x9A,             // SEI, LDX #$FF, TXS
        0x2C, 0x02, 0x20, 0x10, 0xFB,       // wait for VBL
        0x2C, 0x02, 0x20, 0x10, 0xFB,       // and again
        0xA9, 0x3F, 0x8D, 0x06, 0x20,       // $2006 = $3F00
        0xA9, 0x00, 0x8D, 0x06, 0x20,
        0xA2, 0x00,                         // palette: 32 entries 0..31
        0x8E, 0x07, 0x20, 0xE8, 0xE0, 0x20, 0xD0, 0xF8,
        0xA9, 0x20, 0x8D, 0x06, 0x20,       // $2006 = $2000
        0xA9, 0x00, 0x8D, 0x06, 0x20,
        0xA0, 0x04,                         // nametable: 1 KiB of counting tiles
        0x8E, 0x07, 0x20, 0xE8, 0xD0, 0xFA, 0x88, 0xD0, 0xF7,
        0xA9, 0x00, 0x8D, 0x05, 0x20,       // scroll 0, $2000 = 0
        0x8D, 0x05, 0x20, 0x8D, 0x00, 0x20,
        0xA9, 0x1E, 0x8D, 0x01, 0x20,       // rendering on
        0xE8, 0x8A, 0x4A, 0x4A,             // loop: INX, TXA, LSR, LSR
        0x8D, 0xF0, 0xFF,                   // STA $FFF0 (ROM holds $FF: no conflict)
        0x2C, 0x02, 0x20,                   // BIT $2002
        0x4C, 0x47, 0xC0,                   // JMP loop
    ];
    let mut data = vec![0xFF; 16 + 0x8000 + 0x8000];
    data[..8].copy_from_slice(&[b'N', b'E', b'S', 0x1A, 2, 4, 0x30, 0x00]);
    data[8..16].fill(0);
    // The program at $C000; the loop starts at $C047.
    let code = 16 + 0x4000;
    data[code..code + program.len()].copy_from_slice(program);
    assert_eq!(program[0x47], 0xE8, "the loop's address in the JMP");
    // NMI and IRQ never come (NMI is off, I is set); reset to $C000.
    let vectors = 16 + 0x7FFA;
    data[vectors..vectors + 6].copy_from_slice(&[0x47, 0xC0, 0x00, 0xC0, 0x47, 0xC0]);
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    for b in &mut data[16 + 0x8000..] {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        *b = seed as u8;
    }
    Rom::parse(&data, "cnrom-switcher.nes").expect("a valid image")
}

fn run(rom: &Rom, speedups: Speedups, frames: usize) -> Vec<(Vec<u16>, Vec<u8>, u64)> {
    let mut m = Machine::new(rom).unwrap();
    m.set_speedups(speedups);
    (0..frames)
        .map(|_| {
            m.run_frame().expect("the program runs");
            (m.picture().to_vec(), m.ram().to_vec(), m.cpu_cycles())
        })
        .collect()
}

#[test]
fn chr_switches_mid_frame_match_lockstep() {
    let rom = cnrom_switcher();
    let lazy = run(&rom, Speedups::ALL, 40);
    let lockstep = run(&rom, Speedups::NONE, 40);
    for (f, (a, b)) in lazy.iter().zip(&lockstep).enumerate() {
        assert!(a.0 == b.0, "frame {f}: picture differs from lockstep");
        assert_eq!(a.1, b.1, "frame {f}: RAM differs from lockstep");
        assert_eq!(a.2, b.2, "frame {f}: cycles differ from lockstep");
    }
    // The switches show: the last frames are drawn from several banks, and differ.
    let last = &lazy[39].0;
    let mut colours: Vec<u16> = last.clone();
    colours.sort_unstable();
    colours.dedup();
    assert!(colours.len() > 8, "only {} colours", colours.len());
    assert!(
        lazy[38].0 != lazy[39].0,
        "the switches do not move between frames"
    );
}
