; The next pair drawn in the background (NEXT_BG): each hat into its own 96 bytes (the
; bottom three tile rows of a pile-shaped bitmap, PREVIEW), then sent to its six tiles, one
; hat per vertical blank.

.segment "CODE"

.if NEXT_BG
draw_preview:
    lda #0
    sta preview_due
    ldx #0
@hat:
    lda #160                    ; clear the hat's 96 bytes
    sta ptr
    txa
    clc
    adc #>PREVIEW
    sta ptr + 1
    ldy #95
    lda #0
:   sta (ptr), y
    dey
    bpl :-
    jsr next_get
    beq @next
    sta l_type
    txa
    clc
    adc #COLUMNS                ; bitmaps 6 and 7
    sta l_col
    lda #0
    sta l_base
    stx hat_i
    jsr draw_hat
    ldx hat_i
@next:
    inx
    cpx #2
    bne @hat
    lda #2
    sta preview_up              ; both hats' tiles wait to be sent
    rts

; 2: the first hat's tiles go now, 1: the second's.
upload_preview:
    dec preview_up
    beq @second
    lda #<(PREVIEW + 160)
    sta up_src
    lda #>(PREVIEW + 160)
    sta up_src + 1
    lda #<(TILE_NEXT1 * 16)
    sta up_ppu
    lda #>(TILE_NEXT1 * 16)
    sta up_ppu + 1
    bne @len                    ; always
@second:
    lda #<(PREVIEW + 256 + 160)
    sta up_src
    lda #>(PREVIEW + 256 + 160)
    sta up_src + 1
    lda #<(TILE_NEXT2 * 16)
    sta up_ppu
    lda #>(TILE_NEXT2 * 16)
    sta up_ppu + 1
@len:
    lda #96
    sta up_len
    rts
.endif
