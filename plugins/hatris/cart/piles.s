; The six piles: landing (with the nesting table), clearing stacks of five, paying for
; them, and the level count. Pile c keeps COUNTS+c hats; their types are at
; HATS+64c and their brim heights at BASES+64c, bottom first; HEIGHTS+c is the pile's top.

.segment "RODATA"

; Hat heights in pixels, by type 1-6.
hat_height: .byte 20, 24, 16, 12, 8, 11
; Brim-to-brim offset: nest[(lower-1)*6 + upper-1] (the nesting table read as "A").
nest:
    .byte  2, 18, 18, 18, 18, 18
    .byte  8,  4, 16, 20, 19, 19
    .byte  9, 10, 10, 10, 10, 10
    .byte  8,  8,  7,  6,  9,  8
    .byte  2,  3,  3,  4,  2,  4
    .byte  5,  6,  5,  5,  6,  5
times6: .byte 0, 6, 12, 18, 24, 30
; Cash per stack: units, tens, hundreds digits (150, 200, 300, 120, 50, 80).
cash_units:    .byte 0, 0, 0, 0, 0, 0
cash_tens:     .byte 5, 0, 0, 2, 5, 8
cash_hundreds: .byte 1, 2, 3, 1, 0, 0
; Which helper a cleared stack works towards: crowns, derbies, wizards earn Alexey.
helper_of: .byte HELPER_VLADIMIR, HELPER_ALEXEY, HELPER_ALEXEY, HELPER_VLADIMIR, HELPER_ALEXEY, HELPER_VLADIMIR
col_hats_lo:  .byte <(HATS + 0), <(HATS + 64), <(HATS + 128), <(HATS + 192), <(HATS + 256), <(HATS + 320)
col_hats_hi:  .byte >(HATS + 0), >(HATS + 64), >(HATS + 128), >(HATS + 192), >(HATS + 256), >(HATS + 320)
col_bases_lo: .byte <(BASES + 0), <(BASES + 64), <(BASES + 128), <(BASES + 192), <(BASES + 256), <(BASES + 320)
col_bases_hi: .byte >(BASES + 0), >(BASES + 64), >(BASES + 128), >(BASES + 192), >(BASES + 256), >(BASES + 320)

.segment "CODE"

; Empties every pile and has the old pictures erased.
empty_piles:
    ldx #COLUMNS - 1
:   lda HEIGHTS, x
    ora #1                      ; redraw at least the bottom row
    tay
    lda #0
    sta COUNTS, x
    sta HEIGHTS, x
    jsr mark_redraw
    dex
    bpl :-
    rts

; hp/bp := pile X's type and base arrays.
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

; Lands hat l_type on pile l_col: stacks of five vanish and pay, the picture is updated
; (unless `quiet`). Keeps X.
land:
    txa
    pha
    ldx l_col
    jsr pile_ptrs
    ldy COUNTS, x
    beq @bottom
    dey
    lda (hp), y                 ; the hat below
    tax
    lda times6 - 1, x
    clc
    adc l_type
    tax
    lda (bp), y
    clc
    adc nest - 1, x
    iny
    bne @store                  ; always (y >= 1)
@bottom:
    lda #0
@store:
    sta l_base
    sta (bp), y
    lda l_type
    sta (hp), y
    iny
    tya
    ldx l_col
    sta COUNTS, x
    ; the pile's top
    ldy l_type
    lda l_base
    clc
    adc hat_height - 1, y
    cmp HEIGHTS, x
    bcc :+
    sta HEIGHTS, x
:   jsr top_run_of_five
    bcs @stack
    lda quiet
    bne @done
    jsr draw_landed
    jmp @done
@stack:
    jsr clear_top_five
@done:
    pla
    tax
    rts

; Carry set when the top five hats of pile X (hp set) are all l_type.
top_run_of_five:
    lda COUNTS, x
    cmp #5
    bcc @no
    tay
    lda #5
    sta t0
@loop:
    dey
    lda (hp), y
    cmp l_type
    bne @no
    dec t0
    bne @loop
    sec
    rts
@no:
    clc
    rts

; Removes the top five hats of pile l_col, pays for them and redraws the pile.
clear_top_five:
    ldx l_col
    lda HEIGHTS, x
    sta t6                      ; old top, for the region to redraw
    lda COUNTS, x
    sec
    sbc #5
    sta COUNTS, x
    tay
    lda (bp), y                 ; brim of the lowest vanished hat
    sta t5
    jsr recompute_height
    lda quiet
    bne :+
    ldx l_col
    lda t5
    ldy t6
    jsr mark_redraw
    jsr stack_cleared
:   rts

; HEIGHTS+X := the highest hat top of pile X (hp/bp set). Keeps X.
recompute_height:
    lda #0
    sta t0
    ldy COUNTS, x
    beq @done
@loop:
    dey
    lda (hp), y
    sty t1
    tay
    lda hat_height - 1, y
    ldy t1
    clc
    adc (bp), y
    cmp t0
    bcc :+
    sta t0
:   cpy #0
    bne @loop
@done:
    lda t0
    sta HEIGHTS, x
    rts

; Recomputes every brim of pile X from the bottom (after Alexey removed hats). Keeps X.
rebuild_bases:
    ldy #0
    lda COUNTS, x
    beq @done
    lda #0
    sta (bp), y
@loop:
    iny
    tya
    cmp COUNTS, x
    beq @done
    dey
    lda (hp), y                 ; lower hat
    stx t2
    tax
    lda times6 - 1, x
    iny
    clc
    adc (hp), y                 ; + upper hat
    tax
    dey
    lda (bp), y
    clc
    adc nest - 1, x
    iny
    sta (bp), y
    ldx t2
    jmp @loop
@done:
    jmp recompute_height

; A stack of l_type vanished: cash, helper progress, stacks left and the level.
stack_cleared:
    ldx l_type
    lda CASH
    clc
    adc cash_units - 1, x
    sta CASH
    lda CASH + 1
    clc
    adc cash_tens - 1, x
    sta CASH + 1
    lda CASH + 2
    clc
    adc cash_hundreds - 1, x
    sta CASH + 2
    ; decimal carries through all eight digits; the top one rolls over
    ldy #0
@carry:
    lda CASH, y
    cmp #10
    bcc @next
    sbc #10
    sta CASH, y
    cpy #7
    beq @next
    lda CASH + 1, y
    clc
    adc #1
    sta CASH + 1, y
@next:
    iny
    cpy #8
    bne @carry
    ; helper progress
    lda helper_of - 1, x
    sta t0
    tax
    inc PROGRESS - 1, x
    lda PROGRESS - 1, x
    cmp #5
    bcc @count
    lda #0
    sta PROGRESS - 1, x
    ldx POOL_COUNT
    cpx #8
    bcs @count
    lda t0
    sta POOL, x
    inc POOL_COUNT
@count:
    ; stacks left, two BCD digits
    lda STACKS_LEFT
    and #$0F
    bne :+
    lda STACKS_LEFT
    sec
    sbc #7                      ; $10 -> $09 etc.
    bne @left
:   lda STACKS_LEFT
    sec
    sbc #1
@left:
    sta STACKS_LEFT
    bne @done
    ; level complete
    lda #$15
    sta STACKS_LEFT
    lda finished
    bne @done
    inc STAGE
    lda STAGE
    cmp #10
    bcc @done
    lda SHOP
    cmp #5
    bne @next_shop
    ; the sixtieth level is done: play on with its rules
    lda #9
    sta STAGE
    lda #1
    sta finished
    rts
@next_shop:
    lda #0
    sta STAGE
    inc SHOP
    lda #1
    sta refill_due
@done:
    rts
