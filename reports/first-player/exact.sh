#!/usr/bin/env bash
# The exact first-player values the solver gives, written to
# reports/first-player/exact.json for reports/README.md:
# - the start positions of 2x2, 2x3 and 2x4 (4 seeds per hole, Hoyito I, II
#   and III);
# - on 2x4, perfect play from the very openings the first-player studies
#   played (examples/exact_openings.rs), beside what the agents got from
#   them: the champion and mcts-5k from reports/first-player-top, and
#   alphabeta-d8 from the first-player run when its games.csv is there
#   (`cargo run --release -- run configs/first-player.toml` writes it to
#   runs/first-player; set FIRST_PLAYER_RUN to read another directory).
# Run from the repository root; about 3 minutes on two cores (the three 2x4
# builds), tables in a scratch directory.
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
for holes in 2 3 4; do
    row=$(printf '4%.0s,' $(seq "$holes")); row=${row%,}
    seeds=$((8 * holes))
    for variant in i ii iii; do
        tables="$scratch/$variant-$holes"
        "$bin" solve --variant "$variant" --holes "$holes" --max-seeds "$seeds" \
            --only-needed --tables "$tables" > /dev/null
        probe=$("$bin" probe --variant "$variant" --position "$row/$row S 0-0" --tables "$tables")
        margin=$(awk '$1 == "value" { print $2 }' <<< "$probe")
        best=$(awk '$1 == "best" { $1 = ""; sub(/^ /, ""); print }' <<< "$probe")
        # South's score under perfect play (win 1, draw 1/2) and its advantage.
        if (( margin > 0 )); then score=1; advantage=0.5;
        elif (( margin == 0 )); then score=0.5; advantage=0;
        else score=0; advantage=-0.5; fi
        rows+=("    {\"variant\": \"$variant\", \"holes\": $holes, \"seeds\": $seeds, \"margin\": $margin, \"score\": $score, \"advantage\": $advantage, \"best\": \"$best\"}")
        if (( holes == 4 )); then
            for agent in champion mcts-5k; do
                openings+=("    $("$openings_bin" "$top_run/games.csv" "$variant" 4 "$agent" "$tables")")
            done
            if [[ -f "$low_run/games.csv" ]]; then
                openings+=("    $("$openings_bin" "$low_run/games.csv" "$variant" 4 alphabeta-d8 "$tables")")
            fi
        fi
    done
done
{
    echo '{'
    echo '  "what": "exact values of the start positions, South to move, from hoyito solve and probe (reports/first-player/exact.sh)",'
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
echo "$out"
