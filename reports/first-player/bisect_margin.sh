#!/usr/bin/env bash
# The exact margin of a start by threshold questions ("is South's margin at
# least T?", `hoyito solve --start --outcome --threshold T`), bisecting
# between LOW and HIGH (the margin is known to lie in [LOW, HIGH]). Each
# question is asked within SECONDS; the last proved and disproved ones are
# asked again into reports/first-player/certificates and outcomes/thresholds,
# where outcomes.sh merges them into exact.json.
# Run from the repository root:
#   bash reports/first-player/bisect_margin.sh VARIANT HOLES LOW HIGH TABLE_SEEDS [SECONDS]
set -euo pipefail
variant=$1 holes=$2 low=$3 high=$4 upto=$5 seconds=${6:-240}
bin=${HOYITO:-target/release/hoyito}
dir=reports/first-player
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
ask() { # ask T DIR JSON: prints proved, disproved or open
    "$bin" solve --start --outcome --variant "$variant" --holes "$holes" --threshold "$1" \
        --exact-up-to "$upto" --tables "tables/outcome/$variant-$holes" --memory "${MEMORY_MB:-4096}" \
        --max-seconds "$seconds" --certificates "$2" --json "$3" --force 2> /dev/null |
        sed -n "s/^south margin >= $1: //p" | cut -d' ' -f1
}
while ((low < high)); do
    mid=$(( (low + high + 1) / 2 ))   # rounds up, so low < mid <= high
    answer=$(ask "$mid" "$scratch" "$scratch/q.json")
    echo "south margin >= $mid: $answer" >&2
    case $answer in
        proved) low=$mid ;;
        disproved) high=$((mid - 1)) ;;
        *) echo "open at $mid: the margin lies in [$low, $high]" >&2; exit 1 ;;
    esac
done
echo "margin $low" >&2
name() { echo "$variant-$holes-at-least-$1" | sed 's/at-least--/at-least-minus-/'; }
ask "$low" "$dir/certificates" "$dir/outcomes/thresholds/$(name "$low").json" > /dev/null
ask "$((low + 1))" "$dir/certificates" "$dir/outcomes/thresholds/$(name "$((low + 1))").json" > /dev/null
