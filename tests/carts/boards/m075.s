; Mapper 75 (Konami VRC1): 8 KiB PRG at $8000/$A000/$C000 (4 bits), the last bank at
; $E000; $9000: mirroring (bit 0) and the CHR banks' fifth bits (bits 1, 2); $E000/$F000:
; 4 KiB CHR banks' low four bits. Registers decode A15-A12 only.
MAPPER = 75
PRG8 = 16
CHR1 = 128
MIRROR = 1
CODEBANK = 15
.include "harness.inc"

.segment "CODE"
script:
    expect_cpu $E000, 15
    poke $8000, 3
    poke $A000, 4
    poke $C000, 5
    expect_cpu $8000, 3
    expect_cpu $A000, 4
    expect_cpu $C000, 5
    expect_cpu $E000, 15
    poke $8FFF, 9
    expect_cpu $8000, 9
    poke $8000, $1F             ; 4 PRG bits: 15
    expect_cpu $8000, 15
    poke $9000, 1
    expect_mirror MIR_H
    poke $9000, 0
    expect_mirror MIR_V
    poke $E000, 3
    expect_ppu $0000, 12
    expect_ppu $0C00, 15
    poke $F000, 7
    expect_ppu $1000, 28
    poke $9000, $02             ; CHR 0's fifth bit: 19
    expect_ppu $0000, 76
    poke $9000, $04             ; only CHR 1's: 3 and 23
    expect_ppu $0000, 12
    expect_ppu $1000, 92
    poke $9FFF, $07
    expect_ppu $0000, 76
    expect_ppu $1000, 92
    expect_mirror MIR_H
    poke $EFFF, $1F             ; 4 bits here; the fifth stays: 31
    expect_ppu $0000, 124
    expect_ppu $0C00, 127
    poke $B000, 0               ; nothing at $B000 and $D000
    poke $D000, 0
    expect_cpu $8000, 15
    expect_cpu $A000, 4
    expect_cpu $C000, 5
    expect_ppu $0000, 124
    expect_mirror MIR_H
    end_script
