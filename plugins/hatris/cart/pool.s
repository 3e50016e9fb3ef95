; The helper pool in whichever POOL_KIND shape. Entries are helpers 1 (Alexey) and 2
; (Vladimir); entry 0 is the oldest. The newest is the one B calls.

.segment "RODATA"

.if POOL_KIND = 2
bit8_of: .byte 1, 2, 4, 8, 16, 32, 64, 128
.endif

.segment "CODE"

; A := the entry stored for helper A; helper := entry A.
.macro POOL_ENCODE
    cmp #HELPER_VLADIMIR
    lda #POOL_CODE_A
    bcc :+
    lda #POOL_CODE_V
:
.endmacro
.macro POOL_DECODE
    cmp #POOL_CODE_V
    beq :+
    lda #HELPER_ALEXEY
    bne :++                     ; always
:   lda #HELPER_VLADIMIR
:
.endmacro

; A := helpers in the pool; Z set when none. Keeps X and Y.
pool_count:
.if POOL_KIND = 3
    sty hy
    ldy #0
:   lda POOL, y
    beq :+
    iny
    bne :-
:   tya
    ldy hy
    cmp #0
.else
    lda POOL_COUNT
.endif
    rts

; Empties the pool. Keeps X and Y.
pool_clear:
    lda #0
.if POOL_KIND = 3
    sta POOL
.elseif POOL_KIND = 2
    sta POOL
    sta POOL_COUNT
.else
    sta POOL_COUNT
.endif
.if CHECK
    sta SH_PN
.endif
    rts

; A := entry X (oldest first) of the pool, 1 or 2. Keeps X and Y.
pool_get:
.if POOL_KIND = 1
    sty hy
    stx pv                      ; newest first: entry X is at count - 1 - X
    lda POOL_COUNT
    clc
    sbc pv
    tay
    lda POOL, y
    ldy hy
    POOL_DECODE
.elseif POOL_KIND = 2
    lda POOL
    and bit8_of, x
    beq :+
    lda #HELPER_VLADIMIR
    rts
:   lda #HELPER_ALEXEY
.else
    lda POOL, x
    POOL_DECODE
.endif
    rts

; A := the newest entry (the pool holds at least one). Keeps X and Y.
pool_newest:
    stx hat_x
    jsr pool_count
    tax
    dex
    jsr pool_get
    ldx hat_x
    rts

; Adds helper A as the newest entry (the pool holds fewer than 8). Keeps X and Y.
pool_push:
    stx hat_x
    sty hy
    sta pv
.if CHECK
    ldx SH_PN
    sta SH_POOL, x
    inc SH_PN
.endif
.if POOL_KIND = 1
    ldx POOL_COUNT              ; the others move up one
:   dex
    bmi :+
    lda POOL, x
    sta POOL + 1, x
    jmp :-
:   lda pv
    POOL_ENCODE
    sta POOL
    inc POOL_COUNT
.elseif POOL_KIND = 2
    lda pv
    cmp #HELPER_VLADIMIR
    bne :+
    ldx POOL_COUNT
    lda POOL
    ora bit8_of, x
    sta POOL
:   inc POOL_COUNT
.elseif POOL_KIND = 3
    jsr pool_count
    tax
    lda #0
    sta POOL + 1, x
    lda pv
    POOL_ENCODE
    sta POOL, x
.else
    ldx POOL_COUNT
    lda pv
    POOL_ENCODE
    sta POOL, x
    inc POOL_COUNT
.endif
    ldx hat_x
    ldy hy
    rts

; Removes the newest entry (the pool holds at least one). Keeps X and Y.
pool_pop:
    stx hat_x
.if CHECK
    dec SH_PN
.endif
.if POOL_KIND = 1
    ldx #0                      ; the others move down one
:   inx
    cpx POOL_COUNT
    beq :+
    lda POOL, x
    sta POOL - 1, x
    jmp :-
:   dec POOL_COUNT
    ldx POOL_COUNT
    lda #0
    sta POOL, x
.elseif POOL_KIND = 2
    dec POOL_COUNT
    ldx POOL_COUNT
    lda bit8_of, x
    eor #$FF
    and POOL
    sta POOL
.elseif POOL_KIND = 3
    jsr pool_count
    tax
    lda #0
    sta POOL - 1, x
.else
    dec POOL_COUNT
    ldx POOL_COUNT
    lda #0
    sta POOL, x
.endif
    ldx hat_x
    rts
