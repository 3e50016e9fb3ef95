; The game: starting one, whose turn it is, the human and computer turns, animations,
; passes and the end. One phase routine runs per frame (run_phase).
;
; RAM the plug-in relies on is made consistent before ANIMATION goes back to idle (02), so
; whenever it reads idle it sees a whole position and the slot to move in CURRENT.

PH_TITLE = 0
PH_HUMAN = 1
PH_CPU   = 2
PH_WALK  = 3            ; animations on: the computer's hand walks to its move
PH_FLIP  = 4            ; animations on: captured pieces turn one by one
PH_PASS  = 5
PH_OVER  = 6
PH_SPLASH = 7           ; variants: a start-up screen before the title

STATUS_TURN = 1
STATUS_PASS = 2
STATUS_OVER = 3

REPEAT_DELAY = 20       ; frames a D-pad direction is held before it repeats ...
REPEAT_RATE = 6         ; ... and then every this many frames
OVER_WAIT = 240         ; game-over screen, in 2-frame steps (8 s), then the title

.segment "RODATA"

phase_lo:
  .lobytes title_frame - 1, human_frame - 1, cpu_frame - 1, walk_frame - 1
  .lobytes flip_frame - 1, pass_frame - 1, over_frame - 1, splash_frame - 1
phase_hi:
  .hibytes title_frame - 1, human_frame - 1, cpu_frame - 1, walk_frame - 1
  .hibytes flip_frame - 1, pass_frame - 1, over_frame - 1, splash_frame - 1
four_corners:           ; 4 players, clockwise from the top left
  .byte 0, 6, 48, 42

.segment "CODE"

run_phase:
  ldx phase
  lda phase_hi, x
  pha
  lda phase_lo, x
  pha
  rts

draw_frame:
  lda MODE
  cmp #MODE_PLAYFIELD
  beq :+
  cmp #MODE_TITLE
  bne @still
  jmp title_draw
: jmp draw_play_frame
@still:
  rts

start_game:
  lda #0
  sta HUMAN_PLAYING
  ldx #3
@types:
  lda SETTINGS, x
  beq @none
  cmp #SETTING_HUMAN
  bne @cpu
  lda #2
  sta HUMAN_PLAYING
  lda #TYPE_HUMAN
  bne @set
@cpu:
  lda #TYPE_CPU
  bne @set
@none:
  lda #TYPE_NONE
@set:
  sta TYPES, x
  dex
  bpl @types
  lda LAYOUT_CHOICE
  bne :+
  lda #LAYOUT_COUNT
  jsr rng_below
  jmp @layout
: sec
  sbc #1
@layout:
  tax
  lda layout_lo, x
  sta LAYOUT_NUMBER
  lda layout_hi, x
  sta LAYOUT_NUMBER + 1
  jsr build_layout
  jsr rng_byte
  and #1
  sta THIRD_CORNER
  jsr place_start_pieces
  jsr count_pieces
  ldx FIRST_MOVER       ; each game the next slot moves first; the first game draws it
  bmi @draw_first
  jsr set_slot_to_move
  jsr next_player
  jmp @first
@draw_first:
  jsr active_players
  jsr rng_below
  sta t0
  ldx #0
: lda TYPES, x
  beq @skip
  dec t0
  bmi @found
@skip:
  inx
  bne :-
@found:
  jsr set_slot_to_move
@first:
  jsr slot_to_move
  stx FIRST_MOVER
  jsr port_game
  ldy #24               ; the hand starts in the middle
  jsr set_cursor_cell
  ldy #$FF
  jsr select_cell
  lda #$FF
  sta SECRET            ; no bonus game in this cartridge
  sta WINNER
  lda #0
  sta BONUS_GAME
  sta PRIZE_MODE
  sta REELS
  sta REELS + 1
  sta REELS + 2
  lda #MODE_PLAYFIELD
  sta MODE
  lda #1
  sta CART_PHASE
  sta PLAYING
  lda #ANIM_BUSY
  sta ANIMATION
  jsr draw_game_screen
  jmp turn_start

; Start pieces for the slots in play: with 2 players two opposite corners each, with 3 or
; 4 one corner each (the third player in the lower left or right, drawn per game).
place_start_pieces:
  jsr active_players
  sta t2                ; players
  lda #0
  sta t3                ; players placed
  ldx #0
@slot:
  stx t1
  lda TYPES, x
  beq @next
  lda code_of_slot, x
  sta t4                ; cell code
  ldy t3
  lda t2
  cmp #2
  bne @one_corner
  lda #0                ; 2 players: corners 0 and 48, then 6 and 42
  cpy #0
  beq :+
  lda #6
: tay
  lda t4
  jsr cell_set
  tya
  eor #$FF
  sec
  adc #48               ; the opposite corner, 48 - cell
  tay
  lda t4
  jsr cell_set
  jmp @placed
@one_corner:
  lda four_corners, y
  ldx t2
  cpx #3
  bne @put
  cpy #2
  bne @put
  lda #42
  ldx THIRD_CORNER
  beq @put
  lda #48
@put:
  tay
  lda t4
  jsr cell_set
@placed:
  inc t3
@next:
  ldx t1
  inx
  cpx #4
  bne @slot
  rts

; The player in CURRENT is to move: end the game, pass, or wait for its move.
turn_start:
  jsr count_pieces
  lda #$0F
  sta hud_dirty
  jsr logic_begin
  jsr game_over
  bcc :+
  jsr logic_end
  jmp end_game
: jsr port_board        ; the position the slot to move now moves (or passes) in
  jsr slot_to_move
  lda code_of_slot, x
  sta me
  ldy #$FF
  jsr select_cell
  lda #0
  sta timer
  sta repeat_time
  lda #1
  sta status_dirty
  lda me
  jsr has_move
  jsr logic_end         ; keeps the carry
  bcs :+
  lda #STATUS_PASS
  sta status_kind
  lda #PH_PASS
  sta phase
  lda #2                ; animations off: pass after one frame that only waits
  ldx ANIM_ON
  beq @pass_wait
  lda #60
@pass_wait:
  sta timer
  jmp @idle
: lda #STATUS_TURN
  sta status_kind
  jsr slot_to_move
  lda TYPES, x
  cmp #TYPE_HUMAN
  beq :+
  lda #PH_CPU
  .byte $2C             ; BIT abs: skips the next instruction
: lda #PH_HUMAN
  sta phase
@idle:
  lda #ANIM_IDLE
  sta ANIMATION
  rts

; The game is over: the majority wins, a shared majority is a draw.
end_game:
  jsr port_board
  lda #PH_OVER
  sta phase
  lda #0
  sta PLAYING
  sta idle_time
  lda #2
  sta CART_PHASE
  lda #0
  sta t0                ; best count
  sta t1                ; how many have it
  lda #$FF
  sta WINNER
  ldx #3
@slot:
  lda COUNTS, x
  cmp t0
  bcc @next
  beq @tie
  sta t0
  stx WINNER
  lda #1
  sta t1
  bne @next
@tie:
  inc t1
@next:
  dex
  bpl @slot
  lda t1
  cmp #1
  beq :+
  lda #$FF
  sta WINNER
: inc GAMES_DONE
  jsr port_over_sfx     ; port_over, and the game's end sounds
  jsr cursor_cell       ; the hand leaves the board
  jsr store_touch
  lda #STATUS_OVER
  sta status_kind
  lda #1
  sta status_dirty
  lda #$0F
  sta hud_dirty
  lda #ANIM_IDLE
  sta ANIMATION
  rts

; The result stays up until Start or 8 seconds, then the title screen.
over_frame:
  jsr any_pressed
  and #BTN_START
  bne :+
  lda frame
  and #1
  bne @wait
  inc idle_time
  lda idle_time
  cmp #OVER_WAIT
  bcc @wait
: jmp title_enter
@wait:
  rts

; Draws the whole play screen with the picture off.
draw_game_screen:
  jsr screen_off
  jsr clear_screen
  ldy #48
@cell:
  jsr draw_cell
  sty t3
  jsr flush_vram
  ldy t3
  dey
  bpl @cell
  ldx #3
: stx t3
  jsr draw_panel_static
  ldx t3
  dex
  bpl :-
  lda #>($2000 + TITLE_ROW * 32 + TITLE_X)   ; "DOTS" over the panel
  ldx #<($2000 + TITLE_ROW * 32 + TITLE_X)
  jsr set_ppu_addr
  ldx #0
: lda str_dots, x
  sta PPUDATA
  inx
  cpx #4
  bne :-
  lda #>($2000 + LAYOUT_ROW * 32 + LAYOUT_X)
  ldx #<($2000 + LAYOUT_ROW * 32 + LAYOUT_X)
  jsr set_ppu_addr
  ldx #0
: lda str_layout, x
  beq :+
  sta PPUDATA
  inx
  bne :-
: lda LAYOUT_NUMBER
  ldx LAYOUT_NUMBER + 1
  jsr three_digits
  ldx #0
: lda digits, x
  sta PPUDATA
  inx
  cpx #3
  bne :-
  jsr draw_status
  jsr flush_vram
: jsr draw_panel_changes
  jsr flush_vram
  lda hud_dirty
  bne :-
  jsr upload_attributes
  jsr place_sprites
  jmp screen_on

.segment "RODATA"
str_dots:   .byte "DOTS"
str_layout: .byte "LAYOUT ", 0
