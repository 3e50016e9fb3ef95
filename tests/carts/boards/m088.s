; Mappers 88 and 154 (Namco 3433/3443, 3453): Namco 108 (see m206.s) with CHR A16 tied to
; PPU A12, so R0-R1 ($0000-$0FFF) reach the first 64 KiB of CHR and R2-R5 ($1000-$1FFF)
; the second. Mapper 154 (m154.s) adds one-screen mirroring from bit 6
; of every write to $8000-$FFFF.
.ifdef MAPPER154
    MAPPER = 154
    MIRROR = 1
.else
    MAPPER = 88
    MIRROR = 1
.endif
PRG8 = 16
CHR1 = 128
CODEBANK = 15
.include "harness.inc"

.segment "CODE"
script:
    expect_cpu $C000, 14
    expect_cpu $E000, 15
.ifdef MAPPER154
    expect_mirror MIR_ONE
.else
    expect_mirror MIR_V
.endif
    poke $8000, 2
    poke $8001, 5
    expect_ppu $1000, 69        ; 5 + 64
    poke $8000, 0
    poke $8001, $0B             ; 2 KiB: 10 and 11, from the first 64 KiB
    expect_ppu $0000, 10
    expect_ppu $0400, 11
    poke $8001, $4B             ; 6 CHR lines: bit 6 is not a line
    expect_ppu $0000, 10
    poke $8000, 1
    poke $8001, 62
    expect_ppu $0800, 62
    expect_ppu $0C00, 63
    poke $8000, 5
    poke $8001, $3F
    expect_ppu $1C00, 127
    poke $8000, 3
    poke $8001, 0
    expect_ppu $1400, 64
    poke $8000, 6
    poke $8001, 9
    expect_cpu $8000, 9
    poke $C000, $40             ; only 154 decodes above $9FFF (its mirroring)
.ifdef MAPPER154
    expect_mirror MIR_ONE
.else
    expect_mirror MIR_V
.endif
    expect_cpu $8000, 9
    expect_ppu $1C00, 127
    poke $8000, 0               ; R0 moves twice a pass: the picture changes under the beam
    poke $8001, $20
    end_script
