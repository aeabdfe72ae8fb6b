#!/usr/bin/env bash
# Every parser of outside input is fuzzed on every CI run (under ASan+UBSan
# with leak checks in the sanitizer pass): each reader of hq-ingest through
# hq_input_open/hq_input_import (fuzz_input, the format sniffed from each
# seed), the --where/--when expressions (fuzz_expr), the config file
# (fuzz_config, with its `tz` checked as a zone), its saved queries split
# into words (fuzz_queries), model replies, streamed
# or whole (fuzz_llm), and device files from the FIT decoder to the store
# (fuzz_fit: FIT, TCX and GPX imported and committed). The seed
# changes with the day and is printed; HQ_FUZZ_SEED=N replays a day,
# HQ_FUZZ_SCALE=K runs K times the iterations. Apple exports: 1005.
. "$(dirname "$0")/lib.sh"
command -v fuzz_input >/dev/null && command -v fuzz_fit >/dev/null &&
    command -v bsdtar >/dev/null ||
    skip_all "fuzz targets not built"
F=$HQ_FIXTURES
need_fixtures cgm labs dexa llm workouts
D=$HQ_ROOT/tests/data

seed=${HQ_FUZZ_SEED:-$(date +%j)}
k=${HQ_FUZZ_SCALE:-1}
gen-export --days 1 --labs "$T/labs.csv" --dexa "$T/dexa.json" \
    -o "$T/gen.xml" >/dev/null 2>&1

# fuzz TARGET ITERATIONS NFILES FILE...
fuzz() {
	t=$1 n=$(($2 * k)) nf=$3
	shift 3
	run "$t" -n "$n" -s "$seed" -o "$T/last" "$@"
	is "$rc" 0 "$t: $n mutated inputs, seed $seed, no crash (HQ_FUZZ_SEED=$seed to replay)"
	like "$out" "^$t: $n iterations over $nf files" "$t: every iteration ran"
	is "$err" "" "$t: no sanitizer or leak report"
	if [ "$rc" -ne 0 ]; then
		cp "$T/last" "${TMPDIR:-/tmp}/hq-$t.crash"
		echo "# the input that failed: ${TMPDIR:-/tmp}/hq-$t.crash"
	fi
}

set -- "$F"/cgm/*.csv "$D"/cgm/*.csv "$F"/labs/*/*.json "$F"/dexa/*.json \
    "$F"/dexa/*.csv "$T/labs.csv" "$T/dexa.json" "$D"/fuzz/labs.csv \
    "$HQ_ROOT"/tests/cli/data/labs/*.json "$HQ_ROOT"/tests/cli/data/dexa/* \
    "$D"/fuzz/labs.jsonl "$D"/fuzz/samples.jsonl
fuzz fuzz_input 2500 $# "$@"
# device files through fuzz_input: TCX, GPX, small FIT, .fit.gz, .gpx.gz
# and a zip of device files (each sniffed from its seed: devicezip.c)
W=$F/workouts
gzip -c "$W"/fitparse/DeveloperData.fit >"$T/dev.fit.gz"
gzip -c "$W"/togeojson/run.gpx >"$T/run.gpx.gz"
(cd "$W" && bsdtar -a -cf "$T/device.zip" fitparse/Activity.fit togeojson/Friday-Evening-Run.gpx)
set -- "$W"/tcxparser/test.tcx "$W"/togeojson/garmin_connect.tcx \
    "$W"/togeojson/Friday-Evening-Run.gpx "$W"/fitparse/Activity.fit \
    "$W"/fitparse/DeveloperData.fit "$T/dev.fit.gz" "$T/run.gpx.gz" "$T/device.zip"
fuzz fuzz_input 1500 $# "$@"
fuzz fuzz_expr 8000 1 "$D/fuzz/expr.txt"
fuzz fuzz_config 8000 2 "$D/fuzz/config.ini" "$D/fuzz/config-tz.ini"
fuzz fuzz_queries 8000 1 "$D/fuzz/queries.ini"
set -- "$F"/llm/*.sse "$F"/llm/*.json "$D"/fuzz/*.sse "$D"/fuzz/*.ndjson "$D"/fuzz/*-body.json \
    "$D"/fuzz/*-error.json "$D"/fuzz/session-msg.json
fuzz fuzz_llm 5000 $# "$@"
# Device files from the decoder to the store (fuzz_fit): small real FIT,
# TCX and GPX files, and mkdevice.py's values no body or clock makes (the
# mutations start at the bounds); the clock pinned, so that a day's seed
# replays exactly whatever the date (times past it are refused).
python3 "$HQ_ROOT/tests/cli/data/mkdevice.py" "$T" || exit 1
W=$F/workouts
set -- "$W"/fitparse/Activity.fit "$W"/fitparse/DeveloperData.fit \
    "$W"/fitparse/compressed-speed-distance.fit "$W"/fitparse/garmin-fenix-5-run.fit \
    "$W"/fitparse/activity-settings-corruptheader.fit \
    "$W"/fitparse/activity-unexpected-eof.fit "$W"/fitparse/sample_mulitple_header.fit \
    "$W"/tcxparser/test.tcx "$W"/togeojson/garmin_connect.tcx "$W"/togeojson/run.gpx \
    "$W"/togeojson/Friday-Evening-Run.gpx
for f in values.fit laps.fit elapsed.fit elapsed63.fit latin1.fit chained.fit \
    values.gpx values.tcx lap-huge.tcx lap-1e305.tcx utf16le.gpx utf16be.tcx dtd.gpx; do
	set -- "$@" "$T/$f"
done
export HQ_NOW=2024-06-01T00:00:00Z
fuzz fuzz_fit 4000 $# "$@"
done_testing
