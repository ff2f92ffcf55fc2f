#!/usr/bin/env bash
# Shards on several machines over ssh with GNU parallel (--sshlogin), then
# one result here (docs/distributed.md). JOB=match (default) or datagen, as
# in parallel-local.sh.
#
# Two ways to get the shards' files back:
# - no shared filesystem (default): each shard's file is sent to the host
#   that runs it (empty at first, so a re-run of this script continues it
#   with --resume, on any host) and fetched back when the shard ends;
# - SHARED_DIR=/path/seen/by/every/host (NFS, a cluster's home): the shards
#   write there directly, and a match runs the SPRT over all of them
#   (--records-dir), stopping every shard once it decides.
#
# The binaries must be at the same paths on every host (TETRARCH, NEW, OLD);
# the report / tune runs here with LOCAL_TETRARCH. HOSTS is parallel's
# --sshlogin list: user@host, 4/host for 4 shards at once there (default:
# as many as it has cores), ':' for this machine (then REMOTE_DIR=. : parallel
# runs local jobs in --workdir too, and sends no files to itself).
#   HOSTS=8/alice@node1,8/node2 SHARDS=16 GAMES=20000 docs/distributed/parallel-ssh.sh
set -euo pipefail

JOB=${JOB:-match}                                # match | datagen
HOSTS=${HOSTS:-node1,node2}
SHARED_DIR=${SHARED_DIR:-}                       # empty: files go back and forth with each shard
REMOTE_DIR=${REMOTE_DIR:-tetrarch-shards}        # working folder on the hosts (relative: in the login's home)
TETRARCH=${TETRARCH:-/opt/tetrarch/tetrarch}     # on every host
LOCAL_TETRARCH=${LOCAL_TETRARCH:-$TETRARCH}      # here
SHARDS=${SHARDS:-8}
VARIANT=${VARIANT:-teamchess}
GAMES=${GAMES:-10000}
SEED=${SEED:-1}
OUT=${OUT:-results}                              # here: where the files end up
NEW=${NEW:-/opt/tetrarch/tetrarch}
OLD=${OLD:-/opt/tetrarch/tetrarch-old}
LIMITS=${LIMITS:-tc=10+0.1}
OPTIONS=${OPTIONS-option.Threads=1 option.Hash=64}
SPRT=${SPRT-elo0=0 elo1=10 alpha=0.05 beta=0.05} # SPRT= for none; only with SHARED_DIR
NODES=${NODES:-4000}
EPOCHS=${EPOCHS:-30}

match="$TETRARCH match --variant $VARIANT --games $GAMES --seed $SEED --random-plies 4 \
  --engine cmd=$NEW name=new --engine cmd=$OLD name=old --each $LIMITS $OPTIONS --shard {}/$SHARDS --resume"
datagen="$TETRARCH datagen --variant $VARIANT --games $GAMES --nodes $NODES --seed $SEED \
  --concurrency 1 --shard {}/$SHARDS --resume --quiet"

mkdir -p "$OUT"
if [ -n "$SHARED_DIR" ]; then
  if [ "$JOB" = match ]; then
    seq 1 "$SHARDS" | parallel --sshlogin "$HOSTS" --line-buffer --tagstring 'shard {}' \
      "$match ${SPRT:+--sprt $SPRT} --records-dir $SHARED_DIR"
    "$LOCAL_TETRARCH" match report "$SHARED_DIR"
  else
    seq 1 "$SHARDS" | parallel --sshlogin "$HOSTS" --line-buffer --tagstring 'shard {}' \
      "$datagen --out $SHARED_DIR/data-{}.jsonl"
    "$LOCAL_TETRARCH" tune --variant "$VARIANT" --data "$SHARED_DIR"/data-*.jsonl --out "$OUT/$VARIANT.weights" --epochs "$EPOCHS"
  fi
  exit 0
fi

cd "$OUT"
if [ "$JOB" = match ]; then
  for k in $(seq 1 "$SHARDS"); do touch "shard-$k.jsonl"; done
  seq 1 "$SHARDS" | parallel --sshlogin "$HOSTS" --workdir "$REMOTE_DIR" --line-buffer --tagstring 'shard {}' \
    --transferfile shard-{}.jsonl --return shard-{}.jsonl --cleanup \
    "$match --records shard-{}.jsonl"
  "$LOCAL_TETRARCH" match report shard-*.jsonl
else
  # An empty file is a shard not begun: datagen --resume wants none.
  for k in $(seq 1 "$SHARDS"); do touch "data-$k.jsonl"; done
  seq 1 "$SHARDS" | parallel --sshlogin "$HOSTS" --workdir "$REMOTE_DIR" --line-buffer --tagstring 'shard {}' \
    --transferfile data-{}.jsonl --return data-{}.jsonl --cleanup \
    "[ -s data-{}.jsonl ] || rm -f data-{}.jsonl; $datagen --out data-{}.jsonl"
  "$LOCAL_TETRARCH" tune --variant "$VARIANT" --data data-*.jsonl --out "$VARIANT.weights" --epochs "$EPOCHS"
fi
