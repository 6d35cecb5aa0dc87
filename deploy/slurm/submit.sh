#!/usr/bin/env bash
# Submits a tournament as a Slurm job array of N shards and a merge job that runs once every shard has
# succeeded (--dependency=afterok). Run from the repository's folder:
#
#   deploy/slurm/submit.sh configs/shards-connect4.toml 4
#
# Prints the two job ids. Extra sbatch options (partition, time limit, …) go in SBATCH_* variables, e.g.
# SBATCH_PARTITION=batch SBATCH_TIMELIMIT=2:00:00.
set -euo pipefail
config=${1:?usage: deploy/slurm/submit.sh <config.toml> <shards>}
shards=${2:?usage: deploy/slurm/submit.sh <config.toml> <shards>}
here=$(dirname "$0")
# The tournament's name: the config's top-level `name` (TOML puts top-level keys before any table, so the
# first `name =` line is it).
name=$(sed -n 's/^name[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' "$config" | head -n 1)
[ -n "$name" ] || { echo "no name = \"…\" in $config" >&2; exit 2; }
shards_job=$(sbatch --parsable --array=0-$((shards - 1)) "$here/shards.sbatch" "$config")
shards_job=${shards_job%%;*}
merge_job=$(sbatch --parsable --dependency=afterok:"$shards_job" "$here/merge.sbatch" "$name" "$shards")
echo "shards: job array $shards_job (0-$((shards - 1))); merge: job $merge_job into ${ARENA_RESULTS:-results}/$name"
