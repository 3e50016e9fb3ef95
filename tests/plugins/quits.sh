#!/bin/sh
# Well-behaved plug-in using protocol 2: asks the host's version, presses reset at frame
# 5, and ends the run at frame 10 with exit status 3.
read -r hello
echo version
read -r version
echo "ok"
while read -r frame n rest; do
  [ "$frame" = bye ] && exit 0
  case "$n" in
    5) echo reset; echo "buttons -" ;;
    10) echo "status $version"; echo "quit 3 game over at frame $n" ;;
    *) echo "buttons -" ;;
  esac
done
