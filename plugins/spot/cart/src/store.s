; The storage module: the only code that knows how the board is kept in memory. The rest
; of the cart asks for cells by number (row * 7 + column) in canonical codes: 0 empty, 1-4
; the pieces of slots 1-4, 5 blocked. A build picks one way of keeping them (STORAGE, see
; ram.inc); a variant draws it, and with CHECK=1 every change is verified against a plain
; shadow copy (a test build: a mismatch is reported on the test port and stops the cart).
;
; The routines, all keeping X and Y:
;   cell_get      Y = cell -> A = code (flags follow A)
;   cell_set      Y = cell, A = code
;   shown_get     Y = cell -> A = the look the screen shows there ($FF: draw it again)
;   shown_set     Y = cell, A = the look just drawn
;   store_clear   every cell empty (a new game)
;   store_move_begin   a move is about to be written
;   store_select  Y = the newly picked-up cell or $FF (`selected` still holds the old one)
;   store_touch   Y = a cell whose look changed for reasons outside the board (the hand)
;   store_pending Y = a captured cell about to turn; store_pending_tick: they turn a step

; Keep A, X and Y across a routine that uses them.
.macro save_axy
  pha
  txa
  pha
  tya
  pha
.endmacro
.macro restore_axy
  pla
  tay
  pla
  tax
  pla
.endmacro

; Code tables: `dec` maps each value below `count`, masked by `mask`, to the k whose code it
; is ($FF for none); `enc` lists the codes, named by `fmt` (a .sprintf format) for k = 0 ..
; n - 1.
.macro code_tables enc, dec, fmt, n, count, mask, extra_code, extra_kind
dec:
  .repeat count, v
    found .set $FF
    .repeat n, k
      .if ((v) & (mask)) = .ident(.sprintf(fmt, k))
        found .set k
      .endif
    .endrepeat
    .ifnblank extra_code
      .if ((v) & (mask)) = (extra_code)
        found .set extra_kind
      .endif
    .endif
    .byte found
  .endrepeat
enc:
  .repeat n, k
    .byte .ident(.sprintf(fmt, k))
  .endrepeat
.endmacro

.if STORAGE = 0
  .include "store_classic.s"
.elseif STORAGE = 1
  .include "store_bytes.s"
.elseif STORAGE = 2
  .include "store_packed.s"
.else
  .include "store_planes.s"
.endif
.if STORAGE <> 0
  .include "store_wide.s"
.endif

.segment "CODE"

; The canonical interface: the kind's own routine, checked in a CHECK build.
.if CHECK
  .include "store_check.s"
.else
cell_get = st_get
cell_set = st_set
shown_get = st_shown_get
shown_set = st_shown_set
store_clear = st_clear
store_move_begin = st_move_begin
store_select = st_select
store_touch = st_touch
store_pending = st_pending
store_pending_tick = st_pending_tick
.endif

; Picks up cell Y ($FF: puts the piece down). Keeps X and Y.
select_cell:
  cpy selected
  beq :+
  jsr store_select
  sty selected
: rts
