; Mapper 140 (Jaleco JF-11/JF-14): a latch at $6000-$7FFF, bits 4-5 a 32 KiB PRG bank and
; bits 0-3 an 8 KiB CHR bank. 128 KiB PRG, 128 KiB CHR; the code sits in 8 KiB bank 3, at
; $E000 while 32 KiB bank 0 is in (power-on), and runs from RAM anyway.
MAPPER = 140
PRG8 = 16
CHR1 = 128
MIRROR = 1
CODEBANK = 3
.include "harness.inc"

.segment "CODE"
script:
    expect_cpu $8000, 0
    expect_cpu $E000, 3
    poke $6000, $1F
    expect_cpu $8000, 4
    expect_cpu $A000, 5
    expect_cpu $C000, 6
    expect_cpu $E000, 7
    expect_ppu $0000, 120
    expect_ppu $1C00, 127
    poke $7FFF, $30
    expect_cpu $8000, 12
    expect_cpu $E000, 15
    expect_ppu $0000, 0
    poke $6000, $25
    expect_cpu $A000, 9
    expect_ppu $1400, 45
    poke $6000, $C0             ; bits 6-7 are not wired
    expect_cpu $C000, 2
    expect_ppu $0800, 2
    expect_mirror MIR_V
    poke $6000, $00
    end_script
