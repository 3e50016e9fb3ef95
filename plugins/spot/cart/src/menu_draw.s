; Drawing the title screen's changing parts: option values, the line cursor and the
; auto-start countdown.

.segment "CODE"

; Queues the title lines flagged in menu_dirty (bits 0-5 values, 6 cursor, 7 countdown).
title_draw:
  ldx #0
@value:
  lda menu_dirty
  and bit_of, x
  beq @next
  lda vram_len
  cmp #VRAM_LIMIT - 12
  bcs @done
  stx t3
  jsr menu_value_text
  ldx t3
  txa
  asl a
  adc #MENU_ROW0
  jsr row_address
  lda ptr2
  ora #VALUE_COLUMN
  sta ptr2
  lda #<TEXT_BUF
  ldx #>TEXT_BUF
  jsr set_ptr
  lda #0
  sta t7
  jsr queue_string
  ldx t3
  lda bit_of, x
  eor #$FF
  and menu_dirty
  sta menu_dirty
@next:
  inx
  cpx #MENU_LINES
  bne @value
  bit menu_dirty
  bvc :+
  jsr draw_menu_cursor
: bit menu_dirty
  bpl @done
  jsr draw_countdown
@done:
  rts

; TEXT_BUF = the value of menu line X, 6 characters.
menu_value_text:
  ldy #0
  lda #0
  sta t7
  cpx #4
  bcc @setting
  beq @layout
  lda ANIM_ON
  beq @off
  lda #<str_on
  ldx #>str_on
  jmp @copy
@setting:
  lda SETTINGS, x
  beq @off
  cmp #SETTING_HUMAN
  bne @cpu
  lda #<str_human
  ldx #>str_human
  jmp @copy
@cpu:
  pha
  lda #<str_cpu
  ldx #>str_cpu
  jsr set_ptr
  pla
  jsr append_with_digit
  jmp @pad
@off:
  lda #<str_off
  ldx #>str_off
  jmp @copy
@layout:
  lda LAYOUT_CHOICE
  bne @number
  lda #<str_random
  ldx #>str_random
  jmp @copy
@number:
  tax
  lda layout_lo - 1, x
  pha
  lda layout_hi - 1, x
  tax
  pla
  jsr three_digits
  lda #<str_no
  ldx #>str_no
  jsr set_ptr
  ldy #0
  jsr append_string
  ldx #0
: lda digits, x
  sta TEXT_BUF, y
  iny
  inx
  cpx #3
  bne :-
  jmp @pad
@copy:
  jsr set_ptr
  jsr append_string
@pad:
  lda #6
  jmp pad_text

draw_menu_cursor:
  lda vram_len
  cmp #VRAM_LIMIT - 26
  bcs @done
  ldx #0
@line:
  stx t3
  txa
  asl a
  adc #MENU_ROW0
  jsr row_address
  lda ptr2
  ora #4
  sta ptr2
  lda #1
  jsr vram_open
  lda #' '
  ldy t3
  cpy menu_row
  bne :+
  lda #'>'
: sta VRAM_BUF, x
  inx
  jsr vram_close
  ldx t3
  inx
  cpx #MENU_LINES
  bne @line
  lda menu_dirty
  and #$BF
  sta menu_dirty
@done:
  rts

draw_countdown:
  lda vram_len
  cmp #VRAM_LIMIT - 24
  bcs @done
  lda #0
  sta t7
  tay
  lda #<str_auto
  ldx #>str_auto
  jsr set_ptr
  lda countdown
  bmi @need
  jsr append_with_digit
  jmp @pad
@need:
  lda #<str_need
  ldx #>str_need
  jsr set_ptr
  jsr append_string
@pad:
  lda #16
  jsr pad_text
  lda #<($2000 + 26 * 32 + 8)
  sta ptr2
  lda #>($2000 + 26 * 32 + 8)
  sta ptr2 + 1
  lda #<TEXT_BUF
  ldx #>TEXT_BUF
  jsr set_ptr
  jsr queue_string
  lda menu_dirty
  and #$7F
  sta menu_dirty
@done:
  rts
