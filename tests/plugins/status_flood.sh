#!/bin/sh
# Misbehaving plug-in: answers the hello, reads the first frame, then answers it with
# status lines for ever and never a `buttons` reply.
read -r hello
echo ok
read -r frame
while :; do echo "status still thinking"; done
