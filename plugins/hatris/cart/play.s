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
    lda #CODE_NONE
    sta HAT1_TYPE
    sta HAT2_TYPE
    sta NEXT1_TYPE
    sta NEXT2_TYPE
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
    lda #0
    ldx #7
:   sta CASH, x
    dex
    bpl :-
    sta STAGE
    sta POOL_COUNT
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
    beq :+
    jsr refill                  ; a later first shop starts with its hats dealt
:   jsr next_pair
    ; the first pair comes once the emptied piles are on screen
    lda #ST_SETTLE
    sta GAME_STATE
    rts

spawn_pair:
    lda NEXT1_TYPE
    sta HAT1_TYPE
    lda NEXT2_TYPE
    sta HAT2_TYPE
    jsr next_pair
    lda #SPAWN_LEFT + COL_BASE
    sta HAT1_COL
    lda #SPAWN_LEFT + 1 + COL_BASE
    sta HAT2_COL
    lda #SPAWN_Y
    YFLIP
    sta HAT1_Y
    sta HAT2_Y
    lda #0
    sta HAT1_LANDED
    sta HAT2_LANDED
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
    rts

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
    ldx POOL_COUNT
    beq @no_helper
    jmp call_helper
@no_helper:
    lda HAT1_Y
    YFLIP
    sta cur_y
    lda PAD_NEW
    and #BTN_A
    beq @no_swap
.if SWAP_TYPES
    lda HAT1_TYPE
    ldx HAT2_TYPE
    stx HAT1_TYPE
    sta HAT2_TYPE
.else
    ldx HAT1_COL
    ldy HAT2_COL
    stx HAT2_COL
    sty HAT1_COL
.endif
@no_swap:
    lda HAT1_COL
    cmp HAT2_COL
    bcc :+
    lda HAT2_COL
:   tax                         ; the pair's left column (as stored)
    lda PAD_NEW
    and #BTN_LEFT
    beq @right
    cpx #COL_BASE
    beq @moved
    lda a:HEIGHTS - 1 - COL_BASE, x ; a pile reaching the hats' bottom blocks the way
    cmp cur_y
    bcs @moved
    dec HAT1_COL
    dec HAT2_COL
    jmp @moved
@right:
    lda PAD_NEW
    and #BTN_RIGHT
    beq @moved
    cpx #COLUMNS - 2 + COL_BASE
    bcs @moved
    lda a:HEIGHTS + 2 - COL_BASE, x
    cmp cur_y
    bcs @moved
    inc HAT1_COL
    inc HAT2_COL
@moved:
    ldx HAT1_COL
    lda a:HEIGHTS - COL_BASE, x
    sta t1
    ldx HAT2_COL
    lda a:HEIGHTS - COL_BASE, x
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
    YFLIP
    sta HAT1_Y
    sta HAT2_Y
    lda cur_y
    cmp t3
    bne @done
    lda t1
    cmp t2
    bne @split
    jmp commit_pair             ; equal piles: the pair lands as one
@split:
    ; the hat over the taller pile stops; the other hovers, then falls on alone
    bcc @second_stops
    lda #$FF
    sta HAT1_LANDED
    lda #HAT_STRIDE             ; offset of hat 2's variables
    bne @hover
@second_stops:
    lda #$FF
    sta HAT2_LANDED
    lda #0
@hover:
    sta free_hat
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
    lda HAT1_Y, x
    YFLIP
    sta t3
    ldy HAT1_COL, x
    lda PAD_NEW
    and #BTN_LEFT
    beq @right
    cpy #COL_BASE
    beq @moved
    lda HEIGHTS - 1 - COL_BASE, y
    cmp t3
    bcs @moved
    dey
    jmp @moved
@right:
    lda PAD_NEW
    and #BTN_RIGHT
    beq @moved
    cpy #COLUMNS - 1 + COL_BASE
    bcs @moved
    lda HEIGHTS + 1 - COL_BASE, y
    cmp t3
    bcs @moved
    iny
@moved:
    tya
    sta HAT1_COL, x
    lda hover
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
    ldy HAT1_COL, x
    lda HEIGHTS - COL_BASE, y
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
    YFLIP
    sta HAT1_Y, x
    lda t3
    cmp t2
    bne @done
    jmp commit_pair
@done:
    rts

; Both hats are down: hat 1 lands first, then hat 2; a pile over the limit ends the game.
commit_pair:
    lda #$FF
    sta HAT1_LANDED
    sta HAT2_LANDED
    lda #0
    sta FALL_COUNT
    lda HAT1_COL
    sec
    sbc #COL_BASE
    sta l_col
    lda HAT1_TYPE
    DECODE_TYPE
    sta l_type
    jsr land
    lda HAT2_COL
    sec
    sbc #COL_BASE
    sta l_col
    lda HAT2_TYPE
    DECODE_TYPE
    sta l_type
    jsr land
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
    rts

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
