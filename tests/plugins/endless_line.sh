#!/bin/sh
# Misbehaving plug-in: answers the hello, then writes one line that never ends.
read -r hello
echo ok
read -r frame
tr '\0' 'x' < /dev/zero
