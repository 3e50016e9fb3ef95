; Mapper 48 (Taito TC0690): registers decode A15-A13, A1, A0 (mask $E003). $8000/$8001 8 KiB
; PRG banks at $8000/$A000 (6 bits), the second-last and last banks at $C000/$E000; $8002/
; $8003 2 KiB CHR banks (all 8 bits, in 2 KiB units), $A000-$A003 1 KiB CHR banks at $1000;
; $E000 bit 6 the mirroring (1 horizontal). IRQ: MMC3's A12-clocked counter with the
; reload value written inverted to $C000, $C001 reloads at the next clock, $C002 enables,
; $C003 disables and acknowledges; the line rises 12 dots (4 CPU cycles) after the rise
; that completes the count (the nesdev wiki: "about 4 CPU cycles" after MMC3's).
;
; With rendering off, the CPU clocks the counter itself: a $2006 write that sets v to $1000
; after one that set it to $0000 is an A12 rise. A rendering frame checks the scanline too.
MAPPER = 48
PRG8 = 16
CHR1 = 256
MIRROR = 1
CODEBANK = 15
.include "harness.inc"

.segment "ZEROPAGE"
n: .res 1
counts: .res 1

.segment "CODE"
script:
    expect_cpu $C000, 14        ; the fixed banks
    expect_cpu $E000, 15
    poke $8000, 3
    poke $8001, 5
    expect_cpu $8000, 3
    expect_cpu $A000, 5
    expect_cpu $C000, 14
    expect_cpu $E000, 15
    poke $8000, $C7             ; bits 6 and 7: no mirroring here
    expect_cpu $8000, 7
    expect_mirror MIR_V
    poke $E000, $40
    expect_mirror MIR_H
    poke $E000, $BF
    expect_mirror MIR_V
    poke $FFFC, $40             ; a mirror of $E000
    expect_mirror MIR_H
    poke $C000, 9               ; the IRQ latch, not a PRG bank
    expect_cpu $8000, 7
    poke $8005, 9               ; a mirror of $8001
    expect_cpu $A000, 9
    poke $8002, 100             ; 2 KiB banks: 100 is 1 KiB banks 200 and 201
    poke $8003, 7
    poke $A000, 64
    poke $A001, 127
    poke $A002, 6
    poke $A003, 255
    expect_ppu $0000, 200
    expect_ppu $0400, 201
    expect_ppu $0800, 14
    expect_ppu $0C00, 15
    expect_ppu $1000, 64
    expect_ppu $1400, 127
    expect_ppu $1800, 6
    expect_ppu $1C00, 255
    poke $BFFF, 33              ; a mirror of $A003
    expect_ppu $1C00, 33
    poke $8002, 9               ; switched again each pass: the picture moves
    expect_ppu $0000, 18
    expect_ppu $0400, 19

    ; IRQs taken after n, n+1, 2n+1 and 2n+2 clocks: none, one, one, two (the counter
    ; reloads itself from 0).
    poke n, 5
    expect_call irq_counts, $16
    poke n, 1
    expect_call irq_counts, $16
    poke n, 0                   ; $C000 = $FF: every clock raises the IRQ
    expect_call irq_counts, $16
    poke n, 255
    expect_call irq_count_long, $01
    ; The line after the rise on CPU cycle W: not up by W+3, up by W+4 (12 dots later).
    expect_call irq_by_3, 0
    expect_call irq_by_4, 1
    expect_call irq_by_5, 1
    ; A frame: latch 20, the IRQ on line 19 (the pre-render line reloads the counter).
    expect_call irq_frame, 206
    end_script

; Points the IRQ at `on_irq`, clears the count, and leaves A12 low.
arm:
    lda #<on_irq
    sta irq_hook+1
    lda #>on_irq
    sta irq_hook+2
    lda #0
    sta irq_count
    sta counts
    jmp a12_low

on_irq:
    pha
    inc irq_count
    sta $C003                   ; acknowledge (and disable), then enable again
    sta $C002
    pla
    rti

; v to $0000, then to $1000: one A12 rise (12 cycles apart: A12 was low long enough).
a12_low:
    bit $2002                   ; the next $2006 write is a first one
    lda #0
    sta $2006
    sta $2006
    rts
a12_clock:
    lda #$10
    sta $2006
    lda #0
    sta $2006
    jmp a12_low

; X clocks with the IRQ open, then the IRQs so far shifted into `counts`.
clocks:
    cpx #0
    beq :++
:   jsr a12_clock
    dex
    bne :-
:   nop                         ; the line is up 4 cycles after the last rise
    nop
    nop
    lda counts
    asl a
    asl a
    ora irq_count
    sta counts
    rts

irq_counts:
    jsr arm
    lda n
    eor #$FF
    sta $C000
    sta $C001
    sta $C002
    cli
    ldx n
    jsr clocks
    ldx #1
    jsr clocks
    ldx n
    jsr clocks
    ldx #1
    jsr clocks
    sei
    sta $C003
    lda counts
    rts

; n = 255: the 256th clock raises the IRQ.
irq_count_long:
    jsr arm
    lda n
    eor #$FF
    sta $C000
    sta $C001
    sta $C002
    cli
    ldx #255
    jsr clocks
    ldx #1
    jsr clocks
    sei
    sta $C003
    lda counts
    rts

; Latch 0 and the IRQ enabled, v's high byte $10 in t, I clear: the next $2006 write is
; the rise (cycle W).
irq_near:
    jsr arm
    lda #$FF
    sta $C000
    sta $C001
    sta $C002
    lda #$10
    sta $2006
    lda #0
    cli
    rts

irq_by_3:
    jsr irq_near
    sta $2006                   ; W
    nop                         ; polls on W+1
    sei                         ; polls on W+3
    sta $C003
    lda irq_count
    rts

irq_by_4:
    jsr irq_near
    sta $2006
    lda n                       ; polls on W+2
    sei                         ; polls on W+4
    sta $C003
    lda irq_count
    rts

irq_by_5:
    jsr irq_near
    sta $2006
    nop
    nop
    sei                         ; polls on W+5
    sta $C003
    lda irq_count
    rts

; Rendering with sprites at $1000 (one counted rise a line, at its sprite fetches) from the
; start of vertical blank: the IRQ's arrival in 10-cycle steps (low byte; 461 steps: 40 lines
; and 272 dots, less the setup). A line is 11.4
; steps, so a count one off reads 11 or 12 more or less.
irq_frame:
    jsr arm
    lda #$EB                    ; latch 20
    sta $C000
    sta $C001
    sta $C002
    bit $2002
:   bit $2002
    bpl :-
    lda #$08
    sta $2000
    lda #$18
    sta $2001
    ldx #0
    cli
:   lda irq_count               ; 10 cycles a step (12 when X wraps)
    bne :+
    inx
    bne :-
    jmp :-
:   sei
    sta $C003
    lda #0
    sta $2000
    lda writes_only             ; as it was: off while checking, background after
    beq :+
    lda #$0A
:   sta $2001
    txa
    rts
