# The wide variant space, sourced by build.sh --variant SEED: the piles, the falling pair,
# the next pair and the helper pool in any of the shapes wide.inc names, at drawn addresses,
# and a drawn picture (layout.inc). The rules stay the default cartridge's. Uses build.sh's
# rnd, chance, set_var, get_var and alloc; sets every v_NAME and `names`.

# pick_distinct NAME COUNT LO SPAN MASK TAKEN: COUNT values in LO..LO+SPAN-1 with no bit of
# MASK, none in the list TAKEN; sets NAME_1.. and returns the list in `taken`.
pick_distinct() {
    taken=" $6 "
    i=1
    while [ "$i" -le "$2" ]; do
        while :; do
            rnd "$4"
            v=$(( $3 + r ))
            [ $(( v & $5 )) -eq 0 ] || continue
            case "$taken" in *" $v "*) ;; *) break ;; esac
        done
        taken="$taken$v "
        set_var "$1_$i" "$v"
        i=$(( i + 1 ))
    done
}

# alloc_cpu NAME SIZE: console RAM ($0300-$07FF) mostly, PRG RAM otherwise; either, if the
# first has no room left.
alloc_cpu() {
    if chance 70; then
        alloc_in "$1" "$2" 768 2048 || alloc "$1" "$2" 24576 32768
    else
        alloc_in "$1" "$2" 24576 32768 || alloc "$1" "$2" 768 2048
    fi
}

# ---- piles --------------------------------------------------------------------------------
rnd 100
if [ "$r" -lt 35 ]; then set_var PILE_SPACE 0
elif [ "$r" -lt 80 ]; then set_var PILE_SPACE 1
else set_var PILE_SPACE 2; fi
if chance 30; then set_var CELL 1; else set_var CELL 0; fi
set_var NIB_HI_FIRST 0
if chance 50; then set_var NIB_HI_FIRST 1; fi
set_var ELEM_STRIDE 1
if [ "$v_CELL" -eq 0 ] && chance 40; then set_var ELEM_STRIDE 2; fi
set_var PILE_REVERSED 0
if chance 50; then set_var PILE_REVERSED 1; fi
rnd 100
if [ "$r" -lt 35 ]; then set_var COUNT_KIND 0
elif [ "$r" -lt 50 ]; then set_var COUNT_KIND 1
elif [ "$r" -lt 75 ]; then set_var COUNT_KIND 2
else set_var COUNT_KIND 3; fi
if [ "$v_COUNT_KIND" -eq 1 ] && [ "$v_CELL" -eq 1 ]; then set_var COUNT_KIND 0; fi
rnd 140; set_var COUNT_CAP $(( 60 + r ))
set_var COUNT_HDR 0
if [ "$v_COUNT_KIND" -ne 2 ] && chance 40; then set_var COUNT_HDR 1; fi
for kv in $overrides; do set_var "${kv%%=*}" "${kv#*=}"; done
# Hat codes in the piles: drawn, or the hat's picture (sprite tile or art row) for bytes.
set_var ART_SET 0
if chance 50; then set_var ART_SET 1; fi
set_var HAT_ENC 0
if [ "$v_CELL" -eq 1 ]; then
    cell_max=16
else
    cell_max=256
    rnd 100
    if [ "$r" -lt 25 ]; then set_var HAT_ENC 1
    elif [ "$r" -lt 50 ]; then set_var HAT_ENC 2; fi
fi
flag_bit=0
case "$v_HAT_ENC" in
    1) t=1; for tile in 0 6 12 18 24 30; do set_var "CODE_$t" "$tile"; t=$(( t + 1 )); done ;;
    2) t=1
       for row in 0 20 44 60 72 80; do
           set_var "CODE_$t" $(( row + 104 * v_ART_SET )); t=$(( t + 1 ))
       done ;;
    *) if chance 35; then
           if [ "$v_CELL" -eq 1 ]; then
               rnd 2; flag_bit=$(( r * 7 + 1 ))     # 1 or 8
           else
               rnd 4; flag_bit=$(( 1 << (r * 2 + 1) ))  # 2, 8, 32 or 128
           fi
       fi
       pick_distinct CODE 6 1 $(( cell_max - 1 )) "$flag_bit" "" ;;
esac
codes_or=0
for t in 1 2 3 4 5 6; do get_var "CODE_$t"; codes_or=$(( codes_or | r )); done
# "No hat": a value no code uses (the end marker of COUNT_KIND 2).
while :; do
    rnd "$cell_max"
    v=$r
    [ $(( v & flag_bit )) -eq 0 ] || continue
    clash=0
    for t in 1 2 3 4 5 6; do
        get_var "CODE_$t"
        if [ "$r" -eq "$v" ]; then clash=1; fi
    done
    [ "$clash" -eq 1 ] || break
done
set_var CODE_NONE "$v"
# A flag bit beside picture codes: one no code (nor "no hat") uses.
if [ "$v_HAT_ENC" -ne 0 ] && chance 35; then
    for b in 128 64 32 16 8 4 2 1; do
        if [ $(( (codes_or | v_CODE_NONE) & b )) -eq 0 ]; then flag_bit=$b; break; fi
    done
fi
set_var FLAG_BIT "$flag_bit"
set_var FLAG_KIND 0
if [ "$flag_bit" -ne 0 ]; then rnd 2; set_var FLAG_KIND $(( 1 + r )); fi
# Buffers: fixed, or behind pointers that stay, move after removals, or double-buffer.
set_var PILE_ADDR 0
set_var PILE_MOVE 0
set_var SWAP_PTRS 0
set_var PTR_SPLIT 0
if chance 50; then
    set_var PILE_ADDR 1
    rnd 3; set_var PILE_MOVE "$r"
    if chance 50; then set_var SWAP_PTRS 1; fi
    if chance 50; then set_var PTR_SPLIT 1; fi
fi
# Overrides of the structure take effect before sizes are worked out from it.
for kv in $overrides; do set_var "${kv%%=*}" "${kv#*=}"; done
case "$v_PILE_MOVE" in 1) nbuf=7 ;; 2) nbuf=12 ;; *) nbuf=6 ;; esac
# The buffers' starting order: a shuffle.
remaining=""
k=0
while [ "$k" -lt "$nbuf" ]; do remaining="$remaining $k"; k=$(( k + 1 )); done
k=0
while [ "$k" -lt "$nbuf" ]; do
    rnd $(( nbuf - k ))
    n=0
    rest=""
    for b in $remaining; do
        if [ "$n" -eq "$r" ]; then set_var "PERM_$k" "$b"; else rest="$rest $b"; fi
        n=$(( n + 1 ))
    done
    remaining=$rest
    k=$(( k + 1 ))
done
if [ "$v_CELL" -eq 1 ]; then pile_bytes=$(( v_COUNT_HDR + 32 ))
else pile_bytes=$(( v_COUNT_HDR + 64 * v_ELEM_STRIDE )); fi
rnd 24; set_var PILE_STRIDE $(( pile_bytes + r ))
for kv in $overrides; do set_var "${kv%%=*}" "${kv#*=}"; done
pile_block=$(( nbuf * v_PILE_STRIDE ))
brim_block=0
if [ "$v_ELEM_STRIDE" -eq 1 ]; then brim_block=384; fi
# Nametable RAM holds 1 KiB: whatever does not fit goes to PRG RAM.
set_var BRIM_VRAM 0
if [ "$v_PILE_SPACE" -eq 2 ]; then
    need=$(( pile_block + 6 ))
    if [ "$need" -gt 1024 ]; then
        set_var PILE_SPACE 1
    elif [ "$brim_block" -gt 0 ] && [ $(( need + brim_block )) -le 1024 ] && chance 50; then
        set_var BRIM_VRAM 1
    fi
fi
if [ "$v_PILE_SPACE" -eq 0 ] && [ "$pile_block" -gt 700 ]; then set_var PILE_SPACE 1; fi
# Brims beside their types live where the types do.
if [ "$v_ELEM_STRIDE" -eq 2 ] && [ "$v_PILE_SPACE" -eq 2 ]; then set_var BRIM_VRAM 1; fi
set_var BRIM_STRIDE 64
# One block: the pile pictures, the two pages of the next pair when it is drawn in the
# background, and the check build's shadow (kept free in every build, so that --check
# builds the same variant).
alloc BITMAPS 4000 24576 32768 256
set_var PREVIEW $(( v_BITMAPS + 3072 ))
set_var SHADOW $(( v_BITMAPS + 3584 ))
pile_region
if [ "$v_ELEM_STRIDE" -eq 2 ]; then
    # shellcheck disable=SC2086 # two numbers
    alloc HATS "$pile_block" $region
    set_var BASES $(( v_HATS + 1 ))
elif [ "$v_BRIM_VRAM" -eq 1 ]; then
    # One block for both in the small nametable RAM.
    alloc HATS $(( pile_block + brim_block )) 9216 10240
    set_var BASES $(( v_HATS + pile_block ))
else
    # shellcheck disable=SC2086
    alloc HATS "$pile_block" $region
    if [ "$v_PILE_SPACE" -eq 0 ] || chance 60; then
        alloc BASES "$brim_block" 24576 32768
    else
        alloc BASES "$brim_block" 768 2048
    fi
fi
if [ "$v_PILE_SPACE" -eq 2 ]; then alloc COUNTS 6 9216 10240; else alloc_cpu COUNTS 6; fi
alloc_cpu PTRS 12
alloc_cpu SPARE 2
alloc_cpu BACKS 12

# ---- the falling pair, the next pair, the pool -------------------------------------------
rnd 100
if [ "$r" -lt 40 ]; then set_var PAIR_KIND 0
elif [ "$r" -lt 70 ]; then set_var PAIR_KIND 1
else set_var PAIR_KIND 2; fi
set_var NEXT_KIND 0
if chance 30; then set_var NEXT_KIND 1; fi
set_var PK_TYPE_HI 0
if chance 50; then set_var PK_TYPE_HI 1; fi
set_var SWAP_TYPES 0
if chance 50; then set_var SWAP_TYPES 1; fi
rnd 8; set_var HAT_STRIDE $(( 5 + r ))
pick_offsets
set_var COL_KIND 0
set_var COL_BASE 0
if [ "$v_PAIR_KIND" -ne 2 ]; then
    if chance 35; then set_var COL_KIND 1
    elif chance 50; then rnd 100; set_var COL_BASE $(( 1 + r )); fi
fi
# The falling and next hats' codes: nibbles where either is packed, else the piles' own or
# drawn bytes.
ncode_max=256
if [ "$v_PAIR_KIND" -eq 2 ]; then ncode_max=16; fi
if [ "$v_NEXT_KIND" -eq 1 ]; then ncode_max=16; fi
fits=1
for t in NONE 1 2 3 4 5 6; do get_var "CODE_$t"; [ "$r" -lt "$ncode_max" ] || fits=0; done
if [ "$fits" -eq 1 ] && chance 40; then
    for t in NONE 1 2 3 4 5 6; do get_var "CODE_$t"; set_var "NCODE_$t" "$r"; done
else
    rnd "$ncode_max"; set_var NCODE_NONE "$r"
    pick_distinct NCODE 6 0 "$ncode_max" 0 "$v_NCODE_NONE"
fi
rnd 4; set_var POOL_KIND "$r"
rnd 3
case "$r" in
    0) set_var POOL_CODE_A 1; set_var POOL_CODE_V 2 ;;
    1) set_var POOL_CODE_A 11; set_var POOL_CODE_V 32 ;;   # the font's A and V
    *) pick_distinct POOLC 2 1 255 0 ""
       set_var POOL_CODE_A "$v_POOLC_1"; set_var POOL_CODE_V "$v_POOLC_2" ;;
esac
for kv in $overrides; do set_var "${kv%%=*}" "${kv#*=}"; done
alloc_cpu HAT_BLOCK $(( 2 * v_HAT_STRIDE ))
for f in TYPE COL Y X LANDED; do alloc_cpu "AR_$f" 2; done
alloc_cpu PK_TC 2
alloc_cpu PK_Y 2
alloc_cpu TEXT_BUF 128
alloc_cpu CASH 8
alloc_cpu POOL 9
alloc_cpu HEIGHTS 6
alloc_cpu SPAWNS 3
alloc_cpu FRAME_LO 2
alloc_cpu PROGRESS 2
alloc_bytes

# ---- the picture ----------------------------------------------------------------------------
. "$here/wide_picture.sh"
for kv in $overrides; do set_var "${kv%%=*}" "${kv#*=}"; done
# Heights stored downwards from a drawn origin, or as the screen line of the hat's bottom.
set_var Y_DOWN 0
set_var Y_ORIGIN 255
if chance 50; then
    set_var Y_DOWN 1
    if chance 50; then rnd 86; set_var Y_ORIGIN $(( 170 + r ))
    else set_var Y_ORIGIN $(( (v_WELL_TOP + 16) * 8 - 1 - v_SCROLL_Y )); fi
fi
for kv in $overrides; do set_var "${kv%%=*}" "${kv#*=}"; done

names="PILE_SPACE CELL NIB_HI_FIRST ELEM_STRIDE PILE_REVERSED COUNT_KIND COUNT_CAP COUNT_HDR
       HAT_ENC CODE_NONE CODE_1 CODE_2 CODE_3 CODE_4 CODE_5 CODE_6 FLAG_BIT FLAG_KIND
       PILE_ADDR PILE_MOVE SWAP_PTRS PTR_SPLIT PILE_STRIDE BRIM_STRIDE BRIM_VRAM
       BITMAPS HATS BASES COUNTS PTRS SPARE BACKS
       PAIR_KIND NEXT_KIND PK_TYPE_HI SWAP_TYPES HAT_STRIDE OFF_TYPE OFF_COL OFF_Y OFF_X
       OFF_LANDED COL_KIND COL_BASE Y_DOWN Y_ORIGIN NCODE_NONE NCODE_1 NCODE_2 NCODE_3 NCODE_4
       NCODE_5 NCODE_6 POOL_KIND POOL_CODE_A POOL_CODE_V HAT_BLOCK AR_TYPE AR_COL AR_Y AR_X
       AR_LANDED PK_TC PK_Y TEXT_BUF CASH POOL HEIGHTS SPAWNS FRAME_LO PROGRESS RNG_H1
       RNG_H2 CUTSCENE GAME_STATE PAD_HELD PAD_NEW SHOP STAGE STACKS_LEFT NOT_PLAYING
       NEXT1_TYPE NEXT2_TYPE FALL_SPEED FALL_ACC POOL_COUNT HELPER_ON CURSOR REMOVED CHOSEN
       $picture_names"
k=0
while [ "$k" -lt "$nbuf" ]; do names="$names PERM_$k"; k=$(( k + 1 )); done
if [ "$v_NEXT_BG" -eq 1 ]; then names="$names PREVIEW"; fi
