; Mapper 23: Konami VRC4f (submapper 1: the chip's A0/A1 on CPU A0/A1), VRC4e (submapper 2:
; A2/A3) and VRC2b (submapper 3: A0/A1); submapper 0 ORs VRC4f's and VRC4e's lines, on a
; VRC4. The script is vrc24.inc's.
MAPPER = 23
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
    LINE0 = $01
    LINE1 = $02
    NOT_LINE = $04
.else
    LINE0 = $04
    LINE1 = $08
    .if SUBMAPPER = 0
        ALT0 = $01
        ALT1 = $02
    .else
        NOT_LINE = $01
    .endif
.endif
.include "vrc24.inc"
