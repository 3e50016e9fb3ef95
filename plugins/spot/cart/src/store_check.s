; CHECK builds: every storage routine is wrapped. A plain shadow of the board (CHECK_BOARD)
; and of the looks drawn (CHECK_SHOWN) follow every change; after each change the whole
; storage is decoded and compared with them, and every read is compared too. A mismatch
; is reported on the test port (PORT_FAIL) and the cart stops: the proof that a variant's
; storage keeps the game the plain build plays.

.segment "CODE"

cell_get:
  jsr st_get
  cmp CHECK_BOARD, y
  bne check_read_failed
  ora #0                ; flags follow A, as callers expect
  rts

check_read_failed:
  sta ck_stored
  lda #0
  sta ck_kind
  sty ck_cell
  jmp check_failed

cell_set:
  jsr st_set
  sta CHECK_BOARD, y
  jmp check_all

shown_get = st_shown_get     ; checked where it matters: in check_all

shown_set:
  jsr st_shown_set
  sta CHECK_SHOWN, y
  jmp check_all

store_clear:
  jsr st_clear
  pha
  tya
  pha
  ldy #48
: lda #0
  sta CHECK_BOARD, y
  jsr st_shown_get      ; whatever the screen copy says now is its starting point
  sta CHECK_SHOWN, y
  dey
  bpl :-
  pla
  tay
  pla
  jmp check_all

store_move_begin:
  jsr st_move_begin
  jmp check_all

store_select:
  jsr st_select
  jmp check_all

store_touch:
  jsr st_touch
  jmp check_all

store_pending:
  jsr st_pending
  jmp check_all

store_pending_tick:
  jsr st_pending_tick
  jmp check_all

; Decodes every cell and its screen copy and compares them with the shadows. Keeps A, X, Y.
check_all:
  sta ck_a
  stx ck_x
  sty ck_y
  ldy #48
@cell:
  jsr st_get
  cmp CHECK_BOARD, y
  bne @board
  jsr st_shown_get
  cmp #$FF              ; "draw it again" is always honest
  beq @next
  cmp CHECK_SHOWN, y
  bne @shown
@next:
  dey
  bpl @cell
  lda ck_a
  ldx ck_x
  ldy ck_y
  rts
@board:
  ldx #0
  beq @fail
@shown:
  ldx #1
@fail:
  stx ck_kind
  sta ck_stored
  sty ck_cell
  jmp check_failed

; Reports the mismatch on the test port and stops: no NMI, no more frames of play.
check_failed:
  sei
  lda #0
  sta PPUCTRL
  lda #PORT_FAIL
  sta PORT
  lda ck_kind
  sta PORT
  ldy ck_cell
  sty PORT
  lda ck_stored
  sta PORT
  lda CHECK_BOARD, y
  ldx ck_kind
  beq :+
  lda CHECK_SHOWN, y
: sta PORT
: jmp :-
