; The play screen's board: cells of 4 x 4 tiles from column 4, and the sprites (the side
; panel and the status line are in panel.s).
;
; The screen follows the RAM board by itself: each frame the cells whose code differs
; from what is shown are redrawn, as many as the VRAM queue allows.


.segment "RODATA"

cell_nt_lo:
  .repeat 49, c
    .byte <($2000 + (c / 7) * 128 + 4 + (c .mod 7) * 4)
  .endrepeat
cell_nt_hi:
  .repeat 49, c
    .byte >($2000 + (c / 7) * 128 + 4 + (c .mod 7) * 4)
  .endrepeat
tile_of_code:           ; by kind_of_code
  .byte TILE_EMPTY, TILE_PIECE, TILE_PIECE, TILE_PIECE, TILE_PIECE, TILE_BLOCKED
palette_of_code:
  .byte 0, 0, 1, 2, 3, 0
palette_fill:
  .byte $00, $55, $AA, $FF

.segment "CODE"

; Draws cell Y as BOARD shows it and marks it shown. Carry set when the queue is too full.
draw_cell:
  lda vram_len
  cmp #VRAM_LIMIT - 36
  bcc :+
  rts
: sty draw_cell_index
  ldx pub_of, y
  lda BOARD, x
  sta SHOWN, x
  tax
  lda kind_of_code, x
  tax
  lda tile_of_code, x
  sta t3
  lda palette_of_code, x
  sta t2
  lda cell_nt_lo, y
  sta ptr2
  lda cell_nt_hi, y
  sta ptr2 + 1
  lda #4
  sta t1
@row:
  lda #4
  jsr vram_open
  ldy #4
: lda t3
  sta VRAM_BUF, x
  inc t3
  inx
  dey
  bne :-
  jsr vram_close
  lda ptr2
  clc
  adc #32
  sta ptr2
  bcc :+
  inc ptr2 + 1
: dec t1
  bne @row
  ldy draw_cell_index   ; attribute byte row * 8 + column + 1: the whole cell
  lda row_of, y
  asl a
  asl a
  asl a
  sec
  adc col_of, y
  tax
  ldy t2
  lda palette_fill, y
  sta ATTR_SHADOW, x
  jsr queue_attribute
  ldy draw_cell_index
  clc
  rts

; Redraws up to two cells that changed.
draw_board_changes:
  lda #2
  sta t0
  ldy #48
@cell:
  ldx pub_of, y
  lda BOARD, x
  cmp SHOWN, x
  beq @next
  jsr draw_cell
  bcs @done
  dec t0
  beq @done
@next:
  dey
  bpl @cell
@done:
  rts

; Sprites: the hand on the cursor cell and corners round the picked-up cell.
place_sprites:
  lda #$FF
  ldx #0
: sta OAM, x
  inx
  inx
  inx
  inx
  cpx #32
  bne :-
  lda CART_PHASE
  cmp #1
  beq :+
  rts
:
.if CURSOR_SCRAMBLE
  jmp @corners          ; no hand on screen
.endif
  jsr cursor_cell
  jsr cell_pixels       ; t0 = x, t1 = y of the cell
  ldx #0
  lda t1
  clc
  adc #11               ; OAM y is one line early
  sta OAM + 0
  sta OAM + 4
  adc #8
  sta OAM + 8
  sta OAM + 12
  lda t0
  clc
  adc #10
  sta OAM + 3
  sta OAM + 11
  adc #8
  sta OAM + 7
  sta OAM + 15
  lda #SPR_HAND
  sta OAM + 1
  lda #SPR_HAND + 1
  sta OAM + 5
  lda #SPR_HAND + 2
  sta OAM + 9
  lda #SPR_HAND + 3
  sta OAM + 13
  lda #0
  sta OAM + 2
  sta OAM + 6
  sta OAM + 10
  sta OAM + 14
@corners:
  ldy selected
  bmi @done
  jsr cell_pixels
  ldx #16               ; OAM entries 4-7
  ldy #0
@corner:
  lda t1
  clc
  adc corner_dy, y
  sta OAM, x
  lda #SPR_CORNER
  sta OAM + 1, x
  lda corner_flags, y
  sta OAM + 2, x
  lda t0
  clc
  adc corner_dx, y
  sta OAM + 3, x
  inx
  inx
  inx
  inx
  iny
  cpy #4
  bne @corner
@done:
  rts

; Pixel position of cell Y: t0 = x, t1 = y.
cell_pixels:
  lda col_of, y
  asl a
  asl a
  asl a
  asl a
  asl a
  clc
  adc #32
  sta t0
  lda row_of, y
  asl a
  asl a
  asl a
  asl a
  asl a
  sta t1
  rts

; Points ptr2 at nametable row A, column 0.
row_address:
  sta ptr2
  lda #0
  .repeat 5
    asl ptr2
    rol a
  .endrepeat
  ora #$20
  sta ptr2 + 1
  rts

; Everything the play screen redraws each frame.
draw_play_frame:
  jsr draw_status
  jsr draw_panel_changes
  jsr draw_board_changes
  jmp place_sprites

.segment "RODATA"
; The selection corners: top left, top right, bottom left, bottom right (flipped copies of
; one tile, sprite palette 1).
corner_dy:    .byte 0, 0, 22, 22
corner_flags: .byte $01, $41, $81, $C1
corner_dx:    .byte 1, 24, 1, 24
