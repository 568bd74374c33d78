#!/usr/bin/env python3
"""Agent for tests/external/misbehaving.rs (a stdout flood): answers `ready`
and its first `go`, then writes blocks of 64 KiB of newlines to its standard
output in a loop from a thread, while it goes on answering `go` with a legal
move.

With an argument FILE it keeps there the number of bytes it has written so far
(the test reads it to see whether the harness stopped reading)."""
import sys
import threading

count_file = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("hoyito-") else None
out = sys.stdout.buffer


def flood():
    block = b"\n" * 65536
    total = 0
    while True:
        try:
            out.write(block)
            out.flush()
        except (BrokenPipeError, ValueError, OSError):
            return
        total += len(block)
        if count_file:
            with open(count_file, "w") as f:
                f.write(str(total))


flooding = None
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["hoyito"]:
        print("ready stdout-flood", flush=True)
    elif words[:1] == ["go"]:
        try:
            print("move " + words[words.index("legal") + 1], flush=True)
        except (BrokenPipeError, OSError):
            break
        if flooding is None:
            flooding = threading.Thread(target=flood, daemon=True)
            flooding.start()
    elif words[:1] == ["quit"]:
        break
