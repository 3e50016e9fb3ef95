; STORAGE 2: every cell a field of ST_BITS bits (3 or 4) packed into bytes. Cell (r, c),
; oriented by ST_ORIENT, is field number orow * ST_ROWLEN + ocol (ST_ROWLEN 7, or 8 with a
; spare field per row); fields run from bit 0 of byte 0 upwards (ST_MSB 0, a 3-bit field
; may straddle two bytes) or from bit 7 of byte 0 downwards (ST_MSB 1). A field holds one of
; six codes ST_CODE_0-5. Reads and writes take the two bytes the field touches as a word.

default ST_MSB, 0

ST_FIELD_MASK = (1 << ST_BITS) - 1

.segment "RODATA"

st_off:                 ; cell -> the first byte its field touches
  .repeat 49, c
    orient_cell ST_ORIENT, c / 7, c .mod 7
    .byte (orow * ST_ROWLEN + ocol) * ST_BITS / 8
  .endrepeat
st_sh:                  ; cell -> how far right its field sits in that word
  .repeat 49, c
    orient_cell ST_ORIENT, c / 7, c .mod 7
    fbit .set ((orow * ST_ROWLEN + ocol) * ST_BITS) .mod 8
    .if ST_MSB
      .byte 16 - fbit - ST_BITS
    .else
      .byte fbit
    .endif
  .endrepeat
  code_tables st_enc, st_dec, "ST_CODE_%d", 6, 16, ST_FIELD_MASK

.segment "CODE"

; The word holding cell Y's field into st_t0 (low) / st_t1 (high); Y = its first byte.
.macro read_word
  lda st_off, y
  tay
  lda (ST_PTR), y
  .if ST_MSB
    sta st_t1
  .else
    sta st_t0
  .endif
  iny
  lda (ST_PTR), y
  .if ST_MSB
    sta st_t0
  .else
    sta st_t1
  .endif
  dey
.endmacro

; A = cell Y's field (st_get decodes it).
st_decode:
  ldx st_sh, y
  read_word
  txa
  beq @shifted
: lsr st_t1
  ror st_t0
  dex
  bne :-
@shifted:
  lda st_t0
  and #ST_FIELD_MASK
  rts

; Cell Y = field value A (st_set looks it up).
st_encode:
  sta st_t0             ; the code ...
  lda #0
  sta st_t1
  sta st_t3
  lda #ST_FIELD_MASK
  sta st_t2             ; ... and the field's mask, moved into place
  ldx st_sh, y
  beq @placed
: asl st_t0
  rol st_t1
  asl st_t2
  rol st_t3
  dex
  bne :-
@placed:
  lda st_off, y
  tay
.if ST_MSB
  lda st_t3
  eor #$FF
  and (ST_PTR), y
  ora st_t1
  sta (ST_PTR), y
  iny
  lda st_t2
  eor #$FF
  and (ST_PTR), y
  ora st_t0
  sta (ST_PTR), y
.else
  lda st_t2
  eor #$FF
  and (ST_PTR), y
  ora st_t0
  sta (ST_PTR), y
  iny
  lda st_t3
  eor #$FF
  and (ST_PTR), y
  ora st_t1
  sta (ST_PTR), y
.endif
  rts

; No flags in so small a field.
st_high_on:
st_high_off:
st_pending:
st_pending_tick:
  rts
