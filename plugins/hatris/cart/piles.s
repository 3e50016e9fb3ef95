; The six piles: landing (with the nesting table), clearing stacks of five, paying for
; them, and the level count. The piles are read and written through store.s; HEIGHTS+c
; (console RAM) is pile c's top.

.segment "RODATA"

; Hat heights in pixels, by type 1-6.
hat_height: .byte 20, 24, 16, 12, 8, 11
; Brim-to-brim offset: nest[(lower-1)*6 + upper-1].
nest:
.if NEST_B
    ; The ROM table read as "B" (row = landing hat, column = hat below, value = growth of
    ; the pile top), turned into brim offsets: H[lower] + TABLE[upper][lower] - H[upper].
    .byte  2,  4, 13, 16, 14, 14
    .byte 22,  4, 18, 20, 19, 19
    .byte 14,  8, 10, 11, 11, 10
    .byte 10,  8,  6,  6,  8,  6
    .byte  6,  3,  2,  5,  2,  3
    .byte  9,  6,  5,  7,  7,  5
.else
    ; The ROM table read as "A": row = hat below, column = landing hat.
    .byte  2, 18, 18, 18, 18, 18
    .byte  8,  4, 16, 20, 19, 19
    .byte  9, 10, 10, 10, 10, 10
    .byte  8,  8,  7,  6,  9,  8
    .byte  2,  3,  3,  4,  2,  4
    .byte  5,  6,  5,  5,  6,  5
.endif
times6: .byte 0, 6, 12, 18, 24, 30
; Cash per stack: units, tens, hundreds digits (150, 200, 300, 120, 50, 80).
cash_units:    .byte 0, 0, 0, 0, 0, 0
cash_tens:     .byte 5, 0, 0, 2, 5, 8
cash_hundreds: .byte 1, 2, 3, 1, 0, 0
; Which helper a cleared stack works towards: crowns, derbies, wizards earn Alexey.
helper_of: .byte HELPER_VLADIMIR, HELPER_ALEXEY, HELPER_ALEXEY, HELPER_VLADIMIR, HELPER_ALEXEY, HELPER_VLADIMIR

.segment "CODE"

; Empties every pile and has the old pictures erased.
empty_piles:
    ldx #COLUMNS - 1
:   lda HEIGHTS, x
    ora #1                      ; redraw at least the bottom row
    tay
    lda #0
    jsr count_set
    sta HEIGHTS, x
    jsr mark_redraw
    dex
    bpl :-
    SH_CALL sh_empty
    SH_CALL check_piles
    rts

.if FLAG_KIND = 2
; A new pair: no hat has just landed any more.
clear_all_flags:
    ldx #COLUMNS - 1
:   jsr pile_ptrs
    jsr clear_flags
    dex
    bpl :-
    rts
.endif

; Lands hat l_type on pile l_col: stacks of five vanish and pay, the picture is updated
; (unless `quiet`). Keeps X.
land:
    txa
    pha
    jsr port_landed_sfx         ; port_landed, with a thud
    ldx l_col
    jsr pile_ptrs
    jsr count_get
    tay
    beq @bottom
    dey
    jsr type_at                 ; the hat below
    tax
    lda times6 - 1, x
    clc
    adc l_type
    sta t0
    jsr base_at
    ldx t0
    clc
    adc nest - 1, x
    iny
    bne @store                  ; always (y >= 1)
@bottom:
    lda #0
@store:
    sta l_base
    jsr set_base
    lda l_type
    jsr set_type_new
    iny
    tya
    ldx l_col
    jsr count_set
    .if CHECK
        lda l_type
        jsr sh_push
    .endif
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
.if FLASH
    lda quiet
    bne :+
    jsr draw_landed             ; the stack shows whole, flashes, and vanishes later
    lda l_col
    sta flash_col
    lda l_type
    sta flash_type
    lda #FLASH
    sta flash_t
    bne @done                   ; always
:
.endif
    jsr clear_top_five
@done:
    ldx l_col
    STORE_LANDED
    SH_CALL check_piles
    pla
    tax
    rts

; Carry set when the top five hats of pile X (hp set) are all l_type.
top_run_of_five:
    jsr count_get
    cmp #5
    bcc @no
    tay
    lda #5
    sta t0
@loop:
    dey
    jsr type_at
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
    jsr count_get
    sec
    sbc #5
    jsr count_set
    tay
    jsr base_at                 ; brim of the lowest vanished hat
    sta t5
    jsr recompute_height
    SH_CALL sh_pop5
    jsr port_cleared_sfx        ; port_cleared, with the clearing's sounds
    STORE_REMOVED
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
    jsr count_get
    tay
    beq @done
@loop:
    dey
    jsr type_at
    sty t1
    tay
    lda hat_height - 1, y
    ldy t1
    sta t2
    jsr base_at
    clc
    adc t2
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
    jsr count_get
    sta n_cache
    beq @done
    ldy #0
    lda #0
    jsr set_base
@loop:
    iny
    cpy n_cache
    beq @done
    dey
    jsr type_at                 ; lower hat
    stx t2
    tax
    lda times6 - 1, x
    sta t4
    iny
    jsr type_at                 ; + upper hat
    clc
    adc t4
    tax
    dey
    jsr base_at
    clc
    adc nest - 1, x
    iny
    jsr set_base
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
    jsr pool_count
    cmp #8
    bcs @count
    lda t0
    jsr pool_push
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
