# Draws a variant of the DOTS cartridge in the classic family from a seed: prints ca65
# definitions (variant.inc) that move every game variable, recode the board cells and the
# turn, and reshape the board (BOARD, BOARD11, SHOWN: one byte per cell, any stride, border
# and orientation), the hand cursor and the start-up screens (see src/ram.inc for what each
# name means). The picture and everything else stay the plain cart's. The Spot player is
# meant to find all of this by itself; the harness reads this file.
#
# Usage: awk -v seed=N [-v scrambled=1] [-v check=1] [-v defs="NAME=VALUE ..."] \
#            -f gen_lib.awk -f variant.awk > variant.inc

BEGIN {
    read_overrides(defs)
    seed_rng(seed)
    reserve_fixed()
    print "; DOTS variant " seed " (drawn by variant.awk; build.sh --variant " seed " --classic)"
    classic_cells()
    classic_board()
    draw_cursor()
    draw_turns()
    draw_screens()
    # Addresses, big blocks first.
    ram_block("BOARD11", 11 * 16)
    any_block("BOARD", pub_size)
    any_block("SHOWN", pub_size)
    place_variables()
    if (scrambled) define("CURSOR_SCRAMBLE", 1)
    if (check) place_check_shadows()
}
