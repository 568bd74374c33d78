#!/usr/bin/env bash
# Submits a hoyito experiment to Slurm as N shards and a merge:
#
#   deploy/slurm/submit.sh CONFIG N [OUT]
#
# - an array job of N tasks (deploy/slurm/hoyito-array.sbatch), task K playing
#   shard K/N into OUT/shards/K;
# - a merge job (deploy/slurm/hoyito-merge.sbatch) held with
#   --dependency=afterok:<array job> until every task has succeeded, writing
#   the results of the whole experiment to OUT/merged;
# - the logs of both in OUT/logs.
#
# It prints the two job ids (the last line: "ARRAY_ID MERGE_ID") and where the
# results go. OUT defaults to runs/<config name>-shards. CONFIG, OUT and the
# hoyito binary must be on a filesystem every node sees. The binary is
# $HOYITO_BIN, else `hoyito` on the PATH, else this checkout's
# target/release/hoyito. Extra sbatch options for both jobs (partition,
# account, time limit) go in $HOYITO_SBATCH_ARGS, e.g.
#   HOYITO_SBATCH_ARGS="--partition=short --time=2:00:00"; the CPUs per shard in
# $HOYITO_CPUS (default 1: many single-core shards schedule more easily than
# few wide ones).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)

die() {
  echo "submit: $*" >&2
  exit 1
}

[[ $# -eq 2 || $# -eq 3 ]] || {
  echo "usage: $0 CONFIG N [OUT]" >&2
  exit 2
}
config=$1 shards=$2
[[ -f $config ]] || die "no config file '$config'"
[[ $shards =~ ^[1-9][0-9]*$ ]] || die "N must be a positive whole number, not '$shards'"
cpus=${HOYITO_CPUS:-1}
[[ $cpus =~ ^[1-9][0-9]*$ ]] || die "HOYITO_CPUS must be a positive whole number, not '$cpus'"
out=${3:-runs/$(basename "$config" .toml)-shards}
command -v sbatch >/dev/null || die "no sbatch on the PATH (is this a Slurm login node?)"

if [[ -n ${HOYITO_BIN:-} ]]; then
  bin=$HOYITO_BIN
elif command -v hoyito >/dev/null; then
  bin=$(command -v hoyito)
elif [[ -x $here/../../target/release/hoyito ]]; then
  bin=$here/../../target/release/hoyito
else
  die "no hoyito binary: set HOYITO_BIN, put hoyito on the PATH or run 'cargo build --release'"
fi
[[ -x $bin ]] || die "HOYITO_BIN '$bin' is not an executable file"

# Absolute paths: the jobs may start in another directory on another node.
config=$(realpath "$config")
bin=$(realpath "$bin")
mkdir -p "$out/logs"
out=$(realpath "$out")
if [[ -e $out/merged ]]; then
  die "$out/merged exists: a finished merge is not overwritten (remove it or choose another OUT)"
fi

read -r -a extra <<<"${HOYITO_SBATCH_ARGS:-}"
array_id=$(sbatch --parsable "${extra[@]}" \
  --export="ALL,HOYITO_BIN=$bin" \
  --array="0-$((shards - 1))" --cpus-per-task="$cpus" \
  --output="$out/logs/shard-%a.out" \
  "$here/hoyito-array.sbatch" "$config" "$out" "$shards")
array_id=${array_id%%;*}
merge_id=$(sbatch --parsable "${extra[@]}" \
  --export="ALL,HOYITO_BIN=$bin" \
  --dependency="afterok:$array_id" --kill-on-invalid-dep=yes \
  --output="$out/logs/merge.out" \
  "$here/hoyito-merge.sbatch" "$out")
merge_id=${merge_id%%;*}

echo "submit: array job $array_id: $shards shard(s) of $config into $out/shards/0..$((shards - 1))"
echo "submit: merge job $merge_id after it: results in $out/merged (logs in $out/logs)"
echo "$array_id $merge_id"
