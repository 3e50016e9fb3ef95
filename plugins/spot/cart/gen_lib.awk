# Shared by the variant generators (variant.awk: the classic family; wide.awk: the wide
# space): a Park-Miller generator (exact in awk's doubles, so a seed draws the same variant
# with any awk), ca65 definitions, and placing blocks in the cart's RAM.

# Starts the generator from a seed.
function seed_rng(seed,    i) {
    state = (seed % 2147483646) + 1
    for (i = 0; i < 8; i++) rnd(2)
}
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
# Prints NAME = VALUE, or the value `-D NAME=VALUE` gave (overrides["NAME"]).
function define(name, value) {
    if (name in overrides) value = overrides[name]
    printf "%-14s = %s\n", name, value
    defined[name] = value
}
# A drawn number, unless `-D NAME=VALUE` fixed it: for choices others depend on.
function ov(name, drawn) {
    return (name in overrides) ? overrides[name] + 0 : drawn
}
# Reads "NAME=VALUE NAME=VALUE" (build.sh -D) into overrides.
function read_overrides(text,    n, a, i, kv) {
    n = split(text, a, " ")
    for (i = 1; i <= n; i++) {
        split(a[i], kv, "=")
        overrides[kv[1]] = kv[2]
    }
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


# Fixed parts of the cart: pads, its zero-page scratch, OAM, the VRAM and text buffers,
# FLIP_CELLS and ATTR_SHADOW.
function reserve_fixed(    i) {
    for (i = 0; i < 4; i++) used[i] = 1
    for (i = 67; i < 256; i++) used[i] = 1
    for (i = 256; i < 768; i++) used[i] = 1
    for (i = 1216; i < 1296; i++) used[i] = 1
    for (i = 1664; i < 1792; i++) used[i] = 1
    for (i = 1824; i < 1856; i++) used[i] = 1
}

# CHECK builds: the plain shadows of the board and of the looks drawn, placed last so the
# rest of a variant is the same with and without them.
function place_check_shadows() {
    define("CHECK", 1)
    define("CHECK_BOARD", hex(place(49, 24576, 32767), 4))
    define("CHECK_SHOWN", hex(place(49, 24576, 32767), 4))
}

# The classic cell codes: empty, blocked, four players, and the padded boards' wall
# (sometimes the blocked code). cell_vals[2..5] are the players' codes.
function classic_cells(    k) {
    distinct(7, rnd(4) == 0 ? 0 : -1)
    for (k = 0; k < 7; k++) cell_vals[k] = vals[k]
    define("CELL_EMPTY", hex(vals[0], 2))
    define("CELL_BLOCKED", hex(vals[1], 2))
    define("CELL_P1", hex(vals[2], 2))
    define("CELL_P2", hex(vals[3], 2))
    define("CELL_P3", hex(vals[4], 2))
    define("CELL_P4", hex(vals[5], 2))
    define("CELL_WALL", hex(rnd(2) ? vals[1] : vals[6], 2))
}

# The classic public board: row stride, bytes per cell, a border, and one of the 8
# orientations (transposed, rows upside down, columns mirrored); the padded board's width
# and orientation. Sets pub_size.
function classic_board(    pad, step, span, stride) {
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
}

# The hand cursor: one byte (a cell index in some order) or an x/y pair of positions.
# Sets cursor_pair.
function draw_cursor(    xs, ys, rc, lo, hi) {
    cursor_pair = rnd(2)
    define("CURSOR_PAIR", cursor_pair)
    define("CURSOR_WRAP", rnd(10) < 3 ? 1 : 0)
    if (cursor_pair) {
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
}

# The turn byte: slot numbers from 0 or 1, spaced flags, or the players' cell codes.
function draw_turns(    style, base, gap, k, t) {
    style = rnd(4)
    if (style == 3) {
        for (k = 0; k < 4; k++) t[k] = cell_vals[k + 2]
    } else {
        base = style == 0 ? 0 : style == 1 ? 1 : rnd(64)
        gap = style == 2 ? pick("1 2 4 16 64") : 1
        for (k = 0; k < 4; k++) t[k] = (base + k * gap) % 256
    }
    for (k = 0; k < 4; k++) define("TURN_" k, hex(t[k], 2))
}

# Screens: mode values, animation values, and a start-up screen before the title.
function draw_screens() {
    distinct(3, -1)
    define("MODE_PLAYFIELD", hex(vals[0], 2))
    define("MODE_TITLE", hex(vals[1], 2))
    define("MODE_SPLASH", hex(vals[2], 2))
    define("SPLASH", rnd(2))
    distinct(2, -1)
    define("ANIM_BUSY", hex(vals[0], 2))
    define("ANIM_IDLE", hex(vals[1], 2))
}

# The computer's tables, the diagnostics and every one-byte variable.
function place_variables(    quads, ones, k) {
    define("OWN_NEAR", hex(place(176, 24576, 32767), 4))
    define("OPP_NEAR", hex(place(176, 24576, 32767), 4))
    ram_block("DIAG", 11)
    split("SETTINGS TYPES COUNT_LOW COUNT_HIGH COUNTS", quads, " ")
    for (k = 1; k <= 5; k++) ram_block(quads[k], 4)
    ram_block("REELS", 3)
    if (cursor_pair) { byte_var("CURSOR_X"); byte_var("CURSOR_Y") } else byte_var("CURSOR")
    split("MODE HUMAN_PLAYING CURRENT SPOT_SHOWN ANIMATION SECRET BONUS_GAME PLAYING PRIZE_MODE selected me", ones, " ")
    for (k = 1; k <= 11; k++) byte_var(ones[k])
}
