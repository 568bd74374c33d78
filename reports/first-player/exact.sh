#!/usr/bin/env bash
# The exact first-player values the solver gives, written to
# reports/first-player/exact.json for reports/README.md:
# - the start positions (4 seeds per hole, South to move), solved over the
#   positions reachable from them (`hoyito solve --start`): Hoyito I on 2x2
#   to 2x6, II and III on 2x2 to 2x4, each with its value, best first moves,
#   a principal variation, positions per layer, seconds and peak memory;
# - the starts whose reachable positions do not fit (II and III 2x5 and 2x6,
#   and those in PROVED_EXTRA, e.g. "i:7:16"), proved by `hoyito solve
#   --start --prove`: bounds, exact where they meet, with a whole perfect game
#   where exact;
# - the perfect openings of 2x5 and 2x6 (openings/perfect/, below);
# - on 2x4, perfect play from the very openings the first-player studies
#   played (examples/exact_openings.rs), beside what the agents got from
#   them: the champion and mcts-5k from reports/first-player-top, and
#   alphabeta-d8 from the first-player run when its games.csv is there
#   (`cargo run --release -- run configs/first-player.toml` writes it to
#   runs/first-player; set FIRST_PLAYER_RUN to read another directory).
# Run from the repository root; about 12 minutes on two cores (I 2x6 alone
# about 4, the 2x6 tables for II and III about 3), tables in a scratch directory.
#   bash reports/first-player/exact.sh
set -euo pipefail
cargo build --release --quiet --example exact_openings
bin=${HOYITO:-target/release/hoyito}
openings_bin=target/release/examples/exact_openings
low_run=${FIRST_PLAYER_RUN:-runs/first-player}
top_run=reports/first-player-top
out=reports/first-player/exact.json
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
rows=()
openings=()
starts="i:2 ii:2 iii:2 i:3 ii:3 iii:3 i:4 ii:4 iii:4 i:5 i:6"
for start in $starts; do
    if [[ -n "${KEEP_SOLVED:-}" ]]; then
        # KEEP_SOLVED=1: the reachable solves' entries are kept from $out
        # (they take about 5 minutes), the proofs below are run again.
        row=$(grep -F "\"variant\":\"${start%:*}\"" "$out" | grep -F "\"holes\":${start#*:}," \
            | grep -F 'reachable-only' | sed 's/^ *//; s/,$//')
        [[ -n "$row" ]] || { echo "KEEP_SOLVED: no entry for $start in $out" >&2; exit 1; }
        rows+=("    $row")
        continue
    fi
    "$bin" solve --start --variant "${start%:*}" --holes "${start#*:}" \
        --json "$scratch/start.json" --force > /dev/null
    rows+=("    $(cat "$scratch/start.json")")
done
# Starts whose reachable positions do not fit in memory: proved by the two
# bounded searches with the full tables as exact leaves (variant, holes, the
# largest table layer); the tables are kept in $TABLES_DIR if set.
proved="ii:5:24 iii:5:24 ii:6:20 iii:6:20 i:7:16 i:8:16 ${PROVED_EXTRA:-}"
tables_dir=${TABLES_DIR:-$scratch/tables}
for start in $proved; do
    IFS=: read -r variant holes upto <<< "$start"
    "$bin" solve --start --prove --variant "$variant" --holes "$holes" \
        --exact-up-to "$upto" --tables "$tables_dir/$variant-$holes" \
        --node-budget "${NODE_BUDGET:-60000000}" --json "$scratch/start.json" --force > /dev/null
    rows+=("    $(cat "$scratch/start.json")")
done
# The perfect openings (openings/perfect/): every line of 8 plies from the
# start in which each ply keeps the exact value, proved move by move, for
# self-play from the standard start that no diversity weakens
# (configs/first-player-start-perfect.toml).
mkdir -p openings/perfect
for start in i:5:24 i:6:20 ii:5:24 iii:5:24 ii:6:20 iii:6:20; do
    IFS=: read -r variant holes upto <<< "$start"
    "$bin" solve --start --prove --variant "$variant" --holes "$holes" \
        --exact-up-to "$upto" --tables "$tables_dir/$variant-$holes" \
        --book-plies 8 --book "openings/perfect/$variant-2x$holes.txt" --force > /dev/null
done
if [[ -f "$low_run/games.csv" ]]; then
    # The full 2x4 tables, for the openings the studies played.
    for variant in i ii iii; do
        tables="$scratch/$variant-4"
        "$bin" solve --variant "$variant" --holes 4 --max-seeds 32 \
            --only-needed --tables "$tables" > /dev/null
        for agent in champion mcts-5k; do
            openings+=("    $("$openings_bin" "$top_run/games.csv" "$variant" 4 "$agent" "$tables")")
        done
        openings+=("    $("$openings_bin" "$low_run/games.csv" "$variant" 4 alphabeta-d8 "$tables")")
    done
else
    # Without the alphabeta-d8 run, the openings already in exact.json stay.
    echo "no $low_run/games.csv: openings_2x4 kept from $out" >&2
    mapfile -t openings < <(sed -n '/"openings_2x4": \[/,/^  \]/p' "$out" | sed '1d;$d' | sed 's/,$//')
fi
{
    echo '{'
    echo '  "what": "exact values of the start positions, South to move (margin: South captures minus North captures under perfect play; pv: a perfect game that ends with that margin), from hoyito solve --start; openings_2x4 from the full 2x4 tables (reports/first-player/exact.sh)",'
    echo '  "start_positions": ['
    for i in "${!rows[@]}"; do
        if (( i + 1 < ${#rows[@]} )); then echo "${rows[$i]},"; else echo "${rows[$i]}"; fi
    done
    echo '  ],'
    echo '  "openings_2x4": ['
    for i in "${!openings[@]}"; do
        if (( i + 1 < ${#openings[@]} )); then echo "${openings[$i]},"; else echo "${openings[$i]}"; fi
    done
    echo '  ]'
    echo '}'
} > "$out.part"
mv "$out.part" "$out"
# Who wins each start (reports/first-player/outcomes.sh), merged back in.
if compgen -G "reports/first-player/outcomes/*.json" > /dev/null; then
    shopt -s nullglob
    python3 reports/first-player/merge_outcomes.py "$out" reports/first-player/outcomes/*.json \
        reports/first-player/outcomes/thresholds/*.json
fi
echo "$out"
