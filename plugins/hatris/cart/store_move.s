; Piles behind pointers (PILE_ADDR 1): the pointer table, and the two ways the game moves
; piles between buffers during play (PILE_MOVE). Included by hatris.s after store.s.

.if PILE_ADDR = 1

.segment "RODATA"

buf_lo:
.repeat NBUF, k
    .byte <(HATS + k * PILE_STRIDE)
.endrep
buf_hi:
.repeat NBUF, k
    .byte >(HATS + k * PILE_STRIDE)
.endrep
; The buffer each pile starts in; then the spare or the second buffers.
buf_start:
.repeat NBUF, k
    .byte .ident(.sprintf("PERM_%d", k))
.endrep

.segment "CODE"

; Offset of pile X's pointer in a pointer table (Y), low byte; the high byte is at
; PTR_HI_OFF further on.
.if PTR_SPLIT
    PTR_HI_OFF = COLUMNS
.else
    PTR_HI_OFF = 1
.endif
.macro PTR_INDEX
    .if PTR_SPLIT
        txa
    .else
        txa
        asl a
    .endif
    tay
.endmacro

; Points every pile at its first buffer (at power-on). Clobbers t0.
store_init:
    ldx #0
@pile:
    stx t0
    PTR_INDEX
    lda buf_start, x
    tax
    lda buf_lo, x
    sta PTRS, y
    lda buf_hi, x
    sta PTRS + PTR_HI_OFF, y
.if PILE_MOVE = 2
    ldx t0
    lda buf_start + COLUMNS, x
    tax
    lda buf_lo, x
    sta BACKS, y
    lda buf_hi, x
    sta BACKS + PTR_HI_OFF, y
.endif
    ldx t0
    inx
    cpx #COLUMNS
    bne @pile
.if PILE_MOVE = 1
    ldx buf_start + COLUMNS
    lda buf_lo, x
    sta SPARE
    lda buf_hi, x
    sta SPARE + 1
.endif
    rts

; Copies a whole buffer from (cp) to (dp). Keeps X.
copy_pile:
    ldy #0
:   LOAD_HAT cp
    STORE_HAT dp
    iny
    cpy #PILE_BYTES
    bne :-
    rts

; Pile X's pointer := dp; Y := its offset in the pointer tables.
.macro POINT_AT_DP
    PTR_INDEX
    lda dp
    sta PTRS, y
    lda dp + 1
    sta PTRS + PTR_HI_OFF, y
.endmacro

.if PILE_MOVE = 1
; Pile X had hats removed: it is copied to the spare buffer, which becomes its own, and its
; old buffer the spare. Keeps X.
pile_moved:
    jsr buf_of
    lda SPARE
    sta dp
    lda SPARE + 1
    sta dp + 1
    jsr copy_pile
    lda cp
    sta SPARE
    lda cp + 1
    sta SPARE + 1
    POINT_AT_DP
    rts
.endif

.if PILE_MOVE = 2
; A hat landed on pile X: the pile is copied to its second buffer and the two change
; places. Keeps X.
pile_moved:
    jsr buf_of
    PTR_INDEX
    lda BACKS, y
    sta dp
    lda BACKS + PTR_HI_OFF, y
    sta dp + 1
    jsr copy_pile
    POINT_AT_DP
    lda cp
    sta BACKS, y
    lda cp + 1
    sta BACKS + PTR_HI_OFF, y
    rts
.endif

; Exchanges the pointers (and second buffers) of piles t0 and t1. Clobbers X, Y and t6.
.if SWAP_PTRS
.macro SWAP_TABLE table
    lda table, x
    pha
    lda table, y
    sta table, x
    pla
    sta table, y
    lda table + PTR_HI_OFF, x
    pha
    lda table + PTR_HI_OFF, y
    sta table + PTR_HI_OFF, x
    pla
    sta table + PTR_HI_OFF, y
.endmacro
swap_pointers:
    ldx t0
    PTR_INDEX
    sty t6
    ldx t1
    PTR_INDEX
    ldx t6
    SWAP_TABLE PTRS
    .if PILE_MOVE = 2
        SWAP_TABLE BACKS
    .endif
    rts
.endif

.else

store_init:
    rts

.endif

; After pile X lost hats / gained one: the moves PILE_MOVE asks for. Keep X.
.macro STORE_REMOVED
    .if PILE_MOVE = 1
        jsr pile_moved
    .endif
.endmacro
.macro STORE_LANDED
    .if PILE_MOVE = 2
        jsr pile_moved
    .endif
.endmacro
