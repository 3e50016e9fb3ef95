; Mapper 40 (NTDEC 2722): fixed 8 KiB banks 6 at $6000, 4 at $8000, 5 at $A000, 7 at $E000;
; $E000-$FFFF picks the bank at $C000 (three bits). IRQ: a 13-bit count of CPU cycles, held
; at 0 by $8000-$9FFF writes (which acknowledge) and let run by $A000-$BFFF writes; its bit
; 12 is the IRQ, up 4096 cycles after the enable and down again 4096 cycles later.
MAPPER = 40
PRG8 = 8
CHR1 = 8
MIRROR = 1
CODEBANK = 7
.include "harness.inc"

.segment "CODE"
script:
    expect_cpu $6000, 6         ; the fixed banks
    expect_cpu $8000, 4
    expect_cpu $A000, 5
    expect_cpu $C000, 0
    expect_cpu $E000, 7
    poke $E000, 3
    expect_cpu $C000, 3
    poke $FFFF, $FE             ; three bits; any address in $E000-$FFFF
    expect_cpu $C000, 6
    poke $C000, 1               ; no register here on this board
    poke $6000, 2               ; nor here
    expect_cpu $C000, 6
    expect_cpu $6000, 6
    expect_cpu $8000, 4
    expect_cpu $A000, 5
    expect_cpu $E000, 7
    expect_ppu $0000, 0
    expect_ppu $1C00, 7
    expect_mirror MIR_V

    poke delay, 200             ; windows' own wait: 5 * 200 + 11 cycles
    expect_call irq_on_time, $11 ; up on cycle W + 4096: the first window's last
    expect_call irq_one_early, $01 ; a window ending on W + 4095 misses it
    expect_call irq_acknowledged, $00
    expect_call irq_leaves, $00 ; unacknowledged, gone by itself at the wrap
    end_script

; Points the IRQ at `on_irq`, clears the count, holds the counter at 0.
arm:
    lda #<on_irq
    sta irq_hook+1
    lda #>on_irq
    sta irq_hook+2
    lda #0
    sta irq_count
    sta $8000
    rts

on_irq:
    pha
    inc irq_count
    sta $8000                   ; acknowledge and stop
    pla
    rti

; Stops the counter, keeping A.
irq_off:
    sta $8000
    rts

; With LDX #n before it: 5 * n + 13 cycles, the LDX, JSR and RTS included.
wait5:
    dex
    bne wait5
.assert >wait5 = >*, lderror, "wait5: a branch across a page takes a cycle more"
    rts

; The enabling write on cycle W, then 3085 cycles, then `windows` (1011 more): the first
; window's last cycle is W + 4096.
irq_on_time:
    jsr arm
    sta $A000
    ldx #255
    jsr wait5
    ldx #255
    jsr wait5
    ldx #98
    jsr wait5
    nop
    nop
    nop
    jsr windows
    jmp irq_off

; 3084 cycles: the first window ends on W + 4095.
irq_one_early:
    jsr arm
    sta $A000
    ldx #255
    jsr wait5
    ldx #255
    jsr wait5
    ldx #99
    jsr wait5
    jsr windows
    jmp irq_off

; Up after 5152 cycles, then a $8000 write: the line drops and the count stops.
irq_acknowledged:
    jsr arm
    sta $A000
    .repeat 4
    ldx #255
    jsr wait5
    .endrepeat
    sta $8000
    jsr windows
    jmp irq_off

; 9016 cycles unacknowledged: past the wrap at 8192 the line is down, and the next rise
; (at 12288) is after both windows.
irq_leaves:
    jsr arm
    sta $A000
    .repeat 7
    ldx #255
    jsr wait5
    .endrepeat
    jsr windows
    jmp irq_off
