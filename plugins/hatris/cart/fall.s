; The falling pair: moving, swapping and falling, the split pair's free hat, and the
; landing that ends it (or the game).

.segment "CODE"

; A: pixels to fall this frame (Down: fast, or all the way when HARD_DROP; otherwise the
; stage's gravity).
fall_step:
.if HARD_DROP
    lda PAD_NEW                 ; a new press drops all the way
    and #BTN_DOWN
    beq :+
    lda #255
.else
    lda PAD_HELD
    and #BTN_DOWN
    beq :+
    lda #FAST_FALL
.endif
    rts
:   lda FALL_ACC
    clc
    adc FALL_SPEED
    sta FALL_ACC
    lda #0
    rol a
    rts

st_pair:
    lda PAD_NEW
    and #BTN_B
    beq @no_helper
    jsr pool_count
    beq @no_helper
    jmp call_helper
@no_helper:
    ldx #0
    jsr hat_y
    sta cur_y
    lda PAD_NEW
    and #BTN_A
    beq @no_swap
.if SWAP_TYPES
    jsr hat_type                ; X = 0
    pha
    inx
    jsr hat_type
    dex
    jsr hat_set_type
    pla
    inx
    jsr hat_set_type
.else
    jsr hat_col                 ; X = 0
    pha
    inx
    jsr hat_col
    dex
    jsr hat_set_col
    pla
    inx
    jsr hat_set_col
.endif
    jsr port_moved_swap         ; port_moved, with the swap's sound
@no_swap:
    ldx #0
    jsr hat_col
    sta t1
    inx
    jsr hat_col
    sta t2
    cmp t1
    bcc :+
    lda t1
:   tax                         ; the pair's left column
    lda PAD_NEW
    and #BTN_LEFT
    beq @right
    cpx #0
    beq @moved
    lda HEIGHTS - 1, x          ; a pile reaching the hats' bottom blocks the way
    cmp cur_y
    bcs @moved
    dec t1
    dec t2
    jmp @move
@right:
    lda PAD_NEW
    and #BTN_RIGHT
    beq @moved
    cpx #COLUMNS - 2
    bcs @moved
    lda HEIGHTS + 2, x
    cmp cur_y
    bcs @moved
    inc t1
    inc t2
@move:
    ldx #0
    lda t1
    jsr hat_set_col
    inx
    lda t2
    jsr hat_set_col
    jsr port_moved_tick         ; port_moved, with a tick
@moved:
    ldx #0
    jsr hat_col
    tax
    lda HEIGHTS, x
    sta t1
    ldx #1
    jsr hat_col
    tax
    lda HEIGHTS, x
    sta t2
    cmp t1
    bcs :+
    lda t1
:   sta t3                      ; the taller pile under the pair
    jsr fall_step
    sta t4
    lda cur_y
    sec
    sbc t4
    bcc @floor
    cmp t3
    bcs @set
@floor:
    lda t3
@set:
    sta cur_y
    ldx #0
    jsr hat_set_y
    inx
    jsr hat_set_y
    lda cur_y
    cmp t3
    bne @done
    lda t1
    cmp t2
    bne @split
    jmp commit_pair             ; equal piles: the pair lands as one
@split:
    ; the hat over the taller pile stops; the other hovers, then falls on alone
    ldx #0
    bcs :+
    inx                         ; hat 2 stops
:   lda #$FF
    jsr hat_set_landed
    txa
    eor #1
    sta free_hat
    jsr port_split
    lda #HOVER_TIME
    sta hover
    lda #2
    sta FALL_COUNT
    lda #ST_SPLIT
    sta GAME_STATE
@done:
    rts

st_split:
    ldx free_hat
    jsr hat_y
    sta t3
    jsr hat_col
    sta t5
    tay
    lda PAD_NEW
    and #BTN_LEFT
    beq @right
    cpy #0
    beq @moved
    lda HEIGHTS - 1, y
    cmp t3
    bcs @moved
    dey
    jmp @moved
@right:
    lda PAD_NEW
    and #BTN_RIGHT
    beq @moved
    cpy #COLUMNS - 1
    bcs @moved
    lda HEIGHTS + 1, y
    cmp t3
    bcs @moved
    iny
@moved:
    tya
    jsr hat_set_col
    cmp t5
    beq :+
    jsr port_moved_tick
:   lda hover
    beq @fall
    lda PAD_HELD
    and #BTN_DOWN
    bne @drop
    dec hover
    rts
@drop:
    lda #0
    sta hover
@fall:
    jsr fall_step
    sta t4
    jsr hat_col
    tay
    lda HEIGHTS, y
    sta t2
    lda t3
    sec
    sbc t4
    bcc @floor
    cmp t2
    bcs @set
@floor:
    lda t2
@set:
    sta t3
    jsr hat_set_y
    lda t3
    cmp t2
    bne @done
    jmp commit_pair
@done:
    rts

; Both hats are down: hat 1 lands first, then hat 2; a pile over the limit ends the game.
commit_pair:
    ldx #0
    lda #$FF
    jsr hat_set_landed
    inx
    jsr hat_set_landed
    lda #0
    sta FALL_COUNT
    tax
; Lands hat X and the hats after it (a stack that flashes first holds the rest up).
commit_from:
    cpx #2
    beq @check
    jsr hat_col
    sta l_col
    jsr hat_type
    sta l_type
    jsr land
    inx
.if FLASH
    lda flash_t
    beq commit_from
    stx flash_next
    lda #ST_FLASH
    sta GAME_STATE
    rts
.else
    bne commit_from             ; always
.endif
@check:
    ldx #COLUMNS - 1
:   lda HEIGHTS, x
    cmp #HEIGHT_MAX + 1
    bcs game_over
    dex
    bpl :-
    lda #ST_SETTLE
    sta GAME_STATE
    rts

.if FLASH
; A stack of five flashes (its pile redrawn with and without it every 8 frames), then
; vanishes, and the pair's other hat lands.
st_flash:
    dec flash_t
    beq @clear
    lda flash_t
    and #7
    bne @wait
    lda flash_t
    and #8
    sta flash_hide
    ldx flash_col               ; redraw from the stack's lowest brim up
    jsr pile_ptrs
    jsr count_get
    sec
    sbc #5
    tay
    jsr base_at
    ldy HEIGHTS, x
    jmp mark_redraw
@wait:
    rts
@clear:
    lda #0
    sta flash_hide
    lda flash_col
    sta l_col
    lda flash_type
    sta l_type
    ldx l_col
    jsr pile_ptrs
    jsr clear_top_five
    SH_CALL check_piles
    ldx flash_next
    jmp commit_from
.endif

game_over:
    lda #ST_OVER
    sta GAME_STATE
    lda #$FF
    sta NOT_PLAYING
    lda #MSG_OVER
    sta message
    lda #OVER_TIME
    sta timer
    jmp port_over_sfx           ; port_over, and the game's end sounds
