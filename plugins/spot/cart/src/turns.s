; The moves: a human's hand driven by the pad of the slot to move, the computer's choice
; (walked over by its hand when animations are on), captures turning, and passes.

.segment "CODE"

; A human turn: the pad of the slot to move drives the hand.
human_frame:
  jsr slot_to_move
  lda pressed, x
  sta t0
  lda PADS, x
  and #BTN_DPAD
  beq @released
  inc repeat_time
  lda repeat_time
  cmp #REPEAT_DELAY
  bcc @buttons
  lda #REPEAT_DELAY - REPEAT_RATE
  sta repeat_time
  lda PADS, x
  and #BTN_DPAD
  ora t0
  sta t0
  jmp @buttons
@released:
  lda #0
  sta repeat_time
@buttons:
  lda t0
  jsr move_cursor
  lda t0
  and #BTN_B
  beq :+
  ldy #$FF
  jsr select_cell
: lda t0
  and #BTN_A
  beq :+
  jmp press_a
: rts

; Moves the hand one cell for the D-pad bits in A (up, down, left, right in that order of
; precedence); it stops at the edges.
move_cursor:
  tax
  jsr cursor_cell
  txa
  and #BTN_UP
  beq :+
  lda row_of, y
  beq @wrap_up
  tya
  sec
  sbc #7
  jmp @set
: txa
  and #BTN_DOWN
  beq :+
  lda row_of, y
  cmp #6
  beq @wrap_down
  tya
  clc
  adc #7
  jmp @set
: txa
  and #BTN_LEFT
  beq :+
  lda col_of, y
  beq @wrap_left
  dey
  tya
  jmp @set
: txa
  and #BTN_RIGHT
  beq @done
  lda col_of, y
  cmp #6
  beq @wrap_right
  iny
  tya
@set:
  tay
  jmp set_cursor_blip   ; set_cursor_cell with a blip
.if CURSOR_WRAP
@wrap_up:
  tya
  clc
  adc #42
  jmp @set
@wrap_down:
  tya
  sec
  sbc #42
  jmp @set
@wrap_left:
  tya
  clc
  adc #6
  jmp @set
@wrap_right:
  tya
  sec
  sbc #6
  jmp @set
.else
@wrap_up:
@wrap_down:
@wrap_left:
@wrap_right:
.endif
@done:
  rts

; A on the hand's cell: pick up an own piece, or move the picked-up piece to an empty cell
; one step (clone) or two steps (jump) away. Anything else is refused and counted.
press_a:
  jsr cursor_cell
  jsr cell_get
  cmp me
  bne :+
  jmp select_cell_sfx   ; select_cell: a piece picked up
: cmp #0
  bne @refuse
  ldx selected
  bmi @refuse
  jsr cell_distance
  cmp #1
  beq @clone
  cmp #2
  bne @refuse
  stx source
  sty dest
  jmp begin_move
@clone:
  lda #$FF
  sta source
  sty dest
  jmp begin_move
@refuse:
  jsr refused_sfx       ; inc REFUSED, with a bump
  bne :+
  dec REFUSED          ; saturate at $FF
: rts

; Plays dest / source for `me`. With animations the captures turn one at a time.
begin_move:
  lda #ANIM_BUSY
  sta ANIMATION
  sta SPOT_SHOWN
  ldy #$FF
  jsr select_cell
  jsr place_move_sfx    ; place_move, with a clone's or a jump's sound
  lda ANIM_ON
  beq @at_once
  lda #PH_FLIP
  sta phase
  lda #16
  sta timer
  rts
@at_once:
: jsr flip_next
  bcc :-
  jmp end_move

flip_frame:
  dec timer
  bne @wait
  lda #8
  sta timer
  jsr flip_next
  bcs end_move
  jmp store_pending_tick ; the captures still waiting turn a step further
@wait:
  rts

end_move:
  lda #0
  sta SPOT_SHOWN
  jsr count_pieces
  jsr next_player
  jmp turn_start

; A computer turn: think (for show, when animated), choose, then move.
cpu_frame:
  inc timer
  lda timer
  ldx ANIM_ON
  bne @show
  cmp #2                ; one frame that only waits, so whoever reads RAM once a frame
  bcc @wait             ; sees this position with this player to move
  bcs @choose
@show:
  cmp #30
  bcc @wait
@choose:
  jsr ai_choose
  lda best_to
  sta dest
  lda best_from
  sta source
  lda ANIM_ON
  bne :+
  jmp begin_move
: ldx source
  bpl :+
  jsr clone_source
: stx hand_cell
  lda #0
  sta cpu_stage
  sta timer
  lda #ANIM_BUSY
  sta ANIMATION
  lda #PH_WALK
  sta phase
@wait:
  rts

; Walks the hand one cell every 6 frames: to the source, which it picks up, then to the
; destination, where the move is made.
walk_frame:
  inc timer
  lda timer
  cmp #6
  bcc @wait
  lda #0
  sta timer
  jsr cursor_cell
  cpy hand_cell
  beq @arrived
  ldx hand_cell
  lda row_of, y
  cmp row_of, x
  beq @column
  bcc :+
  tya
  sbc #7
  jmp @step
: tya
  adc #7
  jmp @step
@column:
  lda col_of, y
  cmp col_of, x
  tya
  bcc :+
  sbc #1
  jmp @step
: adc #1
@step:
  tay
  jsr set_cursor_blip
@wait:
  rts
@arrived:
  lda cpu_stage
  bne :+
  inc cpu_stage
  jsr select_cell_sfx
  lda dest
  sta hand_cell
  lda #$F8              ; a short pause with the piece picked up
  sta timer
  rts
: jmp begin_move

pass_frame:
  dec timer
  bne :+
  jsr next_player
  jmp turn_start
: rts
