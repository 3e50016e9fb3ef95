; The test port: reports for test harnesses (never for players), written byte by byte to
; PORT, an address nothing on the board decodes. Each report is a tag byte and its fields;
; README.md ("Test port") gives the format. Piles are reported as types 1-6, bottom first,
; read back through the pile storage, so a report is also a check that storage decodes.

PORT_VERSION = 1
P_HELLO   = $A0
P_SPAWN   = $A1
P_LANDED  = $A2
P_CLEARED = $A3
P_HELPER  = $A4
P_TAKE    = $A5
P_SWAP    = $A6
P_OVER    = $A7
P_REFILL  = $A8
P_MOVED   = $A9
P_START   = $AA
P_SPLIT   = $AB
P_FAIL    = $AE

.segment "CODE"

; At power-on: the port's version and the build's CHECK flag.
port_hello:
    lda #P_HELLO
    sta PORT
    lda #PORT_VERSION
    sta PORT
    lda #CHECK
    sta PORT
    rts

; A game starts in shop A.
port_start:
    pha
    lda #P_START
    sta PORT
    pla
    sta PORT
    rts

; Hat l_type landed (quiet: dealt between shops) on pile l_col; or a stack of it vanished
; there. Keep X and Y.
port_landed:
    lda #P_LANDED
    bne port_hat                ; always
port_cleared:
    lda #P_CLEARED
port_hat:
    sta PORT
    lda l_col
    sta PORT
    lda l_type
    sta PORT
    lda quiet
    sta PORT
    rts

; Helper A was called. Keeps X and Y.
port_helper:
    pha
    lda #P_HELPER
    sta PORT
    pla
    sta PORT
    rts

; Alexey took the bottom hat of pile X. Keeps X and Y.
port_take:
    lda #P_TAKE
    sta PORT
    stx PORT
    rts

; Vladimir swapped piles t0 and t1.
port_swap:
    lda #P_SWAP
    sta PORT
    lda t0
    sta PORT
    lda t1
    sta PORT
    rts

; The shop's piles are emptied and dealt afresh (LANDED reports with quiet 1 follow).
port_refill:
    lda #P_REFILL
    sta PORT
    lda SHOP
    sta PORT
    rts

; The pair split: one hat stopped, hat free_hat (0 or 1) hovers and falls on alone.
port_split:
    lda #P_SPLIT
    sta PORT
    lda free_hat
    sta PORT
    rts

; The falling hats' types and columns. Keeps X and Y.
port_moved:
    lda #P_MOVED
    sta PORT
port_pair:
    txa
    pha
    ldx #0
:   jsr hat_type
    sta PORT
    jsr hat_col
    sta PORT
    inx
    cpx #2
    bne :-
    pla
    tax
    rts

; A pair spawned: the spawn count, shop, stage, cash, the pair, the next pair, the pool, the
; pile heights and the piles.
port_spawn:
    lda #P_SPAWN
    sta PORT
    lda SPAWNS
    sta PORT
    lda SPAWNS + 1
    sta PORT
    lda SPAWNS + 2
    sta PORT
    lda SHOP
    sta PORT
    lda STAGE
    sta PORT
    jsr port_cash
    jsr port_pair
    ldx #0
    jsr next_get
    sta PORT
    inx
    jsr next_get
    sta PORT
    jsr pool_count
    sta PORT
    sta port_n
    ldx #0
:   cpx port_n
    beq :+
    jsr pool_get
    sta PORT
    inx
    bne :-                      ; always
:   ldx #0
:   lda HEIGHTS, x
    sta PORT
    inx
    cpx #COLUMNS
    bne :-
    jmp port_piles

; The game is over: cash, shop, stage and the piles.
port_over:
    lda #P_OVER
    sta PORT
    jsr port_cash
    lda SHOP
    sta PORT
    lda STAGE
    sta PORT
    ; fall through
; Each pile: its count, then its types from the bottom.
port_piles:
    ldx #0
@pile:
    jsr pile_ptrs
    jsr count_get
    sta PORT
    sta port_n
    ldy #0
@hat:
    cpy port_n
    beq @next
    jsr type_at
    sta PORT
    iny
    bne @hat                    ; always
@next:
    inx
    cpx #COLUMNS
    bne @pile
    rts

port_cash:
    ldx #0
:   lda CASH, x
    sta PORT
    inx
    cpx #8
    bne :-
    rts

; The check build found storage that disagrees with its shadow (A: what, X: which, t0: the
; value stored, Y: the shadow's), and stops: NMIs off, the CPU in a loop.
port_fail:
    pha
    lda #P_FAIL
    sta PORT
    pla
    sta PORT
    stx PORT
    lda t0
    sta PORT
    sty PORT
    sei
    lda #0
    sta PPUCTRL
:   jmp :-
