#!/usr/bin/env python3
"""Agent for tests/external/main.rs: plays legal moves but floods its standard
error (64 KiB per move), which must go to the log and never block the game."""
import sys

for line in sys.stdin:
    words = line.split()
    if words[:1] == ["hoyito"]:
        print("ready flood", flush=True)
    elif words[:1] == ["go"]:
        sys.stderr.write("x" * 65535 + "\n")
        sys.stderr.flush()
        print("move " + words[words.index("legal") + 1], flush=True)
