; The shapes a variant build may give the game's data (see ram.inc): the byte codes of
; turns and the hand cursor's encoding (the board's shapes are the storage module's, store.s).
; The defaults reproduce the plain layout: cell = row * 7 + column.

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

.segment "RODATA"

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
.if LOOK_CURSOR
  sty hand_new          ; the hand is drawn into the cells it leaves and enters
  jsr cursor_cell
  jsr store_touch
  ldy hand_new
  jsr store_touch
.endif
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
