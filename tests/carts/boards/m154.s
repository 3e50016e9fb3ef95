; Mapper 154 (Namco 3453, Devil Man): mapper 88 with one-screen mirroring (see m088.s).
MAPPER154 = 1
.include "m088.s"
