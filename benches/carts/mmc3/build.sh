#!/bin/sh
# Rebuilds the MMC3 workload cartridge with ca65/ld65 (Debian package cc65).
# Usage: build.sh [OUTPUT]      (default: mmc3-workload.nes beside this script)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/mmc3-workload.nes}
for tool in ca65 ld65; do
    command -v "$tool" >/dev/null 2>&1 || {
        echo "build.sh: $tool not found: install cc65 (Debian/Ubuntu: apt-get install cc65)" >&2
        exit 127
    }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ca65 -t none -I "$here" -o "$tmp/mmc3.o" "$here/mmc3.s"
ld65 -C "$here/mmc3.cfg" -o "$tmp/out.nes" "$tmp/mmc3.o"
mv "$tmp/out.nes" "$out"
