"""Gymnasium environments on nesmind machines.

    import gymnasium, nesmind
    env = gymnasium.make("nesmind/Nes-v0", ram_spec="dots", obs="ram")
    env = nesmind.gym.NesEnv(rom="game.nes", ram_spec="spec.json", frame_skip=4)
    envs = nesmind.gym.NesVectorEnv(num_envs=8, ram_spec="hatris-like", obs="ram")

An episode starts from power-on: the title waits a seeded number of frames (0-63), then the
spec's start buttons are tapped until its `start.until` holds. With `state=` (a savestate's
bytes or file, as `Machine.save_state()` and `nesmind run --save-state` write them) every
episode starts from that state instead, and `reset(options={"state": ...})` starts one
episode from another. Rewards and episode ends come
from the spec (see `nesmind.specs`); without one the reward is 0 and episodes only end by
`max_episode_steps`. Actions index the spec's action list (button combinations).
"""

import os
import warnings
from typing import Any, Dict, List, Optional, Tuple

import gymnasium
import numpy as np
from gymnasium import spaces

from . import _nesmind
from .specs import BUILTIN, RamSpec

#: The action set without a spec: nothing, each button, and the usual pairs.
DEFAULT_ACTIONS = ["", "A", "B", "Up", "Down", "Left", "Right", "Start", "Select",
                   "Right+A", "Right+B", "Left+A", "Left+B", "Up+A", "Down+A"]
#: Title-screen frames before the start buttons: drawn per episode from the seed.
START_DELAYS = 64
HEIGHT, WIDTH = 240, 256


def _mask(combo: str) -> int:
    mask = 0
    for name in combo.replace(",", "+").split("+"):
        name = name.strip()
        if not name:
            continue
        bits = {k.lower(): v for k, v in _nesmind.BUTTONS}
        if name.lower() not in bits:
            raise _nesmind.NesError(
                f"unknown button '{name}' (A, B, Select, Start, Up, Down, Left, Right)")
        mask |= bits[name.lower()]
    return mask


def _resolve(rom, ram_spec) -> Tuple[Any, Optional[RamSpec]]:
    """The ROM and spec, with a shipped spec's demo cart standing in for a missing ROM."""
    spec = RamSpec.load(ram_spec) if ram_spec is not None else None
    if rom is None:
        if isinstance(ram_spec, str) and ram_spec in BUILTIN:
            rom = _nesmind.demo_rom(BUILTIN[ram_spec])
        else:
            raise _nesmind.NesError("NesEnv needs rom=PATH_OR_BYTES (or a shipped ram_spec name)")
    return rom, spec


def _obs_space(obs: str) -> spaces.Space:
    rgb = spaces.Box(0, 255, (HEIGHT, WIDTH, 3), np.uint8)
    ram = spaces.Box(0, 255, (2048,), np.uint8)
    if obs == "rgb":
        return rgb
    if obs == "ram":
        return ram
    if obs == "both":
        return spaces.Dict({"rgb": rgb, "ram": ram})
    raise ValueError(f"obs must be 'rgb', 'ram' or 'both', not {obs!r}")


def _state_bytes(state) -> bytes:
    """A savestate given as bytes or as a file path."""
    if isinstance(state, (bytes, bytearray, memoryview)):
        return bytes(state)
    if isinstance(state, (str, os.PathLike)):
        try:
            with open(state, "rb") as f:
                return f.read()
        except OSError as e:
            raise _nesmind.NesError(f"cannot read the savestate {os.fspath(state)!r}: {e.strerror}") from e
    raise TypeError(f"state must be bytes or a file path, not {type(state).__name__}")


class _Starts:
    """Episode start states by title delay, made once and cloned for every reset; or
    loaded from savestates (`from_state`), each kept once loaded."""

    def __init__(self, rom, spec: Optional[RamSpec], state=None):
        self.power_on = _nesmind.Machine(rom)
        self.ram_spec = spec
        self.cache: Dict[int, Any] = {}
        self.states: Dict[bytes, Any] = {}
        # A bad state fails here, when the environment is made, not at the first reset.
        self.default = self.from_state(state) if state is not None else None

    def from_state(self, state):
        data = _state_bytes(state)
        if data not in self.states:
            m = self.power_on.clone()
            try:
                m.load_state(data)
            except _nesmind.NesError as e:
                raise _nesmind.NesError(f"the episode start state does not load: {e}") from e
            self.states[data] = m
        return self.states[data]

    def pick(self, rng: np.random.Generator, options: Optional[dict]):
        """This episode's start: options["state"], else the environment's state, else
        power-on with a delay drawn from `rng`."""
        if options and options.get("state") is not None:
            return self.from_state(options["state"])
        if self.default is not None:
            return self.default
        return self.get(int(rng.integers(0, START_DELAYS)))

    def get(self, delay: int):
        if delay not in self.cache:
            m = self.power_on.clone()
            m.step(0, frames=delay + 1)
            spec = self.ram_spec
            if spec is not None and spec.start_max_frames:
                tap = _mask(spec.start_buttons)
                frames = 0
                while not spec.started(spec.read(m)):
                    if frames >= spec.start_max_frames:
                        raise _nesmind.NesError(
                            f"the spec's start condition did not hold within {frames} frames")
                    m.step(tap if frames % 2 == 0 else 0)
                    frames += 1
                m.set_buttons(0, 0)
            self.cache[delay] = m
        return self.cache[delay]


class _Window:
    """render_mode="human": the SDL window (`nesmind.Viewer`), paced to the game's real
    speed. A window the person closes leaves the environment running, with one warning."""

    def __init__(self, title: str):
        self.viewer = _nesmind.Viewer(title)
        self.warned = False

    def show(self, source, frames: int, status: str):
        if self.viewer is None:
            return
        if not self.viewer.show(source, frames, status) and not self.warned:
            self.warned = True
            warnings.warn("the window was closed; the environment goes on without it", stacklevel=3)

    def close(self):
        if self.viewer is not None:
            self.viewer.close()
            self.viewer = None


def _check_render_mode(cls, render_mode):
    modes = cls.metadata["render_modes"]
    if render_mode is not None and render_mode not in modes:
        raise ValueError(f"render_mode {render_mode!r} is not supported ({', '.join(modes)})")


class NesEnv(gymnasium.Env):
    """One NES as a Gymnasium environment.

    NesEnv(rom=None, ram_spec=None, frame_skip=4, obs="rgb", render_mode=None,
           actions=None, max_episode_steps=None, state=None)

    rom: path or bytes (may be left out with a shipped ram_spec: its demo cart).
    ram_spec: a shipped name ("dots", "hatris-like"), a .ron/.json file, a dict or RamSpec.
    obs: "rgb" (uint8 (240, 256, 3)), "ram" (uint8 (2048,)) or "both" (a Dict of the two).
    actions: button combinations ("A+Right"); default: the spec's, else DEFAULT_ACTIONS.
    state: a savestate (bytes or path) every episode starts from, instead of power-on;
        `reset(options={"state": ...})` starts one episode from another.
    render_mode: "rgb_array" (render() returns the picture) or "human" (every reset and
        step shows the picture in an SDL window at the game's real speed, with the
        episode, step and return under it; render() returns None).
    """

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 60}

    def __init__(self, rom=None, ram_spec=None, frame_skip: int = 4, obs: str = "rgb",
                 render_mode: Optional[str] = None, actions: Optional[List[str]] = None,
                 max_episode_steps: Optional[int] = None, state=None):
        _check_render_mode(type(self), render_mode)
        if frame_skip < 1:
            raise ValueError("frame_skip must be at least 1")
        # One step is frame_skip frames: recorded videos play at the game's speed.
        self.metadata = {**type(self).metadata, "render_fps": 60 / frame_skip}
        rom, self.ram_spec = _resolve(rom, ram_spec)
        self._starts = _Starts(rom, self.ram_spec, state)
        self.obs_kind = obs
        self.frame_skip = frame_skip
        self.render_mode = render_mode
        self.max_episode_steps = max_episode_steps
        combos = actions or (self.ram_spec.actions if self.ram_spec and self.ram_spec.actions else DEFAULT_ACTIONS)
        self.action_names = list(combos)
        self._masks = [_mask(c) for c in combos]
        self.action_space = spaces.Discrete(len(self._masks))
        self.observation_space = _obs_space(obs)
        self.machine = None
        self._vars: Dict[str, int] = {}
        self._steps = 0
        self._episodes, self._return = 0, 0.0
        self._window = _Window("nesmind: NesEnv") if render_mode == "human" else None

    def _show(self, frames: int):
        if self._window is not None:
            status = f"episode {self._episodes}  step {self._steps}  return {self._return:g}"
            self._window.show(self.machine, frames, status)

    def _observe(self):
        m = self.machine
        if self.obs_kind == "ram":
            return m.ram.copy()
        if self.obs_kind == "rgb":
            return m.picture()
        return {"rgb": m.picture(), "ram": m.ram.copy()}

    def _info(self) -> Dict[str, Any]:
        return {"frame": self.machine.frame_number, **self._vars}

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        self.machine = self._starts.pick(self.np_random, options).clone()
        self._vars = self.ram_spec.read(self.machine) if self.ram_spec else {}
        self._steps = 0
        self._episodes += 1
        self._return = 0.0
        self._show(1)
        return self._observe(), self._info()

    def step(self, action):
        if self.machine is None:
            raise _nesmind.NesError("call reset() before step()")
        self.machine.step(self._masks[int(action)], frames=self.frame_skip)
        self._steps += 1
        reward, terminated = 0.0, False
        if self.ram_spec:
            now = self.ram_spec.read(self.machine)
            reward = self.ram_spec.reward(now, self._vars)
            terminated = self.ram_spec.done(now)
            self._vars = now
        truncated = self.max_episode_steps is not None and self._steps >= self.max_episode_steps
        self._return += reward
        self._show(self.frame_skip)
        return self._observe(), reward, terminated, truncated, self._info()

    def render(self):
        if self.render_mode == "rgb_array" and self.machine is not None:
            return self.machine.picture()
        return None

    def close(self):
        if self._window is not None:
            self._window.close()
        super().close()


class NesVectorEnv(gymnasium.vector.VectorEnv):
    """`num_envs` NesEnvs on one VecMachine, stepped in parallel with the GIL released.

    NesVectorEnv(num_envs, rom=None, ram_spec=None, frame_skip=4, obs="rgb", threads=None,
                 actions=None, max_episode_steps=None, copy=True, state=None)

    Sub-environments reset themselves on the step after their episode ends (Gymnasium's
    next-step autoreset). Spec variables must lie in work RAM ($0000-$07FF). `obs` defaults
    to "rgb" as in NesEnv; "ram" is lighter (2 KiB a machine against 180 KiB). `state` and
    `reset(options={"state": ...})` are NesEnv's; a state given to reset starts the episodes
    that reset begins, and the later autoresets start as the environment was made.
    render_mode: "rgb_array" (render() returns every picture, (num_envs, 240, 256, 3)) or
    "human" (sub-environment 0 shown in an SDL window at the game's real speed).
    """

    metadata = {"render_modes": ["human", "rgb_array"],
                "autoreset_mode": gymnasium.vector.AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int, rom=None, ram_spec=None, frame_skip: int = 4,
                 obs: str = "rgb", threads: Optional[int] = None,
                 actions: Optional[List[str]] = None, max_episode_steps: Optional[int] = None,
                 copy: bool = True, render_mode: Optional[str] = None, state=None):
        _check_render_mode(type(self), render_mode)
        rom, self.ram_spec = _resolve(rom, ram_spec)
        if self.ram_spec and any(v["address"] + 4 > 0x800 for v in self.ram_spec.variables.values()):
            raise _nesmind.NesError("NesVectorEnv reads spec variables from work RAM ($0000-$07FF)")
        self.num_envs = num_envs
        self.vec = _nesmind.VecMachine(rom, num_envs, threads)
        self._starts = _Starts(rom, self.ram_spec, state)
        self.frame_skip, self.obs_kind, self.copy = frame_skip, obs, copy
        self.render_mode = render_mode
        self.max_episode_steps = max_episode_steps
        combos = actions or (self.ram_spec.actions if self.ram_spec and self.ram_spec.actions else DEFAULT_ACTIONS)
        self._masks = np.array([_mask(c) for c in combos], dtype=np.uint8)
        self.single_action_space = spaces.Discrete(len(combos))
        self.action_space = spaces.MultiDiscrete([len(combos)] * num_envs)
        self.single_observation_space = _obs_space(obs)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, num_envs)
        self._ram = np.zeros((num_envs, 2048), np.uint8)
        self._rgb = np.zeros((num_envs, HEIGHT, WIDTH, 3), np.uint8) if obs != "ram" else None
        self._vars: List[Dict[str, int]] = [{} for _ in range(num_envs)]
        self._steps = np.zeros(num_envs, np.int64)
        self._ended = np.zeros(num_envs, bool)
        self._rngs: List[np.random.Generator] = []
        self.metadata = {**type(self).metadata, "render_fps": 60 / frame_skip}
        self._window = _Window("nesmind: NesVectorEnv (environment 0)") if render_mode == "human" else None
        self._return0 = 0.0

    def _show(self, frames: int):
        if self._window is not None:
            status = f"environment 0  step {self._steps[0]}  return {self._return0:g}"
            self._window.show(self.vec.get(0), frames, status)

    def _read(self, i: int) -> Dict[str, int]:
        row = self._ram[i]
        return self.ram_spec.read_peek(lambda a: int(row[a])) if self.ram_spec else {}

    def _start(self, i: int, options: Optional[dict] = None):
        start = self._starts.pick(self._rngs[i], options)
        self.vec.set(i, start)
        self._ram[i] = start.ram
        if self._rgb is not None:
            start.picture(out=self._rgb[i])
        self._vars[i] = self._read(i)
        self._steps[i] = 0

    def _observe(self):
        ram = self._ram.copy() if self.copy else self._ram
        if self.obs_kind == "ram":
            return ram
        rgb = self._rgb.copy() if self.copy else self._rgb
        return rgb if self.obs_kind == "rgb" else {"rgb": rgb, "ram": ram}

    def reset(self, *, seed=None, options=None):
        if seed is None or isinstance(seed, int):
            seqs = np.random.SeedSequence(seed).spawn(self.num_envs)
        else:
            seqs = [np.random.SeedSequence(s) for s in seed]
        self._rngs = [np.random.default_rng(s) for s in seqs]
        for i in range(self.num_envs):
            self._start(i, options)
        self._ended[:] = False
        self._return0 = 0.0
        self._show(1)
        return self._observe(), {}

    def step(self, actions):
        if not self._rngs:
            raise _nesmind.NesError("call reset() before step()")
        buttons = self._masks[np.asarray(actions, dtype=np.int64)]
        self.vec.step(buttons, self.frame_skip, self._ram, self._rgb)
        rewards = np.zeros(self.num_envs, np.float64)
        terms = np.zeros(self.num_envs, bool)
        self._steps += 1
        for i in range(self.num_envs):
            if self._ended[i]:
                self._start(i)
                continue
            if self.ram_spec:
                now = self._read(i)
                rewards[i] = self.ram_spec.reward(now, self._vars[i])
                terms[i] = self.ram_spec.done(now)
                self._vars[i] = now
        truncs = np.zeros(self.num_envs, bool)
        if self.max_episode_steps is not None:
            truncs = (self._steps >= self.max_episode_steps) & ~self._ended & ~terms
        truncs &= ~self._ended
        self._ended = terms | truncs
        self._return0 = 0.0 if self._steps[0] == 0 else self._return0 + rewards[0]
        self._show(self.frame_skip)
        return self._observe(), rewards, terms, truncs, {}

    def render(self):
        if self.render_mode == "rgb_array":
            return self.vec.picture()
        return None

    def close_extras(self, **kwargs):
        if self._window is not None:
            self._window.close()
