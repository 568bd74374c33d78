#!/usr/bin/env python3
"""Runs another agent and writes the whole exchange to a file, for debugging
an agent (and for the example in agents/PROTOCOL.md):

    command = ["python3", "agents/examples/tee.py", "exchange.log", "python3", "agents/examples/greedy.py"]

Lines from the harness are written `> line`, lines from the agent `< line`.
Python standard library only.
"""
import subprocess
import sys
import threading


def main():
    log = open(sys.argv[1], "a", buffering=1)
    agent = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, bufsize=1)
    lock = threading.Lock()

    def answers():
        for line in agent.stdout:
            with lock:
                log.write("< " + line)
            sys.stdout.write(line)
            sys.stdout.flush()

    reader = threading.Thread(target=answers)
    reader.start()
    for line in sys.stdin:
        with lock:
            log.write("> " + line)
        agent.stdin.write(line)
        agent.stdin.flush()
    agent.stdin.close()
    reader.join()
    sys.exit(agent.wait())


if __name__ == "__main__":
    main()
