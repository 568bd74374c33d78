"""Hoyito as a single-agent Gymnasium environment: the learner against a
built-in agent (or any callable ``(Game) -> move``).

``hoyito.gymnasium.HoyitoEnv(opponent="greedy", variant="ii", holes=6)``;
also registered as ``"hoyito/Hoyito-v0"`` for ``gymnasium.make``.

Observations: the board from the learner's side (its row, the other row, its
captures, the other's; float32). Actions ``0..holes``: 0 is the pass, ``k``
the learner's hole ``k``. The legal actions are in ``info["action_mask"]``
and in ``action_masks()`` (the method MaskablePPO asks), int8 as
``action_space.sample(mask=...)`` wants them. An illegal action ends the
episode as a loss (``illegal="lose"``, the default) or raises
``ValueError`` (``illegal="raise"``). Rewards: +1 win, -1 loss, 0 draw, at
the end. The learner plays South, North, or either at random per episode
(``side="random"``, seeded by ``reset(seed=...)``).

The environment pickles and deep-copies, mid-episode too: the game with its
history, and a roster opponent with its random generator where it stands
(a callable opponent is pickled as pickle does any callable).
"""

import gymnasium
import numpy as np
from gymnasium import spaces

from ._actions import action_index
from ._hoyito import Agent, Game

__all__ = ["HoyitoEnv"]


class HoyitoEnv(gymnasium.Env):
    """The learner against one opponent, one learner move per step (the
    opponent's replies, and extra moves, are played inside ``step``)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        opponent="random",
        variant="ii",
        holes=6,
        seeds=4,
        side="random",
        illegal="lose",
        agents_dir=None,
        render_mode=None,
    ):
        super().__init__()
        if side not in ("south", "north", "random"):
            raise ValueError(f"side {side!r}: expected south, north or random")
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal {illegal!r}: expected lose or raise")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: expected ansi or human")
        self._setup = dict(variant=variant, holes=holes, seeds=seeds)
        self._opponent_spec = opponent
        self._agents_dir = agents_dir
        self._opponent = self._make_opponent(0)
        self.side = side
        self.illegal = illegal
        self.render_mode = render_mode
        self.holes = holes
        total = 2 * holes * seeds
        self.observation_space = spaces.Box(0, total, shape=(2 * holes + 2,), dtype=np.float32)
        self.action_space = spaces.Discrete(holes + 1)
        self.game = Game(**self._setup)
        self._me = 0

    def _make_opponent(self, seed):
        # The Agent itself is kept, not its bound `choose`: a copy of the
        # environment then copies the agent, generator and all, where a
        # copied bound method of a native object would share it.
        spec = self._opponent_spec
        if isinstance(spec, str):
            return Agent(spec, agents_dir=self._agents_dir, seed=seed)
        if callable(spec):
            return spec
        raise TypeError("opponent: expected a roster name or a callable (Game) -> move")

    def _opponent_move(self):
        if isinstance(self._opponent, Agent):
            return self._opponent.choose(self.game)
        return self._opponent(self.game)

    def action_masks(self):
        """The legal actions now (int8, length ``holes + 1``)."""
        if self.game.is_over():
            return np.zeros(self.holes + 1, dtype=np.int8)
        return self.game.action_mask()

    def _obs(self):
        return self.game.observation(self._me)

    def _info(self):
        info = {"action_mask": self.action_masks(), "notation": self.game.notation}
        if self.game.is_over():
            info["result"] = self.game.result()
        return info

    def _reward(self):
        return float(self.game.returns()[self._me])

    def _opponent_moves(self):
        while not self.game.is_over() and self.game.to_move != self._me:
            self.game.play(self._opponent_move())

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None and isinstance(self._opponent_spec, str):
            self._opponent = self._make_opponent(seed)
        self.game = Game(**self._setup)
        if self.side == "random":
            self._me = int(self.np_random.integers(2))
        else:
            self._me = 0 if self.side == "south" else 1
        self._opponent_moves()
        return self._obs(), self._info()

    def step(self, action):
        action = action_index(action)
        if action not in self.game.legal_moves():
            if self.illegal == "raise":
                self.game.play(action)  # raises ValueError with the engine's message
            info = self._info()
            info["illegal_action"] = action
            return self._obs(), -1.0, True, False, info
        self.game.play(action)
        self._opponent_moves()
        terminated = self.game.is_over()
        reward = self._reward() if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, terminated, False, self._info()

    def render(self):
        if self.render_mode is None:
            return None
        text = self.game.diagram() + "\n" + self.game.notation
        if self.render_mode == "human":
            print(text)
            return None
        return text


gymnasium.register(id="hoyito/Hoyito-v0", entry_point=HoyitoEnv)
