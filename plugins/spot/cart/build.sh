#!/bin/sh
# Rebuilds the DOTS cartridge image from its sources with ca65/ld65 (Debian: cc65).
# Usage: build.sh [OUTPUT]                 the cart (default: dots.nes beside this script)
#        build.sh --variant SEED [--scrambled-cursor] OUTPUT
#                                          a variant drawn from SEED (0-4294967295): the
#                                          game's variables moved and recoded; the drawn
#                                          definitions are written to OUTPUT.inc as well.
#                                          --scrambled-cursor also hides the hand and codes
#                                          the cursor in no row/column order (a variant
#                                          calibration cannot explain, for tests)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
seed=
scramble=
if [ "${1:-}" = "--variant" ]; then
    seed=${2:?"--variant needs a seed"}
    case $seed in
        ''|*[!0-9]*) echo "build.sh: variant seed '$seed' is not a number" >&2; exit 2 ;;
    esac
    [ ${#seed} -le 10 ] || { echo "build.sh: variant seed '$seed' is too large" >&2; exit 2; }
    shift 2
    if [ "${1:-}" = "--scrambled-cursor" ]; then
        scramble=1
        shift
    fi
    [ $# -ge 1 ] || { echo "build.sh: --variant SEED needs an OUTPUT file" >&2; exit 2; }
fi
out=${1:-$here/dots.nes}
for tool in ca65 ld65; do
    command -v $tool >/dev/null 2>&1 || {
        echo "build.sh: $tool not found: install cc65 (Debian/Ubuntu: apt-get install cc65)" >&2
        exit 127
    }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
defines=
if [ -n "$seed" ]; then
    awk -v seed="$seed" -f "$here/variant.awk" > "$tmp/variant.inc"
    [ -z "$scramble" ] || echo "CURSOR_SCRAMBLE = 1" >> "$tmp/variant.inc"
    defines="-D VARIANT=1 -I $tmp"
fi
ca65 -t none $defines -I "$here/src" -o "$tmp/dots.o" "$here/src/dots.s"
ld65 -C "$here/dots.cfg" -o "$out" "$tmp/dots.o"
if [ -n "$seed" ]; then
    cp "$tmp/variant.inc" "$out.inc"
fi
