#!/usr/bin/env python3
"""Steps per second of one stable-retro integration in stable-retro and in nesmind.retro.

    python benches/retro_bench.py [--seconds S] [--envs N]

Run it with python/.venv's interpreter, which has nesmind (python/test.sh) and stable-retro
1.0.1 (tests/fetch-retro-data.sh). The integration is a custom one made here for Lawn Mower
from the test corpus (NROM), started from a state stable-retro saved in play; every step is
one frame with the (224, 240, 3) picture as observation, FILTERED random actions, and the
scenario's reward and end evaluated, in both. One env runs in this process; N envs run as
Gymnasium's AsyncVectorEnv (one process each: stable-retro allows one emulator a process)
for both libraries; `nesmind.retro.make_vec` runs 1 and N envs in this process, stepped
together in Rust. Each is measured for S seconds of wall time, one after another.
"""

import argparse
import gzip
import hashlib
import json
import os
import random
import tempfile
import time

import numpy as np

GAME = "NesmindBench-Nes"
CORPUS = os.environ.get("NES_TEST_ROMS") or os.path.join(
    os.path.dirname(__file__), "..", "..", "shared", "test-roms")


def integration() -> str:
    """A custom integration folder's parent, with a `Start` state saved by stable-retro."""
    import stable_retro as retro
    import stable_retro.data as rd

    root = tempfile.mkdtemp()
    folder = os.path.join(root, GAME)
    os.makedirs(folder)
    with open(os.path.join(CORPUS, "homebrew/lawn_mower/lawn_mower.nes"), "rb") as f:
        image = f.read()
    files = {
        "rom.nes": image,
        "rom.sha": (hashlib.sha1(image[16:]).hexdigest() + "\n").encode(),
        "data.json": json.dumps({"info": {"a": {"address": 255, "type": "|u1"},
                                          "c": {"address": 188, "type": "<u2"}}}).encode(),
        "scenario.json": json.dumps({"reward": {"variables": {"a": {"reward": 1}}},
                                     "done": {"variables": {"c": {"op": "equal",
                                                                  "reference": 9999}}}}).encode(),
        "metadata.json": json.dumps({"default_state": "Start"}).encode(),
    }
    for name, data in files.items():
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data)
    rd.Integrations.add_custom_path(root)
    env = retro.make(GAME, state=retro.State.NONE, inttype=rd.Integrations.CUSTOM_ONLY,
                     use_restricted_actions=retro.Actions.ALL, render_mode=None)
    env.reset()
    rng = random.Random(5)
    for i in range(300):
        a = np.array([rng.random() < 0.2 for _ in range(9)], np.uint8)
        a[3] = i % 60 < 4
        env.step(a)
    with open(os.path.join(folder, "Start.state"), "wb") as f:
        f.write(gzip.compress(env.em.get_state()))
    env.close()
    return root


def maker(lib: str, root: str):
    def make():
        import stable_retro.data as rd
        rd.Integrations.add_custom_path(root)
        if lib == "stable-retro":
            import stable_retro as retro
            return retro.make(GAME, inttype=rd.Integrations.CUSTOM_ONLY, render_mode=None)
        import nesmind.retro as retro
        return retro.make(GAME, inttype=rd.Integrations.CUSTOM_ONLY)
    return make


def one(lib: str, root: str, seconds: float) -> float:
    env = maker(lib, root)()
    env.reset(seed=0)
    actions = np.random.default_rng(1).random((4096, 9)) < 0.25
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for a in actions[:256]:
            if env.step(a.astype(np.uint8))[2]:
                env.reset()
        steps += 256
    rate = steps / (time.perf_counter() - start)
    env.close()
    return rate


def many(lib: str, root: str, seconds: float, n: int) -> float:
    import gymnasium
    envs = gymnasium.vector.AsyncVectorEnv([maker(lib, root)] * n)
    envs.reset(seed=0)
    rng = np.random.default_rng(1)
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(64):
            envs.step((rng.random((n, 9)) < 0.25).astype(np.uint8))
        steps += 64 * n
    rate = steps / (time.perf_counter() - start)
    envs.close()
    return rate


def vec(root: str, seconds: float, n: int) -> float:
    """nesmind.retro.make_vec: n envs in this process, stepped together in Rust."""
    import stable_retro.data as rd
    import nesmind.retro as retro
    rd.Integrations.add_custom_path(root)
    envs = retro.make_vec(GAME, n, inttype=rd.Integrations.CUSTOM_ONLY)
    envs.reset(seed=0)
    rng = np.random.default_rng(1)
    actions = [(rng.random((n, 9)) < 0.25).astype(np.uint8) for _ in range(64)]
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for a in actions:
            envs.step(a)
        steps += 64 * n
    rate = steps / (time.perf_counter() - start)
    envs.close()
    return rate


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--envs", type=int, default=8)
    a = p.parse_args()
    root = integration()
    rows = {}
    for lib in ["stable-retro", "nesmind.retro"]:
        rows[lib] = [one(lib, root, a.seconds)]
    for lib in ["stable-retro", "nesmind.retro"]:
        rows[lib].append(many(lib, root, a.seconds, a.envs))
    rows["make_vec"] = [vec(root, a.seconds, 1), vec(root, a.seconds, a.envs)]
    print(f"{'library':<15} {'1 env':>12} {f'{a.envs} envs':>12}   (steps per second)")
    for lib, (r1, rn) in rows.items():
        print(f"{lib:<15} {r1:>12.0f} {rn:>12.0f}")
    s, n, v = rows["stable-retro"], rows["nesmind.retro"], rows["make_vec"]
    print(f"nesmind.retro / stable-retro: {n[0] / s[0]:.2f}x at 1 env, {n[1] / s[1]:.2f}x at "
          f"{a.envs}; nesmind's {a.envs}-env figure is {n[1] / n[0]:.2f}x its 1-env figure")
    print(f"make_vec / stable-retro: {v[0] / s[0]:.2f}x at 1 env, {v[1] / s[1]:.2f}x at "
          f"{a.envs}; its {a.envs}-env figure is {v[1] / v[0]:.2f}x its 1-env figure")


if __name__ == "__main__":
    main()
