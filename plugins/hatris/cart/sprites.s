; Sprites: the falling (or just landed) hats, the next pair and the helper cursor, built
; into the OAM copy at $0200 every frame; the NMI sends it with OAM DMA.

.segment "RODATA"

; Sprite X of each column's hats.
col_x:     .byte 56, 80, 104, 128, 152, 176
; First of a hat's three sprite tile rows that holds any of it.
first_row: .byte 0, 0, 1, 1, 2, 1

.segment "CODE"

; One hat as sprites: A = type, t1 = x, t2 = OAM y of its top tile row; X = OAM index.
sprite_hat:
    sta t0
    tay
    lda first_row - 1, y
    sta t3                      ; tile row
@row:
    lda t3
    asl a
    asl a
    asl a
    clc
    adc t2
    sta t4
    ldy t0
    lda times6 - 1, y
    clc
    adc t3
    adc t3
    sta t5                      ; tile number of the row's left half
    lda t4
    sta OAM, x
    sta OAM + 4, x
    lda t5
    sta OAM + 1, x
    clc
    adc #1
    sta OAM + 5, x
    lda #0
    sta OAM + 2, x
    sta OAM + 6, x
    lda t1
    sta OAM + 3, x
    clc
    adc #8
    sta OAM + 7, x
    txa
    clc
    adc #8
    tax
    inc t3
    lda t3
    cmp #3
    bne @row
    rts

; Fills the OAM copy: the falling (or just landed) hats, the next pair, the cursor.
build_oam:
    lda #$FF
    ldx #0
:   sta OAM, x
    inx
    bne :-
    stx oam_i
    ldy #0                      ; hat 1, then hat 2 (offset HAT_STRIDE)
@hat:
    lda HAT1_TYPE, y
    DECODE_TYPE
    cmp #0
    beq @no_hat
    sty t7
    ldx HAT1_COL, y
    lda col_x - COL_BASE, x
    sta HAT1_X, y
    sta t1
    lda HAT1_Y, y
    YFLIP
    sta t2
    lda #183                    ; the picture's bottom row on screen, less 24
    sec
    sbc t2
    sta t2
    lda HAT1_TYPE, y
    DECODE_TYPE
    ldx oam_i
    jsr sprite_hat
    stx oam_i
    ldy t7
@no_hat:
    tya
    clc
    adc #HAT_STRIDE
    tay
    cpy #2 * HAT_STRIDE
    bne @hat
    lda NEXT1_TYPE
    DECODE_TYPE
    cmp #0
    beq @cursor
    lda #208
    sta t1
    lda #31
    sta t2
    lda NEXT1_TYPE
    DECODE_TYPE
    ldx oam_i
    jsr sprite_hat
    lda #224
    sta t1
    lda NEXT2_TYPE
    DECODE_TYPE
    jsr sprite_hat
    stx oam_i
@cursor:
    ldx oam_i
    lda HELPER_ON
    beq @done
    lda #71                     ; just above the pile pictures
    ldy CURSOR
    jsr sprite_marker_arrow
    ldy CHOSEN
    bmi @done
    lda #63
    jsr sprite_marker_cross
@done:
    rts

; A = OAM y, Y = pile; X = OAM index.
sprite_marker_arrow:
    sta OAM, x
    lda #SPR_ARROW
    bne sprite_marker
sprite_marker_cross:
    sta OAM, x
    lda #SPR_MARK
sprite_marker:
    sta OAM + 1, x
    lda #0
    sta OAM + 2, x
    lda col_x, y
    clc
    adc #4
    sta OAM + 3, x
    inx
    inx
    inx
    inx
    rts
