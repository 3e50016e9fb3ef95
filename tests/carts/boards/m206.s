; Mapper 206 (Namco 108, DxROM): $8000-$9FFF even selects R0-R7, odd writes it; R0-R1 2 KiB
; CHR (low bit ignored), R2-R5 1 KiB CHR at $1000-$1C00, R6-R7 8 KiB PRG at $8000/$A000
; (4 bits), the last 16 KiB fixed; 6-bit CHR banks; no mirroring control.
MAPPER = 206
PRG8 = 16
CHR1 = 64
MIRROR = 0
CODEBANK = 15
.include "harness.inc"

.segment "CODE"
script:
    expect_cpu $C000, 14
    expect_cpu $E000, 15
    poke $8000, 6
    poke $8001, 5
    expect_cpu $8000, 5
    poke $8000, 7
    poke $8001, $1A             ; 4 PRG lines: 10
    expect_cpu $A000, 10
    expect_cpu $C000, 14
    poke $8000, 0
    poke $8001, $0B             ; 2 KiB: 10 and 11
    expect_ppu $0000, 10
    expect_ppu $0400, 11
    poke $8000, 1
    poke $8001, 20
    expect_ppu $0800, 20
    expect_ppu $0C00, 21
    poke $8000, 2
    poke $8001, $3F
    expect_ppu $1000, 63
    poke $8000, 3
    poke $8001, $41             ; 6 CHR lines: 1
    expect_ppu $1400, 1
    poke $8000, 4
    poke $8001, 33
    expect_ppu $1800, 33
    poke $8000, 5
    poke $8001, 7
    expect_ppu $1C00, 7
    poke $9FFE, $F6             ; mirrors, and the select's upper bits are not wired
    poke $8003, 3
    expect_cpu $8000, 3
    poke $A000, 1               ; MMC3's mirroring register is not there
    poke $C000, 0
    poke $E000, 0
    expect_mirror MIR_H
    expect_cpu $8000, 3
    expect_cpu $A000, 10
    expect_ppu $1800, 33
    poke $8000, 0               ; R0 moves twice a pass: the picture changes under the beam
    poke $8001, $20
    end_script
