; The rules on the board. Cells are numbered c = row * 7 + column and hold canonical codes
; (0 empty, 1-4 the piece of slot 1-4, 5 blocked); every read and write goes through the
; storage module (store.s), which alone knows how a build keeps the board in memory. The
; searches over neighbours (game end, moves left, the computer player) read its logic view
; (logic_read): the board padded with two wall cells round it (PAD_WIDTH wide), so a
; neighbour is a fixed offset, open between logic_begin and logic_end.

.segment "RODATA"

row_of:
  .repeat 49, c
    .byte c / 7
  .endrepeat
col_of:
  .repeat 49, c
    .byte c .mod 7
  .endrepeat
code_of_slot:           ; canonical code of each slot's pieces
  .byte 1, 2, 3, 4

PAD_SIZE = 11 * PAD_WIDTH

pad_of:                 ; cell -> its index in the padded logic view
  .repeat 49, c
    orient_cell PAD_ORIENT, c / 7, c .mod 7
    .byte (orow + 2) * PAD_WIDTH + ocol + 2
  .endrepeat
cell_of:                ; padded index -> cell, $FF on the walls
  .repeat PAD_SIZE, p
    .if p / PAD_WIDTH >= 2 && p / PAD_WIDTH <= 8 && p .mod PAD_WIDTH >= 2 && p .mod PAD_WIDTH <= 8
      unorient_cell PAD_ORIENT, p / PAD_WIDTH - 2, p .mod PAD_WIDTH - 2
      .byte urow * 7 + ucol
    .else
      .byte $FF
    .endif
  .endrepeat

.segment "CODE"

; The eight neighbours and the sixteen cells two steps away, as padded offsets; `m` is a
; macro taking one offset.
W = PAD_WIDTH
.macro each_near m
  m -W - 1
  m -W
  m -W + 1
  m -1
  m 1
  m W - 1
  m W
  m W + 1
.endmacro
.macro each_ring m
  each_ring_top m
  each_ring_bottom m
.endmacro
.macro each_ring_top m
  m -2 * W - 2
  m -2 * W - 1
  m -2 * W
  m -2 * W + 1
  m -2 * W + 2
  m -W - 2
  m -W + 2
  m -2
.endmacro
.macro each_ring_bottom m
  m 2
  m W - 2
  m W + 2
  m 2 * W - 2
  m 2 * W - 1
  m 2 * W
  m 2 * W + 1
  m 2 * W + 2
.endmacro

; Builds the empty board of built-in layout LAYOUT_NUMBER: bit k of the number blocks the
; k-th symmetry class of cells (the same numbering as the plug-in's `builtin_layout`).
build_layout:
  jsr store_clear
  ldy #48
@cell:
  ldx cell_class, y
  bmi @next             ; corners are never blocked
  cpx #8
  bcc @low_bit
  lda LAYOUT_NUMBER + 1
  and #1
  jmp @test
@low_bit:
  lda LAYOUT_NUMBER
  and bit_of, x
@test:
  beq @next
  lda #5
  jsr cell_set
@next:
  dey
  bpl @cell
  rts

; Counts every slot's pieces into COUNTS and the decimal digits the RAM map documents.
count_pieces:
  lda #0
  ldx #3
: sta COUNTS, x
  dex
  bpl :-
  ldy #48
@cell:
  jsr cell_get
  tax
  dex
  cpx #4
  bcs @next
  inc COUNTS, x
@next:
  dey
  bpl @cell
  ldx #3
@digits:
  lda COUNTS, x
  ldy #0
: cmp #10
  bcc :+
  sbc #10
  iny
  bne :-
: sta COUNT_LOW, x
  tya
  sta COUNT_HIGH, x
  dex
  bpl @digits
  rts

; Carry set when the player with code A can reach an empty cell (the logic view open).
.macro near_empty off
  logic_read off
  beq @yes
.endmacro
has_move:
  sta t7
  lda #48
  sta t6
@cell:
  ldy t6
  ldx pad_of, y
  logic_read 0
  cmp t7
  beq @check
@next:
  dec t6
  bpl @cell
  clc
  rts
@check:
  each_near near_empty
  each_ring_top near_empty
  jmp @bottom
@yes:                   ; amid the lists so every branch reaches it
  sec
  rts
@bottom:
  each_ring_bottom near_empty
  jmp @next

; Carry set when the game is over: no empty cell, at most one player with pieces, or no
; player able to move (the logic view open).
game_over:
  lda #48
  sta t6
: ldy t6
  ldx pad_of, y
  logic_read 0          ; (the classic view's read takes Y)
  beq @has_empty
  dec t6
  bpl :-
  sec
  rts
@has_empty:
  ldx #3
  lda #0
  sta t3
@alive:
  lda COUNTS, x
  beq :+
  inc t3
: dex
  bpl @alive
  lda t3
  cmp #2
  bcc @over
  lda #3
  sta t3
@mobile:
  ldx t3
  lda COUNTS, x
  beq @next_player
  lda code_of_slot, x
  jsr has_move
  bcs @not_over
@next_player:
  dec t3
  bpl @mobile
@over:
  sec
  rts
@not_over:
  clc
  rts

; Chebyshev distance between cells X and Y in A.
cell_distance:
  lda row_of, x
  sec
  sbc row_of, y
  bcs :+
  eor #$FF
  adc #1
: sta t7
  lda col_of, x
  sec
  sbc col_of, y
  bcs :+
  eor #$FF
  adc #1
: cmp t7
  bcs :+
  lda t7
: rts

; Plays the move in `dest` / `source` ($FF: a clone) for code `me`: places the piece, empties
; a jump's source and lists the captured cells in FLIP_CELLS (not yet converted).
.macro note_capture off
  ldy cell_of + off, x
  bmi :+                ; a wall
  jsr cell_get
  beq :+                ; empty
  cmp #5
  bcs :+                ; blocked
  cmp me
  beq :+
  tya
  ldy flip_count
  sta FLIP_CELLS, y
  inc flip_count
  tay
  jsr store_pending     ; the storage may note that it is about to turn
:
.endmacro
place_move:
  jsr store_move_begin
  lda me
  ldy dest
  jsr cell_set
  ldy source
  bmi :+
  lda #0
  jsr cell_set
: lda #0
  sta flip_count
  ldy dest
  ldx pad_of, y
  each_near note_capture
  rts

; Converts the next captured cell; carry set when none was left.
flip_next:
  lda flip_count
  beq @none
  dec flip_count
  ldx flip_count
  ldy FLIP_CELLS, x
  lda me
  jsr cell_set_capture  ; cell_set, with the capture's sound
  clc
  rts
@none:
  sec
  rts

; The next slot after CURRENT that is in the game and has pieces (CURRENT if none).
next_player:
  jsr slot_to_move
  ldy #4
@try:
  inx
  txa
  and #3
  tax
  lda TYPES, x
  beq @skip
  lda COUNTS, x
  bne @found
@skip:
  dey
  bne @try
  jmp slot_to_move
@found:
  jmp set_slot_to_move
