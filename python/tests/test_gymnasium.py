"""hoyito.gymnasium: Gymnasium's environment checker, play against agents,
and copies of an environment in play."""

import copy
import pickle

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


def play_out(env, seed):
    """Plays seeded random legal actions to the end of the episode and
    returns what every step gave."""
    rng = np.random.default_rng(seed)
    seen = []
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, reward, terminated, truncated, info = env.step(action)
        seen.append((obs.tolist(), reward, terminated, truncated, info["notation"]))
        done = terminated or truncated
    return seen


def mid_game(opponent):
    env = gymnasium.make("hoyito/Hoyito-v0", opponent=opponent, side="random")
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(8):
        env.step(int(rng.choice(np.flatnonzero(env.unwrapped.action_masks()))))
    return env


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_an_environment_pickled_mid_game_plays_on_as_the_original(opponent):
    """The copy has the game with its history, the opponent's generator where
    it stood and the environment's own generator: the same actions give the
    same steps, and the next unseeded reset the same side and opening."""
    env = mid_game(opponent)
    twin = pickle.loads(pickle.dumps(env))
    assert play_out(twin.unwrapped, 5) == play_out(env.unwrapped, 5)
    for _ in range(3):
        assert twin.reset()[1]["notation"] == env.reset()[1]["notation"]
        assert play_out(twin.unwrapped, 6) == play_out(env.unwrapped, 6)


def test_a_deep_copy_has_its_own_opponent():
    """A deep copy shared the original's opponent (the bound method of one
    native agent): a copy played on drew the random agent's numbers from
    under the original."""
    env = mid_game("random")
    reference = copy.deepcopy(env)
    other = copy.deepcopy(env)
    play_out(other.unwrapped, 9)
    assert play_out(env.unwrapped, 5) == play_out(reference.unwrapped, 5)


def module_level_opponent(game):
    return game.legal_moves()[0]


def test_an_environment_with_a_callable_opponent_pickles_if_the_callable_does():
    env = HoyitoEnv(opponent=module_level_opponent, side="north")
    env.reset(seed=1)
    twin = pickle.loads(pickle.dumps(env))
    assert play_out(twin, 2) == play_out(env, 2)
