; Mapper 71 (Camerica/Codemasters BF9093/BF9097): a 16 KiB PRG bank at $8000 from writes
; to $C000-$FFFF (bits 0-3), the last bank fixed at $C000. The BF9097 (submapper 1, or any
; cart once it writes $9000-$9FFF) takes one-screen mirroring from bit 4 of writes to
; $8000-$9FFF; before that, submapper 0 keeps the header's mirroring.
MAPPER = 71
PRG8 = 16
CHR1 = 8
MIRROR = 1
CODEBANK = 15
.include "harness.inc"

.segment "CODE"
script:
    expect_cpu $8000, 0
    expect_cpu $A000, 1
    expect_cpu $C000, 14
    expect_cpu $E000, 15
    poke $C000, 3
    expect_cpu $8000, 6
    expect_cpu $A000, 7
    expect_cpu $C000, 14
    poke $FFFF, 5               ; anywhere in $C000-$FFFF
    expect_cpu $8000, 10
    poke $D123, $F6             ; bits 4-7 are not wired
    expect_cpu $8000, 12
    expect_cpu $E000, 15
    poke $A000, 1               ; $A000-$BFFF decodes nothing
    expect_cpu $8000, 12
.if SUBMAPPER = 1
    expect_mirror MIR_V
    poke $8000, $10             ; the BF9097's register: one screen
    expect_mirror MIR_ONE
.else
    poke $8000, $10             ; a BF9093 ignores $8000-$8FFF
    expect_mirror MIR_V
    poke $9000, $10             ; Fire Hawk's write: the register is decoded from now on
    expect_mirror MIR_ONE
.endif
    poke $8000, $00
    expect_mirror MIR_ONE
    poke $9FFF, $10
    expect_mirror MIR_ONE
    expect_cpu $8000, 12        ; the mirroring register moves no bank
    poke $C000, 0
    expect_cpu $8000, 0
    expect_ppu $0000, 0
    expect_ppu $1C00, 7
    poke $9000, $00
    end_script
