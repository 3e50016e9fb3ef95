; Mapper 68 (Sunsoft-4): $8000/$9000/$A000/$B000 2 KiB CHR banks; $C000/$D000 1 KiB CHR ROM
; banks for the nametables (bit 7 forced on); $E000 bits 0-1 mirroring (0 V, 1 H, 2-3
; one-screen), bit 4 the nametables from those banks (read-only); $F000 bits 0-3 the 16 KiB
; PRG bank at $8000 (the last at $C000), bit 4 PRG RAM on.
MAPPER = 68
PRG8 = 16
CHR1 = 256
MIRROR = 1
CODEBANK = 15
PRGRAM_SHIFT = 7
.include "harness.inc"

.segment "CODE"
script:
    expect_cpu $C000, 14        ; the fixed bank
    expect_cpu $E000, 15
    poke $F000, $13
    expect_cpu $8000, 6
    expect_cpu $A000, 7
    poke $FFF0, $12             ; a mirror of $F000 (A0-A11 are not decoded)
    expect_cpu $8000, 4
    expect_cpu $C000, 14
    poke $6000, $5A             ; PRG RAM on
    expect_cpu $6000, $5A
    poke $F000, $02
    expect_cpu $8000, 4
    expect_cpu $6000, $60       ; off: open bus, the pointer's high byte
    poke $F000, $12
    expect_cpu $6000, $5A
    poke $8000, 10
    poke $9000, 3
    poke $A000, 50
    poke $BFFF, 127
    expect_ppu $0000, 20
    expect_ppu $0400, 21
    expect_ppu $0800, 6
    expect_ppu $0C00, 7
    expect_ppu $1000, 100
    expect_ppu $1400, 101
    expect_ppu $1800, 254
    expect_ppu $1C00, 255
    poke $E000, 0
    expect_mirror MIR_V
    poke $E000, 1
    expect_mirror MIR_H
    poke $E000, 2
    expect_mirror MIR_ONE
    poke $E000, 3
    expect_mirror MIR_ONE
    ; CHR ROM nametables: banks $80 | 5 and $86.
    poke $C000, 5
    poke $D000, $86
    poke $E000, $10             ; arranged vertically
    expect_ppu $2000, 133
    expect_ppu $2400, 134
    expect_ppu $2800, 133
    expect_ppu $2C00, 134
    expect_call nt_write, 133   ; ROM: the write is lost
    poke $E000, $11             ; horizontally
    expect_ppu $2000, 133
    expect_ppu $2400, 133
    expect_ppu $2800, 134
    expect_ppu $2C00, 134
    poke $E000, $12
    expect_ppu $2C00, 133
    poke $E000, $13
    expect_ppu $2000, 134
    poke $DFFF, 7               ; a mirror of $D000
    expect_ppu $2000, 135
    poke $E000, $01             ; the console's RAM again, which keeps writes
    expect_mirror MIR_H
    expect_call nt_write, $77
    poke $8000, 9               ; switched again each pass: the picture moves
    expect_ppu $0000, 18
    end_script

; Writes $77 at PPU $2000 and reads it back.
nt_write:
    lda writes_only
    bne :+                      ; not while rendering
    bit $2002
    lda #$20
    sta $2006
    lda #0
    sta $2006
    lda #$77
    sta $2007
    lda #$20
    sta $2006
    lda #0
    sta $2006
    lda $2007
    lda $2007
:   rts
