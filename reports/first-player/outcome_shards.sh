#!/usr/bin/env bash
# A proof of who wins split by the root's subtrees, on one machine: for each
# move of the mover at LINE's position (holes 1..H), `hoyito solve --start
# --outcome --after LINE,K --threshold Q`, one after another, each with its
# own resumable state, then `hoyito verify-proof --join` over the
# certificates. The cluster version is deploy/slurm/outcome-array.sbatch.
# Run from the repository root:
#   bash reports/first-player/outcome_shards.sh VARIANT HOLES OUT [SECONDS] [LINE] [Q]
# SECONDS (default 300) is each shard's budget per run; run the script again
# to give the open shards as much again (proved ones are skipped).
# MEMORY_MB (default 4096) is each shard's table.
set -euo pipefail
variant=$1 holes=$2 out=$3 seconds=${4:-300} line=${5:-} question=${6:-0}
bin=${HOYITO:-target/release/hoyito}
mkdir -p "$out/certificates" "$out/state" "$out/json"
for ((k = 1; k <= holes; k++)); do
    after=${line:+$line,}$k
    json="$out/json/$k.json"
    if [[ -f $json ]] && grep -q '"status":"bounds"\|"status":"proved"' "$json"; then
        echo "shard $after: settled before" >&2
        continue
    fi
    set +e
    "$bin" solve --start --outcome --variant "$variant" --holes "$holes" --after "$after" \
        --threshold "$question" --memory "${MEMORY_MB:-4096}" --max-seconds "$seconds" \
        --checkpoint "$out/state/$k.state" --checkpoint-every 300 \
        --certificates "$out/certificates" --json "$json.part" --force 2> "$out/state/$k.log" > /dev/null
    rc=$?
    set -e
    if [[ $rc -ne 0 ]]; then
        if grep -q "is empty\|not a legal move\|cannot pass" "$out/state/$k.log"; then
            echo "shard $after: not a move there" >&2
            continue
        fi
        tail -3 "$out/state/$k.log" >&2
        exit $rc
    fi
    mv "$json.part" "$json"
    echo "shard $after: $(python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['status'], d['answers'][0]['answer'], d['nodes'], 'nodes', d['seconds'], 's')" "$json")" >&2
done
shopt -s nullglob
certs=("$out"/certificates/*.proof)
if ((${#certs[@]})); then
    "$bin" verify-proof --join "${certs[@]}" | tail -1 || true
fi
