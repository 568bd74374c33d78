#!/usr/bin/env python3
"""Agent for tests/external/misbehaving.rs (an exit with stdout held open): at
its first `go` it starts `sleep 300`, which inherits its standard output, and
exits with status 3 without answering. The harness must record the crash, not
wait for a move until its clock runs out."""
import subprocess
import sys

for line in sys.stdin:
    words = line.split()
    if words[:1] == ["hoyito"]:
        print("ready exit-holding-stdout", flush=True)
    elif words[:1] == ["go"]:
        subprocess.Popen(["sleep", "300"])
        sys.exit(3)
