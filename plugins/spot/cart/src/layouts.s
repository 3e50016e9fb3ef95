; The blocked-square layouts this cartridge offers. Each is named by its number in the
; plug-in's numbering of the 512 four-way symmetric layouts (plugins/spot/layouts.rs,
; `builtin_layout`): bit k blocks the k-th class of cells that the board's symmetries map
; onto each other, the corners never. The selection spans open and crowded boards and
; leaves out layouts where players can be walled off from each other for 2-4 players and
; 2-player layouts the first mover wins by force within six plies.

LAYOUT_COUNT = 32

.define LAYOUTS 0, 256, 4, 8, 32, 64, 128, 260, 288, 1, 2, 36, 68, 96, 136, 160, \
                292, 352, 5, 20, 33, 100, 140, 164, 321, 400, 424, 17, 52, 193, 228, 97

.segment "RODATA"

layout_lo:
  .lobytes LAYOUTS
layout_hi:
  .hibytes LAYOUTS

; Symmetry class of each cell, in the order of layouts.rs (bit 0 = the class of (0,1) ...
; bit 8 = the centre); $FF for the corners.
cell_class:
  .repeat 49, i
    fr .set i / 7
    fc .set i .mod 7
    .if fr > 3
      fr .set 6 - fr
    .endif
    .if fc > 3
      fc .set 6 - fc
    .endif
    lo .set .min(fr, fc)
    hi .set .max(fr, fc)
    .if lo = 0 && hi = 0
      .byte $FF
    .elseif lo = 0
      .byte hi - 1              ; (0,1) (0,2) (0,3): bits 0-2
    .elseif lo = 1
      .byte hi + 2              ; (1,1) (1,2) (1,3): bits 3-5
    .elseif lo = 2
      .byte hi + 4              ; (2,2) (2,3): bits 6-7
    .else
      .byte 8                   ; (3,3)
    .endif
  .endrepeat

bit_of:
  .byte $01, $02, $04, $08, $10, $20, $40, $80
