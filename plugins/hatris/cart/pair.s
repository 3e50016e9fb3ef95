; The falling pair and the next pair, in whichever PAIR_KIND / NEXT_KIND shape. The game
; reads and writes them only through these routines: X is the hat (0 or 1), types are 0-6,
; columns 0-5, heights in pixels above the heads. Every routine keeps X and Y.

.segment "RODATA"

ntype_code: .byte NCODE_NONE, NCODE_1, NCODE_2, NCODE_3, NCODE_4, NCODE_5, NCODE_6
ncode_type:
    CODE_TABLE NCODE_NONE, NCODE_1, NCODE_2, NCODE_3, NCODE_4, NCODE_5, NCODE_6
.if HAT_STEP > 1
hat_ofs: .byte 0, HAT_STEP
.endif

.segment "CODE"

.macro NENCODE
    sty hy
    tay
    lda ntype_code, y
    ldy hy
.endmacro
.macro NDECODE
    sty hy
    tay
    lda ncode_type, y
    ldy hy
.endmacro
; The check build's shadow of a field (CHECK, check.s).
.macro SHADOW_X table
    .if CHECK
        sta table, x
    .endif
.endmacro

.if PAIR_KIND < 2

.if PAIR_KIND = 0
    F_TYPE   = HAT1_TYPE
    F_COL    = HAT1_COL
    F_Y      = HAT1_Y
    F_X      = HAT1_X
    F_LANDED = HAT1_LANDED
.else
    F_TYPE   = AR_TYPE
    F_COL    = AR_COL
    F_Y      = AR_Y
    F_X      = AR_X
    F_LANDED = AR_LANDED
.endif

; A := field of hat X; field of hat X := A.
.macro HAT_LD field
    .if HAT_STEP = 1
        lda field, x
    .else
        sty hy
        ldy hat_ofs, x
        lda field, y
        ldy hy
    .endif
.endmacro
.macro HAT_ST field
    .if HAT_STEP = 1
        sta field, x
    .else
        sty hy
        ldy hat_ofs, x
        sta field, y
        ldy hy
    .endif
.endmacro

hat_type:
    HAT_LD F_TYPE
    NDECODE
    cmp #0
    rts
hat_set_type:
    SHADOW_X SH_HT
    pha
    NENCODE
    HAT_ST F_TYPE
    pla
    rts

hat_col:
    HAT_LD F_COL
.if COL_KIND = 1
    ; stored as the sprite X: find the column
    sty hy
    ldy #COLUMNS
:   dey
    bmi :+
    cmp col_x, y
    bne :-
:   tya
    ldy hy
.else
    sec
    sbc #COL_BASE
.endif
    rts
hat_set_col:
    SHADOW_X SH_HC
    pha
.if COL_KIND = 1
    sty hy
    tay
    lda col_x, y
    ldy hy
.else
    clc
    adc #COL_BASE
.endif
    HAT_ST F_COL
    pla
    rts

hat_y:
    HAT_LD F_Y
    YFLIP
    rts
hat_set_y:
    SHADOW_X SH_HY
    pha
    YFLIP
    HAT_ST F_Y
    pla
    rts

hat_landed:
    HAT_LD F_LANDED
    rts
hat_set_landed:
    SHADOW_X SH_HL
    HAT_ST F_LANDED
    rts

; The sprite X the game keeps beside each hat.
hat_set_x:
    HAT_ST F_X
    rts

.else

; One byte per hat: the type's nibble and, in the other, the column (bits 0-2) and the
; landed flag (bit 3).
.if PK_TYPE_HI
    TC_COL_SHIFT = 0
.else
    TC_COL_SHIFT = 4
.endif
TC_COL    = 7 << TC_COL_SHIFT
TC_LANDED = 8 << TC_COL_SHIFT
TC_TYPE   = $FF ^ (TC_COL | TC_LANDED)

; A := A shifted into / out of the type's nibble.
.macro TO_TYPE_NIB
    .if PK_TYPE_HI
        asl a
        asl a
        asl a
        asl a
    .endif
.endmacro
.macro FROM_TYPE_NIB
    .if PK_TYPE_HI
        lsr a
        lsr a
        lsr a
        lsr a
    .else
        and #$0F
    .endif
.endmacro
.macro TO_COL_NIB
    .if .not PK_TYPE_HI
        asl a
        asl a
        asl a
        asl a
    .endif
.endmacro
; PK_TC + X := (PK_TC + X and keep) or A.
.macro TC_MERGE keep
    sta pv
    lda PK_TC, x
    and #keep
    ora pv
    sta PK_TC, x
.endmacro

hat_type:
    lda PK_TC, x
    FROM_TYPE_NIB
    NDECODE
    cmp #0
    rts
hat_set_type:
    SHADOW_X SH_HT
    pha
    NENCODE
    TO_TYPE_NIB
    TC_MERGE TC_COL | TC_LANDED
    pla
    rts

hat_col:
    lda PK_TC, x
    and #TC_COL
    .if .not PK_TYPE_HI
        lsr a
        lsr a
        lsr a
        lsr a
    .endif
    rts
hat_set_col:
    SHADOW_X SH_HC
    pha
    TO_COL_NIB
    TC_MERGE TC_TYPE | TC_LANDED
    pla
    rts

hat_y:
    lda PK_Y, x
    YFLIP
    rts
hat_set_y:
    SHADOW_X SH_HY
    pha
    YFLIP
    sta PK_Y, x
    pla
    rts

hat_landed:
    lda PK_TC, x
    and #TC_LANDED
    beq :+
    lda #$FF
:   rts
hat_set_landed:
    SHADOW_X SH_HL
    pha
    and #TC_LANDED
    TC_MERGE TC_TYPE | TC_COL
    pla
    rts

hat_set_x:
    rts

.endif

; A := the next pair's hat X type; next pair's hat X := type A.
next_get:
.if NEXT_KIND = 1
    lda NEXT1_TYPE
    cpx #0
    beq :+
    lsr a
    lsr a
    lsr a
    lsr a
:   and #$0F
.else
    cpx #0
    bne :+
    lda NEXT1_TYPE
    jmp :++
:   lda NEXT2_TYPE
:
.endif
    NDECODE
    cmp #0
    rts

next_set:
    SHADOW_X SH_NX
    pha
    NENCODE
.if NEXT_KIND = 1
    cpx #0
    bne :+
    sta pv
    lda NEXT1_TYPE
    and #$F0
    ora pv
    sta NEXT1_TYPE
    pla
    rts
:   asl a
    asl a
    asl a
    asl a
    sta pv
    lda NEXT1_TYPE
    and #$0F
    ora pv
    sta NEXT1_TYPE
.else
    cpx #0
    bne :+
    sta NEXT1_TYPE
    pla
    rts
:   sta NEXT2_TYPE
.endif
    pla
    rts

; Both hats and the next pair: no hat.
clear_hats:
    lda #0
    tax
    jsr hat_set_type
    inx
    jsr hat_set_type
    rts
