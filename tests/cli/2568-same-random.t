#!/usr/bin/env bash
# The same activity, settled import by import (lib/store/same.c: only what
# an import touched), agrees with the rule applied to the whole store at
# once by tests/data/athlete/reference.py activity (written from
# hq-ingest(1), not from hq's code): tests/cli/data/mksame.py random writes
# Apple Health files of workouts of four sources overlapping at random,
# with or without heart rates, distance, energy, ascent, a route and power,
# and later heart rates as JSON lines. After each import, the store's
# workout_same and workout_fill are what the rule gives. Three seeds.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip_all "no python3"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"
export HQ_TZ=UTC
store_rule() {
	sqlite3 "$HQ_DB" "SELECT 'yield ' || workout_id || ' ' || same_as
	   FROM workout_same UNION ALL SELECT 'fill ' || workout_id || ' ' ||
	   field || ' ' || from_id FROM workout_fill" | sort
}
for seed in 1 2 3; do
	rm -rf "$T/$seed" "$HQ_DB" "$HQ_DB-wal" "$HQ_DB-shm"
	mkdir "$T/$seed"
	python3 "$HQ_ROOT/tests/cli/data/mksame.py" "$T/$seed" random $seed 6
	bad=""
	for f in "$T/$seed"/r*.xml "$T/$seed/late.jsonl"; do
		hq-ingest -q "$f" >/dev/null 2>&1 || bad="$bad ${f##*/}:import"
		[ "$(python3 "$HQ_ROOT/tests/data/athlete/reference.py" activity "$HQ_DB")" = \
		    "$(store_rule)" ] || bad="$bad ${f##*/}"
	done
	is "$bad" "" "seed $seed: after each import, the rule's yields and fills"
	like "$(store_rule | grep -c yield)" '^[1-9]' "seed $seed: some recordings yield"
done
done_testing
