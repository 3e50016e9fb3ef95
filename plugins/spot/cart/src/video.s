; Video: the NMI handler, the queue of VRAM writes it uploads during vblank, palettes and
; switching the picture off for full-screen redraws.

VRAM_LIMIT = 96         ; bytes the NMI can upload in one vblank next to the sprite DMA

.segment "RODATA"

palette:
  ; Background: black, board surface (dark teal), white (bevels, text), the player's colour.
  .byte $0F, BOARD_SURFACE, $30, $16      ; player 1 red
  .byte $0F, BOARD_SURFACE, $30, $12      ; player 2 blue
  .byte $0F, BOARD_SURFACE, $30, $28      ; player 3 gold
  .byte $0F, BOARD_SURFACE, $30, $2A      ; player 4 green
  ; Sprites: the hand (outline, glove, cuff), the selection corners, the ornament (CYCLE).
  .byte $0F, $0F, $30, $10
  .byte $0F, $0F, $30, $38
  .byte $0F, $0F, $30, $10
  .byte $0F, $21, $30, $10

.segment "CODE"

nmi:
  pha
  txa
  pha
  tya
  pha
  lda nmi_ready
  beq @scroll           ; the main loop is late: upload nothing this frame
  lda #0
  sta OAMADDR
  lda #>OAM
  sta OAMDMA
  jsr flush_vram
  lda #0
  sta nmi_ready
@scroll:
  lda ppu_ctrl
  sta PPUCTRL
  bit PPUSTATUS
  lda #0
  sta PPUSCROLL
  sta PPUSCROLL
  lda ppu_mask
  sta PPUMASK
  jsr read_pads
  inc frame
  pla
  tay
  pla
  tax
  pla
  rti

; Uploads the queued writes and empties the queue.
flush_vram:
  ldx #0
@entry:
  ldy VRAM_BUF, x
  beq @done
  bit PPUSTATUS
  lda VRAM_BUF + 1, x
  sta PPUADDR
  lda VRAM_BUF + 2, x
  sta PPUADDR
  inx
  inx
  inx
@byte:
  lda VRAM_BUF, x
  sta PPUDATA
  inx
  dey
  bne @byte
  beq @entry
@done:
  lda #0
  sta vram_len
  sta VRAM_BUF
  rts

; Waits for the next NMI.
wait_frame:
  lda frame
: cmp frame
  beq :-
  rts

; Opens a queue entry of A bytes at PPU address ptr2 (high byte in ptr2 + 1). Returns the
; queue index of its first data byte in X and carry clear, or carry set when the queue
; has no room this frame (nothing queued).
vram_open:
  sta t6
  clc
  adc vram_len
  adc #4                ; header and the end mark
  cmp #VRAM_LIMIT + 1
  bcs @full
  ldx vram_len
  lda t6
  sta VRAM_BUF, x
  lda ptr2 + 1
  sta VRAM_BUF + 1, x
  lda ptr2
  sta VRAM_BUF + 2, x
  inx
  inx
  inx
  clc
@full:
  rts

; Closes the entry whose data ended just before index X.
vram_close:
  stx vram_len
  lda #0
  sta VRAM_BUF, x
  rts

; While the picture is off: uploads the queue at once (for full-screen draws).
vram_flush_now:
  jsr flush_vram
  rts

; Turns the picture off at the next vblank and stops the NMI (full redraws follow).
screen_off:
  jsr wait_frame
  lda #0
  sta PPUCTRL
  sta PPUMASK
  sta ppu_mask
  sta nmi_ready
  jsr flush_vram        ; drop anything queued for the old screen
  rts

; Turns the picture back on from the next frame.
screen_on:
  lda #%00011110        ; background and sprites, including the leftmost 8 pixels
  sta ppu_mask
  bit PPUSTATUS
: bit PPUSTATUS         ; start in vblank so the first frame is whole
  bpl :-
  lda ppu_ctrl
  sta PPUCTRL
  jmp wait_frame

load_palette:
  lda #$3F
  ldx #$00
  jsr set_ppu_addr
  ldx #0
: lda palette, x
  sta PPUDATA
  inx
  cpx #32
  bne :-
  rts

; Fills the nametable with blanks and clears the attribute shadow (picture off).
clear_screen:
  lda #$20
  ldx #$00
  jsr set_ppu_addr
  lda #' '
  ldx #0
  ldy #4                ; 4 x 256 covers the tiles and attributes
: sta PPUDATA
  inx
  bne :-
  dey
  bne :-
  lda #0
  ldx #63
: sta ATTR_SHADOW, x
  dex
  bpl :-
  rts

; Writes the attribute shadow to the PPU (picture off).
upload_attributes:
  lda #$23
  ldx #$C0
  jsr set_ppu_addr
  ldx #0
: lda ATTR_SHADOW, x
  sta PPUDATA
  inx
  cpx #64
  bne :-
  rts

; Sets palette A (0-3) for the 16 x 16 pixel quadrant holding tile column X, row Y in the
; attribute shadow, and leaves the byte's index in X.
set_quadrant:
  and #3
  sta t6
  tya
  and #2                ; bottom half of the attribute byte?
  sta t5
  txa
  and #2
  lsr a
  ora t5                ; quadrant 0-3: right = 1, bottom = 2
  asl a                 ; shift = quadrant * 2
  sta t5
  txa                   ; byte index = (row / 4) * 8 + column / 4
  lsr a
  lsr a
  sta t4
  tya
  and #$1C
  asl a
  ora t4
  tax
  lda #3
  ldy t5
  beq @shifted
  sty t4
@shift_mask:
  asl a
  asl t6
  dec t4
  bne @shift_mask
@shifted:
  eor #$FF
  and ATTR_SHADOW, x
  ora t6
  sta ATTR_SHADOW, x
  rts

; Queues attribute byte X of the shadow. Carry set when the queue is full.
queue_attribute:
  lda #$23
  sta ptr2 + 1
  txa
  ora #$C0
  sta ptr2
  lda ATTR_SHADOW, x
  pha
  lda #1
  jsr vram_open
  pla
  bcs @full
  sta VRAM_BUF, x
  inx
  jsr vram_close
  clc
@full:
  rts
