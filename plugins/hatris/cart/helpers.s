; The helpers. B during a falling pair calls the newest helper in the pool; the pair
; vanishes. Left/Right move a column cursor. Alexey: each A takes the bottom hat of the
; pile under the cursor, until five are gone or B ends it. Vladimir: A picks a pile, A
; on another pile swaps the two. Either way the next pair spawns afterwards.

.segment "CODE"

; The pool holds at least one helper: the newest comes.
call_helper:
    jsr pool_newest
    sta HELPER_ON
    jsr port_helper_sfx         ; port_helper, with the helper's call
    jsr clear_hats              ; X = 1 after
    lda #0
    jsr hat_set_landed
    dex
    jsr hat_set_landed
    sta CURSOR
    sta REMOVED
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
    jsr dec_cursor_tick         ; dec CURSOR, with a tick
    rts
:   lda PAD_NEW
    and #BTN_RIGHT
    beq @done
    lda CURSOR
    cmp #COLUMNS - 1
    bcs @done
    jsr inc_cursor_tick         ; inc CURSOR, with a tick
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
    jsr port_take_sfx           ; port_take, with a flip
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
    jsr port_swap_sfx           ; port_swap, with a flip
    jsr swap_piles
    jmp finish_helper
@done:
    rts

finish_helper:
    jsr pool_pop
    lda #0
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
    jsr count_get
    sta n_cache
    ldy #1
@shift:
    cpy n_cache
    beq @shifted
    jsr type_at
    dey
    jsr set_type
    iny
    iny
    bne @shift                  ; always
@shifted:
    dey
    tya
    jsr count_set
    jsr rebuild_bases
    SH_CALL sh_take
    STORE_REMOVED
    SH_CALL check_piles
    lda #0
    ldy t6
    jmp mark_redraw

; Vladimir exchanges piles t0 and t1: hats, brims, counts and heights.
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
    cmp t2
    bcs :+
    lda t2
:   tay                         ; hats to exchange: the longer pile's
.if SWAP_PTRS
    sty n_cache
    jsr swap_pointers
    .if ELEM_STRIDE = 1
        ldy n_cache
        jsr swap_brims          ; brims kept apart stay with their pile number
    .endif
.else
@swap:
    dey
    bmi @counts
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
@counts:
.endif
.if .not (SWAP_PTRS .and (COUNT_HDR .or COUNT_KIND = 2))
    ldx t0                      ; (counts inside the buffers moved with them)
    lda t3
    jsr count_set
    ldx t1
    lda t2
    jsr count_set
.endif
    SH_CALL sh_swap
    SH_CALL check_piles
    ldx t0
    lda #0
    ldy t7
    jsr mark_redraw
    ldx t1
    lda #0
    ldy t7
    jmp mark_redraw

.if SWAP_PTRS .and ELEM_STRIDE = 1
; Exchanges the first Y brims of piles t0 and t1.
swap_brims:
@swap:
    dey
    bmi @done
    ldx t0
    jsr pile_ptrs
    jsr base_at
    sta t5
    ldx t1
    jsr pile_ptrs
    jsr base_at
    pha
    lda t5
    jsr set_base
    ldx t0
    jsr pile_ptrs
    pla
    jsr set_base
    jmp @swap
@done:
    rts
.endif
