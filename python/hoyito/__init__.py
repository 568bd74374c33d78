"""Hoyito I, II and III (Dominican mancala), played by the project's Rust engine.

The native module ``hoyito._hoyito`` wraps the engine; this package adds the
adapters, each a small pure-Python module imported on first use:

- ``hoyito.Game``: one game (moves are hole numbers ``1..n``, ``0`` = pass),
  notation both ways, sowing traces, undo, results;
- ``hoyito.VectorGame``: ``n`` games stepped at once in Rust, numpy in and out;
- ``hoyito.Tables``, ``hoyito.Agent``: exact values and the built-in agents;
- ``hoyito.match``, ``hoyito.run``: the experiment harness, with Python agents;
- ``hoyito.pettingzoo``, ``hoyito.gymnasium``, ``hoyito.openspiel``: the
  environments of those libraries.
"""

import importlib

from ._hoyito import PASS, Agent, Game, Tables, VectorGame, roster
from .harness import match, run

__all__ = [
    "PASS",
    "Agent",
    "Game",
    "Tables",
    "VectorGame",
    "match",
    "roster",
    "run",
]

_ADAPTERS = ("pettingzoo", "gymnasium", "openspiel")


def __getattr__(name):
    # `hoyito.pettingzoo.env(...)` works after a bare `import hoyito`, without
    # importing PettingZoo, Gymnasium or OpenSpiel until one is used.
    if name in _ADAPTERS:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'hoyito' has no attribute {name!r}")
