"""Hoyito as an OpenSpiel game: ``"python_hoyito"``, registered with
``pyspiel.register_game`` when this module is imported.

``pyspiel.load_game("python_hoyito", {"variant": "iii", "holes": 6, "seeds":
4})``. The state wraps the Rust engine's game (``hoyito.Game``); OpenSpiel's
algorithms (the MCTS bot, evaluation, random simulation) run on it.
Actions ``0..holes``: 0 is the pass, ``k`` the mover's hole ``k``; player 0
is South (moves first). Terminal rewards +1, -1 or 0. ``max_game_length``
is the longest game that the stall rules allow (``hoyito._length``): at most
``(total seeds - 1) // 4`` stretches between captures, each at most
``no_capture_limit`` (200) plies; 2,200 on 2x6 and 4,600 on 2x12 with 4
seeds a hole.

States serialize (``state.serialize()``, ``game.deserialize_state``),
pickle and deep-copy as OpenSpiel's Python games do, through their
attributes: the ``hoyito.Game`` pickles with its moves, which are replayed
on load, so the stall rules go on as before.
"""

import numpy as np
import pyspiel

from ._hoyito import Game
from ._length import max_plies

__all__ = ["HoyitoGame", "HoyitoState"]

_DEFAULTS = {"variant": "ii", "holes": 6, "seeds": 4}
_NO_CAPTURE_LIMIT = 200

_GAME_TYPE = pyspiel.GameType(
    short_name="python_hoyito",
    long_name="Python Hoyito (Rust engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(_DEFAULTS),
)


def _game_info(holes, seeds):
    return pyspiel.GameInfo(
        num_distinct_actions=holes + 1,
        max_chance_outcomes=0,
        num_players=2,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=max_plies(2 * holes * seeds, _NO_CAPTURE_LIMIT),
    )


class HoyitoGame(pyspiel.Game):
    """Hoyito I, II or III on ``2 x holes``."""

    def __init__(self, params=None):
        params = {**_DEFAULTS, **(params or {})}
        self.variant = str(params["variant"])
        self.holes = int(params["holes"])
        self.seeds = int(params["seeds"])
        self._new_game()  # checks the parameters
        super().__init__(_GAME_TYPE, _game_info(self.holes, self.seeds), params)

    def _new_game(self):
        # The limit given here is the one that max_game_length assumes.
        return Game(self.variant, self.holes, self.seeds, no_capture_limit=_NO_CAPTURE_LIMIT)

    def new_initial_state(self):
        return HoyitoState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return BoardObserver(self.holes, params)


class HoyitoState(pyspiel.State):
    """A position and its history, held by the engine."""

    def __init__(self, game):
        super().__init__(game)
        self.game = game._new_game()

    def current_player(self):
        if self.game.is_over():
            return pyspiel.PlayerId.TERMINAL
        return self.game.to_move

    def _legal_actions(self, player):
        return sorted(self.game.legal_moves())

    def _apply_action(self, action):
        self.game.play(int(action))

    def _action_to_string(self, player, action):
        return "pass" if action == 0 else str(action)

    def is_terminal(self):
        return self.game.is_over()

    def returns(self):
        return list(self.game.returns())

    def __str__(self):
        return self.game.notation


class BoardObserver:
    """The board from a player's side, as ``hoyito.Game.observation``."""

    def __init__(self, holes, params):
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.tensor = np.zeros(2 * holes + 2, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state, player):
        self.tensor[:] = state.game.observation(player)

    def string_from(self, state, player):
        return state.game.notation


pyspiel.register_game(_GAME_TYPE, HoyitoGame)
