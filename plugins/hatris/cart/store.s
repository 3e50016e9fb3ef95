; Pile storage. Everything else reads and writes the piles through these routines, so a
; variant can move them (console RAM, PRG RAM or nametable RAM), reverse their order,
; interleave types with brims, and store hat types under any byte codes.
;
; A pile is addressed by hp (its types) and bp (its brims), set by pile_ptrs; hats are
; numbered from the bottom, 0 to SLOTS - 1.

.segment "RODATA"

type_code: .byte CODE_NONE, CODE_1, CODE_2, CODE_3, CODE_4, CODE_5, CODE_6
; The type (1-6) a byte stands for; 0 for every other byte.
code_type:
.repeat 256, i
    .if i = CODE_1
        .byte 1
    .elseif i = CODE_2
        .byte 2
    .elseif i = CODE_3
        .byte 3
    .elseif i = CODE_4
        .byte 4
    .elseif i = CODE_5
        .byte 5
    .elseif i = CODE_6
        .byte 6
    .else
        .byte 0
    .endif
.endrep
col_hats_lo:
.repeat COLUMNS, c
    .byte <(HATS + c * PILE_STRIDE)
.endrep
col_hats_hi:
.repeat COLUMNS, c
    .byte >(HATS + c * PILE_STRIDE)
.endrep
col_bases_lo:
.repeat COLUMNS, c
    .byte <(BASES + c * PILE_STRIDE)
.endrep
col_bases_hi:
.repeat COLUMNS, c
    .byte >(BASES + c * PILE_STRIDE)
.endrep

.segment "CODE"

; A := Y_ORIGIN - A when heights are stored downwards (the same step both ways).
.macro YFLIP
    .if Y_DOWN
        eor #$FF
        sec
        adc #<Y_ORIGIN
    .endif
.endmacro

; A := the byte code of type A (0 = no hat). Keeps X and Y.
.macro ENCODE_TYPE
    stx pile_x
    tax
    lda type_code, x
    ldx pile_x
.endmacro
; A := the type (0-6) of code A. Keeps X and Y.
.macro DECODE_TYPE
    stx pile_x
    tax
    lda code_type, x
    ldx pile_x
.endmacro

; Y := the byte offset of hat Y within its pile. Clobbers A.
.macro PHYS
    .if PILE_REVERSED
        tya
        eor #SLOTS - 1
        .if ELEM_STRIDE = 2
            asl a
        .endif
        tay
    .elseif ELEM_STRIDE = 2
        tya
        asl a
        tay
    .endif
.endmacro

; hp/bp := pile X's type and base arrays. Keeps X.
pile_ptrs:
    lda col_hats_lo, x
    sta hp
    lda col_hats_hi, x
    sta hp+1
    lda col_bases_lo, x
    sta bp
    lda col_bases_hi, x
    sta bp+1
    rts

.if PILE_SPACE = 2

; The picture goes off for the rest of the frame (and NMIs stop) on the first pile access,
; so the game may use $2006/$2007 freely; end_pile_work gives both back.
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

; A := raw byte at (ptr) + Y.
.macro LOAD_AT ptr
    SET_VP ptr
    jsr vram_read
.endmacro
.macro STORE_AT ptr
    SET_VP ptr
    jsr vram_write
.endmacro

; A := pile X's count.
count_get:
    lda #<COUNTS
    sta vp
    lda #>COUNTS
    sta vp + 1
    sty pile_x
    txa
    tay
    jsr vram_read
    ldy pile_x
    cmp #0
    rts

; Pile X's count := A.
count_set:
    pha
    lda #<COUNTS
    sta vp
    lda #>COUNTS
    sta vp + 1
    sty pile_x
    txa
    tay
    pla
    jsr vram_write
    ldy pile_x
    rts

.else

begin_pile_work:
end_pile_work:
    rts

.macro LOAD_AT ptr
    lda (ptr), y
.endmacro
.macro STORE_AT ptr
    sta (ptr), y
.endmacro

count_get:
    lda COUNTS, x
    rts

count_set:
    sta COUNTS, x
    rts

.endif

; A := the type (1-6) of hat Y of the pile at hp; Z set when the slot holds no hat type.
; Keeps X and Y.
type_at:
    sty pile_y
    PHYS
    LOAD_AT hp
    .if SCRAMBLE
        eor pile_y
    .endif
    DECODE_TYPE
    ldy pile_y
    cmp #0
    rts

; Hat Y of the pile at hp := type A. Keeps X and Y.
set_type:
    ENCODE_TYPE
    sty pile_y
    .if SCRAMBLE
        eor pile_y
    .endif
    pha
    PHYS
    pla
    STORE_AT hp
    ldy pile_y
    rts

; A := the brim height of hat Y of the pile at bp. Keeps X and Y.
base_at:
    sty pile_y
    PHYS
    LOAD_AT bp
    ldy pile_y
    cmp #0
    rts

; Hat Y's brim height := A. Keeps X and Y.
set_base:
    sty pile_y
    pha
    PHYS
    pla
    STORE_AT bp
    ldy pile_y
    rts
