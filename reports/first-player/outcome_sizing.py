#!/usr/bin/env python3
"""How the cost of proving a 2x12 outcome grows towards the start.

Takes the most frequent game of a variant in a champion study (its games.csv
and moves.csv), and asks `hoyito solve --start --outcome --after MOVES` at
positions along it, from late in the game back towards the start, each
within a budget of seconds. Writes one CSV row per position: the ply, the
status (proved, bounds or open), the outcome, the nodes and seconds, and the
root's proof and disproof numbers where open. Stops a variant after two
positions in a row run out of budget.

Run from the repository root, with a release build:
  python3 reports/first-player/outcome_sizing.py OUT.csv STUDY_DIR VARIANT... \
      [--step 2] [--seconds 90] [--memory 1024] [--from PLY]
"""
import argparse
import collections
import csv
import json
import os
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("study")
    ap.add_argument("variants", nargs="+")
    ap.add_argument("--step", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=90)
    ap.add_argument("--memory", type=int, default=1024)
    ap.add_argument("--from", dest="start_ply", type=int, default=None)
    ap.add_argument("--bin", default=os.environ.get("HOYITO", "target/release/hoyito"))
    a = ap.parse_args()
    games = list(csv.DictReader(open(os.path.join(a.study, "games.csv"))))
    moves = {r["game_id"]: r["moves"].split() for r in csv.DictReader(open(os.path.join(a.study, "moves.csv")))}
    fresh = not os.path.exists(a.out)
    out = open(a.out, "a", newline="")
    w = csv.writer(out)
    if fresh:
        w.writerow(["variant", "holes", "game_id", "game_count", "ply", "after", "status",
                    "outcome", "nodes", "seconds", "pn", "dn"])
    for variant in a.variants:
        mine = [g for g in games if g["variant"] == variant]
        counts = collections.Counter(g["moves_hash"] for g in mine)
        top_hash, count = counts.most_common(1)[0]
        game = next(g for g in mine if g["moves_hash"] == top_hash)
        line = moves[game["game_id"]]
        holes = game["holes"]
        ply = a.start_ply if a.start_ply is not None else len(line) - 1
        over_budget = 0
        while ply >= 0 and over_budget < 2:
            after = line[:ply]
            with tempfile.TemporaryDirectory() as tmp:
                js = os.path.join(tmp, "o.json")
                cmd = [a.bin, "solve", "--start", "--outcome", "--variant", variant,
                       "--holes", holes, "--memory", str(a.memory),
                       "--max-seconds", str(a.seconds), "--json", js]
                if after:
                    cmd += ["--after", ",".join(after)]
                r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                if r.returncode != 0:
                    sys.exit(f"{' '.join(cmd)} failed: {r.stderr[-2000:]}")
                d = json.load(open(js))
            op = d.get("open") or {}
            w.writerow([variant, holes, game["game_id"], count, ply, " ".join(after), d["status"],
                        d["outcome"] or "", d["nodes"], d["seconds"], op.get("pn", ""), op.get("dn", "")])
            out.flush()
            print(variant, ply, d["status"], d["outcome"], d["nodes"], d["seconds"], file=sys.stderr)
            over_budget = over_budget + 1 if d["status"] != "proved" else 0
            ply -= a.step


if __name__ == "__main__":
    main()
