; The side panel (one block of 6 rows per player slot: piece icon, count, seat label and
; a marker for the turn or the result) and the status line under the board.

; Where they sit is in ram.inc (PANEL_X, PANEL_ROW0, STATUS_X, STATUS_ROW).

STATUS_ATTR = STATUS_ROW / 4 * 8 + STATUS_X / 4     ; the status line's attribute bytes
STATUS_ATTRS = (STATUS_X + 27) / 4 - STATUS_X / 4 + 1

.segment "RODATA"

panel_row:              ; nametable row of each slot's block
  .byte PANEL_ROW0, PANEL_ROW0 + 6, PANEL_ROW0 + 12, PANEL_ROW0 + 18

status_suffix_lo: .lobytes 0, str_to_move, str_passes, str_wins
status_suffix_hi: .hibytes 0, str_to_move, str_passes, str_wins
str_mark_turn: .byte "TURN", 0
str_mark_wins: .byte "WINS", 0
str_mark_out:  .byte "OUT ", 0
str_blank4:    .byte "    ", 0
icon_of_slot:   .byte TILE_ICON, TILE_ICON + ICON_STEP, TILE_ICON + 2 * ICON_STEP, TILE_ICON + 3 * ICON_STEP

.segment "CODE"

; Queues the changing part of slot X's panel block: its count (columns 2-3 of the first
; row) and its marker line (fourth row). Carry set when the queue is too full.
draw_panel_slot:
  stx t0
  lda vram_len
  cmp #VRAM_LIMIT - 16
  bcc :+
  rts
: lda #' ' | COLOURED
  sta t2
  sta t3
  lda TYPES, x
  beq @chars
  lda COUNTS, x
  jsr two_digits
  ora #COLOURED
  sta t3
  txa
  ora #COLOURED
  sta t2
@chars:
  ldx t0
  lda panel_row, x
  jsr row_address
  lda ptr2
  ora #PANEL_X + 2
  sta ptr2
  lda #2
  jsr vram_open
  lda t2
  sta VRAM_BUF, x
  lda t3
  sta VRAM_BUF + 1, x
  inx
  inx
  jsr vram_close
  ldx t0
  lda panel_row, x
  clc
  adc #3
  jsr row_address
  lda ptr2
  ora #PANEL_X
  sta ptr2
  ldx t0
  jsr panel_marker
  lda #COLOURED
  sta t7
  jsr queue_string
  clc
  rts

; ptr -> the 4-character marker of slot X: whose turn, who won, who is out.
panel_marker:
  lda TYPES, x
  beq @blank
  lda CART_PHASE
  cmp #2
  bne @playing
  cpx WINNER
  bne @blank
  lda #<str_mark_wins
  ldx #>str_mark_wins
  jmp set_ptr
@playing:
  lda COUNTS, x
  bne :+
  lda #<str_mark_out
  ldx #>str_mark_out
  jmp set_ptr
: lda turn_of_slot, x
  cmp CURRENT
  bne @blank
  lda #<str_mark_turn
  ldx #>str_mark_turn
  jmp set_ptr
@blank:
  lda #<str_blank4
  ldx #>str_blank4
  jmp set_ptr

; Redraws the panel blocks flagged in hud_dirty (bit n = slot n), as the queue allows.
draw_panel_changes:
  ldx #0
@slot:
  lda hud_dirty
  and bit_of, x
  beq @next
  stx t1
  jsr draw_panel_slot
  ldx t1
  bcs @done
  lda bit_of, x
  eor #$FF
  and hud_dirty
  sta hud_dirty
@next:
  inx
  cpx #4
  bne @slot
@done:
  rts

; The fixed part of slot X's block: the piece icon and the seat label ("CPU5", "PAD2").
; Picture off: written straight to the PPU.
draw_panel_static:
  lda TYPES, x
  bne :+
  rts
: stx t0
  lda panel_row, x
  jsr row_address
  lda ptr2
  ora #PANEL_X
  sta ptr2
  lda ptr2 + 1
  ldx ptr2
  jsr set_ppu_addr
  ldx t0
  lda icon_of_slot, x
  sta t2
  sta PPUDATA
  inc t2
  lda t2
  sta PPUDATA
  lda ptr2
  clc
  adc #32
  tax
  lda ptr2 + 1
  adc #0
  jsr set_ppu_addr
  inc t2
  lda t2
  sta PPUDATA
  inc t2
  lda t2
  sta PPUDATA
  lda ptr2              ; label two rows further down
  clc
  adc #64
  tax
  lda ptr2 + 1
  adc #0
  jsr set_ppu_addr
  ldx t0
  lda TYPES, x
  cmp #TYPE_HUMAN
  beq @pad
  lda #'C'
  sta PPUDATA
  lda #'P'
  sta PPUDATA
  lda #'U'
  sta PPUDATA
  lda SETTINGS, x
  jmp @digit
@pad:
  lda #'P'
  sta PPUDATA
  lda #'A'
  sta PPUDATA
  lda #'D'
  sta PPUDATA
  txa
  clc
  adc #1
@digit:
  ora #'0'
  sta PPUDATA
  ldx t0                ; the block's four rows in the slot's palette
  lda panel_row, x
  sta t1
  lda #2
  sta t2
@quadrant_row:
  ldx #PANEL_X
  ldy t1
  lda t0
  jsr set_quadrant
  ldx #PANEL_X + 2
  ldy t1
  lda t0
  jsr set_quadrant
  inc t1
  inc t1
  dec t2
  bne @quadrant_row
  rts

; Sets the status line from status_kind and queues it. The line is centred under the board
; and drawn in the palette of the player it names.
draw_status:
  lda status_dirty
  bne :+
  rts
: lda vram_len
  cmp #VRAM_LIMIT - 44
  bcc :+
  rts
: lda #COLOURED
  sta t7
  jsr slot_to_move
  stx t0                ; palette
  ldy #0
  lda status_kind
  cmp #STATUS_OVER
  bne @named
  lda #<str_over
  ldx #>str_over
  jsr set_ptr
  ldx WINNER
  stx t0
  bpl :+
  lda #0                ; a draw: light text
  sta t7
  sta t0
: jsr append_string
  ldx WINNER
  bpl @named_x
  lda #<str_draw
  ldx #>str_draw
  jsr set_ptr
  jsr append_string
  jmp @padded
@named:
  jsr slot_to_move
@named_x:
  lda name_lo, x
  sta ptr
  lda name_hi, x
  sta ptr + 1
  jsr append_string
  ldx status_kind
  lda status_suffix_lo, x
  sta ptr
  lda status_suffix_hi, x
  sta ptr + 1
  jsr append_string
@padded:
  jsr centre_text
  lda #<($2000 + STATUS_ROW * 32 + STATUS_X)
  sta ptr2
  lda #>($2000 + STATUS_ROW * 32 + STATUS_X)
  sta ptr2 + 1
  lda #<TEXT_BUF
  ldx #>TEXT_BUF
  jsr set_ptr
  lda #0                ; the colour is in the text already
  sta t7
  jsr queue_string
  lda #STATUS_X         ; its palette: the quadrants of its 28 columns
  sta t1
: ldx t1
  ldy #STATUS_ROW
  lda t0
  jsr set_quadrant
  inc t1
  inc t1
  lda t1
  cmp #STATUS_X + 28
  bne :-
  lda #>($23C0 + STATUS_ATTR)
  sta ptr2 + 1
  lda #<($23C0 + STATUS_ATTR)
  sta ptr2
  lda #STATUS_ATTRS
  jsr vram_open
  ldy #0
: lda ATTR_SHADOW + STATUS_ATTR, y
  sta VRAM_BUF, x
  inx
  iny
  cpy #STATUS_ATTRS
  bne :-
  jsr vram_close
  lda #0
  sta status_dirty
  rts

; Centres the Y characters in TEXT_BUF on a line of 28 (blanks in the t7 font).
centre_text:
  sty t1
  lda #28
  sec
  sbc t1
  lsr a
  sta t2                ; blanks in front
  clc
  adc t1
  tax                   ; new end
  ldy t1
: dey
  bmi :+
  dex
  lda TEXT_BUF, y
  sta TEXT_BUF, x
  jmp :-
: lda #' '
  clc
  adc t7
  ldy t2
: dey
  bmi :+
  sta TEXT_BUF, y
  jmp :-
: ldy t1
  tya
  clc
  adc t2
  tay
  lda #28
  jmp pad_text
