; Variants with SPLASH: a start-up screen that waits for Start (or three seconds, so the
; window demo still plays by itself) before the title.
SPLASH_WAIT = 90        ; in 2-frame steps

.segment "CODE"

boot_screen:
.if SPLASH
  jmp splash_enter
.else
  jmp title_enter
.endif

splash_enter:
  jsr screen_off
  lda #PH_SPLASH
  sta phase
  lda #MODE_SPLASH
  sta MODE
  lda #3
  sta CART_PHASE
  lda #0
  sta idle_time
  sta t7
  jsr clear_screen
  lda #12
  jsr row_address
  lda ptr2
  ora #14
  sta ptr2
  lda #<str_dots_title
  ldx #>str_dots_title
  jsr set_ptr
  jsr queue_string
  jsr flush_vram
  lda #16
  jsr row_address
  lda ptr2
  ora #10
  sta ptr2
  lda #<str_press_start
  ldx #>str_press_start
  jsr set_ptr
  jsr queue_string
  jsr flush_vram
  jsr upload_attributes
  jsr place_sprites
  jmp screen_on

splash_frame:
  jsr any_pressed
  and #BTN_START
  bne @leave
  lda frame
  and #1
  bne @wait
  inc idle_time
  lda idle_time
  cmp #SPLASH_WAIT
  bcs @leave
@wait:
  rts
@leave:
  jmp title_enter

.segment "RODATA"
str_dots_title:  .byte "DOTS", 0
str_press_start: .byte "PRESS START", 0
