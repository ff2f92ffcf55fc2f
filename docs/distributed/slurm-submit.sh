#!/usr/bin/env bash
# Submits the shards as a Slurm job array and the report (or tune) job that
# starts when every task of the array has ended (afterany: a failed task
# leaves its games out of the report, which names the missing games).
#   SHARDS=16 docs/distributed/slurm-submit.sh
#   JOB=datagen SHARDS=32 GAMES=100000 docs/distributed/slurm-submit.sh
# sbatch passes this environment on (JOB, OUT, TETRARCH, GAMES, ...), and
# SHARDS, so that a task resubmitted alone knows the number of shards.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export SHARDS=${SHARDS:-16}
array=$(sbatch --parsable --array=1-"$SHARDS" "$here/slurm-shards.sbatch")
array=${array%%;*}
combine=$(sbatch --parsable --dependency=afterany:"$array" "$here/slurm-combine.sbatch")
echo "shards: job $array (tasks 1-$SHARDS); report/tune: job ${combine%%;*} after it"
