#!/usr/bin/env bash
# Who wins each start under perfect play (`hoyito solve --start --outcome`):
# one JSON per start in reports/first-player/outcomes/, the certificates in
# reports/first-player/certificates/ (each checked by the search before it is
# written; check them again with `hoyito verify-proof FILE`), and the answers
# merged into reports/first-player/exact.json as each start's `outcome`.
# Run from the repository root:
#   bash reports/first-player/outcomes.sh            # 2x2 to 2x8, a few minutes
#   STARTS="ii:12:0:1200 iii:12:0:1200" bash reports/first-player/outcomes.sh
# STARTS lists variant:holes:table-seeds:seconds (table-seeds 0: no tables;
# seconds 0: no limit, else a limit per question). The 2x9 to 2x12 answers
# in outcomes/ came from, two searches side by side on two cores, 2 GB each:
#   STARTS="ii:9:0:600 iii:9:0:600 ii:10:0:600 iii:10:0:600 ii:11:0:300
#           iii:11:0:300 ii:12:0:1200 iii:12:0:1200 i:9:8:150 i:10:8:150
#           i:11:8:150 i:12:8:150"
# The threshold answers in outcomes/thresholds/ (bounds on the margin) came
# from `hoyito solve --start --outcome --threshold T --json FILE`, as listed
# in each file.
set -euo pipefail
bin=${HOYITO:-target/release/hoyito}
dir=reports/first-player
tables_dir=${TABLES_DIR:-tables/outcome}
default=""
for h in 2 3 4 5 6; do for v in i ii iii; do default+=" $v:$h:0:0"; done; done
default+=" i:7:16:0 ii:7:0:0 iii:7:0:0 i:8:12:0 ii:8:0:0 iii:8:0:0"
mkdir -p "$dir/outcomes" "$dir/certificates"
for start in ${STARTS:-$default}; do
    IFS=: read -r variant holes upto seconds <<< "$start"
    args=(solve --start --outcome --variant "$variant" --holes "$holes" --memory "${MEMORY_MB:-2048}"
          --certificates "$dir/certificates" --json "$dir/outcomes/$variant-$holes.json" --force)
    if [[ $upto != 0 ]]; then
        args+=(--exact-up-to "$upto" --tables "$tables_dir/$variant-$holes")
    fi
    if [[ $seconds != 0 ]]; then
        args+=(--max-seconds "$seconds")
    fi
    echo "== $variant 2x$holes" >&2
    "$bin" "${args[@]}" > /dev/null
done
shopt -s nullglob
python3 "$dir/merge_outcomes.py" "$dir/exact.json" "$dir"/outcomes/*.json "$dir"/outcomes/thresholds/*.json \
    "$dir"/outcomes/split/*.json
