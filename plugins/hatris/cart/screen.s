; Start-up drawing with the picture off: pattern tables (font, walls, heads, the sprite
; hats drawn by the pile renderer), palettes and the fixed parts of the nametable, placed
; as layout.inc says.

.segment "RODATA"

; Palette 0 (hats, text, walls) in every slot; palette 1's first colour may cycle.
palette: .byte PAL_BG, PAL_1, PAL_2, PAL_3

.segment "CODE"

; Clears all 8 KiB of CHR RAM and both nametables.
clear_vram:
    lda #0
    sta PPUADDR
    sta PPUADDR
    ldy #$28
    tax
:   sta PPUDATA
    inx
    bne :-
    dey
    bne :-
    rts

init_ppu:
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
    jsr clear_bitmap
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
    ldx #0
    jsr clear_bitmap
    ; the cursor, Vladimir's mark, then the helper icons (the font's A and V)
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
    ldy #0
:   lda bg_tiles + (TILE_FONT + 10 - 1) * 16, y
    sta PPUDATA
    iny
    cpy #16
    bne :-
    ldy #0
:   lda bg_tiles + (TILE_FONT + 31 - 1) * 16, y
    sta PPUDATA
    iny
    cpy #16
    bne :-
    ; palettes: the same four colours in all eight
    lda #$3F
    sta PPUADDR
    lda #$00
    sta PPUADDR
    ldx #8
:   ldy #0
:   lda palette, y
    sta PPUDATA
    iny
    cpy #4
    bne :-
    dex
    bne :--
.if PAL_CYCLE
    ; the status line's rows in palette 1
    lda #>($23C0 + (STATUS_ROW / 4) * 8)
    sta PPUADDR
    lda #<($23C0 + (STATUS_ROW / 4) * 8)
    sta PPUADDR
    lda #$05 << (((STATUS_ROW / 2) .mod 2) * 4)
    ldx #8
:   sta PPUDATA
    dex
    bne :-
.endif
    jsr draw_playfield
.if NEXT_BG
    jsr draw_next_frame
.endif
    lda #<static_text
    sta ptr
    lda #>static_text
    sta ptr + 1
    jmp write_runs

; PPUADDR := nametable row X, column A. Keeps X and Y.
nt_seek:
    sta t2
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
    ora t2
    sta PPUADDR
    rts

; Walls, the pile pictures' tiles, separators and the heads.
draw_playfield:
    ldx #WALL_TOP
:   lda #WALL_LEFT
    jsr nt_seek
    lda #TILE_WALL
    sta PPUDATA
    lda #WALL_RIGHT
    jsr nt_seek
    lda #TILE_WALL
    sta PPUDATA
    inx
    cpx #HEAD_ROW + 2
    bne :-
    lda #0
    sta t0                      ; pile
    lda #COL0
    sta t3                      ; its first column
@pile:
    lda #0
    sta t1                      ; picture row
    lda t0                      ; first tile: 64 + 32 * pile
    asl a
    asl a
    asl a
    asl a
    asl a
    clc
    adc #TILE_PILES
    sta t4
@row:
    lda t1
    clc
    adc #WELL_TOP
    tax
    lda t3
    jsr nt_seek
    lda t4
    sta PPUDATA
    clc
    adc #1
    sta PPUDATA
    adc #1
    sta t4
.if COL_STEP > 2
    lda t0
    cmp #COLUMNS - 1
    beq :+
    lda #TILE_SEP
    sta PPUDATA
:
.endif
    inc t1
    lda t1
    cmp #16
    bne @row
    ldx #HEAD_ROW               ; the head under the pile
    lda t3
    jsr nt_seek
    lda #TILE_HEAD
    sta PPUDATA
    lda #TILE_HEAD + 1
    sta PPUDATA
    inx
    lda t3
    jsr nt_seek
    lda #TILE_HEAD + 2
    sta PPUDATA
    lda #TILE_HEAD + 3
    sta PPUDATA
    lda t3
    clc
    adc #COL_STEP
    sta t3
    inc t0
    lda t0
    cmp #COLUMNS
    bne @pile
    rts

.if NEXT_BG
; The next pair's two 2x3 tile blocks, whose tiles the game redraws for each new pair.
draw_next_frame:
    ldx #NEXT_TROW
    lda #TILE_NEXT1
    sta t4
    lda #TILE_NEXT2
    sta t5
@row:
    lda #NEXT_TCOL
    jsr nt_seek
    ldy #2
:   lda t4
    sta PPUDATA
    inc t4
    dey
    bne :-
    ldy #2
:   lda t5
    sta PPUDATA
    inc t5
    dey
    bne :-
    inx
    cpx #NEXT_TROW + 3
    bne @row
    rts
.endif

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
