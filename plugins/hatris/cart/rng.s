; The hat-pair generator. Two state bytes (RNG_H1/H2) are mixed with the frame counter's
; low byte and rotated through the carry; results are type = state mod 6 + 1. The level
; decides which types may appear, and a pair of two equal hats is drawn once more.

.segment "CODE"

; One draw: PICK1/PICK2 := two hat types 1-6. Keeps X.
randomize:
    lda FRAME_LO                ; read once: the NMI may bump it at any time
    sta t0
    sec                         ; every draw rotates a set carry into H1
    eor RNG_H1
    ror a
    sta RNG_H1
    lda t0
    eor RNG_H2
    rol a                       ; H1's outgoing bit enters H2
    sta RNG_H2
    lda RNG_H1
    jsr mod6_plus1
    sta PICK1
    lda RNG_H2
    jsr mod6_plus1
    sta PICK2
    rts

mod6_plus1:
    sec
:   sbc #6
    bcs :-
    adc #7                      ; borrowed: A = value mod 6 - 6, carry clear
    rts

; Draws until both types suit the level: shop 0 keeps crowns out below stage 6, wizards
; below stage 3 and derbies at stage 0. Keeps X.
pick:
    jsr randomize
    lda SHOP
    bne @ok
    lda STAGE
    cmp #6
    bcs @ok
    lda #CROWN
    cmp PICK1
    beq pick
    cmp PICK2
    beq pick
    lda STAGE
    cmp #3
    bcs @ok
    lda #WIZARD
    cmp PICK1
    beq pick
    cmp PICK2
    beq pick
    lda STAGE
    bne @ok
    lda #DERBY
    cmp PICK1
    beq pick
    cmp PICK2
    beq pick
@ok:
    rts

; The next pair := the following pair. Clobbers X.
next_pair:
    ; The pick loop relies on the frame counter moving on (NMIs) to leave a run of
    ; unsuitable draws, so no pile work may keep NMIs off now.
    jsr end_pile_work
    jsr pick
    lda PICK1
    cmp PICK2
    bne :+
    jsr pick
:   ldx #0
    lda PICK1
    jsr next_set
    inx
    lda PICK2
    jsr next_set
    .if NEXT_BG
        stx preview_due
    .endif
    rts
