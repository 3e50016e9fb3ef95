; Mapper 22: Konami VRC2a, the chip's A0/A1 on CPU A1/A0 and CHR A10 unconnected (CHR bank
; numbers shifted right by one). The script is vrc24.inc's.
MAPPER = 22
VRC4 = 0
CHR_SHIFT = 1
LINE0 = $02
LINE1 = $01
.include "vrc24.inc"
