#!/usr/bin/env python3
"""Broken agent for tests/external/main.rs: answers `go` with a line that is
not the protocol."""
import sys

for line in sys.stdin:
    if line.startswith("hoyito"):
        print("ready garbage", flush=True)
    elif line.startswith("go"):
        print("I think hole three looks nice", flush=True)
