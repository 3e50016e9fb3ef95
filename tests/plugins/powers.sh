#!/bin/sh
# Well-behaved plug-in using protocol 2: holds nothing, and at its 30th frame line asks
# the host to switch the console off and on.
read -r hello
echo ok
seen=0
while read -r frame n rest; do
  [ "$frame" = bye ] && exit 0
  seen=$((seen + 1))
  [ "$seen" = 30 ] && echo power
  echo "buttons -"
done
