#!/bin/sh
# Rebuilds the Hatris-like demo cartridge with ca65/ld65 (Debian package cc65).
#
# Usage: build.sh [--variant SEED [--classic]] [--check] [--defines-only] [-D NAME=VALUE]...
#                 [OUTPUT.nes]
#   (default output: hatris-like.nes beside this script)
#
# --variant SEED draws from SEED (a decimal number) a variant of the cartridge from the wide
# space: the piles, the falling pair, the next pair and the helper pool kept in many storage
# shapes (wide.sh), and another picture (well position, column spacing, palette, hat
# drawings, panels). With --classic it draws from the older family instead: the address of
# every variable, piles as arrays of codes (console RAM, PRG RAM or nametable RAM; stride,
# order, interleaving), the byte codes of the hat types, how columns and heights are stored,
# what A swaps, how the nesting table is read, the height limit, whether Down drops all the
# way, where pairs appear, and whether a menu comes before the game. The wide space keeps
# the rules of the default cartridge. The drawn values go to OUTPUT.nes.defines.
# --check builds the self-check of the storage against a shadow (README.md, "Test port").
# --defines-only draws and writes OUTPUT.nes.defines without assembling.
# -D NAME=VALUE overrides one drawn value (e.g. -D PILE_SPACE=2).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=""
seed=""
overrides=""
classic=0
check=0
defines_only=0
while [ $# -gt 0 ]; do
    case "$1" in
        --variant)
            [ $# -ge 2 ] || { echo "build.sh: --variant needs a seed" >&2; exit 2; }
            seed=$2
            shift 2
            ;;
        -D)
            [ $# -ge 2 ] || { echo "build.sh: -D needs NAME=VALUE" >&2; exit 2; }
            case "$2" in
                [A-Z_]*=[0-9]*) overrides="$overrides $2" ;;
                *) echo "build.sh: -D $2: expected NAME=NUMBER" >&2; exit 2 ;;
            esac
            shift 2
            ;;
        --classic)
            classic=1
            shift
            ;;
        --check)
            check=1
            shift
            ;;
        --defines-only)
            defines_only=1
            shift
            ;;
        -h|--help)
            sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        -*)
            echo "build.sh: unknown option $1 (see --help)" >&2
            exit 2
            ;;
        *)
            out=$1
            shift
            ;;
    esac
done
out=${out:-"$here/hatris-like.nes"}
for tool in ca65 ld65; do
    command -v "$tool" >/dev/null 2>&1 || { echo "build.sh: $tool not found (apt-get install cc65)" >&2; exit 1; }
done

defines=""
if [ -n "$seed" ]; then
    case "$seed" in
        ''|*[!0-9]*) echo "build.sh: --variant $seed: the seed must be a decimal number" >&2; exit 2 ;;
    esac
    # Park-Miller generator: state in 1..2^31-2, every product fits in 64-bit shell arithmetic.
    M=2147483647
    state=7
    digits=$seed
    while [ -n "$digits" ]; do
        rest=${digits#?}
        d=${digits%"$rest"}
        state=$(( (state * 10 + d + 1) % M ))
        digits=$rest
    done
    [ "$state" -ne 0 ] || state=1
    # r := a number in 0 .. $1 - 1
    rnd() {
        state=$(( state * 48271 % M ))
        r=$(( state % $1 ))
    }
    # chance PERCENT: succeeds that often
    chance() {
        rnd 100
        [ "$r" -lt "$1" ]
    }
    set_var() { eval "v_$1=\$2"; }
    get_var() { eval "r=\$v_$1"; }

    # Address allocation: "lo hi" ranges already taken, per region.
    taken_ranges=""
    # alloc NAME SIZE REGION_LO REGION_HI_EXCLUSIVE [ALIGN]: stops the build if no room
    alloc() {
        alloc_in "$@" || { echo "build.sh: variant $seed: no room for $1 ($2 bytes)" >&2; exit 1; }
    }
    # alloc_first NAME SIZE REGION_LO REGION_HI_EXCLUSIVE: the lowest free place, or fails
    alloc_first() {
        at=$3
        while [ $(( at + $2 )) -le "$4" ]; do
            end=$(( at + $2 ))
            clash=0
            for range in $taken_ranges; do
                a=${range%-*}
                b=${range#*-}
                if [ "$at" -lt "$b" ] && [ "$a" -lt "$end" ]; then clash=1; at=$b; break; fi
            done
            if [ "$clash" -eq 0 ]; then
                taken_ranges="$taken_ranges $at-$end"
                set_var "$1" "$at"
                return 0
            fi
        done
        return 1
    }
    # alloc_in NAME SIZE REGION_LO REGION_HI_EXCLUSIVE [ALIGN]: fails if no room
    alloc_in() {
        size=$2
        lo=$3
        hi=$4
        align=${5:-1}
        span=$(( (hi - lo - size) / align + 1 ))
        [ "$span" -gt 0 ] || { echo "build.sh: variant $seed: $1 does not fit" >&2; exit 1; }
        tries=0
        while :; do
            tries=$(( tries + 1 ))
            if [ "$tries" -le 200 ]; then
                rnd "$span"
                at=$(( lo + r * align ))
            else
                # Random spots keep clashing: take the first free one.
                at=$(( lo + (tries - 201) * align ))
                if [ $(( at + size )) -gt "$hi" ]; then return 1; fi
            fi
            end=$(( at + size ))
            clash=0
            for range in $taken_ranges; do
                a=${range%-*}
                b=${range#*-}
                if [ "$at" -lt "$b" ] && [ "$a" -lt "$end" ]; then clash=1; break; fi
            done
            [ "$clash" -eq 1 ] || break
        done
        taken_ranges="$taken_ranges $at-$end"
        set_var "$1" "$at"
    }
    # pick_offsets: the falling hat record's five fields at distinct offsets in HAT_STRIDE.
    pick_offsets() {
        used_off=" "
        for f in TYPE COL Y X LANDED; do
            while :; do
                rnd "$v_HAT_STRIDE"
                case "$used_off" in *" $r "*) ;; *) break ;; esac
            done
            used_off="$used_off$r "
            set_var "OFF_$f" "$r"
        done
    }
    # pile_region: `region` := the address range of PILE_SPACE.
    pile_region() {
        case "$v_PILE_SPACE" in
            0) region="768 2048" ;;
            1) region="24576 32768" ;;
            *) region="9216 10240" ;;
        esac
    }
    # alloc_bytes: the one-byte game variables, each where alloc_cpu puts it.
    alloc_bytes() {
        for name in RNG_H1 RNG_H2 CUTSCENE GAME_STATE PAD_HELD PAD_NEW SHOP STAGE STACKS_LEFT \
                    NOT_PLAYING NEXT1_TYPE NEXT2_TYPE FALL_SPEED FALL_ACC POOL_COUNT HELPER_ON \
                    CURSOR REMOVED CHOSEN; do
            alloc_cpu "$name" 1
        done
    }
    # alloc_cpu NAME SIZE: console RAM ($0300-$07FF) mostly, PRG RAM otherwise
    alloc_cpu() {
        if chance 70; then alloc "$1" "$2" 768 2048; else alloc "$1" "$2" 24576 32768; fi
    }
    if [ "$classic" -eq 0 ]; then
        # shellcheck source=wide.sh
        . "$here/wide.sh"
    else
        # shellcheck source=classic.sh
        . "$here/classic.sh"
    fi
    if [ "$check" -eq 1 ]; then
        # The first free place, drawing nothing: with --check, a seed's variant is the same.
        if [ "$classic" -eq 1 ]; then
            alloc_first SHADOW 416 24576 32768 || alloc_first SHADOW 416 768 2048 ||
                { echo "build.sh: variant $seed: no room for the shadow" >&2; exit 1; }
        fi
        set_var CHECK 1
        names="$names CHECK SHADOW"
        for kv in $overrides; do set_var "${kv%%=*}" "${kv#*=}"; done
    fi
    : > "$out.defines"
    for name in $names; do
        get_var "$name"
        defines="$defines -D $name=$r"
        echo "$name=$r" >> "$out.defines"
    done
else
    [ "$classic" -eq 0 ] || { echo "build.sh: --classic needs --variant SEED" >&2; exit 2; }
    for kv in $overrides; do defines="$defines -D $kv"; done
    [ "$check" -eq 0 ] || defines="$defines -D CHECK=1"
fi

[ "$defines_only" -eq 0 ] || exit 0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2086 # $defines is a list of -D arguments
ca65 $defines -I "$here" -o "$work/hatris.o" "$here/hatris.s"
ld65 -C "$here/nes.cfg" -o "$work/hatris-like.nes" "$work/hatris.o"
mv "$work/hatris-like.nes" "$out"
