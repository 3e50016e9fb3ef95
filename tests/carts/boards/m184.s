; Mapper 184 (Sunsoft-1): 32 KiB PRG fixed, two 4 KiB CHR banks from a latch at
; $6000-$7FFF (bits 0-2 at $0000, bits 4-6 at $1000 with bit 6 forced high), no PRG RAM.
MAPPER = 184
PRG8 = 4
CHR1 = 32                       ; eight 4 KiB banks
MIRROR = 0
CODEBANK = 3
.include "harness.inc"

.segment "CODE"
script:
    expect_cpu $8000, 0
    expect_cpu $E000, 3
    poke $6000, $00
    expect_ppu $0000, 0
    expect_ppu $1000, 16        ; upper bank 0 shows bank 4
    poke $6000, $21
    expect_ppu $0000, 4
    expect_ppu $0C00, 7
    expect_ppu $1000, 24        ; 2 | 4 = 6
    expect_ppu $1C00, 27
    poke $6000, $77
    expect_ppu $0000, 28
    expect_ppu $1000, 28
    poke $7ABC, $05             ; anywhere in $6000-$7FFF
    expect_ppu $0400, 21
    expect_ppu $1400, 17
    poke $6000, $88             ; bits 3 and 7 are not wired
    expect_ppu $0000, 0
    expect_ppu $1000, 16
    expect_cpu $A000, 1
    expect_cpu $C000, 2
    expect_mirror MIR_H
    poke $6000, $31
    end_script
