#!/usr/bin/env python3
"""Broken agent for tests/external/main.rs: plays two moves, then crashes
mid-game."""
import sys

moves = 0
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["hoyito"]:
        print("ready crash", flush=True)
    elif words[:1] == ["go"]:
        if moves == 2:
            sys.exit(3)
        moves += 1
        print("move " + words[words.index("legal") + 1], flush=True)
