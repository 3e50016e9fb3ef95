; Mapper 32 (Irem G-101): $8000 PRG bank 0 (5 bits), $9000 mirroring (bit 0) and PRG mode
; (bit 1: bank 0 at $C000, the second-last bank at $8000), $A000 PRG bank at $A000,
; $B000-$B007 eight 1 KiB CHR banks, the last bank at $E000. Submapper 1 (Major League):
; one-screen mirroring, $9000 ignored.
MAPPER = 32
PRG8 = 16
CHR1 = 128
MIRROR = 1
CODEBANK = 15
.include "harness.inc"

.segment "CODE"
script:
    expect_cpu $C000, 14
    expect_cpu $E000, 15
    poke $8000, 3
    poke $A000, 5
    expect_cpu $8000, 3
    expect_cpu $A000, 5
    expect_cpu $C000, 14
.if SUBMAPPER = 1
    expect_mirror MIR_ONE
    poke $9000, 3               ; ignored
    expect_cpu $8000, 3
    expect_cpu $C000, 14
    expect_mirror MIR_ONE
.else
    expect_mirror MIR_V
    poke $9000, 2               ; PRG mode 1, vertical
    expect_cpu $8000, 14
    expect_cpu $C000, 3
    expect_cpu $A000, 5
    expect_mirror MIR_V
    poke $8000, 6
    expect_cpu $C000, 6
    poke $9FFF, 1               ; mode 0, horizontal
    expect_cpu $8000, 6
    expect_cpu $C000, 14
    expect_mirror MIR_H
.endif
    poke $8FFF, $2D             ; 5 bits: 13
    expect_cpu $8000, 13
    poke $B000, 100
    poke $B001, 101
    poke $B002, 2
    poke $B003, 3
    poke $B004, 64
    poke $B005, 127
    poke $B006, 6
    poke $B007, 77
    expect_ppu $0000, 100
    expect_ppu $0400, 101
    expect_ppu $0800, 2
    expect_ppu $0C00, 3
    expect_ppu $1000, 64
    expect_ppu $1400, 127
    expect_ppu $1800, 6
    expect_ppu $1C00, 77
    poke $BFF8, 9               ; A2-A0 pick the bank: $BFF8 is CHR 0
    expect_ppu $0000, 9
    expect_ppu $1C00, 77
    expect_cpu $E000, 15
    end_script
