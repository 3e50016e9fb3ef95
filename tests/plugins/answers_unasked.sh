#!/bin/sh
# Misbehaving plug-in: answers the hello, then replies `buttons -` for ever without
# reading the frames it is sent (as `yes "buttons -"` would).
read -r hello
echo ok
exec yes "buttons -"
