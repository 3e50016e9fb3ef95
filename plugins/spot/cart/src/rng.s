; Random numbers: a 16-bit Galois LFSR (taps $B400, period 65535). The main loop steps it
; once a frame, so the sequence a game sees depends on the frames that passed before it.

.segment "CODE"

rng_step:
  lsr rng + 1
  ror rng
  bcc :+
  lda rng + 1
  eor #$B4
  sta rng + 1
: rts

; A random byte in A (eight steps, so its bits are fresh). Keeps X and Y.
rng_byte:
  tya
  pha
  ldy #8
: jsr rng_step
  dey
  bne :-
  pla
  tay
  lda rng
  rts

; A random number below A (1-255) in A. Keeps X and Y.
rng_below:
  sta t6
  jsr rng_byte
: cmp t6
  bcc :+
  sec
  sbc t6
  jmp :-
: rts
