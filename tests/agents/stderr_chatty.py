#!/usr/bin/env python3
"""Agent for tests/external/misbehaving.rs (the capped stderr log): writes 1
MiB to its standard error at every `go`, then answers with the first legal
move."""
import sys

chunk = "e" * (1 << 20)
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["hoyito"]:
        print("ready stderr-chatty", flush=True)
    elif words[:1] == ["go"]:
        sys.stderr.write(chunk)
        sys.stderr.flush()
        print("move " + words[words.index("legal") + 1], flush=True)
    elif words[:1] == ["quit"]:
        break
