#!/usr/bin/env bash
# A real Slurm cluster on this one Debian machine, for trying the deploy/slurm
# scripts and for CI (tests/cluster/slurm.sh): munged, one slurmctld and one or
# two slurmd, from Debian's packages, without systemd.
#
#   deploy/slurm/local-cluster.sh up [--nodes 1|2]   # installs the packages if needed
#   eval "$(deploy/slurm/local-cluster.sh env)"      # SLURM_CONF for sbatch, squeue, ...
#   deploy/slurm/local-cluster.sh down               # stops what `up` started
#   deploy/slurm/local-cluster.sh status             # the daemons `up` started, "NAME PID"
#   deploy/slurm/local-cluster.sh install            # only the packages
#
# Why it looks the way it does:
# - Everything (slurm.conf, state, spool, logs, PIDs) lives in one directory,
#   $HOYITO_SLURM_DIR (default /tmp/hoyito-slurm), and the daemons listen on
#   their own ports (16817..), so an existing /etc/slurm setup is not touched.
#   Clients and daemons find the config through SLURM_CONF.
# - Two slurmd processes with different node names and ports make a two-node
#   cluster on one machine; each node gets an equal share of the CPUs and memory
#   that `slurmd -C` reports (SlurmdParameters=config_overrides makes the
#   controller take the configured share rather than the hardware it sees).
# - ProctrackType=proctrack/linuxproc and TaskPlugin=task/none need no cgroups
#   and no systemd; select/cons_tres with CR_Core_Memory schedules one task per
#   core; there is no accounting (no slurmdbd); sched_interval=1,bf_interval=1
#   start a small array in about a second instead of tens of seconds.
# - `up` writes the PID of every daemon it starts to $HOYITO_SLURM_DIR/pids;
#   `down` cancels the cluster's jobs and stops exactly those PIDs, nothing
#   found by name. An munged that was already running is used and left alone.
#   `down` with nothing running does nothing and succeeds.
#
# Needs root (the daemons and apt-get). Known to work with Debian 12's Slurm 22.05.
set -euo pipefail

DIR=${HOYITO_SLURM_DIR:-/tmp/hoyito-slurm}
CTLD_PORT=${HOYITO_SLURM_PORT:-16817}
CONF=$DIR/slurm.conf
PIDS=$DIR/pids
WAIT_S=${HOYITO_SLURM_WAIT_S:-60}

die() {
  echo "local-cluster: $*" >&2
  exit 1
}

usage() {
  echo "usage: $0 up [--nodes 1|2] | down | env | status | install" >&2
  exit 2
}

# The PIDs recorded by `up` that are still the daemon they were recorded as
# (a live process whose command name matches), one "NAME PID" line each.
recorded() {
  [[ -f $PIDS ]] || return 0
  local name pid
  while read -r name pid; do
    [[ -n $pid ]] || continue
    if [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "${name%%-*}" ]]; then
      echo "$name $pid"
    fi
  done <"$PIDS"
}

# Waits until FILE holds the PID of a live process; prints it.
pid_from_file() {
  local file=$1 i pid
  for ((i = 0; i < WAIT_S * 10; i++)); do
    if [[ -s $file ]]; then
      pid=$(tr -dc '0-9' <"$file")
      if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then
        echo "$pid"
        return 0
      fi
    fi
    sleep 0.1
  done
  return 1
}

install_packages() {
  ((EUID == 0)) || die "must run as root (it installs packages and starts munged, slurmctld and slurmd)"
  mkdir -p "$DIR"
  local missing=()
  command -v munged >/dev/null || missing+=(munge)
  command -v slurmctld >/dev/null || missing+=(slurmctld)
  command -v slurmd >/dev/null || missing+=(slurmd)
  command -v sbatch >/dev/null || missing+=(slurm-client)
  ((${#missing[@]} == 0)) && return 0
  command -v apt-get >/dev/null || die "not a Debian machine (no apt-get) and missing: ${missing[*]}"
  echo "local-cluster: installing ${missing[*]}" >&2
  # The packages' scripts must start nothing (no /etc/slurm config yet, and
  # the daemons are ours to start): a policy-rc.d that denies every start,
  # for the time of the install, unless the machine has one already.
  local policy=/usr/sbin/policy-rc.d made_policy=0 installed=1
  if [[ ! -e $policy ]]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy"
    chmod +x "$policy"
    made_policy=1
  fi
  apt_install >"$DIR/apt.log" 2>&1 || installed=0
  ((made_policy == 0)) || rm -f "$policy"
  ((installed)) || die "apt-get install munge slurmctld slurmd slurm-client failed (see $DIR/apt.log)"
}

# The packages, with the package lists updated if the first try fails.
apt_install() {
  local packages=(munge slurmctld slurmd slurm-client)
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q --no-install-recommends "${packages[@]}" && return 0
  apt-get update -q || true
  apt-get install -y -q --no-install-recommends "${packages[@]}"
}

# munged, unless one already answers; records its PID when it starts it.
start_munge() {
  if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    return 0
  fi
  if [[ ! -s /etc/munge/munge.key ]]; then
    command -v mungekey >/dev/null || die "no /etc/munge/munge.key and no mungekey to make one"
    runuser -u munge -- mungekey --create >/dev/null
  fi
  install -d -o munge -g munge -m 0755 /run/munge
  rm -f /run/munge/munged.pid
  runuser -u munge -- munged
  local pid
  pid=$(pid_from_file /run/munge/munged.pid) || die "munged did not start"
  echo "munged $pid" >>"$PIDS"
  munge -n | unmunge >/dev/null || die "munged started but does not answer"
}

# The node lines: the hardware line of `slurmd -C` for one node, or an equal
# share of its CPUs and memory for each of two.
node_lines() {
  local nodes=$1 host=$2 hw cpus mem i
  hw=$(slurmd -C | head -n 1)
  [[ $hw == NodeName=* ]] || die "unexpected 'slurmd -C' output: $hw"
  if ((nodes == 1)); then
    echo "${hw/NodeName=* CPUs=/NodeName=$host NodeAddr=127.0.0.1 Port=$((CTLD_PORT + 1)) CPUs=}"
    return
  fi
  cpus=$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<<"$hw")
  mem=$(sed -n 's/.* RealMemory=\([0-9]*\).*/\1/p' <<<"$hw")
  [[ -n $cpus && -n $mem ]] || die "no CPUs or RealMemory in 'slurmd -C' output: $hw"
  ((cpus >= nodes)) || die "$cpus CPU(s) cannot make $nodes nodes"
  for ((i = 1; i <= nodes; i++)); do
    echo "NodeName=$host-$i NodeAddr=127.0.0.1 Port=$((CTLD_PORT + i)) CPUs=$((cpus / nodes)) RealMemory=$((mem / nodes)) State=UNKNOWN"
  done
}

write_conf() {
  local nodes=$1 host
  host=$(hostname -s)
  cat >"$CONF" <<EOF
# Written by deploy/slurm/local-cluster.sh: a $nodes-node cluster on one machine.
ClusterName=hoyito
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$CTLD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool/%n
SlurmctldPidFile=$DIR/run/slurmctld.pid
SlurmdPidFile=$DIR/run/slurmd-%n.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd-%n.log
SlurmdParameters=config_overrides
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1024
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1,bf_interval=1
MailProg=/bin/true
ReturnToService=2
MpiDefault=none
SwitchType=switch/none
$(node_lines "$nodes" "$host")
PartitionName=hoyito Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
}

node_names() {
  sed -n 's/^NodeName=\([^ ]*\) .*/\1/p' "$CONF"
}

wait_idle() {
  local want=$1 i states
  for ((i = 0; i < WAIT_S; i++)); do
    states=$(SLURM_CONF=$CONF sinfo -h -N -o '%N %t' 2>/dev/null || true)
    if [[ $(grep -c ' idle$' <<<"$states") -ge $want ]]; then
      return 0
    fi
    sleep 1
  done
  echo "$states" >&2
  die "the node(s) did not become idle in ${WAIT_S}s (logs in $DIR/log)"
}

up() {
  local nodes=1
  while (($#)); do
    case $1 in
      --nodes)
        [[ $# -ge 2 ]] || usage
        nodes=$2
        shift 2
        ;;
      --nodes=*)
        nodes=${1#--nodes=}
        shift
        ;;
      *) usage ;;
    esac
  done
  [[ $nodes == 1 || $nodes == 2 ]] || die "--nodes must be 1 or 2, not '$nodes'"
  ((EUID == 0)) || die "must run as root (it installs packages and starts munged, slurmctld and slurmd)"
  if [[ -n $(recorded) ]]; then
    if [[ -f $CONF && $(node_names | wc -l) -eq $nodes ]]; then
      echo "local-cluster: already up ($nodes node(s)); SLURM_CONF=$CONF"
      return 0
    fi
    die "already up with another number of nodes; run '$0 down' first"
  fi
  mkdir -p "$DIR"
  rm -rf "$DIR/state" "$DIR/spool" "$DIR/run" "$DIR/log"
  mkdir -p "$DIR/state" "$DIR/run" "$DIR/log"
  : >"$PIDS"
  # Whatever fails from here on leaves nothing running.
  trap 'down >/dev/null 2>&1 || true' EXIT
  install_packages
  start_munge
  write_conf "$nodes"
  local name pid
  while read -r name; do mkdir -p "$DIR/spool/$name"; done < <(node_names)

  SLURM_CONF=$CONF slurmctld -i
  pid=$(pid_from_file "$DIR/run/slurmctld.pid") || die "slurmctld did not start (see $DIR/log/slurmctld.log)"
  echo "slurmctld $pid" >>"$PIDS"
  while read -r name; do
    SLURM_CONF=$CONF slurmd -N "$name"
    pid=$(pid_from_file "$DIR/run/slurmd-$name.pid") || die "slurmd $name did not start (see $DIR/log/slurmd-$name.log)"
    echo "slurmd-$name $pid" >>"$PIDS"
  done < <(node_names)
  wait_idle "$nodes"
  trap - EXIT
  echo "local-cluster: up, $nodes node(s): $(node_names | tr '\n' ' ')"
  echo "local-cluster: export SLURM_CONF=$CONF"
}

# Stops recorded PIDs together: TERM, then KILL those still alive after 10 s.
stop_pids() {
  local pid i alive
  (($#)) || return 0
  kill -TERM "$@" 2>/dev/null || true
  for ((i = 0; i < 100; i++)); do
    alive=0
    for pid; do kill -0 "$pid" 2>/dev/null && alive=1; done
    ((alive)) || return 0
    sleep 0.1
  done
  kill -KILL "$@" 2>/dev/null || true
}

down() {
  [[ -f $PIDS ]] || return 0
  local live name pid i group
  live=$(recorded)
  # Cancel the cluster's jobs while the daemons can still end their steps.
  if grep -q '^slurmctld ' <<<"$live" && [[ -f $CONF ]]; then
    SLURM_CONF=$CONF scancel --quiet --full --partition=hoyito 2>/dev/null || true
    for ((i = 0; i < 20; i++)); do
      [[ -z $(SLURM_CONF=$CONF squeue -h -o %i 2>/dev/null) ]] && break
      sleep 0.5
    done
  fi
  # The nodes first, then the controller, munged last.
  for name in slurmd- slurmctld munged; do
    group=()
    while read -r _ pid; do
      [[ -n $pid ]] && group+=("$pid")
    done < <(grep "^$name" <<<"$live" || true)
    stop_pids "${group[@]}"
  done
  rm -f "$PIDS"
  echo "local-cluster: down"
}

case ${1:-} in
  up)
    shift
    up "$@"
    ;;
  down)
    [[ $# -eq 1 ]] || usage
    down
    ;;
  env)
    [[ $# -eq 1 ]] || usage
    echo "export SLURM_CONF=$CONF"
    ;;
  status)
    [[ $# -eq 1 ]] || usage
    recorded
    ;;
  install)
    [[ $# -eq 1 ]] || usage
    install_packages
    ;;
  *) usage ;;
esac
