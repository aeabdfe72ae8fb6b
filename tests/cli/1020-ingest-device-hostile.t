#!/usr/bin/env bash
# Hostile device files, round three (issue 29), crafted by
# tests/cli/data/mkdevice.py: gzip inside gzip, a bomb of one layer and
# wrong trailers refused; values no body makes skipped and counted (FIT,
# TCX, GPX), "0x10" no number; times more than a day after the import
# skipped and counted; 100,000 attributes on one element refused at once; sessions and
# laps of impossible lengths (signed overflows under UBSan before); a
# product name that is not UTF-8 repaired, the file's data kept; the second
# file of a chained FIT with its own device; TCX and GPX in UTF-16 or with
# an internal DTD read, an external entity still refused; times without a
# zone the same whatever --tz. HQ_NOW pins the import's clock.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip_all "no python3"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"
python3 "$HQ_ROOT/tests/cli/data/mkdevice.py" "$T"
export HQ_NOW=2024-06-01T00:00:00Z
HK=HKQuantityTypeIdentifier
q() { sqlite3 -separator ' ' "$HQ_DB" "$1"; }
fresh() { rm -f "$HQ_DB" "$HQ_DB"-wal "$HQ_DB"-shm; }
n() {   # samples of metric $1
	q "SELECT count(*) FROM sample WHERE metric_id =
	   (SELECT id FROM metric WHERE identifier = '$HK$1')"
}
state() {
	q "SELECT (SELECT count(*) FROM sample), (SELECT count(*) FROM workout),
	   (SELECT count(*) FROM route_point)" 2>/dev/null || echo "0 0 0"
}
# imp FILE [OPTION...]: into a fresh store
imp() {
	fresh
	run hq-ingest "$@"
}
# No sanitizer report, whatever the exit status.
clean() { unlike "$err" "runtime error|AddressSanitizer|LeakSanitizer" "$1: no sanitizer report"; }
# secs CMD...: run, and the seconds it took in $secs
secs() {
	local t0 t1
	t0=$(date +%s%N)
	run "$@"
	t1=$(date +%s%N)
	secs=$(( (t1 - t0) / 1000000 ))
	secs=$(printf '%d.%03d' $((secs / 1000)) $((secs % 1000)))
}

# ---- packing (item 2, 9) -----------------------------------------------------
imp "$T/good.fit.gz"
is "$rc $(n HeartRate)" "0 10" "a good .fit.gz imports (10 heart rates)"
# 267 bytes, three gzips of a 20 MB FIT of 4 million records: before, all
# three were unwrapped (libarchive) and the records read (28 s on a
# busy machine).
fresh
secs timeout 60 hq-ingest "$T/nested.fit.gz.gz.gz"
is "$rc" 2 "a gzip inside a gzip inside a gzip: refused"
like "$err" "nested\.fit\.gz\.gz\.gz: a gzip inside a gzip: one layer of compression is read" "saying so"
ok "$(awk -v s="$secs" 'BEGIN { exit !(s < 5) }'; echo $?)" "in ${secs} s (< 5)"
is "$(state)" "0 0 0" "nothing stored"
# 27 KB that unpack to 18 MB: past 16 MiB and 100 times the file
secs timeout 60 hq-ingest "$T/bomb.fit.gz"
is "$rc" 2 "a gzip that unpacks to 680 times its size: refused"
like "$err" "bomb\.fit\.gz: unpacks to more than 100 times its size \(past 16 MiB\)" "saying so"
ok "$(awk -v s="$secs" 'BEGIN { exit !(s < 5) }'; echo $?)" "in ${secs} s (< 5)"
# the same bound in a zip (deflate), the bomb as an entry
python3 - "$T/bomb.zip" "$T/good.fit.gz" "$T/bomb.fit.gz" <<'EOF'
import gzip, sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('ride.fit', gzip.decompress(open(sys.argv[2], 'rb').read()))
    z.writestr('bomb.fit', gzip.decompress(open(sys.argv[3], 'rb').read()))
EOF
imp "$T/bomb.zip"
is "$rc" 2 "a zip whose entry unpacks to 700 times the zip: refused"
like "$err" "bomb\.zip:bomb\.fit: unpacks to more than 100 times its size" "naming the entry"
imp "$T/badcrc.fit.gz"
is "$rc" 2 "a gzip whose CRC-32 is wrong: refused (gzip -t: broken)"
like "$err" "badcrc\.fit\.gz: a damaged gzip: the CRC-32 in its trailer does not match" "saying so"
is "$(state)" "0 0 0" "nothing stored"
imp "$T/badlen.fit.gz"
is "$rc" 2 "a gzip whose length is wrong: refused"
like "$err" "badlen\.fit\.gz: a damaged gzip: the length in its trailer does not match" "saying so"
{ cat "$T/good.fit.gz"; printf 'junk'; } >"$T/junk.fit.gz"
imp "$T/junk.fit.gz"
like "$rc $err" "^2 .*junk\.fit\.gz: a damaged gzip: bytes after its end" "bytes after the trailer: refused"
{ cat "$T/good.fit.gz"; head -c 5000 /dev/zero; } >"$T/pad.fit.gz"
imp "$T/pad.fit.gz"
is "$rc" 0 "zeros after the end (padding, which gzip -t passes): read"
{ cat "$T/good.fit.gz" "$T/good.fit.gz"; } >"$T/two.fit.gz"
imp "$T/two.fit.gz"
is "$rc" 0 "two members, as gzip writes them when appended: read as one file"

# ---- values no body makes (item 5) -------------------------------------------
# values.fit: 10 good records, then one bad value each (heart rate 60,000,
# 1e11 and -50, power -50 and 1e7, cadence 60,000, speed -180 and 1e6 m/s)
# as float64 fields; the session's maximum heart rate 60,000, its average
# power -50.
imp "$T/values.fit"
is "$rc" 0 "values.fit imports"
is "$(n HeartRate) $(n CyclingPower) $(n CyclingCadence) $(n CyclingSpeed)" \
    "15 16 17 16" "the good values kept: heart rate 15, power 16, cadence 17, speed 16"
like "$out" '"skipped":8,' "the 8 bad ones skipped and counted"
like "$err" "values\.fit: 2 heart_rate samples skipped, .*not one a body makes" "heart rates warned once"
like "$err" "values\.fit: 1 heart rates marked invalid" "1e11, past the field's integer, marked invalid by the decoder"
like "$err" "values\.fit: 2 cycling_speed samples skipped" "speeds warned once"
is "$(q "SELECT count(*) FROM workout_stat WHERE maximum > 300 OR average < 0")" 0 \
    "the session's heart rate maximum 60,000 and power average -50 dropped"
like "$err" "values\.fit: session 1: .*max_hr 60000" "and said"
imp "$T/values.gpx"
is "$rc" 0 "values.gpx imports"
is "$(n HeartRate) $(n CyclingPower) $(n CyclingCadence) $(n CyclingSpeed)" \
    "14 18 19 19" "GPX: heart rate 14 (-50, 1e11, 250000, 0x10, inf, nan out), power 18, cadence 19, speed 19"
is "$(q "SELECT count(*) FROM sample WHERE value = 16 OR value < 0")" 0 "0x10 is not 16; nothing negative"
like "$err" "values\.gpx: 4 values that are not numbers \(0x10, inf, nan\.\.\.: skipped\)" \
    "numbers strtod() reads and XML does not: skipped and counted"
like "$out" '"skipped":10,' "GPX: 6 out of bounds and 4 not numbers counted"
imp "$T/values.tcx"
is "$(n HeartRate) $(n CyclingPower) $(n CyclingCadence) $(n CyclingSpeed)" \
    "13 14 14 14" "TCX: heart rate -50 and 1e11, power -50, cadence 0x10, speed -180 out"

# ---- times in the future (item 6) --------------------------------------------
# What holds a time more than a day after the import is skipped, counted
# and said, the rest of the file kept (a broken Strava file's last record
# is of 2085: 1010).
imp "$T/future.fit"
is "$rc $(n HeartRate)" "0 10" "a FIT record at 0xFFFFFFFE (2126): skipped, the 10 others kept"
like "$err" "future\.fit: 1 times more than a day after this import \(the first 2126-02-06T06:28:14Z, at byte [0-9]+: skipped\)" \
    "said, with its byte"
like "$out" '"skipped":1,' "and counted"
is "$(q "SELECT count(*) FROM sample WHERE start > 1800000000")" 0 "nothing stored past 2027"
imp "$T/future.gpx"
is "$rc $(n HeartRate)" "0 10" "a GPX point in 9999: skipped, the 10 others kept"
like "$err" "future\.gpx: 1 times more than a day after this import \(the first 9999-01-01T00:00:00Z, at line [0-9]+: skipped\)" \
    "said, with its line"
is "$(q "SELECT count(*) FROM workout WHERE end > 1800000000")" 0 "the workout ends at its last point in 2024"
HQ_NOW=2023-12-31T20:00:00Z imp "$T/good.gpx"
is "$rc $(n HeartRate)" "0 10" "points 12 hours after the import: taken"
HQ_NOW=2023-12-31T07:00:00Z imp "$T/good.tcx"
is "$rc $(state)" "2 0 0 0" "25 hours after: the activity, its lap and points skipped, so no activity: refused"
like "$err" "good\.tcx: every Activity in this TCX file is more than a day after this import" "said"

# ---- 100,000 attributes (item 7) ---------------------------------------------
# 1.09 MB: libxml2 2.9.14 checks them for duplicates pairwise (main
# before: past this test's 60 s timeout; now 0.2 s).
imp "$T/good.gpx"
before=$(state)
secs timeout 60 hq-ingest "$T/attrs.gpx"
is "$rc" 2 "100,000 attributes on a trkpt: refused"
like "$err" "attrs\.gpx:[0-9]+: a tag with more than 1024 attributes" "at the Apple reader's bound, with its line"
ok "$(awk -v s="$secs" 'BEGIN { exit !(s < 5) }'; echo $?)" "in ${secs} s (< 5)"
is "$(state)" "$before" "the store unchanged"

# ---- impossible lengths (items 8, 9) -----------------------------------------
for f in elapsed.fit elapsed63.fit; do
	imp "$T/$f"
	is "$rc $(n HeartRate)" "0 10" "$f: the samples kept"
	like "$err" "$f: session 1: duration 9\.2[0-9]*e\+(21|18) s \(not what a body or a clock makes: dropped\)" \
	    "the session's duration of 9.2e21 s (or 2^63 s less its start) dropped, said"
	is "$(q 'SELECT end - start FROM workout')" 1000000 "its end its timestamp's (1,000,000 s after its start)"
	clean "$f"
done
imp "$T/lap-huge.tcx"
is "$rc $(q 'SELECT count(*) FROM workout')" "0 1" "a TCX lap of 9.2e18 s: the workout kept"
clean lap-huge.tcx
like "$err" "lap-huge\.tcx: 1 laps? .*impossible duration" "the lap refused, said"
imp "$T/lap-1e305.tcx"
is "$(q "SELECT count(*) FROM workout_event WHERE type = 'HKWorkoutEventTypeLap'")" 0 \
    "TCX laps of 1e305 and -1e305 s: refused"
is "$(q 'SELECT end - start, duration FROM workout')" "9 9.0" "the workout's length from its points"
imp "$T/laps.fit"
is "$(q "SELECT group_concat(duration) FROM workout_event WHERE type = 'HKWorkoutEventTypeLap'")" \
    "5.0" "FIT laps of 1e305 and -1e305 s refused, the one of 5 s kept"
like "$err" "laps\.fit: 2 laps .*impossible duration" "and said"

# ---- a product name that is not UTF-8, chained files (item 9) ----------------
imp "$T/latin1.fit"
is "$rc $(n HeartRate)" "0 10" "a product name in Latin-1: the file's data kept"
is "$(q 'SELECT name FROM source')" "Garmin Edge 8�t� (SN 42)" "the name repaired (U+FFFD)"
imp "$T/chained.fit"
is "$(q "SELECT group_concat(s.name, '|') FROM (SELECT s.name FROM workout w
    JOIN source s ON s.id = w.source_id ORDER BY w.start) s")" \
    "Garmin Edge 810 (SN 1234)|Garmin Edge 810 (SN 5678)" \
    "two chained files: each workout its own file's device"
is "$(q "SELECT count(DISTINCT source_id) FROM sample")" 2 "and each file's samples"

# ---- UTF-16, a DTD (item 9) --------------------------------------------------
imp "$T/utf16le.gpx"
like "$rc $out" '^0 .*"format":"gpx"' "a GPX in UTF-16 (LE, with a BOM): sniffed as GPX"
is "$(n HeartRate)" 10 "and read"
imp "$T/utf16be.tcx"
like "$rc $out" '^0 .*"format":"tcx"' "a TCX in UTF-16 (BE): sniffed as TCX"
is "$(n HeartRate)" 10 "and read"
imp "$T/dtd.gpx"
like "$rc $out" '^0 .*"format":"gpx"' "a GPX with an internal DTD subset: sniffed as GPX"
is "$(n HeartRate)" 10 "and read"
imp "$T/xxe.gpx"
is "$rc" 2 "an external entity: refused"
like "$err" "xxe\.gpx:[0-9]+: .*xxe" "naming it"
is "$(state)" "0 0 0" "nothing stored"

# ---- times without a zone (item 9) -------------------------------------------
fresh
run hq-ingest --tz America/Los_Angeles "$T/zoneless.tcx"
is "$rc" 0 "a TCX without zones imports"
like "$err" "zoneless\.tcx: 12 times without a zone read as UTC" "said"
run hq-ingest --tz Asia/Tokyo "$T/zoneless.tcx"
like "$out" '"inserted":0,.*"workouts_inserted":0,' "again under another --tz: nothing new"
is "$(q "SELECT count(*), strftime('%Y-%m-%dT%H:%M:%SZ', min(start), 'unixepoch') FROM workout")" \
    "1 2024-01-01T08:00:00Z" "one workout, at the time written, as UTC"

done_testing
