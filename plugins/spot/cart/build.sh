#!/bin/sh
# Rebuilds the DOTS cartridge image from its sources with ca65/ld65 (Debian: cc65).
# Usage: build.sh [OPTIONS] [OUTPUT]      (default OUTPUT: dots.nes beside this script)
#   --variant SEED        a variant drawn from SEED (0-4294967295) in the wide space
#                         (wide.awk: the board's storage and the play screen's picture vary
#                         as well as the variables' places and codes); the drawn definitions
#                         are written to OUTPUT.inc and its art to OUTPUT.art.inc
#   --classic             with --variant: the classic family only (variant.awk: one byte per
#                         cell in BOARD, BOARD11 and SHOWN, the plain picture), which a Spot
#                         RAM map can describe
#   --scrambled-cursor    with --variant: also hide the hand and code the cursor in no
#                         row/column order (a variant calibration cannot explain, for tests)
#   --check               a test build: a plain shadow of the board checks the storage after
#                         every change (a mismatch is reported on the test port, $5000)
#   -D NAME=VALUE         fix one definition (with --variant: instead of drawing it, e.g.
#                         -D STORAGE=2; without: e.g. -D CHECK=1). Test switches:
#                         -D LATE_MOVE=N -D CELL_P1_LATE=C (classic storage): from the Nth
#                         move of a game, slot 1's pieces are stored as code C, unseen before
#   --draw-only           with --variant: write OUTPUT.inc (and OUTPUT.art.inc) but do not
#                         assemble (needs awk only)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
seed=
classic=
scramble=
check=
draw_only=
defs=
out=
while [ $# -gt 0 ]; do
    case $1 in
        --variant)
            [ $# -ge 2 ] || { echo "build.sh: --variant needs a seed" >&2; exit 2; }
            seed=$2
            case $seed in
                ''|*[!0-9]*) echo "build.sh: variant seed '$seed' is not a number" >&2; exit 2 ;;
            esac
            [ ${#seed} -le 10 ] && [ "$seed" -le 4294967295 ] ||
                { echo "build.sh: variant seed '$seed' is too large" >&2; exit 2; }
            shift 2 ;;
        --classic) classic=1; shift ;;
        --scrambled-cursor) scramble=1; shift ;;
        --check) check=1; shift ;;
        --draw-only) draw_only=1; shift ;;
        -D)
            [ $# -ge 2 ] || { echo "build.sh: -D needs NAME=VALUE" >&2; exit 2; }
            case $2 in
                [A-Z_]*=[0-9]*|[A-Z_]*=\$[0-9A-Fa-f]*) defs="$defs $2" ;;
                *) echo "build.sh: -D $2: expected NAME=NUMBER" >&2; exit 2 ;;
            esac
            shift 2 ;;
        -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "build.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *)
            [ -z "$out" ] || { echo "build.sh: more than one OUTPUT ($out, $1)" >&2; exit 2; }
            out=$1; shift ;;
    esac
done
if [ -z "$seed" ] && { [ -n "$classic" ] || [ -n "$scramble" ] || [ -n "$draw_only" ]; }; then
    echo "build.sh: --classic, --scrambled-cursor and --draw-only need --variant SEED" >&2
    exit 2
fi
if [ -n "$seed" ] && [ -z "$out" ]; then
    echo "build.sh: --variant SEED needs an OUTPUT file" >&2
    exit 2
fi
out=${out:-$here/dots.nes}
[ -n "$draw_only" ] || for tool in ca65 ld65; do
    command -v $tool >/dev/null 2>&1 || {
        echo "build.sh: $tool not found: install cc65 (Debian/Ubuntu: apt-get install cc65)" >&2
        exit 127
    }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
flags=
if [ -n "$seed" ]; then
    if [ -n "$classic" ]; then
        awk -v seed="$seed" -v scrambled="${scramble:-0}" -v check="${check:-0}" -v defs="$defs" \
            -f "$here/gen_lib.awk" -f "$here/variant.awk" > "$tmp/variant.inc"
    else
        awk -v seed="$seed" -v scrambled="${scramble:-0}" -v check="${check:-0}" -v defs="$defs" \
            -v art_file="$tmp/art.inc" \
            -f "$here/gen_lib.awk" -f "$here/art.awk" -f "$here/wide.awk" > "$tmp/variant.inc"
    fi
    flags="-D VARIANT=1 -I $tmp"
    # A -D the generator does not draw (a test build's switch, e.g. LATE_MOVE) is added to
    # the definitions, which the build includes and the harness reads.
    for d in $defs; do
        grep -q "^${d%%=*} *=" "$tmp/variant.inc" ||
            printf '%-14s = %s\n' "${d%%=*}" "${d#*=}" >> "$tmp/variant.inc"
    done
    if [ -n "$draw_only" ]; then
        cp "$tmp/variant.inc" "$out.inc"
        [ ! -f "$tmp/art.inc" ] || cp "$tmp/art.inc" "$out.art.inc"
        exit 0
    fi
else
    [ -z "$check" ] || defs="$defs CHECK=1"
    for d in $defs; do flags="$flags -D $d"; done
fi
ca65 -t none $flags -I "$here/src" -o "$tmp/dots.o" "$here/src/dots.s"
ld65 -C "$here/dots.cfg" -o "$out" "$tmp/dots.o"
if [ -n "$seed" ]; then
    cp "$tmp/variant.inc" "$out.inc"
    [ ! -f "$tmp/art.inc" ] || cp "$tmp/art.inc" "$out.art.inc"
fi
