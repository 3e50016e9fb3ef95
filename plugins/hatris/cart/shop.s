; Between shops: a short interlude, then the piles are emptied and dealt afresh.

.segment "CODE"

enter_interlude:
    lda #0
    sta refill_due
    jsr clear_hats
    lda #$FF
    sta CUTSCENE
    lda #MSG_SHOP
    sta message
    lda #SHOP_TIME
    sta timer
    lda #ST_INTERLUDE
    sta GAME_STATE
    rts

st_interlude:
    dec timer
    bne :+
    jsr refill
    lda #0
    sta CUTSCENE
    sta message
    lda #ST_SETTLE
    sta GAME_STATE
:   rts

; After a shop's interlude: empty the piles and deal SHOP hats to each, pairs from the
; generator going to piles 0-1, 2-3, 4-5. Dealt stacks of five vanish without pay.
refill:
    jsr port_refill
    jsr empty_piles
    lda #1
    sta quiet
    lda SHOP
    sta t7
    beq @done
@round:
    ldx #0
@pair:
    jsr randomize
    stx l_col
    lda PICK1
    sta l_type
    jsr land
    inx
    stx l_col
    lda PICK2
    sta l_type
    jsr land
    inx
    cpx #COLUMNS
    bne @pair
    dec t7
    bne @round
@done:
    lda #0
    sta quiet
    ldx #5
@draw:
    lda #0
    ldy HEIGHTS, x
    jsr mark_redraw
    dex
    bpl @draw
    rts
