; Mapper 113 (NINA-03/06 multicarts, Sachen and HES): NINA-03/06's register decode
; (A14 = 1, A13 = 0, A8 = 1), wider: bits 3-5 a 32 KiB PRG bank, bits 0-2 and 6 (CHR A16)
; an 8 KiB CHR bank, bit 7 the mirroring (1 vertical, 0 horizontal).
MAPPER = 113
PRG8 = 32
CHR1 = 128
MIRROR = 1
CODEBANK = 3
.include "harness.inc"

.segment "CODE"
script:
    expect_cpu $8000, 0
    expect_cpu $E000, 3
    expect_mirror MIR_V
    poke $4100, $00             ; bit 7 clear: horizontal
    expect_mirror MIR_H
    poke $4100, $85             ; vertical, CHR bank 5
    expect_mirror MIR_V
    expect_ppu $0000, 40
    expect_cpu $8000, 0
    poke $4100, $C5             ; CHR A16: bank 13
    expect_ppu $0000, 104
    expect_ppu $1FFF, 111
    poke $5100, $43             ; CHR bank 11 ($4100's mirror at $5100)
    expect_ppu $0400, 89
    expect_mirror MIR_H
    poke $4000, $38             ; A8 = 0: not decoded
    expect_ppu $0400, 89
    poke $4300, $38             ; PRG bank 7, CHR bank 0, horizontal
    expect_cpu $8000, 28
    expect_cpu $E000, 31
    expect_ppu $0400, 1
    poke $4100, $88             ; PRG bank 1
    expect_cpu $8000, 4
    expect_mirror MIR_V
    poke $4100, $47
    end_script
