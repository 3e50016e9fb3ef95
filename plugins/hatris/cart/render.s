; Pile pictures. Each pile is drawn pixel-exactly into a 2x16-tile bitmap in PRG RAM
; (hats bottom first, each over the ones below it), and the changed tile rows are copied
; to CHR RAM, three rows per vertical blank.

.segment "RODATA"

bit_of:    .byte 1, 2, 4, 8, 16, 32
bitmap_hi: .byte >(BITMAPS + 0), >(BITMAPS + 512), >(BITMAPS + 1024)
           .byte >(BITMAPS + 1536), >(BITMAPS + 2048), >(BITMAPS + 2560)
.if NEXT_BG
           ; the next pair's hats, drawn as if at the bottom of a pile: their three tile
           ; rows are the last 96 bytes of a page
           .byte >PREVIEW - 1, >PREVIEW
.endif

.segment "CODE"

; Adds pixel rows [A, Y) of pile X to its upload range and has it redrawn. Keeps X.
mark_redraw:
    pha
    lda bit_of, x
    ora render_due
    sta render_due
    pla
    ; fall through
; Adds pixel rows [A, Y) of pile X (heights above the heads) to its upload range. Keeps X.
mark_dirty:
    cmp #128
    bcs @none                   ; entirely above the picture
    sta t3
    cpy #129
    bcc :+
    ldy #128
:   sty t4
    cpy t3
    beq @none
    bcc @none
    lda #128                    ; top tile row = (128 - hi) / 8
    sec
    sbc t4
    lsr a
    lsr a
    lsr a
    cmp dirty_top, x
    bcs :+
    sta dirty_top, x
:   lda #127                    ; bottom tile row = (127 - lo) / 8
    sec
    sbc t3
    lsr a
    lsr a
    lsr a
    cmp dirty_bot, x
    bcc @none
    sta dirty_bot, x
@none:
    rts

; Draws hat l_type with its brim at l_base into pile l_col's bitmap. Keeps X.
draw_hat:
    ldy l_type
    lda art_lo - 1, y
    sta artp
    lda art_hi - 1, y
    sta artp + 1
    lda hat_height - 1, y
    sta rows_left
    clc
    adc l_base
    cmp #129
    bcc @inside
    ; the hat's top pokes out above the picture: skip those rows
    sbc #128
    cmp rows_left
    bcc :+
    rts
:   sta t0
    lda rows_left
    sec
    sbc t0
    sta rows_left
@skip:
    jsr next_art_row
    dec t0
    bne @skip
    lda #0
    beq @start
@inside:
    sta t0
    lda #128
    sec
    sbc t0                      ; screen row of the hat's top within the picture
@start:
    pha
    and #7
    sta line
    pla
    lsr a
    lsr a
    lsr a                       ; tile row
    pha
    lsr a
    lsr a
    lsr a
    ldy l_col
    clc
    adc bitmap_hi, y
    sta ptr + 1
    pla
    asl a
    asl a
    asl a
    asl a
    asl a
    sta ptr
@row:
    ldy #0
    lda (artp), y
    sta t0
    iny
    lda (artp), y
    sta t1
    iny
    lda (artp), y
    sta t2
    iny
    lda (artp), y
    sta t3
    iny
    lda (artp), y
    sta t4
    iny
    lda (artp), y
    sta t5
    ldy line
    lda (ptr), y                ; left tile, plane 0
    and t4
    ora t0
    sta (ptr), y
    tya
    ora #8
    tay
    lda (ptr), y                ; left tile, plane 1
    and t4
    ora t1
    sta (ptr), y
    tya
    eor #$18
    tay
    lda (ptr), y                ; right tile, plane 0
    and t5
    ora t2
    sta (ptr), y
    tya
    ora #8
    tay
    lda (ptr), y                ; right tile, plane 1
    and t5
    ora t3
    sta (ptr), y
    jsr next_art_row
    inc line
    lda line
    cmp #8
    bne :+
    lda #0
    sta line
    lda ptr
    clc
    adc #32
    sta ptr
    bcc :+
    inc ptr + 1
:   dec rows_left
    bne @row
    rts

next_art_row:
    lda artp
    clc
    adc #6
    sta artp
    bcc :+
    inc artp + 1
:   rts

; The hat just landed (l_col, l_type, l_base) goes on top of its pile's picture.
draw_landed:
    jsr draw_hat
    ldx l_col
    ldy l_type
    lda l_base
    clc
    adc hat_height - 1, y
    tay
    lda l_base
    jmp mark_dirty

; Clears pile X's bitmap. Keeps X.
clear_bitmap:
    lda #0
    sta ptr
    lda bitmap_hi, x
    sta ptr + 1
    lda #0
    tay
:   sta (ptr), y
    iny
    bne :-
    inc ptr + 1
:   sta (ptr), y
    iny
    bne :-
    rts

; Redraws pile X's whole bitmap.
render_column:
    stx l_col
    jsr clear_bitmap
    jsr pile_ptrs
    jsr count_get
.if FLASH
    ldy flash_hide              ; a flashing stack, in its dark phase
    beq :+
    cpx flash_col
    bne :+
    sec
    sbc #5
:
.endif
    sta n_cache
    ldy #0
@hat:
    sty hat_i
    cpy n_cache
    beq @done
    jsr type_at
    sta l_type
    jsr base_at
    sta l_base
    jsr draw_hat
    ldx l_col
    ldy hat_i
    iny
    bne @hat
@done:
.if FLAG_KIND = 1
    jsr pile_ptrs               ; every hat is on screen now
    jsr clear_flags
    SH_CALL check_piles
.endif
    rts

; Redraws the piles flagged this frame.
render_pending:
    ldx #0
@next:
    lda render_due
    and bit_of, x
    beq :+
    jsr render_column
    ldx l_col
:   inx
    cpx #COLUMNS
    bne @next
    lda #0
    sta render_due
.if NEXT_BG
    lda preview_due
    beq :+
    jsr draw_preview
:
.endif
    rts

; Chooses what the next vertical blank copies: up to three tile rows of the first pile
; with changes, or else one slot of text.
prepare_upload:
    ldx #0
:   lda dirty_top, x
    cmp #$FF
    bne @found
    inx
    cpx #COLUMNS
    bne :-
.if NEXT_BG
    lda preview_up
    beq :+
    jmp upload_preview
:
.endif
    lda #0
    sta up_len
    jmp build_text
@found:
    sta t0                      ; first row
    clc
    adc #2
    cmp dirty_bot, x
    bcc :+
    lda dirty_bot, x
:   sta t1                      ; last row
    sec
    sbc t0
    asl a                       ; (rows - 1) * 32 + 32
    asl a
    asl a
    asl a
    asl a
    clc
    adc #32
    sta up_len
    lda t1
    cmp dirty_bot, x
    bcs @clean
    adc #1
    sta dirty_top, x
    bcc @address                ; always
@clean:
    lda #$FF
    sta dirty_top, x
    lda #0
    sta dirty_bot, x
@address:
    lda t0                      ; row * 32, as high and low bytes
    lsr a
    lsr a
    lsr a
    sta t2
    txa
    asl a                       ; a pile is 512 bytes
    clc
    adc t2
    sta t2
    lda t0
    asl a
    asl a
    asl a
    asl a
    asl a
    sta up_src
    sta up_ppu
    lda t2
    clc
    adc #>BITMAPS
    sta up_src + 1
    lda t2
    clc
    adc #>(TILE_PILES * 16)
    sta up_ppu + 1
    rts

