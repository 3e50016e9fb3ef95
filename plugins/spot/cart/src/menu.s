; The title screen and its options: who plays each slot (off, a human on that slot's pad,
; or the computer at level 1-5), the layout (random or one of the selection) and whether
; moves are animated. Up/Down choose a line, Left/Right (or A) change it, Start plays.
; Left alone for five seconds it starts by itself, so the demo plays without a person.

MENU_LINES = 6
MENU_ROW0 = 10          ; nametable row of the first line; lines are 2 rows apart
VALUE_COLUMN = 17
AUTO_START = 150        ; in 2-frame steps: 5 seconds

.segment "RODATA"

setting_order:
  .byte SETTING_OFF, SETTING_HUMAN, 1, 2, 3, 4, 5
str_title_lines:
  ; row, column, colour offset, text
  .byte 7, 6, 0, "CLONE, JUMP, CAPTURE", 0
  .byte 10, 6, COLOURED, "PLAYER 1", 0
  .byte 12, 6, COLOURED, "PLAYER 2", 0
  .byte 14, 6, COLOURED, "PLAYER 3", 0
  .byte 16, 6, COLOURED, "PLAYER 4", 0
  .byte 18, 6, 0, "LAYOUT", 0
  .byte 20, 6, 0, "ANIMATION", 0
  .byte 23, 4, 0, "D-PAD: CHOOSE AND CHANGE", 0
  .byte 24, 4, 0, "START: PLAY", 0
  .byte 4, 12, COLOURED, "D", 0
  .byte 4, 14, COLOURED, "O", 0
  .byte 4, 16, COLOURED, "T", 0
  .byte 4, 18, COLOURED, "S", 0
  .byte $FF
str_off:    .byte "OFF   ", 0
str_human:  .byte "HUMAN ", 0
str_cpu:    .byte "CPU  ", 0
str_random: .byte "RANDOM", 0
str_no:     .byte "NO.", 0
str_on:     .byte "ON    ", 0
str_auto:   .byte "AUTO START IN ", 0
str_need:   .byte "NEED TWO PLAYERS", 0

.segment "CODE"

power_on_settings:
  lda #SETTING_HUMAN
  sta SETTINGS
  lda #5
  sta SETTINGS + 1
  lda #1
  sta ANIM_ON
  lda #$FF              ; the first game's first mover is drawn at random
  sta FIRST_MOVER
  sta selected          ; nothing picked up
  rts

title_enter:
  jsr screen_off
  lda #PH_TITLE
  sta phase
  lda #MODE_TITLE
  sta MODE
  lda #0
  sta CART_PHASE
  sta PLAYING
  sta idle_time
  lda #$FF
  sta countdown
  lda #$7F              ; every line and the cursor; the countdown once it is known
  sta menu_dirty
  jsr clear_screen
  ldy #0
@line:
  lda str_title_lines, y
  bmi @lines_done
  sta t0
  lda str_title_lines + 1, y
  sta t1
  lda str_title_lines + 2, y
  sta t7
  tya
  clc
  adc #3
  adc #<str_title_lines
  sta ptr
  lda #0
  adc #>str_title_lines
  sta ptr + 1
  lda t0
  jsr row_address
  lda ptr2
  ora t1
  sta ptr2
  jsr queue_string
  jsr flush_vram
  ldy #0                ; skip to the next entry
: lda (ptr), y
  beq :+
  iny
  bne :-
: tya
  sec                   ; + 1 for the end mark
  adc ptr
  sec
  sbc #<str_title_lines
  tay
  jmp @line
@lines_done:
  ldx #0                ; player lines in their colours
@player:
  stx t0
  txa
  asl a
  adc #MENU_ROW0
  sta t1
  lda #0
  sta t2
: ldx t2
  ldy t1
  lda t0
  jsr set_quadrant
  inc t2
  inc t2
  lda t2
  cmp #32
  bne :-
  ldx t0
  inx
  cpx #4
  bne @player
  ldx #0                ; the four title letters
: stx t0
  txa
  asl a
  adc #12
  tax
  ldy #4
  lda t0
  jsr set_quadrant
  ldx t0
  inx
  cpx #4
  bne :-
  jsr upload_attributes
  jsr title_draw
  jsr flush_vram
  jsr place_sprites     ; hides them: no game in play
  jmp screen_on

; One title-screen frame.
title_frame:
  jsr any_held
  beq :+
  lda #0
  sta idle_time
  beq @input
: lda frame
  and #1
  bne @input
  inc idle_time
@input:
  jsr any_pressed
  sta t0
  and #BTN_UP
  beq :+
  dec menu_row
  bpl @moved
  lda #MENU_LINES - 1
  sta menu_row
  bne @moved
: lda t0
  and #BTN_DOWN
  beq @change
  inc menu_row
  lda menu_row
  cmp #MENU_LINES
  bcc @moved
  lda #0
  sta menu_row
@moved:
  lda menu_dirty
  ora #$40
  sta menu_dirty
@change:
  lda t0
  and #BTN_RIGHT | BTN_A
  beq :+
  lda #1
  jsr change_line
: lda t0
  and #BTN_LEFT
  beq :+
  lda #$FF
  jsr change_line
: lda menu_row
  sta MENU_ROW
  jsr active_players
  cmp #2
  bcc @not_ready
  lda t0
  and #BTN_START
  bne @start
  lda idle_time
  cmp #AUTO_START
  bcs @start
  lda #AUTO_START       ; seconds left, rounded up
  sec
  sbc idle_time
  ldx #0
: inx
  sec
  sbc #30
  beq :+
  bcs :-
: txa
  jmp @show
@not_ready:
  lda #0
  sta idle_time
  lda #$FE
@show:
  cmp countdown
  beq :+
  sta countdown
  lda menu_dirty
  ora #$80
  sta menu_dirty
: rts
@start:
  jmp start_game

; Number of slots set to play, in A.
active_players:
  ldx #3
  lda #0
  sta t1
: lda SETTINGS, x
  beq :+
  inc t1
: dex
  bpl :--
  lda t1
  rts

; Steps the value of line menu_row by A (+1 or -1).
change_line:
  sta t1
  ldx menu_row
  lda menu_dirty
  ora bit_of, x
  sta menu_dirty
  cpx #4
  bcc @setting
  beq @layout
  lda ANIM_ON
  eor #1
  sta ANIM_ON
  rts
@layout:
  lda LAYOUT_CHOICE
  clc
  adc t1
  bpl :+
  lda #LAYOUT_COUNT
: cmp #LAYOUT_COUNT + 1
  bcc :+
  lda #0
: sta LAYOUT_CHOICE
  rts
@setting:
  ldy #6                ; position of the current value in setting_order
: lda setting_order, y
  cmp SETTINGS, x
  beq :+
  dey
  bpl :-
  ldy #0
: tya
  clc
  adc t1
  bpl :+
  lda #6
: cmp #7
  bcc :+
  lda #0
: tay
  lda setting_order, y
  sta SETTINGS, x
  rts
