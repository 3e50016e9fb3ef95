# Draws a wide variant's play-screen art (for wide.awk): every look of a cell as pixels,
# cut into 8 x 8 tiles, identical tiles shared, written to art.inc as CHR data and the
# tables draw.s and chr.s read (see chr.s). Colours: 0 black, 1 the board surface, 2 white,
# 3 the palette's player colour (palette 0's red where one palette serves the board).
#
# Inputs (globals): cw, ch (cell size in tiles), pal_mode, look_cursor, look_select,
# frame_style (bevel, flat), empty_style (plain, dotted, framed), blocked_style (hatched,
# solid, cross), design[1..4] (disc, square, diamond, ring, plus, saltire), fill[1..4]
# (2 or 3), hand_shape (hand, arrow, frame, dot, bar), hand_dx, hand_dy, mark_shape
# (corners, brackets).

function abs(v) { return v < 0 ? -v : v }
function max2(a, b) { return a > b ? a : b }
function min2(a, b) { return a < b ? a : b }

# Whether (dx, dy) from the cell's centre lies in shape `s` of radius r.
function in_shape(s, dx, dy, r,    d) {
    if (s == "disc") return dx * dx + dy * dy <= r * r
    if (s == "square") return max2(abs(dx), abs(dy)) <= r * 0.8
    if (s == "diamond") return abs(dx) + abs(dy) <= r * 1.1
    if (s == "ring") {
        d = dx * dx + dy * dy
        return d <= r * r && d >= (r * 0.5) * (r * 0.5)
    }
    if (s == "plus") return max2(abs(dx), abs(dy)) <= r && min2(abs(dx), abs(dy)) <= r * 0.38
    if (s == "saltire") return max2(abs(dx), abs(dy)) <= r * 0.9 && abs(abs(dx) - abs(dy)) <= r * 0.4
    return 0
}

# The colour of pixel (x, y) of a cell in look `look` (0-5 states, 6-11 with the hand,
# 12-15 a picked-up piece).
function look_pixel(look, x, y,    state, pw, ph, cx, cy, dx, dy, r, c, s, inside, near, e, k) {
    pw = cw * 8; ph = ch * 8
    state = look < 6 ? look : look < 12 ? look - 6 : look - 11
    # The cell's ground.
    if (frame_style == "bevel") {
        if (x == pw - 1 || y == ph - 1) c = 0
        else if (x == 0 || y == 0) c = 2
        else c = 1
    } else {
        c = (x == 0 || y == 0 || x == pw - 1 || y == ph - 1) ? 0 : 1
    }
    cx = (pw - 1) / 2; cy = (ph - 1) / 2
    dx = x - cx; dy = y - cy
    r = min2(pw, ph) / 2 - 2.5
    if (state == 0 && c == 1) {
        if (empty_style == "dotted" && abs(dx) <= 1 && abs(dy) <= 1) c = 0
        if (empty_style == "framed" && max2(abs(dx) / (pw / 2 - 3), abs(dy) / (ph / 2 - 3)) >= 0.999 \
            && max2(abs(dx) - (pw / 2 - 3), abs(dy) - (ph / 2 - 3)) < 1) c = 0
    }
    if (state == 5 && c == 1) {
        if (blocked_style == "solid" && abs(dx) <= pw / 2 - 3 && abs(dy) <= ph / 2 - 3) c = 0
        if (blocked_style == "hatched" && (x + y) % 4 == 0) c = 0
        if (blocked_style == "cross" && abs(abs(dx) * ph / pw - abs(dy)) <= 1 && abs(dx) <= pw / 2 - 3) c = 2
    }
    if (state >= 1 && state <= 4) {
        s = design[state]
        inside = in_shape(s, dx, dy, r)
        near = 0
        if (!inside)
            for (e = -1; e <= 1; e++) for (k = -1; k <= 1; k++)
                if (in_shape(s, dx + e, dy + k, r)) near = 1
        if (inside) {
            c = fill[state]
            if (look >= 12) c = c == 3 ? 2 : 3
        } else if (near && c == 1) {
            c = look >= 12 ? 2 : 0
        }
    }
    if (look >= 6 && look < 12 && (x < 2 || y < 2 || x >= pw - 2 || y >= ph - 2)) c = 2
    return c
}

# The 16 bytes of an 8 x 8 tile whose pixels are in tpix[0..63], as a hex string.
function tile_bytes(    plane, y, x, b, out) {
    out = ""
    for (plane = 0; plane < 2; plane++)
        for (y = 0; y < 8; y++) {
            b = 0
            for (x = 0; x < 8; x++) b = b * 2 + int(tpix[y * 8 + x] / (plane ? 2 : 1)) % 2
            out = out sprintf("%02X", b)
        }
    return out
}

# A tile number for these bytes: an old one with the same bytes, or the next free one.
function tile_for(bytes,    n) {
    if (bytes in tile_of) return tile_of[bytes]
    n = ntiles++
    tile_of[bytes] = n
    tile_data[n] = bytes
    return n
}

# Where the n-th new tile goes: $60-$9F, then $E0-$FF, then $00-$1F.
function tile_number(n) {
    if (n < 64) return 96 + n
    if (n < 96) return 224 + n - 64
    return n - 96
}

# The looks' tiles and the panel icons; returns how many tiles they need (at most 128 fit).
function draw_art(    look, tr, tc, x, y, state, p, k) {
    split("", tile_of); split("", tile_data); split("", look_tile)
    ntiles = 0
    # Panel icons, 2 x 2 tiles: one disc, or each player's design where the board has one
    # palette (so the panel shows which piece is whose).
    icon_count = pal_mode ? 1 : 4
    for (p = 0; p < icon_count; p++) {
        icon_first[p] = ntiles
        for (k = 0; k < 4; k++) {
            for (y = 0; y < 8; y++) for (x = 0; x < 8; x++)
                tpix[y * 8 + x] = icon_pixel(p, (k % 2) * 8 + x, int(k / 2) * 8 + y)
            tile_data[ntiles++] = tile_bytes()
        }
    }
    for (look = 0; look < 16; look++) {
        state = look
        if (look >= 6 && look < 12 && !look_cursor) state = look - 6
        if (look >= 12 && !look_select) state = look - 11
        for (tr = 0; tr < ch; tr++) for (tc = 0; tc < cw; tc++) {
            if (state != look) {
                look_tile[look, tr, tc] = look_tile[state, tr, tc]
                continue
            }
            for (y = 0; y < 8; y++) for (x = 0; x < 8; x++)
                tpix[y * 8 + x] = look_pixel(look, tc * 8 + x, tr * 8 + y)
            look_tile[look, tr, tc] = tile_for(tile_bytes())
        }
    }
    return ntiles
}

function icon_pixel(p, x, y,    s, dx, dy) {
    s = pal_mode ? "disc" : design[p + 1]
    dx = x - 7.5; dy = y - 7.5
    if (in_shape(s, dx, dy, 6)) return 3
    return 0
}

function emit_bytes(label, first, count,    n, b, k) {
    print label ":" > art_file
    for (n = first; n < first + count; n++) {
        b = tile_data[n]
        printf "  .byte $%s", substr(b, 1, 2) > art_file
        for (k = 3; k < 32; k += 2) printf ", $%s", substr(b, k, 2) > art_file
        printf "\n" > art_file
    }
}

# Writes art.inc for the art last drawn by draw_art.
function write_art(    n1, n2, n3, look, tr, tc, k, line) {
    n1 = min2(ntiles, 64); n2 = min2(max2(ntiles - 64, 0), 32); n3 = max2(ntiles - 96, 0)
    print "; DOTS variant " seed ": play-screen art (drawn by art.awk)" > art_file
    printf "TILE_ICON = $%02X\n", tile_number(icon_first[0]) > art_file
    print "bg_art_chunks:" > art_file
    if (n1) printf "  .byte $06, %d\n  .word art_60\n", n1 > art_file
    if (n2) printf "  .byte $0E, %d\n  .word art_E0\n", n2 > art_file
    if (n3) printf "  .byte $00, %d\n  .word art_00\n", n3 > art_file
    print "  .byte $FF" > art_file
    print "look_tiles:" > art_file
    for (look = 0; look < 16; look++) {
        line = "  .byte "
        for (tr = 0; tr < ch; tr++) for (tc = 0; tc < cw; tc++)
            line = line sprintf("$%02X%s", tile_number(look_tile[look, tr, tc]), (tr == ch - 1 && tc == cw - 1) ? "" : ", ")
        print line > art_file
    }
    print "look_palette:" > art_file
    line = "  .byte "
    for (look = 0; look < 16; look++) {
        k = look < 6 ? look : look < 12 ? look - 6 : look - 11
        line = line ((k >= 1 && k <= 4) ? k - 1 : 0) (look < 15 ? ", " : "")
    }
    print line > art_file
    write_sprites()
    if (n1) emit_bytes("art_60", 0, n1)
    if (n2) emit_bytes("art_E0", 64, n2)
    if (n3) emit_bytes("art_00", 96, n3)
}

# The 16 x 16 hand of the plain cart, row by row ('1' outline, '2' glove, '3' cuff).
function hand_row(y) {
    return substr("......11........" \
        ".....1221......." ".....1221......." ".....1221......." ".....122111111.." \
        ".....1221221221." ".111.1221221221." "1222112222222221" "1222212222222221" \
        ".122222222222221" "..12222222222221" "...1222222222221" "....12222222221." \
        ".....122222221.." ".....13333331..." ".....11111111...", y * 16 + 1, 16)
}

# Pixel (x, y) of sprite art `what`: the hand shapes (16 x 16) and the 8 x 8 marks.
function sprite_pixel(what, x, y,    ch1) {
    if (what == "hand") {
        ch1 = substr(hand_row(y), x + 1, 1)
        return ch1 == "." ? 0 : ch1 + 0
    }
    if (what == "arrow") {
        if (x > y || x + y > 20 || y > 14) return 0
        if (x == 0 || x == y || x + y >= 19 || y == 14) return 1
        return 2
    }
    if (what == "frame") return (y < 2 && x < 7) || (x < 2 && y < 7) ? 2 : (y == 2 && x >= 2 && x < 7) || (x == 2 && y > 2 && y < 7) ? 1 : 0
    if (what == "dot") {
        if (abs(x - 3.5) + abs(y - 3.5) <= 2) return 2
        return abs(x - 3.5) + abs(y - 3.5) <= 3.5 ? 1 : 0
    }
    if (what == "bar") return y >= 2 && y < 5 ? (y == 3 ? 2 : 1) : 0
    if (what == "corner") return (y < 2 && x < 7) || (x < 2 && y < 7) ? 3 : 0
    if (what == "bracket") return (x < 2 && y < 8) || (y < 2 && x < 5) || (y >= 6 && x < 5) ? 3 : 0
    if (what == "ornament") return abs(x - 3.5) + abs(y - 3.5) <= 3.5 ? (abs(x - 3.5) + abs(y - 3.5) <= 2 ? 1 : 2) : 0
    return 0
}

# The 8 x 8 tile (tx, ty) of sprite art `what` as 16 bytes in sprite_data.
function sprite_tile(what, tx, ty,    x, y) {
    for (y = 0; y < 8; y++) for (x = 0; x < 8; x++) tpix[y * 8 + x] = sprite_pixel(what, tx * 8 + x, ty * 8 + y)
    sprite_data[nsprites++] = tile_bytes()
}

function sprite_entry(dy, tile, attr, dx) {
    printf "  .byte $%02X, $%02X, $%02X, $%02X\n", (dy + 256) % 256, tile, attr, (dx + 256) % 256 > art_file
}

# The sprite tiles ($00-$03 the hand, $04 the mark, $05 the ornament) and the lists placed
# on a cell (y offset, tile, attributes, x offset).
function write_sprites(    pw, ph, n, k, o) {
    pw = cw * 8; ph = ch * 8
    nsprites = 0
    if (hand_shape == "hand" || hand_shape == "arrow") {
        for (k = 0; k < 4; k++) sprite_tile(hand_shape, k % 2, int(k / 2))
    } else {
        sprite_tile(hand_shape, 0, 0)
        for (k = 1; k < 4; k++) sprite_tile("none", 0, 0)
    }
    sprite_tile(mark_shape == "corners" ? "corner" : "bracket", 0, 0)
    sprite_tile("ornament", 0, 0)
    print "SPR_HAND = $00\nSPR_CORNER = $04\nSPR_ORNAMENT = $05" > art_file
    print "hand_sprites:" > art_file
    n = 0
    if (look_cursor) {
    } else if (hand_shape == "hand" || hand_shape == "arrow") {
        for (k = 0; k < 4; k++) sprite_entry(hand_dy + int(k / 2) * 8 - 1, k, 0, hand_dx + (k % 2) * 8)
        n = 4
    } else if (hand_shape == "frame") {
        o = hand_dx
        sprite_entry(-o - 1, 0, 0, -o)
        sprite_entry(-o - 1, 0, 64, pw - 8 + o)
        sprite_entry(ph - 8 + o - 1, 0, 128, -o)
        sprite_entry(ph - 8 + o - 1, 0, 192, pw - 8 + o)
        n = 4
    } else if (hand_shape == "dot") {
        sprite_entry(hand_dy - 1, 0, 0, hand_dx)
        n = 1
    } else {
        for (k = 0; k < cw; k++) sprite_entry(hand_dy - 1, 0, 0, k * 8)
        n = cw
    }
    print "HAND_SPRITES = " n > art_file
    print "mark_sprites:" > art_file
    n = 0
    if (look_select) {
    } else if (mark_shape == "corners") {
        sprite_entry(0, 4, 1, 1)
        sprite_entry(0, 4, 65, pw - 8)
        sprite_entry(ph - 10, 4, 129, 1)
        sprite_entry(ph - 10, 4, 193, pw - 8)
        n = 4
    } else {
        sprite_entry(int(ph / 2) - 5, 4, 1, 0)
        sprite_entry(int(ph / 2) - 5, 4, 65, pw - 8)
        n = 2
    }
    print "MARK_SPRITES = " n > art_file
    print "sprite_art:" > art_file
    for (k = 0; k < nsprites; k++) {
        printf "  .byte $%s", substr(sprite_data[k], 1, 2) > art_file
        for (o = 3; o < 32; o += 2) printf ", $%s", substr(sprite_data[k], o, 2) > art_file
        printf "\n" > art_file
    }
    print "sprite_art_end:" > art_file
}
