#!/usr/bin/env python3
"""Agent for tests/external/misbehaving.rs (no helper outlives a run): at its
first `go` it starts two helpers, `sleep 300` in its own process group and
`sleep 300` in a new session (`start_new_session=True`), and writes the three
process ids to PIDFILE (`agent PID`, `group PID`, `session PID`). Then, with
MODE `play`, it answers every `go` with the first legal move; with MODE
`silent` it never answers.

Usage: helpers.py PIDFILE MODE [MARK]"""
import os
import subprocess
import sys

pid_file, mode = sys.argv[1], sys.argv[2]
helpers = []
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["hoyito"]:
        print("ready helpers", flush=True)
    elif words[:1] == ["go"]:
        if not helpers:
            helpers.append(subprocess.Popen(["sleep", "300"]))
            helpers.append(subprocess.Popen(["sleep", "300"], start_new_session=True))
            with open(pid_file, "a") as f:
                f.write("agent %d\ngroup %d\nsession %d\n"
                        % (os.getpid(), helpers[0].pid, helpers[1].pid))
        if mode == "play":
            print("move " + words[words.index("legal") + 1], flush=True)
    elif words[:1] == ["quit"]:
        break
