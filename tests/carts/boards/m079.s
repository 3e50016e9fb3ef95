; Mapper 79 (AVE NINA-03/NINA-06): one register where A14 = 1, A13 = 0, A8 = 1
; ($4100-$41FF, $4300-$43FF, ... $5F00-$5FFF): bit 3 a 32 KiB PRG bank, bits 0-2 an 8 KiB
; CHR bank.
MAPPER = 79
PRG8 = 8
CHR1 = 64
MIRROR = 0
CODEBANK = 3
.include "harness.inc"

.segment "CODE"
script:
    expect_cpu $8000, 0
    expect_cpu $E000, 3
    expect_ppu $0000, 0
    poke $4100, $05
    expect_ppu $0000, 40
    expect_ppu $1FFF, 47
    expect_cpu $8000, 0
    poke $5FFF, $03             ; the top of the decoded range
    expect_ppu $0400, 25
    poke $4000, $07             ; A8 = 0: not decoded
    expect_ppu $0400, 25
    poke $4200, $07             ; A8 = 0 again
    expect_ppu $0400, 25
    poke $6100, $07             ; A13 = 1: not decoded
    expect_ppu $0400, 25
    poke $4300, $0E             ; PRG bank 1, CHR bank 6
    expect_cpu $8000, 4
    expect_cpu $E000, 7
    expect_ppu $0000, 48
    poke $4100, $F1             ; bits 4-7 are not wired
    expect_cpu $8000, 0
    expect_ppu $0000, 8
    expect_mirror MIR_H
    poke $4100, $02
    end_script
