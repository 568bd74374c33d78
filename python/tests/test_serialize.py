"""Pickling and copying hoyito.Game and hoyito.Agent: a game keeps its
history through a round trip, so that undo and the stall rules go on as in
the original; an agent keeps its random generator; a corrupt state is
refused with a ValueError. Scenarios draw the board."""

import copy
import pickle
import random

import pytest

import hoyito

START_2X6 = "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0"
PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)


def random_game(seed, plies, **rules):
    """A game of `plies` seeded random moves (fewer if it ends first)."""
    rng = random.Random(seed)
    game = hoyito.Game(**rules)
    while game.plies < plies and not game.is_over():
        game.play(rng.choice(game.legal_moves()))
    return game


def replayed(moves, **rules):
    game = hoyito.Game(**rules)
    for mv in moves:
        game.play(mv)
    return game


class Tampered:
    """Pickles as a hoyito.Game whose state is `state`, as a corrupt or
    hand-edited pickle would."""

    def __init__(self, state):
        self.state = state

    def __reduce__(self):
        return (hoyito.Game, (), self.state)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_pickled_game_in_play_undoes_as_the_original(protocol):
    game = random_game(3, 60, variant="iii", holes=6, seeds=4)
    assert game.plies == 60 and game.captures != (0, 0) and not game.is_over()
    restored = pickle.loads(pickle.dumps(game, protocol))
    assert (restored.variant, restored.holes, restored.seeds) == ("iii", 6, 4)
    assert (restored.notation, restored.start, restored.moves) == (
        game.notation,
        game.start,
        game.moves,
    )
    while game.plies:
        assert restored.undo() == game.undo()
        assert restored.notation == game.notation
    assert restored.notation == START_2X6


def test_a_pickled_game_near_its_no_capture_limit_stalls_at_the_same_ply():
    """A seeded random II game on 2x6 under the default limit (200 plies
    without a capture) stalls at ply 250. Pickled five plies before, it
    stalls at the same ply with the same result, its leftover rule
    (own-side) kept; a game set up from its position alone, which has no
    history, plays on."""
    rules = dict(variant="ii", holes=6, seeds=4, leftover="own-side")
    original = random_game(1, 10_000, **rules)
    result = original.result()
    assert (result["ending"], result["plies"]) == ("no-capture-limit", 250)
    before = replayed(original.moves[:245], **rules)
    restored = pickle.loads(pickle.dumps(before))
    forgetful = hoyito.Game.from_notation(before.notation, "ii", leftover="own-side")
    for mv in original.moves[245:]:
        assert not restored.is_over()
        restored.play(mv)
        forgetful.play(mv)
    assert restored.result() == result
    assert not forgetful.is_over()


def test_a_pickled_game_stalls_by_repetition_at_the_same_ply():
    # Hoyito II on 2x2, one seed a hole. After 2,2,1,2,2,2,2,1,2 (no capture),
    #     N2  N1
    #    [0] [2]
    #    [1] [1]      North to move
    #     S1  S2
    # North's hole 1 makes 0,2/1,1 S (plies 6 and 8 made it too): its third
    # occurrence since the last capture stalls the game, in the copy too.
    # The position alone does not know it.
    game = replayed([2, 2, 1, 2, 2, 2, 2, 1, 2], variant="ii", holes=2, seeds=1)
    assert game.notation == "1,1/2,0 N 0-0"
    restored = pickle.loads(pickle.dumps(game))
    forgetful = hoyito.Game.from_notation(game.notation, "ii", seeds=1)
    for g in (game, restored, forgetful):
        g.play(1)
        assert g.notation == "0,2/1,1 S 0-0"
    expected = {"scores": (0, 0), "winner": None, "ending": "repetition", "plies": 10}
    assert game.result() == restored.result() == expected
    assert not forgetful.is_over()


def test_a_finished_game_and_a_game_from_notation_round_trip():
    finished = random_game(4, 10_000, variant="i", holes=4, seeds=4)
    assert finished.is_over()
    set_up = hoyito.Game.from_notation("1,0,6,0/4,3,2,1 N 16-0", "iii", repetitions=2)
    set_up.play(1)
    for game in (finished, set_up):
        restored = pickle.loads(pickle.dumps(game))
        assert restored.result() == game.result()
        assert (restored.start, restored.moves, restored.notation) == (
            game.start,
            game.moves,
            game.notation,
        )
        assert restored.__getstate__() == game.__getstate__()


def test_a_deep_copy_is_independent_and_keeps_the_history():
    game = random_game(2, 30, variant="ii", holes=6)
    notation, moves = game.notation, game.moves
    for dup in (copy.deepcopy(game), copy.copy(game), copy.deepcopy({"g": game})["g"]):
        dup.play(dup.legal_moves()[0])
        assert (game.notation, game.moves) == (notation, moves)
        dup.undo()
        assert dup.undo() == moves[-1]
        assert dup.moves == moves[:-1]
    shared = copy.deepcopy([game, game])
    assert shared[0] is shared[1]


CORRUPTIONS = [
    (lambda s: [s], "expected a dict, got list"),
    (lambda s: {**s, "format": 2}, "of format 2, this version reads format 1"),
    (lambda s: {k: v for k, v in s.items() if k != "moves"}, 'it has no "moves"'),
    (lambda s: {**s, "rules": "{"}, "its rules"),
    (lambda s: {**s, "rules": s["rules"].replace('"holes":6', '"holes":17')}, "board size 17"),
    (
        lambda s: {
            **s,
            "rules": s["rules"]
            .replace('"no_capture_limit":200', '"no_capture_limit":0')
            .replace('"repetitions":3', '"repetitions":0'),
        },
        "could go on forever",
    ),
    (lambda s: {**s, "start": "4,4/4,4 S 0-0"}, "its start has 2 holes a row, its rules 6"),
    (lambda s: {**s, "start": "not a position"}, "its start"),
    (lambda s: {**s, "moves": "123"}, "not a list of move numbers"),
    (lambda s: {**s, "moves": [300]}, "not a list of move numbers"),
    (lambda s: {**s, "moves": s["moves"] + [99]}, "move 99 at ply 20"),
    (lambda s: {**s, "moves": s["moves"] + [7]}, "illegal move 7 at ply 20"),
]


@pytest.mark.parametrize("corrupt,message", CORRUPTIONS)
def test_a_corrupt_state_is_refused_with_a_value_error(corrupt, message):
    state = random_game(5, 20, variant="ii", holes=6).__getstate__()
    bad = corrupt(state)
    refused = f"cannot restore a hoyito.Game from this state: .*{message}"
    with pytest.raises(ValueError, match=refused):
        pickle.loads(pickle.dumps(Tampered(bad)))
    target = hoyito.Game()
    with pytest.raises(ValueError, match=message):
        target.__setstate__(bad)
    assert (target.notation, target.plies) == (START_2X6, 0)


def agent_moves(agent, game):
    game = game.clone()
    while not game.is_over():
        game.play(agent.choose(game))
    return game.moves


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_a_pickled_agent_chooses_as_the_original(name):
    agent = hoyito.Agent(name, seed=5)
    game = hoyito.Game("ii", 6)
    for _ in range(10):
        game.play(agent.choose(game))
    pickled = pickle.loads(pickle.dumps(agent))
    deep = copy.deepcopy(agent)
    assert (pickled.name, pickled.spec) == (deep.name, deep.spec) == (agent.name, agent.spec)
    assert agent_moves(pickled, game) == agent_moves(deep, game) == agent_moves(agent, game)


def test_a_pickled_agent_keeps_its_generator_where_it_stood():
    """The random agent's copy goes on from the numbers already drawn, not
    from its seed again."""
    agent = hoyito.Agent("random", seed=5)
    game = hoyito.Game("ii", 6)
    for _ in range(10):
        game.play(agent.choose(game))
    pickled = pickle.loads(pickle.dumps(agent))
    assert agent_moves(pickled, game) != agent_moves(hoyito.Agent("random", seed=5), game)


def test_every_roster_agent_pickles_with_its_spec():
    for name in hoyito.roster():
        agent = hoyito.Agent(name)
        restored = pickle.loads(pickle.dumps(agent))
        assert (restored.name, restored.spec) == (name, agent.spec)


def test_a_corrupt_agent_state_is_refused_with_a_value_error():
    _, (state,) = hoyito.Agent("random").__reduce__()
    for bad, message in [
        ({**state, "format": 9}, "of format 9"),
        ({**state, "spec": '{"kind": "nobody"}'}, "its spec"),
        ({**state, "spec": '{"kind": "mcts", "iterations": 0}'}, "its spec"),
        ({**state, "rng": {**state["rng"], "seed": b"short"}}, "not 32 bytes"),
    ]:
        refused = f"cannot restore a hoyito.Agent from this state: .*{message}"
        with pytest.raises(ValueError, match=refused):
            hoyito.Agent._from_state(bad)
