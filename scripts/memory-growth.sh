#!/usr/bin/env bash
# Peak resident memory of a random II 2x6 self-play run by its length: the
# benchmark of how memory grows with the games of a run (docs/performance.md,
# "Memory and the length of a run"). Each run goes to a scratch directory,
# removed after; /usr/bin/time -v gives the peak.
#
#   scripts/memory-growth.sh [BIN] [GAMES...]   # default: 1e6 1e7 1e8 games
#
# 10^8 games take about 10 minutes on two cores and 12 GB of disk (the
# records) plus 2 GB in TMPDIR (the distinct-games sets' runs).
set -euo pipefail
bin="${1:-target/release/hoyito}"
shift || true
counts=("${@:-1000000 10000000 100000000}")
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
printf '%12s %10s %12s\n' games "wall s" "peak MB"
for games in ${counts[*]}; do
  cat > "$scratch/run.toml" <<TOML
name = "memory-$games"
seed = 1
games = $games
threads = 2
[rules]
variants = ["ii"]
holes = [6]
[record]
moves = false
[tournament]
format = "self-play"
agents = ["random"]
TOML
  /usr/bin/time -v "$bin" run "$scratch/run.toml" --out "$scratch/run" --report-every 0 \
    > /dev/null 2> "$scratch/time.txt"
  peak_kb=$(awk -F': ' '/Maximum resident/ {print $2}' "$scratch/time.txt")
  wall=$(awk -F': ' '/Elapsed/ {print $2}' "$scratch/time.txt")
  printf '%12s %10s %12.1f\n' "$games" "$wall" "$(echo "$peak_kb / 1024" | bc -l)"
  rm -rf "$scratch/run"
done
