"""The longest game that the stall rules allow (hoyito._length, OpenSpiel's
max_game_length): against every game of small boards, against random games,
and by hand."""

import random

import pytest

import hoyito
from hoyito._length import max_plies


def longest_game(variant, holes, seeds, limit):
    """The most plies of any game from the start (every move sequence
    followed to its end), and how many games there are."""
    longest, games = 0, 0
    stack = [hoyito.Game(variant, holes, seeds, no_capture_limit=limit)]
    while stack:
        game = stack.pop()
        if game.is_over():
            longest, games = max(longest, game.plies), games + 1
            continue
        for mv in game.legal_moves():
            child = game.clone()
            child.play(mv)
            stack.append(child)
    return longest, games


@pytest.mark.parametrize(
    "variant,holes,seeds,limit,longest",
    [
        # The bound reached:
        ("ii", 2, 1, 5, 5),
        ("ii", 3, 2, 4, 8),
        ("iii", 4, 2, 3, 9),
        ("ii", 4, 2, 5, 15),
        ("iii", 3, 4, 3, 15),
        ("ii", 6, 2, 2, 10),
        ("iii", 6, 2, 3, 15),
        # Short of it (bounds 12 and 15):
        ("ii", 5, 2, 3, 10),
        ("i", 4, 3, 3, 7),
    ],
)
def test_no_game_of_a_small_board_outlasts_the_bound(variant, holes, seeds, limit, longest):
    """Every game of these boards from the start, under a small no-capture
    limit: the longest is never above the bound, and most reach it."""
    found, games = longest_game(variant, holes, seeds, limit)
    assert games > 1
    assert found == longest
    bound = max_plies(2 * holes * seeds, limit)
    assert longest <= bound
    short = (variant, holes) in (("ii", 5), ("i", 4))
    assert (longest < bound) == short


@pytest.mark.parametrize(
    "variant,holes,limit",
    [("i", 6, 10), ("ii", 6, 10), ("iii", 6, 30), ("ii", 12, 10), ("iii", 12, 200)],
)
def test_random_games_stay_within_the_bound(variant, holes, limit):
    rng = random.Random(holes * limit)
    bound = max_plies(2 * holes * 4, limit)
    stalled = 0
    for _ in range(100):
        game = hoyito.Game(variant, holes, 4, no_capture_limit=limit)
        while not game.is_over():
            game.play(rng.choice(game.legal_moves()))
        assert game.plies <= bound
        stalled += game.result()["ending"] == "no-capture-limit"
    assert stalled > 0


def test_the_bound_by_hand():
    # 48 seeds: 10 captures can be followed by play (48 - 40 = 8 left), the
    # 11th leaves 4 and ends the game: 11 stretches of at most 200 plies.
    assert max_plies(48, 200) == 11 * 200 == 2_200
    assert max_plies(96, 200) == 23 * 200 == 4_600
    # Up to 8 seeds the first capture ends the game (none may come at all):
    # one stretch. 9 seeds: a capture leaves 5, and play goes on.
    assert [max_plies(seeds, 7) for seeds in (1, 4, 5, 8, 9, 12, 13)] == [7, 7, 7, 7, 14, 14, 21]
    with pytest.raises(ValueError, match="no useful bound"):
        max_plies(48, 0)
