"""Plays a ROM in stable-retro and records a state and what follows it, for state_play.rs.

Makes a custom integration for the ROM in a temporary folder (stable-retro's documented
mechanism: a `<Name>-Nes` folder with rom.nes, rom.sha, data.json, scenario.json and
metadata.json, found through Integrations.add_custom_path), powers on, plays WARMUP frames
of seeded random buttons (Start pressed now and then so the game leaves its title), saves
the state, then plays FRAMES more frames of random buttons and records the CPU RAM after
each one.

Writes into OUT_DIR: state.fcs (env.em.get_state(), FCEUmm's state as stable-retro gives
it), buttons.json (the buttons held in each recorded frame, by NES name) and ram.bin (2 KiB
of CPU RAM per recorded frame).

Usage: python state_play.py ROM OUT_DIR SEED WARMUP FRAMES
"""

import hashlib
import json
import os
import random
import shutil
import sys
import tempfile

import numpy as np
import stable_retro
import stable_retro.data as rd

GAME = "NesmindStatePlay-Nes"


def integration(rom):
    root = tempfile.mkdtemp()
    folder = os.path.join(root, GAME)
    os.makedirs(folder)
    shutil.copy(rom, os.path.join(folder, "rom.nes"))
    with open(rom, "rb") as f:
        data = f.read()
    # stable-retro names an NES ROM by the SHA-1 of what follows the 16-byte header.
    with open(os.path.join(folder, "rom.sha"), "w") as f:
        f.write(hashlib.sha1(data[16:]).hexdigest() + "\n")
    files = {
        "data.json": {"info": {}},
        "scenario.json": {"done": {"variables": {}}, "reward": {"variables": {}}},
        "metadata.json": {},
    }
    for name, content in files.items():
        with open(os.path.join(folder, name), "w") as f:
            json.dump(content, f)
    return root


def walk(rng, frames, start_every):
    """Random buttons held a few frames at a time; never two opposite directions, which a
    real pad cannot press and emulators' front ends treat differently."""
    out = []
    while len(out) < frames:
        held = set()
        if rng.random() < 0.5:
            held.add(rng.choice(["UP", "DOWN", "LEFT", "RIGHT"]))
        for b in ["A", "B"]:
            if rng.random() < 0.3:
                held.add(b)
        if rng.random() < 0.05:
            held.add("SELECT")
        if start_every and len(out) % start_every < 8:
            held.add("START")
        out.extend([sorted(held)] * rng.randrange(2, 12))
    return out[:frames]


def main():
    rom, out_dir = sys.argv[1], sys.argv[2]
    seed, warmup, frames = (int(a) for a in sys.argv[3:6])
    rd.Integrations.add_custom_path(integration(rom))
    env = stable_retro.make(
        GAME,
        state=stable_retro.State.NONE,
        inttype=rd.Integrations.CUSTOM_ONLY,
        use_restricted_actions=stable_retro.Actions.ALL,
        render_mode=None,
    )
    # B, (none), SELECT, START, UP, DOWN, LEFT, RIGHT, A: the action array's order.
    buttons = env.buttons
    env.reset()
    rng = random.Random(seed)

    def step(held):
        env.step(np.array([int(b in held) for b in buttons], np.uint8))

    for held in walk(rng, warmup, start_every=90):
        step(held)
    state = env.em.get_state()
    played = walk(rng, frames, start_every=0)
    ram = bytearray()
    for held in played:
        step(held)
        # The first blocks are the CPU's 2 KiB (PRG RAM at $6000 follows).
        ram += env.get_ram()[:0x800].tobytes()
    env.close()
    with open(os.path.join(out_dir, "state.fcs"), "wb") as f:
        f.write(state)
    with open(os.path.join(out_dir, "buttons.json"), "w") as f:
        json.dump(played, f)
    with open(os.path.join(out_dir, "ram.bin"), "wb") as f:
        f.write(ram)
    print(f"{len(state)}-byte state after {warmup} frames, {frames} frames recorded")


if __name__ == "__main__":
    main()
