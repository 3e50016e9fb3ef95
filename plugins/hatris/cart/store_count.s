; How many hats a pile holds, in whichever of the COUNT_KIND shapes. Included by store.s.

; A := count A as stored (byte offset or free slots), and back.
.macro COUNT_ENCODE
    .if COUNT_KIND = 1 .and ELEM_STRIDE = 2
        asl a
    .elseif COUNT_KIND = 3
        FREE_SLOTS
    .endif
.endmacro
.macro COUNT_DECODE
    .if COUNT_KIND = 1 .and ELEM_STRIDE = 2
        lsr a
    .elseif COUNT_KIND = 3
        FREE_SLOTS
    .endif
.endmacro
; A := COUNT_CAP - A (its own inverse).
.macro FREE_SLOTS
    eor #$FF
    sec
    adc #<COUNT_CAP
.endmacro

.if COUNT_KIND = 2

; The pile ends at the first "no hat" cell: count_get looks for it, count_set writes it.
; Both work on pile X's buffer and leave hp as it was.
.macro HP_TO_BUF
    lda hp
    pha
    lda hp + 1
    pha
    jsr buf_of
    lda cp
    sta hp
    lda cp + 1
    sta hp + 1
.endmacro
.macro HP_BACK
    pla
    sta hp + 1
    pla
    sta hp
.endmacro

; A := hats in pile X; Z set when none. Keeps X and Y.
count_get:
    sty sy
    HP_TO_BUF
    ldy #0
:   jsr type_at
    beq :+
    iny
    bne :-                      ; always: a pile never fills its slots
:   sty n_scan
    HP_BACK
    ldy sy
    lda n_scan
    rts

; Pile X's count := A. Keeps A, X and Y.
count_set:
    sta n_scan
    sty sy
    HP_TO_BUF
    ldy n_scan
    lda #CODE_NONE
    jsr cell_put
    HP_BACK
    ldy sy
    lda n_scan
    rts

.elseif COUNT_HDR .or HATS_VRAM

; cp, Y := where pile X's count is: the first byte of its buffer, or its byte of COUNTS in
; nametable RAM. Keeps X.
.macro COUNT_AT
    .if COUNT_HDR
        jsr buf_of
        ldy #0
    .else
        lda #<COUNTS
        sta cp
        lda #>COUNTS
        sta cp + 1
        txa
        tay
    .endif
.endmacro

count_get:
    sty sy
    COUNT_AT
    LOAD_HAT cp
    ldy sy
    COUNT_DECODE
    cmp #0
    rts

count_set:
    sta n_scan
    sty sy
    COUNT_AT
    lda n_scan
    COUNT_ENCODE
    STORE_HAT cp
    ldy sy
    lda n_scan
    rts

.else

count_get:
    lda COUNTS, x
    COUNT_DECODE
    .if COUNT_KIND = 3 .or (COUNT_KIND = 1 .and ELEM_STRIDE = 2)
        cmp #0
    .endif
    rts

count_set:
    .if COUNT_KIND = 3 .or (COUNT_KIND = 1 .and ELEM_STRIDE = 2)
        sta n_scan
        COUNT_ENCODE
        sta COUNTS, x
        lda n_scan
    .else
        sta COUNTS, x
    .endif
    rts

.endif
