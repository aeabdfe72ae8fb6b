#!/usr/bin/env bash
# The kept figures (workout_figures, lib/analyze/athlete_cache.c) and the
# imports after them (lib/store/figures.c): an import drops only the rows
# it could change. On the generated data (tests/data/athlete): heart rate
# on a day without a workout keeps every row (the figures stay those of
# samples deleted behind hq's back: none read); heart rate inside workout 2
# drops its row alone (hq-ingest keeps it again: tests/cli/1018 for
# that), and hq-report load then agrees with the independent
# reference (tests/data/athlete/reference.py rows) on the store as it is,
# workout 2's row the only one kept again at the new import.
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || skip_all "sqlite3 missing"
command -v python3 >/dev/null || skip_all "python3 missing"
REF=$HQ_ROOT/tests/data/athlete/reference.py
R=(--from 2026-10-18 --to 2026-11-14)
: >"$T/empty.jsonl"
hq-ingest -q "$T/empty.jsonl" 2>/dev/null
sqlite3 "$HQ_DB" <"$HQ_ROOT/tests/data/athlete/generated.sql"
rows() { sqlite3 "$HQ_DB" "SELECT count(*) FROM workout_figures"; }
last() { sqlite3 "$HQ_DB" "SELECT max(id) FROM import"; }
# hr_at EPOCH N BPM: N heart rates of the Apple Watch, 2 s apart.
hr_at() {
	for i in $(seq 0 $(($2 - 1))); do
		printf '{"metric":"heart_rate","start":"%s","value":%s,"unit":"count/min","source":"Apple Watch"}\n' \
		    "$(date -u -d "@$(($1 + 2 * i + 1))" +%FT%TZ)" "$3"
	done
}

# A step count at the range's end: the load's rows reach the newest data
# (hq-report(1)), and this keeps that day where it is once the heart rates
# are deleted below.
printf '{"metric":"step_count","start":"2026-11-14T20:00:00Z","value":1000,"unit":"count","source":"Apple Watch"}\n' \
    >"$T/steps.jsonl"
hq-ingest -q "$T/steps.jsonl" >/dev/null
hq-report load "${R[@]}" --format jsonl >"$T/load1"
ok $? "hq-report load: the figures kept"
is "$(rows)" 8 "a row for each of the 8 workouts"

# A day without a workout (the first starts 2026-10-18).
hr_at "$(date -u -d 2026-10-10T12:00:00Z +%s)" 20 95 >"$T/out.jsonl"
hq-ingest -q "$T/out.jsonl" >/dev/null
ok $? "an import of heart rate on a day without a workout"
is "$(rows)" 8 "no row dropped"
is "$(sqlite3 "$HQ_DB" "SELECT count(*) FROM workout_figures WHERE stamp = $(last)")" 0 \
    "every row from before that import"
sqlite3 "$HQ_DB" ".backup $T/c.db"
sqlite3 "$T/c.db" "DELETE FROM sample WHERE metric_id IN (SELECT id FROM metric
    WHERE identifier IN ('HKQuantityTypeIdentifierHeartRate',
    'HKQuantityTypeIdentifierCyclingPower'))"
HQ_DB=$T/c.db hq-report load "${R[@]}" --format jsonl >"$T/load2"
cmp -s "$T/load1" "$T/load2"
ok $? "the same loads with every heart-rate and power sample deleted: none read"

# Inside workout 2 (a ride 2026-10-21 00:30 to 01:30 UTC, the watch's;
# after its pause).
hr_at $((1792542600 + 2000)) 30 188 >"$T/in.jsonl"
hq-ingest -q "$T/in.jsonl" >/dev/null
ok $? "an import of 30 heart rates inside workout 2"
is "$(sqlite3 "$HQ_DB" "SELECT group_concat(workout_id) FROM workout_figures WHERE stamp = $(last)")" 2 \
    "its row alone dropped, and kept again by hq-ingest after the import"
hq-report load "${R[@]}" --format jsonl >"$T/hq.jsonl"
python3 "$REF" rows "$HQ_DB" America/Los_Angeles load "${R[@]}" >"$T/ref.jsonl"
python3 "$REF" same "$T/hq.jsonl" "$T/ref.jsonl"
ok $? "hq-report load as the reference computes it from the store as it is"
! cmp -s "$T/load1" "$T/hq.jsonl"
ok $? "the loads changed"
is "$(rows)" 8 "and every workout kept"

done_testing
