; STORAGE 1: a byte per cell, or a record of ST_STEP bytes per cell with the cell's byte at
; ST_FIELD and, when ST_AGE is not $FF, at ST_AGE the number of moves made when the cell
; last changed; ST_STRIDE bytes from row to row, ST_PAD border cells round the board, in
; orientation ST_ORIENT (as orient_cell). The state sits in the bits ST_VAL_MASK of the
; cell's byte: one of six codes ST_CODE_0-5, or with ST_OWNER a kind (ST_KIND_EMPTY,
; _PIECE, _BLOCKED in ST_KIND_MASK) and an owner (ST_OWNER_0-3 in ST_OWNER_MASK) that an
; emptied cell keeps. Flags ride in the other bits: ST_DIRTY (changed since drawn, the
; screen copy of SHOWN_FORM 1), ST_HIGH (the picked-up piece), ST_PHASE_MASK (counts up
; while a captured piece waits to turn; ST_PHASE_ONE is its lowest bit). 0 = no such flag.

default ST_STEP, 1
default ST_FIELD, 0
default ST_PAD, 0
default ST_AGE, $FF
default ST_OWNER, 0
default ST_DIRTY, 0
default ST_HIGH, 0
default ST_PHASE_MASK, 0
default ST_PHASE_ONE, 0

.segment "RODATA"

st_off:                 ; cell -> its byte in the buffer
  .repeat 49, c
    orient_cell ST_ORIENT, c / 7, c .mod 7
    .byte (orow + ST_PAD) * ST_STRIDE + (ocol + ST_PAD) * ST_STEP + ST_FIELD
  .endrepeat

.if ST_OWNER
st_enc:                 ; canonical -> the state bits
  .byte ST_KIND_EMPTY, ST_KIND_PIECE | ST_OWNER_0, ST_KIND_PIECE | ST_OWNER_1
  .byte ST_KIND_PIECE | ST_OWNER_2, ST_KIND_PIECE | ST_OWNER_3, ST_KIND_BLOCKED
st_keep:                ; canonical -> the bits a write keeps (an emptied cell keeps its owner)
  .byte <~(ST_KIND_MASK | ST_PHASE_MASK)
  .repeat 5
    .byte <~(ST_VAL_MASK | ST_PHASE_MASK)
  .endrepeat
st_dec:                 ; the state bits -> canonical, $FF for none
  .repeat 256, v
    .if (v & ST_KIND_MASK) = ST_KIND_EMPTY
      .byte 0
    .elseif (v & ST_KIND_MASK) = ST_KIND_BLOCKED
      .byte 5
    .elseif (v & ST_KIND_MASK) <> ST_KIND_PIECE
      .byte $FF
    .elseif (v & ST_OWNER_MASK) = ST_OWNER_0
      .byte 1
    .elseif (v & ST_OWNER_MASK) = ST_OWNER_1
      .byte 2
    .elseif (v & ST_OWNER_MASK) = ST_OWNER_2
      .byte 3
    .else
      .byte 4
    .endif
  .endrepeat
.else
st_keep:
  .repeat 6
    .byte <~(ST_VAL_MASK | ST_PHASE_MASK)
  .endrepeat
  code_tables st_enc, st_dec, "ST_CODE_%d", 6, 256, ST_VAL_MASK
.endif

.segment "CODE"

; A = cell Y's state bits (st_get decodes them).
st_decode:
  lda st_off, y
  tay
  lda (ST_PTR), y
  and #ST_VAL_MASK
  rts

; Cell Y = state bits A of canonical code X (st_set looks them up).
st_encode:
  sta st_t2
  lda st_keep, x
  sta st_t3
  lda st_off, y
  tay
  lda (ST_PTR), y
  and st_t3
  ora st_t2
  ora #ST_DIRTY
  sta (ST_PTR), y
.if ST_AGE <> $FF
  tya
  clc
  adc #<(ST_AGE - ST_FIELD)
  tay
  lda st_moves
  sta (ST_PTR), y
.endif
  rts

; Sets (st_bits_on) or clears (st_bits_off) the bits A of cell Y's byte. Keeps X and Y.
st_bits_off:
  eor #$FF
  sta st_t2
  sty st_y
  lda st_off, y
  tay
  lda (ST_PTR), y
  and st_t2
  jmp st_bits_put
st_bits_on:
  sta st_t2
  sty st_y
  lda st_off, y
  tay
  lda (ST_PTR), y
  ora st_t2
st_bits_put:
  sta (ST_PTR), y
  ldy st_y
  rts

st_high_on:
  lda #ST_HIGH
  jmp st_bits_on
st_high_off:
  lda #ST_HIGH
  jmp st_bits_off

; A captured cell waits to turn: its phase starts at one.
st_pending:
.if ST_PHASE_MASK
  pha
  lda #ST_PHASE_MASK
  jsr st_bits_off
  lda #ST_PHASE_ONE
  jsr st_bits_on
  pla
.endif
  rts

; Every capture still waiting counts one phase further (1, 2, ... back to 1).
st_pending_tick:
.if ST_PHASE_MASK
  save_axy
  ldx flip_count
@cell:
  dex
  bmi @done
  ldy FLIP_CELLS, x
  lda st_off, y
  tay
  lda (ST_PTR), y
  sta st_t3
  and #ST_PHASE_MASK
  clc
  adc #ST_PHASE_ONE
  and #ST_PHASE_MASK
  bne :+
  lda #ST_PHASE_ONE
: sta st_t2
  lda st_t3
  and #<~ST_PHASE_MASK
  ora st_t2
  sta (ST_PTR), y
  jmp @cell
@done:
  restore_axy
.endif
  rts

; The dirty flag of cell Y (SHOWN_FORM 1): set, cleared, or A non-zero when set.
st_dirty_on:
  lda #ST_DIRTY
  jmp st_bits_on
st_dirty_off:
  lda #ST_DIRTY
  jmp st_bits_off
st_dirty_test:
  sty st_y
  lda st_off, y
  tay
  lda (ST_PTR), y
  ldy st_y
  and #ST_DIRTY
  rts
