#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, to try the Slurm recipes
# (slurm-submit.sh, slurm-shards.sbatch, slurm-combine.sbatch) as a cluster
# user would, without a cluster (docs/distributed.md, "A Slurm of your own").
#
#   sudo docs/distributed/slurm-local-cluster.sh start    # install if needed, configure, start
#   export SLURM_CONF=/run/tetrarch-slurm/slurm.conf      # what `start` prints: for sbatch, squeue, ...
#   SHARDS=2 GAMES=40 docs/distributed/slurm-submit.sh
#   sudo docs/distributed/slurm-local-cluster.sh stop     # stop the daemons (the files stay)
#   sudo docs/distributed/slurm-local-cluster.sh status   # running or not, and sinfo
#
# Debian or Ubuntu, as root (it installs slurmctld, slurmd, slurm-client and
# munge with apt-get). Everything it writes is in one folder, $STATE
# (default /run/tetrarch-slurm): slurm.conf with this machine's CPUs and
# memory (from `slurmd -C`), its own munge key and socket, the daemons'
# state, logs and pid files. It touches no file of /etc, uses ports 16817
# and 16818 (SLURM_LOCAL_PORT), and names the node `tetrarch` and the
# partition `local`. It is idempotent: `start` on a running cluster of its
# own only says so. It refuses to run where a Slurm or a munge daemon that
# it did not start is running (a real cluster's node: use that cluster).
#
# Jobs run as the user who submits them, on this machine, with its working
# directory (so the recipes' files are where they are on a cluster with a
# shared filesystem). No accounting database (slurmdbd) is run: `sacct`
# has nothing to show; `squeue` and `scontrol show job` do.
set -euo pipefail

STATE=${SLURM_LOCAL_DIR:-/run/tetrarch-slurm}
PORT=${SLURM_LOCAL_PORT:-16817}
CONF=$STATE/slurm.conf
NODE=tetrarch

die() { echo "slurm-local-cluster: $*" >&2; exit 1; }

# The pid in FILE, if that process is alive.
alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

ours_running() { alive "$STATE/slurmctld.pid" && alive "$STATE/slurmd.pid" && alive "$STATE/munged.pid"; }

# Daemons of NAME that are not ours (their pid is not in our pid file).
foreign() {
  local name=$1 mine=""
  [ -f "$STATE/$name.pid" ] && mine=$(cat "$STATE/$name.pid")
  for p in $(pgrep -x "$name" || true); do
    [ "$p" = "$mine" ] || { echo "$p"; return 0; }
  done
  return 1
}

install_packages() {
  command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null \
    && command -v munged >/dev/null && return 0
  command -v apt-get >/dev/null || die "slurmctld, slurmd, sbatch or munged missing and no apt-get to install them"
  export DEBIAN_FRONTEND=noninteractive
  local attempt
  for attempt in 1 2 3; do
    if apt-get update -qq >/dev/null 2>&1 \
      && apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null 2>&1; then
      return 0
    fi
    echo "apt-get attempt $attempt failed; retrying" >&2
    sleep 5
  done
  die "could not install slurmctld slurmd slurm-client munge with apt-get"
}

write_config() {
  local hw cpus mem
  # This machine as slurmd sees it: CPUs, boards, sockets, cores, threads, memory.
  hw=$(slurmd -C | head -n 1 | sed 's/^NodeName=[^ ]* //')
  cpus=$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$hw")
  mem=$(sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' <<<"$hw")
  [ -n "$cpus" ] && [ -n "$mem" ] || die "could not read CPUs and memory from slurmd -C: $hw"
  cat >"$CONF" <<EOF
# Written by docs/distributed/slurm-local-cluster.sh: a one-node cluster.
ClusterName=tetrarch-local
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$STATE/munge/munge.socket
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/slurmd
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
SlurmctldLogFile=$STATE/slurmctld.log
SlurmdLogFile=$STATE/slurmd.log
# No cgroups (containers and laptops may not delegate them): processes are
# tracked by their parent, tasks are not bound to cores.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=300
KillWait=5
# Requeued tasks keep their number (the recipes resume them).
JobRequeue=1
NodeName=$NODE NodeHostname=$(hostname -s) NodeAddr=127.0.0.1 $hw State=UNKNOWN
PartitionName=local Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
  echo "$cpus CPUs, $mem MB"
}

start_munge() {
  local key=$STATE/munge/munge.key
  mkdir -p "$STATE/munge"
  if [ ! -s "$key" ]; then
    head -c 1024 /dev/urandom >"$key"
  fi
  chown -R munge:munge "$STATE/munge"
  chmod 0755 "$STATE/munge"
  chmod 0400 "$key"
  runuser -u munge -- munged --key-file="$key" --socket="$STATE/munge/munge.socket" \
    --pid-file="$STATE/munge/munged.pid" --log-file="$STATE/munge/munged.log" \
    --seed-file="$STATE/munge/munged.seed"
  # The pid file is the munge user's; ours is a copy in $STATE.
  local i
  for i in $(seq 50); do
    [ -s "$STATE/munge/munged.pid" ] && break
    sleep 0.1
  done
  cp "$STATE/munge/munged.pid" "$STATE/munged.pid"
}

start() {
  [ "$(id -u)" = 0 ] || die "run as root (it installs packages and starts daemons)"
  mkdir -p "$STATE"
  if ours_running; then
    echo "already running (state in $STATE)"
    echo "export SLURM_CONF=$CONF"
    return 0
  fi
  local d p
  for d in slurmctld slurmd munged; do
    if p=$(foreign "$d"); then
      die "a $d that this script did not start is running (pid $p): this machine has a Slurm of its own; use it, or stop it first"
    fi
  done
  install_packages
  stop_daemons quiet
  mkdir -p "$STATE/ctld" "$STATE/slurmd"
  chmod 0755 "$STATE"
  local hw
  hw=$(write_config)
  start_munge
  slurmctld -f "$CONF"
  slurmd -f "$CONF" -N "$NODE"
  export SLURM_CONF=$CONF
  # Up when the node takes jobs.
  local i state=""
  for i in $(seq 150); do
    state=$(sinfo -h -n "$NODE" -o %T 2>/dev/null || true)
    case "$state" in idle|mixed|allocated) break ;; esac
    sleep 0.2
  done
  case "$state" in
    idle|mixed|allocated) ;;
    *) tail -n 20 "$STATE/slurmctld.log" "$STATE/slurmd.log" >&2 || true
       die "the node did not come up (state '$state'); logs above, all files in $STATE" ;;
  esac
  echo "one-node Slurm running: node $NODE ($hw), partition local, state in $STATE"
  echo "export SLURM_CONF=$CONF"
}

stop_daemons() {
  local d i any=0
  for d in slurmd slurmctld munged; do
    if alive "$STATE/$d.pid"; then
      kill "$(cat "$STATE/$d.pid")" 2>/dev/null || true
      for i in $(seq 100); do
        alive "$STATE/$d.pid" || break
        sleep 0.1
      done
      alive "$STATE/$d.pid" && kill -9 "$(cat "$STATE/$d.pid")" 2>/dev/null || true
      any=1
    fi
    rm -f "$STATE/$d.pid"
  done
  [ "${1:-}" = quiet ] || { [ "$any" = 1 ] && echo "stopped (files kept in $STATE)" || echo "not running"; }
}

status() {
  if ours_running; then
    echo "running (state in $STATE)"
    SLURM_CONF=$CONF sinfo
  else
    echo "not running"
    return 3
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop_daemons ;;
  status) status ;;
  *) echo "usage: $0 start|stop|status   (state in \$SLURM_LOCAL_DIR, default /run/tetrarch-slurm)" >&2; exit 2 ;;
esac
