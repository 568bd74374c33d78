"""Plies per second: hoyito.VectorGame against the engine's own random
self-play on each variant and board, and a PettingZoo AEC loop against
PettingZoo's connect_four_v3.

    python python/bench.py [--hoyito target/release/hoyito] [--batch 4096] [--repeat 5]
                           [--variants i,ii,iii] [--holes 6,12]

Each repeat measures, for each variant and board in turn, the Rust rates and
then VectorGame's, one after the other, and the ratios are taken within a
repeat: on a noisy machine their median over several repeats says more than
any one run.

- Rust: `hoyito bench --variants V --holes H --games N` (one core): the floor
  (a bare loop over positions) and the harness (games.csv rows).
- VectorGame: a batch of random games of that variant and board stepped on
  one thread (the GIL released), the learner's random legal actions drawn
  with numpy from the masks, after --warm-up untimed steps (every game
  starts at the start position at once; a learner's batch has long left
  it). Counted twice: the whole loop (numpy included), and inside `step`.
- AEC: the same loop (`env.last()`, a random legal action from the mask,
  `env.step`) over hoyito.pettingzoo and connect_four_v3, steps per second.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

import numpy as np

# Run as `python python/bench.py`, Python puts this folder first on the
# path, where `hoyito/` is the package's source without its compiled engine
# (`pip install ./python` installs both elsewhere): import the installed one.
if sys.path and os.path.abspath(sys.path[0] or ".") == os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]

import hoyito  # noqa: E402


def rust_rates(binary, variant, holes, games):
    if not os.path.exists(binary):
        return None
    out = subprocess.run(
        [binary, "bench", "--variants", variant, "--holes", str(holes), "--games", str(games),
         "--threads", "1", "--repeat", "1"],
        capture_output=True, text=True, check=True,
    ).stdout
    for line in out.splitlines():
        m = re.match(rf"\s*{variant}\s+2x{holes}\s+(\d+)\s+(\d+)", line)
        if m:
            return int(m.group(1)), int(m.group(2))
    raise RuntimeError(f"cannot read hoyito bench's output:\n{out}")


def vector_rate(batch, steps, variant="ii", holes=6, warm_up=0, threads=1):
    vg = hoyito.VectorGame(batch, variant, holes, seed=1, threads=threads)
    rng = np.random.default_rng(0)
    _, mask = vg.reset()
    for _ in range(warm_up):
        actions = (rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1)
        _, mask, _, _, _ = vg.step(actions)
    in_step = 0.0
    begun = time.perf_counter()
    for _ in range(steps):
        actions = (rng.random(mask.shape, dtype=np.float32) * mask).argmax(axis=1)
        t = time.perf_counter()
        _, mask, _, _, _ = vg.step(actions)
        in_step += time.perf_counter() - t
    total = time.perf_counter() - begun
    plies = batch * steps
    return plies / total, plies / in_step


def aec_rate(env, steps, seed=0):
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    done = 0
    begun = time.perf_counter()
    while done < steps:
        for agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(len(legal))])
            env.step(action)
            done += 1
            if done >= steps:
                break
        env.reset()
    return done / (time.perf_counter() - begun)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--hoyito", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "hoyito"))
    p.add_argument("--games", type=int, default=20000)
    p.add_argument("--batch", type=int, default=4096)
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--warm-up", type=int, default=400)
    p.add_argument("--variants", default="i,ii,iii")
    p.add_argument("--holes", default="6,12")
    p.add_argument("--aec-steps", type=int, default=100000)
    p.add_argument("--repeat", type=int, default=1)
    args = p.parse_args()
    boards = [(v, int(h)) for h in args.holes.split(",") for v in args.variants.split(",")]

    rows = {board: [] for board in boards}
    for r in range(args.repeat):
        for variant, holes in boards:
            rust = rust_rates(args.hoyito, variant, holes, args.games)
            loop, step = vector_rate(args.batch, args.steps, variant, holes, args.warm_up)
            line = (f"[{r + 1}/{args.repeat}] VectorGame {variant.upper()} 2x{holes}, batch {args.batch}, "
                    f"1 thread: {loop:,.0f} plies/s (loop with numpy actions), {step:,.0f} plies/s (inside step)")
            if rust:
                floor, harness = rust
                rows[(variant, holes)].append((loop, step, floor, harness))
                line += f"; Rust 1 core: floor {floor:,}, harness {harness:,}"
            print(line, flush=True)
    if any(rows.values()):
        med = statistics.median
        print(f"medians of {args.repeat} (plies/s; ratios: the median of the repeats' ratios):")
        print(f"{'board':<10} {'step':>12} {'loop':>12} {'floor':>12} {'harness':>12} "
              f"{'step/floor':>10} {'loop/floor':>10} {'step/harness':>12}")
        for (variant, holes), runs in rows.items():
            if not runs:
                continue
            print(f"{variant.upper() + ' 2x' + str(holes):<10} {med(r[1] for r in runs):>12,.0f} "
                  f"{med(r[0] for r in runs):>12,.0f} {med(r[2] for r in runs):>12,.0f} "
                  f"{med(r[3] for r in runs):>12,.0f} {med(r[1] / r[2] for r in runs):>10.0%} "
                  f"{med(r[0] / r[2] for r in runs):>10.0%} {med(r[1] / r[3] for r in runs):>12.0%}")
    else:
        print(f"(no {args.hoyito}: build it with `cargo build --release` for the Rust rates)")

    from hoyito import pettingzoo as hz
    hoyito_aec = aec_rate(hz.env(variant="ii", holes=6), args.aec_steps)
    line = f"AEC loop, steps/s: hoyito II 2x6 {hoyito_aec:,.0f}"
    try:
        from pettingzoo.classic import connect_four_v3
        c4 = aec_rate(connect_four_v3.env(), args.aec_steps)
        line += f", connect_four_v3 {c4:,.0f} (hoyito / connect four: {hoyito_aec / c4:.2f})"
    except ImportError as err:
        line += f" (connect_four_v3 unavailable: {err})"
    print(line)
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}")


if __name__ == "__main__":
    main()
