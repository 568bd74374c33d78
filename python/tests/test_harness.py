"""hoyito.match and hoyito.run: the CLI's harness with Python agents."""

import csv
import os
import sys
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
        (lambda game: sys.exit(3), "forfeit-crash"),
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


def hoyito_bin():
    """The CLI built from this checkout (python/ci.sh builds it and names it
    in HOYITO_BIN)."""
    path = os.environ.get("HOYITO_BIN")
    if not path:
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        for profile in ("release", "debug"):
            candidate = os.path.join(root, "target", profile, "hoyito")
            if os.path.exists(candidate):
                path = candidate
                break
    if not path:
        pytest.skip("no hoyito binary: build it (cargo build) or set HOYITO_BIN")
    return path


def run_files(out):
    """Every file of a results directory but the run's own timings and
    lock, by relative path."""
    files = {}
    for base, _, names in os.walk(out):
        for name in names:
            path = os.path.join(base, name)
            rel = os.path.relpath(path, out)
            if rel in ("timings.csv", ".lock") or rel.startswith("agents"):
                continue
            with open(path, "rb") as f:
                data = f.read()
            if rel == "shard.toml":
                # The build that wrote it: the CLI and the package are two
                # builds, whose git state may differ by a dirty mark.
                data = b"".join(
                    line for line in data.splitlines(True) if not line.startswith(b"code = ")
                )
            files[rel] = data
    return files


IDENTITY_EXPERIMENT = """
name = "same-road"
seed = 21
games = 6
threads = 2
[rules]
variants = ["ii", "iii"]
holes = [4]
[tournament]
format = "round-robin"
agents = ["greedy", "random", "alphabeta-d4"]
"""


def test_the_cli_and_python_runs_of_one_experiment_write_the_same_bytes(tmp_path):
    """One session for every road: `hoyito run FILE` and `hoyito.run(FILE)`
    write byte-identical files (games, moves, metrics, experiment, summary,
    report, charts), whole and as one shard."""
    import subprocess

    config = tmp_path / "same.toml"
    config.write_text(IDENTITY_EXPERIMENT)
    cli, py = tmp_path / "cli", tmp_path / "py"
    subprocess.run([hoyito_bin(), "run", str(config), "--out", str(cli)], check=True,
                   capture_output=True)
    hoyito.run(str(config), out=str(py))
    cli_files, py_files = run_files(cli), run_files(py)
    assert {"games.csv", "moves.csv", "summary.json", "report.md", "report.html"} <= set(cli_files)
    assert sorted(py_files) == sorted(cli_files)
    for name in cli_files:
        assert py_files[name] == cli_files[name], name
    # One shard of the same run, by both roads.
    cli_shard, py_shard = tmp_path / "cli-shard", tmp_path / "py-shard"
    subprocess.run([hoyito_bin(), "run", str(config), "--shard", "2/3", "--out", str(cli_shard)],
                   check=True, capture_output=True)
    summary = hoyito.run(str(config), out=str(py_shard), shard="2/3")
    assert summary["shard"] == "2/3" and "games" not in summary
    assert run_files(py_shard) == run_files(cli_shard)
    assert not (py_shard / "summary.json").exists()


def test_a_python_run_shows_warnings_progress_and_the_settings_diff(tmp_path):
    config = tmp_path / "clocked.toml"
    config.write_text(textwrap.dedent("""
        name = "clocked"
        seed = 2
        games = 4
        [rules]
        variants = ["ii"]
        holes = [4]
        [roster.quick]
        kind = "alphabeta"
        time_ms = 5
        [tournament]
        format = "round-robin"
        agents = ["quick", "random"]
        """))
    seen = []
    out = tmp_path / "w"
    with pytest.warns(UserWarning, match="by the clock"):
        summary = hoyito.run(str(config), out=str(out), progress=lambda d, t: seen.append((d, t)))
    assert any("by the clock" in w for w in summary["warnings"])
    assert seen and seen[-1] == (4, 4) and all(t == 4 for _, t in seen)
    # The same directory with another seed: refused, naming what differs.
    config.write_text(config.read_text().replace("seed = 2", "seed = 3"))
    with pytest.raises(RuntimeError, match="holds a different experiment: seed is 2 there, 3 here"):
        hoyito.run(str(config), out=str(out))


def test_a_callable_that_never_returns_forfeits_on_time(tmp_path):
    """A callable that hung held a match for good; it forfeits after its
    move time (forfeit-timeout), as an external agent does."""
    import time

    def sleeper(game):
        time.sleep(10**6)

    start = time.monotonic()
    summary = hoyito.match(("sleeper", sleeper), "random", pairs=1, seed=1, threads=1,
                           out=str(tmp_path / "t"), move_timeout_ms=200)
    assert time.monotonic() - start < 30
    rows = games_rows(tmp_path / "t")
    assert [r["ending"] for r in rows] == ["forfeit-timeout"] * 2
    forfeits = summary["python_forfeits"]
    assert [f["reason"] for f in forfeits] == ["timeout"] * 2
    assert "within 200 ms" in forfeits[0]["detail"]


def test_ctrl_c_stops_a_match_whose_callable_hangs(tmp_path):
    """Two SIGINTs left a match with a hung callable running: now the first
    ends it (KeyboardInterrupt) within moments, and the games recorded stay
    resumable."""
    import signal
    import subprocess
    import sys
    import time

    code = (
        "import time, hoyito\n"
        "def sleeper(game):\n"
        "    time.sleep(10**6)\n"
        "try:\n"
        f"    hoyito.match(('sleeper', sleeper), 'random', pairs=2, seed=1, threads=1, out={str(tmp_path / 'h')!r})\n"
        "except KeyboardInterrupt as e:\n"
        "    print('stopped:', e, flush=True)\n"
    )
    # A shell that runs this suite in the background (`cmd &`) ignores
    # SIGINT, and Python started with SIGINT ignored never installs its
    # KeyboardInterrupt handler: the child gets the default disposition back.
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    time.sleep(3)
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=20)
    assert child.returncode == 0, out
    assert "stopped: interrupted: 0 of 4 games recorded" in out
    # The directory stays a run to resume.
    assert (tmp_path / "h" / "experiment.toml").exists()
    assert games_rows(tmp_path / "h") == []
