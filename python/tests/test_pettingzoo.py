"""hoyito.pettingzoo: PettingZoo's own API and seed tests, its naming, and
copies of an environment in play."""

import copy
import pickle
import warnings

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

import hoyito  # noqa: E402
from hoyito import pettingzoo as hz  # noqa: E402


@pytest.mark.parametrize("variant,holes", [("i", 4), ("ii", 6), ("iii", 12)])
def test_api_test_passes(variant, holes):
    api_test(hz.env(variant=variant, holes=holes), num_cycles=300, verbose_progress=False)


def test_seed_test_passes():
    seed_test(lambda: hz.env(variant="ii", holes=6, opening_plies=4), num_cycles=300)


def test_ansi_render_draws_the_board():
    env = hz.env(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "North" in text and "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0" in text


def test_a_loop_plays_games_to_the_end_with_extra_moves():
    env = hoyito.pettingzoo.env(variant="iii", holes=6)
    env.reset(seed=3)
    rewards = {"player_0": 0.0, "player_1": 0.0}
    repeated = 0
    previous = None
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        rewards[agent] += reward
        if termination or truncation:
            action = None
        else:
            action = int(obs["action_mask"].nonzero()[0][0])
            repeated += agent == previous
        previous = agent
        env.step(action)
    assert rewards["player_0"] == -rewards["player_1"]
    assert repeated > 0  # a capture gave an extra move


def test_an_action_that_is_not_an_integer_is_refused():
    env = hz.env(variant="ii", holes=6)
    env.reset(seed=0)
    for action in (3.5, "3", True):
        with pytest.raises(TypeError, match="an action is an integer"):
            env.unwrapped.step(action)
    assert env.unwrapped.game.plies == 0


def test_agents_are_named_as_pettingzoo_asks_player_0_is_south():
    """api_test warned 'We recommend agents to be named in the format
    <descriptor>_<number>' of "south" and "north"."""
    env = hz.env(variant="ii", holes=6)
    env.reset(seed=0)
    assert env.possible_agents == ["player_0", "player_1"]
    assert env.agent_selection == "player_0"  # South moves first
    south = env.unwrapped.game.observation(0)
    assert env.observe("player_0")["observation"].tolist() == south.tolist()
    assert env.observe("player_1")["action_mask"].tolist() == [0] * 7
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(hz.env(variant="ii", holes=6), num_cycles=50, verbose_progress=False)
    assert not [w for w in caught if "player_0" in str(w.message)]


def play_out(env, rng):
    """Plays seeded random legal actions to the end of the episode and
    returns what every step showed."""
    seen = []
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        board, mask = obs["observation"].tolist(), obs["action_mask"].tolist()
        seen.append((agent, board, mask, reward, termination, truncation, str(info)))
        if termination or truncation:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    return seen


@pytest.mark.parametrize("duplicate", [lambda e: pickle.loads(pickle.dumps(e)), copy.deepcopy])
def test_an_environment_copied_mid_game_plays_on_as_the_original(duplicate):
    """The copy (pickled, as a vector environment's worker gets it, or deep)
    has the game with its history and the environment's generator: the same
    actions give the same steps to the end, and the next unseeded reset
    draws the same random opening."""
    env = hz.env(variant="iii", holes=6, opening_plies=4)
    env.reset(seed=7)
    rng = np.random.default_rng(1)
    for _ in range(30):
        obs, _, _, _, _ = env.last()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    twin = duplicate(env)
    assert twin.unwrapped.game is not env.unwrapped.game
    assert play_out(twin, np.random.default_rng(2)) == play_out(env, np.random.default_rng(2))
    env.reset()
    twin.reset()
    assert twin.unwrapped.game.notation == env.unwrapped.game.notation
    assert twin.unwrapped.game.plies == env.unwrapped.game.plies == 4
