#!/usr/bin/env bash
# Device files packed (lib/read/devicezip.c): a .fit.gz, .tcx.gz and .gpx.gz
# read as the file inside; a zip of many (Garmin Connect's and Strava's
# bulk exports) read file by file in one import, storing what the files
# imported one by one store; a broken file in the zip skipped alone, named
# with its byte; files that are no device file skipped; --format forces
# a zip whose first bytes do not show its files; a gzip bomb, a gzip
# inside a gzip and a truncated gzip refused; an Apple export zip with its
# routes still Apple's.
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"
need_fixtures workouts/fitparse/garmin-fenix-5-run.fit \
    workouts/fitparse/garmin-fenix-5-walk.fit workouts/fitparse/activity-filecrc.fit \
    workouts/tcxparser/test.tcx workouts/togeojson/run.gpx
W=$HQ_FIXTURES/workouts
q() { sqlite3 -separator ' ' "$HQ_DB" "$1"; }
state() {
	q "SELECT (SELECT count(*) FROM sample), (SELECT count(*) FROM workout),
	   (SELECT count(*) FROM route_point), (SELECT count(*) FROM workout_event),
	   (SELECT group_concat(name, ',') FROM (SELECT name FROM source ORDER BY name))"
}
# zipdir ZIP FILE...: a zip of the files (stored under their base names)
zipit() {
	python3 - "$@" <<'EOF'
import sys, zipfile, os
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
    for f in sys.argv[2:]:
        z.write(f, os.path.basename(f))
EOF
}

gzip -c "$W/fitparse/garmin-fenix-5-run.fit" >"$T/run.fit.gz"
gzip -c "$W/fitparse/garmin-fenix-5-walk.fit" >"$T/walk.fit.gz"
gzip -c "$W/tcxparser/test.tcx" >"$T/test.tcx.gz"
gzip -c "$W/togeojson/run.gpx" >"$T/run.gpx.gz"

# The same files one by one, unpacked: what a zip must store too.
export HQ_DB="$T/plain.db"
for f in fitparse/garmin-fenix-5-run.fit fitparse/garmin-fenix-5-walk.fit \
    tcxparser/test.tcx togeojson/run.gpx; do
	hq-ingest -q "$W/$f" >/dev/null
done
plain=$(state)
like "$plain" "^[0-9]+ 4 " "four files, four workouts, imported unpacked"

export HQ_DB="$T/gz.db"
run hq-ingest "$T/run.fit.gz"
is "$rc" 0 "a .fit.gz imports"
like "$out" '"format":"fit.gz"' "sniffed as gzip, said as the FIT it holds"
is "$(q "SELECT count(*), max(value) FROM sample WHERE metric_id =
    (SELECT id FROM metric WHERE identifier = 'HKQuantityTypeIdentifierHeartRate')")" \
    "21 112.0" "the FIT inside: HR 21, max 112 (as 1010 reads it unpacked)"
for f in "$T/walk.fit.gz" "$T/test.tcx.gz" "$T/run.gpx.gz"; do
	run hq-ingest -q "$f"
	is "$rc" 0 "$(basename "$f") imports"
done
is "$(state)" "$plain" "four .gz files store what the four files store"

# A zip of them, with a CSV and a broken FIT beside them
printf 'date,steps\n2024-01-01,100\n' >"$T/profile.csv"
cp "$W/fitparse/activity-filecrc.fit" "$T/broken.fit"
zipit "$T/export.zip" "$T/profile.csv" "$W/fitparse/garmin-fenix-5-run.fit" \
    "$T/walk.fit.gz" "$T/broken.fit" "$W/tcxparser/test.tcx" "$W/togeojson/run.gpx"
export HQ_DB="$T/zip.db"
run hq-ingest "$T/export.zip"
is "$rc" 0 "a zip of device files imports"
like "$out" '"format":"device-zip"' "sniffed as a zip of device files"
like "$out" '"workouts":4,' "four workouts in one import"
is "$(state)" "$plain" "the zip stores what its files store one by one"
like "$err" "export.zip:broken.fit: byte 769: file CRC mismatch.*skipped: nothing from this file" \
    "the broken FIT is named with its byte and skipped alone"
like "$err" "1 files that are no FIT, TCX or GPX file" "the CSV is skipped and counted"
run hq-ingest -q "$T/export.zip"
like "$out" '"inserted":0,.*"workouts_inserted":0,' "the zip again adds nothing"

# A zip whose first 64 KiB show no device file (a big CSV first): Apple's
# to judge by sniffing; --format fit reads it as device files.
head -c 200000 /dev/urandom | od -An -tx1 | head -c 100000 >"$T/big.csv"
python3 - "$T/late.zip" "$T/big.csv" "$W/fitparse/garmin-fenix-5-run.fit" <<'EOF'
import sys, zipfile, os
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_STORED) as z:
    for f in sys.argv[2:]:
        z.write(f, os.path.basename(f))
EOF
export HQ_DB="$T/late.db"
run hq-ingest -q "$T/late.zip"
ok $(( rc != 0 ? 0 : 1 )) "sniffed, a zip that shows no device file is no device zip"
run hq-ingest -q --format fit "$T/late.zip"
is "$rc" 0 "--format fit reads it as a zip of FIT files"
like "$out" '"workouts":1,' "finding the run"

# An Apple export zip holding GPX routes (first) stays Apple's
D=$HQ_FIXTURES/apple-health/dogsheep/zip_contents
need_fixtures apple-health/dogsheep/zip_contents
(cd "$D" && python3 - "$T/apple.zip" <<'EOF'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
    z.write('apple_health_export/workout-routes/route_2019-06-11_3.00pm.gpx')
    z.write('apple_health_export/export.xml')
EOF
)
export HQ_DB="$T/apple.db"
run hq-ingest -q "$T/apple.zip"
like "$out" '"format":"apple-zip"' "an Apple export zip, its route GPX first, is still Apple's"
like "$out" '"routes":1,' "and its route is the workout's, as Apple's reader links it"

# Bad packing
export HQ_DB="$T/bad.db"
head -c 3000 "$T/test.tcx.gz" >"$T/cut.tcx.gz"
run hq-ingest -q "$T/cut.tcx.gz"
ok $(( rc != 0 ? 0 : 1 )) "a truncated gzip is refused"
like "$err" "cut.tcx.gz" "naming the file"
head -c 50000000 /dev/zero | gzip -c >"$T/bomb.gz"
run hq-ingest -q "$T/bomb.gz"
ok $(( rc != 0 ? 0 : 1 )) "a gzip of 50 MB of zeros is refused"
like "$err" "no FIT, TCX or GPX file" "as holding no device file"
is "$(q 'SELECT count(*) FROM sample')" 0 "nothing stored"
gzip -c "$T/run.fit.gz" >"$T/twice.gz"
run hq-ingest -q "$T/twice.gz"
is "$rc" 2 "a gzip of a gzip is refused (one layer is read: 1020)"
like "$err" "twice\.gz: a gzip inside a gzip" "saying so"

done_testing
