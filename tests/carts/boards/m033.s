; Mapper 33 (Taito TC0190): registers decode A15, A13, A1, A0 (mask $A003). $8000 bits 0-5
; the 8 KiB PRG bank at $8000 and bit 6 the mirroring (1 horizontal), $8001 the bank at
; $A000; $C000 and $E000 show the second-last and last banks. $8002/$8003 2 KiB CHR banks
; at $0000/$0800 (all 8 bits, in 2 KiB units), $A000-$A003 1 KiB banks at $1000-$1C00.
MAPPER = 33
PRG8 = 16
CHR1 = 256
MIRROR = 1
CODEBANK = 15
.include "harness.inc"

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
    expect_mirror MIR_V
    poke $8000, $47             ; bit 6: horizontal
    expect_mirror MIR_H
    expect_cpu $8000, 7
    poke $8000, $BF             ; bit 7 is not mirroring; bits 0-5 the bank
    expect_mirror MIR_V
    expect_cpu $8000, 15
    poke $C000, $42             ; a mirror of $8000 (A14 is not decoded)
    expect_mirror MIR_H
    expect_cpu $8000, 2
    expect_cpu $C000, 14
    poke $8005, 9               ; a mirror of $8001 (A2-A12 are not decoded)
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
    poke $E001, 33              ; a mirror of $A001
    expect_ppu $1400, 33
    poke $FFFE, 44              ; a mirror of $A002 (the write reaches the chip)
    expect_ppu $1800, 44
    poke $8002, 9               ; switched again each pass: the picture moves
    expect_ppu $0000, 18
    expect_ppu $0400, 19
    poke $8000, 1
    expect_mirror MIR_V
    end_script
