#!/usr/bin/env python3
"""Broken agent for tests/external/main.rs: names a move that is not in the
legal list."""
import sys

for line in sys.stdin:
    words = line.split()
    if words[:1] == ["hoyito"]:
        print("ready illegal", flush=True)
    elif words[:1] == ["go"]:
        legal = words[words.index("legal") + 1:]
        wrong = next(str(h) for h in range(1, 17) if str(h) not in legal)
        print("move " + wrong, flush=True)
