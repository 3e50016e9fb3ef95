"""Many copies of one stable-retro integration as a Gymnasium vector env, stepped in Rust.

    import nesmind.retro as retro
    envs = retro.make_vec("SuperMarioBros-Nes-v0", 8, state="Level1-1")
    obs, infos = envs.reset(seed=0)
    obs, rewards, terminated, truncated, infos = envs.step(envs.action_space.sample())

stable-retro runs one emulator a process, so its vector envs are one process per env and
a pickled picture per step. Here the N machines live in this process (`nesmind.RetroVec`):
one call steps them all on a thread pool with the GIL released, evaluates the scenario's
reward, end and variables in Rust, and writes into arrays allocated once. Each env behaves
as `nesmind.retro.make(...)` with one player does (the same action decoding, observation
framing, rewards and ends); episodes restart the step after they end (Gymnasium's
next-step autoreset). `infos` holds each variable as an int64 array.
"""

from typing import Optional

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from . import _nesmind
from .retro import Actions, Observations, RetroEnv, State


class RetroVectorEnv(gymnasium.vector.VectorEnv):
    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, game: str, num_envs: int, state=State.DEFAULT,
                 threads: Optional[int] = None, **kwargs):
        if kwargs.get("players", 1) != 1:
            raise ValueError("make_vec runs one player per env (parallel_env runs two)")
        if kwargs.get("obs_type", Observations.IMAGE) not in (Observations.IMAGE, 0):
            raise ValueError("make_vec observes the picture (obs_type=RAM: use make)")
        # One env resolves the integration, state, scenario, ROM and spaces as make() does.
        self._one = RetroEnv(game, state=state, **kwargs)
        start = self._one.machine.clone()
        if self._one.initial_state is not None:
            start.load_state(self._one.initial_state)
        kind = self._one.use_restricted_actions
        self._kind = kind
        self._vec = _nesmind.RetroVec(self._one.game, start, num_envs,
                                      filtered=kind == Actions.FILTERED, threads=threads)
        self.num_envs = num_envs
        self.single_observation_space = spaces.Box(0, 255, self._vec.obs_shape, np.uint8)
        self.single_action_space = self._one.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.variables = self._vec.variables
        self._obs = np.zeros((num_envs,) + self._vec.obs_shape, np.uint8)
        self._rewards = np.zeros(num_envs, np.float32)
        self._dones = np.zeros(num_envs, bool)
        self._info = np.zeros((num_envs, len(self.variables)), np.int64)
        self._bits = 1 << np.arange(9, dtype=np.uint16)
        combos = self._one.button_combos
        if kind == Actions.DISCRETE:
            # Every index's mask, decoded as RetroEnv decodes it.
            self._table = np.array([self._one._masks(i)[0] for i in range(
                self.single_action_space.n)], np.uint16)
        elif kind == Actions.MULTI_DISCRETE:
            self._groups = [np.array(c, np.uint16) for c in combos]

    def _masks(self, actions) -> np.ndarray:
        a = np.asarray(actions)
        if self._kind == Actions.DISCRETE:
            return self._table[a.astype(np.int64).reshape(self.num_envs)]
        if self._kind == Actions.MULTI_DISCRETE:
            a = a.reshape(self.num_envs, len(self._groups)).astype(np.int64)
            out = np.zeros(self.num_envs, np.uint16)
            for g, table in enumerate(self._groups):
                out |= table[a[:, g]]
            return out
        a = a.reshape(self.num_envs, 9).astype(np.uint16)
        return (a * self._bits).sum(axis=1).astype(np.uint16)

    def _infos(self):
        return {name: self._info[:, i].copy() for i, name in enumerate(self.variables)}

    def reset(self, seed=None, options=None):
        super().reset(seed=seed, options=options)
        self._vec.reset(self._obs)
        self._info[:] = 0
        return self._obs.copy(), {}

    def step(self, actions):
        self._vec.step(self._masks(actions), self._obs, self._rewards, self._dones, self._info)
        truncated = np.zeros(self.num_envs, bool)
        return (self._obs.copy(), self._rewards.copy(), self._dones.copy(), truncated,
                self._infos())

    def close_extras(self, **kwargs):
        self._one.close()
