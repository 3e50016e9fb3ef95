; The check build (CHECK 1): a plain shadow of the piles (types, bottom first, 64 per pile),
; the pair, the next pair and the pool, kept beside the real storage by the game's own
; steps, and compared with what the storage decodes to after every change. A difference is
; reported on the test port (FAIL, then what: 1 a pile's count, 2 a pile's hat, 3 the pair,
; 4 the next pair, 5 the pool; which pile or hat; the value stored and the shadow's, where
; known) and stops the game.

SH_N    = SHADOW            ; 6 counts
SH_HT   = SHADOW + 6        ; the falling hats' types, columns, heights, landed flags
SH_HC   = SHADOW + 8
SH_HY   = SHADOW + 10
SH_HL   = SHADOW + 12
SH_NX   = SHADOW + 14       ; the next pair's types
SH_PN   = SHADOW + 16       ; pool size, then its entries (1 or 2), oldest first
SH_POOL = SHADOW + 17
SH_HATS = SHADOW + 32       ; 6 x 64 types
SHADOW_SIZE = 32 + COLUMNS * 64

FAIL_COUNT = 1
FAIL_HAT   = 2
FAIL_PAIR  = 3
FAIL_NEXT  = 4
FAIL_POOL  = 5

; Shadow steps and checks, nothing unless CHECK.
.macro SH_CALL routine
    .if CHECK
        jsr routine
    .endif
.endmacro

.if CHECK

.segment "RODATA"

sh_lo:
.repeat COLUMNS, c
    .byte <(SH_HATS + 64 * c)
.endrep
sh_hi:
.repeat COLUMNS, c
    .byte >(SH_HATS + 64 * c)
.endrep

.segment "CODE"

; shp := pile X's shadow. Keeps X and Y.
sh_ptr:
    pha
    lda sh_lo, x
    sta shp
    lda sh_hi, x
    sta shp + 1
    pla
    rts

; Hat A lands on shadow pile X. Keeps X.
sh_push:
    jsr sh_ptr
    ldy SH_N, x
    sta (shp), y
    inc SH_N, x
    rts

; The top five of shadow pile X vanish. Keeps X.
sh_pop5:
    lda SH_N, x
    sec
    sbc #5
    sta SH_N, x
    rts

; The bottom hat of shadow pile X goes. Keeps X.
sh_take:
    jsr sh_ptr
    ldy #1
:   lda (shp), y
    dey
    sta (shp), y
    iny
    iny
    cpy #64
    bne :-
    dec SH_N, x
    rts

; Shadow piles t0 and t1 change places.
sh_swap:
    ldx t0
    ldy t1
    lda SH_N, x
    pha
    lda SH_N, y
    sta SH_N, x
    pla
    sta SH_N, y
    lda sh_lo, y
    sta ptr2
    lda sh_hi, y
    sta ptr2 + 1
    jsr sh_ptr
    ldy #63
:   lda (shp), y
    pha
    lda (ptr2), y
    sta (shp), y
    pla
    sta (ptr2), y
    dey
    bpl :-
    rts

sh_empty:
    lda #0
    ldx #COLUMNS - 1
:   sta SH_N, x
    dex
    bpl :-
    rts

; Every pile as stored equals its shadow. Keeps X and Y.
check_piles:
    txa
    pha
    tya
    pha
    ldx #0
@pile:
    jsr pile_ptrs
    jsr sh_ptr
    jsr count_get
    cmp SH_N, x
    beq :+
    ldy SH_N, x
    jmp fail_count
:   sta chk_n
    ldy #0
@hat:
    cpy chk_n
    beq @next
    jsr type_at
    cmp (shp), y
    beq :+
    pha
    lda (shp), y
    tay
    pla
    jmp fail_hat
:   iny
    bne @hat                    ; always
@next:
    inx
    cpx #COLUMNS
    bne @pile
    pla
    tay
    pla
    tax
    rts

fail_count:
    sta t0
    lda #FAIL_COUNT
    jmp port_fail
fail_hat:
    sta t0
    lda #FAIL_HAT
    jmp port_fail

; The pair, the next pair and the pool as stored equal their shadows (every frame).
check_frame:
    ldx #0
@hat:
    jsr hat_type
    cmp SH_HT, x
    bne @pair
    jsr hat_col
    cmp SH_HC, x
    bne @pair
    jsr hat_y
    cmp SH_HY, x
    bne @pair
    jsr hat_landed
    cmp SH_HL, x
    bne @pair
    jsr next_get
    cmp SH_NX, x
    beq :+
    sta t0
    ldy SH_NX, x
    lda #FAIL_NEXT
    jmp port_fail
:   inx
    cpx #2
    bne @hat
    jsr pool_count
    cmp SH_PN
    bne @pool
    ldx #0
:   cpx SH_PN
    beq @done
    jsr pool_get
    cmp SH_POOL, x
    bne @pool
    inx
    bne :-                      ; always
@done:
    rts
@pair:
    sta t0
    ldy #0
    lda #FAIL_PAIR
    jmp port_fail
@pool:
    sta t0
    ldy #0
    lda #FAIL_POOL
    jmp port_fail

; Every field of the pair and the next pair written once, so storage and shadow agree
; from power-on.
pair_init:
    ldx #1
:   lda #0
    jsr hat_set_type
    jsr hat_set_col
    jsr hat_set_y
    jsr hat_set_landed
    jsr next_set
    dex
    bpl :-
    rts

.endif
