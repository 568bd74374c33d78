"""The Python API plays exactly as the engine: seeded random games played
move by move through ``hoyito.Game`` and by the engine's own loop in Rust
(``hoyito._hoyito.reference_games``), on the same stream of move choices,
give the same moves, captures after every ply, scores, winners and endings.

10,000 games per variant on 2x4, 2x6 and 2x12 (``HOYITO_EQUALITY_GAMES``
changes the count).
"""

import array
import os

import numpy as np
import pytest

import hoyito
from hoyito import _hoyito

GAMES = int(os.environ.get("HOYITO_EQUALITY_GAMES", "10000"))
SETTINGS = [(v, h) for v in ("i", "ii", "iii") for h in (4, 6, 12)]
WINNER = {0: 0, 1: 1, None: 2}


def play_in_python(variant, holes, games, choices):
    """Plays the games through the Python API; the same records as Rust's."""
    moves, south, north = array.array("B"), array.array("B"), array.array("B")
    plies, scores_s, scores_n, winners, endings = [], [], [], [], []
    k = 0
    for _ in range(games):
        game = hoyito.Game(variant, holes)
        play, legal_moves = game.play, game.legal_moves
        while not game.is_over():
            legal = legal_moves()
            mv = legal[choices[k] % len(legal)]
            k += 1
            play(mv)
            s, n = game.captures
            moves.append(mv)
            south.append(s)
            north.append(n)
        result = game.result()
        plies.append(result["plies"])
        scores_s.append(result["scores"][0])
        scores_n.append(result["scores"][1])
        winners.append(WINNER[result["winner"]])
        endings.append(result["ending"])
    return {
        "moves": np.frombuffer(moves, dtype=np.uint8),
        "south": np.frombuffer(south, dtype=np.uint8),
        "north": np.frombuffer(north, dtype=np.uint8),
        "plies": np.array(plies, dtype=np.uint32),
        "score_south": np.array(scores_s, dtype=np.uint8),
        "score_north": np.array(scores_n, dtype=np.uint8),
        "winner": np.array(winners, dtype=np.uint8),
        "ending": endings,
    }


@pytest.mark.parametrize("variant,holes", SETTINGS)
def test_python_api_plays_as_the_engine(variant, holes):
    seed = 1000 * holes + len(variant)
    # Enough choices for the longest games (a capture every 200 plies at worst).
    size = GAMES * 600
    stream = np.random.default_rng(seed).integers(0, 2**32, size=size, dtype=np.uint32)
    expected = _hoyito.reference_games(variant, holes, 4, GAMES, stream)
    got = play_in_python(variant, holes, GAMES, array.array("I", stream.tobytes()))
    assert len(got["moves"]) == len(expected["moves"]) == int(expected["plies"].sum())
    for key in ("moves", "south", "north"):
        diff = np.flatnonzero(got[key] != expected[key])
        assert diff.size == 0, f"{key} differ first at ply {diff[0]} of the batch"
    for key in ("plies", "score_south", "score_north", "winner"):
        diff = np.flatnonzero(got[key] != expected[key])
        assert diff.size == 0, f"{key} differ first in game {diff[0]}"
    assert got["ending"] == expected["ending"]
    # The games are real games: every ending rule occurs where it should.
    assert "normal" in got["ending"]
