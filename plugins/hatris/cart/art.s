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

; One 16-pixel hat row ('.' = see-through): plane 0 left, plane 1 left, plane 0 right,
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
        c .set .strat(s, i)
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

; Hat pictures, top row first; each is exactly as tall as the hat.
art_top:
    HROW "...2112222222..."
    HROW "...2122222222..."
    HROW "...2122222222..."
    HROW "...2122222222..."
    HROW "...2122222222..."
    HROW "...2122222222..."
    HROW "...2122222222..."
    HROW "...2122222222..."
    HROW "...2122222222..."
    HROW "...2122222222..."
    HROW "...3333333333..."
    HROW "...3333333333..."
    HROW "...3333333333..."
    HROW "...2122222222..."
    HROW "...2122222222..."
    HROW "...2122222222..."
    HROW "...2222222222..."
    HROW ".22222222222222."
    HROW "2222222222222222"
    HROW ".22222222222222."
art_wizard:
    HROW ".......33......."
    HROW ".......33......."
    HROW "......3333......"
    HROW "......3333......"
    HROW "......3313......"
    HROW ".....333333....."
    HROW ".....333333....."
    HROW ".....331333....."
    HROW "....33333333...."
    HROW "....33333333...."
    HROW "....33333313...."
    HROW "...3333333333..."
    HROW "...3313333333..."
    HROW "...3333333333..."
    HROW "..333333333333.."
    HROW "..333333331333.."
    HROW "..333333333333.."
    HROW ".33333333333333."
    HROW ".33313333333333."
    HROW ".33333333333333."
    HROW ".22222222222222."
    HROW ".22222222222222."
    HROW "3333333333333333"
    HROW ".33333333333333."
art_crown:
    HROW ".2.....22.....2."
    HROW ".3.....33.....3."
    HROW ".33...3333...33."
    HROW ".333.333333.333."
    HROW ".33333333333333."
    HROW ".33333333333333."
    HROW ".33333333333333."
    HROW ".33223333332233."
    HROW ".33223333332233."
    HROW ".33333333333333."
    HROW ".33333333333333."
    HROW ".11111111111111."
    HROW ".33333333333333."
    HROW ".33333333333333."
    HROW ".33333333333333."
    HROW ".11111111111111."
art_cap:
    HROW "......22........"
    HROW "...22222222....."
    HROW "..2222222222...."
    HROW ".221222222222..."
    HROW ".212222222222..."
    HROW "2212222222222..."
    HROW "2222222222222..."
    HROW "2222222222222..."
    HROW "2222222222222..."
    HROW "1111111111111111"
    HROW "1111111111111111"
    HROW "............111."
art_derby:
    HROW ".....111111....."
    HROW "....11111111...."
    HROW "...1111111111..."
    HROW "...1111111111..."
    HROW "...2222222222..."
    HROW "...1111111111..."
    HROW ".11111111111111."
    HROW "1111111111111111"
art_cowboy:
    HROW ".....3333.33...."
    HROW "....33333333...."
    HROW "....33333333...."
    HROW "....33333333...."
    HROW "....33333333...."
    HROW "....22222222...."
    HROW "....22222222...."
    HROW "33..33333333..33"
    HROW "3333333333333333"
    HROW ".33333333333333."
    HROW "..333333333333.."

art_lo: .byte <art_top, <art_wizard, <art_crown, <art_cap, <art_derby, <art_cowboy
art_hi: .byte >art_top, >art_wizard, >art_crown, >art_cap, >art_derby, >art_cowboy

.assert art_wizard - art_top = 20 * 6, error, "top hat must be 20 rows"
.assert art_crown - art_wizard = 24 * 6, error, "wizard hat must be 24 rows"
.assert art_cap - art_crown = 16 * 6, error, "crown must be 16 rows"
.assert art_derby - art_cap = 12 * 6, error, "cap must be 12 rows"
.assert art_cowboy - art_derby = 8 * 6, error, "derby must be 8 rows"
.assert art_lo - art_cowboy = 11 * 6, error, "cowboy hat must be 11 rows"
.assert bg_tiles_end - bg_tiles = (TILE_BAR_OFF) * 16, error, "background tile block misplaced"
