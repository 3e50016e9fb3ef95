; Start-up, the frame loop and the vertical-blank handler.
;
; Board: mapper 1 (MMC1) with 32 KiB PRG ROM, 8 KiB CHR RAM and 8 KiB PRG RAM, like an
; SNROM. All code sits in the last 16 KiB bank, fixed at $C000.

.segment "HEADER"
    ; NES 2.0: mapper 1, two 16 KiB PRG banks, no CHR ROM, 8 KiB PRG RAM, 8 KiB CHR RAM
    .byte "NES", $1A, 2, 0, $10, $08, 0, 0, $07, $07, 0, 0, 0, 0

; The same 16 bytes end both banks: whichever bank the MMC1 shows at $C000 after
; power-on, the reset write ($FF to $8000) selects the fixed-last-bank mode and the
; jump lands in the real start-up code.
.macro RESET_STUB
    sei
    ldx #$FF
    txs
    stx $8000
    jmp reset
    .word nmi, $FFF0, irq
.endmacro

.segment "STUB0"
    RESET_STUB
.segment "STUB1"
    RESET_STUB

; Writes A to an MMC1 register through its 5-bit serial port.
.macro MMC1_WRITE addr
    sta addr
    lsr a
    sta addr
    lsr a
    sta addr
    lsr a
    sta addr
    lsr a
    sta addr
.endmacro

.segment "CODE"

irq:
    rti

.if PAL_CYCLE
.segment "RODATA"
cycle_colours: .byte $21, $22, $23, $24, $25, $26, $27, $28
.segment "CODE"
.endif

reset:
    cld
    lda #0
    sta PPUCTRL
    sta PPUMASK
    sta $4010                   ; no DMC interrupts
    sta $4015                   ; sound channels off
    lda #$40
    sta $4017                   ; no APU frame interrupts
    lda #$0E                    ; vertical mirroring, fixed last bank, 8 KiB CHR
    MMC1_WRITE $8000
    lda #0
    MMC1_WRITE $A000            ; CHR bank 0; bit 4 clear keeps the PRG RAM enabled
    lda #0
    MMC1_WRITE $E000            ; PRG bank 0 at $8000, PRG RAM enabled
    bit PPUSTATUS
:   bit PPUSTATUS
    bpl :-
    lda #0
    tax
:   sta $00, x
    sta $0100, x
    sta $0300, x
    sta $0400, x
    sta $0500, x
    sta $0600, x
    sta $0700, x
    inx
    bne :-
    ; PRG RAM too: variants keep game variables there
    lda #$60
    sta ptr + 1
    lda #0
    sta ptr
    tay
:   sta (ptr), y
    iny
    bne :-
    inc ptr + 1
    ldx ptr + 1
    cpx #$80
    bne :-
    ldx #COLUMNS - 1
    lda #$FF
:   sta dirty_top, x
    dex
    bpl :-
    sta CHOSEN
:   bit PPUSTATUS
    bpl :-
    jsr clear_vram
    jsr store_init
    lda #0
    ldx #COLUMNS - 1
:   jsr count_set               ; piles kept in nametable RAM start empty too
    dex
    bpl :-
    jsr end_pile_work
    SH_CALL pair_init
    jsr init_ppu
    jsr port_hello
    jsr enter_title
    jsr build_oam
    ; turn the picture on at the start of a vertical blank
:   bit PPUSTATUS
    bpl :-
    lda #0
    sta OAMADDR
    lda #>OAM
    sta OAMDMA
    lda #0
    sta PPUSCROLL
    sta PPUSCROLL
    lda #%10001000              ; NMI on, sprites from $1000, background from $0000
    sta ppu_ctrl
    sta PPUCTRL
    lda #%00011110
    sta PPUMASK

main_loop:
    jsr read_pad
    jsr game_step
    SH_CALL check_frame
    jsr render_pending
    jsr end_pile_work
    jsr build_oam
    jsr prepare_upload
    ; Wait until the NMI has taken the upload, with a frame of sound meanwhile (sound.s).
    ; (Waiting for the frame count to change let a frame that ran long slip through: an NMI
    ; between reading the count and setting the flag ended the wait at once, and the next
    ; prepare_upload replaced an upload the NMI had not made, leaving a cleared stack on
    ; screen.)
    jmp frame_end_sound
    .res 8, $EA                 ; where the wait was: nothing after it moved for the sound

read_pad:
    lda #1
    sta PAD1
    lda #0
    sta PAD1
    ldx #8
:   lda PAD1
    lsr a
    rol PAD_HELD
    dex
    bne :-
    lda pad_prev
    eor #$FF
    and PAD_HELD
    sta PAD_NEW
    lda PAD_HELD
    sta pad_prev
    rts

nmi:
    pha
    txa
    pha
    tya
    pha
    inc FRAME_LO
    bne :+
    inc FRAME_HI
:   lda #0
    sta OAMADDR
    lda #>OAM
    sta OAMDMA
    lda nmi_ready
    beq @scroll
    lda up_len
    beq @text
    lda up_ppu + 1
    sta PPUADDR
    lda up_ppu
    sta PPUADDR
    ldy #0
@tiles:
    .repeat 8
    lda (up_src), y
    sta PPUDATA
    iny
    .endrep
    cpy up_len
    bne @tiles
    beq @done
@text:
    ldx #0
@run:
    lda TEXT_BUF, x
    beq @done
    sta PPUADDR
    lda TEXT_BUF + 1, x
    sta PPUADDR
    ldy TEXT_BUF + 2, x
    inx
    inx
    inx
:   lda TEXT_BUF, x
    sta PPUDATA
    inx
    dey
    bne :-
    beq @run
@done:
    lda #0
    sta nmi_ready
@scroll:
.if PAL_CYCLE
    lda #$3F                    ; the status line's colour, a new one every 8 frames
    sta PPUADDR
    lda #$05
    sta PPUADDR
    lda FRAME_LO
    lsr a
    lsr a
    lsr a
    and #7
    tax
    lda cycle_colours, x
    sta PPUDATA
.endif
.if USE_VRAM
    ; Back on after a frame of pile work, and only after the last $2007 write: this NMI
    ; may come late (pile work held NMIs off until after the vertical blank began), and a
    ; write while the picture is drawn lands wherever the drawing has left the address.
    lda #%00011110
    sta PPUMASK
.endif
    bit PPUSTATUS
    lda #SCROLL_X
    sta PPUSCROLL
    lda #SCROLL_Y
    sta PPUSCROLL
    lda ppu_ctrl
    sta PPUCTRL
    pla
    tay
    pla
    tax
    pla
    rti
