use super::*;

/// An iNES image: `banks` 16 KiB PRG banks, each filled with its number, the program at
/// the start of the last one; 8 KiB CHR ROM, or CHR RAM when `chr_rom` is false.
/// Reset loops on `JMP $xx00`; the NMI handler at +3 counts in $10.
fn rom(mapper: u8, banks: u8, chr_rom: bool) -> Rom {
    let mut img = vec![
        b'N',
        b'E',
        b'S',
        0x1A,
        banks,
        u8::from(chr_rom),
        (mapper & 0x0F) << 4,
        mapper & 0xF0,
    ];
    img.resize(16, 0);
    for bank in 0..banks {
        let mut prg = vec![bank; 0x4000];
        if bank == banks - 1 {
            let base = 0xC000u16.to_le_bytes()[1];
            prg[..6].copy_from_slice(&[0x4C, 0x00, base, 0xE6, 0x10, 0x40]);
            prg[0x3FFA..].copy_from_slice(&[0x03, base, 0x00, base, 0x00, base]);
        }
        img.extend(prg);
    }
    if chr_rom {
        img.extend(vec![0u8; 0x2000]);
    }
    Rom::parse(&img, "import-test.nes").unwrap()
}

fn state(board: BoardImport, chr_ram: bool) -> MachineImport {
    let mut ram = [0u8; 2048];
    for (i, b) in ram.iter_mut().enumerate() {
        *b = (i * 7) as u8;
    }
    let mut nametables = vec![0x11; 0x400];
    nametables.extend(vec![0x22; 0x400]);
    let mut palette = [0u8; 32];
    for (i, c) in palette.iter_mut().enumerate() {
        *c = i as u8 + 0x20;
    }
    MachineImport {
        cpu: CpuImport {
            a: 1,
            x: 2,
            y: 3,
            s: 0xF0,
            p: 0x24 | 0x10,
            pc: 0xC000,
        },
        cpu_open_bus: 0xC0,
        ram,
        ppu: PpuImport {
            ctrl: 0x80,
            mask: 0x1E,
            status: 0x40,
            oam_addr: 0,
            v: 0x2345,
            t: 0x0123,
            fine_x: 5,
            w: true,
            read_buffer: 0x77,
            open_bus: 0x3C,
            odd_frame: false,
            nametables,
            palette,
            oam: [0xFF; 256],
        },
        board,
        prg_ram: Some(vec![0x5A; 0x2000]),
        chr_ram: chr_ram.then(|| vec![0xA5; 0x2000]),
        apu_frame_counter: None,
    }
}

#[test]
fn values_come_through() {
    let s = state(BoardImport::Nrom, false);
    let m = Machine::import(&rom(0, 2, true), &s).unwrap();
    let c = m.cpu();
    assert_eq!((c.a, c.x, c.y, c.s, c.pc), (1, 2, 3, 0xF0, 0xC000));
    // B and bit 5 live only on the stack.
    assert_eq!(c.p, 0x04);
    assert_eq!(m.ram(), &s.ram[..]);
    assert_eq!(m.prg_ram(), &[0x5A; 0x2000][..]);
    assert_eq!(m.peek_ppu(0x3F01), 0x21);
    // $3F10 shows $3F00, not the ignored entry 0x10.
    assert_eq!(m.peek_ppu(0x3F10), 0x20);
    assert_eq!(m.oam()[2], 0xE3);
    assert_eq!(m.oam()[3], 0xFF);
    let ppu = &m.bus.ppu;
    assert_eq!((ppu.v, ppu.t, ppu.x, ppu.w), (0x2345, 0x0123, 5, true));
    assert!(ppu.sprite0_hit && !ppu.vblank);
    assert_eq!(m.bus.ppu.peek(0x2007), 0x77);
    assert_eq!(m.bus.ppu.peek(0x2000), 0x3C);
}

#[test]
fn the_machine_is_where_run_frame_leaves_one() {
    let rom = rom(0, 2, true);
    let mut s = state(BoardImport::Nrom, false);
    // Rendering off, so every frame has the same length.
    s.ppu.mask = 0;
    let mut m = Machine::import(&rom, &s).unwrap();
    let at = m.ppu_position();
    assert_eq!((at.scanline, at.dot), (240, 1));

    let mut fresh = Machine::new(&rom).unwrap();
    fresh.run_frame().unwrap();
    let before = fresh.cpu_cycles();
    fresh.run_frame().unwrap();
    let frame = fresh.cpu_cycles() - before;

    let before = m.cpu_cycles();
    m.run_frame().unwrap();
    let first = m.cpu_cycles() - before;
    // The same frame, give or take where the last instruction ends.
    assert!(
        first.abs_diff(frame) <= 3,
        "{first} cycles, a frame is {frame}"
    );
    // The one NMI of the frame ran: $10 counted once, nothing else changed.
    let mut want = s.ram;
    want[0x10] = want[0x10].wrapping_add(1);
    want[0x1EE..0x1F1].copy_from_slice(&m.ram()[0x1EE..0x1F1]);
    assert_eq!(m.ram(), &want[..]);
}

#[test]
fn mmc1_registers_choose_banks_and_mirroring() {
    let rom = rom(1, 4, false);
    let regs = |control| {
        BoardImport::Mmc1(Mmc1Import {
            control,
            chr0: 0,
            chr1: 0,
            prg: 2,
            shift: 0b101,
            shift_count: 3,
        })
    };
    // Vertical: $2000 and $2800 show the first KiB.
    let m = Machine::import(&rom, &state(regs(0x0E), true)).unwrap();
    let pages: Vec<u8> = [0x2000, 0x2400, 0x2800, 0x2C00]
        .iter()
        .map(|&a| m.peek_ppu(a))
        .collect();
    assert_eq!(pages, [0x11, 0x22, 0x11, 0x22]);
    // PRG mode 3: bank 2 at $8000, the last bank at $C000.
    assert_eq!((m.peek(0x8000), m.peek(0xFFF0)), (2, 3));
    assert_eq!(m.peek_ppu(0x0000), 0xA5);
    // Horizontal, and PRG mode 2: the first bank fixed at $8000, bank 2 at $C000.
    let m = Machine::import(&rom, &state(regs(0x0B), true)).unwrap();
    let pages: Vec<u8> = [0x2000, 0x2400, 0x2800, 0x2C00]
        .iter()
        .map(|&a| m.peek_ppu(a))
        .collect();
    assert_eq!(pages, [0x11, 0x11, 0x22, 0x22]);
    assert_eq!((m.peek(0x8000), m.peek(0xC000)), (0, 2));
    // Single-screen upper page.
    let m = Machine::import(&rom, &state(regs(0x0D), true)).unwrap();
    assert_eq!(m.peek_ppu(0x2000), 0x22);
}

#[test]
fn what_does_not_fit_is_refused_by_name() {
    let nrom = rom(0, 2, true);
    let mmc1 = rom(1, 4, false);
    let refusal = |rom: &Rom, s: &MachineImport| match Machine::import(rom, s) {
        Ok(_) => panic!("imported"),
        Err(e) => e,
    };
    let field = |rom: &Rom, s: &MachineImport| refusal(rom, s).field;
    let mmc1_regs = BoardImport::Mmc1(Mmc1Import::default());
    let e = refusal(&nrom, &state(mmc1_regs.clone(), false));
    assert_eq!(e.field, "board");
    assert!(
        e.problem.contains("MMC1") && e.problem.contains("mapper 0"),
        "{e}"
    );
    assert_eq!(field(&mmc1, &state(BoardImport::Nrom, true)), "board");
    assert_eq!(field(&mmc1, &state(mmc1_regs, false)), "chr_ram");
    assert_eq!(field(&nrom, &state(BoardImport::Nrom, true)), "chr_ram");

    let mut s = state(BoardImport::Nrom, false);
    s.ppu.nametables.truncate(1000);
    assert_eq!(field(&nrom, &s), "ppu.nametables");
    let mut s = state(BoardImport::Nrom, false);
    s.prg_ram = Some(vec![0; 100]);
    assert_eq!(field(&nrom, &s), "prg_ram");
    let mut s = state(BoardImport::Nrom, false);
    s.ppu.fine_x = 8;
    assert_eq!(field(&nrom, &s), "ppu.fine_x");
    let mut s = state(BoardImport::Nrom, false);
    s.ppu.v = 0x8000;
    assert_eq!(field(&nrom, &s), "ppu.v");
    for (shift, shift_count) in [(0, 5), (0b100, 2)] {
        let regs = Mmc1Import {
            shift,
            shift_count,
            ..Mmc1Import::default()
        };
        let s = state(BoardImport::Mmc1(regs), true);
        assert!(field(&mmc1, &s).starts_with("bus.cart.board.shift"));
    }
    let regs = Mmc1Import {
        prg: 0x20,
        ..Mmc1Import::default()
    };
    assert_eq!(
        field(&mmc1, &state(BoardImport::Mmc1(regs), true)),
        "board.prg"
    );
}

#[test]
fn latch_values_choose_banks_and_mirroring() {
    // UxROM: bank 2 at $8000, the last fixed at $C000; the value wraps to the ROM's size.
    let m = Machine::import(&rom(2, 4, false), &state(BoardImport::Latch(6), true)).unwrap();
    assert_eq!((m.peek(0x8000), m.peek(0xC010)), (2, 3));
    // AxROM: 32 KiB bank 1 (16 KiB banks 2 and 3), the upper screen.
    let m = Machine::import(&rom(7, 4, false), &state(BoardImport::Latch(0x11), true)).unwrap();
    assert_eq!((m.peek(0x8000), m.peek(0xC010)), (2, 3));
    assert_eq!((m.peek_ppu(0x2000), m.peek_ppu(0x2800)), (0x22, 0x22));
    let m = Machine::import(&rom(7, 4, false), &state(BoardImport::Latch(0x00), true)).unwrap();
    assert_eq!((m.peek(0x8000), m.peek_ppu(0x2400)), (0, 0x11));
    // GxROM: PRG in bits 4-5.
    let m = Machine::import(&rom(66, 4, true), &state(BoardImport::Latch(0x10), false)).unwrap();
    assert_eq!(m.peek(0x8000), 2);
    // CNROM takes it too; NROM does not.
    Machine::import(&rom(3, 2, true), &state(BoardImport::Latch(0), false)).unwrap();
    let e = refused(&rom(0, 2, true), &state(BoardImport::Latch(0), false));
    assert_eq!(e.field, "board");
}

/// Why `Machine::import` refuses `s`.
fn refused(rom: &Rom, s: &MachineImport) -> InvalidState {
    match Machine::import(rom, s) {
        Ok(_) => panic!("imported"),
        Err(e) => e,
    }
}

fn mmc3(select: u8, mirroring: u8) -> Mmc3Import {
    Mmc3Import {
        regs: [0, 2, 4, 5, 6, 7, 3, 1],
        select,
        mirroring,
        ram_protect: 0x80,
        ..Mmc3Import::default()
    }
}

#[test]
fn mmc3_registers_choose_banks_mirroring_and_the_irq() {
    let rom = rom(4, 4, true);
    // R6 = 8 KiB bank 3 at $8000 (16 KiB bank 1's upper half), R7 = bank 1 at $A000.
    let m = Machine::import(&rom, &state(BoardImport::Mmc3(mmc3(0, 0)), false)).unwrap();
    assert_eq!((m.peek(0x8000), m.peek(0xA000), m.peek(0xC010)), (1, 0, 3));
    assert_eq!((m.peek_ppu(0x2000), m.peek_ppu(0x2400)), (0x11, 0x22));
    // PRG mode 1: the second-last bank at $8000, R6 at $C000; horizontal mirroring.
    let m = Machine::import(&rom, &state(BoardImport::Mmc3(mmc3(0x40, 1)), false)).unwrap();
    assert_eq!((m.peek(0x8010), m.peek(0xC000)), (3, 1));
    assert_eq!((m.peek_ppu(0x2000), m.peek_ppu(0x2400)), (0x11, 0x11));
    assert_eq!(m.prg_ram(), &[0x5A; 0x2000][..]);

    // The board's IRQ line, raised and not yet acknowledged.
    let pending = Mmc3Import {
        irq_enabled: true,
        irq_pending: true,
        ..mmc3(0, 0)
    };
    let m = Machine::import(&rom, &state(BoardImport::Mmc3(pending), false)).unwrap();
    assert!(m.bus.cart.core.irq);
    let disabled = Mmc3Import {
        irq_enabled: false,
        ..pending
    };
    let e = refused(&rom, &state(BoardImport::Mmc3(disabled), false));
    assert_eq!(e.field, "board.irq_pending");
    let e = refused(&rom, &state(BoardImport::Mmc3(pending), true));
    assert_eq!(e.field, "chr_ram");
}

#[test]
fn register_writes_go_through_the_boards_decoding() {
    let regs = |writes: Vec<(u16, u8)>, cpu_cycles: u32| {
        BoardImport::Registers(crate::cart::RegisterImport {
            mappers: vec![2],
            writes,
            ppu_fetches: vec![],
            cpu_cycles,
            irq: false,
        })
    };
    // UxROM: the last write wins, as on the cart; bank 3 is the fixed one.
    let m = Machine::import(
        &rom(2, 4, false),
        &state(regs(vec![(0x8000, 1), (0xC000, 2)], 0), true),
    )
    .unwrap();
    assert_eq!((m.peek(0x8000), m.peek(0xC010)), (2, 3));
    // Another mapper's registers, a write below the cart, a counter run too long.
    let e = refused(&rom(0, 2, true), &state(regs(vec![], 0), false));
    assert_eq!(e.field, "board");
    let e = refused(&rom(2, 4, false), &state(regs(vec![(0x2000, 0)], 0), true));
    assert_eq!(e.field, "board.writes");
    let e = refused(&rom(2, 4, false), &state(regs(vec![], 1 << 20), true));
    assert_eq!(e.field, "board.cpu_cycles");
}

fn vrc(control: u8, mirroring: u8) -> Vrc2_4Import {
    Vrc2_4Import {
        prg: [3, 1],
        chr: [0; 8],
        control,
        mirroring,
        irq_latch: 0x80,
        irq_counter: 0x90,
        irq_enabled: true,
        irq_enable_after_ack: false,
        irq_cycle_mode: false,
        irq_pending: true,
    }
}

#[test]
fn vrc_registers_choose_banks_mirroring_ram_and_the_irq() {
    // 16 KiB banks read their number: 8 KiB bank k reads k / 2.
    let vrc4 = rom(21, 4, true);
    let m = Machine::import(&vrc4, &state(BoardImport::Vrc2_4(vrc(1, 0)), false)).unwrap();
    assert_eq!((m.peek(0x8000), m.peek(0xA000), m.peek(0xC010)), (1, 0, 3));
    assert_eq!((m.peek_ppu(0x2000), m.peek_ppu(0x2400)), (0x11, 0x22));
    assert_eq!(m.peek(0x6000), 0x5A);
    assert!(m.bus.cart.core.irq);
    // VRC4's swap: the second-last bank at $8000; horizontal mirroring; PRG RAM off.
    let m = Machine::import(&vrc4, &state(BoardImport::Vrc2_4(vrc(2, 1)), false)).unwrap();
    assert_eq!((m.peek(0x8010), m.peek(0xC000)), (3, 1));
    assert_eq!((m.peek_ppu(0x2000), m.peek_ppu(0x2400)), (0x11, 0x11));
    assert_eq!(m.peek(0x6000), 0xC0, "open bus");
    // A VRC2 has no IRQ: a pending one is not taken.
    let m = Machine::import(
        &rom(22, 4, true),
        &state(BoardImport::Vrc2_4(vrc(0, 0)), false),
    );
    assert!(!m.unwrap().bus.cart.core.irq);
    let wide = Vrc2_4Import {
        prg: [0x20, 0],
        ..vrc(0, 0)
    };
    let e = refused(&vrc4, &state(BoardImport::Vrc2_4(wide), false));
    assert_eq!(e.field, "board.prg[0]");
}
