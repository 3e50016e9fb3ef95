; Pads 1-4, read in the NMI every frame so a press lasting one frame is never missed when
; the main loop runs late (a computer move can take more than a frame). The NMI ORs new
; presses into one half of PRESS_ACC; the main loop switches halves (one store, so nothing
; is lost in between) and takes the other.
;
; With a Four Score plugged in, each port sends 24 bits: its first pad, its
; second pad (pads 3 and 4), then a signature byte ($08 on port 1, $04 on port 2). Without
; the signature, pads 3 and 4 read as nothing pressed.

.segment "CODE"

; Reads 8 bits from port X ($4016 + X) into A, first bit in bit 0.
read_byte:
  ldy #8
: lda JOYPAD1, x
  lsr a
  ror nmi_t0
  dey
  bne :-
  lda nmi_t0
  rts

read_pads:
  ldx #3
: lda PADS, x
  sta prev_pads, x
  dex
  bpl :-
  lda #1
  sta JOYPAD1
  lda #0
  sta JOYPAD1
  ldx #0
  jsr read_byte
  sta PADS + 0
  jsr read_byte
  sta PADS + 2
  jsr read_byte
  sta nmi_t1            ; port 1 signature
  ldx #1
  jsr read_byte
  sta PADS + 1
  jsr read_byte
  sta PADS + 3
  jsr read_byte
  cmp #$04
  bne @no_adapter
  lda nmi_t1
  cmp #$08
  beq @edges
@no_adapter:
  lda #0
  sta PADS + 2
  sta PADS + 3
@edges:
  ldx #3
: txa
  ora press_half
  tay
  lda prev_pads, x
  eor #$FF
  and PADS, x
  ora PRESS_ACC, y
  sta PRESS_ACC, y
  dex
  bpl :-
  rts

; Main loop: the presses since the last call into `pressed`.
take_presses:
  lda press_half
  eor #4
  sta press_half        ; from here on the NMI fills the other half
  eor #4
  tay
  ldx #0
: lda PRESS_ACC, y
  sta pressed, x
  lda #0
  sta PRESS_ACC, y
  iny
  inx
  cpx #4
  bne :-
  rts

; Buttons newly pressed on any pad (menus answer every pad).
any_pressed:
  lda pressed
  ora pressed + 1
  ora pressed + 2
  ora pressed + 3
  rts

; Buttons held on any pad.
any_held:
  lda PADS
  ora PADS + 1
  ora PADS + 2
  ora PADS + 3
  rts
