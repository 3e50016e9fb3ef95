; The shapes a variant build may give the game's data (see ram.inc): where each cell sits in
; the public board and in the padded board, the byte codes of cells and turns, and the hand
; cursor's encoding. The defaults reproduce the plain layout: cell = row * 7 + column.

; (r, c) as the orientation bits o place it: bit 0 transposes, bit 1 turns the rows upside
; down, bit 2 mirrors the columns. Result in orow / ocol.
.macro orient_cell o, r, c
  .if (o) & 1
    orow .set (c)
    ocol .set (r)
  .else
    orow .set (r)
    ocol .set (c)
  .endif
  .if (o) & 2
    orow .set 6 - orow
  .endif
  .if (o) & 4
    ocol .set 6 - ocol
  .endif
.endmacro

; The inverse: the cell (urow, ucol) that orient_cell places at (r, c).
.macro unorient_cell o, r, c
  urow .set (r)
  ucol .set (c)
  .if (o) & 2
    urow .set 6 - urow
  .endif
  .if (o) & 4
    ucol .set 6 - ucol
  .endif
  .if (o) & 1
    utmp .set urow
    urow .set ucol
    ucol .set utmp
  .endif
.endmacro

; With CURSOR_SCRAMBLE the cursor bytes follow no row/column order (bit-reversed cell
; numbers, or columns and rows shuffled): a cart calibration must fail on. cursor_at sets
; cur_v for cell c; pair_at sets pair_v for row or column k.
.macro cursor_at c
  .if CURSOR_SCRAMBLE
    cur_v .set ((c) & 1) << 5 | ((c) & 2) << 3 | ((c) & 4) << 1 | ((c) & 8) >> 1 | ((c) & 16) >> 3 | ((c) & 32) >> 5
  .else
    cur_v .set ((c) / 7) * CURSOR_ROW + ((c) .mod 7) * CURSOR_COL
  .endif
  cur_v .set (CURSOR_ORIGIN + cur_v) & $FF
.endmacro
.macro pair_at k
  .if CURSOR_SCRAMBLE
    pair_v .set ((k) * 3 + ((k) & 1) * 2) .mod 7
  .else
    pair_v .set (k)
  .endif
.endmacro

PUB_SIZE = (7 + 2 * BOARD_PAD) * BOARD_STRIDE
PAD_SIZE = 11 * PAD_WIDTH

.segment "RODATA"

pub_of:                 ; cell -> offset in BOARD (and SHOWN)
  .repeat 49, c
    orient_cell BOARD_ORIENT, c / 7, c .mod 7
    .byte (orow + BOARD_PAD) * BOARD_STRIDE + (ocol + BOARD_PAD) * BOARD_STEP
  .endrepeat
pad_of:                 ; cell -> padded index
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

kind_of_code:           ; cell code -> 0 empty, 1-4 slot + 1, 5 blocked, $FF anything else
  .repeat 256, v
    .if v = CELL_EMPTY
      .byte 0
    .elseif v = CELL_P1
      .byte 1
    .elseif v = CELL_P2
      .byte 2
    .elseif v = CELL_P3
      .byte 3
    .elseif v = CELL_P4
      .byte 4
    .elseif v = CELL_BLOCKED
      .byte 5
    .else
      .byte $FF
    .endif
  .endrepeat
code_of_slot:
  .byte CELL_P1, CELL_P2, CELL_P3, CELL_P4
turn_of_slot:
  .byte TURN_0, TURN_1, TURN_2, TURN_3
slot_of_turn:           ; CURRENT -> slot (0 for a value never written)
  .repeat 256, v
    .if v = TURN_1
      .byte 1
    .elseif v = TURN_2
      .byte 2
    .elseif v = TURN_3
      .byte 3
    .else
      .byte 0
    .endif
  .endrepeat

.if CURSOR_PAIR
cursor_x_of:
  .repeat 49, c
    pair_at c .mod 7
    .byte (X_ORIGIN + pair_v * X_STEP) & $FF
  .endrepeat
cursor_y_of:
  .repeat 49, c
    pair_at c / 7
    .byte (Y_ORIGIN + pair_v * Y_STEP) & $FF
  .endrepeat
col_of_x:               ; CURSOR_X -> column, $FF off the board
  .repeat 256, v
    found .set $FF
    .repeat 7, k
      pair_at k
      .if ((X_ORIGIN + pair_v * X_STEP) & $FF) = v
        found .set k
      .endif
    .endrepeat
    .byte found
  .endrepeat
row_start_of_y:         ; CURSOR_Y -> row * 7, $FF off the board
  .repeat 256, v
    found .set $FF
    .repeat 7, k
      pair_at k
      .if ((Y_ORIGIN + pair_v * Y_STEP) & $FF) = v
        found .set k * 7
      .endif
    .endrepeat
    .byte found
  .endrepeat
.else
cursor_of:
  .repeat 49, c
    cursor_at c
    .byte cur_v
  .endrepeat
cell_of_cursor:         ; CURSOR -> cell, $FF off the board
  .repeat 256, v
    found .set $FF
    .repeat 49, c
      cursor_at c
      .if cur_v = v
        found .set c
      .endif
    .endrepeat
    .byte found
  .endrepeat
.endif

.segment "CODE"

; Y = the cell under the hand (the middle if the RAM holds no cell). Keeps X.
cursor_cell:
.if CURSOR_PAIR
  ldy CURSOR_X
  lda col_of_x, y
  bmi @middle
  sta cursor_tmp
  ldy CURSOR_Y
  lda row_start_of_y, y
  bmi @middle
  clc
  adc cursor_tmp
  tay
  rts
.else
  ldy CURSOR
  lda cell_of_cursor, y
  bmi @middle
  tay
  rts
.endif
@middle:
  ldy #24
  rts

; Puts the hand on cell Y. Keeps X and Y.
set_cursor_cell:
.if CURSOR_PAIR
  lda cursor_x_of, y
  sta CURSOR_X
  lda cursor_y_of, y
  sta CURSOR_Y
.else
  lda cursor_of, y
  sta CURSOR
.endif
  rts

; X = the slot to move, read from the coded CURRENT. Keeps Y.
slot_to_move:
  ldx CURRENT
  lda slot_of_turn, x
  tax
  rts

; CURRENT = slot X, coded. Keeps X and Y.
set_slot_to_move:
  lda turn_of_slot, x
  sta CURRENT
  rts

; A = the code of cell Y (read from the padded board). Keeps Y; X = its padded index.
cell_code:
  ldx pad_of, y
  lda BOARD11, x
  rts
