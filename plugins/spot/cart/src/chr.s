; Tile art (drawn for this cartridge) and the routine that copies it into CHR RAM.
;
; Background pattern table ($0000):
;   $20-$5F  font, light grey on black (tile = ASCII code)
;   $60-$6F  empty cell, 4 x 4 tiles      $70-$7F  piece (colour 3 = the player's colour)
;   $80-$8F  blocked cell                 $90-$93  small piece for the side panel
;   $A0-$DF  font in the player's colour (tile = ASCII code + $80)
; Sprite pattern table ($1000): $00-$03 the hand cursor, $04 a selection corner.
; A WIDE_ART variant replaces the cells, the icon and the sprites with art.inc (drawn by
; art.awk into tiles $00-$1F, $60-$9F and $E0-$FF, with the same tables as below).

COLOUR_TEXT  = $80      ; added to an ASCII code: the player-coloured font

.segment "RODATA"

.if WIDE_ART
  .include "art.inc"
.else
TILE_EMPTY   = $60
TILE_PIECE   = $70
TILE_BLOCKED = $80
TILE_ICON    = $90
SPR_HAND     = $00
SPR_CORNER   = $04
SPR_ORNAMENT = $05

; The background art's pieces: (PPU address high byte, tiles, data) each, then $FF.
bg_art_chunks:
  .byte $06, (cell_art_end - cell_art) / 16
  .word cell_art
  .byte $FF
; Each look's tiles, row by row (looks 0-5: empty, the four players, blocked).
look_tiles:
  .repeat 6, k
    .repeat 16, i
      .byte (k = 0) * TILE_EMPTY + (k >= 1 && k <= 4) * TILE_PIECE + (k = 5) * TILE_BLOCKED + i
    .endrepeat
  .endrepeat
look_palette:
  .byte 0, 0, 1, 2, 3, 0
; Sprites placed on a cell: y offset, tile, attributes, x offset.
HAND_SPRITES = 4
hand_sprites:
  .byte 11, SPR_HAND + 0, 0, 10
  .byte 11, SPR_HAND + 1, 0, 18
  .byte 19, SPR_HAND + 2, 0, 10
  .byte 19, SPR_HAND + 3, 0, 18
MARK_SPRITES = 4
mark_sprites:           ; the selection corners: flipped copies of one tile, palette 1
  .byte 0, SPR_CORNER, $01, 1
  .byte 0, SPR_CORNER, $41, 24
  .byte 22, SPR_CORNER, $81, 1
  .byte 22, SPR_CORNER, $C1, 24

cell_art:
; empty
art_band \
    "2222222222222222222222222222222.", \
    "2111111111111111111111111111111.", \
    "2111111111111111111111111111111.", \
    "2111111111111111111111111111111.", \
    "2111111111111111111111111111111.", \
    "2111111111111......111111111111.", \
    "21111111111....11....1111111111.", \
    "211111111...11111111...11111111."
art_band \
    "21111111..111111111111..1111111.", \
    "2111111..11111111111111..111111.", \
    "2111111.1111111111111111.111111.", \
    "211111..1111111111111111..11111.", \
    "211111.111111111111111111.11111.", \
    "21111..111111111111111111..1111.", \
    "21111..111111111111111111..1111.", \
    "21111.11111111111111111111.1111."
art_band \
    "21111.11111111111111111111.1111.", \
    "21111..111111111111111111..1111.", \
    "21111..111111111111111111..1111.", \
    "211111.111111111111111111.11111.", \
    "211111..1111111111111111..11111.", \
    "2111111.1111111111111111.111111.", \
    "2111111..11111111111111..111111.", \
    "21111111..111111111111..1111111."
art_band \
    "211111111...11111111...11111111.", \
    "21111111111....11....1111111111.", \
    "2111111111111......111111111111.", \
    "2111111111111111111111111111111.", \
    "2111111111111111111111111111111.", \
    "2111111111111111111111111111111.", \
    "2111111111111111111111111111111.", \
    "................................"
; piece
art_band \
    "2222222222222222222222222222222.", \
    "2111111111111111111111111111111.", \
    "2111111111111111111111111111111.", \
    "2111111111111111111111111111111.", \
    "2111111111111......111111111111.", \
    "2111111111.....33.....111111111.", \
    "211111111..3333333333..11111111.", \
    "21111111..322233333333..1111111."
art_band \
    "2111111..32233333333333..111111.", \
    "211111..3223333333333333..11111.", \
    "21111..322333333333333333..1111.", \
    "21111.33223..333333..33333.1111.", \
    "21111.33233.2333333.233333.1111.", \
    "2111..33333..333333..33333..111.", \
    "2111..33333..333333..33333..111.", \
    "2111.333333..333333..333333.111."
art_band \
    "2111.3333333333333333333333.111.", \
    "2111..33333333333333333333..111.", \
    "2111..33333333333333333333..111.", \
    "21111.33333333333333333333.1111.", \
    "21111.33333333333333333333.1111.", \
    "21111..333333333333333333..1111.", \
    "211111..3333333333333333..11111.", \
    "2111111..33333333333333..111111."
art_band \
    "21111111..333333333333..1111111.", \
    "211111111..3333333333..11111111.", \
    "2111111111.....33.....111111111.", \
    "2111111111111......111111111111.", \
    "2111111111111111111111111111111.", \
    "2111111111111111111111111111111.", \
    "2111111111111111111111111111111.", \
    "................................"
; blocked
art_band \
    "222222222222222.222222222222222.", \
    "211111111111111.211111111111111.", \
    "211111111111111.211111111111111.", \
    "21111.111111111.211111111111111.", \
    "211111.11111111.211111111111111.", \
    "211111111111111.211111111111111.", \
    "211111111111111.211111111111111.", \
    "................................"
art_band \
    "2222222.222222222222222.2222222.", \
    "1111111.211111111111111.2111111.", \
    "1111111.211111111111111.2111111.", \
    "1111111.2111.1111111111.2111111.", \
    "1111111.211111111111.11.2111111.", \
    "1111111.211111111111111.2111111.", \
    "1111111.211111111111111.2111111.", \
    "................................"
art_band \
    "22222222222.222222222222222.222.", \
    "11111111111.211111111111111.211.", \
    "11111111111.211111111111111.211.", \
    "111111111.1.211111111111111.211.", \
    "1111111111..211111111111111.211.", \
    "11111111111.211111111111111.211.", \
    "11111111111.211111111111111.211.", \
    "................................"
art_band \
    "222.222222222222222.22222222222.", \
    "111.211111111111111.21111111111.", \
    "111.211111111111111.21111111111.", \
    "111.211111111111111.211111.1111.", \
    "111.211111111111111.21111111111.", \
    "111.211111111111111.21111111111.", \
    "111.211111111111111.21111111111.", \
    "................................"
; icon
art_band \
    "................", \
    "................", \
    ".....333333.....", \
    "....33333333....", \
    "...3322333333...", \
    "..332233333333..", \
    "..332.3333.333..", \
    "..333.3333.333.."
art_band \
    "..333.3333.333..", \
    "..333333333333..", \
    "..333333333333..", \
    "...3333333333...", \
    "....33333333....", \
    ".....333333.....", \
    "................", \
    "................"
cell_art_end:

sprite_art:
; hand cursor (sprite tiles 0-3)
art_band \
    "......11........", \
    ".....1221.......", \
    ".....1221.......", \
    ".....1221.......", \
    ".....122111111..", \
    ".....1221221221.", \
    ".111.1221221221.", \
    "1222112222222221"
art_band \
    "1222212222222221", \
    ".122222222222221", \
    "..12222222222221", \
    "...1222222222221", \
    "....12222222221.", \
    ".....122222221..", \
    ".....13333331...", \
    ".....11111111..."
; selection corner (top left; flipped for the others)
art_band \
    "3333333.", \
    "3333333.", \
    "33......", \
    "33......", \
    "33......", \
    "33......", \
    "33......", \
    "........"
sprite_art_end:
.endif

.segment "CODE"

; Copies `t0` tiles of 16 bytes from (ptr) to the PPU address already set.
copy_tiles:
  ldy #0
@tile:
  ldx #16
@byte:
  lda (ptr), y
  sta PPUDATA
  iny
  bne :+
  inc ptr + 1
: dex
  bne @byte
  dec t0
  bne @tile
  rts

; Writes the 64 font glyphs at the PPU address already set. `t1` says which planes get
; the glyph (bit 0 plane 0, bit 1 plane 1); the other plane stays clear.
copy_font:
  lda #<font
  sta ptr
  lda #>font
  sta ptr + 1
  lda #64
  sta t0
@glyph:
  lda #1
  sta t2                ; plane bit: 1, then 2
@plane:
  ldy #0
@row:
  lda t2
  and t1
  beq @put              ; A = 0: plane left clear
  lda (ptr), y
@put:
  sta PPUDATA
  iny
  cpy #8
  bne @row
  asl t2
  lda t2
  cmp #4
  bne @plane
  lda ptr
  clc
  adc #8
  sta ptr
  bcc :+
  inc ptr + 1
: dec t0
  bne @glyph
  rts

; Sets the PPU address to A (high) and X (low).
set_ppu_addr:
  bit PPUSTATUS
  sta PPUADDR
  stx PPUADDR
  rts

; Fills CHR RAM with the art (rendering must be off).
load_chr:
  lda #0
  tax
  jsr set_ppu_addr
  ldx #$20              ; 32 pages of zeros = 8 KiB
  ldy #0
: sta PPUDATA
  iny
  bne :-
  dex
  bne :-
  lda #$02              ; light font at tile $20
  ldx #$00
  jsr set_ppu_addr
  lda #2
  sta t1
  jsr copy_font
  lda #$0A              ; coloured font at tile $A0
  ldx #$00
  jsr set_ppu_addr
  lda #3
  sta t1
  jsr copy_font
  ldy #0                ; cells and the panel icon
@chunk:
  lda bg_art_chunks, y
  bmi @sprites
  ldx #0
  jsr set_ppu_addr
  lda bg_art_chunks + 1, y
  sta t0
  lda bg_art_chunks + 2, y
  sta ptr
  lda bg_art_chunks + 3, y
  sta ptr + 1
  tya
  pha
  lda t0
  beq :+
  jsr copy_tiles
: pla
  clc
  adc #4
  tay
  bne @chunk
@sprites:
  lda #$10              ; sprites
  ldx #$00
  jsr set_ppu_addr
  lda #<sprite_art
  sta ptr
  lda #>sprite_art
  sta ptr + 1
  lda #(sprite_art_end - sprite_art) / 16
  sta t0
  jmp copy_tiles
