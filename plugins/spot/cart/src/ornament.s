; CYCLE variants: an ornament of two sprites below the side panel whose colour cycles
; (sprite palette 3, colour 1) all through play: motion on screen that is not the board.

ORNAMENT_X = PANEL_X * 8 + 12
ORNAMENT_Y = (PANEL_ROW0 + 23) * 8 - 1

.segment "RODATA"

cycle_colours:
  .byte $21, $22, $23, $24, $25, $26, $27, $28

.segment "CODE"

; OAM entries 8 and 9.
place_ornament:
  lda #ORNAMENT_Y
  sta OAM + 32
  sta OAM + 36
  lda #SPR_ORNAMENT
  sta OAM + 33
  sta OAM + 37
  lda #3
  sta OAM + 34
  sta OAM + 38
  lda #ORNAMENT_X
  sta OAM + 35
  lda #ORNAMENT_X + 8
  sta OAM + 39
  rts

; Every 8 frames the next colour, written in vblank through the VRAM queue.
cycle_colour:
  lda frame
  and #7
  bne @done
  lda #$3F
  sta ptr2 + 1
  lda #$1D
  sta ptr2
  lda #1
  jsr vram_open
  bcs @done
  inc cycle_step
  lda cycle_step
  and #7
  tay
  lda cycle_colours, y
  sta VRAM_BUF, x
  inx
  jsr vram_close
@done:
  rts
