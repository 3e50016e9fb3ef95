use super::*;
use nesmind_emu::Mmc3Import;

/// An iNES image of `banks` 16 KiB PRG banks (mapper `mapper`) that loops at $C000, with
/// 8 KiB CHR ROM, or CHR RAM when `chr_rom` is false; vertical mirroring.
fn rom(mapper: u8, banks: u8, chr_rom: bool) -> Rom {
    let mut img = vec![
        b'N',
        b'E',
        b'S',
        0x1A,
        banks,
        u8::from(chr_rom),
        mapper << 4 | 1,
    ];
    img.resize(16, 0);
    for _ in 0..banks {
        let mut prg = vec![0xEA; 0x4000];
        prg[..3].copy_from_slice(&[0x4C, 0x00, 0xC0]);
        prg[0x3FFA..].copy_from_slice(&[0x00, 0xC0, 0x00, 0xC0, 0x00, 0xC0]);
        img.extend(prg);
    }
    if chr_rom {
        img.extend(vec![0u8; 0x2000]);
    }
    Rom::parse(&img, "parts-test.nes").unwrap()
}

/// A section's named entries.
type Entries = Vec<(&'static str, Vec<u8>)>;

/// An FCEUmm state (uncompressed) with these sections.
fn fcs(sections: &[(u8, Entries)]) -> Vec<u8> {
    let mut body = Vec::new();
    for (kind, entries) in sections {
        let mut data = Vec::new();
        for (name, bytes) in entries {
            let mut n = name.as_bytes().to_vec();
            n.resize(4, 0);
            data.extend(n);
            data.extend((bytes.len() as u32).to_le_bytes());
            data.extend(bytes);
        }
        body.push(*kind);
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

fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len).map(|i| (i as u8).wrapping_mul(seed)).collect()
}

/// CPU and PPU sections, then the board's entries.
fn state(board: Entries) -> FceuState {
    state_with_irq(board, 0)
}

/// The same, with FCEUmm's IRQ sources (`IQLB`) `line`.
fn state_with_irq(board: Entries, line: u32) -> FceuState {
    let cpu = vec![
        ("PC", vec![0x00, 0xC0]),
        ("A", vec![0x11]),
        ("P", vec![0x25]),
        ("X", vec![0x22]),
        ("Y", vec![0x33]),
        ("S", vec![0xFB]),
        ("DB", vec![0xC0]),
        ("RAM", pattern(0x800, 3)),
    ];
    let mut nt = vec![0x44; 0x400];
    nt.extend(vec![0x55; 0x400]);
    let ppu = vec![
        ("NTAR", nt),
        ("PRAM", pattern(0x20, 1)),
        ("SPRA", pattern(0x100, 5)),
        ("PPUR", vec![0x90, 0x1E, 0x40, 0x00]),
        ("KOOK", vec![1]),
        ("XOFF", vec![3]),
        ("VTGL", vec![0]),
        ("RADD", vec![0x21, 0x23]),
        ("TADD", vec![0x00, 0x04]),
        ("VBUF", vec![0x66]),
        ("PGEN", vec![0x90]),
    ];
    let counters = vec![("IQLB", line.to_le_bytes().to_vec())];
    let sound = vec![("IQFM", vec![3])];
    let bytes = fcs(&[(1, cpu), (2, counters), (3, ppu), (5, sound), (0x10, board)]);
    FceuState::parse(&bytes).unwrap()
}

fn mmc1_entries(control: u8) -> Entries {
    vec![
        ("WRAM", pattern(0x2000, 7)),
        ("CHRR", pattern(0x2000, 9)),
        ("DREG", vec![control, 0, 0, 1]),
        ("LRST", vec![0; 8]),
        ("BFFR", vec![0b01]),
        ("BFRS", vec![2]),
    ]
}

#[test]
fn an_nrom_state_comes_through() {
    let parts = MachineParts::from_state(&state(vec![("WRAM", pattern(0x2000, 7))])).unwrap();
    assert!(parts.ppu.odd_frame);
    let m = parts.to_machine(&rom(0, 1, true)).unwrap();
    let c = m.cpu();
    assert_eq!(
        (c.a, c.x, c.y, c.s, c.p, c.pc),
        (0x11, 0x22, 0x33, 0xFB, 0x05, 0xC000)
    );
    assert_eq!(m.ram(), &pattern(0x800, 3)[..]);
    assert_eq!(m.prg_ram(), &pattern(0x2000, 7)[..]);
    // A vertically mirrored cart: $2400 is CIRAM's second KiB.
    assert_eq!((m.peek_ppu(0x2000), m.peek_ppu(0x2400)), (0x44, 0x55));
    assert_eq!((m.peek_ppu(0x2800), m.peek_ppu(0x2C00)), (0x44, 0x55));
    assert_eq!((m.peek_ppu(0x3F01), m.peek_ppu(0x3F1F)), (0x01, 0x1F));
    assert_eq!(m.oam()[1], 5);
    let at = m.ppu_position();
    assert_eq!((at.scanline, at.dot), (240, 1));
}

#[test]
fn an_mmc1_state_follows_its_control_register() {
    let rom = rom(1, 4, false);
    // Control $0F: horizontal mirroring, PRG bank 1 at $8000.
    let parts = MachineParts::from_state(&state(mmc1_entries(0x0F))).unwrap();
    let m = parts.to_machine(&rom).unwrap();
    assert_eq!((m.peek_ppu(0x2000), m.peek_ppu(0x2400)), (0x44, 0x44));
    assert_eq!((m.peek_ppu(0x2800), m.peek_ppu(0x0001)), (0x55, 9));
    assert_eq!(m.prg_ram(), &pattern(0x2000, 7)[..]);
    // Single-screen, upper page.
    let parts = MachineParts::from_state(&state(mmc1_entries(0x0D))).unwrap();
    let m = parts.to_machine(&rom).unwrap();
    assert_eq!((m.peek_ppu(0x2000), m.peek_ppu(0x2C00)), (0x55, 0x55));
}

#[test]
fn a_state_for_another_cart_is_an_error() {
    let nrom = MachineParts::from_state(&state(vec![])).unwrap();
    let mmc1 = MachineParts::from_state(&state(mmc1_entries(0x0C))).unwrap();
    let message = |r: Result<Machine, StateError>| match r {
        Ok(_) => panic!("loaded"),
        Err(e) => e.to_string(),
    };
    let e = message(mmc1.to_machine(&rom(0, 1, true)));
    assert!(e.contains("MMC1") && e.contains("mapper 0"), "{e}");
    let e = message(nrom.to_machine(&rom(1, 4, false)));
    assert!(e.contains("mapper 1"), "{e}");
    // NROM with CHR RAM, but the state has none.
    let e = message(nrom.to_machine(&rom(0, 1, false)));
    assert!(e.contains("CHR RAM"), "{e}");
    let mut big = mmc1.clone();
    big.wram = Some(vec![0; 0x8000]);
    let e = message(big.to_machine(&rom(1, 4, false)));
    assert!(e.contains("prg_ram") && e.contains("32768"), "{e}");
    let mut odd = nrom.clone();
    odd.ram.pop();
    assert!(matches!(
        odd.to_machine(&rom(0, 1, true)),
        Err(StateError::Missing(_))
    ));
}

fn mmc3_entries(a001: u8, irq_enabled: u8) -> Entries {
    vec![
        ("WRAM", pattern(0x2000, 7)),
        ("KTEX", vec![0]),
        ("REGS", vec![0, 2, 4, 5, 6, 7, 3, 1]),
        ("CMD", vec![0x46]),
        ("A000", vec![1]),
        ("A001", vec![a001]),
        ("IRQR", vec![0]),
        ("IRQC", vec![0x12]),
        ("IRQL", vec![0x34]),
        ("IRQA", vec![irq_enabled]),
    ]
}

#[test]
fn a_latch_state_takes_its_value() {
    let parts = MachineParts::from_state(&state(vec![
        ("CHRR", pattern(0x2000, 9)),
        ("LATC", vec![2]),
        ("BUSC", vec![1]),
    ]))
    .unwrap();
    assert_eq!(parts.board, BoardImport::Latch(2));
    // UxROM with CHR RAM takes it; an NROM cart does not.
    parts.to_machine(&rom(2, 4, false)).unwrap();
    assert!(parts.to_machine(&rom(0, 1, false)).is_err());
}

#[test]
fn an_mmc3_state_takes_its_registers_and_irq_line() {
    let parts = MachineParts::from_state(&state_with_irq(mmc3_entries(0, 1), 0x201)).unwrap();
    let want = Mmc3Import {
        regs: [0, 2, 4, 5, 6, 7, 3, 1],
        select: 0x46,
        mirroring: 1,
        // FCEUmm's power-on 0 in $A001: PRG RAM on, as FCEUmm has it.
        ram_protect: 0x80,
        irq_latch: 0x34,
        irq_counter: 0x12,
        irq_reload: false,
        irq_enabled: true,
        irq_pending: true,
    };
    assert_eq!(parts.board, BoardImport::Mmc3(want));
    let m = parts.to_machine(&rom(4, 4, true)).unwrap();
    // Horizontal mirroring from $A000, and the PRG RAM readable.
    assert_eq!((m.peek_ppu(0x2000), m.peek_ppu(0x2400)), (0x44, 0x44));
    assert_eq!(m.prg_ram(), &pattern(0x2000, 7)[..]);
    let parts = MachineParts::from_state(&state(mmc3_entries(0xC0, 0))).unwrap();
    let BoardImport::Mmc3(r) = parts.board else {
        panic!("{:?}", parts.board)
    };
    assert_eq!((r.ram_protect, r.irq_pending), (0xC0, false));
    // A flag FCEUmm never writes.
    let e = MachineParts::from_state(&state(mmc3_entries(0, 2))).unwrap_err();
    assert!(e.to_string().contains("IRQA"), "{e}");
    // An IRQ raised while disabled.
    let parts = MachineParts::from_state(&state_with_irq(mmc3_entries(0, 0), 1)).unwrap();
    let Err(e) = parts.to_machine(&rom(4, 4, true)) else {
        panic!("loaded")
    };
    let e = e.to_string();
    assert!(e.contains("irq_pending"), "{e}");
}

#[test]
fn the_frame_counter_mode_comes_from_iqfm() {
    // FCEUmm keeps $4017 >> 6: 3 is the 5-step sequence with the frame IRQ off.
    let parts = MachineParts::from_state(&state(vec![])).unwrap();
    assert_eq!(parts.apu_frame_counter, Some(0xC0));
    parts.to_machine(&rom(0, 1, true)).unwrap();
}

#[path = "boards_tests.rs"]
mod boards;
