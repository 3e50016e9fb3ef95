; Pictures: a 5x7 font, the six hats, walls, heads and the helper cursor. All drawn for
; this cartridge. Assembled before the text character map is set (text.s), so the
; picture strings below are read as plain ASCII.

; One font row: 5 characters, '#' = ink, placed in pixel columns 1-5.
.macro GROW s
    .local v
    v .set 0
    .repeat 5, i
        .if .strat(s, i) = '#'
            v .set v | ($40 >> i)
        .endif
    .endrep
    .byte v
.endmacro

; A glyph in colour 1: seven rows of plane 0, a blank eighth, an empty plane 1.
.macro GLYPH r0, r1, r2, r3, r4, r5, r6
    GROW r0
    GROW r1
    GROW r2
    GROW r3
    GROW r4
    GROW r5
    GROW r6
    .byte 0
    .res 8, 0
.endmacro

; One plane byte of an 8-pixel row: bit set where the character's colour has `bit`.
.macro PLANE s, bit
    .local v, c
    v .set 0
    .repeat 8, i
        c .set .strat(s, i) - '0'
        .if c >= 1 .and c <= 3
            .if c & bit
                v .set v | ($80 >> i)
            .endif
        .endif
    .endrep
    .byte v
.endmacro

; A whole 8x8 tile from eight rows of '.' (colour 0) and '1'-'3'.
.macro TILE8 r0, r1, r2, r3, r4, r5, r6, r7
    PLANE r0, 1
    PLANE r1, 1
    PLANE r2, 1
    PLANE r3, 1
    PLANE r4, 1
    PLANE r5, 1
    PLANE r6, 1
    PLANE r7, 1
    PLANE r0, 2
    PLANE r1, 2
    PLANE r2, 2
    PLANE r3, 2
    PLANE r4, 2
    PLANE r5, 2
    PLANE r6, 2
    PLANE r7, 2
.endmacro

; One hat pixel c at bit b: sets the bit in plane 0 / plane 1 / the mask symbols given.
.macro HPIXEL c, b, p0, p1, m
    .if c <> '.'
        m .set m | b
        .if (c - '0') & 1
            p0 .set p0 | b
        .endif
        .if (c - '0') & 2
            p1 .set p1 | b
        .endif
    .endif
.endmacro

; Colours 1-3 of the hat drawings after ART_PERM: colour c becomes nibble c - 1 of this.
.if ART_PERM = 1
    ART_PERM_MAP = $231
.elseif ART_PERM = 2
    ART_PERM_MAP = $312
.elseif ART_PERM = 3
    ART_PERM_MAP = $132
.elseif ART_PERM = 4
    ART_PERM_MAP = $213
.elseif ART_PERM = 5
    ART_PERM_MAP = $123
.else
    ART_PERM_MAP = $321
.endif

; One 16-pixel hat row ('.' = see-through; mirrored when ART_FLIP, colours as ART_PERM): plane 0 left, plane 1 left, plane 0 right,
; plane 1 right, then the inverted masks (left, right) used to draw over lower hats.
.macro HROW s
    .local p0l, p1l, p0r, p1r, ml, mr, c, b
    p0l .set 0
    p1l .set 0
    p0r .set 0
    p1r .set 0
    ml .set 0
    mr .set 0
    .repeat 16, i
        .if ART_FLIP
            c .set .strat(s, 15 - i)
        .else
            c .set .strat(s, i)
        .endif
        .if c >= '1' .and c <= '3'
            c .set '0' + ((ART_PERM_MAP >> ((c - '1') * 4)) & 3)
        .endif
        b .set $80 >> (i .mod 8)
        .if i < 8
            HPIXEL c, b, p0l, p1l, ml
        .else
            HPIXEL c, b, p0r, p1r, mr
        .endif
    .endrep
    .byte p0l, p1l, p0r, p1r, <~ml, <~mr
.endmacro

.segment "RODATA"

; Background tiles from tile 1 on (tile 0 stays blank).
bg_tiles:
    ; 0-9
    GLYPH ".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."
    GLYPH "..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."
    GLYPH ".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"
    GLYPH "#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."
    GLYPH "...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."
    GLYPH "#####", "#....", "####.", "....#", "....#", "#...#", ".###."
    GLYPH "..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."
    GLYPH "#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."
    GLYPH ".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."
    GLYPH ".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."
    ; A-Z
    GLYPH ".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"
    GLYPH "####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."
    GLYPH ".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."
    GLYPH "###..", "#..#.", "#...#", "#...#", "#...#", "#..#.", "###.."
    GLYPH "#####", "#....", "#....", "####.", "#....", "#....", "#####"
    GLYPH "#####", "#....", "#....", "####.", "#....", "#....", "#...."
    GLYPH ".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".####"
    GLYPH "#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"
    GLYPH ".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."
    GLYPH "..###", "...#.", "...#.", "...#.", "...#.", "#..#.", ".##.."
    GLYPH "#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"
    GLYPH "#....", "#....", "#....", "#....", "#....", "#....", "#####"
    GLYPH "#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"
    GLYPH "#...#", "#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#"
    GLYPH ".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."
    GLYPH "####.", "#...#", "#...#", "####.", "#....", "#....", "#...."
    GLYPH ".###.", "#...#", "#...#", "#...#", "#.#.#", "#..#.", ".##.#"
    GLYPH "####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"
    GLYPH ".####", "#....", "#....", ".###.", "....#", "....#", "####."
    GLYPH "#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."
    GLYPH "#...#", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."
    GLYPH "#...#", "#...#", "#...#", "#...#", "#...#", ".#.#.", "..#.."
    GLYPH "#...#", "#...#", "#...#", "#.#.#", "#.#.#", "#.#.#", ".#.#."
    GLYPH "#...#", "#...#", ".#.#.", "..#..", ".#.#.", "#...#", "#...#"
    GLYPH "#...#", "#...#", ".#.#.", "..#..", "..#..", "..#..", "..#.."
    GLYPH "#####", "....#", "...#.", "..#..", ".#...", "#....", "#####"
    ; - = : ! .
    GLYPH ".....", ".....", ".....", "#####", ".....", ".....", "....."
    GLYPH ".....", ".....", "#####", ".....", "#####", ".....", "....."
    GLYPH ".....", "..#..", "..#..", ".....", "..#..", "..#..", "....."
    GLYPH "..#..", "..#..", "..#..", "..#..", "..#..", ".....", "..#.."
    GLYPH ".....", ".....", ".....", ".....", ".....", "..#..", "..#.."
    .res (TILE_WALL - 42) * 16, 0
    ; wall: red bricks
    TILE8 "22221222", "22221222", "22221222", "11111111", "12222222", "12222222", "12222222", "11111111"
    ; column separator
    TILE8 "...2....", "........", "...2....", "........", "...2....", "........", "...2....", "........"
    ; a head under each pile: top-left, top-right, bottom-left, bottom-right
    TILE8 "....3333", "..333333", ".3333333", ".3311333", ".3311333", "33333333", "33333333", "33333333"
    TILE8 "3333....", "333333..", "3333333.", "3331133.", "3331133.", "33333333", "33333333", "33333333"
    TILE8 "33333333", "33323333", ".3332222", ".3333333", "..333333", "....3333", "......33", "........"
    TILE8 "33333333", "33332333", "2222333.", "3333333.", "333333..", "3333....", "33......", "........"
    ; helper progress: a filled and an empty cell
    TILE8 "........", ".333333.", ".333333.", ".333333.", ".333333.", ".333333.", ".333333.", "........"
    TILE8 "........", ".111111.", ".1....1.", ".1....1.", ".1....1.", ".1....1.", ".111111.", "........"
bg_tiles_end:

; Sprite tiles after the generated hats: the helper cursor and Vladimir's first choice.
cursor_tiles:
    TILE8 "..3333..", "..3333..", "..3333..", "33333333", ".333333.", "..3333..", "...33...", "........"
    TILE8 "22....22", ".22..22.", "..2222..", "...22...", "..2222..", ".22..22.", "22....22", "........"

.include "hats.s"
