#!/usr/bin/env bash
# CGM files in: the real Dexcom Clarity and LibreView exports and a file
# per variant (tests/data/cgm), sniffed from content; readings become
# blood_glucose samples in mg/dL whose source is the sensor; overlapping
# monthly exports add only what is new; a bad line rejects the file naming
# file:line and leaves the store as it was; the fall-back night.
. "$(dirname "$0")/lib.sh"
D=$HQ_ROOT/tests/data/cgm
FX=$HQ_FIXTURES/cgm
need_fixtures cgm/dexcom-clarity-example.csv cgm/libreview-tiny.csv

q() { sqlite3 "$HQ_DB" "$1"; }
state() {
	sqlite3 "$HQ_DB" 'PRAGMA wal_checkpoint(TRUNCATE)' >/dev/null
	{ sqlite3 "$HQ_DB" .dump; cat "$HQ_DB"; } | sha256sum | cut -d' ' -f1
}
field() { printf '%s\n' "$1" | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())[sys.argv[1]])' "$2"; }

# The real Clarity export, then again: nothing new.
run hq-ingest "$FX/dexcom-clarity-example.csv"
is "$rc" 0 "Clarity export imports"
is "$(field "$out" format)" dexcom-clarity "sniffed as Dexcom Clarity"
is "$(field "$out" inserted)" 24542 "24,542 readings"
is "$(q "select count(distinct source_id) from sample")" 9 "nine sensors, nine sources"
is "$(q "select name from source order by name limit 1")" "Dexcom ONE+ (SN 115797638978)" "a source names the device and its sensor"
is "$(q "select count(*) from sample where value = 39")" 64 "64 Low readings stored as 39 mg/dL"
is "$(q "select distinct m.identifier from sample join metric m on m.id = metric_id")" \
	HKQuantityTypeIdentifierBloodGlucose "blood_glucose samples, as Apple's"
is "$(q "select datetime(min(start), 'unixepoch') from sample")" "2024-06-06 07:00:41" \
	"times read in America/Los_Angeles (00:00:41 PDT)"
run hq-ingest "$FX/dexcom-clarity-example.csv"
is "$(field "$out" inserted),$(field "$out" duplicates)" "0,24542" "the same file again adds nothing"

# Overlapping exports: the first two thirds, then the last two thirds.
rm -f "$HQ_DB"*
n=$(wc -l <"$FX/dexcom-clarity-example.csv")
head -n $((n * 2 / 3)) "$FX/dexcom-clarity-example.csv" >"$T/june.csv"
{ head -n 7 "$FX/dexcom-clarity-example.csv"; tail -n $((n * 2 / 3)) "$FX/dexcom-clarity-example.csv"; } >"$T/july.csv"
run hq-ingest "$T/june.csv"
first=$(field "$out" inserted)
run hq-ingest "$T/july.csv"
is "$(( first + $(field "$out" inserted) ))" 24542 "an overlapping export adds only the readings that are new"
ok "$([ "$(field "$out" duplicates)" -gt 8000 ]; echo $?)" "the overlap counted as duplicates ($(field "$out" duplicates))"

# A bad line: exit 2, file:line, the store byte for byte as it was.
before=$(state)
run hq-ingest "$D/dexcom-bad-value.csv"
is "$rc" 2 "a malformed value fails the file"
like "$err" "dexcom-bad-value\.csv:4: glucose value '12O' is neither a number nor Low/High \(nothing from this file was imported\)" "the error names file:line"
is "$(state)" "$before" "the store is unchanged"
run hq-ingest "$D/dexcom-bad-quote.csv"
like "$err" "dexcom-bad-quote\.csv:3: quoted field not closed" "an unclosed quote names its line"
is "$(state)" "$before" "the store is unchanged"
python3 -c 'import sys; sys.stdout.write(open(sys.argv[1]).read().replace("8X\n", "8X" + "y" * 70000 + "\n", 1))' \
	"$D/dexcom-bad-value.csv" >"$T/long.csv"
run hq-ingest "$T/long.csv"
like "$err" "long\.csv:2: line longer than 65536 bytes" "an endless line is refused at the bound"
is "$(state)" "$before" "the store is unchanged"

# Every variant written here.
rm -f "$HQ_DB"*
run hq-ingest "$D/dexcom-g6-en.csv" "$D/dexcom-g7-space.csv" "$D/dexcom-mmol.csv" "$D/dexcom-de.csv"
is "$rc" 0 "Clarity: G6, G7 with space timestamps, mmol/L, German with ';' and decimal commas"
is "$(printf '%s\n' "$out" | python3 -c 'import json,sys; print(",".join(str(json.loads(l)["inserted"]) for l in sys.stdin))')" "5,4,4,4" "readings of each"
is "$(q "select value from sample s join source o on o.id = s.source_id where o.name = 'Dexcom G6 (SN 8AAAAA)' order by start limit 1")" "104.4928" "German '5,8' mmol/l is 104.4928 mg/dL (x 18.016)"
is "$(q "select count(*) from sample where value = 401")" 3 "High, Hoch: 401"
is "$(q "select datetime(start, 'unixepoch') from sample s join source o on o.id = s.source_id where o.name = 'Dexcom G7 (SN ABCD12)' order by start limit 1")" \
	"2025-05-01 07:01:47" "'2025-05-01 0:01:47' read"

run hq-ingest "$D/libre-us-mgdl.csv"
is "$(field "$out" format)" libreview "sniffed as LibreView"
is "$(field "$out" inserted),$(field "$out" skipped)" "6,1" "six readings, a row without a value skipped"
like "$err" "libre-us-mgdl\.csv:11: a glucose row without a value" "the skip is said with its line"
is "$(q "select group_concat(name, '|') from (select distinct o.name from sample s join source o on o.id = s.source_id where o.name like 'FreeStyle Libre 2%' order by 1)")" \
	"FreeStyle Libre 2 (SN ABC-123)|FreeStyle Libre 2 scan (SN ABC-123)|FreeStyle Libre 2 strip (SN ABC-123)" \
	"scans and strips have sources of their own"
run hq-ingest "$D/libre-de-mmol.csv" "$D/libre-ymd.csv"
is "$rc" 0 "LibreView: German day-first mmol/L with two preamble lines; a leading year"

# Dates no row settles: refused, then read as told; the real file is one.
run hq-ingest "$FX/libreview-tiny.csv"
is "$rc" 2 "ambiguous dates are refused"
like "$err" "could be day-first or month-first .*--date-order dmy or --date-order mdy" "and the error says so and what to do"
run hq-ingest --date-order dmy "$FX/libreview-tiny.csv"
is "$(field "$out" inserted)" 6 "--date-order dmy reads the real LibreView file"
is "$(q "select date(min(start), 'unixepoch') from sample where unit = 'mmol/L' and value = 6.3 * 18.016")" 2019-12-06 \
	"05-12-2019 16:25 is 5 December (local; 6 December UTC)"
run hq-ingest "$D/libre-conflict.csv"
like "$err" "libre-conflict\.csv:2: a month-first date here but a day-first one on line 3" "contradictory dates name both lines"

# Through a pipe: read from memory the second time.
rm -f "$HQ_DB"*
run sh -c "cat '$D/libre-de-mmol.csv' | hq-ingest -"
is "$(field "$out" inserted)" 4 "LibreView through a pipe"
run hq-ingest --format dexcom "$D/libre-de-mmol.csv"
is "$rc" 2 "--format dexcom on a LibreView file fails"

# The fall-back night: 01:00-01:55 twice, in file order.
rm -f "$HQ_DB"*
run hq-ingest "$D/dexcom-fallback.csv"
is "$(field "$out" inserted)" 37 "fall-back night: 37 readings, none taken for a duplicate"
is "$(q "select count(distinct start), max(start) - min(start) from sample")" "37|10800" \
	"37 instants, 5 minutes apart over 3 hours"
is "$(TZ=America/Los_Angeles q "select group_concat(start - lag, ',') from (select start, lag(start) over (order by start) as lag from sample) where lag is not null" | tr ',' '\n' | sort -u)" \
	300 "every step 5 minutes, through the repeated hour"

done_testing
