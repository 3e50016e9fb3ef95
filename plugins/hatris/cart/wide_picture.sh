# The wide space's picture (layout.inc), sourced by wide.sh: the well's place and column
# spacing, the fine scroll, where the status line, the help text and the panel (next pair,
# helper pool, progress bars) go, whether the next pair and the pool are sprites or
# background, the palette, the hat drawings and whether a stack flashes before it vanishes.
# Sets `picture_names`.

rnd 4
case "$r" in 0) step=2 ;; 3) step=4 ;; *) step=3 ;; esac
set_var COL_STEP "$step"
ww=$(( 5 * step + 4 ))                  # the well with its two walls, in tiles
rnd 3; set_var WELL_TOP $(( 9 + r ))
set_var SCROLL_Y 0
if chance 50; then rnd 7; set_var SCROLL_Y $(( 1 + r )); fi
# The pair spawns 169 px above the heads: keep its top on screen.
if [ "$v_WELL_TOP" -eq 9 ] && [ "$v_SCROLL_Y" -gt 6 ]; then set_var SCROLL_Y 6; fi
set_var SCROLL_X 0
# Scrolled right, the picture's last pixels come from the second nametable: only when
# nothing is kept there.
if [ "$v_PILE_SPACE" -ne 2 ] && [ "$v_BRIM_VRAM" -eq 0 ] && chance 50; then
    rnd 7; set_var SCROLL_X $(( 1 + r ))
fi
set_var STATUS_ROW 1
if [ "$v_WELL_TOP" -lt 11 ] && chance 50; then set_var STATUS_ROW 28; fi
rnd 3; set_var STATUS_COL "$r"

# Side blocks, 6 tiles wide: the panel and the help text, one each side of the well or both
# on one side (stacked). A narrow well's messages stick out: keep 2 tiles clear there.
gmin=0
if [ "$step" -eq 2 ]; then gmin=2; fi
if [ "$step" -le 3 ] && chance 60; then
    free=$(( 32 - ww - 12 - 2 * gmin ))
    rnd $(( free + 1 )); m=$r
    rnd $(( free - m + 1 )); g1=$(( gmin + r ))
    rnd $(( free - m - (g1 - gmin) + 1 )); g2=$(( gmin + r ))
    left_block=$m
    wall_left=$(( m + 6 + g1 ))
    right_block=$(( wall_left + ww + g2 ))
    if chance 50; then panel=$left_block; info=$right_block
    else panel=$right_block; info=$left_block; fi
    panel_col=$panel
    info_col=$info
    rnd 9; panel_row=$(( 2 + r ))
    rnd 17; info_row=$(( 2 + r ))
else
    free=$(( 32 - ww - 6 - gmin ))
    rnd $(( free + 1 )); m=$r
    rnd $(( free - m + 1 )); g=$(( gmin + r ))
    if chance 50; then
        wall_left=$m
        panel_col=$(( m + ww + g ))
    else
        panel_col=$m
        wall_left=$(( m + 6 + g ))
    fi
    info_col=$panel_col
    if chance 50; then
        rnd 7; panel_row=$(( 2 + r ))
        rnd $(( 27 - 5 - panel_row - 14 + 1 )); info_row=$(( panel_row + 14 + r ))
    else
        rnd 7; info_row=$(( 2 + r ))
        rnd $(( 27 - 12 - info_row - 7 + 1 )); panel_row=$(( info_row + 7 + r ))
    fi
fi
set_var COL0 $(( wall_left + 1 ))
set_var NEXT_ROW "$panel_row"
set_var NEXT_COL "$panel_col"
set_var POOL_ROW $(( panel_row + 6 ))
set_var POOL_COL "$panel_col"
set_var INFO_ROW "$info_row"
set_var INFO_COL "$info_col"
mid=$(( v_COL0 + (5 * step + 2) / 2 - 8 ))
if [ "$mid" -lt 0 ]; then mid=0; fi
if [ "$mid" -gt 16 ]; then mid=16; fi
set_var MSG_COL "$mid"
# The walls reach up to the top, or start just above the pictures (always when the
# messages are wider than the well).
set_var WALL_TOP 2
if [ "$step" -eq 2 ] || chance 50; then set_var WALL_TOP $(( v_WELL_TOP - 1 )); fi

# The next pair: sprites (at the panel, a few pixels off the tile grid now and then) or
# background tiles; the pool: letters or sprite icons.
set_var NEXT_BG 0
if chance 40; then set_var NEXT_BG 1; fi
set_var NEXT_TROW $(( panel_row + 1 ))
set_var NEXT_TCOL "$panel_col"
rnd 5; nx=$(( panel_col * 8 - v_SCROLL_X + r ))
if [ "$nx" -lt 0 ]; then nx=0; fi
set_var NEXT_X "$nx"
set_var NEXT_Y $(( (panel_row + 1) * 8 - 1 - v_SCROLL_Y ))
set_var POOL_SPR 0
if chance 40; then set_var POOL_SPR 1; fi

# Colours: a dark background with bright hats, or a light one with dark hats.
if chance 80; then
    bgs="15 15 1 2 12 7 8 45"
    inks="48 22 40 17 26 33 39 42 36 56 20 25 41 44 54 60 32 38 18 23"
else
    bgs="48 60 56 61"
    inks="15 1 6 9 12 22 18 26 23 7 2 5 8 11"
fi
pick_word() {
    n=0; for w in $1; do n=$(( n + 1 )); done
    rnd "$n"
    n=0; for w in $1; do [ "$n" -ne "$r" ] || word=$w; n=$(( n + 1 )); done
}
pick_word "$bgs"; set_var PAL_BG "$word"
for c in 1 2 3; do
    while :; do
        pick_word "$inks"
        clash=0
        for d in 1 2 3; do
            [ "$d" -lt "$c" ] || continue
            get_var "PAL_$d"
            if [ "$r" -eq "$word" ]; then clash=1; fi
        done
        [ "$clash" -eq 1 ] || break
    done
    set_var "PAL_$c" "$word"
done
set_var PAL_CYCLE 0
if chance 30; then set_var PAL_CYCLE 1; fi
# A stack of five flashes for a while before it vanishes.
set_var FLASH 0
if chance 35; then rnd 3; set_var FLASH $(( 24 + 8 * r )); fi
set_var ART_FLIP 0
if chance 50; then set_var ART_FLIP 1; fi
rnd 6; set_var ART_PERM "$r"

picture_names="COL_STEP COL0 WELL_TOP WALL_TOP SCROLL_X SCROLL_Y STATUS_ROW STATUS_COL
               MSG_COL INFO_ROW INFO_COL NEXT_ROW NEXT_COL POOL_ROW POOL_COL NEXT_BG NEXT_X
               NEXT_Y NEXT_TROW NEXT_TCOL POOL_SPR PAL_BG PAL_1 PAL_2 PAL_3 PAL_CYCLE FLASH
               ART_SET ART_FLIP ART_PERM"
