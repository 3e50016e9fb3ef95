#!/bin/sh
# Rebuilds the Hatris-like demo cartridge with ca65/ld65 (Debian package cc65).
# Usage: build.sh [OUTPUT.nes]   (default: hatris-like.nes beside this script)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-"$here/hatris-like.nes"}
for tool in ca65 ld65; do
    command -v "$tool" >/dev/null 2>&1 || { echo "build.sh: $tool not found (apt-get install cc65)" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ca65 -I "$here" -o "$work/hatris.o" "$here/hatris.s"
ld65 -C "$here/nes.cfg" -o "$work/hatris-like.nes" "$work/hatris.o"
mv "$work/hatris-like.nes" "$out"
