; Start-up, the frame loop and the vertical-blank handler.
;
; Board: mapper 1 (MMC1) with 32 KiB PRG ROM, 8 KiB CHR RAM and 8 KiB PRG RAM, like an
; SNROM. All code sits in the last 16 KiB bank, fixed at $C000.

.segment "HEADER"
    ; NES 2.0: mapper 1, two 16 KiB PRG banks, no CHR ROM, 8 KiB PRG RAM, 8 KiB CHR RAM
    .byte "NES", $1A, 2, 0, $10, $08, 0, 0, $07, $07, 0, 0, 0, 0

; The same 16 bytes end both banks: whichever bank the MMC1 shows at $C000 after
; power-on, the reset write ($FF to $8000) selects the fixed-last-bank mode and the
; jump lands in the real start-up code.
.macro RESET_STUB
    sei
    ldx #$FF
    txs
    stx $8000
    jmp reset
    .word nmi, $FFF0, irq
.endmacro

.segment "STUB0"
    RESET_STUB
.segment "STUB1"
    RESET_STUB

; Writes A to an MMC1 register through its 5-bit serial port.
.macro MMC1_WRITE addr
    sta addr
    lsr a
    sta addr
    lsr a
    sta addr
    lsr a
    sta addr
    lsr a
    sta addr
.endmacro

.segment "CODE"

irq:
    rti

reset:
    cld
    lda #0
    sta PPUCTRL
    sta PPUMASK
    sta $4010                   ; no DMC interrupts
    sta $4015                   ; sound channels off
    lda #$40
    sta $4017                   ; no APU frame interrupts
    lda #$0E                    ; vertical mirroring, fixed last bank, 8 KiB CHR
    MMC1_WRITE $8000
    lda #0
    MMC1_WRITE $A000            ; CHR bank 0; bit 4 clear keeps the PRG RAM enabled
    lda #0
    MMC1_WRITE $E000            ; PRG bank 0 at $8000, PRG RAM enabled
    bit PPUSTATUS
:   bit PPUSTATUS
    bpl :-
    lda #0
    tax
:   sta $00, x
    sta $0100, x
    sta $0300, x
    sta $0400, x
    sta $0500, x
    sta $0600, x
    sta $0700, x
    inx
    bne :-
    ldx #COLUMNS - 1
    lda #$FF
:   sta dirty_top, x
    dex
    bpl :-
    sta CHOSEN
:   bit PPUSTATUS
    bpl :-
    jsr init_ppu
    jsr enter_title
    jsr build_oam
    ; turn the picture on at the start of a vertical blank
:   bit PPUSTATUS
    bpl :-
    lda #0
    sta OAMADDR
    lda #>OAM
    sta OAMDMA
    lda #0
    sta PPUSCROLL
    sta PPUSCROLL
    lda #%10001000              ; NMI on, sprites from $1000, background from $0000
    sta ppu_ctrl
    sta PPUCTRL
    lda #%00011110
    sta PPUMASK

main_loop:
    jsr read_pad
    jsr game_step
    jsr render_pending
    jsr build_oam
    jsr prepare_upload
    ldx FRAME_LO
    lda #1
    sta nmi_ready
:   cpx FRAME_LO
    beq :-
    jmp main_loop

read_pad:
    lda #1
    sta PAD1
    lda #0
    sta PAD1
    ldx #8
:   lda PAD1
    lsr a
    rol PAD_HELD
    dex
    bne :-
    lda pad_prev
    eor #$FF
    and PAD_HELD
    sta PAD_NEW
    lda PAD_HELD
    sta pad_prev
    rts

nmi:
    pha
    txa
    pha
    tya
    pha
    inc FRAME_LO
    bne :+
    inc FRAME_HI
:   lda #0
    sta OAMADDR
    lda #>OAM
    sta OAMDMA
    lda nmi_ready
    beq @scroll
    lda up_len
    beq @text
    lda up_ppu + 1
    sta PPUADDR
    lda up_ppu
    sta PPUADDR
    ldy #0
@tiles:
    .repeat 8
    lda (up_src), y
    sta PPUDATA
    iny
    .endrep
    cpy up_len
    bne @tiles
    beq @done
@text:
    ldx #0
@run:
    lda TEXT_BUF, x
    beq @done
    sta PPUADDR
    lda TEXT_BUF + 1, x
    sta PPUADDR
    ldy TEXT_BUF + 2, x
    inx
    inx
    inx
:   lda TEXT_BUF, x
    sta PPUDATA
    inx
    dey
    bne :-
    beq @run
@done:
    lda #0
    sta nmi_ready
@scroll:
    bit PPUSTATUS
    lda #0
    sta PPUSCROLL
    sta PPUSCROLL
    lda ppu_ctrl
    sta PPUCTRL
    pla
    tay
    pla
    tax
    pla
    rti

; With the picture off: pattern tables, palettes and the fixed parts of the nametable.
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
