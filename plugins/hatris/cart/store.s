; Pile storage. Everything else reads and writes the piles through these routines, so a
; variant can keep them in any of the shapes wide.inc names: console RAM, PRG RAM or
; nametable RAM; one hat per byte or two; flag bits beside the types; counts, byte offsets,
; free slots or an end marker; fixed buffers or buffers behind pointers that move.
;
; A pile is addressed by hp (its buffer) and bp (its brims), set by pile_ptrs; hats are
; numbered from the bottom, 0 to SLOTS - 1. Counts are reached by pile number alone.

.segment "RODATA"

type_code: .byte CODE_NONE, CODE_1, CODE_2, CODE_3, CODE_4, CODE_5, CODE_6
; The type (1-6) a byte stands for; 0 for every other byte.
.macro CODE_TABLE none, c1, c2, c3, c4, c5, c6
.repeat 256, i
    .if i = c1
        .byte 1
    .elseif i = c2
        .byte 2
    .elseif i = c3
        .byte 3
    .elseif i = c4
        .byte 4
    .elseif i = c5
        .byte 5
    .elseif i = c6
        .byte 6
    .elseif LATE_SPAWN .and i = CODE_1_LATE
        .byte 1
    .else
        .byte 0
    .endif
.endrep
.endmacro
code_type:
    CODE_TABLE CODE_NONE, CODE_1, CODE_2, CODE_3, CODE_4, CODE_5, CODE_6

.if PILE_ADDR = 0
pile_buf_lo:
.repeat COLUMNS, c
    .byte <(HATS + c * PILE_STRIDE)
.endrep
pile_buf_hi:
.repeat COLUMNS, c
    .byte >(HATS + c * PILE_STRIDE)
.endrep
.endif
.if ELEM_STRIDE = 1
col_bases_lo:
.repeat COLUMNS, c
    .byte <(BASES + c * BRIM_STRIDE)
.endrep
col_bases_hi:
.repeat COLUMNS, c
    .byte >(BASES + c * BRIM_STRIDE)
.endrep
.endif

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

; Y := the byte offset of hat Y within its buffer (byte cells). Clobbers A.
.macro PHYS
    .if PILE_REVERSED .or ELEM_STRIDE = 2 .or COUNT_HDR
        tya
        .if PILE_REVERSED
            eor #SLOTS - 1
        .endif
        .if ELEM_STRIDE = 2
            asl a
        .endif
        .if COUNT_HDR
            clc
            adc #1
        .endif
        tay
    .endif
.endmacro
; Y := the offset of hat Y's brim from bp. Clobbers A.
.macro BPHYS
    .if ELEM_STRIDE = 2
        PHYS
    .elseif PILE_REVERSED
        tya
        eor #SLOTS - 1
        tay
    .endif
.endmacro

.macro LOAD_HAT ptr
    LOAD_IN HATS_VRAM, ptr
.endmacro
.macro STORE_HAT ptr
    STORE_IN HATS_VRAM, ptr
.endmacro

; cp := the buffer of pile X. Keeps X and Y.
buf_of:
.if PILE_ADDR = 0
    lda pile_buf_lo, x
    sta cp
    lda pile_buf_hi, x
    sta cp + 1
.elseif PTR_SPLIT
    lda PTRS, x
    sta cp
    lda PTRS + COLUMNS, x
    sta cp + 1
.else
    sty sy
    txa
    asl a
    tay
    lda PTRS, y
    sta cp
    lda PTRS + 1, y
    sta cp + 1
    ldy sy
.endif
    rts

; hp/bp := pile X's buffer and brims. Keeps X and Y.
pile_ptrs:
    jsr buf_of
    lda cp
    sta hp
    lda cp + 1
    sta hp + 1
.if ELEM_STRIDE = 2
    lda hp                      ; each brim follows its type
    clc
    adc #1
    sta bp
    lda hp + 1
    adc #0
    sta bp + 1
.else
    lda col_bases_lo, x
    sta bp
    lda col_bases_hi, x
    sta bp + 1
.endif
    rts

.include "store_cell.s"
.include "store_count.s"

; A := the type (1-6) of hat Y of the pile at hp; Z set when the slot holds no hat type.
; Keeps X and Y.
type_at:
    jsr cell_get
    .if SCRAMBLE
        eor pile_y
    .endif
    .if FLAG_BIT
        and #<~FLAG_BIT
    .endif
    DECODE_TYPE
    cmp #0
    rts

; Hat Y of the pile at hp := type A (a hat that just landed: set_type_new). Keeps X and Y.
set_type_new:
.if FLAG_KIND = 2
    ENCODE_TYPE
    ora #FLAG_BIT
    jmp cell_put
.endif
set_type:
    ENCODE_TYPE
    .if LATE_SPAWN
        jsr late_code
    .endif
    .if SCRAMBLE
        sty pile_y
        eor pile_y
    .endif
    .if FLAG_KIND = 1
        ora #FLAG_BIT           ; not drawn yet
    .endif
    jmp cell_put

; Every hat of pile X (hp set) loses its flag. Keeps X.
.if FLAG_BIT
clear_flags:
    jsr count_get
    tay
    beq @done
@loop:
    dey
    jsr cell_get
    and #<~FLAG_BIT
    jsr cell_put
    cpy #0
    bne @loop
@done:
    rts
.endif

.macro LOAD_BRIM ptr
    LOAD_IN BRIM_VRAM, ptr
.endmacro
.macro STORE_BRIM ptr
    STORE_IN BRIM_VRAM, ptr
.endmacro

; A := the brim height of hat Y of the pile at bp. Keeps X and Y.
base_at:
    sty pile_y
    BPHYS
    LOAD_BRIM bp
    ldy pile_y
    cmp #0
    rts

; Hat Y's brim height := A. Keeps X and Y.
set_base:
    sty pile_y
    pha
    BPHYS
    pla
    STORE_BRIM bp
    ldy pile_y
    rts

.if LATE_SPAWN
.if CODE_1_LATE = CODE_NONE .or CODE_1_LATE = CODE_1 .or CODE_1_LATE = CODE_2 .or CODE_1_LATE = CODE_3 .or CODE_1_LATE = CODE_4 .or CODE_1_LATE = CODE_5 .or CODE_1_LATE = CODE_6
    .error "CODE_1_LATE must differ from every other hat code"
.endif
; A := CODE_1_LATE for code A = CODE_1 once LATE_SPAWN pairs have spawned. Keeps X and Y.
late_code:
    cmp #CODE_1
    bne @keep
    pha
    lda SPAWNS + 1
    ora SPAWNS + 2
    bne @late
    lda SPAWNS
    cmp #LATE_SPAWN
    bcs @late
    pla
@keep:
    rts
@late:
    pla
    lda #CODE_1_LATE
    rts
.endif
