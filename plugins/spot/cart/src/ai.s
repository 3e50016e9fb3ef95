; The computer player. It rates every move one ply deep with the heuristic from the seed
; article, in tenths: +10 per captured piece, +4 per own piece next to the destination,
; then -4 per own piece next to a jump's source or +7 for a clone; a negative total counts
; as 0. It plays a best-rated move, breaking ties at random. A clone is one move per
; destination (the board ends up the same whichever piece clones). Levels 1-4 play a random
; move instead with probability (5 - level) / 8; level 5 is the pure heuristic.

.segment "CODE"

; Counts own and opponent pieces round a cell (padded index X) into t0 / t1.
.macro tally off
  logic_read off
  beq :++               ; empty
  cmp #5
  bcs :++               ; blocked or wall
  cmp me
  beq :+
  inc t1
  bne :++               ; always
: inc t0
:
.endmacro

; Fills OWN_NEAR and OPP_NEAR for every cell (the logic view open).
ai_count:
  ldy #48
@cell:
  sty t2                ; tally needs Y
  ldx pad_of, y
  lda #0
  sta t0
  sta t1
  each_near tally
  ldy t2
  lda t0
  sta OWN_NEAR, x
  lda t1
  sta OPP_NEAR, x
  dey
  bmi @done
  jmp @cell
@done:
  rts

; Offers the move (t4 destination, t3 source or $FF) rated A; keeps the best. Keeps X, Y.
consider:
  ldy ai_random
  beq :+
  lda #0                ; the handicap's random pick: every move ties
: ldy best_rate
  bmi @better           ; first move seen
  cmp best_rate
  bcc @done
  bne @better
  jsr rng_byte          ; a tie: the higher random key wins
  cmp best_key
  bcc @done
  beq @done
  sta best_key
  bcs @store
@better:
  sta best_rate
  jsr rng_byte
  sta best_key
@store:
  lda t4
  sta best_to
  lda t3
  sta best_from
@done:
  ldy t4
  rts

; A jump into the destination (padded index X) from `off` away, if `me` has a piece there.
.macro jump_from off
  logic_read off
  cmp me
  bne :++
  txa
  clc
  adc #<(off)
  tay
  lda OWN_NEAR, y
  asl a
  asl a
  sta t5
  lda cell_of, y
  sta t3
  lda base_rate
  sec
  sbc t5
  bcs :+
  lda #0
: jsr consider
:
.endmacro

; Chooses the move for `me` (slot CURRENT): best_to, best_from ($FF for a clone).
ai_choose:
  lda #0
  sta ai_random
  jsr slot_to_move
  lda SETTINGS, x
  cmp #5
  bcs @rated
  sta t0
  lda #5
  sec
  sbc t0
  asl a
  asl a
  asl a
  asl a
  asl a                 ; (5 - level) * 32 out of 256
  sta t0
  jsr rng_byte
  cmp t0
  bcs @rated
  inc ai_random
@rated:
  lda #48
  sta t4                ; the destination examined
  jsr logic_begin
  jsr ai_count
  lda #$FF
  sta best_rate
@dest:
  ldy t4
  ldx pad_of, y
  logic_read 0
  beq @empty
@next:
  ldy t4
  dey
  sty t4
  bpl @dest
  jmp logic_end
@empty:                 ; X = its padded index still
  lda OPP_NEAR, x       ; 10 per capture ...
  asl a
  sta t0
  asl a
  asl a
  adc t0
  sta t0
  lda OWN_NEAR, x       ; ... and 4 per own neighbour
  asl a
  asl a
  adc t0
  sta base_rate
  lda OWN_NEAR, x
  beq @jumps            ; nothing can clone here
  lda #$FF
  sta t3
  lda base_rate
  clc
  adc #7
  jsr consider
@jumps:
  ldy t4
  ldx pad_of, y
  each_ring jump_from
  jmp @next

; A piece of `me` next to cell `dest` (the computer's clone source, for the hand) in X.
clone_source:
  ldy #48
@cell:
  jsr cell_get
  cmp me
  bne @next
  ldx dest
  jsr cell_distance
  cmp #1
  bne @next
  tya
  tax
  rts
@next:
  dey
  bpl @cell
  ldx dest              ; not reached: a clone always has a source
  rts
