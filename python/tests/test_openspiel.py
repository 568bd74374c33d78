"""hoyito.openspiel: OpenSpiel's random-simulation test (with states
serialized), its MCTS bot, serialized and copied states, and the game
length bound.

Skipped where the open_spiel package does not install (it has wheels for
Linux and macOS on CPython 3.9 to 3.12 only).
"""

import copy
import pickle
import random

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (no wheel for this platform or Python)"
)

import hoyito  # noqa: E402
import hoyito.openspiel  # noqa: E402,F401  (registers python_hoyito)


@pytest.mark.parametrize("variant,holes", [("i", 4), ("ii", 6), ("iii", 6), ("ii", 12)])
def test_random_sim_test_passes(variant, holes):
    game = pyspiel.load_game("python_hoyito", {"variant": variant, "holes": holes, "seeds": 4})
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)


def test_mcts_bot_and_evaluation_run_on_hoyito():
    import numpy as np
    from open_spiel.python.algorithms import evaluate_bots, mcts

    game = pyspiel.load_game("python_hoyito", {"variant": "ii", "holes": 4, "seeds": 2})
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=1.4, max_simulations=50, evaluator=evaluator, random_state=rng)
    random_bot = pyspiel.make_uniform_random_bot(1, 0)
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), [bot, random_bot], rng)
    assert sum(returns) == 0
    state = game.new_initial_state()
    assert state.legal_actions() == [1, 2, 3, 4]
    assert game.num_distinct_actions() == 5
    state.apply_action(2)
    clone = state.clone()
    assert str(clone) == str(state)
    assert game.observation_tensor_size() == 10 if hasattr(game, "observation_tensor_size") else True


def test_a_state_near_its_no_capture_limit_serializes_and_copies_with_its_history():
    """A seeded random II game on 2x6 stalls at ply 250, 200 plies after its
    last capture. Its state five plies before, serialized and deserialized,
    pickled, deep-copied or cloned, stalls at the same ply with the same
    returns: the stall rules' history came along."""
    rng = random.Random(1)
    reference = hoyito.Game("ii", 6, 4)
    while not reference.is_over():
        reference.play(rng.choice(reference.legal_moves()))
    assert (reference.result()["ending"], reference.plies) == ("no-capture-limit", 250)
    game = pyspiel.load_game("python_hoyito", {"variant": "ii", "holes": 6, "seeds": 4})
    state = game.new_initial_state()
    for mv in reference.moves[:245]:
        state.apply_action(mv)
    copies = [
        game.deserialize_state(state.serialize()),
        pickle.loads(pickle.dumps(state)),
        copy.deepcopy(state),
        state.clone(),
    ]
    for other in copies:
        assert other.history() == state.history()
        assert str(other) == str(state)
        for mv in reference.moves[245:]:
            assert not other.is_terminal()
            other.apply_action(mv)
        assert other.is_terminal()
        assert other.returns() == list(reference.returns())
        assert len(other.history()) == 250
    assert not state.is_terminal()
    assert pickle.loads(pickle.dumps(game)).max_game_length() == game.max_game_length()


@pytest.mark.parametrize(
    "holes,seeds,length", [(6, 4, 2_200), (12, 4, 4_600), (4, 1, 200), (2, 1, 200)]
)
def test_max_game_length_is_the_stall_rules_bound(holes, seeds, length):
    """By hand, for 2x6 with 4 seeds a hole: 48 seeds; a capture takes four
    or more, and the game ends at the first capture that leaves four or
    fewer, so at most 10 captures are followed by more play (48 - 40 = 8),
    which makes 11 stretches between captures, each at most 200 plies (the
    no-capture limit): 2,200. On 2x12, 96 seeds: 23 stretches, 4,600. On
    2x4 and 2x2 with one seed a hole (8 and 4 seeds), the first capture
    ends the game: one stretch, 200. The bound was (captures + 1) x
    (limit + 1), 2,613 on 2x6: valid, but 413 plies above the longest game
    that the rules allow."""
    for variant in ("i", "ii", "iii"):
        params = {"variant": variant, "holes": holes, "seeds": seeds}
        game = pyspiel.load_game("python_hoyito", params)
        assert game.max_game_length() == length


def test_random_games_stay_within_max_game_length():
    rng = random.Random(8)
    for variant, holes in (("i", 6), ("ii", 6), ("iii", 12)):
        game = pyspiel.load_game("python_hoyito", {"variant": variant, "holes": holes, "seeds": 4})
        for _ in range(30):
            state = game.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            assert len(state.history()) <= game.max_game_length()
