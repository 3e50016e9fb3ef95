"""PettingZoo environments for DOTS, the Spot demo cart, 2-4 players.

    env = nesmind.pettingzoo.spot_env(players=3)            # AEC: one seat moves at a time
    env = nesmind.pettingzoo.spot_parallel_env(players=2)   # parallel: every seat answers each step

By default (`backend="cart"`) the game is the DOTS cartridge running in the emulator
(`nesmind.SpotCart`): `reset` starts from the cart's title screen as power-on left it, with
every seat's slot set to HUMAN and animations off, sets the layout on the menu (one of the
cart's 32, drawn from the seed unless `layout` is given), waits a number of frames drawn
from the seed (the cart's RNG then draws the first mover and the third player's corner)
and presses Start. Each step enters the agent's move on the cart with that seat's pad, as
the Spot plug-in does (the hand walked cell by cell, A on the source, A on the
destination), and reads the board back from RAM through the cart's own definitions;
observations, masks and the game's end come from that board and the cart's game-over
screen. About 20 emulated frames a move, 20-330 a reset (170 on average). A player the cart passes (no
move) still gets its turn here, with PASS its only action.

`backend="rules"` plays the Spot crate's rules model instead (`nesmind.SpotGame`, which the
cart implements; hundreds of times faster, and any of the 512 built-in layouts): clone to a
neighbouring cell or jump two cells, capture the neighbours of the destination, pass when
stuck; the game ends when the board is full, one colour is left or nobody can move, and the
majority wins. On either backend games with no empty cell filled for 150 plies end as they
stand (truncated). The bonus game is left out.

Agents "player_0".."player_{n-1}" are the cart's slots 1-n (pads 1-n). Action: `from * 49 +
to` (a clone has from == to; cells are row * 7 + column) or 2401 = pass. Observation: a dict
of "observation", int8 (7, 7, players + 1) board planes from the agent's view (its pieces,
the others in turn order, blocked cells), and "action_mask", int8 (2402,), the legal
actions. Rewards come at the end: +1 the winner, -1 the others; in a draw 0 for the leaders.
In the parallel env only the seat to move acts; the others must pass (their mask says so).

An action the mask forbids raises by default (`illegal="raise"`). Agents that sample from
the whole action space (PettingZoo's seed tests, untrained policies) can choose instead:
`illegal="random"` plays a legal move drawn from the environment's seeded generator, and
`illegal="lose"` ends the game with -1 for the agent that tried it and 0 for the others.
Either way the agent's info says `"illegal_action": True` for that step.
"""

from typing import Dict, List, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import agent_selector

from . import _nesmind

ACTIONS = _nesmind.SPOT_ACTIONS
PASS = _nesmind.SPOT_PASS


def _spaces(players: int):
    obs = spaces.Dict({
        "observation": spaces.Box(0, 1, (7, 7, players + 1), np.int8),
        "action_mask": spaces.Box(0, 1, (ACTIONS,), np.int8),
    })
    return obs, spaces.Discrete(ACTIONS)


class _Game:
    """What both envs share: the game (cart or model), its seeding and the per-seat views."""

    def __init__(self, players: int, layout, backend: str, illegal: str = "raise"):
        if not 2 <= players <= 4:
            raise ValueError(f"DOTS has 2-4 players, not {players}")
        if backend not in ("cart", "rules"):
            raise ValueError(f"backend must be 'cart' or 'rules', not {backend!r}")
        if illegal not in ("raise", "random", "lose"):
            raise ValueError(f"illegal must be 'raise', 'random' or 'lose', not {illegal!r}")
        self.illegal = illegal
        self.lost_by: Optional[int] = None
        self.players = players
        self.layout = layout
        self.backend = backend
        self.possible_agents = [f"player_{i}" for i in range(players)]
        # The cart is powered on once; every reset starts from its title screen.
        self.cart = _nesmind.SpotCart(players, layout) if backend == "cart" else None
        self.game = None
        self.seed_rng = np.random.default_rng()
        # Apart from seed_rng, so that replacing illegal actions leaves the games drawn alone.
        self.fix_rng = np.random.default_rng()

    def new_game(self, seed: Optional[int]):
        if seed is not None:
            self.seed_rng = np.random.default_rng(seed)
            self.fix_rng = np.random.default_rng([seed, 1])
        self.lost_by = None
        draw = int(self.seed_rng.integers(2**63))
        if self.cart is not None:
            self.cart.reset(draw)
            self.game = self.cart
        else:
            self.game = _nesmind.SpotGame(self.players, self.layout, draw)

    def picture(self):
        if self.cart is None:
            raise ValueError("render_mode 'rgb_array' needs the cart backend")
        return self.cart.picture()

    def mask(self, seat: int, moving: bool) -> np.ndarray:
        m = np.zeros(ACTIONS, np.int8)
        if moving:
            m[self.game.legal_actions()] = 1
        elif not self.game.is_over:
            m[PASS] = 1
        return m

    def observe(self, seat: int) -> Dict[str, np.ndarray]:
        moving = seat == self.game.to_move and not self.ended()
        return {"observation": self.game.planes(seat), "action_mask": self.mask(seat, moving)}

    def play(self, seat: int, action: int) -> bool:
        """Plays `seat`'s action as `illegal` says; true when the action was illegal."""
        legal = self.game.legal_actions()
        if action in legal or self.illegal == "raise":
            self.game.play(action)
            return False
        if self.illegal == "random":
            self.game.play(int(legal[self.fix_rng.integers(len(legal))]))
        else:
            self.lost_by = seat
        return True

    def ended(self) -> bool:
        return self.lost_by is not None or self.game.is_over or self.game.is_stalled

    def over(self) -> bool:
        """Ended by the rules (or an illegal action), not cut short."""
        return self.lost_by is not None or self.game.is_over

    def final_rewards(self) -> List[float]:
        if self.lost_by is not None:
            return [-1.0 if s == self.lost_by else 0.0 for s in range(self.players)]
        return self.game.scores()


def _check_render(mode: Optional[str], backend: str):
    if mode not in (None, "ansi", "rgb_array"):
        raise ValueError(f"render_mode must be None, 'ansi' or 'rgb_array', not {mode!r}")
    if mode == "rgb_array" and backend != "cart":
        raise ValueError("render_mode 'rgb_array' needs the cart backend")


def _render(g: _Game, mode: Optional[str]):
    if mode == "rgb_array":
        return g.picture() if g.game is not None else None
    return repr(g.game) if g.game is not None else ""


class SpotAEC(AECEnv):
    """DOTS as an AEC environment (see the module documentation)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "name": "nesmind_spot_v0",
                "is_parallelizable": False}

    def __init__(self, players: int = 2, layout=None, render_mode: Optional[str] = None,
                 backend: str = "cart", illegal: str = "raise"):
        super().__init__()
        self._g = _Game(players, layout, backend, illegal)
        _check_render(render_mode, backend)
        self.possible_agents = list(self._g.possible_agents)
        obs, act = _spaces(players)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self.render_mode = render_mode

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        return self._g.observe(self.possible_agents.index(agent))

    def reset(self, seed=None, options=None):
        self._g.new_game(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._g.game.to_move]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        illegal = self._g.play(seat, int(action))
        self.infos = {a: {} for a in self.agents}
        if illegal:
            self.infos[agent]["illegal_action"] = True
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if self._g.ended():
            over = self._g.over()
            for a, r in zip(self.possible_agents, self._g.final_rewards()):
                self.rewards[a] = r
                self.terminations[a] = over
                self.truncations[a] = not over
        else:
            self.agent_selection = self.possible_agents[self._g.game.to_move]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self):
        return _render(self._g, self.render_mode)

    def close(self):
        pass


class SpotParallel(ParallelEnv):
    """DOTS as a parallel environment (see the module documentation)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "name": "nesmind_spot_parallel_v0"}

    def __init__(self, players: int = 2, layout=None, render_mode: Optional[str] = None,
                 backend: str = "cart", illegal: str = "raise"):
        self._g = _Game(players, layout, backend, illegal)
        _check_render(render_mode, backend)
        self.possible_agents = list(self._g.possible_agents)
        obs, act = _spaces(players)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self.render_mode = render_mode
        self.agents = []

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _observations(self):
        return {a: self._g.observe(i) for i, a in enumerate(self.possible_agents) if a in self.agents}

    def reset(self, seed=None, options=None):
        self._g.new_game(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions):
        seat = self._g.game.to_move
        mover = self.possible_agents[seat]
        if mover not in actions:
            raise ValueError(f"{mover} is to move but gave no action")
        illegal = self._g.play(seat, int(actions[mover]))
        done = self._g.ended()
        obs = self._observations()
        rewards = {a: 0.0 for a in self.agents}
        if done:
            rewards = dict(zip(self.possible_agents, self._g.final_rewards()))
        over = self._g.over()
        terms = {a: done and over for a in self.agents}
        truncs = {a: done and not over for a in self.agents}
        infos = {a: {} for a in self.agents}
        if illegal:
            infos[mover]["illegal_action"] = True
        if done:
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def render(self):
        return _render(self._g, self.render_mode)

    def close(self):
        pass


def spot_env(players: int = 2, layout=None, render_mode: Optional[str] = None,
             backend: str = "cart", illegal: str = "raise") -> SpotAEC:
    """The AEC environment, with PettingZoo's usual checks (order kept).

    backend: "cart" (default) plays the DOTS cart in the emulator, "rules" the rules model.
    layout: None for a random layout, else a built-in layout number (on the cart one of
    `nesmind.SpotCart.layouts()`; the rules model also takes 7 rows of '.'/'#' split by '/').
    render_mode: "ansi" (the board as text) or, on the cart, "rgb_array" (its picture).
    illegal: what an action the mask forbids does: "raise" (default), "random" (a random
    legal move instead) or "lose" (the game ends, -1 for that agent).
    """
    from pettingzoo.utils import wrappers
    env = SpotAEC(players, layout, render_mode, backend, illegal)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def spot_parallel_env(players: int = 2, layout=None, render_mode: Optional[str] = None,
                      backend: str = "cart", illegal: str = "raise") -> SpotParallel:
    """The parallel environment; the arguments are those of `spot_env`."""
    return SpotParallel(players, layout, render_mode, backend, illegal)
