#!/usr/bin/env python3
"""Steps per second of nesmind's Gymnasium environments against nes-py on the same ROMs.

    python benches/gym_bench.py [--seconds S] [--nes-py-python PYTHON] [ROM ...]

Run it with the Python that has nesmind installed (python/test.sh builds it into
python/.venv). nes-py needs numpy<2, so it is measured in a subprocess of PYTHON, a venv
with `pip install "numpy<2" nes-py` (default: this interpreter). Every figure is one frame
per step with the RGB picture as observation, as nes-py's NESEnv gives it. Default ROMs:
lawn_mower from the test corpus and both demo carts.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import nesmind
import nesmind.gym

CORPUS = os.environ.get("NES_TEST_ROMS") or os.path.join(
    os.path.dirname(__file__), "..", "..", "shared", "test-roms")

NES_PY = r"""
import json, sys, time
from nes_py import NESEnv
path, seconds = sys.argv[1], float(sys.argv[2])
env = NESEnv(path)
env.reset()
rng = __import__("random").Random(0)
n, start = 0, time.perf_counter()
while time.perf_counter() - start < seconds:
    _, _, done, _ = env.step(rng.randrange(256))[:4]
    n += 1
    if done:
        env.reset()
print(json.dumps(n / (time.perf_counter() - start)))
"""


def rate(step, seconds: float) -> float:
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        n += step()
    return n / (time.perf_counter() - start)


def nesmind_env(rom: bytes, seconds: float) -> float:
    env = nesmind.gym.NesEnv(rom=rom, frame_skip=1, obs="rgb")
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    actions = rng.integers(0, env.action_space.n, 1 << 16)
    i = [0]

    def step():
        i[0] += 1
        env.step(actions[i[0] & 0xFFFF])
        return 1
    return rate(step, seconds)


def vector_env(rom: bytes, n: int, seconds: float) -> float:
    envs = nesmind.gym.NesVectorEnv(n, rom=rom, frame_skip=1, obs="rgb", copy=False)
    envs.reset(seed=0)
    rng = np.random.default_rng(0)

    def step():
        envs.step(rng.integers(0, envs.single_action_space.n, n))
        return n
    return rate(step, seconds)


def nes_py(python: str, rom: bytes, seconds: float):
    with tempfile.NamedTemporaryFile(suffix=".nes", delete=False) as f:
        f.write(rom)
    try:
        out = subprocess.run([python, "-c", NES_PY, f.name, str(seconds)],
                             capture_output=True, text=True, timeout=seconds * 10 + 60)
    finally:
        os.unlink(f.name)
    if out.returncode != 0:
        last = (out.stderr.strip().splitlines() or ["no output"])[-1]
        return None, last
    return json.loads(out.stdout.strip().splitlines()[-1]), None


def clone_micros(rom: bytes) -> float:
    m = nesmind.Machine(rom)
    m.step(8, frames=300)
    for _ in range(1000):
        m.clone()
    n = 20000
    start = time.perf_counter()
    for _ in range(n):
        m.clone()
    return (time.perf_counter() - start) / n * 1e6


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("roms", nargs="*")
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--nes-py-python", default=sys.executable)
    a = ap.parse_args()
    roms = [(os.path.basename(p), open(p, "rb").read()) for p in a.roms] or [
        ("lawn_mower", open(os.path.join(CORPUS, "homebrew/lawn_mower/lawn_mower.nes"), "rb").read()),
        ("dots", nesmind.plugins.demo_rom("spot")),
        ("hatris-like", nesmind.plugins.demo_rom("hatris")),
    ]
    print(f"cpus {os.cpu_count()} load {os.getloadavg()[0]:.2f}; {a.seconds:.0f} s per figure")
    print(f"{'rom':<12} {'nes-py':>9} {'NesEnv':>9} {'ratio':>6} {'vec1':>9} {'vec2':>9} {'vec8':>9} {'vec2/1':>6} {'vec8/1':>6}")
    for name, rom in roms:
        theirs, why = nes_py(a.nes_py_python, rom, a.seconds)
        ours = nesmind_env(rom, a.seconds)
        vec = {n: vector_env(rom, n, a.seconds) for n in (1, 2, 8)}
        ratio = f"{ours / theirs:6.2f}" if theirs else "     -"
        print(f"{name:<12} {theirs or 0:9.0f} {ours:9.0f} {ratio} {vec[1]:9.0f} {vec[2]:9.0f} {vec[8]:9.0f}"
              f" {vec[2] / vec[1]:6.2f} {vec[8] / vec[1]:6.2f}")
        if why:
            print(f"  nes-py could not run {name}: {why}")
    print(f"clone {clone_micros(roms[0][1]):.2f} us (Machine.clone() from Python, {roms[0][0]})")


if __name__ == "__main__":
    main()
