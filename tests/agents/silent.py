#!/usr/bin/env python3
"""Broken agent for tests/external/main.rs: shakes hands, then never answers
`go`."""
import sys

for line in sys.stdin:
    if line.startswith("hoyito"):
        print("ready silent", flush=True)
