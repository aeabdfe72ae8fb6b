#!/usr/bin/env bash
# hq-query workout ID --format gpx with heart rate (hq-query(1),
# WORKOUTS): each point carries the heart-rate sample
# in force at its time by the hold rule (one source, pauses out, at most
# 120 s), as the independent reference (tests/data/athlete/reference.py's
# held()) has it, as Garmin's gpxtpx:hr in whole beats, in GPX 1.1 with
# the namespace declared (python's XML parser reads it); hq-ingest reads
# the file back with its heart rate.
. "$(dirname "$0")/lib.sh"

command -v python3 >/dev/null || skip_all "python3 missing"
command -v sqlite3 >/dev/null || skip_all "sqlite3 missing"
D=$HQ_ROOT/tests/data/athlete

: >"$T/empty.jsonl"
hq-ingest -q --format jsonl "$T/empty.jsonl" >/dev/null &&
    sqlite3 "$HQ_DB" <"$D/generated.sql"
ok $? "a store with the generated workouts"

for id in $(sqlite3 "$HQ_DB" "SELECT DISTINCT workout_id FROM route ORDER BY 1"); do
	hq-query workout "$id" --format gpx >"$T/w$id.gpx"
	ok $? "workout $id as GPX"
	python3 - "$T/w$id.gpx" "$HQ_DB" "$id" "$D" <<'PY'
import sqlite3, sys
import xml.etree.ElementTree as ET
from datetime import datetime, timezone
sys.path.insert(0, sys.argv[4])
import reference as ref
G = "{http://www.topografix.com/GPX/1/1}"
X = "{http://www.garmin.com/xmlschemas/TrackPointExtension/v1}"
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == G + "gpx" and root.get("version") == "1.1"
db = sqlite3.connect(sys.argv[2])
wid = int(sys.argv[3])
src, start, end = db.execute("SELECT source_id, start, end FROM workout WHERE id = ?",
                             (wid,)).fetchone()
pauses = ref.pauses_of(db, wid, start, end)
pieces, _ = ref.held(db, ref.HR, wid, src, start, end, pauses)
def in_force(t):
    v = None
    for t0, val, dt in pieces:
        if t0 <= t < t0 + dt:
            v = val
    return v
n = with_hr = bad = 0
for pt in root.iter(G + "trkpt"):
    n += 1
    kids = [c.tag for c in pt]
    t = int(datetime.strptime(pt.find(G + "time").text, "%Y-%m-%dT%H:%M:%SZ")
            .replace(tzinfo=timezone.utc).timestamp())
    hr = pt.find(G + "extensions/" + X + "TrackPointExtension/" + X + "hr")
    want = in_force(t)
    got = None if hr is None else int(hr.text)
    if want is not None:
        with_hr += 1
    if (want is None) != (got is None) or (got is not None and got != round(want)):
        bad += 1
        print("# point at %d: hr %r, want %r" % (t, got, want))
    if hr is not None and kids[-1] != G + "extensions":
        bad += 1
print("# %d points, %d with heart rate, %d in a pause or gap" % (n, with_hr, n - with_hr))
sys.exit(1 if bad or n == 0 or with_hr == 0 or with_hr == n else 0)
PY
	ok $? "workout $id: every point's gpxtpx:hr is the sample in force then, none in pauses and gaps"
done
like "$(sed -n 2p "$T/w1.gpx")" 'xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"' \
    "the namespace is declared"

# Read back by hq's own GPX reader: the heart rate comes with it.
HQ_DB="$T/back.db" hq-ingest -q "$T/w1.gpx" >/dev/null
ok $? "hq-ingest reads the GPX back"
got=$(sqlite3 "$T/back.db" "SELECT count(*), sum(value) FROM sample s JOIN metric m
    ON m.id = s.metric_id WHERE m.identifier = 'HKQuantityTypeIdentifierHeartRate'")
want=$(python3 -c '
import sys, xml.etree.ElementTree as ET
X = "{http://www.garmin.com/xmlschemas/TrackPointExtension/v1}hr"
v = [int(e.text) for e in ET.parse(sys.argv[1]).getroot().iter(X)]
print("%d|%d.0" % (len(v), sum(v)))' "$T/w1.gpx")
is "$got" "$want" "with every point's heart rate ($want: count|sum)"

# GeoJSON is unchanged by it; a route without heart rate has no extension.
hq-query workout 1 --format geojson | python3 -c 'import json,sys; json.load(sys.stdin)'
ok $? "GeoJSON still parses"
sqlite3 "$HQ_DB" "DELETE FROM sample"
hq-query workout 1 --format gpx >"$T/nohr.gpx"
ok $? "a route without heart rate"
unlike "$(cat "$T/nohr.gpx")" "gpxtpx" "has no extension and no namespace"
done_testing
