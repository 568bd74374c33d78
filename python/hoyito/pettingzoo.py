"""Hoyito as a PettingZoo AEC environment.

``hoyito.pettingzoo.env(variant="ii", holes=6)`` returns the environment
wrapped as PettingZoo's classic games are (order enforcing, out-of-bounds and
illegal-move checks); ``raw_env`` is the bare one.

Agents ``"player_0"``, South, who moves first, and ``"player_1"``, North
(PettingZoo's naming, as its ``api_test`` asks). Actions ``0..holes``: 0 is
the pass, ``k`` the mover's hole ``k`` (RULES.md numbering). Observations
are ``{"observation", "action_mask"}``: the board from the observing
agent's side (its row, the other row, its captures, the other's; float32)
and the legal actions (int8; all zero when it is not the agent's turn). A
capture in II and III gives the mover another move, so the same agent may
act twice in a row. Rewards come at the end: +1 win, -1 loss, 0 draw. Games
that stall end as the rules say (``terminated``); ``max_plies`` (default
none) truncates. The environment pickles and deep-copies, mid-game too.
"""

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ._actions import action_index
from ._hoyito import Game

__all__ = ["env", "raw_env"]

# South (side 0) and North (side 1), by PettingZoo's names.
AGENTS = ("player_0", "player_1")


def env(**kwargs):
    """The environment with PettingZoo's standard wrappers for board games."""
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):
    """Hoyito for two agents, one ply per step."""

    metadata = {
        "render_modes": ["ansi", "human"],
        "name": "hoyito_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        variant="ii",
        holes=6,
        seeds=4,
        render_mode=None,
        opening_plies=0,
        max_plies=0,
    ):
        super().__init__()
        self._setup = dict(variant=variant, holes=holes, seeds=seeds)
        self.game = Game(**self._setup)
        self.holes = holes
        self.opening_plies = opening_plies
        self.max_plies = max_plies
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: expected one of ansi, human")
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        total = 2 * holes * seeds
        obs_len = 2 * holes + 2
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0, total, shape=(obs_len,), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(holes + 1,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(holes + 1) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.agents = []

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        side = AGENTS.index(agent)
        observation = self.game.observation(side)
        if self.game.to_move == side and not self.game.is_over():
            mask = self.game.action_mask()
        else:
            mask = np.zeros(self.holes + 1, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.game = Game(**self._setup)
        # A seeded random opening, again if it ends the game.
        while self.opening_plies:
            for _ in range(self.opening_plies):
                if self.game.is_over():
                    break
                legal = self.game.legal_moves()
                self.game.play(legal[int(self._rng.integers(len(legal)))])
            if not self.game.is_over():
                break
            self.game = Game(**self._setup)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = AGENTS[self.game.to_move]

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0.0
        self.game.play(action_index(action))
        self.rewards = {a: 0.0 for a in self.agents}
        if self.game.is_over():
            self.rewards = dict(zip(AGENTS, self.game.returns()))
            self.terminations = {a: True for a in self.agents}
            result = self.game.result()
            for a in self.agents:
                self.infos[a] = {"result": result}
        elif self.max_plies and self.game.plies >= self.max_plies:
            self.truncations = {a: True for a in self.agents}
        if not (self.game.is_over() or any(self.truncations.values())):
            self.agent_selection = AGENTS[self.game.to_move]
        else:
            # Both agents are told in turn: the other one acts (None) next.
            self.agent_selection = AGENTS[1 - AGENTS.index(agent)]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return None
        text = self.game.diagram() + "\n" + self.game.notation
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass
