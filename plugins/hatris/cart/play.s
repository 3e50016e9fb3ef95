; The game, one step per frame: title, the falling pair, a split pair's free hat, settling
; (pictures uploaded) before the next spawn, and game over.

.segment "RODATA"

state_table:
    .word st_title - 1, st_pair - 1, st_split - 1, st_settle - 1
    .word st_alexey - 1, st_vladimir - 1, st_interlude - 1, st_over - 1
    .word st_menu - 1
; Gravity per stage: added to FALL_ACC every frame, one pixel per carry.
speed_table: .byte 48, 56, 64, 80, 96, 112, 128, 160, 192, 240

.segment "CODE"

game_step:
    lda GAME_STATE
    asl a
    tax
    lda state_table + 1, x
    pha
    lda state_table, x
    pha
    rts

enter_title:
    lda #ST_TITLE
    sta GAME_STATE
    lda #$FF
    sta NOT_PLAYING
    sta CHOSEN
    lda #0
    sta CUTSCENE
    sta HELPER_ON
    jsr clear_hats
    lda #0
    jsr next_set
    dex
    jsr next_set
    .if NEXT_BG
        lda #1
        sta preview_due
    .endif
    lda #MSG_TITLE
    sta message
    lda #TITLE_TIME
    sta timer
    rts

st_title:
    lda PAD_NEW
    and #BTN_START
    bne @go
    dec timer
    beq @go
    rts
@go:
.if MENU
    lda #ST_MENU
    sta GAME_STATE
    lda #MSG_MENU
    sta message
    lda #0
    sta menu_shop
    sta SHOP
    rts
.else
    jmp start_game
.endif

; The menu variant: Left/Right choose the first shop (shown on the status line), A starts.
st_menu:
    lda PAD_NEW
    and #BTN_RIGHT
    beq :+
    lda menu_shop
    cmp #5
    bcs :+
    inc menu_shop
:   lda PAD_NEW
    and #BTN_LEFT
    beq :+
    lda menu_shop
    beq :+
    dec menu_shop
:   lda menu_shop
    sta SHOP
    lda PAD_NEW
    and #BTN_A
    bne start_game
    rts

start_game:
    jsr empty_piles
    jsr pool_clear
    lda #0
    ldx #7
:   sta CASH, x
    dex
    bpl :-
    sta STAGE
    sta PROGRESS
    sta PROGRESS + 1
    sta SPAWNS
    sta SPAWNS + 1
    sta SPAWNS + 2
    sta finished
    sta refill_due
    sta NOT_PLAYING
    sta message
    lda #$15
    sta STACKS_LEFT
    lda #$3F
    sta RNG_H1
    lda #$85
    sta RNG_H2
    lda menu_shop
    sta SHOP
    jsr port_start
    lda SHOP
    beq :+
    jsr refill                  ; a later first shop starts with its hats dealt
:   jsr next_pair
    ; the first pair comes once the emptied piles are on screen
    lda #ST_SETTLE
    sta GAME_STATE
    rts

spawn_pair:
    ldx #0
    jsr next_get
    jsr hat_set_type
    inx
    jsr next_get
    jsr hat_set_type
    jsr next_pair
    ldx #0
    lda #SPAWN_LEFT
    jsr hat_set_col
    inx
    lda #SPAWN_LEFT + 1
    jsr hat_set_col
    lda #SPAWN_Y
    jsr hat_set_y
    dex
    jsr hat_set_y
    lda #0
    jsr hat_set_landed
    inx
    jsr hat_set_landed
    lda #0
    sta FALL_ACC
    ldx STAGE
    lda speed_table, x
    sta FALL_SPEED
    lda #3
    sta FALL_COUNT
    inc SPAWNS
    bne :+
    inc SPAWNS + 1
    bne :+
    inc SPAWNS + 2
:   lda #ST_PAIR
    sta GAME_STATE
    .if FLAG_KIND = 2
        jsr clear_all_flags
    .endif
    jmp port_spawn

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
    jsr port_moved
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
    jsr port_moved
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
    jsr port_moved
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
    dex
@hat:
    jsr hat_col
    sta l_col
    jsr hat_type
    sta l_type
    jsr land
    inx
    cpx #2
    bne @hat
    ldx #COLUMNS - 1
:   lda HEIGHTS, x
    cmp #HEIGHT_MAX + 1
    bcs game_over
    dex
    bpl :-
    lda #ST_SETTLE
    sta GAME_STATE
    rts

game_over:
    lda #ST_OVER
    sta GAME_STATE
    lda #$FF
    sta NOT_PLAYING
    lda #MSG_OVER
    sta message
    lda #OVER_TIME
    sta timer
    jmp port_over

; Waits until every changed pile picture is on screen, then spawns (or starts an interlude).
st_settle:
    ldx #COLUMNS - 1
:   lda dirty_top, x
    cmp #$FF
    bne @wait
    dex
    bpl :-
    lda refill_due
    beq :+
    jmp enter_interlude
:   jmp spawn_pair
@wait:
    rts

st_over:
    lda PAD_NEW
    and #BTN_START
    bne :+
    dec timer
    bne :++
:   jmp enter_title
:   rts
