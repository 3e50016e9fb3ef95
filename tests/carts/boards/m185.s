; Mapper 185 (CNROM with CHR copy protection): 32 KiB PRG, one 8 KiB CHR bank shown only
; while the latch holds the board's key (NES 2.0 submappers 4-7: D1-D0 = 0-3; submapper 0:
; on unless D3-D0 are 0 or the value is $13); disabled CHR reads $FF. Bus conflicts: the
; latch sees the AND of the written value and the ROM byte ($FFxx holds $FF).
MAPPER = 185
PRG8 = 4
CHR1 = 8
MIRROR = 1
CODEBANK = 3
.include "harness.inc"

.segment "CODE"
script:
    expect_cpu $8000, 0
    expect_cpu $E000, 3
.if SUBMAPPER = 0
    poke $FF00, $00             ; D3-D0 = 0: off
    expect_ppu $0000, $FF
    expect_ppu $1FFF, $FF
    poke $FF00, $01
    expect_ppu $0000, 0
    expect_ppu $1C00, 7
    poke $FF01, $13             ; the one other value that is off
    expect_ppu $0400, $FF
    poke $FF02, $0F
    expect_ppu $0400, 1
    poke $FF03, $10
    expect_ppu $0800, $FF
    poke $FF04, $21
    expect_ppu $0800, 2
    poke $8000, $01             ; the ROM there reads 0: the latch gets 0, off
    expect_ppu $0000, $FF
    poke $FF05, $33
    expect_ppu $1000, 4
.else
    KEY = SUBMAPPER - 4
    poke $FF00, KEY
    expect_ppu $0000, 0
    expect_ppu $1C00, 7
    poke $FF00, KEY ^ 1
    expect_ppu $0000, $FF
    poke $FF00, KEY | $FC       ; only D1-D0 are compared
    expect_ppu $1000, 4
    poke $FF00, KEY ^ 2
    expect_ppu $1FFF, $FF
    poke $FF00, KEY | $10
    expect_ppu $0400, 1
    poke $8000, KEY | 1         ; the ROM there reads 0: the latch gets 0
  .if KEY = 0
    expect_ppu $0000, 0
  .else
    expect_ppu $0000, $FF
  .endif
    poke $FF00, KEY
.endif
    expect_cpu $6000, $60       ; no PRG RAM
    expect_mirror MIR_V
    end_script
