; Sprites: the falling (or just landed) hats, the next pair (unless drawn in the
; background), the helper icons (when the pool is shown as sprites) and the helper cursor,
; built into the OAM copy at $0200 every frame; the NMI sends it with OAM DMA.

.segment "RODATA"

; Sprite X of each column's hats.
col_x:
.repeat COLUMNS, c
    .byte SPR_X0 + c * COL_STEP * 8
.endrep
; First of a hat's three sprite tile rows that holds any of it.
first_row: .byte 0, 0, 1, 1, 2, 1
.if POOL_SPR
; Where each pool entry's icon goes: X, OAM Y (two rows of four, as the text would be).
pool_x:
.repeat 8, i
    .byte .max(0, (POOL_COL + (i .mod 4)) * 8 - SCROLL_X)
.endrep
pool_y:
.repeat 8, i
    .byte (POOL_ROW + 2 + i / 4) * 8 - 1 - SCROLL_Y
.endrep
.endif

CURSOR_Y = WELL_TOP * 8 - 9 - SCROLL_Y   ; just above the pile pictures

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

; Fills the OAM copy: the falling (or just landed) hats, the next pair, the pool, the cursor.
build_oam:
    lda #$FF
    ldx #0
:   sta OAM, x
    inx
    bne :-
    stx oam_i
    ldx #0                      ; hat 1, then hat 2
@hat:
.if FLASH
    lda GAME_STATE              ; a stack flashing: the hats landed so far are in its
    cmp #ST_FLASH               ; picture, and flash with it
    bne :+
    cpx flash_next
    bcc @no_hat
:
.endif
    jsr hat_type
    beq @no_hat
    sta t6
    stx t7
    jsr hat_col
    tay
    lda col_x, y
    jsr hat_set_x
    sta t1
    jsr hat_y
    sta t2
    lda #SPR_BASE_Y
    sec
    sbc t2
    sta t2
    lda t6
    ldx oam_i
    jsr sprite_hat
    stx oam_i
    ldx t7
@no_hat:
    inx
    cpx #2
    bne @hat
.if .not NEXT_BG
    ldx #0
    jsr next_get
    beq @pool
    sta t6
    lda #NEXT_X
    sta t1
    lda #NEXT_Y
    sta t2
    lda t6
    ldx oam_i
    jsr sprite_hat
    stx oam_i
    ldx #1
    jsr next_get
    sta t6
    lda #NEXT_X + 16
    sta t1
    lda #NEXT_Y
    sta t2
    lda t6
    ldx oam_i
    jsr sprite_hat
    stx oam_i
@pool:
.endif
.if POOL_SPR
    jsr pool_count
    sta t6
    ldy #0
:   cpy t6
    beq :+
    tya
    tax
    jsr pool_get
    clc
    adc #SPR_ALEXEY - 1
    ldx oam_i
    sta OAM + 1, x
    lda pool_y, y
    sta OAM, x
    lda #0
    sta OAM + 2, x
    lda pool_x, y
    sta OAM + 3, x
    inx
    inx
    inx
    inx
    stx oam_i
    iny
    bne :-                      ; always
:
.endif
    ldx oam_i
    lda HELPER_ON
    beq @done
    lda #CURSOR_Y
    ldy CURSOR
    jsr sprite_marker_arrow
    ldy CHOSEN
    bmi @done
    lda #CURSOR_Y - 8
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
