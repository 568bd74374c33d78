"""hoyito.Game: the engine's game through Python. Scenarios draw the board."""

import copy
import os
import random
import subprocess

import numpy as np
import pytest

import hoyito

START_2X6 = "4,4,4,4,4,4/4,4,4,4,4,4 S 0-0"


def test_a_new_game_is_the_start_position():
    game = hoyito.Game("ii", holes=6, seeds=4)
    assert game.notation == START_2X6
    assert str(game) == START_2X6
    assert (game.variant, game.holes, game.seeds) == ("ii", 6, 4)
    assert game.to_move == 0
    assert game.captures == (0, 0)
    assert game.legal_moves() == [1, 2, 3, 4, 5, 6]
    assert not game.is_over()
    assert game.result() is None
    assert game.board == [4] * 12


def test_notation_reads_and_writes_back():
    text = "1,0,6,0/4,3,2,1 N 16-0"
    game = hoyito.Game.from_notation(text, variant="iii")
    assert game.notation == text
    assert game.to_move == 1
    assert game.captures == (16, 0)
    assert game.holes == 4


def test_rule_errors_raise_value_error_with_the_engines_message():
    with pytest.raises(ValueError, match="hole 7 is out of range"):
        hoyito.Game().play(7)
    with pytest.raises(ValueError, match="unknown"):
        hoyito.Game("iv")
    with pytest.raises(ValueError, match="board size 17 is out of range"):
        hoyito.Game(holes=17)
    with pytest.raises(ValueError, match="expected"):
        hoyito.Game.from_notation("4,4/4,4 X 0-0")
    with pytest.raises(ValueError, match="empty"):
        hoyito.Game.from_notation("0,4,4/4,4,4 S 0-0").play(1)
    with pytest.raises(ValueError, match="cannot pass"):
        hoyito.Game().play("pass")
    with pytest.raises(ValueError, match="no move to undo"):
        hoyito.Game().undo()


def test_a_casa_is_captured_and_the_mover_moves_again_in_iii():
    # 3,3/3,3, Hoyito III: South's hole 2 sows N1, N2 and S1; S1 makes four:
    #   N: [3][3]          N: [0][4] <- wait: N2 N1 drawn right to left
    #   S: [3][3]   ->  South captures S1's four and moves again, 4-0.
    game = hoyito.Game.from_notation("3,3/3,3 S 0-0", variant="iii")
    trace = game.play(2, trace=True)
    assert trace["captured"] == 4
    assert trace["extra_move"] is True
    assert trace["laps"] == 1
    kinds = [s["step"] for s in trace["steps"]]
    assert kinds[0] == "lap" and "capture" in kinds and "extra_move" in kinds
    capture = next(s for s in trace["steps"] if s["step"] == "capture")
    assert capture["name"] == "S1" and capture["kind"] == "casa"
    assert game.captures == (4, 0)
    assert game.to_move == 0


def test_trace_previews_without_playing():
    game = hoyito.Game()
    before = game.notation
    trace = game.trace(3)
    assert game.notation == before
    assert trace["move"] == 3 and trace["side"] == 0
    assert trace["steps"][0] == {
        "step": "lap",
        "hole": 2,
        "name": "S3",
        "seeds": 4,
        "text": "pick up 4 from S3 and sow",
    }


def test_undo_takes_back_moves_and_clone_is_independent():
    game = hoyito.Game("i", 6)
    positions = [game.notation]
    for _ in range(5):
        game.play(game.legal_moves()[0])
        positions.append(game.notation)
    other = game.clone()
    copied = copy.deepcopy(game)
    for expected in reversed(positions[:-1]):
        game.undo()
        assert game.notation == expected
    assert other.notation == positions[-1] == copied.notation
    assert other.plies == 5 and game.plies == 0


def test_a_game_plays_to_a_result():
    game = hoyito.Game("ii", 4)
    while not game.is_over():
        game.play(game.legal_moves()[-1])
    result = game.result()
    assert set(result) == {"scores", "winner", "ending", "plies"}
    assert result["plies"] == game.plies == len(game.moves)
    south, north = result["scores"]
    assert result["winner"] == (0 if south > north else 1 if north > south else None)
    assert game.legal_moves() == []
    r = game.returns()
    assert sum(r) == 0


def test_observation_and_mask_are_from_the_movers_side():
    game = hoyito.Game.from_notation("1,2,3/4,5,0 N 4-8")
    obs = game.observation()
    assert obs.dtype == np.float32
    assert obs.tolist() == [4, 5, 0, 1, 2, 3, 8, 4]
    assert game.observation(0).tolist() == [1, 2, 3, 4, 5, 0, 4, 8]
    # North's hole 2 relays forever (RULES.md: an endless sowing is not a
    # legal move), and hole 3 is empty: only hole 1 is legal.
    mask = game.action_mask()
    assert mask.dtype == np.int8 and mask.tolist() == [0, 1, 0, 0]
    with pytest.raises(ValueError, match="never ends"):
        game.play(2)


def test_forced_pass_is_move_zero():
    # North's row is empty: North passes.
    game = hoyito.Game.from_notation("1,2,3/0,0,0 N 0-0")
    assert game.legal_moves() == [hoyito.PASS] == [0]
    game.play("pass")
    assert game.moves == [0]


def test_tables_give_exact_values_and_agents_choose_legal_moves():
    tables = hoyito.Tables.build("ii", holes=4, seeds=1, max_seeds=8)
    game = hoyito.Game("ii", holes=4, seeds=1)
    value = tables.value(game)
    assert value is not None and -8 <= value <= 8
    # Perfect play keeps the value: the best child is worth minus it, or it
    # when the mover moves again.
    best = None
    for mv in game.legal_moves():
        child = game.clone()
        child.play(mv)
        gain = child.captures[0] - game.captures[0]
        v = tables.value(child)
        v = v if child.to_move == game.to_move else -v
        best = max(best if best is not None else -99, gain + v)
    assert best == value
    with pytest.raises(ValueError, match="these tables are for"):
        tables.value(hoyito.Game("iii", holes=4, seeds=1))
    agent = hoyito.Agent("greedy")
    assert agent.choose(game) in game.legal_moves()
    assert "greedy" in hoyito.roster()
    with pytest.raises(ValueError, match="no agent named"):
        hoyito.Agent("nobody-by-this-name")


def test_the_champion_chooses_a_move():
    game = hoyito.Game("ii", 6)
    agent = hoyito.Agent("champion")
    assert agent.choose(game) in game.legal_moves()


def test_a_move_on_a_finished_game_raises():
    game = hoyito.Game.from_notation("0,0,0,0,0,0/0,0,0,0,0,0 S 24-24")
    assert game.is_over()
    with pytest.raises(ValueError, match="the game is over: no move can be played"):
        game.play(1)


def _hoyito_binary():
    """The CLI that CI's `cargo test` built (or HOYITO_BIN), if any."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for path in (os.environ.get("HOYITO_BIN"), *(os.path.join(root, "target", p, "hoyito") for p in ("release", "debug"))):
        if path and os.access(path, os.X_OK):
            return path
    return None


def test_tables_opened_from_a_directory_that_hoyito_solve_wrote(tmp_path):
    """hoyito.Tables(path) maps the files of `hoyito solve --tables`: the
    values of a random game's positions equal the tables built in memory;
    a directory without them raises a ValueError naming it and the command
    that builds them."""
    binary = _hoyito_binary()
    if binary is None:
        pytest.skip("no hoyito binary (cargo build, or HOYITO_BIN) to write tables with")
    subprocess.run([binary, "solve", "--variant", "ii", "--holes", "4", "--max-seeds", "8",
                    "--tables", str(tmp_path / "tb")], check=True, capture_output=True)
    opened = hoyito.Tables(str(tmp_path / "tb"), "ii", holes=4, seeds=1)
    built = hoyito.Tables.build("ii", holes=4, seeds=1, max_seeds=8)
    assert opened.max_seeds == 8
    rng = random.Random(4)
    for _ in range(20):
        game = hoyito.Game("ii", holes=4, seeds=1)
        while not game.is_over():
            assert opened.value(game) == built.value(game) is not None
            game.play(rng.choice(game.legal_moves()))
    with pytest.raises(ValueError, match="no tables for Hoyito ii on 2x4 .* in .*nothing here.*hoyito solve"):
        hoyito.Tables(str(tmp_path / "nothing here"), "ii", holes=4, seeds=1)


def test_tables_that_cannot_be_built_say_why_without_naming_an_agent():
    """Tables.build said "tablebase agent: cannot build its tables..." with
    no reason; it names the tables and the cause."""
    with pytest.raises(ValueError) as err:
        hoyito.Tables.build("ii", holes=6, max_seeds=200)
    text = str(err.value)
    assert text.startswith("cannot build the tables of Hoyito II on 2x6 up to 48 seeds: ")
    assert "agent" not in text and "too many to solve in memory" in text
