; Mapper 232 (Camerica BF9096, the Quattro multicarts): writes to $8000-$BFFF pick a
; 64 KiB block (bits 3-4; submapper 1, the Aladdin Deck Enhancer, swaps the two), writes
; to $C000-$FFFF a 16 KiB page in it for $8000 (bits 0-1); $C000 shows the block's last
; page. CHR is fixed.
MAPPER = 232
PRG8 = 32
CHR1 = 8
MIRROR = 1
CODEBANK = 7
.include "harness.inc"

.if SUBMAPPER = 1
    BLOCK1 = $10
    BLOCK2 = $08
.else
    BLOCK1 = $08
    BLOCK2 = $10
.endif

.segment "CODE"
script:
    expect_cpu $8000, 0
    expect_cpu $A000, 1
    expect_cpu $C000, 6
    expect_cpu $E000, 7
    poke $C000, 2
    expect_cpu $8000, 4
    expect_cpu $A000, 5
    expect_cpu $C000, 6
    poke $8000, BLOCK1
    expect_cpu $8000, 12        ; block 1, page 2
    expect_cpu $C000, 14
    expect_cpu $E000, 15
    poke $BFFF, BLOCK1 | BLOCK2 ; block 3
    expect_cpu $8000, 28
    expect_cpu $C000, 30
    poke $FFFF, $FD             ; only bits 0-1: page 1
    expect_cpu $8000, 26
    expect_cpu $A000, 27
    poke $A000, BLOCK2
    expect_cpu $8000, 18        ; block 2, page 1
    expect_cpu $C000, 22
    poke $8000, $E7             ; bits 3-4 clear, the rest not wired: block 0
    expect_cpu $8000, 2
    expect_cpu $E000, 7
    expect_ppu $0000, 0
    expect_ppu $1C00, 7
    expect_mirror MIR_V
    poke $C000, 0
    end_script
