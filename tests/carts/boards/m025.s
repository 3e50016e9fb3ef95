; Mapper 25: Konami VRC4b (submapper 1: the chip's A0/A1 on CPU A1/A0), VRC4d (submapper 2:
; A3/A2) and VRC2c (submapper 3: A1/A0); submapper 0 ORs VRC4b's and VRC4d's lines, on a
; VRC4. The script is vrc24.inc's.
MAPPER = 25
CHR_SHIFT = 0
.ifndef SUBMAPPER
    SUBMAPPER = 0
.endif
.if SUBMAPPER = 3
    VRC4 = 0
.else
    VRC4 = 1
.endif
.if SUBMAPPER = 1 .or SUBMAPPER = 3
    LINE0 = $02
    LINE1 = $01
    NOT_LINE = $08
.else
    LINE0 = $08
    LINE1 = $04
    .if SUBMAPPER = 0
        ALT0 = $02
        ALT1 = $01
    .else
        NOT_LINE = $02
    .endif
.endif
.include "vrc24.inc"
