#!/bin/sh
# Rebuilds the DOTS cartridge image from its sources with ca65/ld65 (Debian: cc65).
# Usage: build.sh [OUTPUT]   (default: dots.nes beside this script)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/dots.nes}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ca65 -t none -I "$here/src" -o "$tmp/dots.o" "$here/src/dots.s"
ld65 -C "$here/dots.cfg" -o "$out" "$tmp/dots.o"
