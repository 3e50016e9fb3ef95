; Sound: a looping tune and the game's sound effects, all written for this cartridge.
;
; The tune plays square 1 (the melody, duty 50 %, a soft volume envelope) over the triangle
; (a staccato bass), from the first frame on, on the title and in play alike. Effects take
; the two channels the tune leaves alone: square 2 (the hand's blip, picking a piece up, a
; clone, a jump, a refused press, the end of a game) and noise (a piece captured). The
; main loop plays a frame of everything once its frame's work is done, while it would only
; wait for the NMI (wait_frame_sound), a few hundred cycles at most.
;
; The game is not changed by it. The game tells the sound what happened through hooks (at
; the end) that stand in for one of its own calls or instructions with one of the same
; size and add an `inc` of an event counter; this file is assembled last, so none of the
; game's code or data moved and its loops take the cycles they took. The sound never
; writes the game's RAM and reads only `source` (a clone or a jump); it has its own
; (snd_*, ram.inc).

SQ1_VOL  = $4000
SQ1_SWEEP = $4001
SQ1_LO   = $4002
SQ1_HI   = $4003
SQ2_VOL  = $4004
SQ2_SWEEP = $4005
SQ2_LO   = $4006
SQ2_HI   = $4007
TRI_LINEAR = $4008
TRI_LO   = $400A
TRI_HI   = $400B
NOISE_VOL = $400C
NOISE_LO = $400E
NOISE_HI = $400F
APU_STATUS = $4015

MELODY_DUTY = $B0       ; duty 50 %, length counter halted, constant volume
BASS_CUT = 10           ; frames before a bass note's end that it stops (staccato)
ENV_REST = 16           ; the envelope's silent step

; Everything here sits in its own segment (dots.cfg: SOUND, page-aligned, after the game's
; data in the bank that stays at $8000). Its tables start on page boundaries so that no
; indexed read crosses a page, and every path through sound_frame and the hooks takes the
; same number of cycles modulo 6, the length of the loops in which the game waits for the
; NMI: the game's wait loops are entered in the same phase as without sound, so the NMI
; finds them at the same instruction and the game's next frame starts on the same cycle.
; (The cycles in the comments are counted from the start of each part.)
.segment "SOUND"

; Effects, in one table: an effect is its offset here (never 0, which means none), and a
; later one is the more important: it cuts an earlier one short, never the other way round.
; A square effect is the period's high byte, then per frame the volume byte ($4004) and the
; period's low byte, ended by 0; a noise effect is per frame the volume byte ($400C) and
; the noise period ($400E), ended by 0.
sfx_data:
  .byte 0
SFX_BLIP = * - sfx_data         ; the hand moves a cell: a tick
  .byte 0, $74, $5A, $72, $5A, 0
SFX_REFUSE = * - sfx_data       ; A refused: a low bump
  .byte 2, $75, $A0, $74, $A0, $73, $A0, $72, $A0, 0
SFX_PICK = * - sfx_data         ; a piece picked up: two quick steps up
  .byte 0, $B5, $D5, $B4, $D5, $B5, $A9, $B4, $A9, $B3, $A9, $B2, $A9, 0
SFX_CLONE = * - sfx_data        ; a clone: a bright plink
  .byte 0, $B6, $8E, $B6, $8E, $B5, $6A, $B4, $6A, $B3, $6A, $B3, $6A, $B2, $6A, $B1, $6A, 0
SFX_JUMP = * - sfx_data         ; a jump: a swoop upwards
  .byte 0, $B5, $F0, $B5, $D4, $B5, $BA, $B4, $A2, $B4, $8E, $B3, $7C, $B3, $6C, $B2, $60
  .byte $B1, $58, 0
SFX_OVER = * - sfx_data         ; the game is over: C E G C
  .byte 0, $B5, $D5, $B5, $D5, $B4, $D5, $B3, $D5, $B5, $A9, $B5, $A9, $B4, $A9, $B3, $A9
  .byte $B5, $8E, $B5, $8E, $B4, $8E, $B3, $8E, $B5, $6A, $B5, $6A, $B5, $6A, $B4, $6A
  .byte $B4, $6A, $B4, $6A, $B3, $6A, $B3, $6A, $B3, $6A, $B2, $6A, $B2, $6A, $B2, $6A
  .byte $B1, $6A, $B1, $6A, 0
SFX_CAPTURE = * - sfx_data      ; noise: a piece turns
  .byte $36, $05, $35, $06, $34, $07, $33, $08, $32, $09, $31, $0A, 0
.assert >(* - 1) = >sfx_data, error, "sfx_data crosses a page"


.align 256
; Note names: C3 .. B6 as note numbers (MIDI - 44).
N_A2 = 1
N_AS2 = 2
N_B2 = 3
N_C3 = 4
N_D3 = 6
N_E3 = 8
N_F3 = 9
N_G3 = 11
N_A3 = 13
N_B3 = 15
N_C4 = 16
N_D4 = 18
N_E4 = 20
N_F4 = 21
N_G4 = 23
N_A4 = 25
N_B4 = 27
N_C5 = 28
N_D5 = 30
N_E5 = 32
N_F5 = 33
N_G5 = 35
N_A5 = 37
N_B5 = 39
N_C6 = 40
REST = 0
LOOP = $FF
.define TRI(n) (n + 12)

; "Corner to corner", the DOTS tune: 8 bars of 4/4 in C major at 150 beats a minute, in
; (note, frames) pairs; LOOP starts again. Chords: C, Am, F, G, C, Am, Dm-G, C.
EI = 12                 ; an eighth note, in frames
QU = 24
DQ = 36
melody:
  .byte N_E5, QU, N_G5, EI, N_E5, EI, N_C5, QU, N_D5, EI, N_E5, EI
  .byte N_A4, QU, N_C5, EI, N_E5, EI, N_A5, DQ, N_G5, EI
  .byte N_F5, EI, N_E5, EI, N_D5, EI, N_C5, EI, N_A4, QU, N_C5, QU
  .byte N_B4, QU, N_D5, EI, N_G5, EI, N_F5, QU, N_D5, QU
  .byte N_E5, QU, N_G5, EI, N_C6, EI, N_B5, EI, N_G5, EI, N_E5, QU
  .byte N_A5, EI, N_G5, EI, N_E5, EI, N_C5, EI, N_D5, QU, N_E5, QU
  .byte N_F5, QU, N_A5, EI, N_F5, EI, N_D5, QU, N_B4, QU
  .byte N_C5, DQ, N_E5, EI, N_C5, QU, REST, QU
  .byte LOOP
.assert >(* - 1) = >melody, error, "melody crosses a page"
bass:
  .byte TRI(N_C3), QU, TRI(N_G3), QU, TRI(N_C3), QU, TRI(N_G3), QU
  .byte TRI(N_A2), QU, TRI(N_E3), QU, TRI(N_A2), QU, TRI(N_E3), QU
  .byte TRI(N_F3), QU, TRI(N_C3), QU, TRI(N_F3), QU, TRI(N_C3), QU
  .byte TRI(N_G3), QU, TRI(N_D3), QU, TRI(N_G3), QU, TRI(N_B2), QU
  .byte TRI(N_C3), QU, TRI(N_G3), QU, TRI(N_C3), QU, TRI(N_G3), QU
  .byte TRI(N_A2), QU, TRI(N_E3), QU, TRI(N_A2), QU, TRI(N_C3), QU
  .byte TRI(N_D3), QU, TRI(N_A2), QU, TRI(N_G3), QU, TRI(N_B2), QU
  .byte TRI(N_C3), QU, TRI(N_G3), QU, TRI(N_C3), QU, REST, QU
  .byte LOOP

.assert >(* - 1) = >bass, error, "bass crosses a page"

.align 256
  .byte 0               ; so that period_lo - 1 + note stays in the page
; Square periods (CPU clock / (16 * f) - 1), equal temperament from A2 (MIDI 45) to C7
; (96); a note's number is its index here plus one, MIDI - 44. The triangle sounds an
; octave lower for the same period, so a bass note is written an octave up (TRI).
.define PERIODS 1016, 959, 905, 854, 806, 761, 718, 678, 640, 604, 570, 538, 507, \
  479, 452, 427, 403, 380, 359, 338, 319, 301, 284, 268, 253, 239, 225, 213, 201, 189, \
  179, 169, 159, 150, 142, 134, 126, 119, 112, 106, 100, 94, 89, 84, 79, 75, 70, 66, \
  63, 59, 56, 52
period_lo: .lobytes PERIODS
period_hi: .hibytes PERIODS

.assert >(period_hi + 51) = >(period_lo - 1), error, "the periods cross a page"
; The melody's volume by frames since its note began (held at the last step); ENV_REST: a rest.
melody_env:
  .byte 6, 6, 5, 5, 5, 4, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3
  .byte 0

.assert >(* - 1) = >melody_env, error, "melody_env crosses a page"

; Square 2's effect for the frame's events (sound_frame's snd_bits: bit 5 the game over,
; 4 a move, 3 its source is $FF (a clone), 2 a piece picked up, 1 a refused A, 0 the hand
; moved): the most important one.
sq_choice:
.repeat 64, m
  .if m & 32
    .byte SFX_OVER
  .elseif m & 16
    .if m & 8
      .byte SFX_CLONE
    .else
      .byte SFX_JUMP
    .endif
  .elseif m & 4
    .byte SFX_PICK
  .elseif m & 2
    .byte SFX_REFUSE
  .elseif m & 1
    .byte SFX_BLIP
  .else
    .byte 0
  .endif
.endrepeat
.assert >(* - 1) = >sq_choice, error, "sq_choice crosses a page"

; A branch that stays in its page (a taken branch into another page costs a cycle more).
.macro BRANCH op, target
  op target
  .assert >* = >(target), error, "a branch in sound.s crosses a page"
.endmacro

; The first frame of sound: the four channels on and quiet, the tune at its start.
sound_init:
  lda #$0F              ; squares, triangle, noise
  sta APU_STATUS
  lda #$08              ; sweep off; negate keeps the sweep unit from muting low notes
  sta SQ1_SWEEP
  sta SQ2_SWEEP
  lda #$30              ; volume 0
  sta SQ1_VOL
  sta SQ2_VOL
  sta NOISE_VOL
  lda #$80              ; triangle halted
  sta TRI_LINEAR
  lda #1
  sta snd_mel_len       ; the first notes start with the first frame
  sta snd_bass_len
  lda #ENV_REST
  sta snd_mel_env
  rts

.align 256
; One frame of sound: the tune a frame on, the effects a step each.
sound_frame:
  ; The melody on square 1: a new note when the last one is over. (every path: 0 mod 6)
  dec snd_mel_len       ; 5
  BRANCH beq, @mel_new          ; 7 / 8
  nop                   ; 9
  jmp @mel_env          ; 12
@mel_rest:              ; 43
  lda #ENV_REST
  sta snd_mel_env       ; 48
  bit snd_mel_hi        ; 51
  jmp @mel_env          ; 54
@mel_new:               ; 8
  ldx snd_mel_pos
  lda melody, x
  cmp #LOOP             ; 17
  BRANCH bne, @mel_nowrap       ; 19 / 20
  ldx #0
  lda melody
  jmp @mel_go           ; 28
@mel_nowrap:
  nop                   ; 22
@mel_go:                ; 22 / 28
  tay
  lda melody + 1, x
  sta snd_mel_len
  inx
  inx
  stx snd_mel_pos
  cpy #REST             ; 40
  BRANCH beq, @mel_rest         ; 42 / 43
  lda period_lo - 1, y
  sta SQ1_LO
  lda period_hi - 1, y
  ora #$08              ; a length counter load (halted), never 0
  cmp snd_mel_hi        ; 59
  BRANCH beq, @mel_same         ; 61 / 62
  sta snd_mel_hi        ; rewriting $4003 restarts the wave: only when it changes
  sta SQ1_HI
  jmp @mel_hi_done      ; 71
@mel_same:
  bit snd_mel_hi        ; 65
@mel_hi_done:           ; 71 / 65
  lda #0
  sta snd_mel_env
  nop                   ; 78 / 72
@mel_env:
  ; Its volume step. (25)
  ldx snd_mel_env
  lda melody_env, x
  ora #MELODY_DUTY
  sta SQ1_VOL
  cpx #ENV_REST - 1     ; 15
  BRANCH bcs, @env_held         ; 17 / 18
  inc snd_mel_env
  jmp @bass             ; 25
@env_held:
  nop
  nop
  bit snd_mel_env       ; 25
@bass:
  ; The bass on the triangle, cut short BASS_CUT frames before its end. (5 mod 6)
  dec snd_bass_len      ; 5
  BRANCH beq, @bass_new         ; 7 / 8
  lda snd_bass_len
  cmp #BASS_CUT         ; 12
  BRANCH bne, @bass_keep        ; 14 / 15
  lda #$80
  sta TRI_LINEAR
  jmp @square           ; 23
@bass_keep:
  nop
  bit snd_bass_len
  jmp @square           ; 23
@bass_rest:             ; 43
  lda #$80
  sta TRI_LINEAR        ; 49
  nop
  nop
  bit snd_bass_len
  jmp @square           ; 59
@bass_new:              ; 8
  ldx snd_bass_pos
  lda bass, x
  cmp #LOOP             ; 17
  BRANCH bne, @bass_nowrap      ; 19 / 20
  ldx #0
  lda bass
  jmp @bass_go          ; 28
@bass_nowrap:
  nop                   ; 22
@bass_go:               ; 22 / 28
  tay
  lda bass + 1, x
  sta snd_bass_len
  inx
  inx
  stx snd_bass_pos
  cpy #REST             ; 40
  BRANCH beq, @bass_rest        ; 42 / 43
  lda period_lo - 1, y
  sta TRI_LO
  lda period_hi - 1, y
  ora #$08
  sta TRI_HI
  lda #$FF              ; counter reloaded every quarter frame: sounds until stopped
  sta TRI_LINEAR        ; 66
  nop
  jmp @square           ; 71
.align 256              ; (so that no branch below crosses a page)
@square:
  ; Square 2: the most important effect the frame's events ask for starts, unless a more
  ; important one is playing (a later effect in sfx_data is a more important one). The
  ; events become bits without a branch. (5 mod 6)
  lda snd_ev_over
  cmp #1                ; carry: the event happened
  rol snd_bits
  lda snd_ev_move
  cmp #1
  rol snd_bits
  lda source            ; the move's source: $FF for a clone
  cmp #$80
  rol snd_bits
  lda snd_ev_pick
  cmp #1
  rol snd_bits
  lda snd_ev_refuse
  cmp #1
  rol snd_bits
  lda snd_ev_blip
  cmp #1
  rol snd_bits          ; 60
  lda snd_bits
  and #$3F
  tay
  lda sq_choice, y      ; 71
  tax
  BRANCH beq, @sq_none          ; 75 / 76
  cmp snd_sq_fx
  BRANCH bcc, @sq_low           ; 80 / 81
  stx snd_sq_fx
  lda sfx_data, x       ; the period's high byte, once (it restarts the wave)
  ora #$08
  sta SQ2_HI
  inx
  stx snd_sq_pos        ; 98
  jmp @sq_run           ; 101
@sq_none:
  nop
  nop
  bit snd_bits
  bit snd_bits
  jmp @sq_run           ; 89
@sq_low:
  nop
  bit snd_bits
  jmp @sq_run           ; 89
@sq_run:
  ; Square 2's effect a step on. (0 mod 6)
  ldx snd_sq_pos
  BRANCH beq, @sq_idle          ; 5 / 6
  lda sfx_data, x
  BRANCH beq, @sq_end           ; 11 / 12
  sta SQ2_VOL
  lda sfx_data + 1, x
  sta SQ2_LO
  inx
  inx
  stx snd_sq_pos        ; 30
  bit snd_sq_pos
  jmp @noise            ; 36
@sq_idle:
  bit snd_sq_pos
  jmp @noise            ; 12
@sq_end:                ; 12
  lda #$30
  sta SQ2_VOL
  lda #0
  sta snd_sq_pos
  sta snd_sq_fx         ; 26
  nop
  nop
  bit snd_sq_pos
  jmp @noise            ; 36
@noise:
  ; The noise: a captured piece. (0 mod 6)
  lda snd_ev_capture
  BRANCH beq, @nz_none          ; 5 / 6
  lda #SFX_CAPTURE
  cmp snd_nz_fx
  BRANCH bcc, @nz_low           ; 12 / 13
  sta snd_nz_fx
  sta snd_nz_pos
  lda #$08              ; the length counter (halted)
  sta NOISE_HI          ; 24
  bit snd_nz_fx
  jmp @nz_run           ; 30
@nz_none:
  bit snd_nz_fx
  jmp @nz_run           ; 12
@nz_low:
  nop
  jmp @nz_run           ; 18
@nz_run:
  ; The noise's effect a step on. (0 mod 6)
  ldx snd_nz_pos
  BRANCH beq, @nz_idle          ; 5 / 6
  lda sfx_data, x
  BRANCH beq, @nz_end           ; 11 / 12
  sta NOISE_VOL
  lda sfx_data + 1, x
  sta NOISE_LO
  inx
  inx
  stx snd_nz_pos
  bit snd_nz_pos
  jmp @done             ; 36
@nz_idle:
  bit snd_nz_pos
  jmp @done             ; 12
@nz_end:
  lda #$30
  sta NOISE_VOL
  lda #0
  sta snd_nz_pos
  sta snd_nz_fx
  nop
  nop
  bit snd_nz_pos
  jmp @done             ; 36
@done:
  lda #0                ; the events are heard (57)
  ldx #SND_EVENTS - 1
: sta snd_ev_blip, x
  dex
  BRANCH bpl, :-
  bit snd_bits          ; (so that the whole call is 5 mod 6: wait_frame_sound)
  rts

; wait_frame for the main loop, with a frame of sound first: the loop has done its frame's
; work and would only wait for the NMI. The sound takes 5 mod 6 cycles and the rest here
; 34, so the wait loop below starts in the phase wait_frame's did (3 cycles in, mod 6).
; (Played in the NMI, the sound would start every frame's work a few hundred cycles later.
; Here only a frame whose work ends within the sound's cycles of the NMI goes on later.)
; The first call starts the sound (that path is also 3 mod 6).
wait_frame_sound:
  lda frame             ; 3
  pha                   ; 6
  stx snd_save_x        ; the game's X and Y as it left them (12 cycles)
  sty snd_save_y
  lda snd_mel_len       ; 15: 0 only before the first frame of sound
  BRANCH bne, :+                ; 18 (or 17, then sound_init: 1 mod 6 with its jsr and rts...)
  jsr sound_init
: jsr sound_frame
  ldx snd_save_x
  ldy snd_save_y
  pla
: cmp frame             ; as wait_frame, from the count before the sound
  BRANCH beq, :-
  rts

; The game's hooks: each stands in for one call or instruction of the game's and counts an
; event; the game finds A, X and Y, and the flags it tests, as the original left them, and
; each adds a multiple of 6 cycles (see above).

; set_cursor_blip for set_cursor_cell: the hand moves a cell. (+12 cycles)
set_cursor_blip:
  inc snd_ev_blip
  nop
  nop
  jmp set_cursor_cell

; select_cell for a piece picked up. (+12)
select_cell_sfx:
  inc snd_ev_pick
  nop
  nop
  jmp select_cell

; jsr refused_sfx for inc REFUSED: A on a cell where it does nothing. (+24)
refused_sfx:
  inc snd_ev_refuse
  nop
  nop
  bit snd_ev_refuse
  inc REFUSED           ; its flags are what the game tests next
  rts

; place_move: a clone or a jump (sound_frame tells which from `source`). (+12)
place_move_sfx:
  inc snd_ev_move
  nop
  nop
  jmp place_move

; cell_set for a captured piece turning. (+12)
cell_set_capture:
  inc snd_ev_capture
  nop
  nop
  jmp cell_set

; port_over: the game is over. (+12)
port_over_sfx:
  inc snd_ev_over
  nop
  nop
  jmp port_over
