; Mapper 18 (Jaleco SS88006): every register takes a nibble (D3-D0), the even address of a
; pair the low one. $8000/1, $8002/3, $9000/1 the 8 KiB PRG banks at $8000, $A000, $C000
; (the last bank at $E000); $9002 PRG RAM (bit 0 on, bit 1 writable); $A000/1 ... $D002/3
; the 1 KiB CHR banks; $F002 mirroring (0 H, 1 V, 2-3 one-screen). IRQ: $E000-$E003 the
; reload value's nibbles (low first), $F000 copies it into the counter, $F001 bit 0 counts
; once per CPU cycle in the low 16, 12 (bit 1), 8 (bit 2) or 4 (bit 3) bits, the IRQ when
; those wrap from 0; $F000 and $F001 acknowledge.
MAPPER = 18
PRG8 = 32
CHR1 = 256
MIRROR = 1
CODEBANK = 31
PRGRAM_SHIFT = 7
.include "harness.inc"

; With delay 100 the first window takes an IRQ whose line is up by cycle W + 511: a count
; of 510 ($01FE) wraps there (511 cycles), 511 one cycle too late.
DELAY = 100

.segment "ZEROPAGE"
n_hi: .res 1
n_lo: .res 1
control: .res 1

.segment "CODE"
script:
    expect_cpu $E000, 31        ; the fixed bank
    poke $8000, 3
    poke $8001, 1
    expect_cpu $8000, 19
    poke $8000, $F6             ; only the low nibble counts
    expect_cpu $8000, 22
    poke $8002, 5
    poke $8003, 0
    expect_cpu $A000, 5
    poke $9000, 7
    poke $9001, 1
    expect_cpu $C000, 23
    expect_cpu $8000, 22
    expect_cpu $E000, 31
    poke $8FFC, 2               ; a mirror of $8000 (A2-A11 are not decoded)
    expect_cpu $8000, 18
    poke $A000, 4
    poke $A001, 6
    poke $A002, 1
    poke $A003, 0
    poke $B000, 15
    poke $B001, 15
    poke $B002, 2
    poke $B003, 3
    poke $C000, 0
    poke $C001, 8
    poke $C002, 9
    poke $C003, 12
    poke $D000, 7
    poke $D001, 0
    poke $D002, $3E
    poke $D003, $F7
    expect_ppu $0000, 100
    expect_ppu $0400, 1
    expect_ppu $0800, 255
    expect_ppu $0C00, 50
    expect_ppu $1000, 128
    expect_ppu $1400, 201
    expect_ppu $1800, 7
    expect_ppu $1C00, 126
    poke $A000, 9               ; switched again each pass: the picture moves
    expect_ppu $0000, 105
    expect_mirror MIR_H         ; $F002 powers on 0
    poke $F002, 1
    expect_mirror MIR_V
    poke $F002, 2
    expect_mirror MIR_ONE
    poke $F002, 3
    expect_mirror MIR_ONE
    poke $F002, $FC             ; two bits
    expect_mirror MIR_H
    poke $F002, 1
    ; PRG RAM: on and writable at power-on; $9002 bit 1 protects, bit 0 disconnects.
    poke $6000, $55
    expect_cpu $6000, $55
    poke $9002, 1
    poke $6000, $AA
    expect_cpu $6000, $55
    poke $9002, 0
    expect_cpu $6000, $60       ; open bus: the pointer's high byte
    poke $9002, 3
    expect_cpu $6000, $55
    poke $7FFF, $AA
    expect_cpu $7FFF, $AA

    poke delay, DELAY
    poke control, 1
    poke n_hi, $01
    poke n_lo, $FE
    expect_call irq_reload, $11 ; on the first window's last cycle, once
    expect_call irq_pause, $11  ; the count waits while disabled
    expect_call irq_ack, $11
    poke n_lo, $FF
    expect_call irq_reload, $01 ; one cycle later: not in the first window
    expect_call irq_pause, $01
    expect_call irq_ack, $01    ; $F000 acknowledged the IRQ pending before it
    poke n_hi, $02
    poke n_lo, $FE
    expect_call irq_reload, $00 ; $02FE: the high nibbles count
    poke control, 3             ; 12 bits: $F1FE counts as $1FE
    poke n_hi, $F1
    expect_call irq_reload, $11
    poke control, 5             ; 8 bits: $F0FF as $FF, 256 cycles (the window: W + 256)
    poke delay, 49
    poke n_hi, $F0
    poke n_lo, $FF
    expect_call irq_reload, $11
    poke control, $0F           ; 4 bits win: $00FF as $F, then every 16 cycles
    poke delay, 1               ; the first window: W + 16
    expect_call irq_reload, $12
    poke n_lo, $F0              ; $0: at once, not 16 cycles later
    expect_call irq_reload, $12
    poke control, 9
    poke n_lo, $01              ; W + 2, then W + 18: one IRQ up by W + 16
    expect_call irq_reload, $12
    end_script

; Points the IRQ at `on_irq`, clears the count and sets the reload value to n.
arm:
    lda #<on_irq
    sta irq_hook+1
    lda #>on_irq
    sta irq_hook+2
    lda #0
    sta irq_count
    lda n_lo
    sta $E000
    lsr a
    lsr a
    lsr a
    lsr a
    sta $E001
    lda n_hi
    sta $E002
    lsr a
    lsr a
    lsr a
    lsr a
    sta $E003
    rts

on_irq:
    pha
    inc irq_count
    lda control                 ; acknowledge, counting stays on
    sta $F001
    pla
    rti

; Disables and acknowledges, keeping A.
irq_off:
    ldx #0
    stx $F001
    rts

irq_reload:
    jsr arm
    sta $F000
    lda control
    sta $F001
    jsr windows
    jmp irq_off

; n loaded while disabled, then 250 cycles in which nothing may count; counting starts at
; the enabling write.
irq_pause:
    jsr arm
    lda #0
    sta $F001
    sta $F000
    ldx #50
:   dex
    bne :-
    lda control
    sta $F001
    jsr windows
    jmp irq_off

; An IRQ left pending (I set), then a reload of n: the reload must acknowledge it, else the
; first window takes it at once.
irq_ack:
    jsr arm
    lda #0
    sta $E002
    sta $E003
    sta $E001
    lda #15
    sta $E000
    lda control
    sta $F001
    sta $F000
    ldx #20
:   dex
    bne :-
    jsr arm
    sta $F000
    jsr windows
    jmp irq_off
