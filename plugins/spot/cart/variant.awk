# Draws a variant of the DOTS cartridge from a seed: prints ca65 definitions (variant.inc)
# that move every game variable, recode the board cells and the turn, and reshape the board,
# the hand cursor and the start-up screens (see src/ram.inc for what each name means).
# The Spot player is meant to find all of this by itself; the harness reads this file.
#
# Usage: awk -v seed=N -f variant.awk > variant.inc
# The generator is its own Park-Miller generator (exact in awk's doubles), so a seed gives
# the same variant with any awk.

function rnd(n) {
    state = (state * 16807) % 2147483647
    return state % n
}
function pick(list,    n, a) {
    n = split(list, a, " ")
    return a[rnd(n) + 1]
}
function hex(v, digits) {
    return sprintf("$%0" digits "X", v)
}
function define(name, value) {
    printf "%-14s = %s\n", name, value
}

# Marks [a, a + size) as taken; fails (0) if any of it is taken or reserved.
function take(a, size,    i) {
    for (i = a; i < a + size; i++) if (used[i]) return 0
    for (i = a; i < a + size; i++) used[i] = 1
    return 1
}
# A free block of `size` bytes in [lo, hi]; draws until one fits (-1 if none does).
function try_place(size, lo, hi,    a, tries) {
    for (tries = 0; tries < 10000; tries++) {
        a = lo + rnd(hi - lo - size + 2)
        if (take(a, size)) return a
    }
    return -1
}
function place(size, lo, hi,    a) {
    a = try_place(size, lo, hi)
    if (a < 0) {
        print "variant.awk: no room for a block of " size " bytes" > "/dev/stderr"
        exit 1
    }
    return a
}
# One byte in zero page ($04-$42) or work RAM, for a variable named `name`.
function byte_var(name,    a) {
    if (rnd(5) < 2) a = place(1, 4, 66)
    else a = place(1, 768, 2047)
    define(name, hex(a, a < 256 ? 2 : 4))
}
function ram_block(name, size,    a) {
    a = place(size, 768, 2047)
    define(name, hex(a, 4))
}
# Work RAM or, one time in four, cartridge RAM ($6000-$7FFF); cartridge RAM too when work
# RAM has no room left.
function any_block(name, size,    a) {
    a = -1
    if (rnd(4) != 0) a = try_place(size, 768, 2047)
    if (a < 0) a = place(size, 24576, 32767)
    define(name, hex(a, 4))
}
# `count` distinct byte values into vals[0..count-1]; vals[0] is `first` if that is 0-255.
function distinct(count, first,    k, v, seen) {
    split("", seen)
    k = 0
    if (first >= 0) { vals[0] = first; seen[first] = 1; k = 1 }
    for (; k < count; k++) {
        do v = rnd(256); while (v in seen)
        seen[v] = 1
        vals[k] = v
    }
}

BEGIN {
    state = (seed % 2147483646) + 1
    for (i = 0; i < 8; i++) rnd(2)
    # Fixed parts of the cart: pads, its zero-page scratch, OAM, the VRAM and text buffers,
    # FLIP_CELLS and ATTR_SHADOW.
    for (i = 0; i < 4; i++) used[i] = 1
    for (i = 67; i < 256; i++) used[i] = 1
    for (i = 256; i < 768; i++) used[i] = 1
    for (i = 1216; i < 1296; i++) used[i] = 1
    for (i = 1664; i < 1792; i++) used[i] = 1
    for (i = 1824; i < 1856; i++) used[i] = 1

    print "; DOTS variant " seed " (drawn by variant.awk; build.sh --variant " seed ")"

    # Cell codes: empty, blocked, four players, and the padded boards' wall (sometimes the
    # blocked code).
    distinct(7, rnd(4) == 0 ? 0 : -1)
    define("CELL_EMPTY", hex(vals[0], 2))
    define("CELL_BLOCKED", hex(vals[1], 2))
    define("CELL_P1", hex(vals[2], 2))
    define("CELL_P2", hex(vals[3], 2))
    define("CELL_P3", hex(vals[4], 2))
    define("CELL_P4", hex(vals[5], 2))
    define("CELL_WALL", hex(rnd(2) ? vals[1] : vals[6], 2))

    # The public board: row stride, bytes per cell, a border, and one of the 8 orientations
    # (transposed, rows upside down, columns mirrored).
    pad = pick("0 0 1 2")
    step = rnd(4) == 0 ? 2 : 1
    span = (7 + 2 * pad) * step
    stride = span + pick("0 0 1 2 5 9")
    while ((7 + 2 * pad) * stride > 256) stride--
    define("BOARD_PAD", pad)
    define("BOARD_STEP", step)
    define("BOARD_STRIDE", stride)
    define("BOARD_ORIENT", rnd(8))
    pub_size = (7 + 2 * pad) * stride
    define("PAD_WIDTH", pick("11 12 13 14 16"))
    define("PAD_ORIENT", rnd(8))

    # The hand cursor: one byte (a cell index in some order) or an x/y pair of positions.
    pair = rnd(2)
    define("CURSOR_PAIR", pair)
    define("CURSOR_WRAP", rnd(10) < 3 ? 1 : 0)
    if (pair) {
        xs = pick("1 8 16 24 32"); ys = pick("1 8 16 24 32")
        define("X_STEP", xs); define("X_ORIGIN", hex(rnd(256 - 6 * xs), 2))
        define("Y_STEP", ys); define("Y_ORIGIN", hex(rnd(256 - 6 * ys), 2))
    } else {
        split(pick("7,1 8,1 16,1 1,7 1,8 1,16 -7,1 7,-1 11,1 -8,-1"), rc, ",")
        lo = 0; hi = 0
        if (rc[1] < 0) lo += 6 * rc[1]; else hi += 6 * rc[1]
        if (rc[2] < 0) lo += 6 * rc[2]; else hi += 6 * rc[2]
        define("CURSOR_ROW", rc[1]); define("CURSOR_COL", rc[2])
        define("CURSOR_ORIGIN", -lo + rnd(256 - (hi - lo)))
    }

    # The turn byte: slot numbers from 0 or 1, spaced flags, or the players' cell codes.
    style = rnd(4)
    if (style == 3) {
        for (k = 0; k < 4; k++) t[k] = vals[k + 2]
    } else {
        base = style == 0 ? 0 : style == 1 ? 1 : rnd(64)
        gap = style == 2 ? pick("1 2 4 16 64") : 1
        for (k = 0; k < 4; k++) t[k] = (base + k * gap) % 256
    }
    for (k = 0; k < 4; k++) define("TURN_" k, hex(t[k], 2))

    # Screens: mode values, animation values, and a start-up screen before the title.
    distinct(3, -1)
    define("MODE_PLAYFIELD", hex(vals[0], 2))
    define("MODE_TITLE", hex(vals[1], 2))
    define("MODE_SPLASH", hex(vals[2], 2))
    define("SPLASH", rnd(2))
    distinct(2, -1)
    define("ANIM_BUSY", hex(vals[0], 2))
    define("ANIM_IDLE", hex(vals[1], 2))

    # Addresses, big blocks first.
    ram_block("BOARD11", 11 * 16)
    any_block("BOARD", pub_size)
    any_block("SHOWN", pub_size)
    define("OWN_NEAR", hex(place(176, 24576, 32767), 4))
    define("OPP_NEAR", hex(place(176, 24576, 32767), 4))
    ram_block("DIAG", 11)
    split("SETTINGS TYPES COUNT_LOW COUNT_HIGH COUNTS", quads, " ")
    for (k = 1; k <= 5; k++) ram_block(quads[k], 4)
    ram_block("REELS", 3)
    if (pair) { byte_var("CURSOR_X"); byte_var("CURSOR_Y") } else byte_var("CURSOR")
    split("MODE HUMAN_PLAYING CURRENT SPOT_SHOWN ANIMATION SECRET BONUS_GAME PLAYING PRIZE_MODE selected me", ones, " ")
    for (k = 1; k <= 11; k++) byte_var(ones[k])
}
