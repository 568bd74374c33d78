#!/usr/bin/env bash
# Follows the one subtree a split proof still needs, level by level: splits
# the position after LINE by its mover's moves (outcome_shards.sh, SECONDS
# each), and where exactly one shard stays open, splits that one in turn.
# When none stays open, the certificates of every level join into the proof
# of the start (`hoyito verify-proof --join OUT/*/certificates/*`). Stops
# where two or more shards stay open, naming them.
# Run from the repository root:
#   bash reports/first-player/outcome_line.sh VARIANT HOLES OUT [SECONDS] [LINE]
set -euo pipefail
variant=$1 holes=$2 out=$3 seconds=${4:-60} line=${5:-}
here=$(dirname "$0")
while :; do
    dir="$out/${line:-start}"
    dir=${dir//,/-}
    bash "$here/outcome_shards.sh" "$variant" "$holes" "$dir" "$seconds" "$line" >&2 || true
    open=$(python3 - "$dir" <<'PY'
import json, os, sys
d = sys.argv[1]
for n in os.listdir(os.path.join(d, "json")):
    if n.endswith(".json"):
        o = json.load(open(os.path.join(d, "json", n)))
        if o["status"] == "open":
            print(o["after"].replace(" ", ","))
PY
)
    count=$(printf '%s' "$open" | grep -c . || true)
    if [[ $count -eq 0 ]]; then
        echo "no shard is open at ${line:-the start}: joining every level" >&2
        break
    elif [[ $count -gt 1 ]]; then
        echo "open at ${line:-the start}: $(echo $open)" >&2
        exit 1
    fi
    echo "open: $open; splitting it" >&2
    line=$open
done
shopt -s nullglob
"${HOYITO:-target/release/hoyito}" verify-proof --join "$out"/*/certificates/*.proof | tail -1
