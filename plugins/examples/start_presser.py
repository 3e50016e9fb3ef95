#!/usr/bin/env python3
"""Example external plug-in for nesmind (line protocol, see docs/plugin-protocol.md).

Run:  nesmind run GAME.nes --headless --frames 600 \
          --plugin 'ext:python3 plugins/examples/start_presser.py' [--plugin-opt press=120]

It asks for zero page ($0000-$00FF) every frame, taps Start for 5 frames starting at
frame `press` (to leave a title screen), then walks right, and reports a checksum of the
zero page it received as its status line, so a test can check the RAM it was sent.
"""
import sys


def main():
    press = 120
    for arg in sys.argv[1:]:
        if arg.startswith("--press="):
            press = int(arg.split("=", 1)[1])

    hello = sys.stdin.readline().split()
    # Hosts of a later protocol version still speak everything version 1 had.
    if len(hello) < 2 or hello[0] != "nesmind" or not hello[1].isdigit() or int(hello[1]) < 1:
        print("refuse unknown protocol", flush=True)
        return
    print("ok pads=1 0000-00FF", flush=True)

    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "bye":
            break
        frame = int(words[1])
        zero_page = bytes.fromhex(words[2])
        if press <= frame < press + 5:
            pad = "Start"
        elif frame >= press + 30:
            pad = "Right"
        else:
            pad = "-"
        print(f"status frame {frame} zp-sum {sum(zero_page) % 65536}", flush=True)
        print(f"buttons {pad}", flush=True)


if __name__ == "__main__":
    main()
