"""hoyito.match and hoyito.run: the CLI's harness with Python agents."""

import csv
import os
import textwrap

import pytest

import hoyito


def first_legal(game):
    return game.legal_moves()[0]


def lookahead(game):
    """One ply of look-ahead: the move that captures most now."""
    best, best_gain = None, -1
    for mv in game.legal_moves():
        child = game.clone()
        child.play(mv)
        gain = child.captures[game.to_move] - game.captures[game.to_move]
        if gain > best_gain:
            best, best_gain = mv, gain
    return best


def games_rows(out):
    with open(os.path.join(out, "games.csv"), newline="") as f:
        return list(csv.DictReader(f))


def test_a_python_agent_plays_a_roster_agent(tmp_path):
    out = tmp_path / "m"
    summary = hoyito.match(lookahead, "random", variant="ii", holes=6, pairs=10, seed=3, out=str(out))
    assert summary["games"] == 20
    assert summary["agents"] == ["lookahead", "random"]
    rows = games_rows(out)
    assert len(rows) == 20
    assert {r["south"] for r in rows} == {"lookahead", "random"}
    # Pairs swap seats and share their opening.
    assert rows[0]["south"] == rows[1]["north"] and rows[0]["opening"] == rows[1]["opening"]
    for name in ("report.md", "report.html", "summary.json", "experiment.toml", "moves.csv"):
        assert (out / name).exists(), name
    assert "python-agent:" in (out / "experiment.toml").read_text()
    # The same call again resumes a complete run: nothing to play, same summary.
    again = hoyito.match(lookahead, "random", variant="ii", holes=6, pairs=10, seed=3, out=str(out))
    assert again["games"] == 20
    assert games_rows(out) == rows


def test_a_python_agent_against_greedy_is_the_same_on_one_and_two_threads(tmp_path):
    """A Python callable plays a 200-pair match against greedy, and
    games.csv is the same byte for byte on 1 and 2 threads (the workers take
    turns at the GIL; the games and their order do not change)."""
    runs = {}
    for threads in (1, 2):
        out = tmp_path / f"t{threads}"
        summary = hoyito.match(lookahead, "greedy", pairs=200, seed=11, threads=threads, out=str(out))
        assert summary["games"] == 400
        assert summary["python_forfeits"] == []
        runs[threads] = (out / "games.csv").read_bytes()
    rows = list(csv.DictReader(runs[1].decode().splitlines()))
    assert len(rows) == 400 and {r["south"] for r in rows} == {"lookahead", "greedy"}
    assert runs[1] == runs[2]


def test_roster_games_equal_the_clis(tmp_path):
    """Two roster agents through hoyito.match play the CLI's games: the rows
    are the same whatever the thread count."""
    a = hoyito.match("greedy", "random", pairs=6, seed=9, out=str(tmp_path / "a"), threads=1)
    b = hoyito.match("greedy", "random", pairs=6, seed=9, out=str(tmp_path / "b"), threads=2)
    assert games_rows(tmp_path / "a") == games_rows(tmp_path / "b")
    assert a["settings"] == b["settings"]


@pytest.mark.parametrize(
    "agent,ending",
    [
        (lambda game: 1 / 0, "forfeit-crash"),
        (lambda game: 99, "forfeit-protocol"),
        (lambda game: 0, "forfeit-illegal"),
    ],
)
def test_a_faulty_python_agent_forfeits(tmp_path, agent, ending):
    summary = hoyito.match(("faulty", agent), "random", pairs=2, seed=1, out=str(tmp_path / "f"),
                           random_plies=0)
    rows = games_rows(tmp_path / "f")
    assert {r["ending"] for r in rows} == {ending}
    assert all(r["winner"] == ("N" if r["south"] == "faulty" else "S") for r in rows)
    forfeits = summary["python_forfeits"]
    assert len(forfeits) == 4 and all(f["agent"] == "faulty" for f in forfeits)
    assert forfeits[0]["reason"] == ending.split("-")[1]


def test_run_an_experiment_file_with_python_agents(tmp_path):
    config = tmp_path / "exp.toml"
    config.write_text(textwrap.dedent("""
        name = "py-exp"
        seed = 4
        games = 4
        [rules]
        variants = ["i", "iii"]
        holes = [4]
        [tournament]
        format = "round-robin"
        agents = ["first", "look", "greedy"]
        """))
    out = tmp_path / "run"
    summary = hoyito.run(str(config), agents={"first": first_legal, "look": lookahead}, out=str(out))
    rows = games_rows(out)
    # Three pairings, two settings, four games each.
    assert len(rows) == summary["games"] == 24
    assert {r["variant"] for r in rows} == {"i", "iii"}
    with pytest.raises(ValueError, match="does not play"):
        hoyito.run(str(config), agents={"stranger": first_legal}, out=str(tmp_path / "x"))
