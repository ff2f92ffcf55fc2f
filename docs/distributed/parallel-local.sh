#!/usr/bin/env bash
# Shards on one machine with GNU parallel, then one result over all of them
# (docs/distributed.md). JOB=match (default): a match in SHARDS shards and
# `tetrarch match report`; JOB=datagen: self-play data in SHARDS shards and
# `tetrarch tune` over all the files.
#
# Change the settings below, or give them in the environment:
#   JOB=datagen SHARDS=2 GAMES=2000 docs/distributed/parallel-local.sh
# Running it again continues: every shard is started with --resume.
set -euo pipefail

JOB=${JOB:-match}                          # match | datagen
TETRARCH=${TETRARCH:-./target/release/tetrarch}
SHARDS=${SHARDS:-2}                        # processes at once (each plays one game at a time)
VARIANT=${VARIANT:-teamchess}
GAMES=${GAMES:-1000}                       # the whole run's games, all shards together
SEED=${SEED:-1}                            # the same seed for every shard: one match
OUT=${OUT:-results}                        # the shards' folder
# match: the two engines, their limits and options, the SPRT (empty: none)
NEW=${NEW:-./target/release/tetrarch}
OLD=${OLD:-./old/tetrarch}
LIMITS=${LIMITS:-tc=10+0.1}
OPTIONS=${OPTIONS-option.Threads=1 option.Hash=64}
SPRT=${SPRT-elo0=0 elo1=10 alpha=0.05 beta=0.05} # SPRT= for none
# datagen: nodes per turn, and the tuner's epochs
NODES=${NODES:-4000}
EPOCHS=${EPOCHS:-30}

mkdir -p "$OUT"
if [ "$JOB" = match ]; then
  # Each shard writes $OUT/shard-K.jsonl; with --sprt every shard reads the
  # others' files before each new game pair and all stop once it decides.
  seq 1 "$SHARDS" | parallel --jobs "$SHARDS" --line-buffer --tagstring 'shard {}' \
    "$TETRARCH" match --variant "$VARIANT" --games "$GAMES" --seed "$SEED" --random-plies 4 \
      --engine cmd="$NEW" name=new --engine cmd="$OLD" name=old --each "$LIMITS" $OPTIONS \
      ${SPRT:+--sprt $SPRT} --shard {}/"$SHARDS" --records-dir "$OUT" --resume
  "$TETRARCH" match report "$OUT"
else
  # Shard K plays games K-1, K-1+SHARDS, ... of the one seed into its own file.
  seq 1 "$SHARDS" | parallel --jobs "$SHARDS" --line-buffer --tagstring 'shard {}' \
    "$TETRARCH" datagen --variant "$VARIANT" --games "$GAMES" --nodes "$NODES" --seed "$SEED" \
      --concurrency 1 --shard {}/"$SHARDS" --out "$OUT"/data-{}.jsonl --resume --quiet
  "$TETRARCH" tune --variant "$VARIANT" --data "$OUT"/data-*.jsonl --out "$OUT/$VARIANT.weights" --epochs "$EPOCHS"
fi
