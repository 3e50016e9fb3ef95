#!/usr/bin/env python3
"""A seeded button-masher, as an external nesmind plug-in (docs/plugin-protocol.md), to
record benchmark replays of real play: Start at the given frames to get through the title
and menus, then runs of held directions with A and B pressed now and then, drawn from a
fixed seed so a recording is reproducible.

    --starts=60,200   frames at which Start is tapped (5 frames each)
    --seed=N          the generator's seed
"""
import random
import sys


def main():
    starts, seed = [60, 200], 1
    for arg in sys.argv[1:]:
        key, _, value = arg.partition("=")
        if key == "--starts":
            starts = [int(v) for v in value.split(",") if v]
        elif key == "--seed":
            seed = int(value)
    rng = random.Random(seed)
    hello = sys.stdin.readline().split()
    if len(hello) < 2 or hello[0] != "nesmind":
        print("refuse unknown protocol", flush=True)
        return
    print("ok pads=1 0000", flush=True)
    held, until = "-", 0
    begin = max(starts) + 30 if starts else 0
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "bye":
            break
        frame = int(words[1])
        if any(s <= frame < s + 5 for s in starts):
            pad = "Start"
        elif frame < begin:
            pad = "-"
        else:
            if frame >= until:
                held = rng.choice(["Left", "Right", "Up", "Down", "Right", "Left", "-"])
                until = frame + rng.randint(8, 50)
            extra = [b for b, p in (("A", 0.15), ("B", 0.1)) if rng.random() < p]
            pad = "+".join(([held] if held != "-" else []) + extra) or "-"
        print(f"buttons {pad}", flush=True)


if __name__ == "__main__":
    main()
