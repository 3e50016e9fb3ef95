; MMC3 workload cartridge for nesmind's benchmarks: a playfield scrolling sideways (a new
; column drawn every frame), a status bar below it split off by the MMC3 scanline IRQ,
; 8x16 sprites (a player and six movers), a CHR bank switched for animation, and music on
; all five channels from a swapped PRG bank. The pad drives it: Left/Right set the scroll
; speed, Up/Down move the player, A transposes the tune, B changes the pulses' duty.

PPUCTRL   = $2000
PPUMASK   = $2001
PPUSTATUS = $2002
OAMADDR   = $2003
PPUSCROLL = $2005
PPUADDR   = $2006
PPUDATA   = $2007
OAMDMA    = $4014
JOY1      = $4016

BANK_SELECT = $8000
BANK_DATA   = $8001
MIRRORING   = $A000
IRQ_LATCH   = $C000
IRQ_RELOAD  = $C001
IRQ_OFF     = $E000
IRQ_ON      = $E001

CTRL_BASE = %10100000           ; NMI on, 8x16 sprites, background at $0000
SPLIT_LINE = 190                ; the IRQ ends the playfield near line 192
ENEMIES = 6
OAM = $0200

BTN_A = $80
BTN_B = $40
BTN_UP = $08
BTN_DOWN = $04
BTN_LEFT = $02
BTN_RIGHT = $01

.segment "HEADER"
    .byte "NES", $1A, 2, 1, $41, $00, 0, 0, 0, 0, 0, 0, 0, 0

.segment "ZEROPAGE"
nmi_count:  .res 1
frame:      .res 1
pad:        .res 1
pad_new:    .res 1
wx:         .res 2              ; world scroll position in pixels
speed:      .res 1              ; signed pixels per frame, -3..3
px:         .res 1
py:         .res 1
score:      .res 4              ; decimal digits, most significant first
col_w:      .res 2              ; world column gen_column draws
col_addr:   .res 2              ; where the NMI writes col_buf
tmp:        .res 2
mus_step:   .res 1
mus_timer:  .res 1
transpose:  .res 1
duty:       .res 1
chr_frame:  .res 1
ex:         .res ENEMIES
ey:         .res ENEMIES
edx:        .res ENEMIES

.segment "BSS"
col_buf:    .res 24

.segment "CODE"
reset:
    sei
    cld
    ldx #$40
    stx $4017                   ; no frame IRQ
    ldx #$FF
    txs
    inx
    stx PPUCTRL
    stx PPUMASK
    stx $4010
    stx IRQ_OFF
    bit PPUSTATUS
@vbl1:
    bit PPUSTATUS
    bpl @vbl1
    txa
@clear:
    sta $00,x
    sta $0300,x
    sta $0400,x
    sta $0500,x
    sta $0600,x
    sta $0700,x
    lda #$FF
    sta OAM,x                   ; all sprites off screen
    lda #0
    inx
    bne @clear
@vbl2:
    bit PPUSTATUS
    bpl @vbl2

    ; Banks: BG 2 KiB banks 0 and 2, sprite 1 KiB banks 4-7, music bank 0, bank 1 at $A000.
    ldx #7
@banks:
    stx BANK_SELECT
    lda bank_init,x
    sta BANK_DATA
    dex
    bpl @banks
    lda #0
    sta MIRRORING               ; vertical: two screens side by side

    jsr load_palette
    jsr draw_world
    jsr draw_status

    lda #100
    sta px
    lda #120
    sta py
    lda #1
    sta speed
    ldx #ENEMIES - 1
@enemy:
    lda enemy_x,x
    sta ex,x
    lda enemy_y,x
    sta ey,x
    lda enemy_dx,x
    sta edx,x
    dex
    bpl @enemy

    lda #$0F
    sta $4015                   ; pulses, triangle, noise on (the DMC is started per hit)
    lda #1
    sta mus_timer

    cli
    lda #CTRL_BASE
    sta PPUCTRL
    lda #%00011110
    sta PPUMASK

main:
    lda nmi_count
@wait:
    cmp nmi_count
    beq @wait
    inc frame
    jsr read_pad
    jsr move_player
    jsr move_world
    jsr next_column
    jsr move_enemies
    jsr build_oam
    jsr music
    lda frame
    and #3
    bne main
    jsr add_point
    jmp main

read_pad:
    lda pad
    pha
    lda #1
    sta JOY1
    lda #0
    sta JOY1
    ldx #8
@bit:
    lda JOY1
    lsr a
    rol pad
    dex
    bne @bit
    pla
    eor #$FF
    and pad
    sta pad_new
    rts

move_player:
    lda pad
    and #BTN_UP
    beq @down
    lda py
    cmp #20
    bcc @down
    sbc #2
    sta py
@down:
    lda pad
    and #BTN_DOWN
    beq @a
    lda py
    cmp #160
    bcs @a
    adc #2
    sta py
@a:
    lda pad_new
    and #BTN_A
    beq @b
    lda transpose
    eor #5                      ; up a fourth, and back
    sta transpose
@b:
    lda pad_new
    and #BTN_B
    beq @done
    lda duty
    clc
    adc #$40
    sta duty
@done:
    rts

move_world:
    lda pad_new
    and #BTN_RIGHT
    beq @left
    lda speed
    cmp #3
    beq @left
    inc speed
@left:
    lda pad_new
    and #BTN_LEFT
    beq @move
    lda speed
    cmp #<-3
    beq @move
    dec speed
@move:
    lda speed
    clc
    adc wx
    sta wx
    lda speed
    and #$80
    beq @pos
    lda #$FF
@pos:
    adc wx+1
    sta wx+1
    rts

; The column just off screen on the side the world moves toward: wx/8 + 33, or wx/8 - 1
; when moving left.
next_column:
    lda wx+1
    sta col_w+1
    lda wx
    ldx #3
@shift:
    lsr col_w+1
    ror a
    dex
    bne @shift
    ldx speed
    bmi @back
    clc
    adc #33
    bcc @store
    inc col_w+1
    bcs @store
@back:
    sec
    sbc #1
    bcs @store
    dec col_w+1
@store:
    sta col_w
    ; fall through

; Fills col_buf with rows 0-23 of world column col_w and points col_addr at its place in
; the two nametables.
gen_column:
    lda col_w
    and #31
    sta col_addr
    lda col_w
    and #32
    lsr a
    lsr a
    lsr a                       ; 4 for the right-hand nametable
    ora #$20
    sta col_addr+1
    lda col_w
    and #15
    tax
    lda heights,x
    sta tmp                     ; first ground row
    lda col_w
    asl a
    asl a
    adc col_w
    sta tmp+1                   ; 5 * column: where the dots fall
    ldx #0
@row:
    cpx tmp
    bcc @sky
    bne @brick
    lda #12                     ; grass on top of the ground
    bne @put
@brick:
    lda #11
    bne @put
@sky:
    lda col_w
    and #7
    cmp #3
    bne @dots
    cpx #10
    bne @dots
    lda #14                     ; a floating block every eighth column
    bne @put
@dots:
    lda tmp+1
    and #15
    bne @empty
    lda #13
    bne @put
@empty:
    lda #0
@put:
    sta col_buf,x
    lda tmp+1
    clc
    adc #3
    sta tmp+1
    inx
    cpx #24
    bne @row
    rts

move_enemies:
    ldx #ENEMIES - 1
@each:
    lda ex,x
    clc
    adc edx,x
    sec
    sbc speed
    sta ex,x
    ; Bob up and down.
    txa
    asl a
    asl a
    adc frame
    and #31
    tay
    lda enemy_y,x
    clc
    adc bob,y
    sta ey,x
    ; Touching the player scores and sends the mover to the far edge.
    lda ex,x
    sec
    sbc px
    clc
    adc #12
    cmp #24
    bcs @next
    lda ey,x
    sec
    sbc py
    clc
    adc #14
    cmp #28
    bcs @next
    lda ex,x
    eor #$80
    sta ex,x
    jsr add_point
    jsr add_point
@next:
    dex
    bpl @each
    rts

; Player as two 8x16 sprites, then the movers; the rest stay hidden.
build_oam:
    ldx #0
    lda py
    sta OAM+0
    sta OAM+4
    lda #$01
    sta OAM+1
    lda #$03
    sta OAM+5
    lda #0
    sta OAM+2
    sta OAM+6
    lda px
    sta OAM+3
    clc
    adc #8
    sta OAM+7
    ldy #8
@each:
    lda ey,x
    sta OAM,y
    lda #$05
    sta OAM+1,y
    lda edx,x
    and #$40                    ; movers going left face left
    ora #1
    sta OAM+2,y
    lda ex,x
    sta OAM+3,y
    tya
    clc
    adc #4
    tay
    inx
    cpx #ENEMIES
    bne @each
    rts

add_point:
    txa
    pha
    ldx #3
@digit:
    inc score,x
    lda score,x
    cmp #10
    bne @done
    lda #0
    sta score,x
    dex
    bpl @digit
@done:
    pla
    tax
    rts

; One step of the tune every seven frames: pulse 1 the melody, pulse 2 a fifth above it,
; the triangle the bass, the noise and the DMC the drums.
music:
    dec mus_timer
    beq @play
    rts
@play:
    lda #7
    sta mus_timer
    ldx mus_step
    lda melody,x
    beq @harmony
    clc
    adc transpose
    tay
    lda duty
    ora #%00000100              ; decaying envelope
    sta $4000
    lda periods_lo,y
    sta $4002
    lda periods_hi,y
    ora #$08
    sta $4003
@harmony:
    lda melody,x
    beq @bass
    clc
    adc transpose
    adc #7
    tay
    lda duty
    eor #$80
    ora #%00000110
    sta $4004
    lda periods_lo,y
    sta $4006
    lda periods_hi,y
    ora #$08
    sta $4007
@bass:
    lda bass,x
    bne @bass_on
    lda #$80                    ; linear counter 0: silent
    sta $4008
    bne @drums
@bass_on:
    tay
    lda #$C0
    sta $4008
    lda periods_lo,y
    sta $400A
    lda periods_hi,y
    ora #$08
    sta $400B
@drums:
    lda drums,x
    lsr a
    bcc @dmc
    lda #$03
    sta $400C
    lda frame
    and #$80
    ora #$04
    sta $400E
    lda #$08
    sta $400F
@dmc:
    lda drums,x
    and #2
    beq @step
    lda #$0E
    sta $4010
    lda #<((sample - $C000) / 64)
    sta $4012
    lda #(sample_end - sample - 1) / 16
    sta $4013
    lda #$1F
    sta $4015
@step:
    inx
    txa
    and #31
    sta mus_step
    rts

load_palette:
    lda #$3F
    sta PPUADDR
    lda #$00
    sta PPUADDR
    ldx #0
@each:
    lda palette,x
    sta PPUDATA
    inx
    cpx #32
    bne @each
    rts

; World columns 0-63 fill both nametables, with VRAM increments of 32.
draw_world:
    lda #%00000100
    sta PPUCTRL
    lda #0
    sta col_w+1
    sta col_w
@column:
    jsr gen_column
    jsr put_column
    inc col_w
    lda col_w
    cmp #64
    bne @column
    lda #0
    sta PPUCTRL
    rts

put_column:
    lda col_addr+1
    sta PPUADDR
    lda col_addr
    sta PPUADDR
    ldx #0
@row:
    lda col_buf,x
    sta PPUDATA
    inx
    cpx #24
    bne @row
    rts

; Rows 24-29 of the left nametable: the bar; attributes of both.
draw_status:
    lda #$23
    sta PPUADDR
    lda #$00
    sta PPUADDR
    ldx #192
    lda #15
@bar:
    sta PPUDATA
    dex
    bne @bar
    ldy #$23
    jsr put_attributes
    ldy #$27
    ; fall through

put_attributes:
    sty PPUADDR
    lda #$C0
    sta PPUADDR
    ldx #0
@each:
    lda attributes,x
    sta PPUDATA
    inx
    cpx #64
    bne @each
    rts

nmi:
    pha
    txa
    pha
    tya
    pha
    lda #0
    sta OAMADDR
    lda #>OAM
    sta OAMDMA
    lda #CTRL_BASE | %100       ; columns: increments of 32
    sta PPUCTRL
    jsr put_column
    lda #CTRL_BASE
    sta PPUCTRL
    lda #$23
    sta PPUADDR
    lda #$44
    sta PPUADDR
    ldx #0
@digits:
    lda score,x
    clc
    adc #1                      ; tile 1 is the digit 0
    sta PPUDATA
    inx
    cpx #4
    bne @digits
    lda #0
    sta PPUDATA
    lda speed
    clc
    adc #4
    sta PPUDATA
    ; Top of the frame: the playfield at the world's scroll.
    lda wx
    sta PPUSCROLL
    lda #0
    sta PPUSCROLL
    lda wx+1
    and #1
    ora #CTRL_BASE
    sta PPUCTRL
    ; The split, rearmed every frame.
    sta IRQ_OFF
    lda #SPLIT_LINE
    sta IRQ_LATCH
    sta IRQ_RELOAD
    sta IRQ_ON
    ; Sprite animation: swap the 1 KiB bank at $1000 every eight frames.
    lda nmi_count
    and #8
    lsr a
    lsr a
    lsr a
    ora #4
    ldx #2
    stx BANK_SELECT
    sta BANK_DATA
    inc nmi_count
    pla
    tay
    pla
    tax
    pla
    rti

; The status bar: the left nametable, unscrolled.
irq:
    pha
    sta IRQ_OFF
    lda #0
    sta PPUSCROLL
    sta PPUSCROLL
    lda #CTRL_BASE
    sta PPUCTRL
    pla
    rti

.segment "RODATA"
bank_init:
    .byte 0, 2, 4, 5, 6, 7, 0, 1
heights:
    .byte 18, 18, 19, 20, 20, 19, 18, 17, 17, 18, 19, 19, 20, 21, 20, 19
enemy_x:
    .byte 20, 60, 110, 150, 200, 240
enemy_y:
    .byte 40, 70, 100, 55, 85, 120
enemy_dx:
    .byte 1, $FF, 2, $FE, 1, $FF
bob:
    .byte 0, 1, 2, 3, 4, 5, 5, 6, 6, 6, 5, 5, 4, 3, 2, 1
    .byte 0, $FF, $FE, $FD, $FC, $FB, $FB, $FA, $FA, $FA, $FB, $FB, $FC, $FD, $FE, $FF
palette:
    .byte $21, $30, $10, $0F,  $21, $29, $19, $09,  $21, $30, $16, $06,  $21, $27, $17, $07
    .byte $21, $16, $27, $30,  $21, $1A, $2A, $0F,  $21, $12, $22, $30,  $21, $14, $24, $30
attributes:
    .res 32, $00
    .res 16, $55
    .res 16, $AA
periods_lo:
    .lobytes $6AD,$64D,$5F3,$59D,$54C,$500,$4B8,$474,$434,$3F8,$3BF,$389
    .lobytes $356,$326,$2F9,$2CE,$2A6,$280,$25C,$23A,$21A,$1FB,$1DF,$1C4
    .lobytes $1AB,$193,$17C,$167,$152,$13F,$12D,$11C,$10C,$0FD,$0EF,$0E1
    .lobytes $0D5,$0C9,$0BD,$0B3,$0A9,$09F,$096,$08E,$086,$07E,$077,$070
periods_hi:
    .hibytes $6AD,$64D,$5F3,$59D,$54C,$500,$4B8,$474,$434,$3F8,$3BF,$389
    .hibytes $356,$326,$2F9,$2CE,$2A6,$280,$25C,$23A,$21A,$1FB,$1DF,$1C4
    .hibytes $1AB,$193,$17C,$167,$152,$13F,$12D,$11C,$10C,$0FD,$0EF,$0E1
    .hibytes $0D5,$0C9,$0BD,$0B3,$0A9,$09F,$096,$08E,$086,$07E,$077,$070

.segment "MUSIC"
; Note numbers index the period tables (0 = C2; 0 in melody and bass = rest).
melody:
    .byte 24, 0, 27, 0, 31, 29, 27, 0,  26, 0, 29, 0, 31, 0, 26, 0
    .byte 24, 0, 27, 31, 34, 0, 31, 29, 27, 0, 26, 0, 24, 0, 0, 0
bass:
    .byte 12, 12, 0, 12, 8, 8, 0, 8,  10, 10, 0, 10, 7, 7, 0, 7
    .byte 12, 12, 0, 12, 8, 8, 0, 8,  10, 0, 7, 0, 12, 0, 12, 0
drums:
    .byte 3, 0, 1, 0, 3, 0, 1, 1,  3, 0, 1, 0, 3, 0, 1, 1
    .byte 3, 0, 1, 0, 3, 0, 1, 1,  3, 0, 1, 0, 3, 1, 3, 1

.segment "SAMPLE"
; A short thump for the DMC: deltas that rise, then fall.
sample:
    .res 16, $FF
    .res 16, $F0
    .res 16, $00
    .res 16, $0F
    .byte $00
sample_end:

.segment "VECTORS"
    .word nmi, reset, irq

.segment "CHARS"
; Background tiles (pattern table $0000): 0 blank, 1-10 digits, 11 brick, 12 grass,
; 13 dots, 14 block, 15 bar.
    .res 16, $00
.macro digit r0, r1, r2, r3, r4, r5, r6
    .byte r0, r1, r2, r3, r4, r5, r6, $00
    .res 8, $00
.endmacro
    digit $3C, $66, $6E, $76, $66, $66, $3C
    digit $18, $38, $18, $18, $18, $18, $7E
    digit $3C, $66, $06, $0C, $30, $60, $7E
    digit $3C, $66, $06, $1C, $06, $66, $3C
    digit $0C, $1C, $3C, $6C, $7E, $0C, $0C
    digit $7E, $60, $7C, $06, $06, $66, $3C
    digit $3C, $60, $7C, $66, $66, $66, $3C
    digit $7E, $06, $0C, $18, $30, $30, $30
    digit $3C, $66, $66, $3C, $66, $66, $3C
    digit $3C, $66, $66, $3E, $06, $0C, $38
    .byte $FF, $80, $80, $80, $FF, $08, $08, $08,  $00, $7F, $7F, $7F, $00, $F7, $F7, $F7
    .byte $FF, $FF, $AA, $55, $AA, $55, $AA, $55,  $FF, $00, $FF, $FF, $FF, $FF, $FF, $FF
    .byte $00, $00, $10, $00, $00, $00, $01, $00,  $00, $00, $00, $00, $00, $00, $00, $00
    .byte $7E, $FF, $FF, $FF, $FF, $FF, $FF, $7E,  $7E, $81, $81, $81, $81, $81, $81, $7E
    .res 8, $FF
    .res 8, $00
    .res $1000 - 16 * 16, $00
; Sprite tiles, 1 KiB bank 4 (frame A) and bank 5 (frame B): 0-3 the player's two 8x16
; halves, 4-5 a mover.
.macro sprites shift
    .byte $07, $0F, $1F, $3F, $3F, $7F, $7F, $7F,  $00, $03, $07, $0F, $0F, $1F, $1F, $1F
    .byte $7F, $7F, $3F, $3F, $1F, $0F >> shift, $06, $06,  $1F, $1F, $0F, $0F, $07, $03, $00, $00
    .byte $E0, $F0, $F8, $FC, $FC, $FE, $FE, $FE,  $00, $C0, $E0, $F0, $F0, $F8, $F8, $F8
    .byte $FE, $FE, $FC, $FC, $F8, ($F0 << shift) & $FF, $60, $60,  $F8, $F8, $F0, $F0, $E0, $C0, $00, $00
    .byte $18, $3C, $7E, $DB >> shift, $FF, $FF, $7E, $3C,  $00, $18, $3C, $24, $00, $00, $18, $00
    .byte $3C, $7E, $FF, $FF, $DB, ($99 << shift) & $FF, $42, $81,  $00, $18, $3C, $00, $24, $00, $00, $00
    .res $400 - 6 * 16, $00
.endmacro
    sprites 0
    sprites 1
