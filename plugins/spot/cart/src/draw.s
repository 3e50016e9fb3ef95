; The play screen's board: cells of CELL_W x CELL_H tiles from tile (BOARD_X, BOARD_Y),
; CELL_GAP tiles apart, and the sprites (the side panel and the status line are in panel.s).
;
; The screen follows the board by itself: each frame the cells whose look (their state, and
; in some variants the hand or the picked-up piece drawn into them) differs from what the
; storage says is shown are redrawn, as many as the VRAM queue allows.

PITCH_X = CELL_W + CELL_GAP
PITCH_Y = CELL_H + CELL_GAP
CELL_TILES = CELL_W * CELL_H

; The attribute bytes a cell's quadrants fall in (up to four; $FF for none). PAL_MODE builds
; put cells on whole quadrants (an even number of tiles wide and high, from an even tile).
.macro attr_bytes k
  .repeat 49, c
    ax0 .set (BOARD_X + (c .mod 7) * PITCH_X) / 4
    ax1 .set (BOARD_X + (c .mod 7) * PITCH_X + CELL_W - 1) / 4
    ay0 .set (BOARD_Y + (c / 7) * PITCH_Y) / 4
    ay1 .set (BOARD_Y + (c / 7) * PITCH_Y + CELL_H - 1) / 4
    .if k = 0
      .byte ay0 * 8 + ax0
    .elseif k = 1 && ax1 <> ax0
      .byte ay0 * 8 + ax1
    .elseif k = 2 && ay1 <> ay0
      .byte ay1 * 8 + ax0
    .elseif k = 3 && ax1 <> ax0 && ay1 <> ay0
      .byte ay1 * 8 + ax1
    .else
      .byte $FF
    .endif
  .endrepeat
.endmacro
; Bytes a cell's redraw may queue: its tile rows and its attribute bytes.
.if BOARD_X .mod 4 = 0 && PITCH_X .mod 4 = 0 && CELL_W <= 4
  ATTR_ACROSS = 1
.else
  ATTR_ACROSS = 2
.endif
.if BOARD_Y .mod 4 = 0 && PITCH_Y .mod 4 = 0 && CELL_H <= 4
  ATTR_DOWN = 1
.else
  ATTR_DOWN = 2
.endif
CELL_VRAM = CELL_H * (CELL_W + 3) + PAL_MODE * 4 * ATTR_ACROSS * ATTR_DOWN + 4

.segment "RODATA"

cell_nt_lo:
  .repeat 49, c
    .byte <($2000 + (BOARD_Y + (c / 7) * PITCH_Y) * 32 + BOARD_X + (c .mod 7) * PITCH_X)
  .endrepeat
cell_nt_hi:
  .repeat 49, c
    .byte >($2000 + (BOARD_Y + (c / 7) * PITCH_Y) * 32 + BOARD_X + (c .mod 7) * PITCH_X)
  .endrepeat
cell_px_x:
  .repeat 49, c
    .byte (BOARD_X + (c .mod 7) * PITCH_X) * 8
  .endrepeat
cell_px_y:
  .repeat 49, c
    .byte (BOARD_Y + (c / 7) * PITCH_Y) * 8
  .endrepeat
.if PAL_MODE
cell_attr0: attr_bytes 0
cell_attr1: attr_bytes 1
cell_attr2: attr_bytes 2
cell_attr3: attr_bytes 3
.endif
look_start:             ; look -> its first tile in look_tiles
  .repeat 16, k
    .byte (k * CELL_TILES) & $FF
  .endrepeat
palette_fill:
  .byte $00, $55, $AA, $FF

.segment "CODE"

; A = the look of cell Y: its state (0-5), 6-11 with the hand drawn into it, 12-15 the
; picked-up piece of slot 1-4 drawn as picked up. Keeps X and Y.
cell_look:
  jsr cell_get
.if LOOK_CURSOR
  sta look_t
  lda CART_PHASE
  cmp #1
  bne @no_hand
  sty cursor_tmp + 1
  jsr cursor_cell
  tya
  ldy cursor_tmp + 1
  cmp cursor_tmp + 1
  bne @no_hand
  lda look_t
  clc
  adc #6
  rts
@no_hand:
  lda look_t
.endif
.if LOOK_SELECT
  cpy selected
  bne :+
  clc
  adc #11
: ora #0
.endif
  rts

; Draws cell Y as it should look and tells the storage so. Carry set when the queue is too
; full (nothing drawn). Keeps Y.
draw_cell:
  lda vram_len
  cmp #VRAM_LIMIT - CELL_VRAM
  bcc :+
  rts
: sty draw_cell_index
  jsr cell_look
  jsr shown_set
  tax
.if PAL_MODE
  lda look_palette, x
  sta t2
.endif
  lda look_start, x
  sta t3                ; index into look_tiles
  lda cell_nt_lo, y
  sta ptr2
  lda cell_nt_hi, y
  sta ptr2 + 1
  lda #CELL_H
  sta t1
@row:
  lda #CELL_W
  jsr vram_open
  ldy t3
  lda #CELL_W
  sta t0
: lda look_tiles, y
  sta VRAM_BUF, x
  iny
  inx
  dec t0
  bne :-
  sty t3
  jsr vram_close
  lda ptr2
  clc
  adc #32
  sta ptr2
  bcc :+
  inc ptr2 + 1
: dec t1
  bne @row
.if PAL_MODE
  jsr cell_palette
.endif
  ldy draw_cell_index
  clc
  rts

.if PAL_MODE
; Palette t2 for the quadrants of cell draw_cell_index, then its attribute bytes queued.
cell_palette:
  ldy draw_cell_index
  lda cell_px_y, y
  lsr a
  lsr a
  lsr a
  sta ptr               ; tile row
  lda #(CELL_H + 1) / 2
  sta t1
@quad_row:
  ldy draw_cell_index
  lda cell_px_x, y
  lsr a
  lsr a
  lsr a
  sta t0                ; tile column
  lda #(CELL_W + 1) / 2
  sta ptr + 1
@quad:
  lda t2
  ldx t0
  ldy ptr
  jsr set_quadrant
  inc t0
  inc t0
  dec ptr + 1
  bne @quad
  inc ptr
  inc ptr
  dec t1
  bne @quad_row
  ldy draw_cell_index
  lda cell_attr0, y
  jsr queue_attr_a
  lda cell_attr1, y
  jsr queue_attr_a
  lda cell_attr2, y
  jsr queue_attr_a
  lda cell_attr3, y
  ; falls through
; Queues attribute byte A of the shadow unless A is $FF. Keeps Y.
queue_attr_a:
  cmp #$FF
  beq :+
  tax
  sty t0
  jsr queue_attribute
  ldy t0
: rts
.endif

; Redraws up to two cells that changed.
draw_board_changes:
  lda #2
  sta t0
  ldy #48
@cell:
  jsr shown_get
  sta look_t2
  jsr cell_look
  cmp look_t2
  beq @next
  lda t0
  pha
  jsr draw_cell
  pla
  sta t0
  bcs @done
  dec t0
  beq @done
@next:
  dey
  bpl @cell
@done:
  rts

; Sprites: the hand on the cursor cell and marks round the picked-up cell (each a list of
; sprites placed relative to the cell's top left), and the ornament.
place_sprites:
  lda #$FF
  ldx #0
: sta OAM, x
  inx
  inx
  inx
  inx
  cpx #40
  bne :-
.if CYCLE
  jsr place_ornament
.endif
  lda CART_PHASE
  cmp #1
  beq :+
  rts
:
.if CURSOR_SCRAMBLE
  jmp @marks            ; no hand on screen
.endif
  jsr cursor_cell
  ldx #0
  lda #<hand_sprites
  sta ptr
  lda #>hand_sprites
  sta ptr + 1
  lda #HAND_SPRITES
  jsr put_sprites
@marks:
  ldy selected
  bmi @done
  ldx #16               ; OAM entries 4-7
  lda #<mark_sprites
  sta ptr
  lda #>mark_sprites
  sta ptr + 1
  lda #MARK_SPRITES
  jsr put_sprites
@done:
  rts

; Puts A sprites of the list at (ptr) (dy, tile, attributes, dx each) on cell Y from OAM
; index X on; t0 / t1 hold the cell's pixel position meanwhile.
put_sprites:
  sta t2
  beq @done
  lda cell_px_x, y
  sta t0
  lda cell_px_y, y
  sta t1
  ldy #0
@sprite:
  lda (ptr), y
  clc
  adc t1
  sta OAM, x
  iny
  lda (ptr), y
  sta OAM + 1, x
  iny
  lda (ptr), y
  sta OAM + 2, x
  iny
  lda (ptr), y
  clc
  adc t0
  sta OAM + 3, x
  iny
  inx
  inx
  inx
  inx
  dec t2
  bne @sprite
@done:
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
.if CYCLE
  jsr cycle_colour
.endif
  jmp place_sprites
