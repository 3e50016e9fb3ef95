; The helpers. B during a falling pair calls the newest helper in the pool; the pair
; vanishes. Left/Right move a column cursor. Alexey: each A takes the bottom hat of the
; pile under the cursor, until five are gone or B ends it. Vladimir: A picks a pile, A
; on another pile swaps the two. Either way the next pair spawns afterwards.

.segment "CODE"

; X = POOL_COUNT (at least 1).
call_helper:
    lda POOL - 1, x
    sta HELPER_ON
    lda #CODE_NONE
    sta HAT1_TYPE
    sta HAT2_TYPE
    lda #0
    sta CURSOR
    sta REMOVED
    sta HAT1_LANDED
    sta HAT2_LANDED
    sta FALL_COUNT
    lda #$FF
    sta CHOSEN
    lda HELPER_ON
    cmp #HELPER_ALEXEY
    bne :+
    lda #ST_ALEXEY
    sta GAME_STATE
    lda #MSG_ALEXEY
    sta message
    rts
:   lda #ST_VLADIMIR
    sta GAME_STATE
    lda #MSG_VLADIMIR
    sta message
    rts

move_cursor:
    lda PAD_NEW
    and #BTN_LEFT
    beq :+
    lda CURSOR
    beq @done
    dec CURSOR
    rts
:   lda PAD_NEW
    and #BTN_RIGHT
    beq @done
    lda CURSOR
    cmp #COLUMNS - 1
    bcs @done
    inc CURSOR
@done:
    rts

st_alexey:
    jsr move_cursor
    lda #0
    sta t7                      ; a hat removed this frame
    lda PAD_NEW
    and #BTN_A
    beq @check
    ldx CURSOR
    jsr count_get
    beq @check
    jsr remove_bottom
    inc REMOVED
    inc t7
@check:
    lda REMOVED
    cmp #5
    bcs finish_helper
    lda PAD_NEW
    and #BTN_B
    beq @done
    lda t7
    beq finish_helper
@done:
    rts

st_vladimir:
    jsr move_cursor
    lda PAD_NEW
    and #BTN_A
    beq @done
    lda CHOSEN
    cmp #$FF
    bne @second
    lda CURSOR
    sta CHOSEN
    rts
@second:
    cmp CURSOR
    beq @done
    sta t0
    lda CURSOR
    sta t1
    jsr swap_piles
    jmp finish_helper
@done:
    rts

finish_helper:
    dec POOL_COUNT
    ldx POOL_COUNT
    lda #0
    sta POOL, x
    sta HELPER_ON
    sta REMOVED
    sta message
    lda #$FF
    sta CHOSEN
    lda #ST_SETTLE
    sta GAME_STATE
    rts

; Alexey takes the bottom hat of pile X (which holds at least one).
remove_bottom:
    jsr pile_ptrs
    lda HEIGHTS, x
    sta t6
    ldy #1
@shift:
    sty t3
    jsr count_get
    cmp t3
    beq @shifted
    jsr type_at
    dey
    jsr set_type
    iny
    iny
    bne @shift
@shifted:
    jsr count_get
    sec
    sbc #1
    jsr count_set
    jsr rebuild_bases
    lda #0
    ldy t6
    jmp mark_redraw

; Vladimir exchanges piles t0 and t1.
swap_piles:
    ldx t0
    ldy t1
    lda HEIGHTS, x
    cmp HEIGHTS, y
    bcs :+
    lda HEIGHTS, y
:   sta t7                      ; the taller top bounds both redraws
    lda HEIGHTS, x
    pha
    lda HEIGHTS, y
    sta HEIGHTS, x
    pla
    sta HEIGHTS, y
    jsr count_get
    sta t2
    ldx t1
    jsr count_get
    sta t3
    lda t2
    jsr count_set
    ldx t0
    lda t3
    jsr count_set
    cmp t2
    bcs :+
    lda t2
:   tay                         ; hats to exchange: the longer pile's
@swap:
    dey
    bmi @drawn
    ldx t0
    jsr pile_ptrs
    jsr type_at
    sta t4
    jsr base_at
    sta t5
    ldx t1
    jsr pile_ptrs
    jsr type_at
    pha
    jsr base_at
    pha
    lda t5
    jsr set_base
    lda t4
    jsr set_type
    ldx t0
    jsr pile_ptrs
    pla
    jsr set_base
    pla
    jsr set_type
    jmp @swap
@drawn:
    ldx t0
    lda #0
    ldy t7
    jsr mark_redraw
    ldx t1
    lda #0
    ldy t7
    jmp mark_redraw
