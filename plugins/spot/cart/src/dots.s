; DOTS: an open Ataxx game for the NES, written for nesmind's Spot plug-in.
; MIT licence, like the rest of nesmind. Build with ./build.sh (ca65/ld65 from cc65).
;
; It keeps its state where Spot: The Video Game keeps it (see ram.inc) and takes the same
; controls: a hand cursor moved with the D-pad, A on one of your pieces to pick it up, A on
; an empty square one step away to clone or two steps away to jump.

.linecont +            ; a backslash continues a line (tile art, tables)
.include "nes.inc"
.include "ram.inc"
.include "art_macros.inc"

.segment "HEADER"
  .byte "NES", $1A
  .byte 2               ; 2 x 16 KiB PRG ROM
  .byte 0               ; no CHR ROM: 8 KiB CHR RAM
  .byte $10             ; mapper 1 (MMC1), mirroring set by the mapper
  .byte $08             ; NES 2.0 header
  .byte 0, 0
  .byte $07             ; 8 KiB PRG RAM (64 << 7), not battery-backed
  .byte $07             ; 8 KiB CHR RAM
  .byte 0               ; NTSC
  .byte 0, 0
  .byte $02             ; default expansion device: Four Score

.include "shape.s"
.include "chr.s"
.include "font.s"
.include "layouts.s"
.include "text.s"
.include "video.s"
.include "input.s"
.include "rng.s"
.include "store.s"
.include "board.s"
.include "port.s"
.include "ornament.s"
.include "ai.s"
.include "draw.s"
.include "panel.s"
.include "menu.s"
.include "menu_draw.s"
.include "game.s"
.include "splash.s"
.include "turns.s"

.segment "CODE"

; Writes A to an MMC1 register through its 5-bit serial port.
.macro mmc1_write reg
  .repeat 5
    sta reg
    lsr a
  .endrepeat
.endmacro

reset:
  sei
  cld
  ldx #$40
  stx APU_FRAME         ; no APU frame IRQ
  ldx #$FF
  txs
  inx
  stx PPUCTRL
  stx PPUMASK
  stx APU_DMC
  bit PPUSTATUS
: bit PPUSTATUS         ; first vblank: the PPU is warming up
  bpl :-
  lda #0
  tax
: sta $0000, x
  sta $0100, x
  sta $0300, x
  sta $0400, x
  sta $0500, x
  sta $0600, x
  sta $0700, x
  inx
  bne :-
  lda #$FF
: sta OAM, x            ; all sprites below the screen
  inx
  bne :-
  lda #$80
  sta MMC1_CONTROL      ; reset the shift register
  lda #$0E              ; vertical mirroring, 16 KiB banks with $C000 fixed, 8 KiB CHR
  mmc1_write MMC1_CONTROL
  lda #0                ; CHR bank 0; bit 4 clear keeps PRG RAM enabled (SNROM)
  mmc1_write MMC1_CHR0
  lda #0
  mmc1_write MMC1_CHR1
  lda #0                ; PRG bank 0 at $8000, PRG RAM enabled
  mmc1_write MMC1_PRG
: bit PPUSTATUS         ; second vblank: the PPU is ready
  bpl :-
  jsr load_chr
  jsr load_palette
  lda #$E1              ; any non-zero seed; the frames before Start vary it
  sta rng
  lda #$AC
  sta rng + 1
  lda #%10001000        ; NMI on, sprites from $1000, background from $0000
  sta ppu_ctrl
  sta PPUCTRL
  jsr power_on_settings
  jsr boot_screen
main_loop:
  jsr wait_frame_sound  ; a frame of sound in the idle time, then wait_frame
  jsr take_presses
  jsr rng_step          ; the sequence depends on how many frames have passed
  jsr run_phase
  jsr draw_frame
  lda #1
  sta nmi_ready
  jmp main_loop

irq:
  rti

.segment "VECTORS"
  .word nmi, reset, irq

; Last, so that adding it moved none of the game's code or data (sound.s explains).
.include "sound.s"
