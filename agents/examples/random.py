#!/usr/bin/env python3
"""A uniformly random Hoyito agent over the hoyito process protocol, version 1.

Python standard library only. Its choices come from the per-game seed that the
harness sends in `newgame ... seed=N`, so a tournament that seats it is
reproducible. See agents/PROTOCOL.md.
"""
import random
import sys


def legal_moves(words):
    """The moves after `legal` in a `go` line, without the budget words."""
    moves = words[words.index("legal") + 1:]
    return [m for m in moves if "=" not in m]


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "hoyito":
            print("ready py-random", flush=True)
        elif words[0] == "newgame":
            for word in words[5:]:
                key, _, value = word.partition("=")
                if key == "seed":
                    rng = random.Random(int(value))
        elif words[0] == "go":
            print("move " + rng.choice(legal_moves(words)), flush=True)
        elif words[0] == "quit":
            return
        # moved, gameover and unknown messages: nothing to do.


if __name__ == "__main__":
    main()
