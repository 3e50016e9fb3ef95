"""PettingZoo environments for DOTS, the Spot demo cart, 2-4 players.

    env = nesmind.pettingzoo.spot_env(players=3)            # AEC: one seat moves at a time
    env = nesmind.pettingzoo.spot_parallel_env(players=2)   # parallel: every seat answers each step

The rules are the Spot crate's model, which the cart implements (its README): clone to a
neighbouring cell or jump two cells, capture the neighbours of the destination, pass when
stuck; the game ends when the board is full, one colour is left or nobody can move, and the
majority wins. Games with no empty cell filled for 150 plies end as they stand (truncated).
The bonus game is left out.

Agents "player_0".."player_{n-1}" are the cart's slots 1-n. Action: `from * 49 + to` (a
clone has from == to; cells are row * 7 + column) or 2401 = pass. Observation: a dict of
"observation", int8 (7, 7, players + 1) board planes from the agent's view (its pieces, the
others in turn order, blocked cells), and "action_mask", int8 (2402,), the legal actions.
Rewards come at the end: +1 the winner, -1 the others; in a draw 0 for the leaders.
In the parallel env only the seat to move acts; the others must pass (their mask says so).
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
    """What both envs share: the model game, its seeding and the per-seat views."""

    def __init__(self, players: int, layout):
        if not 2 <= players <= 4:
            raise ValueError(f"DOTS has 2-4 players, not {players}")
        self.players = players
        self.layout = layout
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.game = None
        self.seed_rng = np.random.default_rng()

    def new_game(self, seed: Optional[int]):
        if seed is not None:
            self.seed_rng = np.random.default_rng(seed)
        self.game = _nesmind.SpotGame(self.players, self.layout, int(self.seed_rng.integers(2**63)))

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

    def ended(self) -> bool:
        return self.game.is_over or self.game.is_stalled

    def final_rewards(self) -> List[float]:
        return self.game.scores()


class SpotAEC(AECEnv):
    """DOTS as an AEC environment (see the module documentation)."""

    metadata = {"render_modes": ["ansi"], "name": "nesmind_spot_v0", "is_parallelizable": False}

    def __init__(self, players: int = 2, layout=None, render_mode: Optional[str] = None):
        super().__init__()
        self._g = _Game(players, layout)
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
        self._g.game.play(int(action))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if self._g.ended():
            for a, r in zip(self.possible_agents, self._g.final_rewards()):
                self.rewards[a] = r
                self.terminations[a] = self._g.game.is_over
                self.truncations[a] = not self._g.game.is_over
        else:
            self.agent_selection = self.possible_agents[self._g.game.to_move]
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            print(self.render())

    def render(self):
        return repr(self._g.game) if self._g.game is not None else ""

    def close(self):
        pass


class SpotParallel(ParallelEnv):
    """DOTS as a parallel environment (see the module documentation)."""

    metadata = {"render_modes": ["ansi"], "name": "nesmind_spot_parallel_v0"}

    def __init__(self, players: int = 2, layout=None, render_mode: Optional[str] = None):
        self._g = _Game(players, layout)
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
        mover = self.possible_agents[self._g.game.to_move]
        if mover in actions:
            self._g.game.play(int(actions[mover]))
        else:
            raise ValueError(f"{mover} is to move but gave no action")
        done = self._g.ended()
        obs = self._observations()
        rewards = {a: 0.0 for a in self.agents}
        if done:
            rewards = dict(zip(self.possible_agents, self._g.final_rewards()))
        over = self._g.game.is_over
        terms = {a: done and over for a in self.agents}
        truncs = {a: done and not over for a in self.agents}
        infos = {a: {} for a in self.agents}
        if done:
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def render(self):
        return repr(self._g.game) if self._g.game is not None else ""

    def close(self):
        pass


def spot_env(players: int = 2, layout=None, render_mode: Optional[str] = None) -> SpotAEC:
    """The AEC environment, with PettingZoo's usual checks (illegal moves raise, order kept)."""
    from pettingzoo.utils import wrappers
    env = SpotAEC(players, layout, render_mode)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


def spot_parallel_env(players: int = 2, layout=None, render_mode: Optional[str] = None) -> SpotParallel:
    """The parallel environment."""
    return SpotParallel(players, layout, render_mode)
