; STORAGE 0, the classic family: the public board BOARD (what Spot's RAM map documents), a
; copy with two wall cells round it for the game's own use (BOARD11, 11 rows of PAD_WIDTH)
; and what the screen shows (SHOWN, shaped like BOARD), one byte per cell in the codes
; CELL_EMPTY ... CELL_BLOCKED. A variant moves, reshapes (stride, bytes per cell, border,
; orientation) and recodes them; the plain build has the addresses of ram.inc.

.if LOOK_CURSOR || LOOK_SELECT
  .error "the classic SHOWN holds board codes: no looks with the hand or the picked-up piece"
.endif

PUB_SIZE = (7 + 2 * BOARD_PAD) * BOARD_STRIDE

; A test build's late code (`build.sh -D LATE_MOVE=N -D CELL_P1_LATE=C`): from the Nth move
; of a game on, pieces of slot 1 are written as C, a code the start position never shows,
; while the picture stays the same. A player that learnt the codes early must notice it.
default LATE_MOVE, 0
default CELL_P1_LATE, $80
.if LATE_MOVE && (CELL_P1_LATE = CELL_EMPTY || CELL_P1_LATE = CELL_P1 || CELL_P1_LATE = CELL_P2 || CELL_P1_LATE = CELL_P3 || CELL_P1_LATE = CELL_P4 || CELL_P1_LATE = CELL_BLOCKED || CELL_P1_LATE = CELL_WALL)
  .error "CELL_P1_LATE must differ from every other cell code"
.endif


.segment "RODATA"

pub_of:                 ; cell -> offset in BOARD (and SHOWN)
  .repeat 49, c
    orient_cell BOARD_ORIENT, c / 7, c .mod 7
    .byte (orow + BOARD_PAD) * BOARD_STRIDE + (ocol + BOARD_PAD) * BOARD_STEP
  .endrepeat
CELL_0 = CELL_EMPTY     ; the codes by canonical number
CELL_1 = CELL_P1
CELL_2 = CELL_P2
CELL_3 = CELL_P3
CELL_4 = CELL_P4
CELL_5 = CELL_BLOCKED
.if LATE_MOVE
  code_tables code_of_kind, kind_of_code, "CELL_%d", 6, 256, $FF, CELL_P1_LATE, 1
.else
  code_tables code_of_kind, kind_of_code, "CELL_%d", 6, 256, $FF
.endif

.segment "CODE"

st_get:
  stx st_x
  ldx pad_of, y
  lda BOARD11, x
  tax
  lda kind_of_code, x
  ldx st_x
  ora #0                ; flags follow A
  rts

st_set:
  stx st_x
  pha
  tax
  lda code_of_kind, x
.if LATE_MOVE
  cpx #1
  bne :+
  ldx st_moves
  cpx #LATE_MOVE
  bcc :+
  lda #CELL_P1_LATE
:
.endif
  ldx pub_of, y
  sta BOARD, x
  ldx pad_of, y
  sta BOARD11, x
  pla
  ldx st_x
  rts

st_shown_get:
  stx st_x
  ldx pub_of, y
  lda SHOWN, x
  tax
  lda kind_of_code, x
  ldx st_x
  rts

st_shown_set:
  stx st_x
  pha
  tax
  lda code_of_kind, x
  ldx pub_of, y
  sta SHOWN, x
  pla
  ldx st_x
  rts

; Walls everywhere, then every cell empty.
st_clear:
  ldx #0
.if LATE_MOVE
  stx st_moves
.endif
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
  tya
  pha
  ldy #48
  lda #0
: jsr st_set
  dey
  bpl :-
  pla
  tay
  rts

; The logic view is BOARD11 itself, read in its codes.
.macro logic_read off
  ldy BOARD11 + off, x
  lda kind_of_code, y
.endmacro
logic_begin:
logic_end:
  rts

.if LATE_MOVE
; Moves made, for the late code (saturating at 255; no register changes).
st_move_begin:
  inc st_moves
  bne :+
  dec st_moves
: rts
.else
st_move_begin = st_select
.endif

; Nothing else of the board lives in these bytes.
st_select:
st_touch:
st_pending:
st_pending_tick:
  rts
