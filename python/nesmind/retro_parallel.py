"""A stable-retro integration as a PettingZoo parallel environment: one agent per pad.

    import nesmind.retro as retro
    env = retro.parallel_env("Pong-Nes", players=2)
    observations, infos = env.reset(seed=0)
    while env.agents:
        actions = {a: env.action_space(a).sample() for a in env.agents}
        observations, rewards, terminations, truncations, infos = env.step(actions)

stable-retro plays two pads through one Gymnasium env whose action concatenates both
players' and whose reward is a list (`multi_rewards`); multi-agent libraries want one agent
per player instead (stable-retro's open request #277). Here "player_0" and "player_1" are
pads 1 and 2. Each agent's action space is one player's share of stable-retro's (MultiBinary
of the 9 buttons, Discrete button combinations, or MultiDiscrete groups, as
`use_restricted_actions` says); its observation is the picture cut to that player's `crop`
(the scenario's `crops`), or the RAM; its reward is the scenario's reward for that player
(stable-retro's `data.current_reward(player)`), and the episode ends for both at once, when
the scenario's done condition holds, or is truncated after `max_episode_steps` steps. Every
agent's info holds the integration's variables.

The steps are those of `RetroEnv(players=2)`: the joint action built from the agents' is
decoded by the same code, so a parallel step and a stable-retro step with the concatenated
action press the same buttons.
"""

from typing import Dict, Optional

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from .retro import Actions, Observations, RetroEnv, State


class RetroParallelEnv(ParallelEnv):
    metadata = {"name": "nesmind_retro_parallel_v0", "render_modes": ["human", "rgb_array"],
                "is_parallelizable": True, "render_fps": 60}

    def __init__(self, game: str, state=State.DEFAULT, players: int = 2,
                 max_episode_steps: Optional[int] = None, **kwargs):
        if players != 2:
            raise ValueError(f"players={players}: the parallel env is for the NES's 2 pads")
        if max_episode_steps is not None and max_episode_steps < 1:
            raise ValueError(f"max_episode_steps={max_episode_steps}: at least 1")
        self.env = RetroEnv(game, state=state, players=players, **kwargs)
        self.env.multi_rewards = True
        self.render_mode = self.env.render_mode
        self.max_episode_steps = max_episode_steps
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self.agents = []
        self._steps = 0
        kind = self.env.use_restricted_actions
        groups = [len(c) for c in self.env.button_combos]
        if kind == Actions.DISCRETE:
            self._combos = int(np.prod(groups))
            one = lambda: spaces.Discrete(self._combos)  # noqa: E731
        elif kind == Actions.MULTI_DISCRETE:
            one = lambda: spaces.MultiDiscrete(groups)  # noqa: E731
        else:
            one = lambda: spaces.MultiBinary(self.env.num_buttons)  # noqa: E731
        self._action_spaces = {a: one() for a in self.possible_agents}
        self._observation_spaces = {
            a: spaces.Box(0, 255, self._observe(p).shape, np.uint8)
            for p, a in enumerate(self.possible_agents)
        }

    def observation_space(self, agent: str):
        return self._observation_spaces[agent]

    def action_space(self, agent: str):
        return self._action_spaces[agent]

    def _observe(self, player: int) -> np.ndarray:
        if self.env._obs_type == Observations.RAM:
            return self.env.get_ram()
        return self.env._screen(player)

    def _joint(self, actions: Dict[str, object]):
        """stable-retro's action for both pads from each agent's."""
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise KeyError(f"no action for {', '.join(missing)}")
        each = [actions[a] for a in self.possible_agents]
        if self.env.use_restricted_actions == Actions.DISCRETE:
            # stable-retro reads player 0's combination from the low digits.
            return int(each[0]) + self._combos * int(each[1])
        return np.concatenate([np.asarray(a).reshape(-1) for a in each])

    def reset(self, seed=None, options=None):
        self.env.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        self._steps = 0
        info = self.env.data.lookup_all()
        observations = {a: self._observe(p) for p, a in enumerate(self.agents)}
        return observations, {a: dict(info) for a in self.agents}

    def step(self, actions):
        if not self.agents:
            raise RuntimeError("the episode has ended: call reset()")
        _, rewards, done, _, info = self.env.step(self._joint(actions))
        self._steps += 1
        truncated = (self.max_episode_steps is not None
                     and self._steps >= self.max_episode_steps and not done)
        agents = self.agents
        observations = {a: self._observe(p) for p, a in enumerate(agents)}
        out_rewards = {a: float(rewards[p]) for p, a in enumerate(agents)}
        terminations = {a: bool(done) for a in agents}
        truncations = {a: bool(truncated) for a in agents}
        infos = {a: dict(info) for a in agents}
        if done or truncated:
            self.agents = []
        return observations, out_rewards, terminations, truncations, infos

    def render(self):
        return self.env.render()

    def close(self):
        self.env.close()
