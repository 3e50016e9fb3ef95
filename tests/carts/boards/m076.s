; Mapper 76 (Namco 3446): Namco 108 (see m206.s) with R2-R5 as four 2 KiB CHR banks at
; $0000, $0800, $1000 and $1800 (R0-R1 unused); PRG as mapper 206.
MAPPER = 76
PRG8 = 16
CHR1 = 128
MIRROR = 0
CODEBANK = 15
.include "harness.inc"

.segment "CODE"
script:
    expect_cpu $C000, 14
    expect_cpu $E000, 15
    poke $8000, 2
    poke $8001, 5
    expect_ppu $0000, 10
    expect_ppu $0400, 11
    poke $8000, 3
    poke $8001, 20
    expect_ppu $0800, 40
    poke $8000, 4
    poke $8001, 33
    expect_ppu $1000, 66
    expect_ppu $1400, 67
    poke $8000, 5
    poke $8001, $3F
    expect_ppu $1800, 126
    expect_ppu $1C00, 127
    poke $8000, 0               ; R0 and R1 reach nothing
    poke $8001, 9
    poke $8000, 1
    poke $8001, 9
    expect_ppu $0000, 10
    expect_ppu $0800, 40
    poke $8000, 6
    poke $8001, 3
    expect_cpu $8000, 3
    poke $8000, 7
    poke $8001, 12
    expect_cpu $A000, 12
    expect_mirror MIR_H
    poke $8000, 2
    poke $8001, 1
    end_script
