"""``hoyito.match`` and ``hoyito.run``: the experiment harness of the CLI
(``hoyito match``, ``hoyito run``) with Python agents.

An agent is a roster name (``"champion"``, a file of ``agents/``) or a Python
callable ``(Game) -> move``. The games, their pairs and seeds, the output
directory (``games.csv``, ``moves.csv``, ``metrics.csv``, ``report.md``,
``report.html``, ``summary.json``) and the statistics are the CLI's, byte
for byte: both run the library's one session (its checks, shards, settings
diff, warnings and report). The summary (``summary.json``) is returned as a
dict, with the run's warnings (also issued as ``UserWarning``). A Python agent that raises
forfeits the game (``forfeit-crash``), one that returns something that is not
a move forfeits with ``forfeit-protocol``, one that returns an illegal move
with ``forfeit-illegal``, and one that takes longer than ``move_timeout_ms``
(default 10 s) with ``forfeit-timeout``, as an external agent would. Ctrl-C
stops a run within a tenth of a second, even while a callable hangs.
"""

import json
import os
import re
import warnings as _warnings

from . import _hoyito

__all__ = ["match", "run"]


def _agent_name(agent, taken):
    """The name an agent plays under: a roster name as given, a callable by
    its ``__name__`` (made a valid agent name, and unique)."""
    if isinstance(agent, str):
        return agent
    if isinstance(agent, tuple) and len(agent) == 2 and isinstance(agent[0], str):
        return agent[0]
    base = getattr(agent, "__name__", None) or type(agent).__name__
    base = re.sub(r"[^A-Za-z0-9_.+-]", "_", base).lstrip(".-") or "python"
    name, k = base, 2
    while name in taken:
        name, k = f"{base}-{k}", k + 1
    return name


def _split(agents):
    """Python agents (name to callable) and aliases (name to roster name)."""
    python, aliases = {}, {}
    for name, agent in agents.items():
        if isinstance(agent, tuple):
            agent = agent[1]
        if isinstance(agent, str):
            if agent != name:
                aliases[name] = agent
        elif callable(agent):
            python[name] = agent
        else:
            raise TypeError(
                f"agent {name!r}: expected a roster name (str) or a callable (Game) -> move, "
                f"got {type(agent).__name__}"
            )
    return python, aliases


def _toml_str(text):
    return json.dumps(text)


def _finish(result, shard):
    out, summary_path, forfeits, warnings = result
    for warning in warnings:
        _warnings.warn(warning, UserWarning, stacklevel=3)
    if summary_path is None:
        # A shard has no report of its own: `hoyito merge` joins them.
        summary = {"shard": shard}
    else:
        with open(summary_path, encoding="utf-8") as f:
            summary = json.load(f)
    summary["out"] = os.fspath(out)
    summary["warnings"] = list(warnings)
    summary["python_forfeits"] = [
        {"game_id": g, "agent": a, "reason": r, "detail": d} for g, a, r, d in forfeits
    ]
    return summary


def match(
    agent_a,
    agent_b,
    variant="ii",
    holes=6,
    seeds=4,
    pairs=100,
    seed=1,
    threads=1,
    *,
    random_plies=None,
    out=None,
    force=False,
    agents_dir=None,
    record_moves=True,
    progress=None,
    move_timeout_ms=10_000,
):
    """Plays ``pairs`` seat-swapped pairs of games between two agents, as
    ``hoyito match A B --games 2*pairs``, and returns the summary dict.

    ``agent_a`` and ``agent_b`` are roster names or callables
    ``(Game) -> move`` (a ``(name, callable)`` tuple names a callable).
    ``random_plies`` sets the random opening (default: the harness's, 8);
    ``out`` is the results directory (default ``runs/A-vs-B``), resumed when
    it holds the same experiment and replaced with ``force=True``.
    ``progress(done, total)`` is called after each write of games. A
    callable that takes longer than ``move_timeout_ms`` for a move forfeits
    the game (``forfeit-timeout``), as an external agent does.
    """
    names = []
    for agent in (agent_a, agent_b):
        names.append(_agent_name(agent, names))
    if names[0] == names[1]:
        raise ValueError(f"a match needs two different agents, got {names[0]!r} twice")
    python, aliases = _split(dict(zip(names, (agent_a, agent_b))))
    exp_name = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{names[0]}-vs-{names[1]}").lstrip(".")
    lines = [
        f"name = {_toml_str(exp_name)}",
        f"seed = {int(seed)}",
        f"games = {2 * int(pairs)}",
        f"threads = {int(threads)}",
        "[rules]",
        f"variants = [{_toml_str(str(variant))}]",
        f"holes = [{int(holes)}]",
        f"seeds = {int(seeds)}",
    ]
    if random_plies is not None:
        lines += ["[openings]", f"random_plies = {int(random_plies)}"]
    lines += [
        "[tournament]",
        'format = "round-robin"',
        f"agents = [{_toml_str(names[0])}, {_toml_str(names[1])}]",
    ]
    if not record_moves:
        lines += ["[record]", "moves = false"]
    text = "\n".join(lines) + "\n"
    result = _hoyito.run_experiment(
        text, "hoyito.match", python, aliases, out, force, agents_dir, None, None, progress,
        move_timeout_ms,
    )
    return _finish(result, None)


def run(
    experiment,
    agents=None,
    *,
    out=None,
    force=False,
    agents_dir=None,
    threads=None,
    shard=None,
    progress=None,
    move_timeout_ms=10_000,
):
    """Runs an experiment file (``configs/*.toml``), as ``hoyito run FILE``,
    and returns the summary dict.

    ``agents`` maps agent names of the experiment's ``[tournament] agents``
    to callables ``(Game) -> move`` (Python agents) or to roster names (the
    name plays as that roster agent); the other names come from the
    experiment's ``[roster]`` or from ``agents_dir``. ``shard="K/N"`` plays
    one slice of the run, as ``hoyito run --shard K/N`` (default directory
    ``runs/NAME.shard-K-of-N``; ``hoyito merge`` joins the slices).
    ``progress(done, total)`` is called after each write of games. A
    callable that takes longer than ``move_timeout_ms`` for a move forfeits
    the game (``forfeit-timeout``).
    """
    path = os.fspath(experiment)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    python, aliases = _split(dict(agents or {}))
    result = _hoyito.run_experiment(
        text, path, python, aliases, out, force, agents_dir, threads, shard, progress,
        move_timeout_ms,
    )
    return _finish(result, shard)
