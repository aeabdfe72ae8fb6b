#!/usr/bin/env bash
# hq-ingest computes and keeps the training figures of the workouts it
# imports (issue 21: hq-report load over ten years <= 2x one SQL pass over
# the heart rates, first run included): once its imports have committed it
# fills workout_figures for every workout that has no row, in a
# transaction of its own, so that the next hq-report load reads no
# samples (the figures stay those of samples deleted behind hq's back) and
# gives what the samples give (the rows removed, computed from them again).
# Best effort: the import's lines and exit status are what they were when
# the figures cannot be kept (a trigger refuses them), and it says so once
# (not with -q, which prints no warnings).
. "$(dirname "$0")/lib.sh"
command -v gen-fit >/dev/null || skip_all "gen-fit not built"
command -v sqlite3 >/dev/null || skip_all "sqlite3 missing"
q() { sqlite3 "$HQ_DB" "$1"; }
R=(--from 2024-01-01 --to 2024-01-12)

# Three rides of 20 minutes (heart rate, power, a route), a day apart.
gen-fit -n 3 -r 1200 -d 86400 -o "$T/a" >/dev/null
run hq-ingest "$T"/a/ride-000[12].fit
is "$rc" 0 "two rides imported: exit 0"
is "$err" "" "nothing on stderr"
is "$(printf '%s\n' "$out" | grep -c '^{"file":')" 2 "a summary line a file"
is "$(printf '%s\n' "$out" | wc -l)" 2 "and no other line"
is "$(q "SELECT count(*) FROM workout")" 2 "2 workouts"
is "$(q "SELECT count(*) FROM workout_figures")" 2 "2 rows of figures kept"
is "$(q "SELECT count(*) FROM workout_figures WHERE nhr > 0")" 2 \
    "from their heart rates"

run hq-ingest -q "$T/a/ride-0003.fit"
is "$rc" 0 "a third ride: exit 0"
is "$(q "SELECT count(*) FROM workout_figures")" 3 "its figures kept too"
is "$(q "SELECT group_concat(workout_id) FROM workout_figures
    WHERE stamp = (SELECT max(id) FROM import)")" \
    "$(q "SELECT max(id) FROM workout")" "computed after its import alone"

# The loads from the samples: the same store without the kept rows.
sqlite3 "$HQ_DB" ".backup $T/s.db"
sqlite3 "$T/s.db" "DELETE FROM workout_figures"
HQ_DB=$T/s.db hq-report load "${R[@]}" --format jsonl >"$T/from-samples"
ok $? "hq-report load from the samples"
like "$(cat "$T/from-samples")" '"load":[1-9]' "some load"
# The store as hq-ingest left it, its heart-rate and power samples gone.
sqlite3 "$HQ_DB" ".backup $T/k.db"
sqlite3 "$T/k.db" "DELETE FROM sample WHERE metric_id IN (SELECT id FROM metric
    WHERE identifier IN ('HKQuantityTypeIdentifierHeartRate',
    'HKQuantityTypeIdentifierCyclingPower'))"
HQ_DB=$T/k.db hq-report load "${R[@]}" --format jsonl >"$T/kept"
ok $? "hq-report load on the store as hq-ingest left it"
cmp -s "$T/from-samples" "$T/kept"
ok $? "the same loads with every heart-rate and power sample deleted: none read"

# The figures cannot be kept: the import stands, as it would have.
export HQ_DB=$T/t.db
gen-fit -n 3 -r 600 -d 86400 -t 1735718400 -o "$T/b" >/dev/null
hq-ingest -q "$T/b/ride-0001.fit" >/dev/null
sqlite3 "$HQ_DB" "CREATE TRIGGER no_room BEFORE INSERT ON workout_figures
    BEGIN SELECT RAISE(ABORT, 'no room'); END"
run hq-ingest "$T/b/ride-0002.fit"
is "$rc" 0 "figures refused: exit 0 all the same"
is "$(printf '%s\n' "$out" | grep -c '^{"file":.*ride-0002.fit')" 1 \
    "its summary line"
is "$(printf '%s\n' "$out" | wc -l)" 1 "alone"
like "$err" "^hq-ingest: .*keeping the workouts' figures: no room \(computed at their first use instead\)$" \
    "one warning"
is "$(printf '%s\n' "$err" | wc -l)" 1 "once"
is "$(q "SELECT count(*) FROM workout")" 2 "the ride is in the store"
is "$(q "SELECT count(*) FROM workout_figures")" 1 "no figures kept but the first ride's"
q "DROP TRIGGER no_room"
hq-report load --from 2025-01-01 --to 2025-01-04 --format jsonl >/dev/null
ok $? "hq-report load keeps them at first use"
is "$(q "SELECT count(*) FROM workout_figures")" 2 "both"

sqlite3 "$HQ_DB" "CREATE TRIGGER no_room BEFORE INSERT ON workout_figures
    BEGIN SELECT RAISE(ABORT, 'no room'); END"
run hq-ingest -q "$T/b/ride-0003.fit"
is "$rc" 0 "-q: exit 0"
is "$err" "" "-q: no warning"
is "$(printf '%s\n' "$out" | grep -c '^{"file":')" 1 "-q: the summary line"

done_testing
