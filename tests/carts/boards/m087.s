; Mapper 87 (Jaleco J87): 32 KiB PRG fixed, four 8 KiB CHR banks chosen by a latch at
; $6000-$7FFF whose two bits are crossed (D0 is the bank's high bit), no PRG RAM.
MAPPER = 87
PRG8 = 4
CHR1 = 32
MIRROR = 1
CODEBANK = 3
.include "harness.inc"

.segment "CODE"
script:
    expect_cpu $8000, 0         ; PRG never moves
    expect_cpu $A000, 1
    expect_cpu $C000, 2
    expect_cpu $E000, 3
    poke $6000, 0
    expect_ppu $0000, 0
    expect_ppu $1C00, 7
    poke $6000, 1               ; D0 = CHR A14: bank 2
    expect_ppu $0000, 16
    expect_ppu $1C00, 23
    poke $6000, 2               ; D1 = CHR A13: bank 1
    expect_ppu $0000, 8
    expect_ppu $1400, 13
    poke $6000, 3
    expect_ppu $0000, 24
    expect_ppu $1FFF, 31
    poke $7FFF, 1               ; the whole of $6000-$7FFF decodes the latch
    expect_ppu $0800, 18
    poke $6000, $FC             ; the other bits are not wired
    expect_ppu $0000, 0
    expect_cpu $8000, 0
    expect_cpu $E000, 3
    expect_cpu $6000, $60       ; no RAM: open bus, the pointer's high byte last on the bus
    expect_mirror MIR_V
    poke $6000, 3
    end_script
