#!/usr/bin/env bash
# What an agent process can do to a run, the slow cases: run against the
# release binary outside the test suite (tests/external/misbehaving.rs holds
# the fast regression tests). Exits non-zero on any failure.
#
#   flood    an agent floods its stdout with newlines while an MCTS opponent
#            with 200,000 iterations thinks (II 2x6, 2 games), under
#            `ulimit -v 1500000`: both games are saved, the flooder forfeits
#            (forfeit-protocol), peak memory stays under 300 MB.
#   orphans  an agent starts `sleep 300` in its own process group and another
#            in a new session: neither outlives a normal end, one SIGTERM (the
#            run finishes its games in hand), nor SIGINT, SIGTERM or SIGHUP
#            sent twice (exit at once).
#   kill -9  of `hoyito run`: the agent itself dies (PR_SET_PDEATHSIG); what it
#            started is not guaranteed (docs/agents.md: "What an agent leaves
#            behind"), so the helpers' fate is printed, not judged.
#
# Usage: scripts/probe-agent-processes.sh [HOYITO_BINARY]   (run from anywhere)
set -u
cd "$(dirname "$0")/.."
BIN=${1:-target/release/hoyito}
if [ ! -x "$BIN" ]; then
    echo "probe-agent-processes: $BIN not found: build it with cargo build --release" >&2
    exit 2
fi
BIN=$(realpath "$BIN")
command -v python3 >/dev/null || { echo "probe-agent-processes: python3 is needed" >&2; exit 2; }
WORK=$(mktemp -d)
FAILED=0
ALL_PIDS=()
cleanup() {
    for pid in "${ALL_PIDS[@]}"; do kill -9 "$pid" 2>/dev/null; done
    rm -rf "$WORK"
}
trap cleanup EXIT
start=$(date +%s)

fail() { echo "FAIL: $*"; FAILED=1; }
pass() { echo "ok:   $*"; }

# Whether process $1 is gone (a zombie counts as gone).
gone() {
    [ ! -e "/proc/$1" ] || grep -q ') Z' "/proc/$1/stat" 2>/dev/null
}

# Waits up to 5 s for every pid in $@ to be gone; prints the survivors.
survivors() {
    local left=("$@") i
    for i in $(seq 50); do
        local still=()
        for pid in "${left[@]}"; do gone "$pid" || still+=("$pid"); done
        left=("${still[@]}")
        [ ${#left[@]} -eq 0 ] && return 0
        sleep 0.1
    done
    echo "${left[@]}"
}

experiment() { # NAME GAMES AGENT_COMMAND EXTRA OPPONENT
    cat <<TOML
name = "$1"
seed = 5
games = $2
threads = 1
[rules]
variants = ["ii"]
holes = [6]
[tournament]
format = "round-robin"
agents = ["opponent", "agent"]
[roster.opponent]
$5
[roster.agent]
kind = "external"
command = $3
$4
TOML
}

# --- the flood --------------------------------------------------------------
experiment flood 2 '["python3", "tests/agents/stdout_flood.py"]' "" \
    $'kind = "mcts"\niterations = 200000' >"$WORK/flood.toml"
python3 - "$BIN" "$WORK" <<'PY' >"$WORK/flood.out" 2>&1
import resource, subprocess, sys
bin, work = sys.argv[1], sys.argv[2]
limit = lambda: resource.setrlimit(resource.RLIMIT_AS, (1500000 * 1024,) * 2)
run = subprocess.run([bin, "run", work + "/flood.toml", "--out", work + "/flood"],
                     preexec_fn=limit, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print("rc", run.returncode)
print("peak_kb", peak)
sys.stdout.write(run.stderr.decode(errors="replace")[-2000:])
PY
rc=$(awk '$1=="rc"{print $2}' "$WORK/flood.out")
peak=$(awk '$1=="peak_kb"{print $2}' "$WORK/flood.out")
rows=$(tail -n +2 "$WORK/flood/games.csv" 2>/dev/null | wc -l)
forfeits=$(grep -c ',forfeit-protocol,' "$WORK/flood/games.csv" 2>/dev/null)
if [ "$rc" = 0 ] && [ "$rows" = 2 ] && [ "$forfeits" = 2 ] && [ "${peak:-0}" -lt 300000 ]; then
    pass "flood: rc 0, 2 games saved, 2 forfeit-protocol, peak RSS ${peak} kB"
else
    fail "flood: rc ${rc:-?}, $rows games saved, ${forfeits:-0} forfeit-protocol, peak RSS ${peak:-?} kB"
    cat "$WORK/flood.out"
fi

# --- orphans ----------------------------------------------------------------
# Starts a run of the helpers agent (MODE play or silent); sets RUN_PID and
# PIDS, the file of the agent's and helpers' ids, and waits for the helpers.
start_run() { # CASE MODE GAMES
    PIDS="$WORK/$1.pids"
    local command="[\"python3\", \"tests/agents/helpers.py\", \"$PIDS\", \"$2\"]"
    experiment "$1" "$3" "$command" "move_timeout_ms = 60000" 'kind = "greedy"' \
        >"$WORK/$1.toml"
    "$BIN" run "$WORK/$1.toml" --out "$WORK/$1" >"$WORK/$1.log" 2>&1 &
    RUN_PID=$!
    for _ in $(seq 200); do
        [ "$(cat "$PIDS" 2>/dev/null | wc -l)" -ge 3 ] && return 0
        sleep 0.05
    done
    fail "$1: the agent never started its helpers"
    return 1
}

# Waits up to 30 s for the run to end; sets RUN_RC.
wait_run() {
    for _ in $(seq 300); do
        if ! kill -0 "$RUN_PID" 2>/dev/null; then break; fi
        sleep 0.1
    done
    kill -0 "$RUN_PID" 2>/dev/null && { kill -9 "$RUN_PID"; fail "$1: hoyito did not end"; }
    { wait "$RUN_PID"; } 2>/dev/null
    RUN_RC=$?
}

check_all_gone() { # CASE
    local pids
    pids=$(awk '{print $2}' "$PIDS" | sort -u)
    ALL_PIDS+=($pids)
    local left
    left=$(survivors $pids)
    if [ -z "$left" ]; then
        pass "$1: rc $RUN_RC, agent and helpers gone ($(echo $pids | wc -w) processes)"
    else
        fail "$1: rc $RUN_RC, survivors: $(for p in $left; do grep " $p\$" "$PIDS"; done | tr '\n' ' ')"
    fi
}

if start_run normal play 4; then
    wait_run normal
    [ "$RUN_RC" = 0 ] || fail "normal: rc $RUN_RC"
    check_all_gone "normal end"
fi

if start_run term-once play 400; then
    kill -TERM "$RUN_PID"
    wait_run term-once
    check_all_gone "SIGTERM once (games in hand finished)"
fi

for sig in INT TERM HUP; do
    if start_run "sig$sig" silent 2; then
        kill -"$sig" "$RUN_PID"; sleep 0.2; kill -"$sig" "$RUN_PID"
        wait_run "sig$sig"
        check_all_gone "SIG$sig twice"
    fi
done

if start_run kill9 silent 2; then
    kill -9 "$RUN_PID"
    wait_run kill9
    agent=$(awk '$1=="agent"{print $2}' "$PIDS")
    ALL_PIDS+=($(awk '{print $2}' "$PIDS"))
    if [ -z "$(survivors "$agent")" ]; then
        pass "kill -9: the agent is gone"
    else
        fail "kill -9: the agent $agent outlived the harness"
    fi
    for kind in group session; do
        pid=$(awk -v k=$kind '$1==k{print $2}' "$PIDS")
        if gone "$pid"; then state=gone; else state="alive (not guaranteed after kill -9)"; fi
        echo "info: kill -9: the $kind helper is $state"
    done
fi

echo "probe-agent-processes: $(( $(date +%s) - start )) s, $([ $FAILED = 0 ] && echo passed || echo FAILED)"
exit $FAILED
