; The game, one step per frame: title, the falling pair, a split pair's free hat, settling
; (pictures uploaded) before the next spawn, and game over.

.segment "RODATA"

state_table:
    .word st_title - 1, st_pair - 1, st_split - 1, st_settle - 1
    .word st_alexey - 1, st_vladimir - 1, st_interlude - 1, st_over - 1
    .word st_menu - 1
.if FLASH
    .word st_flash - 1
.endif
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
