//! Boards imported through their register writes (`crate::boards`): what each FCEUmm
//! layout becomes, and machines built from them showing the saved banks.

use super::*;
use nesmind_emu::RegisterImport;

/// An iNES image of `mapper` whose 8 KiB PRG banks read their number and whose 1 KiB CHR
/// banks read theirs; the last PRG bank runs `CLI` then a `JMP` to itself at $E001, and
/// its IRQ handler is a `JMP` to itself at $E010.
fn banked_rom(mapper: u8, prg8: usize, chr1: usize) -> Rom {
    let mut img = vec![b'N', b'E', b'S', 0x1A, (prg8 / 2) as u8, (chr1 / 8) as u8];
    img.push(mapper << 4 | 1);
    img.push(mapper & 0xF0);
    img.resize(16, 0);
    for bank in 0..prg8 {
        img.extend(vec![bank as u8; 0x2000]);
    }
    let last = 16 + (prg8 - 1) * 0x2000;
    img[last..last + 4].copy_from_slice(&[0x58, 0x4C, 0x01, 0xE0]);
    img[last + 0x10..last + 0x13].copy_from_slice(&[0x4C, 0x10, 0xE0]);
    img[last + 0x20] = 0x40;
    img[last + 0x1FFA..last + 0x2000].copy_from_slice(&[0x20, 0xE0, 0x00, 0xE0, 0x10, 0xE0]);
    for bank in 0..chr1 {
        img.extend(vec![bank as u8; 0x400]);
    }
    Rom::parse(&img, "banked.nes").unwrap()
}

fn registers(parts: &MachineParts) -> &RegisterImport {
    match &parts.board {
        BoardImport::Registers(r) => r,
        other => panic!("{other:?}"),
    }
}

fn decoded(board: Entries, line: u32) -> MachineParts {
    MachineParts::from_state(&state_with_irq(board, line)).unwrap()
}

#[test]
fn a_vrc1_state_shows_its_banks() {
    let parts = decoded(
        vec![
            ("MODE", vec![0x07]), // horizontal, both CHR high bits
            ("CREG", vec![0x03, 0x05]),
            ("PREG", vec![2, 4, 6]),
        ],
        0,
    );
    let m = parts.to_machine(&banked_rom(75, 16, 128)).unwrap();
    let banks: Vec<u8> = [0x8000, 0xA000, 0xC000, 0xE100].map(|a| m.peek(a)).into();
    assert_eq!(banks, [2, 4, 6, 15]);
    // 4 KiB CHR banks 0x13 and 0x15: their first 1 KiB banks are 0x4C and 0x54.
    assert_eq!((m.peek_ppu(0x0000), m.peek_ppu(0x1000)), (0x4C, 0x54));
    assert_eq!((m.peek_ppu(0x2000), m.peek_ppu(0x2400)), (0x44, 0x44));
    // Not a VRC1 cart: refused by mapper.
    let e = parts.to_machine(&banked_rom(32, 16, 128)).err().unwrap();
    assert!(e.to_string().contains("mapper 32"), "{e}");
}

#[test]
fn mmc2_latches_come_from_fetched_tiles() {
    let entries = |lat0: u8, lat1: u8| {
        vec![
            ("CREG", vec![1, 2, 3, 4]),
            ("PREG", vec![5]),
            ("MIRR", vec![1]), // vertical
            ("LAT0", vec![lat0]),
            ("LAT1", vec![lat1]),
        ]
    };
    let rom = banked_rom(9, 16, 128);
    for (lat0, lat1, low, high) in [(0, 0, 1, 3), (1, 0, 2, 3), (0, 1, 1, 4), (1, 1, 2, 4)] {
        let parts = decoded(entries(lat0, lat1), 0);
        let m = parts.to_machine(&rom).unwrap();
        // 4 KiB bank n starts with 1 KiB bank 4n.
        assert_eq!(
            (m.peek_ppu(0x0000), m.peek_ppu(0x1000)),
            (4 * low, 4 * high),
            "latches {lat0} {lat1}"
        );
        assert_eq!(m.peek(0x8000), 5);
        assert_eq!((m.peek_ppu(0x2000), m.peek_ppu(0x2400)), (0x44, 0x55));
    }
}

#[test]
fn irem_h3001_counts_as_fceumm_did() {
    let entries = |c000: u8| {
        vec![
            ("PREG", vec![3, 5, c000]),
            ("CREG", (10..18).collect()),
            ("MIRR", vec![0]), // horizontal
            ("IRQA", vec![0x80]),
            ("IRQC", 100i16.to_le_bytes().to_vec()),
            ("IRQL", 0x1234i16.to_le_bytes().to_vec()),
        ]
    };
    let parts = decoded(entries(0xFE), 0);
    // FCEUmm raises the IRQ 5 cycles after its count passes 0: 105 cycles to go.
    let tail: Vec<(u16, u8)> = registers(&parts).writes[12..].to_vec();
    assert_eq!(
        tail,
        [
            (0x9005, 0),
            (0x9006, 105),
            (0x9004, 0),
            (0x9005, 0x12),
            (0x9006, 0x34),
            (0x9003, 0x80)
        ]
    );
    let m = parts.to_machine(&banked_rom(65, 16, 128)).unwrap();
    assert_eq!([0x8000, 0xA000, 0xC000].map(|a| m.peek(a)), [3, 5, 14]);
    assert_eq!((m.peek_ppu(0x0000), m.peek_ppu(0x1C00)), (10, 17));
    assert_eq!((m.peek_ppu(0x2000), m.peek_ppu(0x2400)), (0x44, 0x44));
    // A bank at $C000 the chip cannot show.
    let e = MachineParts::from_state(&state(entries(3))).err().unwrap();
    assert!(e.to_string().contains("PREG"), "{e}");
}

#[test]
fn sunsoft3_keeps_its_write_toggle() {
    let entries = |toggle: u8, control: u8| {
        vec![
            ("PREG", vec![2]),
            ("STOG", vec![toggle]),
            ("CREG", vec![1, 2, 3, 4]),
            ("MIRR", vec![2]),
            ("IRQA", vec![control]),
            ("IRQC", 0x0300i16.to_le_bytes().to_vec()),
            ("IRQL", vec![0, 0]),
        ]
    };
    // Counting: FCEUmm raises the IRQ at 0, the chip at the wrap: one less to count.
    let w = registers(&decoded(entries(0, 0x10), 0)).writes.clone();
    assert_eq!(
        &w[6..],
        [(0xD800, 0), (0xC800, 0x02), (0xC800, 0xFF), (0xD800, 0x10)]
    );
    // Stopped, the toggle at the low byte: the high byte written again.
    let w = registers(&decoded(entries(1, 0), 0)).writes.clone();
    assert_eq!(
        &w[6..],
        [
            (0xD800, 0),
            (0xC800, 3),
            (0xC800, 0),
            (0xD800, 0),
            (0xC800, 3)
        ]
    );
}

#[test]
fn ntdec2722_counts_the_saved_cycles_and_keeps_a_raised_irq() {
    let entries = |count: u32, enabled: u32| {
        vec![
            ("IRQC", count.to_le_bytes().to_vec()),
            ("IRQA", enabled.to_le_bytes().to_vec()),
            ("REG", vec![3]),
        ]
    };
    let counting = decoded(entries(1000, 1), 0);
    let r = registers(&counting);
    assert_eq!((r.cpu_cycles, r.irq), (1000, false));
    assert_eq!(r.writes, [(0xE000, 3), (0x8000, 0), (0xA000, 0)]);
    // FCEUmm stopped its count at the IRQ; the line is still up.
    let mut raised = decoded(entries(4096, 0), 1);
    raised.cpu.pc = 0xE000;
    let r = registers(&raised);
    assert_eq!((r.cpu_cycles, r.irq), (4096, true));
    let mut m = raised.to_machine(&banked_rom(40, 8, 8)).unwrap();
    assert_eq!(m.peek(0xC000), 3);
    // The IRQ is taken once CLI has run (the state's P has I set).
    for _ in 0..3 {
        m.step().unwrap();
    }
    assert!((0xE010..0xE013).contains(&m.cpu().pc), "{:04X}", m.cpu().pc);
    // Held at 0 and stopped: no IRQ.
    let mut held = decoded(entries(0, 0), 0);
    held.cpu.pc = 0xE000;
    let mut m = held.to_machine(&banked_rom(40, 8, 8)).unwrap();
    for _ in 0..2000 {
        m.step().unwrap();
    }
    assert!(m.cpu().pc < 0xE010);
}
