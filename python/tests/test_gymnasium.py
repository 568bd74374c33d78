"""hoyito.gymnasium: Gymnasium's environment checker, and play against agents."""

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402

from hoyito.gymnasium import HoyitoEnv  # noqa: E402


@pytest.mark.parametrize("opponent", ["random", "greedy", "alphabeta-d4"])
def test_check_env_passes(opponent):
    check_env(HoyitoEnv(opponent=opponent, variant="ii", holes=6), skip_render_check=True)


def test_an_episode_against_greedy_ends_with_the_games_result():
    env = gymnasium.make("hoyito/Hoyito-v0", opponent="greedy", side="north", render_mode="ansi")
    obs, info = env.reset(seed=2)
    done, reward = False, 0.0
    while not done:
        action = int(info["action_mask"].nonzero()[0][-1])
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    result = info["result"]
    expected = 0.0 if result["winner"] is None else (1.0 if result["winner"] == 1 else -1.0)
    assert reward == expected
    assert "North" in env.render()


def test_an_illegal_action_loses_or_raises():
    env = HoyitoEnv(side="south")
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(0)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, 0)
    env = HoyitoEnv(side="south", illegal="raise")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="cannot pass"):
        env.step(0)


def test_a_callable_opponent():
    env = HoyitoEnv(opponent=lambda game: game.legal_moves()[0], side="south")
    obs, info = env.reset(seed=1)
    assert obs.shape == (14,)


@pytest.mark.parametrize("action", [3.5, "3", True, 3.0])
def test_an_action_that_is_not_an_integer_is_refused(action):
    """As Gymnasium's Discrete: step(3.5), step('3') and step(True) raise
    instead of playing hole 3."""
    env = HoyitoEnv(side="south")
    env.reset(seed=0)
    with pytest.raises(TypeError, match="an action is an integer"):
        env.step(action)
    assert env.game.plies == 0


def test_numpy_integers_are_actions():
    import numpy as np

    for action in (np.int64(3), np.array(3, dtype=np.int32), np.uint8(3)):
        env = HoyitoEnv(side="south")
        env.reset(seed=0)
        env.step(action)
        assert env.game.plies >= 1


def test_the_action_mask_is_int8_as_discrete_sample_wants_it():
    """Discrete.sample(mask=...) asserts an int8 mask: the bool one failed."""
    env = HoyitoEnv(side="south")
    _, info = env.reset(seed=0)
    for mask in (info["action_mask"], env.action_masks()):
        assert mask.dtype == np.int8 and mask.tolist() == [0, 1, 1, 1, 1, 1, 1]
    env.action_space.seed(0)
    assert all(env.action_space.sample(mask=info["action_mask"]) in range(1, 7) for _ in range(20))
