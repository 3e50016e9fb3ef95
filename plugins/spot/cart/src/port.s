; The test port: reports for test harnesses (never for players) written as a byte stream to
; PORT, an address the MMC1 board decodes to nothing, so the writes change nothing on the
; machine and a harness sees them by watching CPU writes there. Each report is a tag byte
; and a payload of fixed length (cart/README.md documents them):
;   PORT_GAME  layout low, layout high, first slot, the four slots' settings
;   PORT_BOARD the 49 cells in canonical codes (read through the storage module), slot to move
;   PORT_OVER  winning slot ($FF draw), the four piece counts
;   PORT_FAIL  0 board / 1 screen copy, cell, stored, shadow (CHECK builds; the cart halts)

PORT_GAME  = $01
PORT_BOARD = $02
PORT_OVER  = $03
PORT_FAIL  = $04

.segment "CODE"

; A game has started: its layout, first mover and seats.
port_game:
  lda #PORT_GAME
  sta PORT
  lda LAYOUT_NUMBER
  sta PORT
  lda LAYOUT_NUMBER + 1
  sta PORT
  lda FIRST_MOVER
  sta PORT
  ldx #0
: lda SETTINGS, x
  sta PORT
  inx
  cpx #4
  bne :-
  rts

; The board and the slot to move: whenever a turn begins (a move or a pass is next) and when
; the game ends.
port_board:
  lda #PORT_BOARD
  sta PORT
  ldy #0
: jsr cell_get
  sta PORT
  iny
  cpy #49
  bne :-
  jsr slot_to_move
  stx PORT
  rts

; The game is over: the winner and the counts.
port_over:
  lda #PORT_OVER
  sta PORT
  lda WINNER
  sta PORT
  ldx #0
: lda COUNTS, x
  sta PORT
  inx
  cpx #4
  bne :-
  rts
