; What the wide storage kinds (STORAGE 1-3) share: the board lives in one of ST_BUFS
; buffers of ST_SIZE bytes (ST_BUF0-ST_BUF2) and the kind's routines reach it through the
; pointer ST_PTR. With ST_FLIP the board is copied to the next buffer before every move and
; the pointer follows (the buffer left behind keeps the old position); otherwise a game that
; starts moves the board to buffer GAMES_DONE mod ST_BUFS. What the screen shows is kept
; either as a dirty flag per cell in the board itself (SHOWN_FORM 1, the kind's routines) or
; as a nibble per cell in a look code of its own at SH_BASE (SHOWN_FORM 2, below).

default ST_BUFS, 1
default ST_BUF1, ST_BUF0
default ST_BUF2, ST_BUF0
default ST_FLIP, 0
default ST_FILL, 0
default ST_ORIENT, 0

.segment "RODATA"

st_buf_lo: .lobytes ST_BUF0, ST_BUF1, ST_BUF2
st_buf_hi: .hibytes ST_BUF0, ST_BUF1, ST_BUF2

.if SHOWN_FORM = 2
sh_byte:                ; cell -> its byte at SH_BASE ...
  .repeat 49, c
    .if SH_COLMAJOR
      .byte ((c .mod 7) * 7 + c / 7) / 2
    .else
      .byte c / 2
    .endif
  .endrepeat
sh_high:                ; ... and 1 when it is the high nibble
  .repeat 49, c
    .if SH_COLMAJOR
      .byte (((c .mod 7) * 7 + c / 7) & 1) ^ SH_HIGH_FIRST
    .else
      .byte (c & 1) ^ SH_HIGH_FIRST
    .endif
  .endrepeat
  code_tables sh_code_of_look, sh_look_of_code, "SH_CODE_%d", 16, 16, $0F
.endif

.segment "CODE"

; The kind's st_decode / st_encode, through its code tables, with the registers kept (and
; the flags following A).
st_get:
  stx st_x
  sty st_y
  jsr st_decode
  tax
  lda st_dec, x
  ldx st_x
  ldy st_y
  ora #0
  rts
st_set:
  stx st_x
  sty st_y
  sta st_a
  tax
  lda st_enc, x
  jsr st_encode
  ldx st_x
  ldy st_y
  lda st_a
  rts

; The logic view: the board decoded into LOGIC_BOARD (canonical codes, $FF on the walls)
; for one search and wiped after it, so no plain copy outlives the search.
.macro logic_read off
  lda LOGIC_BOARD + off, x
.endmacro
logic_begin:
  save_axy
  jsr logic_end
  ldy #48
: ldx pad_of, y
  jsr cell_get
  sta LOGIC_BOARD, x
  dey
  bpl :-
  restore_axy
  rts
; Keeps A, X, Y and the flags.
logic_end:
  php
  pha
  txa
  pha
  lda #$FF
  ldx #PAD_SIZE - 1
: sta LOGIC_BOARD, x
  dex
  cpx #$FF
  bne :-
  pla
  tax
  pla
  plp
  rts

; A new game: the board in its buffer, filled, every cell empty, everything to be drawn.
st_clear:
  save_axy
.if ST_BUFS > 1 && ST_FLIP = 0
  lda GAMES_DONE
: cmp #ST_BUFS
  bcc :+
  sbc #ST_BUFS
  bcs :-
:
.else
  lda #0
.endif
  sta st_buf
  tax
  lda st_buf_lo, x
  sta ST_PTR
  lda st_buf_hi, x
  sta ST_PTR + 1
  lda #ST_FILL
  ldy #<(ST_SIZE - 1)
: sta (ST_PTR), y
  dey
  cpy #$FF
  bne :-
  ldy #48
  lda #0
: jsr st_set
  dey
  bpl :-
  jsr sh_clear
  restore_axy
  rts

; A move is about to be written: count it and, with ST_FLIP, move to the next buffer.
st_move_begin:
  inc st_moves
.if ST_FLIP
  save_axy
  ldx st_buf
  inx
  cpx #ST_BUFS
  bcc :+
  ldx #0
: stx st_buf
  lda st_buf_lo, x
  sta st_t0
  lda st_buf_hi, x
  sta st_t1
  ldy #<(ST_SIZE - 1)
: lda (ST_PTR), y
  sta (st_t0), y
  dey
  cpy #$FF
  bne :-
  lda st_t0
  sta ST_PTR
  lda st_t1
  sta ST_PTR + 1
  restore_axy
.endif
  rts

; The picked-up piece moves from `selected` to Y: its flag, and its look when that shows.
st_select:
  pha
  sty st_a
  ldy selected
  cpy #49
  bcs :+
  jsr st_high_off
  jsr sel_touch
: ldy st_a
  cpy #49
  bcs :+
  jsr st_high_on
  jsr sel_touch
: pla
  rts

.if LOOK_SELECT
sel_touch = st_touch
.else
sel_touch:
  rts
.endif

.if SHOWN_FORM = 1
; The screen copy is the kind's dirty flag: a cell without it shows its look.
st_shown_get:
  jsr st_dirty_test
  beq :+
  lda #$FF
  rts
: jmp cell_look

st_shown_set:
  pha
  jsr st_dirty_off
  pla
  rts

st_touch:
  cpy #49
  bcs :+
  pha
  jsr st_dirty_on
  pla
: rts

; Every cell to be drawn.
sh_clear:
  ldy #48
: jsr st_touch
  dey
  bpl :-
  rts
.endif

.if SHOWN_FORM = 2
; The look codes: a nibble per cell.
st_shown_get:
  stx st_x
  ldx sh_byte, y
  lda SH_BASE, x
  ldx sh_high, y
  beq :+
  lsr a
  lsr a
  lsr a
  lsr a
: and #$0F
  tax
  lda sh_look_of_code, x
  ldx st_x
  rts

st_shown_set:
  stx st_x
  sta st_t3
  tax
  lda sh_code_of_look, x
  ldx sh_high, y
  beq :+
  asl a
  asl a
  asl a
  asl a
: sta st_t2
  lda #$F0
  ldx sh_high, y
  beq :+
  lda #$0F
: ldx sh_byte, y
  and SH_BASE, x
  ora st_t2
  sta SH_BASE, x
  lda st_t3
  ldx st_x
  rts

; Every cell shown empty (the whole screen is drawn when a game starts).
sh_clear:
  lda sh_code_of_look
  asl a
  asl a
  asl a
  asl a
  ora sh_code_of_look
  ldx #24
: sta SH_BASE, x
  dex
  bpl :-
  rts

st_touch:
  rts
.endif
