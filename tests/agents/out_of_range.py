#!/usr/bin/env python3
"""Broken agent for tests/external/main.rs: names hole 99, a move no board
has (agents/PROTOCOL.md: a move not in the legal list is forfeit-illegal,
not a protocol fault)."""
import sys

for line in sys.stdin:
    words = line.split()
    if words[:1] == ["hoyito"]:
        print("ready out-of-range", flush=True)
    elif words[:1] == ["go"]:
        print("move 99", flush=True)
