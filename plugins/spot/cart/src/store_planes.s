; STORAGE 3: bit planes. The pieces of each slot and the blocked cells are each a 49-bit
; board of PL_BYTES bytes at offset PL_BASE_1-PL_BASE_5 (canonical 1-5) of the buffer; an
; empty cell has no bit set. Byte k of a plane lies k * PL_STRIDE bytes on (1: planes one
; after another; the plane count: interleaved). Cell (r, c), oriented by ST_ORIENT, is bit
; ocol + PL_SHIFT of byte orow (PL_LINEAR 0) or bit i mod 8 of byte i / 8 with i = orow * 7
; + ocol (PL_LINEAR 1); PL_REVERSE numbers the bits from bit 7 down. More planes of the same
; shape, when their offset is not $FF: PL_DIRTY (changed since drawn: SHOWN_FORM 1),
; PL_HIGH (the picked-up piece) and PL_TURN (a captured piece waiting to turn).

default PL_DIRTY, $FF
default PL_HIGH, $FF
default PL_TURN, $FF
default PL_SHIFT, 0

.segment "RODATA"

pl_k:                   ; cell -> offset of its byte within a plane
  .repeat 49, c
    orient_cell ST_ORIENT, c / 7, c .mod 7
    .if PL_LINEAR
      .byte (orow * 7 + ocol) / 8 * PL_STRIDE
    .else
      .byte orow * PL_STRIDE
    .endif
  .endrepeat
pl_bit:                 ; cell -> its bit
  .repeat 49, c
    orient_cell ST_ORIENT, c / 7, c .mod 7
    .if PL_LINEAR
      pbit .set (orow * 7 + ocol) .mod 8
    .else
      pbit .set ocol + PL_SHIFT
    .endif
    .if PL_REVERSE
      pbit .set 7 - pbit
    .endif
    .byte 1 << pbit
  .endrepeat
pl_base:                ; canonical - 1 -> its plane
  .byte PL_BASE_1, PL_BASE_2, PL_BASE_3, PL_BASE_4, PL_BASE_5

.segment "CODE"

st_get:
  stx st_x
  sty st_y
  lda pl_bit, y
  sta st_t0
  lda pl_k, y
  sta st_t1
  ldx #4
@plane:
  lda st_t1
  clc
  adc pl_base, x
  tay
  lda (ST_PTR), y
  and st_t0
  bne @found
  dex
  bpl @plane
  lda #0
  beq @done
@found:
  inx
  txa
@done:
  ldx st_x
  ldy st_y
  ora #0                ; flags follow A
  rts

st_set:
  stx st_x
  sty st_y
  sta st_a
  lda pl_k, y
  sta st_t1
  lda pl_bit, y
  sta st_t0
  eor #$FF
  sta st_t2
  ldx #4
@clear:
  lda st_t1
  clc
  adc pl_base, x
  tay
  lda (ST_PTR), y
  and st_t2
  sta (ST_PTR), y
  dex
  bpl @clear
  ldx st_a
  beq @flags
  lda st_t1
  clc
  adc pl_base - 1, x
  tay
  lda (ST_PTR), y
  ora st_t0
  sta (ST_PTR), y
@flags:
  ldy st_y
  lda #PL_DIRTY
  jsr pl_on
  lda #PL_TURN          ; a piece that turned waits no more
  jsr pl_off
  ldx st_x
  lda st_a
  rts

; Sets (pl_on) or clears (pl_off) cell Y's bit in the plane at offset A ($FF: none). Keeps
; X and Y.
pl_off:
  cmp #$FF
  beq pl_none
  sty st_y
  sta st_t3
  lda pl_bit, y
  eor #$FF
  sta st_t2
  jsr pl_byte
  and st_t2
  jmp pl_put
pl_on:
  cmp #$FF
  beq pl_none
  sty st_y
  sta st_t3
  lda pl_bit, y
  sta st_t2
  jsr pl_byte
  ora st_t2
pl_put:
  sta (ST_PTR), y
  ldy st_y
pl_none:
  rts
; A = the byte of plane st_t3 holding cell Y; Y = its offset.
pl_byte:
  lda pl_k, y
  clc
  adc st_t3
  tay
  lda (ST_PTR), y
  rts

st_high_on:
  lda #PL_HIGH
  jmp pl_on
st_high_off:
  lda #PL_HIGH
  jmp pl_off

st_pending:
  pha
  lda #PL_TURN
  jsr pl_on
  pla
  rts

; The turning plane holds no counter: nothing moves on while captures wait.
st_pending_tick:
  rts

.if SHOWN_FORM = 1
st_shown_get:
  lda #PL_DIRTY
  sty st_y
  sta st_t3
  jsr pl_byte
  ldy st_y
  and pl_bit, y
  beq :+
  lda #$FF
  rts
: jmp cell_look

st_shown_set:
  pha
  lda #PL_DIRTY
  jsr pl_off
  pla
  rts

st_touch:
  cpy #49
  bcs :+
  pha
  lda #PL_DIRTY
  jsr pl_on
  pla
: rts

sh_clear:
  ldy #48
: jsr st_touch
  dey
  bpl :-
  rts
.endif
