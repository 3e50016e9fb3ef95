#!/bin/sh
# Builds one board test cart with ca65/ld65 (Debian: cc65).
# Usage: build.sh BOARD OUTPUT [-D NAME=VALUE ...]   e.g. build.sh m185 /tmp/x.nes -D SUBMAPPER=5
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 2 ] || { echo "usage: build.sh BOARD OUTPUT [-D NAME=VALUE ...]" >&2; exit 2; }
board=$1 out=$2
shift 2
[ -f "$here/$board.s" ] || { echo "build.sh: no board cart $here/$board.s" >&2; exit 2; }
flags=
while [ $# -gt 0 ]; do
    case $1 in
        -D)
            [ $# -ge 2 ] || { echo "build.sh: -D needs NAME=VALUE" >&2; exit 2; }
            case $2 in
                [A-Z_]*=[0-9]*) flags="$flags -D $2" ;;
                *) echo "build.sh: -D $2: expected NAME=NUMBER" >&2; exit 2 ;;
            esac
            shift 2 ;;
        *) echo "build.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
for tool in ca65 ld65; do
    command -v $tool >/dev/null 2>&1 || {
        echo "build.sh: $tool not found: install cc65 (Debian/Ubuntu: apt-get install cc65)" >&2
        exit 127
    }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086
ca65 -t none $flags -I "$here" -o "$tmp/cart.o" "$here/$board.s"
ld65 -C "$here/boards.cfg" -o "$out" "$tmp/cart.o"
