; Start-up drawing with the picture off: pattern tables (font, walls, heads, the sprite
; hats drawn by the pile renderer), palettes and the fixed parts of the nametable.

.segment "CODE"

init_ppu:
    ; clear all 8 KiB of CHR RAM and the first nametable
    lda #0
    sta PPUADDR
    sta PPUADDR
    ldy #$24
    tax
:   sta PPUDATA
    inx
    bne :-
    dey
    bne :-
    ; font, walls, heads, bars from tile 1
    lda #<bg_tiles
    sta ptr
    lda #>bg_tiles
    sta ptr + 1
    lda #$00
    sta PPUADDR
    lda #$10
    sta PPUADDR
    lda #<(bg_tiles_end - bg_tiles)
    sta t0
    lda #>(bg_tiles_end - bg_tiles)
    sta t1
    jsr copy_to_ppu
    ; sprite hats: each drawn at the bottom of pile 0's bitmap, whose last three tile
    ; rows are exactly its 2x3 sprite tiles
    lda #1
    sta l_type
@hat:
    lda #0
    sta l_col
    sta l_base
    tax
    jsr render_column           ; pile 0 is empty: this clears the bitmap
    jsr draw_hat
    lda l_type
    tax
    lda times6 - 1, x           ; tile = 6 * (type - 1), 16 bytes each
    asl a
    asl a
    asl a
    asl a
    pha
    lda #$10
    adc #0                      ; carry from the shift: tiles past 15
    sta PPUADDR
    pla
    sta PPUADDR
    ldy #0
:   lda BITMAPS + 13 * 32, y
    sta PPUDATA
    iny
    cpy #96
    bne :-
    inc l_type
    lda l_type
    cmp #7
    bne @hat
    lda #>($1000 + SPR_ARROW * 16)
    sta PPUADDR
    lda #<($1000 + SPR_ARROW * 16)
    sta PPUADDR
    ldy #0
:   lda cursor_tiles, y
    sta PPUDATA
    iny
    cpy #32
    bne :-
    ; palettes: black, white, red, gold everywhere
    lda #$3F
    sta PPUADDR
    lda #$00
    sta PPUADDR
    ldx #8
:   lda #$0F
    sta PPUDATA
    lda #$30
    sta PPUDATA
    lda #$16
    sta PPUDATA
    lda #$28
    sta PPUDATA
    dex
    bne :-
    jsr draw_playfield
    lda #<static_text
    sta ptr
    lda #>static_text
    sta ptr + 1
    jmp write_runs

; Walls, column separators, the pile pictures' tiles and the heads.
draw_playfield:
    ldx #2                      ; nametable row
@row:
    jsr row_address
    ldy #0
@col:
    jsr playfield_tile
    sta PPUDATA
    iny
    cpy #32
    bne @col
    inx
    cpx #28
    bne @row
    rts

; PPUADDR := start of nametable row X.
row_address:
    txa
    lsr a
    lsr a
    lsr a
    ora #$20
    sta PPUADDR
    txa
    asl a
    asl a
    asl a
    asl a
    asl a
    sta PPUADDR
    rts

; A := the fixed tile at row X, column Y. Keeps X and Y.
playfield_tile:
    sty t2
    cpy #6
    beq @wall
    cpy #24
    beq @wall
    bcs @blank
    cpy #7
    bcc @blank
    tya
    sec
    sbc #7
    ldy #0                      ; pile = (column - 7) / 3, k = the remainder
:   cmp #3
    bcc :+
    sbc #3
    iny
    bne :-
:   sta t0                      ; k 0-1: picture or head; 2: separator
    sty t1
    ldy t2
    cmp #2
    beq @separator
    cpx #26
    bcs @head
    cpx #WELL_TOP_ROW
    bcc @blank
    txa                         ; picture tile 64 + 32 * pile + 2 * (row - 10) + k
    sec
    sbc #WELL_TOP_ROW
    asl a
    clc
    adc t0
    sta t3
    lda t1
    asl a
    asl a
    asl a
    asl a
    asl a
    clc
    adc t3
    clc
    adc #TILE_PILES
    rts
@head:
    txa
    sec
    sbc #26
    asl a
    clc
    adc t0
    clc
    adc #TILE_HEAD
    rts
@separator:
    cpx #26
    bcs @blank
    cpx #WELL_TOP_ROW
    bcc @blank
    lda #TILE_SEP
    rts
@wall:
    lda #TILE_WALL
    rts
@blank:
    lda #0
    rts

; Copies t0/t1 (length, low/high) bytes from (ptr) to PPUDATA.
copy_to_ppu:
    ldy #0
@loop:
    lda t0
    ora t1
    beq @done
    lda (ptr), y
    sta PPUDATA
    iny
    bne :+
    inc ptr + 1
:   lda t0
    bne :+
    dec t1
:   dec t0
    jmp @loop
@done:
    rts

; Copies nametable runs from (ptr) to the PPU.
write_runs:
    ldy #0
@run:
    lda (ptr), y
    beq @done
    sta PPUADDR
    iny
    lda (ptr), y
    sta PPUADDR
    iny
    lda (ptr), y
    tax
    iny
:   lda (ptr), y
    sta PPUDATA
    iny
    dex
    bne :-
    beq @run
@done:
    rts
