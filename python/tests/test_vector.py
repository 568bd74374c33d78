"""hoyito.VectorGame: batched stepping, checked against hoyito.Game."""

import numpy as np
import pytest

import hoyito


def random_actions(mask, rng):
    """A uniformly random legal action per row of `mask`."""
    noise = rng.random(mask.shape) * mask
    return noise.argmax(axis=1).astype(np.int64)


def test_shapes_and_dtypes():
    """Masks are int8, as PettingZoo's and Gymnasium's: a row is a mask that
    Discrete.sample takes."""
    vg = hoyito.VectorGame(8, "ii", 6, seed=1)
    obs, mask = vg.reset()
    assert obs.shape == (8, 14) and obs.dtype == np.float32
    assert mask.shape == (8, 7) and mask.dtype == np.int8
    assert mask.tolist() == [[0, 1, 1, 1, 1, 1, 1]] * 8
    assert vg.observe_all()[1].dtype == np.int8
    assert len(vg) == 8 and vg.num_actions == 7 and vg.observation_size == 14
    obs, mask, rewards, terminated, truncated = vg.step(random_actions(mask, np.random.default_rng(0)))
    assert mask.dtype == np.int8 and set(np.unique(mask)) <= {0, 1}
    assert rewards.shape == (8, 2) and rewards.dtype == np.float32
    assert terminated.shape == truncated.shape == (8,)
    assert terminated.dtype == truncated.dtype == np.bool_


@pytest.mark.parametrize("variant,holes", [("i", 4), ("ii", 6), ("iii", 4), ("iii", 12)])
def test_each_game_follows_the_rules_of_the_engine(variant, holes):
    """Every step of every slot equals the same move played by hoyito.Game
    (masks, observations, positions); a finished game's rewards are its
    result and it restarts at once."""
    n, rng = 16, np.random.default_rng(7)
    vg = hoyito.VectorGame(n, variant, holes, seed=3)
    obs, mask = vg.reset()
    games = [hoyito.Game.from_notation(t, variant) for t in vg.notations()]
    finished = 0
    for _ in range(400):
        actions = random_actions(mask, rng)
        for g, m, o in zip(games, mask, obs):
            assert m.tolist() == g.action_mask().tolist()
            assert o.tolist() == g.observation().tolist()
        obs, mask, rewards, terminated, truncated = vg.step(actions)
        finals = vg.final_captures()
        for i, g in enumerate(games):
            g.play(int(actions[i]))
            if g.is_over():
                finished += 1
                assert terminated[i]
                assert rewards[i].tolist() == list(g.returns())
                assert tuple(finals[i]) == tuple(g.result()["scores"])
                games[i] = hoyito.Game.from_notation(vg.notations()[i], variant)
            else:
                assert not terminated[i] and rewards[i].tolist() == [0, 0]
                assert vg.notations()[i] == g.notation
        assert not truncated.any()
    assert finished > (20 if holes < 12 else 0)


def test_seeded_openings_are_reproducible_and_independent_of_threads():
    a = hoyito.VectorGame(64, "ii", 6, seed=5, opening_plies=6)
    b = hoyito.VectorGame(64, "ii", 6, seed=5, opening_plies=6, threads=2)
    c = hoyito.VectorGame(64, "ii", 6, seed=6, opening_plies=6)
    assert a.notations() == b.notations()
    assert a.notations() != c.notations()
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    _, mask_a = a.observe_all()
    _, mask_b = b.observe_all()
    for _ in range(300):
        out_a = a.step(random_actions(mask_a, rng_a))
        out_b = b.step(random_actions(mask_b, rng_b))
        for x, y in zip(out_a, out_b):
            assert np.array_equal(x, y)
        mask_a, mask_b = out_a[1], out_b[1]
    a.reset(seed=6)
    assert a.notations() == c.notations()


def test_illegal_actions_and_truncation():
    vg = hoyito.VectorGame(2, "ii", 6, seed=0)
    with pytest.raises(ValueError, match="game 1: action 0 is not legal"):
        vg.step(np.array([1, 0]))
    with pytest.raises(ValueError, match="1 actions for 2 games"):
        vg.step(np.array([1]))
    vg = hoyito.VectorGame(4, "ii", 6, seed=0, max_plies=3)
    rng = np.random.default_rng(0)
    _, mask = vg.reset()
    truncated_seen = False
    for _ in range(3):
        _, mask, _, terminated, truncated = vg.step(random_actions(mask, rng))
        truncated_seen |= truncated.any()
    assert truncated_seen


def test_actions_of_the_wrong_type_dtype_or_shape_raise_naming_them():
    """Actions must be a 1-D numpy array of integers: floats, 2-D arrays
    and lists raise a TypeError naming what was given; integers of another
    width, and strided views, are taken as they are."""
    vg = hoyito.VectorGame(2, "ii", 6, seed=0)
    with pytest.raises(TypeError, match="not an array of dtype float64 and shape \\[2\\]"):
        vg.step(np.array([1.0, 2.0]))
    with pytest.raises(TypeError, match="shape \\[1, 2\\]"):
        vg.step(np.array([[1, 2]]))
    with pytest.raises(TypeError, match="not a list"):
        vg.step([1, 2])
    other = hoyito.VectorGame(2, "ii", 6, seed=0)
    a = vg.step(np.array([1, 2], dtype=np.int32))
    b = other.step(np.array([1, 2], dtype=np.int64))
    assert all((x == y).all() for x, y in zip(a, b))
    assert vg.notations() == other.notations()
    # An int64 array is read as it is, not copied first: a strided view
    # (every other column of a 2-D array) is read through its strides.
    a = vg.step(np.array([[1, 9], [2, 9]], dtype=np.int64)[:, 0])
    b = other.step(np.array([1, 2], dtype=np.int64))
    assert all((x == y).all() for x, y in zip(a, b))
    assert vg.notations() == other.notations()


def test_openings_that_always_end_the_game_raise():
    """Stall rules under which every opening ends the game raise a
    ValueError naming the openings, instead of hanging the interpreter."""
    with pytest.raises(ValueError, match="openings of 20 random plies ended the game"):
        hoyito.VectorGame(3, "ii", 6, seed=1, opening_plies=20, repetitions=1)


@pytest.mark.parametrize("variant,holes", [("ii", 2), ("ii", 6), ("ii", 8), ("iii", 8), ("iii", 5), ("ii", 12), ("i", 6)])
def test_masks_are_the_engines_legal_moves(variant, holes):
    """The batch decides legality without the engine's sowing where it can
    (II and III up to 2x8); every mask of many random plies equals the
    engine's legal moves, on the boards either side of that limit."""
    n, rng = 512, np.random.default_rng(11)
    vg = hoyito.VectorGame(n, variant, holes, seed=4, opening_plies=4)
    _, mask = vg.observe_all()
    for _ in range(120):
        for text, m in zip(vg.notations(), mask):
            game = hoyito.Game.from_notation(text, variant)
            assert m.tolist() == game.action_mask().tolist(), text
        _, mask, _, _, _ = vg.step(random_actions(mask, rng))


def test_unknown_variants_and_empty_batches_raise():
    """A VectorGame of an unknown variant or of no games raises a
    ValueError naming the problem."""
    with pytest.raises(ValueError, match='unknown variant "iv": expected one of i, ii, iii'):
        hoyito.VectorGame(2, "iv", 6)
    with pytest.raises(ValueError, match="at least one game"):
        hoyito.VectorGame(0, "ii", 6)


def test_a_batch_larger_than_memory_raises_memory_error_before_allocating():
    """Under `ulimit -v`, VectorGame(10**8) raised no error: the allocator's
    failure aborted the interpreter (rc 134). The batch's estimate is now
    checked against the memory the process may use, before any allocation."""
    import resource
    import subprocess
    import sys

    code = (
        "import hoyito\n"
        "try:\n"
        "    hoyito.VectorGame(10**8, 'ii', 6)\n"
        "except MemoryError as e:\n"
        "    print('MemoryError:', e)\n"
    )

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (4_000_000_000, 4_000_000_000))

    done = subprocess.run([sys.executable, "-c", code], preexec_fn=limit, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "MemoryError: 100000000 games need about" in done.stdout
    assert "bytes a game" in done.stdout and "ulimit -v" in done.stdout
    with pytest.raises(MemoryError, match="use fewer games"):
        hoyito.VectorGame(10**15, "ii", 6)


def test_threads_beyond_the_clis_bound_are_refused():
    with pytest.raises(ValueError, match="threads = 1000000 is out of range"):
        hoyito.VectorGame(8, "ii", 6, threads=10**6)
