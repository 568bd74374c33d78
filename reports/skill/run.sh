#!/usr/bin/env bash
# The skill study in one command, from a fresh clone (Rust installed):
#   bash reports/skill/run.sh
# Plays the four ladders (configs/skill.toml, skill-trace.toml,
# skill-boards.toml and skill-book.toml) into runs/NAME, copies each run's
# record into reports/skill/runs/NAME (experiment.toml, games.csv,
# summary.json, report.md and its PNG charts, timings.csv) and draws the
# study from those copies with `hoyito skill` (reports/skill/skill.md,
# skill.json, charts/). A run that
# stopped resumes where it stopped when the command is run again; the games
# are the same for any number of threads (THREADS=N to choose; default all
# cores).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet
bin=target/release/hoyito
threads=${THREADS:-0}
for name in skill skill-trace skill-boards skill-book; do
    "$bin" run "configs/$name.toml" --out "runs/$name" --threads "$threads" --report-every 0
    keep="reports/skill/runs/$name"
    mkdir -p "$keep/charts"
    for file in experiment.toml games.csv summary.json report.md timings.csv; do
        cp "runs/$name/$file" "$keep/$file"
    done
    cp "runs/$name"/charts/*.png "$keep/charts/"
done
"$bin" skill reports/skill/runs/skill reports/skill/runs/skill-trace \
    reports/skill/runs/skill-boards reports/skill/runs/skill-book --out reports/skill
