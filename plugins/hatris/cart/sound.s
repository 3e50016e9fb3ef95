; Sound: a looping tune and the game's sound effects, all written for this cartridge.
;
; The tune plays square 1 (the melody, duty 50 %, a soft volume envelope) over the triangle
; (an oom-pah bass), from the first frame on, on every screen. Effects take the two
; channels the tune leaves alone: square 2 (the pair moving, A swapping its hats, a stack
; of five clearing, a helper called or at work, the game over) and noise (a hat landing,
; the rush of a stack clearing). The main loop plays a frame of everything once its
; frame's work is done, while it waits for the NMI (frame_end_sound), a few hundred cycles
; at most.
;
; The game is not changed by it. The game tells the sound what happened through hooks (at
; the end) that stand in for one of its own calls or instructions with one of the same
; size and add an `inc` of an event counter; this file sits in its own segment after
; everything else (nes.cfg), so none of the game's code or data moved and its loops take
; the cycles they took. The sound never reads or writes the game's RAM (its frame counter
; and its generator included); it has its own (snd_*, defs.inc).

SQ1_VOL    = $4000
SQ1_SWEEP  = $4001
SQ1_LO     = $4002
SQ1_HI     = $4003
SQ2_VOL    = $4004
SQ2_SWEEP  = $4005
SQ2_LO     = $4006
SQ2_HI     = $4007
TRI_LINEAR = $4008
TRI_LO     = $400A
TRI_HI     = $400B
NOISE_VOL  = $400C
NOISE_LO   = $400E
NOISE_HI   = $400F
APU_STATUS = $4015

MELODY_DUTY = $B0       ; duty 50 %, length counter halted, constant volume
BASS_CUT    = 8         ; frames before a bass note's end that it stops (staccato)
ENV_REST    = 16        ; the envelope's silent step

.linecont +            ; a backslash continues a line (the period table)

; Everything here sits in its own segment (nes.cfg: SOUND, page-aligned, after the rest of
; the fixed bank). Its tables start on page boundaries so that no indexed read crosses a
; page, no branch crosses one (BRANCH), and every path through sound_frame and the hooks
; takes the same number of cycles modulo 6, the length of the loop in which the game waits
; for the NMI: that loop is entered in the same phase as without sound, so the NMI finds
; it at the same instruction and the game's next frame starts on the same cycle. (The
; cycles in the comments are counted from the start of each part.)
.segment "SOUND"

; Effects, in one table: an effect is its offset here (never 0, which means none), and a
; later one is the more important: it cuts an earlier one short, never the other way round.
; A square effect is the period's high byte, then per frame the volume byte ($4004) and the
; period's low byte, ended by 0; a noise effect is per frame the volume byte ($400C) and
; the noise period ($400E), ended by 0.
sfx_data:
    .byte 0
SFX_MOVE = * - sfx_data         ; the pair (or the helper's cursor) moves a column: a tick
    .byte 0, $74, $70, $72, $70, 0
SFX_SWAP = * - sfx_data         ; A swaps the hats (or a helper takes or swaps): a flip
    .byte 0, $B4, $7E, $B4, $7E, $B4, $9F, $B3, $9F, $B2, $9F, 0
SFX_CHIME = * - sfx_data        ; a stack of five clears: D F A D
    .byte 0, $B5, $BD, $B4, $BD, $B5, $9F, $B4, $9F, $B5, $7E, $B4, $7E, $B5, $5E, $B5, $5E
    .byte $B4, $5E, $B4, $5E, $B3, $5E, $B3, $5E, $B2, $5E, $B2, $5E, $B1, $5E, 0
SFX_HELPER = * - sfx_data       ; a helper comes: a call up and back
    .byte 0, $B5, $BD, $B5, $BD, $B5, $BD, $B4, $BD, $B5, $7E, $B5, $7E, $B5, $7E, $B4, $7E
    .byte $B5, $BD, $B4, $BD, $B3, $BD, $B2, $BD, $B1, $BD, 0
SFX_OVER = * - sfx_data         ; the game is over: F D A, falling
    .byte 1, $B5, $3F, $B5, $3F, $B5, $3F, $B4, $3F, $B4, $3F, $B3, $3F
    .byte $B5, $7C, $B5, $7C, $B5, $7C, $B4, $7C, $B4, $7C, $B3, $7C
    .byte $B5, $FB, $B5, $FB, $B5, $FB, $B4, $FB, $B4, $FB, $B4, $FB, $B3, $FB, $B3, $FB
    .byte $B3, $FB, $B2, $FB, $B2, $FB, $B2, $FB, $B1, $FB, $B1, $FB, 0
SFX_LAND = * - sfx_data         ; noise: a hat lands, a soft thud
    .byte $35, $0C, $34, $0D, $32, $0E, $31, $0E, 0
SFX_RUSH = * - sfx_data         ; noise: a stack clears, a rush that falls away
    .byte $34, $03, $35, $04, $35, $05, $34, $06, $34, $07, $33, $08, $33, $09, $32, $0A
    .byte $32, $0B, $31, $0C, $31, $0D, 0
.assert >(* - 1) = >sfx_data, error, "sfx_data crosses a page"

.segment "SOUND"

.align 256
; Note names as note numbers (MIDI - 44); the bass's may lie below the table (TRI lifts them).
N_G2  = 43 - 44
N_A2  = 45 - 44
N_AS2 = 46 - 44
N_CS3 = 49 - 44
N_D3  = 50 - 44
N_E3  = 52 - 44
N_F3  = 53 - 44
N_A4  = 69 - 44
N_AS4 = 70 - 44
N_CS5 = 73 - 44
N_D5  = 74 - 44
N_E5  = 76 - 44
N_F5  = 77 - 44
N_G5  = 79 - 44
N_A5  = 81 - 44
N_AS5 = 82 - 44
N_C6  = 84 - 44
N_D6  = 86 - 44
REST  = 0
LOOP  = $FF
.define TRI(n) (n + 12)

; "The hat shop", this cart's tune: 8 bars of 4/4 in D minor at 180 beats a minute, in
; (note, frames) pairs; LOOP starts again. Chords: Dm, Dm, Gm, A, Dm, Bb, Gm-A, Dm.
EI = 10                 ; an eighth note, in frames
QU = 20
melody:
    .byte N_D5, EI, N_F5, EI, N_A5, QU, N_G5, EI, N_F5, EI, N_E5, EI, N_D5, EI
    .byte N_F5, EI, N_A5, EI, N_D6, QU, N_C6, EI, N_A5, EI, N_F5, QU
    .byte N_G5, EI, N_AS5, EI, N_G5, EI, N_D5, EI, N_AS4, QU, N_D5, QU
    .byte N_CS5, EI, N_E5, EI, N_A5, EI, N_G5, EI, N_E5, QU, N_CS5, QU
    .byte N_D5, EI, N_F5, EI, N_A5, EI, N_D6, EI, N_C6, QU, N_A5, QU
    .byte N_AS5, EI, N_A5, EI, N_G5, EI, N_F5, EI, N_D5, QU, N_F5, QU
    .byte N_G5, QU, N_AS5, EI, N_G5, EI, N_E5, QU, N_CS5, QU
    .byte N_D5, QU, N_A4, EI, N_CS5, EI, N_D5, QU, REST, QU
    .byte LOOP
.assert >(* - 1) = >melody, error, "melody crosses a page"
bass:
    .byte TRI(N_D3), QU, TRI(N_A2), QU, TRI(N_D3), QU, TRI(N_A2), QU
    .byte TRI(N_D3), QU, TRI(N_A2), QU, TRI(N_D3), QU, TRI(N_F3), QU
    .byte TRI(N_G2), QU, TRI(N_D3), QU, TRI(N_G2), QU, TRI(N_D3), QU
    .byte TRI(N_A2), QU, TRI(N_E3), QU, TRI(N_A2), QU, TRI(N_CS3), QU
    .byte TRI(N_D3), QU, TRI(N_A2), QU, TRI(N_D3), QU, TRI(N_A2), QU
    .byte TRI(N_AS2), QU, TRI(N_F3), QU, TRI(N_AS2), QU, TRI(N_F3), QU
    .byte TRI(N_G2), QU, TRI(N_D3), QU, TRI(N_A2), QU, TRI(N_E3), QU
    .byte TRI(N_D3), QU, TRI(N_A2), QU, TRI(N_D3), QU, REST, QU
    .byte LOOP

.assert >(* - 1) = >bass, error, "bass crosses a page"

.align 256
    .byte 0                     ; so that period_lo - 1 + note stays in the page
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
    .byte 6, 6, 5, 5, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 3, 3
    .byte 0

.assert >(* - 1) = >melody_env, error, "melody_env crosses a page"

; Square 2's effect for the frame's events (sound_frame's snd_bits: bit 4 the game over,
; 3 a helper called, 2 a stack cleared, 1 hats swapped or taken, 0 a move): the most
; important one.
sq_choice:
.repeat 32, m
    .if m & 16
        .byte SFX_OVER
    .elseif m & 8
        .byte SFX_HELPER
    .elseif m & 4
        .byte SFX_CHIME
    .elseif m & 2
        .byte SFX_SWAP
    .elseif m & 1
        .byte SFX_MOVE
    .else
        .byte 0
    .endif
.endrepeat
.assert >(* - 1) = >sq_choice, error, "sq_choice crosses a page"
; The noise's (bit 1 a stack cleared, 0 a hat landed).
nz_choice:
    .byte 0, SFX_LAND, SFX_RUSH, SFX_RUSH
.assert >(* - 1) = >nz_choice, error, "nz_choice crosses a page"

; A branch that stays in its page (a taken branch into another page costs a cycle more).
.macro BRANCH op, target
    op target
    .assert >* = >(target), error, "a branch in sound.s crosses a page"
.endmacro

; The first frame of sound: the four channels on and quiet, the tune at its start. (55
; cycles with its rts, 1 mod 6: see frame_end_sound)
sound_init:
    lda #$0F                    ; squares, triangle, noise
    sta APU_STATUS
    lda #$08                    ; sweep off; negate keeps the sweep unit from muting low notes
    sta SQ1_SWEEP
    sta SQ2_SWEEP
    lda #$30                    ; volume 0
    sta SQ1_VOL
    sta SQ2_VOL
    sta NOISE_VOL
    lda #$80                    ; triangle halted
    sta TRI_LINEAR
    lda #1
    sta snd_mel_len             ; the first notes start with the first frame
    sta snd_bass_len
    lda #ENV_REST
    sta snd_mel_env
    rts

.align 256
; One frame of sound: the tune a frame on, the effects a step each. (3 mod 6 with its rts)
sound_frame:
    ; The melody on square 1: a new note when the last one is over. (0 mod 6)
    dec snd_mel_len             ; 5
    BRANCH beq, @mel_new        ; 7 / 8
    nop                         ; 9
    jmp @mel_env                ; 12
@mel_rest:                      ; 43
    lda #ENV_REST
    sta snd_mel_env             ; 48
    bit snd_mel_hi              ; 51
    jmp @mel_env                ; 54
@mel_new:                       ; 8
    ldx snd_mel_pos
    lda melody, x
    cmp #LOOP                   ; 17
    BRANCH bne, @mel_nowrap     ; 19 / 20
    ldx #0
    lda melody
    jmp @mel_go                 ; 28
@mel_nowrap:
    nop                         ; 22
@mel_go:                        ; 22 / 28
    tay
    lda melody + 1, x
    sta snd_mel_len
    inx
    inx
    stx snd_mel_pos
    cpy #REST                   ; 40
    BRANCH beq, @mel_rest       ; 42 / 43
    lda period_lo - 1, y
    sta SQ1_LO
    lda period_hi - 1, y
    ora #$08                    ; a length counter load (halted), never 0
    cmp snd_mel_hi              ; 59
    BRANCH beq, @mel_same       ; 61 / 62
    sta snd_mel_hi              ; rewriting $4003 restarts the wave: only when it changes
    sta SQ1_HI
    jmp @mel_hi_done            ; 71
@mel_same:
    bit snd_mel_hi              ; 65
@mel_hi_done:                   ; 71 / 65
    lda #0
    sta snd_mel_env
    nop                         ; 78 / 72
@mel_env:
    ; Its volume step. (25)
    ldx snd_mel_env
    lda melody_env, x
    ora #MELODY_DUTY
    sta SQ1_VOL
    cpx #ENV_REST - 1           ; 15
    BRANCH bcs, @env_held       ; 17 / 18
    inc snd_mel_env
    jmp @bass                   ; 25
@env_held:
    nop
    nop
    bit snd_mel_env             ; 25
@bass:
    ; The bass on the triangle, cut short BASS_CUT frames before its end. (5 mod 6)
    dec snd_bass_len            ; 5
    BRANCH beq, @bass_new       ; 7 / 8
    lda snd_bass_len
    cmp #BASS_CUT               ; 12
    BRANCH bne, @bass_keep      ; 14 / 15
    lda #$80
    sta TRI_LINEAR
    jmp @square                 ; 23
@bass_keep:
    nop
    bit snd_bass_len
    jmp @square                 ; 23
@bass_rest:                     ; 43
    lda #$80
    sta TRI_LINEAR              ; 49
    nop
    nop
    bit snd_bass_len
    jmp @square                 ; 59
@bass_new:                      ; 8
    ldx snd_bass_pos
    lda bass, x
    cmp #LOOP                   ; 17
    BRANCH bne, @bass_nowrap    ; 19 / 20
    ldx #0
    lda bass
    jmp @bass_go                ; 28
@bass_nowrap:
    nop                         ; 22
@bass_go:                       ; 22 / 28
    tay
    lda bass + 1, x
    sta snd_bass_len
    inx
    inx
    stx snd_bass_pos
    cpy #REST                   ; 40
    BRANCH beq, @bass_rest      ; 42 / 43
    lda period_lo - 1, y
    sta TRI_LO
    lda period_hi - 1, y
    ora #$08
    sta TRI_HI
    lda #$FF                    ; counter reloaded every quarter frame: sounds until stopped
    sta TRI_LINEAR              ; 66
    nop
    jmp @square                 ; 71
.align 256                      ; (so that no branch below crosses a page)
@square:
    ; Square 2: the most important effect the frame's events ask for starts, unless a
    ; more important one is playing (a later effect in sfx_data is a more important one).
    ; The events become bits without a branch. (1 mod 6)
    lda snd_ev_over
    cmp #1                      ; carry: the event happened
    rol snd_bits
    lda snd_ev_helper
    cmp #1
    rol snd_bits
    lda snd_ev_clear
    cmp #1
    rol snd_bits
    lda snd_ev_swap
    cmp #1
    rol snd_bits
    lda snd_ev_move
    cmp #1
    rol snd_bits                ; 50
    lda snd_bits
    and #$1F
    tay
    lda sq_choice, y            ; 61
    tax
    BRANCH beq, @sq_none        ; 65 / 66
    cmp snd_sq_fx
    BRANCH bcc, @sq_low         ; 70 / 71
    stx snd_sq_fx
    lda sfx_data, x             ; the period's high byte, once (it restarts the wave)
    ora #$08
    sta SQ2_HI
    inx
    stx snd_sq_pos              ; 88
    jmp @sq_run                 ; 91
@sq_none:
    nop
    nop
    jmp @sq_run                 ; 73
@sq_low:
    nop
    bit snd_bits
    jmp @sq_run                 ; 79
@sq_run:
    ; Square 2's effect a step on. (0 mod 6)
    ldx snd_sq_pos
    BRANCH beq, @sq_idle        ; 5 / 6
    lda sfx_data, x
    BRANCH beq, @sq_end         ; 11 / 12
    sta SQ2_VOL
    lda sfx_data + 1, x
    sta SQ2_LO
    inx
    inx
    stx snd_sq_pos              ; 30
    bit snd_sq_pos
    jmp @noise                  ; 36
@sq_idle:
    bit snd_sq_pos
    jmp @noise                  ; 12
@sq_end:                        ; 12
    lda #$30
    sta SQ2_VOL
    lda #0
    sta snd_sq_pos
    sta snd_sq_fx               ; 26
    nop
    nop
    bit snd_sq_pos
    jmp @noise                  ; 36
@noise:
    ; The noise: a stack clearing drowns a landing. (5 mod 6)
    lda snd_ev_clear
    cmp #1
    rol snd_bits
    lda snd_ev_land
    cmp #1
    rol snd_bits                ; 20
    lda snd_bits
    and #3
    tay
    lda nz_choice, y            ; 31
    BRANCH beq, @nz_none        ; 33 / 34
    cmp snd_nz_fx
    BRANCH bcc, @nz_low         ; 38 / 39
    sta snd_nz_fx
    sta snd_nz_pos
    lda #$08                    ; the length counter (halted)
    sta NOISE_HI                ; 50
    jmp @nz_run                 ; 53
@nz_none:
    nop
    nop
    jmp @nz_run                 ; 41
@nz_low:
    nop
    bit snd_bits
    jmp @nz_run                 ; 47
@nz_run:
    ; The noise's effect a step on. (0 mod 6)
    ldx snd_nz_pos
    BRANCH beq, @nz_idle        ; 5 / 6
    lda sfx_data, x
    BRANCH beq, @nz_end         ; 11 / 12
    sta NOISE_VOL
    lda sfx_data + 1, x
    sta NOISE_LO
    inx
    inx
    stx snd_nz_pos
    bit snd_nz_pos
    jmp @done                   ; 36
@nz_idle:
    bit snd_nz_pos
    jmp @done                   ; 12
@nz_end:
    lda #$30
    sta NOISE_VOL
    lda #0
    sta snd_nz_pos
    sta snd_nz_fx
    nop
    nop
    bit snd_nz_pos
    jmp @done                   ; 36
@done:
    lda #0                      ; the events are heard (57)
    ldx #SND_EVENTS - 1
:   sta snd_ev_move, x
    dex
    BRANCH bpl, :-
    rts

; The main loop's end: hands the frame's upload to the NMI and, while it waits for it,
; plays a frame of sound, then starts the next pass. From the main loop's `jmp` on, this
; takes 20 cycles and the sound 3 mod 6 before the wait loop below (23 mod 6 = 5, the old
; `lda #1 / sta nmi_ready` before the same loop); the first call, with sound_init, too. An
; NMI during the sound takes the upload as usual and the loop goes on when the sound is
; done. X and Y are kept, as the old wait kept them. (Played in the NMI, the sound would start every frame's work a few hundred cycles
; later; here only a frame whose work ends within the sound's cycles of the NMI goes on
; later.)
.align 64              ; (so that the wait loop's branch stays in its page)
frame_end_sound:
    lda #1
    sta nmi_ready
    stx snd_save_x              ; the game's X and Y as it left them (12 cycles in all)
    sty snd_save_y
    lda snd_mel_len             ; 0 only before the first frame of sound
    BRANCH bne, :+
    jsr sound_init
:   jsr sound_frame
    ldx snd_save_x
    ldy snd_save_y
:   lda nmi_ready
    BRANCH bne, :-
    jmp main_loop

; The game's hooks: each stands in for one call or instruction of the game's and counts an
; event; the game finds A, X and Y, and the flags it tests, as the original left them, and
; each adds a multiple of 6 cycles (see above).

; port_moved after A swapped the pair's hats. (+12)
port_moved_swap:
    inc snd_ev_swap
    nop
    nop
    jmp port_moved

; port_moved after the pair (or the free hat) moved a column. (+12)
port_moved_tick:
    inc snd_ev_move
    nop
    nop
    jmp port_moved

; jsr dec_cursor_tick / inc_cursor_tick for dec CURSOR / inc CURSOR: a helper's cursor
; moves. (+24)
dec_cursor_tick:
    inc snd_ev_move
    nop
    nop
    bit snd_ev_move
    dec CURSOR
    rts
inc_cursor_tick:
    inc snd_ev_move
    nop
    nop
    bit snd_ev_move
    inc CURSOR
    rts

; port_landed: a hat landed; it leaves A = quiet (1: dealt between shops, no sound). (+18
; quiet, +24 heard)
port_landed_sfx:
    jsr port_landed
    BRANCH bne, @quiet
    inc snd_ev_land
    nop
    bit snd_bits
    rts
@quiet:
    bit snd_bits
    rts

; port_cleared: a stack of five vanished; it leaves A = quiet as port_landed. (+18, +24)
port_cleared_sfx:
    jsr port_cleared
    BRANCH bne, @quiet
    inc snd_ev_clear
    nop
    bit snd_bits
    rts
@quiet:
    bit snd_bits
    rts

; port_helper: a helper was called. (+12)
port_helper_sfx:
    inc snd_ev_helper
    nop
    nop
    jmp port_helper

; port_take / port_swap: Alexey took a hat, Vladimir swapped two piles. (+12)
port_take_sfx:
    inc snd_ev_swap
    nop
    nop
    jmp port_take
port_swap_sfx:
    inc snd_ev_swap
    nop
    nop
    jmp port_swap

; port_over: the game is over. (+12)
port_over_sfx:
    inc snd_ev_over
    nop
    nop
    jmp port_over
