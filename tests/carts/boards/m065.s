; Mapper 65 (Irem H3001): $8000 PRG bank at $8000 (or $C000 in PRG mode 1, $9000 bit 7;
; the other shows the second-last bank), $A000 PRG bank at $A000, the last bank at $E000,
; $9001 mirroring (bit 6 one-screen, else bit 7 horizontal), $B000-$B007 1 KiB CHR banks.
; IRQ: $9005/$9006 latch high/low, $9004 reloads the counter, $9003 bit 7 enables counting
; (one count per CPU cycle, the IRQ when it reaches 0); both acknowledge.
MAPPER = 65
PRG8 = 16
CHR1 = 128
MIRROR = 1
CODEBANK = 15
.include "harness.inc"

; With delay 100 the first window takes an IRQ whose line is up by cycle W + 511: a reload
; of 511 ($01FF) reaches 0 there, 512 one cycle too late.
DELAY = 100

.segment "ZEROPAGE"
n_hi: .res 1
n_lo: .res 1

.segment "CODE"
script:
    expect_cpu $8000, 0         ; the power-on banks
    expect_cpu $A000, 1
    expect_cpu $C000, 14
    expect_cpu $E000, 15
    poke $8000, 3
    poke $A000, 5
    expect_cpu $8000, 3
    expect_cpu $A000, 5
    expect_cpu $C000, 14
    poke $9000, $80             ; PRG mode 1
    expect_cpu $8000, 14
    expect_cpu $A000, 5
    expect_cpu $C000, 3
    poke $8000, 6
    expect_cpu $C000, 6
    expect_cpu $8000, 14
    poke $9000, $7F             ; mode 0: only bit 7 counts
    expect_cpu $8000, 6
    expect_cpu $C000, 14
    expect_cpu $E000, 15
    expect_mirror MIR_V
    poke $9001, $80
    expect_mirror MIR_H
    poke $9001, $40
    expect_mirror MIR_ONE
    poke $9001, $C0
    expect_mirror MIR_ONE
    poke $9001, $3F
    expect_mirror MIR_V
    poke $B000, 100
    poke $B001, 101
    poke $B002, 2
    poke $B003, 3
    poke $B004, 64
    poke $B005, 127
    poke $B006, 6
    poke $B007, 77
    expect_ppu $0000, 100
    expect_ppu $0400, 101
    expect_ppu $0800, 2
    expect_ppu $0C00, 3
    expect_ppu $1000, 64
    expect_ppu $1400, 127
    expect_ppu $1800, 6
    expect_ppu $1C00, 77
    poke $B000, 9               ; switched again each pass: the picture moves
    expect_ppu $0000, 9
    expect_ppu $0400, 101

    poke delay, DELAY
    poke n_hi, $01
    poke n_lo, $FF
    expect_call irq_reload, $11 ; on the first window's last cycle, once
    expect_call irq_pause, $11  ; the count waits while disabled
    expect_call irq_ack, $11
    poke n_lo, $00
    poke n_hi, $02
    expect_call irq_reload, $01 ; one cycle later: not in the first window
    expect_call irq_pause, $01
    expect_call irq_ack, $01    ; $9004 acknowledged the IRQ pending before it
    poke n_lo, $FF
    expect_call irq_reload, $00 ; $02FF: the high byte counts
    end_script

; Points the IRQ at `on_irq`, clears the count and latches n.
arm:
    lda #<on_irq
    sta irq_hook+1
    lda #>on_irq
    sta irq_hook+2
    lda #0
    sta irq_count
    lda n_hi
    sta $9005
    lda n_lo
    sta $9006
    rts

on_irq:
    pha
    inc irq_count
    lda #$80                    ; acknowledge, counting stays on
    sta $9003
    pla
    rti

; Disables and acknowledges, keeping A.
irq_off:
    ldx #0
    stx $9003
    rts

irq_reload:
    jsr arm
    lda #$80
    sta $9003
    sta $9004
    jsr windows
    jmp irq_off

; n loaded while disabled, then 250 cycles in which nothing may count; counting starts at
; the enabling write.
irq_pause:
    jsr arm
    lda #0
    sta $9003
    sta $9004
    ldx #50
:   dex
    bne :-
    lda #$80
    sta $9003
    jsr windows
    jmp irq_off

; An IRQ left pending (I set), then a reload of n: the reload must acknowledge it, else the
; first window takes it at once.
irq_ack:
    jsr arm
    lda #0
    sta $9005
    lda #16
    sta $9006
    lda #$80
    sta $9003
    sta $9004
    ldx #20
:   dex
    bne :-
    lda n_hi
    sta $9005
    lda n_lo
    sta $9006
    sta $9004
    jsr windows
    jmp irq_off
