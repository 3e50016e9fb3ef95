; Raw access to one hat's cell (its whole byte, or its nibble when two hats share a byte).
; Included by store.s.

.if CELL = 0

; A := the cell of hat Y of the pile at hp. Keeps X and Y.
cell_get:
    sty pile_y
    PHYS
    LOAD_HAT hp
    ldy pile_y
    rts

; Hat Y's cell := A. Keeps X and Y.
cell_put:
    sty pile_y
    pha
    PHYS
    pla
    STORE_HAT hp
    ldy pile_y
    rts

.else

; Y := the byte holding hat Y; nib_sel := 1 when the hat is in its high nibble.
.macro NIB_PHYS
    tya
    .if PILE_REVERSED
        eor #SLOTS - 1
    .endif
    lsr a                       ; carry: an odd slot
    .if COUNT_HDR
        tay
        iny
    .else
        tay
    .endif
    lda #0
    rol a
    .if NIB_HI_FIRST
        eor #1
    .endif
    sta nib_sel
.endmacro

cell_get:
    sty pile_y
    NIB_PHYS
    LOAD_HAT hp
    ldy nib_sel
    beq :+
    lsr a
    lsr a
    lsr a
    lsr a
:   and #$0F
    ldy pile_y
    rts

cell_put:
    sty pile_y
    and #$0F
    sta pile_v
    NIB_PHYS
    LOAD_HAT hp
    sta pile_b
    lda nib_sel
    beq @low
    lda pile_v
    asl a
    asl a
    asl a
    asl a
    sta pile_v
    lda pile_b
    and #$0F
    bpl @merge                  ; always
@low:
    lda pile_b
    and #$F0
@merge:
    ora pile_v
    STORE_HAT hp
    ldy pile_y
    rts

.endif
