; Strings and writing text through the VRAM queue.

COLOURED = $80          ; add to a character: drawn in the palette's player colour

.segment "RODATA"

name_lo:
  .lobytes str_red, str_blue, str_gold, str_green
name_hi:
  .hibytes str_red, str_blue, str_gold, str_green
str_red:     .byte "RED", 0
str_blue:    .byte "BLUE", 0
str_gold:    .byte "GOLD", 0
str_green:   .byte "GREEN", 0
str_to_move: .byte " TO MOVE", 0
str_passes:  .byte " CANNOT MOVE", 0
str_wins:    .byte " WINS", 0
str_draw:    .byte "DRAW", 0
str_over:    .byte "GAME OVER: ", 0

.segment "CODE"

; Queues the zero-terminated string at (ptr) at PPU address ptr2, adding t7 to every
; character. Carry set when the queue had no room (nothing queued).
queue_string:
  ldy #0
: lda (ptr), y
  beq :+
  iny
  bne :-
: tya
  jsr vram_open
  bcs @full
  ldy #0
@copy:
  lda (ptr), y
  beq @end
  clc
  adc t7
  sta VRAM_BUF, x
  inx
  iny
  bne @copy
@end:
  jsr vram_close
  clc
@full:
  rts

; Points ptr at the string A (low) / X (high): a helper for the tables above.
set_ptr:
  sta ptr
  stx ptr + 1
  rts

; Appends the zero-terminated string at (ptr) to TEXT_BUF at index Y, adding t7; returns
; the new end index in Y.
append_string:
  sty t5
  ldy #0
  ldx t5
@copy:
  lda (ptr), y
  beq @end
  clc
  adc t7
  sta TEXT_BUF, x
  inx
  iny
  bne @copy
@end:
  txa
  tay
  rts

; Appends the string at (ptr), then the digit A, to TEXT_BUF at index Y (see append_string).
append_with_digit:
  pha
  jsr append_string
  pla
  ora #'0'
  sta TEXT_BUF, y
  iny
  rts

; Pads TEXT_BUF with blanks (in the t7 font) from index Y up to length A and ends it.
pad_text:
  sta t5
  lda #' '
  clc
  adc t7
: cpy t5
  bcs :+
  sta TEXT_BUF, y
  iny
  bne :-
: lda #0
  sta TEXT_BUF, y
  rts

; Two decimal digits of A (0-99) as characters: tens in X (a blank for 0), units in A.
two_digits:
  ldx #' '
: cmp #10
  bcc @done
  sbc #10
  cpx #' '
  bne :+
  ldx #'0'
: inx
  bne :--
@done:
  ora #'0'
  rts

; Three decimal digits of X (high) / A (low), at most 999, into digits+0..2 as characters.
three_digits:
  sta t4
  stx t5
  ldy #0
@hundreds:
  lda t4
  sec
  sbc #100
  tax
  lda t5
  sbc #0
  bcc @tens
  sta t5
  stx t4
  iny
  bne @hundreds
@tens:
  tya
  ora #'0'
  sta digits
  lda t4
  jsr two_digits
  sta digits + 2
  cpx #' '
  bne :+
  ldx #'0'
: stx digits + 1
  rts
