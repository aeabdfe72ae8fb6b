#!/usr/bin/env bash
# hq-query search (issue 31) finds a workout by the name its GPX file
# gives it (<trk><name>): the readers keep it as the workout's HQName
# metadata, and search indexes it as it does every metadata word. Real
# files: an Apple Watch GPX from placemark/togeojson ("Friday Evening
# Run") and a crafted one ("Morning Run"); a GPX without a name gets none.
. "$(dirname "$0")/lib.sh"
command -v hq-ingest >/dev/null && command -v hq-query >/dev/null ||
	skip_all "hq-ingest or hq-query is not built"
F="$(dirname "$0")/../fixtures/workouts"

hq-ingest -q "$F/togeojson/Friday-Evening-Run.gpx" \
    "$F/crafted/runner-1.gpx" >/dev/null 2>&1
ok $? "two GPX files with names imported"
is "$(sqlite3 "$HQ_DB" "SELECT value FROM workout_meta WHERE key = 'HQName'
    ORDER BY workout_id")" "Friday Evening Run
Morning Run" "each workout keeps its file's name"
title() { hq-query search "$@" --format jsonl | perl -MJSON::PP -ne \
	'my $r = decode_json($_); print join(" ", $r->{kind}, substr($r->{date}, 0, 10), $r->{snippet}), "\n"'; }
like "$(title friday evening)" '^workout 2025-05-02 \[Friday\] \[Evening\] Run' \
	"found by the words of its name, which the snippet shows"
is "$(hq-query search '"morning run"' --count)" 1 "a name as a phrase"
is "$(hq-query search friday --in labs --count 2>/dev/null)" 0 \
	"a workout's name is no lab's"

# a GPX with no <name>: no HQName (nothing made up)
perl -pe 's{<name>[^<]*</name>}{}g' "$F/crafted/runner-2.gpx" >"$T/noname.gpx"
hq-ingest -q "$T/noname.gpx" >/dev/null 2>&1
ok $? "a GPX without a name imported"
is "$(sqlite3 "$HQ_DB" "SELECT count(*) FROM workout_meta WHERE key = 'HQName'")" 2 \
	"and given no name"
# the same file again: one workout, its name once
hq-ingest -q "$F/togeojson/Friday-Evening-Run.gpx" >/dev/null 2>&1
is "$(hq-query search friday evening --count)" 1 "imported twice, found once"
done_testing
