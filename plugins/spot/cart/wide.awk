# Draws a variant of the DOTS cartridge from the wide space: how the board is stored
# (STORAGE: the classic family, a byte or record per cell with flag bits, packed 3- or 4-bit
# fields, or bit planes; in one buffer or several, flipping on every move or moved when a
# game starts; the screen copy as dirty flags or nibble codes of its own) and how the play
# screen looks (cell size, gaps, origin, the side panel and status line, tile art per state,
# palettes per state or art alone, the hand and the selection as sprites or drawn into the
# cells, a colour-cycling ornament), besides everything variant.awk moves. The rules,
# controls, menus and the cart's computer player stay the same.
#
# Usage: awk -v seed=N -v art_file=ART.inc [-v check=1] [-v scrambled=1] \
#            [-v defs="NAME=VALUE ..."] -f gen_lib.awk -f art.awk -f wide.awk > variant.inc
# The printed definitions are ca65's; art_file gets the tiles (art.awk).

# a AND b for bytes, in arithmetic (awk has no bit operators).
function band(a, b,    k, out) {
    out = 0
    for (k = 0; k < 8; k++) if (int(a / 2 ^ k) % 2 && int(b / 2 ^ k) % 2) out += 2 ^ k
    return out
}

# `count` distinct values below `limit` into vals[0..count-1].
function distinct_below(count, limit,    k, v, seen) {
    split("", seen)
    for (k = 0; k < count; k++) {
        do v = rnd(limit); while (v in seen)
        seen[v] = 1
        vals[k] = v
    }
}

# Bit masks: the `count` bits of a free bit list bits[1..nbits] taken from its front.
function take_bits(count,    m, k) {
    m = 0
    for (k = 0; k < count; k++) m += 2 ^ bits[++bit_at]
    return m
}
# The value-th subset (0 .. 2^popcount - 1) of mask m, as a number.
function sub_value(m, value,    b, out, bit) {
    out = 0; bit = 1
    for (b = 0; b < 8; b++) if (int(m / 2 ^ b) % 2) {
        if (value % 2) out += 2 ^ b
        value = int(value / 2)
    }
    return out
}

# STORAGE 1: a byte or record per cell; the state and the flags in bit fields.
function draw_bytes(    step, pad, stride, k, t, b, mask, nb, rest, flags) {
    step = pick("1 1 2 3 4")
    define("ST_STEP", step)
    define("ST_FIELD", rnd(step))
    define("ST_AGE", step > 1 && rnd(2) ? hex((defined["ST_FIELD"] + 1 + rnd(step - 1)) % step, 2) : "$FF")
    pad = pick("0 0 1")
    stride = (7 + 2 * pad) * step + pick("0 0 1 3 8")
    while ((7 + 2 * pad) * stride > 256) stride--
    define("ST_PAD", pad)
    define("ST_STRIDE", stride)
    st_size = (7 + 2 * pad) * stride
    # The byte's bits in a random order; the phase counter takes two neighbouring bits.
    for (k = 0; k < 8; k++) bits[k + 1] = k
    for (k = 8; k > 1; k--) { t = rnd(k) + 1; b = bits[k]; bits[k] = bits[t]; bits[t] = b }
    bit_at = 0
    phase = rnd(3) == 0
    if (phase) {
        t = rnd(7)
        define("ST_PHASE_MASK", hex(3 * 2 ^ t, 2))
        define("ST_PHASE_ONE", hex(2 ^ t, 2))
        nb = 0
        for (k = 1; k <= 8; k++) if (bits[k] != t && bits[k] != t + 1) rest[++nb] = bits[k]
        for (k = 1; k <= 6; k++) bits[k] = rest[k]
    }
    dirty = rnd(2)
    owner = ov("ST_OWNER", rnd(2))
    define("ST_OWNER", owner)
    if (owner) {
        kmask = take_bits(2)
        omask = take_bits(2)
        define("ST_VAL_MASK", hex(kmask + omask, 2))
        define("ST_KIND_MASK", hex(kmask, 2))
        distinct_below(3, 4)
        define("ST_KIND_EMPTY", hex(sub_value(kmask, vals[0]), 2))
        define("ST_KIND_PIECE", hex(sub_value(kmask, vals[1]), 2))
        define("ST_KIND_BLOCKED", hex(sub_value(kmask, vals[2]), 2))
        define("ST_OWNER_MASK", hex(omask, 2))
        distinct_below(4, 4)
        for (k = 0; k < 4; k++) define("ST_OWNER_" k, hex(sub_value(omask, vals[k]), 2))
    } else {
        mask = take_bits(3 + rnd((phase ? 6 : 8) - 3 - dirty - 1))
        define("ST_VAL_MASK", hex(mask, 2))
        nb = 0
        for (k = 0; k < 8; k++) if (int(mask / 2 ^ k) % 2) nb++
        distinct_below(6, 2 ^ nb)
        for (k = 0; k < 6; k++) define("ST_CODE_" k, hex(sub_value(mask, vals[k]), 2))
    }
    flags = phase ? 3 * 2 ^ t : 0
    if (dirty && bit_at < (phase ? 6 : 8)) { define("ST_DIRTY", hex(b = take_bits(1), 2)); flags += b }
    else dirty = 0
    if (bit_at < (phase ? 6 : 8) && rnd(2)) { define("ST_HIGH", hex(b = take_bits(1), 2)); flags += b }
    # Cells start with no flag set; the border and the records' other bytes get any filler.
    st_fill = rnd(256)
    st_fill -= band(st_fill, flags)
    return dirty
}

# STORAGE 2: packed fields.
function draw_packed(    nbits, rowlen, k) {
    nbits = pick("3 4")
    rowlen = pick("7 8")
    define("ST_BITS", nbits)
    define("ST_ROWLEN", rowlen)
    define("ST_MSB", rnd(2))
    distinct_below(6, 2 ^ nbits)
    for (k = 0; k < 6; k++) define("ST_CODE_" k, vals[k])
    st_size = int((7 * rowlen * nbits + 7) / 8) + 1
    return 0
}

# STORAGE 3: bit planes; returns 1 when a dirty plane keeps the screen copy.
function draw_planes(    linear, bytes, n, k, t, b, order, stride, names, dirty) {
    linear = rnd(2)
    define("PL_LINEAR", linear)
    define("PL_REVERSE", rnd(2))
    if (!linear) define("PL_SHIFT", rnd(2))
    bytes = pick("7 7 8")
    dirty = rnd(2)
    split("PL_BASE_1 PL_BASE_2 PL_BASE_3 PL_BASE_4 PL_BASE_5", names, " ")
    n = 5
    if (dirty) names[++n] = "PL_DIRTY"
    if (rnd(2)) names[++n] = "PL_HIGH"
    if (rnd(2)) names[++n] = "PL_TURN"
    for (k = 1; k <= n; k++) order[k] = k
    for (k = n; k > 1; k--) { t = rnd(k) + 1; b = order[k]; order[k] = order[t]; order[t] = b }
    stride = rnd(2) ? n : 1
    define("PL_STRIDE", stride)
    for (k = 1; k <= n; k++)
        define(names[order[k]], stride == 1 ? (k - 1) * bytes : k - 1)
    st_size = n * bytes
    return dirty
}

# Buffers, the pointer and the screen copy, for STORAGE 1-3.
function place_storage(dirty,    bufs, k, v, seen) {
    bufs = ov("ST_BUFS", pick("1 1 2 2 3"))
    define("ST_BUFS", bufs)
    define("ST_FLIP", bufs > 1 ? rnd(2) : 0)
    define("ST_SIZE", st_size)
    # Planes start clear; other kinds' spare bits and bytes hold any filler.
    define("ST_FILL", hex(storage == 1 ? st_fill : storage == 2 ? rnd(256) : 0, 2))
    define("ST_ORIENT", rnd(8))
    define("ST_PTR", hex(192 + 2 * rnd(24), 2))
    for (k = 0; k < bufs; k++) any_block("ST_BUF" k, st_size + 1)
    any_block("LOGIC_BOARD", 121)
    define("SHOWN_FORM", dirty ? 1 : 2)
    if (!dirty) {
        any_block("SH_BASE", 25)
        define("SH_COLMAJOR", rnd(2))
        define("SH_HIGH_FIRST", rnd(2))
        distinct_below(16, 16)
        for (k = 0; k < 16; k++) define("SH_CODE_" k, vals[k])
    }
}

# The play screen's layout: cell size and gaps, the board's origin, panel and status line.
function draw_layout(    combo, wh, bw, bh, lo, aligned) {
    combo = pick("2,2,0 2,2,1 2,2,2 3,3,0 3,3,1 4,4,0 4,4,0 3,2,0 3,2,1 2,3,0 4,3,0 3,4,0 4,2,0 2,4,0 2,3,1")
    split(combo, wh, ",")
    cw = ov("CELL_W", wh[1]); ch = ov("CELL_H", wh[2]); gap = ov("CELL_GAP", wh[3])
    bw = 7 * cw + 6 * gap; bh = 7 * ch + 6 * gap
    if (cw < 2 || ch < 2 || cw > 4 || ch > 4 || bw > 28 || bh > 28) {
        print "wide.awk: cells of " cw " x " ch " tiles, " gap " apart, do not fit the screen" > "/dev/stderr"
        exit 2
    }
    panel_right = rnd(2)
    status_top = bh <= 26 ? rnd(2) : 0
    aligned = cw % 2 == 0 && ch % 2 == 0 && gap % 2 == 0
    lo = panel_right ? 0 : 4
    board_x = lo + rnd(28 - bw + 1)
    board_y = (status_top ? 2 : 0) + rnd(28 - bh + 1)
    pal_mode = aligned && rnd(4) != 0
    if (pal_mode) { board_x -= board_x % 2; board_y -= board_y % 2 }
    pal_mode = ov("PAL_MODE", pal_mode)
    define("CELL_W", cw); define("CELL_H", ch); define("CELL_GAP", gap)
    define("BOARD_X", board_x); define("BOARD_Y", board_y)
    define("PAL_MODE", pal_mode)
    define("PANEL_X", panel_right ? 28 : 0)
    define("PANEL_ROW0", pick("2 2 4"))
    define("TITLE_X", panel_right ? 28 : 0)
    define("TITLE_ROW", 0)
    define("STATUS_X", panel_right ? 0 : 4)
    define("STATUS_ROW", status_top ? 0 : 28)
    define("LAYOUT_X", panel_right ? 2 : 6)
    define("LAYOUT_ROW", status_top ? 1 : 29)
}

# The art's choices: frame, empty and blocked cells, the pieces, the hand and the marks.
function draw_looks(    shapes, k, t, b, pw, ph) {
    pw = cw * 8; ph = ch * 8
    frame_style = pick("bevel flat")
    empty_style = pick("plain dotted framed")
    blocked_style = pick("hatched solid cross")
    split("disc square diamond ring plus saltire", shapes, " ")
    for (k = 6; k > 1; k--) { t = rnd(k) + 1; b = shapes[k]; shapes[k] = shapes[t]; shapes[t] = b }
    shared = pal_mode && rnd(2)
    for (k = 1; k <= 4; k++) {
        design[k] = shared ? shapes[1] : shapes[k]
        fill[k] = pal_mode ? 3 : (k % 2 ? 3 : 2)
    }
    look_cursor = scrambled ? 0 : ov("LOOK_CURSOR", rnd(3) == 0)
    look_select = ov("LOOK_SELECT", rnd(3) == 0)
    # The classic SHOWN holds board codes: the plain looks only.
    if (storage == 0) look_cursor = look_select = 0
    hand_shape = pick("hand hand arrow frame dot bar")
    if (hand_shape == "hand") { hand_dx = int(pw / 2) - 6 + rnd(5) - 2; hand_dy = int(ph / 2) - 4 + rnd(5) - 2 }
    if (hand_shape == "arrow") { hand_dx = int(pw / 2) - 1 + rnd(5) - 2; hand_dy = int(ph / 2) - 1 + rnd(5) - 2 }
    if (hand_shape == "frame") hand_dx = board_x > 0 && board_y > 0 ? rnd(3) : 0
    if (hand_shape == "dot") { hand_dx = int(pw / 2) - 4 + rnd(3) - 1; hand_dy = int(ph / 2) - 4 + rnd(3) - 1 }
    if (hand_shape == "bar") hand_dy = (board_y + 7 * (ch + gap)) * 8 + 3 > 239 ? ph - 6 : ph - 3 + rnd(3)
    mark_shape = pick("corners corners brackets")
}

BEGIN {
    read_overrides(defs)
    seed_rng(seed)
    reserve_fixed()
    # CHECK_BOARD / CHECK_SHOWN's default place stays free (`-D CHECK=1` keeps it).
    for (i = 1936; i < 2035; i++) used[i] = 1
    print "; DOTS variant " seed " (drawn by wide.awk; build.sh --variant " seed ")"
    storage = ov("STORAGE", pick("0 1 1 1 2 2 3 3"))
    define("STORAGE", storage)
    if (storage == 0) {
        classic_cells()
        classic_board()
    } else {
        # Turn codes may borrow these (as the classic cells' codes).
        distinct(6, -1)
        for (k = 0; k < 6; k++) cell_vals[k] = vals[k]
        if (storage == 1) dirty = draw_bytes()
        else if (storage == 2) dirty = draw_packed()
        else dirty = draw_planes()
    }
    draw_cursor()
    draw_turns()
    draw_screens()
    if (storage == 0) {
        ram_block("BOARD11", 11 * 16)
        any_block("BOARD", pub_size)
        any_block("SHOWN", pub_size)
    } else {
        place_storage(dirty)
    }
    place_variables()
    draw_layout()
    draw_looks()
    # The art must fit 128 tiles: give up drawn looks, then variety, until it does.
    # (Looks fixed by -D stay; if nothing is left to give up the variant cannot be built.)
    while (draw_art() > 128) {
        if (look_select && !("LOOK_SELECT" in overrides)) look_select = 0
        else if (look_cursor && !("LOOK_CURSOR" in overrides)) look_cursor = 0
        else if (!shared && pal_mode) { shared = 1; for (k = 2; k <= 4; k++) design[k] = design[1] }
        else if (frame_style != "flat") frame_style = "flat"
        else if (empty_style != "plain" || blocked_style != "solid") { empty_style = "plain"; blocked_style = "solid" }
        else {
            print "wide.awk: the art needs " ntiles " tiles, more than 128" > "/dev/stderr"
            exit 2
        }
    }
    define("LOOK_CURSOR", look_cursor)
    define("LOOK_SELECT", look_select)
    define("ICON_STEP", pal_mode ? 0 : 4)
    define("BOARD_SURFACE", hex(pick("12 12 0 28 8 1 45 29") + 0, 2))
    define("CYCLE", rnd(3) == 0)
    define("WIDE_ART", 1)
    print "; art: frame " frame_style ", empty " empty_style ", blocked " blocked_style \
        ", pieces " design[1] " " design[2] " " design[3] " " design[4] ", hand " hand_shape \
        ", marks " mark_shape ", " ntiles " tiles"
    write_art()
    if (scrambled) define("CURSOR_SCRAMBLE", 1)
    if (check) place_check_shadows()
}
