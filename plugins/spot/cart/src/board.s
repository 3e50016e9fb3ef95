; The board: the 7 x 7 cells at BOARD (what the RAM map documents, shaped as shape.s says)
; mirrored into a copy with two wall cells round it (11 rows of PAD_WIDTH), so neighbours are
; fixed offsets and need no edge tests. Cell c = row * 7 + column; pad_of gives its padded
; index. The game reads cells from the padded copy; both hold the same codes.

.segment "RODATA"

row_of:
  .repeat 49, c
    .byte c / 7
  .endrepeat
col_of:
  .repeat 49, c
    .byte c .mod 7
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
  m -2 * W - 2
  m -2 * W - 1
  m -2 * W
  m -2 * W + 1
  m -2 * W + 2
  m -W - 2
  m -W + 2
  m -2
  m 2
  m W - 2
  m W + 2
  m 2 * W - 2
  m 2 * W - 1
  m 2 * W
  m 2 * W + 1
  m 2 * W + 2
.endmacro

; Writes code A into cell Y. Keeps A, X and Y.
set_cell:
  stx t7
  ldx pub_of, y
  sta BOARD, x
  ldx pad_of, y
  sta BOARD11, x
  ldx t7
  rts

; Builds the empty board of built-in layout LAYOUT_NUMBER: bit k of the number blocks the
; k-th symmetry class of cells (the same numbering as the plug-in's `builtin_layout`).
build_layout:
  ldx #0
  lda #CELL_WALL
: sta BOARD11, x
  inx
  cpx #PAD_SIZE
  bne :-
  ldx #0
: sta BOARD, x
  inx
  cpx #<PUB_SIZE        ; 0: all 256
  bne :-
  ldy #48
@cell:
  ldx cell_class, y
  bmi @open             ; corners are never blocked
  cpx #8
  bcc @low_bit
  lda LAYOUT_NUMBER + 1
  and #1
  jmp @test
@low_bit:
  lda LAYOUT_NUMBER
  and bit_of, x
@test:
  beq @open
  lda #CELL_BLOCKED
  jmp @put
@open:
  lda #CELL_EMPTY
@put:
  jsr set_cell
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
  jsr cell_code
  tax
  lda kind_of_code, x
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

; Carry set when the player with cell code A can reach an empty cell.
.macro near_empty off
  lda BOARD11 + off, x
  cmp #CELL_EMPTY
  beq @yes
.endmacro
has_move:
  sta t7
  ldy #48
@cell:
  jsr cell_code
  cmp t7
  beq @check
@next:
  dey
  bpl @cell
  clc
  rts
@check:
  ldx pad_of, y
  each_near near_empty
  jmp @ring
@yes:                   ; between the two lists so every branch reaches it
  sec
  rts
@ring:
  each_ring near_empty
  jmp @next

; Carry set when the game is over: no empty cell, at most one player with pieces, or no
; player able to move.
game_over:
  ldy #48
: jsr cell_code
  cmp #CELL_EMPTY
  beq @has_empty
  dey
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

; Plays the move in `dest` / `source` ($FF: a clone) for cell code `me`: places the piece,
; empties a jump's source and lists the captured cells in FLIP_CELLS (not yet converted).
.macro note_capture off
  lda BOARD11 + off, x
  cmp me
  beq :+
  tay
  lda kind_of_code, y
  beq :+                ; empty
  cmp #5
  bcs :+                ; blocked or wall
  txa
  clc
  adc #<(off)
  tay
  lda cell_of, y
  ldy flip_count
  sta FLIP_CELLS, y
  inc flip_count
:
.endmacro
place_move:
  lda me
  ldy dest
  jsr set_cell
  ldy source
  bmi :+
  lda #CELL_EMPTY
  jsr set_cell
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
  jsr set_cell
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
