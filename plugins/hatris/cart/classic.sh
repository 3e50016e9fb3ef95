# The classic variant family, sourced by build.sh --variant SEED --classic: every variable
# moved, piles as arrays of hat codes (console RAM, PRG RAM or nametable RAM), codes, column
# and height encodings, and some rule options. Uses build.sh's rnd, chance, set_var and
# alloc; sets every v_NAME and `names`. The draws keep their order, so a seed gives the
# same variant as before the wide space existed.

# Structure first, then overrides of structure, then addresses.
rnd 100
if [ "$r" -lt 35 ]; then set_var PILE_SPACE 0
elif [ "$r" -lt 75 ]; then set_var PILE_SPACE 1
else set_var PILE_SPACE 2; fi
if chance 50; then set_var ELEM_STRIDE 2; else set_var ELEM_STRIDE 1; fi
if chance 50; then set_var PILE_REVERSED 1; else set_var PILE_REVERSED 0; fi
rnd 33; pile_extra=$r
if chance 50; then set_var SWAP_TYPES 1; else set_var SWAP_TYPES 0; fi
if chance 50; then set_var Y_DOWN 1; else set_var Y_DOWN 0; fi
rnd 86; set_var Y_ORIGIN $(( 170 + r ))
if chance 50; then set_var COL_BASE 0; else rnd 100; set_var COL_BASE $(( 1 + r )); fi
if chance 30; then set_var NEST_B 1; else set_var NEST_B 0; fi
if chance 50; then set_var HEIGHT_MAX 128; else rnd 25; set_var HEIGHT_MAX $(( 112 + r )); fi
if chance 30; then set_var MENU 1; else set_var MENU 0; fi
if chance 25; then set_var HARD_DROP 1; else set_var HARD_DROP 0; fi
if chance 50; then set_var SPAWN_LEFT 2; else rnd 5; set_var SPAWN_LEFT "$r"; fi
set_var SCRAMBLE 0
set_var LATE_SPAWN 0
set_var CODE_1_LATE 200
rnd 8; set_var HAT_STRIDE $(( 5 + r ))
# Hat codes: 1-6 in order now and then (as the real game stores them), else six
# distinct bytes; "no hat" is 0 or another byte.
if chance 60; then set_var CODE_NONE 0; else rnd 255; set_var CODE_NONE $(( 1 + r )); fi
taken=" $v_CODE_NONE "
plain=0
if chance 20; then plain=1; fi
for t in 1 2 3 4 5 6; do
    case "$taken" in *" $t "*) fresh=0 ;; *) fresh=1 ;; esac
    if [ "$plain" -eq 1 ] && [ "$fresh" -eq 1 ]; then
        code=$t
    else
        while :; do
            rnd 255
            code=$(( 1 + r ))
            case "$taken" in *" $code "*) ;; *) break ;; esac
        done
    fi
    taken="$taken$code "
    set_var "CODE_$t" "$code"
done
# Hat fields: five distinct offsets within the record.
pick_offsets
for kv in $overrides; do set_var "${kv%%=*}" "${kv#*=}"; done

es=$v_ELEM_STRIDE
if [ "$es" -eq 2 ]; then base_stride=128; else base_stride=64; fi
case "$v_PILE_SPACE" in
    0) extra=$(( pile_extra % 9 )) ;;     # console RAM is tight
    2) if [ "$es" -eq 2 ]; then extra=$pile_extra; else extra=$(( pile_extra % 20 )); fi ;;
    *) extra=$pile_extra ;;
esac
set_var PILE_STRIDE $(( base_stride + extra ))
for kv in $overrides; do
    case "$kv" in PILE_STRIDE=*) set_var PILE_STRIDE "${kv#*=}" ;; esac
done
pile_block=$(( 5 * v_PILE_STRIDE + es * 64 ))

alloc BITMAPS 3072 24576 32768 256
pile_region
if [ "$es" -eq 2 ]; then
    # shellcheck disable=SC2086 # two numbers
    alloc HATS "$pile_block" $region
    set_var BASES $(( v_HATS + 1 ))
else
    # Both arrays in one place, in either order, so small regions do not fragment.
    # shellcheck disable=SC2086
    alloc PILES $(( 2 * pile_block )) $region
    if chance 50; then
        set_var HATS "$v_PILES"
        set_var BASES $(( v_PILES + pile_block ))
    else
        set_var BASES "$v_PILES"
        set_var HATS $(( v_PILES + pile_block ))
    fi
fi
case "$v_PILE_SPACE" in
    2) alloc COUNTS 6 9216 10240 ;;
    *) alloc_cpu COUNTS 6 ;;
esac
alloc_cpu TEXT_BUF 128
alloc_cpu HAT_BLOCK $(( 2 * v_HAT_STRIDE ))
alloc_cpu CASH 8
alloc_cpu POOL 8
alloc_cpu HEIGHTS 6
alloc_cpu SPAWNS 3
alloc_cpu FRAME_LO 2
alloc_cpu PROGRESS 2
alloc_bytes
for kv in $overrides; do set_var "${kv%%=*}" "${kv#*=}"; done

names="PILE_SPACE ELEM_STRIDE PILE_REVERSED PILE_STRIDE SWAP_TYPES Y_DOWN Y_ORIGIN COL_BASE
       NEST_B HEIGHT_MAX MENU HARD_DROP SPAWN_LEFT SCRAMBLE LATE_SPAWN CODE_1_LATE HAT_STRIDE CODE_NONE CODE_1 CODE_2 CODE_3 CODE_4
       CODE_5 CODE_6 OFF_TYPE OFF_COL OFF_Y OFF_X OFF_LANDED BITMAPS HATS BASES COUNTS
       TEXT_BUF HAT_BLOCK CASH POOL HEIGHTS SPAWNS FRAME_LO PROGRESS RNG_H1 RNG_H2
       CUTSCENE GAME_STATE PAD_HELD PAD_NEW SHOP STAGE STACKS_LEFT NOT_PLAYING NEXT1_TYPE
       NEXT2_TYPE FALL_SPEED FALL_ACC POOL_COUNT HELPER_ON CURSOR REMOVED CHOSEN"
