#!/bin/sh
# Misbehaving plug-in: starts a helper that would outlive it (holding the terminal's
# stderr), writes the helper's pid to --pidfile=FILE, then plays normally.
for arg in "$@"; do
  case "$arg" in --pidfile=*) pidfile=${arg#--pidfile=} ;; esac
done
read -r hello
sleep 600 &
echo $! > "$pidfile"
echo ok
while read -r line; do
  [ "$line" = bye ] && exit 0
  echo "buttons -"
done
