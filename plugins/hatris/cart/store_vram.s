; Pile bytes kept in nametable RAM ($2400-$27FF), reached through $2006/$2007. The picture
; goes off for the rest of the frame (and NMIs stop) on the first access, so the game may
; use $2006/$2007 freely; end_pile_work gives both back, and the NMI turns the picture on.

.segment "CODE"

.if USE_VRAM

begin_pile_work:
    bit vram_on
    bmi :+
    pha
    lda #$80
    sta vram_on
    lda ppu_ctrl
    and #$7F
    sta PPUCTRL
    lda #0
    sta PPUMASK
    pla
:   rts

end_pile_work:
    bit vram_on
    bpl :+
    lda #0
    sta vram_on
    lda ppu_ctrl
    sta PPUCTRL                 ; the NMI turns the picture back on
:   rts

; PPUADDR := (vp) + Y. Keeps X and Y.
vram_seek:
    jsr begin_pile_work
    tya
    clc
    adc vp
    pha
    lda vp + 1
    adc #0
    sta PPUADDR
    pla
    sta PPUADDR
    rts

; A := nametable byte (vp) + Y. Keeps X and Y.
vram_read:
    jsr vram_seek
    lda PPUDATA                 ; the buffered read: the byte comes with the second
    lda PPUDATA
    rts

; Nametable byte (vp) + Y := A. Keeps X and Y.
vram_write:
    pha
    jsr vram_seek
    pla
    sta PPUDATA
    rts

.macro SET_VP ptr
    pha
    lda ptr
    sta vp
    lda ptr + 1
    sta vp + 1
    pla
.endmacro

.else

begin_pile_work:
end_pile_work:
    rts

.endif

; A := byte (ptr) + Y, in nametable RAM when `vram`, else in CPU memory. Keeps X and Y.
.macro LOAD_IN vram, ptr
    .if vram
        SET_VP ptr
        jsr vram_read
    .else
        lda (ptr), y
    .endif
.endmacro
.macro STORE_IN vram, ptr
    .if vram
        SET_VP ptr
        jsr vram_write
    .else
        sta (ptr), y
    .endif
.endmacro
