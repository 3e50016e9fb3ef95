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
st_dec:                 ; the planes hold canonical codes as they are
st_enc:
  .byte 0, 1, 2, 3, 4, 5
pl_base:                ; canonical - 1 -> its plane
  .byte PL_BASE_1, PL_BASE_2, PL_BASE_3, PL_BASE_4, PL_BASE_5

.segment "CODE"

; A = the code of cell Y: the plane its bit is set in.
st_decode:
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
  rts
@found:
  inx
  txa
  rts

; Cell Y = code A: its bit cleared in every plane, then set in A's.
st_encode:
  sty st_t3
  tax
  lda pl_k, y
  sta st_t1
  lda pl_bit, y
  sta st_t0
  eor #$FF
  sta st_t2
  txa
  pha
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
  pla
  tax
  beq @flags
  lda st_t1
  clc
  adc pl_base - 1, x
  tay
  lda (ST_PTR), y
  ora st_t0
  sta (ST_PTR), y
@flags:
  ldy st_t3
  lda #PL_DIRTY
  jsr pl_on
  lda #PL_TURN          ; a piece that turned waits no more
  jmp pl_off

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

; The dirty plane's bit of cell Y (SHOWN_FORM 1): set, cleared, or A non-zero when set.
st_dirty_on:
  lda #PL_DIRTY
  jmp pl_on
st_dirty_off:
  lda #PL_DIRTY
  jmp pl_off
st_dirty_test:
  lda #PL_DIRTY
  sty st_y
  sta st_t3
  jsr pl_byte
  ldy st_y
  and pl_bit, y
  rts
