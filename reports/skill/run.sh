#!/usr/bin/env bash
# The skill study in one command, from a fresh clone (Rust installed):
#   bash reports/skill/run.sh
# Plays the three ladders (configs/skill.toml, skill-trace.toml and
# skill-boards.toml) into runs/NAME, copies each run's record into
# reports/skill/runs/NAME (experiment.toml, games.csv, summary.json,
# report.md, timings.csv) and draws the study from those copies with
# `hoyito skill` (reports/skill/skill.md, skill.json, charts/). A run that
# stopped resumes where it stopped when the command is run again; the games
# are the same for any number of threads (THREADS=N to choose; default all
# cores).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet
bin=target/release/hoyito
threads=${THREADS:-0}
for name in skill skill-trace skill-boards; do
    "$bin" run "configs/$name.toml" --out "runs/$name" --threads "$threads" --report-every 0
    keep="reports/skill/runs/$name"
    mkdir -p "$keep"
    for file in experiment.toml games.csv summary.json report.md timings.csv; do
        cp "runs/$name/$file" "$keep/$file"
    done
done
"$bin" skill reports/skill/runs/skill reports/skill/runs/skill-trace \
    reports/skill/runs/skill-boards --out reports/skill
