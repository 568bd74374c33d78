#!/usr/bin/env bash
# The sharded run on a real Slurm cluster, end to end: brings up a two-node
# cluster on this machine (deploy/slurm/local-cluster.sh), submits
# tests/cluster/small.toml as a 4-task array plus the merge job through
# deploy/slurm/submit.sh, waits for them, checks that the shards ran on both
# nodes, and compares the merged games.csv, moves.csv, summary.json, report.md
# and charts byte for byte with one single-process run of the same config. The
# cluster is taken down however the test ends.
#
#   tests/cluster/slurm.sh        # run by .ci/run after cargo test
#
# Where it cannot run (not root, no apt-get, the packages not installable) it
# prints one line saying why and exits 0, so CI goes on; with
# HOYITO_CLUSTER_TEST=require it fails instead. The binary is $HOYITO_BIN, or
# the one `cargo test` builds for the integration tests (the test profile:
# optimised, with debug assertions), which `.ci/run` has just built.
# The cluster has its own directory and ports (HOYITO_SLURM_DIR,
# HOYITO_SLURM_PORT below), so a local cluster started by hand is left alone.
set -euo pipefail
cd "$(dirname "$0")/../.."

SHARDS=4
WAIT_S=${HOYITO_CLUSTER_WAIT_S:-300}
# The cluster's directory is removed at the end unless it was given.
own_slurm_dir=${HOYITO_SLURM_DIR:+given}
export HOYITO_SLURM_DIR=${HOYITO_SLURM_DIR:-/tmp/hoyito-slurm-test}
export HOYITO_SLURM_PORT=${HOYITO_SLURM_PORT:-16917}
export SLURM_CONF=$HOYITO_SLURM_DIR/slurm.conf
started=$(date +%s)

say() { echo "cluster test: $*"; }
fail() {
  echo "cluster test: FAILED: $*" >&2
  exit 1
}
skip() {
  if [[ ${HOYITO_CLUSTER_TEST:-} == require ]]; then
    fail "cannot run: $*"
  fi
  say "skipped: $*"
  exit 0
}
elapsed() { echo "$(($(date +%s) - started)) s"; }

((EUID == 0)) || skip "needs root to start a local Slurm cluster (uid $EUID)"
command -v apt-get >/dev/null || command -v slurmctld >/dev/null ||
  skip "no apt-get to install Slurm, and Slurm is not installed"
if ! install_log=$(deploy/slurm/local-cluster.sh install 2>&1); then
  skip "$(tail -n 1 <<<"$install_log")"
fi

if [[ -n ${HOYITO_BIN:-} ]]; then
  bin=$(realpath "$HOYITO_BIN")
else
  # Not `cargo build`: under the dev profile it compiles the whole crate
  # again, unoptimised (a minute of CI, and a slower cluster run).
  cargo test --quiet --no-run --test integration
  bin=$(realpath target/debug/hoyito)
fi
export HOYITO_BIN=$bin

work=$(mktemp -d /tmp/hoyito-cluster-test.XXXXXX)
# However the test ends, the cluster goes down and its files go: on a
# failure the logs' last lines are printed first (HOYITO_CLUSTER_KEEP=1
# keeps the files for a look instead).
cleanup() {
  local rc=$?
  deploy/slurm/local-cluster.sh down >/dev/null 2>&1 || true
  if ((rc != 0)); then
    for log in "$work"/*.log "$work"/sharded/logs/*.out "$HOYITO_SLURM_DIR"/log/*; do
      [[ -f $log ]] && { echo "--- $log" >&2; tail -n 5 "$log" >&2; }
    done
  fi
  if ((rc != 0)) && [[ ${HOYITO_CLUSTER_KEEP:-} == 1 ]]; then
    echo "cluster test: kept $work and $HOYITO_SLURM_DIR for a look" >&2
    return
  fi
  rm -rf "$work"
  [[ -n $own_slurm_dir ]] || rm -rf "$HOYITO_SLURM_DIR"
}
trap cleanup EXIT

# An already-running test cluster from an earlier, killed test is restarted fresh.
deploy/slurm/local-cluster.sh down >/dev/null
deploy/slurm/local-cluster.sh up --nodes 2 >/dev/null
nodes=$(sinfo -h -N -o %N | sort -u | tr '\n' ' ')
say "cluster up after $(elapsed) (binary built): nodes $nodes"

"$bin" run tests/cluster/small.toml --out "$work/single" --threads 1 --report-every 0 >"$work/single.log" 2>&1 ||
  fail "the single-process run failed: $(tail -n 1 "$work/single.log")"
ids=$(deploy/slurm/submit.sh tests/cluster/small.toml "$SHARDS" "$work/sharded" | tail -n 1)
read -r array_id merge_id <<<"$ids"
[[ $array_id =~ ^[0-9]+$ && $merge_id =~ ^[0-9]+$ ]] || fail "submit.sh printed '$ids', not two job ids"
say "submitted array job $array_id ($SHARDS tasks) and merge job $merge_id"

# The state of a job as the controller keeps it (finished jobs stay MinJobAge,
# 300 s, with no accounting), one word per array task.
job_states() {
  scontrol -o show job "$1" 2>/dev/null | sed -n 's/.* JobState=\([A-Z_]*\) .*/\1/p'
}
for ((i = 0; ; i++)); do
  merge_state=$(job_states "$merge_id")
  case $merge_state in
    COMPLETED) break ;;
    PENDING | CONFIGURING | RUNNING | COMPLETING | "") ;;
    *)
      echo "--- array tasks: $(job_states "$array_id" | tr '\n' ' ')" >&2
      tail -n 5 "$work"/sharded/logs/*.out >&2 || true
      fail "the merge job ended $merge_state"
      ;;
  esac
  ((i < WAIT_S * 2)) || fail "the jobs did not finish in ${WAIT_S}s (merge job $merge_state)"
  sleep 0.5
done
array_states=$(job_states "$array_id" | sort -u | tr '\n' ' ')
[[ $array_states == "COMPLETED " ]] || fail "array tasks ended: $array_states"
say "array and merge completed after $(elapsed)"

# Every shard ran, and not all on one node.
shopt -s nullglob
logs=("$work"/sharded/logs/shard-*.out)
((${#logs[@]} == SHARDS)) || fail "${#logs[@]} shard logs, expected $SHARDS"
ran_on=$(sed -n 's/^hoyito shard [0-9]*\/[0-9]* on node \([^ ]*\) .*/\1/p' "${logs[@]}" | sort)
(($(wc -l <<<"$ran_on") == SHARDS)) || fail "not every shard log names its node: $ran_on"
distinct=$(sort -u <<<"$ran_on" | tr '\n' ' ')
(($(wc -w <<<"$distinct") >= 2)) || fail "all shards ran on one node: $distinct"
say "shards ran on nodes: $(tr '\n' ' ' <<<"$ran_on")"

# The merge is the single run, byte for byte (timings.csv holds wall times).
merged=$work/sharded/merged
for file in games.csv summary.json report.md experiment.toml moves.csv; do
  if [[ -e $work/single/$file || -e $merged/$file ]]; then
    cmp "$work/single/$file" "$merged/$file" || fail "merged $file differs from the single run"
  fi
done
diff -r "$work/single/charts" "$merged/charts" >/dev/null || fail "merged charts differ from the single run"
games=$(($(wc -l <"$merged/games.csv") - 1))
# The shards are slices, not copies: their games add up to the whole, each
# holds some, none holds all.
sum=0
for ((k = 0; k < SHARDS; k++)); do
  rows=$(($(wc -l <"$work/sharded/shards/$k/games.csv") - 1))
  ((rows > 0 && rows < games)) || fail "shard $k holds $rows of the $games games"
  sum=$((sum + rows))
done
((sum == games)) || fail "the shards hold $sum games, the merge $games"
say "passed after $(elapsed): $games games in $SHARDS shards on 2 nodes, merged byte-identical to one run"
