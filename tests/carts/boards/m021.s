; Mapper 21: Konami VRC4a (submapper 1: the chip's A0/A1 on CPU A1/A2) and VRC4c
; (submapper 2: A6/A7); submapper 0 ORs both. The script is vrc24.inc's.
MAPPER = 21
VRC4 = 1
CHR_SHIFT = 0
.ifndef SUBMAPPER
    SUBMAPPER = 0
.endif
.if SUBMAPPER = 1
    LINE0 = $02
    LINE1 = $04
    NOT_LINE = $40
.else
    LINE0 = $40
    LINE1 = $80
    .if SUBMAPPER = 0
        ALT0 = $02
        ALT1 = $04
    .else
        NOT_LINE = $02
    .endif
.endif
.include "vrc24.inc"
