"""stable-retro's own evaluation of every NES integration, as a reference.

For each integration, drives the RAM bytes its variables span through a random walk
(increments, decrements, jumps, zeros) and records, step by step, the bytes written and
what stable-retro's GameData says: info, each player's reward, done. Halfway through, a
new episode starts (GameData.reset: scenario scripts reload). No game runs: the emulator
holds a tiny generated NROM program only so that GameData has RAM to read. Scenarios with
a script.lua run it in stable-retro's own Lua.

Usage: python retro_reference.py DATA_DIR OUT.json [STEPS]
"""

import json
import os
import random
import sys
import tempfile

import stable_retro
import stable_retro.data as rd


def tiny_rom(path):
    # 16 KiB of PRG that loops on JMP $8000, all vectors at $8000; 8 KiB of blank CHR.
    prg = bytearray([0x4C, 0x00, 0x80] + [0xEA] * (0x4000 - 3))
    prg[0x3FFA:0x4000] = bytes([0x00, 0x80] * 3)
    with open(path, "wb") as f:
        f.write(b"NES\x1a\x01\x01" + bytes(10) + bytes(prg) + bytes(0x2000))


def main():
    data_dir, out_path = sys.argv[1], sys.argv[2]
    steps = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    stable = os.path.join(data_dir, "stable")
    rom = os.path.join(tempfile.mkdtemp(), "loop.nes")
    tiny_rom(rom)
    em = stable_retro.RetroEmulator(rom)
    out = {}
    for name in sorted(os.listdir(stable)):
        folder = os.path.join(stable, name)
        if "-Nes" not in name or not os.path.isdir(folder):
            continue
        scen_path = os.path.join(folder, "scenario.json")
        with open(scen_path) as f:
            scen = json.load(f)
        with open(os.path.join(folder, "data.json")) as f:
            info = json.load(f)["info"]
        players = len(scen["rewards"]) if "rewards" in scen else 1
        spans = sorted({
            v["address"] + i for v in info.values() for i in range(int(v["type"][-1]))
        })
        g = rd.GameData()
        g.load(os.path.join(folder, "data.json"), scen_path)
        em.configure_data(g)
        for a in range(0x800):
            g.memory.assign(a, "|u1", 0)
        rng = random.Random(name)
        ram = {a: 0 for a in spans}
        record = []
        for step in range(steps):
            restart = step == steps // 2
            if restart:
                g.reset()
            writes = []
            for a in spans:
                r = rng.randrange(8)
                v = ram[a]
                if r == 0:
                    v = (v + 1) & 0xFF
                elif r == 1:
                    v = (v - 1) & 0xFF
                elif r == 2:
                    v = rng.randrange(256)
                elif r == 3:
                    v = 0
                if v != ram[a]:
                    ram[a] = v
                    g.memory.assign(a, "|u1", v)
                    writes.append([a, v])
            g.update_ram()
            record.append({
                "restart": restart,
                "writes": writes,
                "rewards": [g.current_reward(p) for p in range(players)],
                "done": bool(g.is_done()),
                "info": {k: int(v) for k, v in g.lookup_all().items()},
            })
        out[name] = record
    with open(out_path, "w") as f:
        json.dump(out, f)
    print(f"{len(out)} integrations recorded")


if __name__ == "__main__":
    main()
