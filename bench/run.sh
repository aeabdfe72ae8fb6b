#!/bin/sh
# make bench: every benchmark in bench/, each printing its figures as ratios
# against a baseline measured in the same run. HQ_BENCH_ONLY=name runs one.
set -eu
cd "$(dirname "$0")/.."
: "${HQ_BUILD:=$(pwd)/build}"
export HQ_BUILD PATH="$HQ_BUILD/bin:$HQ_BUILD/tools:$PATH"
status=0
for b in bench/*.sh; do
	name=$(basename "$b" .sh)
	[ "$name" = run ] || [ "$name" = lib ] && continue
	[ -n "${HQ_BENCH_ONLY:-}" ] && [ "$HQ_BENCH_ONLY" != "$name" ] && continue
	echo "== bench: $name"
	sh "$b" || status=1
done
exit $status
