; Screen text: the character map onto the font tiles, the fixed labels, and the text
; slots refreshed one per frame when no pile picture is waiting: the status line, the
; helper pool with its progress bars, and the two message lines in the well.

; ASCII codes as numbers: character constants would themselves go through the map.
.charmap $20, 0
.repeat 10, i
    .charmap $30 + i, TILE_FONT + i
.endrep
.repeat 26, i
    .charmap $41 + i, TILE_FONT + 10 + i
.endrep
.charmap $2D, TILE_FONT + 36    ; -
.charmap $3D, TILE_FONT + 37    ; =
.charmap $3A, TILE_FONT + 38    ; :
.charmap $21, TILE_FONT + 39    ; !
.charmap $2E, TILE_FONT + 40    ; .

; One message line: 16 characters, centred in the well (columns 8-23).
MSG_WIDTH = 16
.macro MSGLINE s
    .assert .strlen(s) = MSG_WIDTH, error, "message lines are 16 characters"
    .byte s
.endmacro

.segment "RODATA"

; A nametable address as the two bytes a text run starts with (high first).
.macro NT_AT row, col
    .byte >($2000 + (row) * 32 + (col)), <($2000 + (row) * 32 + (col))
.endmacro

; Runs of nametable bytes: address high, low, length, bytes; 0 ends the list.
static_text:
    NT_AT NEXT_ROW, NEXT_COL
    .byte 4, "NEXT"
    NT_AT POOL_ROW, POOL_COL
    .byte 4, "HELP"
    NT_AT INFO_ROW, INFO_COL
    .byte 6, "A SWAP"
    NT_AT INFO_ROW + 2, INFO_COL
    .byte 6, "B HELP"
    NT_AT INFO_ROW + 4, INFO_COL
    .byte 4, "DOWN"
    NT_AT INFO_ROW + 5, INFO_COL
    .byte 5, "DROPS"
    .byte 0

STATUS_DIGITS = 3 + 5
STATUS_SHOP   = 3 + 19
STATUS_LEFT   = 3 + 28
status_template:
    NT_AT STATUS_ROW, STATUS_COL
    .byte 30, "CASH 0000000  SHOP 00  LEFT 00"
status_end:

POOL_FIRST = 3
POOL_LAST4 = 10
BAR_ALEXEY = 18
BAR_VLAD   = 27
pool_template:
    NT_AT POOL_ROW + 2, POOL_COL
    .byte 4, 0, 0, 0, 0
    NT_AT POOL_ROW + 3, POOL_COL
    .byte 4, 0, 0, 0, 0
    NT_AT POOL_ROW + 5, POOL_COL
    .byte 6, "A", 0, 0, 0, 0, 0
    NT_AT POOL_ROW + 6, POOL_COL
    .byte 6, "V", 0, 0, 0, 0, 0
pool_end:

msg_ptrs: .word msg_none, msg_title, msg_over, msg_shop, msg_alexey, msg_vladimir, msg_menu
msg_none:
    MSGLINE "                "
    MSGLINE "                "
msg_title:
    MSGLINE "  NESMIND HATS  "
    MSGLINE "  PRESS  START  "
msg_over:
    MSGLINE "   GAME  OVER   "
    MSGLINE "                "
msg_shop:
    MSGLINE " SHOP COMPLETE! "
    MSGLINE "NEW HATS COMING "
msg_alexey:
    MSGLINE "ALEXEY: A TAKES "
    MSGLINE "BOTTOM HAT  B OK"
msg_vladimir:
    MSGLINE "VLADIMIR: A ON  "
    MSGLINE "TWO PILES: SWAP "
msg_menu:
    MSGLINE "  CHOOSE  SHOP  "
    MSGLINE "RIGHT LEFT  A GO"

.segment "CODE"

build_text:
    ldx text_slot
    inx
    cpx #3
    bcc :+
    ldx #0
:   stx text_slot
    cpx #1
    bne :+
    jmp text_pool
:   bcc text_status
    jmp text_message
text_status:
    ldy #status_end - status_template - 1
:   lda status_template, y
    sta TEXT_BUF, y
    dey
    bpl :-
    ldx #6
    ldy #STATUS_DIGITS
:   lda CASH, x
    clc
    adc #TILE_FONT
    sta TEXT_BUF, y
    iny
    dex
    bpl :-
    lda SHOP
    clc
    adc #TILE_FONT
    sta TEXT_BUF + STATUS_SHOP
    lda STAGE
    clc
    adc #TILE_FONT
    sta TEXT_BUF + STATUS_SHOP + 1
    lda STACKS_LEFT
    lsr a
    lsr a
    lsr a
    lsr a
    clc
    adc #TILE_FONT
    sta TEXT_BUF + STATUS_LEFT
    lda STACKS_LEFT
    and #$0F
    clc
    adc #TILE_FONT
    sta TEXT_BUF + STATUS_LEFT + 1
    lda #0
    sta TEXT_BUF + (status_end - status_template)
    rts

text_pool:
    ldy #pool_end - pool_template - 1
:   lda pool_template, y
    sta TEXT_BUF, y
    dey
    bpl :-
    .if .not POOL_SPR           ; (else the pool is shown as sprites)
    jsr pool_count
    sta t0
    ldx #0
@pool:
    cpx t0
    bcs @bars
    jsr pool_get
    cmp #HELPER_VLADIMIR
    lda #TILE_FONT + 10         ; A
    bcc :+
    lda #TILE_FONT + 31         ; V
:   ldy pool_slot, x
    sta TEXT_BUF, y
    inx
    cpx #8
    bne @pool
    .endif
@bars:
    ldx #0
:   lda #TILE_BAR_OFF
    cpx PROGRESS
    bcs :+
    lda #TILE_BAR_ON
:   sta TEXT_BUF + BAR_ALEXEY, x
    lda #TILE_BAR_OFF
    cpx PROGRESS + 1
    bcs :+
    lda #TILE_BAR_ON
:   sta TEXT_BUF + BAR_VLAD, x
    inx
    cpx #5
    bne :---
    lda #0
    sta TEXT_BUF + (pool_end - pool_template)
    rts

pool_slot: .byte POOL_FIRST, POOL_FIRST + 1, POOL_FIRST + 2, POOL_FIRST + 3
           .byte POOL_LAST4, POOL_LAST4 + 1, POOL_LAST4 + 2, POOL_LAST4 + 3

text_message:
    lda message
    asl a
    tax
    lda msg_ptrs, x
    sta ptr
    lda msg_ptrs + 1, x
    sta ptr + 1
    MSG_AT1 = $2000 + (WELL_TOP - 5) * 32 + MSG_COL
    MSG_AT2 = $2000 + (WELL_TOP - 3) * 32 + MSG_COL
    lda #>MSG_AT1               ; two rows above the well
    sta TEXT_BUF
    lda #>MSG_AT2
    sta TEXT_BUF + MSG_WIDTH + 3
    lda #<MSG_AT1
    sta TEXT_BUF + 1
    lda #<MSG_AT2
    sta TEXT_BUF + MSG_WIDTH + 4
    lda #MSG_WIDTH
    sta TEXT_BUF + 2
    sta TEXT_BUF + MSG_WIDTH + 5
    ldy #0
:   lda (ptr), y
    sta TEXT_BUF + 3, y
    iny
    cpy #MSG_WIDTH
    bne :-
:   lda (ptr), y
    sta TEXT_BUF + 6, y         ; second line: 3 header bytes further on
    iny
    cpy #2 * MSG_WIDTH
    bne :-
    lda #0
    sta TEXT_BUF + 2 * MSG_WIDTH + 6
    rts
