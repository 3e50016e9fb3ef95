"""stable-retro's NES integrations on nesmind, with stable-retro's calls.

    import nesmind.retro as retro          # instead of: import stable_retro as retro
    env = retro.make("SuperMarioBros-Nes-v0", state="Level1-1")
    obs, info = env.reset()
    obs, reward, terminated, truncated, info = env.step(env.action_space.sample())

`make` takes stable-retro's arguments (game, state, scenario, info, players, obs_type,
use_restricted_actions, inttype, render_mode, record) and gives an environment with its
observation shapes ((224, 240, 3) pictures, or the 10 KiB of RAM stable-retro shows), its
action spaces and button order, its `info` variables, rewards and episode ends, and the
same `get_ram()`, `em.get_state()/set_state()`, `data.lookup_value()/set_value()`.
Integrations are found where stable-retro keeps them (the installed package, or folders
given to `stable_retro.data.Integrations.add_custom_path`), in `$NESMIND_RETRO_DATA`, or at
`data=`; the ROM is the integration folder's `rom.nes` (where stable-retro's importer puts
it) or the one `nesmind retro import` stored.

Differences, on purpose or not yet:
- render_mode defaults to None (stable-retro opens a window unless told otherwise); "human"
  shows nesmind's SDL window at the game's speed.
- `em.get_state()` returns a nesmind savestate; `em.set_state()` and `state=` take those
  and stable-retro's own (FCEUmm) states, which load for every board nesmind runs (436 of
  the 438 states stable-retro ships: not yet MMC5 and Namco 163 games).
- Rewards and ends written in Lua (`script.lua`) run in an embedded Lua 5.1 as in
  stable-retro, except that a script's store into a game variable's name does not write
  RAM (no shipped script does it).
- `.bk2` movies play back (`Movie`, as stable-retro's playback script uses it) and are
  recorded (`record=`, `record_movie`, `stop_record`) as stable-retro records them, from
  the integration's own start state, so stable-retro plays them back; recording from a
  state only nesmind can read (a nesmind savestate) is refused.

Beyond stable-retro: `parallel_env(game, players=2)` is a PettingZoo parallel environment
with one agent per pad (`nesmind.retro_parallel`), and `make_vec(game, n)` a Gymnasium
vector env of n copies stepped together in Rust (`nesmind.retro_vec`).
"""

import enum
import os
from typing import Any, Dict, List, Optional

import gymnasium
import numpy as np
from gymnasium import spaces

from . import _nesmind
from .gym import _Window, _check_render_mode
from .retro_movie import BUTTONS, Bk2Writer, Movie

__all__ = ["Actions", "Movie", "Observations", "RetroEnv", "State", "make", "make_vec",
           "parallel_env"]


class State(enum.Enum):
    """DEFAULT: the integration's default state; NONE: power-on. Or a state's name."""

    DEFAULT = -1
    NONE = 0


class Observations(enum.Enum):
    IMAGE = 0
    RAM = 1


class Actions(enum.Enum):
    ALL = 0
    FILTERED = 1
    DISCRETE = 2
    MULTI_DISCRETE = 3


#: The pad bit (nesmind.BUTTONS) of each action index.
_PAD_BITS = [2, 0, 4, 8, 16, 32, 64, 128, 1]
#: The part of the 256x240 picture FCEUmm gives stable-retro: 8 columns off each side,
#: 8 lines off the top and bottom.
_TOP, _LEFT, _HEIGHT, _WIDTH = 8, 8, 224, 240
#: stable-retro's RAM observation: 2 KiB of CPU RAM, then 8 KiB at $6000-$7FFF.
_WRAM = 8192


def _enum(value, cls):
    """stable-retro's own enum members are taken by name."""
    if isinstance(value, cls):
        return value
    name = getattr(value, "name", None)
    if name in cls.__members__:
        return cls[name]
    raise ValueError(f"{value!r} is not a {cls.__name__} ({', '.join(cls.__members__)})")


def _custom_dirs(inttype) -> List[str]:
    """Absolute folders stable-retro would search for this `inttype` (custom paths)."""
    try:
        paths = list(inttype.paths)
    except Exception:
        return []
    return [p for p in paths if isinstance(p, str) and os.path.isabs(p)]


class _Emulator:
    """`env.em`: the machine under stable-retro's names."""

    def __init__(self, env: "RetroEnv"):
        self._env = env

    def get_state(self) -> bytes:
        return self._env.machine.save_state()

    def set_state(self, state: bytes) -> bool:
        self._env.machine.load_state(state)
        return True

    def get_screen(self) -> np.ndarray:
        return self._env._screen()

    def set_button_mask(self, mask, player: int = 0):
        self._env._press(player, sum(int(b) << i for i, b in enumerate(mask)))

    def step(self):
        self._env.machine.run_frames(1)


class _Data:
    """`env.data`: variables, rewards and ends under stable-retro's names."""

    def __init__(self, env: "RetroEnv"):
        self._env = env
        self._last = (0.0, False, {})

    def lookup_value(self, name: str) -> int:
        return self._env.game.lookup_value(name, self._env.machine)

    def set_value(self, name: str, value: int):
        self._env.game.set_value(name, int(value), self._env.machine)

    def lookup_all(self) -> Dict[str, int]:
        return {n: self.lookup_value(n) for n in self._env.game.variables}

    def valid_actions(self) -> List[List[int]]:
        return self._env.game.valid_actions()

    def filter_action(self, action: int) -> int:
        return self._env.game.filter_action(int(action))

    def crop_info(self, player: int = 0):
        return self._env.game.crop_info(player)

    def current_reward(self, player: int = 0) -> float:
        rewards = self._env._rewards
        return float(rewards[player]) if player < len(rewards) else 0.0

    def total_reward(self, player: int = 0) -> float:
        return self._env.game.total_reward(player)

    def is_done(self) -> bool:
        return self._env._done

    def __getitem__(self, name):
        return self.lookup_value(name)

    def __setitem__(self, name, value):
        self.set_value(name, value)


class RetroEnv(gymnasium.Env):
    """A stable-retro integration as a Gymnasium environment on a nesmind machine (see the
    module's documentation; `make` is the usual way in)."""

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 60}

    def __init__(self, game: str, state=State.DEFAULT, scenario: Optional[str] = None,
                 info: Optional[str] = None, use_restricted_actions=Actions.FILTERED,
                 record=False, players: int = 1, inttype=None, obs_type=Observations.IMAGE,
                 render_mode: Optional[str] = None, data: Optional[str] = None,
                 rom: Optional[str] = None):
        _check_render_mode(type(self), render_mode)
        if players not in (1, 2):
            raise ValueError(f"players={players}: an NES integration has 1 or 2")
        self.use_restricted_actions = _enum(use_restricted_actions, Actions)
        self._obs_type = _enum(obs_type, Observations)
        if data is None:
            data = next((os.path.join(d, game) for d in _custom_dirs(inttype)
                         if os.path.isdir(os.path.join(d, game))), None)
        self.game = _nesmind.RetroGame(game, data=data, scenario=scenario, info=info, rom=rom)
        if self.game.rom_path is None:
            raise _nesmind.RomError(
                f"no ROM for {game}: import yours with `nesmind retro import DIR` (or "
                f"stable-retro's importer), or pass rom=PATH")
        self.gamename = game
        self.players = players
        self.render_mode = render_mode
        self.buttons = list(BUTTONS)
        self.num_buttons = len(BUTTONS)
        self.multi_rewards = False
        with open(self.game.rom_path, "rb") as f:
            self.machine = _nesmind.Machine(f.read())
        self.statename = self._state_name(state)
        self.initial_state = (self.game.state_bytes(self.statename)
                              if self.statename else None)
        if self.statename and not self.statename.endswith(".state"):
            self.statename += ".state"
        self.em = _Emulator(self)
        self.data = _Data(self)
        self._rewards: List[float] = [0.0]
        self._done = False
        self.img = None
        self.ram = None
        # stable-retro runs one frame on power-on, before the first reset.
        self.machine.run_frames(1)

        self.button_combos = self.game.valid_actions()
        if self.use_restricted_actions == Actions.DISCRETE:
            combos = int(np.prod([len(c) for c in self.button_combos]))
            self.action_space = spaces.Discrete(combos ** players)
        elif self.use_restricted_actions == Actions.MULTI_DISCRETE:
            self.action_space = spaces.MultiDiscrete(
                [len(c) for c in self.button_combos] * players)
        else:
            self.action_space = spaces.MultiBinary(self.num_buttons * players)
        if self._obs_type == Observations.IMAGE:
            shape = self._screen().shape
        else:
            shape = (2048 + _WRAM,)
        self.observation_space = spaces.Box(low=0, high=255, shape=shape, dtype=np.uint8)
        self._window = _Window(f"nesmind: {game}") if render_mode == "human" else None
        # .bk2 recording, as stable-retro's: one movie per episode in `movie_path`.
        self.movie: Optional[Bk2Writer] = None
        self.movie_id = 0
        self.movie_path: Optional[str] = None
        if record is True:
            self.auto_record()
        elif record is not False:
            self.auto_record(record)

    def _state_name(self, state) -> Optional[str]:
        if state is None or isinstance(state, str):
            return state
        s = _enum(state, State)
        if s == State.NONE:
            return None
        return self.game.default_state

    # -- the machine --------------------------------------------------------------------

    def _press(self, player: int, mask: int):
        pad = 0
        for i, bit in enumerate(_PAD_BITS):
            if mask >> i & 1:
                pad |= bit
        self.machine.set_buttons(player, pad)

    def _screen(self, player: int = 0) -> np.ndarray:
        img = self.machine.picture()[_TOP:_TOP + _HEIGHT, _LEFT:_LEFT + _WIDTH]
        x, y, w, h = self.game.crop_info(player)
        w = img.shape[1] if not w or x + w > img.shape[1] else x + w
        h = img.shape[0] if not h or y + h > img.shape[0] else y + h
        return np.ascontiguousarray(img[y:h, x:w])

    def get_screen(self, player: int = 0, apply_rotation: bool = False) -> np.ndarray:
        return self._screen(player)

    def get_ram(self) -> np.ndarray:
        wram = np.zeros(_WRAM, np.uint8)
        prg = np.asarray(self.machine.prg_ram(), np.uint8)[:_WRAM]
        wram[:len(prg)] = prg
        return np.concatenate([np.asarray(self.machine.ram, np.uint8), wram])

    def _update_obs(self):
        if self._obs_type == Observations.RAM:
            self.ram = self.get_ram()
            return self.ram
        self.img = self._screen()
        return self.img

    def _evaluate(self) -> Dict[str, int]:
        rewards, done, info = self.game.update(self.machine)
        self._rewards, self._done = rewards, done
        return info

    # -- Gymnasium ----------------------------------------------------------------------

    def _masks(self, a) -> List[int]:
        """Each player's button mask (bit i: button i) as stable-retro decodes an action."""
        out = []
        for p in range(self.players):
            action = 0
            if self.use_restricted_actions == Actions.DISCRETE:
                a = int(a)
                for combo in self.button_combos:
                    action |= combo[a % len(combo)]
                    a //= len(combo)
            elif self.use_restricted_actions == Actions.MULTI_DISCRETE:
                # One entry per group and player (stable-retro slices 9 per player here,
                # and so fails for a second player).
                groups = len(self.button_combos)
                ap = a[groups * p:groups * (p + 1)]
                for i in range(len(ap)):
                    action |= self.button_combos[i][int(ap[i])]
            else:
                ap = a[self.num_buttons * p:self.num_buttons * (p + 1)]
                for i in range(len(ap)):
                    action |= int(ap[i]) << i
                if self.use_restricted_actions == Actions.FILTERED:
                    action = self.game.filter_action(action)
            out.append(action)
        return out

    def action_to_array(self, a) -> List[np.ndarray]:
        """Each player's buttons as stable-retro decodes an action, one 0/1 per button."""
        return [np.array([(m >> i) & 1 for i in range(self.num_buttons)], np.uint8)
                for m in self._masks(a)]

    def step(self, a):
        if self.img is None and self.ram is None:
            raise RuntimeError("Please call env.reset() before env.step()")
        masks = self._masks(a)
        for p, mask in enumerate(masks):
            self._press(p, mask)
        if self.movie is not None:
            self.movie.frame(masks)
        self.machine.run_frames(1)
        info = self._evaluate()
        ob = self._update_obs()
        if self.players > 1 and self.multi_rewards:
            reward = list(self._rewards) + [0.0] * (self.players - len(self._rewards))
        else:
            reward = float(self._rewards[0])
        if self._window is not None:
            self._window.show(self.machine, 1, f"{self.gamename}  reward {reward}")
        return ob, reward, bool(self._done), False, dict(info)

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        if self.initial_state is not None:
            self.machine.load_state(self.initial_state)
        for p in range(self.players):
            self.machine.set_buttons(p, 0)
        self.machine.run_frames(1)
        if self.movie_path is not None:
            name = os.path.splitext(os.path.basename(self.statename or "None"))[0]
            self.record_movie(os.path.join(
                self.movie_path, "%s-%s-%06d.bk2" % (self.gamename, name, self.movie_id)))
            self.movie_id += 1
        if self.movie is not None:
            self.movie.frame([0] * self.players)  # the reset's frame
        self.game.restart()
        self._evaluate()
        if self._window is not None:
            self._window.show(self.machine, 1, self.gamename)
        return self._update_obs(), {}

    def render(self):
        img = self.img if self.img is not None else self._screen()
        if self.render_mode == "rgb_array":
            return img
        if self.render_mode == "human" and self._window is not None:
            self._window.show(self.machine, 1, self.gamename)
        return None

    def get_action_meaning(self, act):
        meanings = [[self.buttons[i] for i in np.flatnonzero(ap)]
                    for ap in self.action_to_array(act)]
        return meanings[0] if self.players == 1 else meanings

    def set_value(self, name: str, val: int):
        self.data.set_value(name, val)

    def load_state(self, statename: str, inttype=None):
        """Makes `statename` (a state of this integration, or a path) the episodes' start."""
        self.initial_state = self.game.state_bytes(statename)
        self.statename = statename if statename.endswith(".state") else statename + ".state"

    # -- .bk2 recording, as stable-retro's --------------------------------------------

    def record_movie(self, path: str):
        """Records the input from here on into the `.bk2` at `path` (written when the next
        movie starts, `stop_record()` or `close()`), from the episodes' start state."""
        if self.movie is not None:
            self.movie.close()
        self.movie = Bk2Writer(path, self.gamename, self.players, self.initial_state)

    def auto_record(self, path: Optional[str] = None):
        """Records every episode from the next `reset()` into its own `.bk2` in `path`
        (default: the working folder), named GAME-STATE-NNNNNN.bk2."""
        self.movie_path = path or os.getcwd()

    def stop_record(self):
        self.movie_path = None
        self.movie_id = 0
        if self.movie is not None:
            self.movie.close()
            self.movie = None

    def close(self):
        self.stop_record()
        if self._window is not None:
            self._window.close()
            self._window = None


def make(game: str, state=State.DEFAULT, inttype=None, **kwargs) -> RetroEnv:
    """stable-retro's `make`: an environment for `game` starting from `state`."""
    return RetroEnv(game, state=state, inttype=inttype, **kwargs)


def parallel_env(game: str, state=State.DEFAULT, players: int = 2, inttype=None, **kwargs):
    """A PettingZoo parallel environment for `game` with one agent per pad ("player_0",
    "player_1"); see `nesmind.retro_parallel`. Needs the pettingzoo package."""
    from .retro_parallel import RetroParallelEnv
    return RetroParallelEnv(game, state=state, players=players, inttype=inttype, **kwargs)


def make_vec(game: str, num_envs: int, state=State.DEFAULT, inttype=None, threads=None,
             **kwargs):
    """A Gymnasium vector env of `num_envs` copies of `game`, stepped together in Rust with
    the GIL released (see `nesmind.retro_vec`)."""
    from .retro_vec import RetroVectorEnv
    return RetroVectorEnv(game, num_envs, state=state, inttype=inttype, threads=threads,
                          **kwargs)
