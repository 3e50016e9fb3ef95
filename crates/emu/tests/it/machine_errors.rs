//! A JAM opcode halts the machine with a reported error, never a panic; reset recovers.

use nesmind_emu::{Machine, MachineError, Rom};

/// A 16 KiB NROM image whose reset code is `LDA #$01; JAM`.
fn jam_rom() -> Rom {
    let mut img = vec![b'N', b'E', b'S', 0x1A, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    let mut prg = vec![0xEA; 16384];
    prg[0] = 0xA9; // LDA #$01
    prg[1] = 0x01;
    prg[2] = 0x02; // JAM
    prg[0x3FFC] = 0x00; // reset vector -> $C000 (mirrors $8000)
    prg[0x3FFD] = 0xC0;
    img.extend_from_slice(&prg);
    img.extend(vec![0; 8192]);
    Rom::parse(&img, "jam.nes").unwrap()
}

#[test]
fn jam_reports_the_opcode_and_address() {
    let rom = jam_rom();
    let mut m = Machine::new(&rom).unwrap();
    let err = m.run_frame().unwrap_err();
    assert_eq!(
        err,
        MachineError::Jammed {
            opcode: 0x02,
            pc: 0xC002
        }
    );
    assert!(
        err.to_string().contains("$02") && err.to_string().contains("$C002"),
        "{err}"
    );
    assert_eq!(m.cpu().a, 1, "the instruction before the JAM ran");
    // The PPU keeps running: further frames still end, still reporting the jam.
    let frame = m.frame_number();
    assert!(m.run_frame().is_err());
    assert_eq!(m.frame_number(), frame + 1);
    m.reset();
    assert!(m.jammed().is_none());
}
