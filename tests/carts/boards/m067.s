; Mapper 67 (Sunsoft-3): registers decode mask $F800. $8800/$9800/$A800/$B800 2 KiB CHR
; banks, $E800 mirroring, $F800 16 KiB PRG bank at $8000, the last bank at $C000. IRQ:
; $C800 loads the counter high byte then low byte (a toggle that $D800 resets), $D800 bit
; 4 counts once per CPU cycle; the wrap from $0000 raises the IRQ and pauses the count.
; Writes with A11 low ($8000, $9000, ... $F000 and mirrors) acknowledge; $D800 does not.
MAPPER = 67
PRG8 = 16
CHR1 = 128
MIRROR = 1
CODEBANK = 15
.include "harness.inc"

; With delay 100 the first window takes an IRQ whose line is up by cycle W + 511: a count
; of 510 ($01FE) wraps there, 511 one cycle too late.
DELAY = 100

.segment "ZEROPAGE"
n_hi: .res 1
n_lo: .res 1
w_addr: .res 2
w_val: .res 1

.segment "CODE"
script:
    expect_cpu $8000, 0
    expect_cpu $A000, 1
    expect_cpu $C000, 14
    expect_cpu $E000, 15
    poke $F800, 3
    expect_cpu $8000, 6
    expect_cpu $A000, 7
    expect_cpu $C000, 14
    poke $FFFF, 5               ; a mirror of $F800
    expect_cpu $8000, 10
    expect_cpu $E000, 15
    expect_mirror MIR_V
    poke $E800, 1
    expect_mirror MIR_H
    poke $E800, 2
    expect_mirror MIR_ONE
    poke $E800, 3
    expect_mirror MIR_ONE
    poke $EFFC, 0
    expect_mirror MIR_V
    poke $8800, 5
    poke $9800, 20
    poke $A800, 33
    poke $B800, 63
    expect_ppu $0000, 10
    expect_ppu $0400, 11
    expect_ppu $0800, 40
    expect_ppu $0C00, 41
    expect_ppu $1000, 66
    expect_ppu $1400, 67
    expect_ppu $1800, 126
    expect_ppu $1C00, 127
    poke $BFFF, 7               ; a mirror of $B800
    expect_ppu $1800, 14
    poke $9000, 9               ; an acknowledge, not a CHR bank
    expect_ppu $0800, 40
    expect_cpu $8000, 10

    poke delay, DELAY
    poke n_hi, $01
    poke n_lo, $FE
    expect_call irq_load, $11   ; on the first window's last cycle, once
    expect_call irq_left, $01   ; the wrap paused the count at $FFFF: $01FF is one too many
    expect_call irq_toggle, $11 ; $D800 sent the next $C800 write to the high byte
    poke n_lo, $FF
    expect_call irq_load, $01   ; one cycle later: not in the first window
    poke n_hi, $02
    poke n_lo, $FE
    expect_call irq_load, $00   ; $02FE: the high byte counts
    ; An IRQ left pending (I set), then a write: which writes acknowledge it.
    poke w_addr, <$F7FF
    poke w_addr+1, >$F7FF
    poke w_val, 0
    expect_call irq_pending_write, $00
    poke w_addr, <$D800
    poke w_addr+1, >$D800
    expect_call irq_pending_write, $11
    poke w_addr, <$8800
    poke w_addr+1, >$8800
    poke w_val, 5
    expect_call irq_pending_write, $11
    end_script

; Points the IRQ at `on_irq`, clears the count and pauses the counter (with the toggle reset).
arm:
    lda #<on_irq
    sta irq_hook+1
    lda #>on_irq
    sta irq_hook+2
    lda #0
    sta irq_count
    sta $D800
    rts

on_irq:
    pha
    inc irq_count
    sta $8000                   ; acknowledge
    pla
    rti

; Pauses and acknowledges, keeping A.
irq_off:
    ldx #0
    stx $D800
    stx $8000
    rts

irq_load:
    jsr arm
    lda n_hi
    sta $C800
    lda n_lo
    sta $C800
    lda #$10
    sta $D800
    jsr windows
    jmp irq_off

; Replaces only the high byte of what the last IRQ left (the count must have paused at
; $FFFF then, and not gone on counting until irq_off).
irq_left:
    jsr arm
    lda #$01
    sta $C800
    lda #$10
    sta $D800
    jsr windows
    jmp irq_off

irq_toggle:
    jsr arm
    lda #$AA
    sta $C800                   ; a high byte; the $D800 write in irq_load resets the toggle
    jmp irq_load

irq_pending_write:
    jsr arm
    sta $C800
    lda #16
    sta $C800
    lda #$10
    sta $D800
    ldx #20
:   dex
    bne :-
    ldy #0
    lda w_val
    sta (w_addr),y
    jsr windows
    jmp irq_off
