; nesmind Hatris-like: a small open game in the spirit of Hatris, written for nesmind's
; tests and demo. Six piles of hats; pairs fall; five equal hats in a row vanish.
; Copyright (c) the nesmind authors. MIT licence (see LICENSE at the top of the repository).
;
; Build: plugins/hatris/cart/build.sh (ca65/ld65 from cc65).

.include "defs.inc"
.include "port.s"
.include "check.s"
.include "store_vram.s"
.include "store.s"
.include "store_move.s"
.include "pair.s"
.include "pool.s"
.include "main.s"
.include "art.s"
.include "piles.s"
.include "rng.s"
.include "play.s"
.include "fall.s"
.include "helpers.s"
.include "render.s"
.include "preview.s"
.include "sprites.s"
.include "shop.s"
.include "screen.s"
.include "text.s"
.include "sound.s"              ; in its own segment, after everything else
