#!/bin/sh
# Misbehaving plug-in: asks for all 64 KiB of the address space each frame (a 128 KiB
# line, more than a pipe holds), then never reads again.
read -r hello
echo "ok 0000-FFFF"
exec sleep 600
