# tests/cli/archive.sh — sourced by hq-archive's tests (5xxx) after lib.sh:
# the stores they push, the golden questions asked of a store before and
# after a round trip, and a real S3 server (tests/s3) on a free port.

# make_store DB: the demo's kind of export (clinical records, labs, DEXA),
# real fixtures, and days spread over several years (2019, 2021, 2024) so
# that segments fall in many months of many years.
make_store() {
	local db=$1 d="$T/make.$$"
	mkdir -p "$d"
	gen-export --zip --days 45 --clinical --labs "$d/labs.csv" \
	    --dexa "$d/dexa.json" -o "$d/a.zip" >/dev/null 2>&1
	gen-export --zip --days 4 --start 2019-02-26 --seed 2 -o "$d/b.zip" >/dev/null 2>&1
	gen-export --zip --days 3 --start 2021-12-30 --seed 3 -o "$d/c.zip" >/dev/null 2>&1
	# a weight and the day's steps every day for three years, as JSON lines
	awk 'BEGIN { for (i = 0; i < 1100; i++) { t = 1546300800 + i * 86400
		printf "{\"metric\":\"body_mass\",\"start\":%d,\"value\":%.1f,\"unit\":\"kg\",\"source\":\"Scale Planted\"}\n", t + 25200, 70 + (i % 17) / 10 } }' >"$d/w.jsonl"
	HQ_DB=$db hq-ingest -q "$d/a.zip" "$d/b.zip" "$d/c.zip" "$d/labs.csv" \
	    "$d/dexa.json" "$d/w.jsonl" \
	    "$HQ_FIXTURES/apple-health/dogsheep/export.xml" \
	    "$HQ_FIXTURES/cgm/dexcom-clarity-example.csv" \
	    "$HQ_FIXTURES"/labs/hl7-r4/*.json >/dev/null
	rm -rf "$d"
}

# hourly_steps N OUT [SOURCE]: the archive's remote file://$T/remote in
# the config, and steps at :00-:10 of every hour from 2023-01-01 (N
# samples, 100 + the hour's number mod 50, of SOURCE, default Phone) as
# JSON lines in OUT.
hourly_steps() {
	mkdir -p "$XDG_CONFIG_HOME/hq"
	printf '[archive]\nremote = file://%s/remote\n' "$T" >"$XDG_CONFIG_HOME/hq/config"
	awk -v n="$1" -v src="${3:-Phone}" 'BEGIN { for (i = 0; i < n; i++) { t = 1672531200 + i * 3600
		printf "{\"metric\":\"steps\",\"start\":%d,\"end\":%d,\"value\":%d,\"unit\":\"count\",\"source\":\"%s\"}\n", t, t + 600, 100 + i % 50, src } }' >"$2"
}

# samples_of DB: its samples' count and the sum of their values.
samples_of() {
	sqlite3 "$1" "SELECT count(*), printf('%d', sum(value)) FROM sample" | tr '|' ' '
}

# golden DB OUT: the answers of a set of questions, one file.
golden() {
	local db=$1 out=$2
	: >"$out"
	while IFS= read -r q; do
		printf '$ %s\n' "$q" >>"$out"
		# shellcheck disable=SC2086
		HQ_DB=$db $q >>"$out" 2>&1
		printf '(exit %s)\n' "$?" >>"$out"
	done <<'Q'
hq-query --list
hq-query steps --by day
hq-query steps --by hour --from 2024-10-25 --to 2024-10-27
hq-query heart_rate --by week --agg avg,median,p90
hq-query heart_rate --from 2024-11-01 --to 2024-11-01
hq-query body_mass --by month
hq-query workouts
hq-query workout 1
hq-query workout last --format gpx
hq-query sleep --by day
hq-query glucose --by day --agg max
hq-report list
hq-report latest labs
hq-report trend labs ldl
hq-report latest dexa
hq-report cgm --from 2024-10-20 --to 2024-12-31
hq-report load --from 2024-10-20 --to 2024-12-01
hq-correlate steps sleep --from 2024-10-20 --to 2024-12-01
hq-correlate glucose sleep --night
hq-query search cholesterol
hq-query search running --mode find
hq-query search --near 34.118,-118.300,2
Q
}

# start_s3 DIR: a real S3 server (tests/s3/s3server.js) on a free port,
# bucket "b", keys HQTESTKEY / $S3_SECRET; sets S3_PORT. It stops when
# the test ends (its stdin is a pipe the test holds).
S3_SECRET=hq-test-secret-5ec7e7
start_s3() {
	local dir=$1 s3=$HQ_ROOT/tests/s3
	if [ ! -d "$s3/node_modules/@20minutes/s3rver" ]; then
		ok 1 "the S3 server is installed (make deps: npm ci in tests/s3)"
		done_testing
		exit 1
	fi
	mkdir -p "$dir"
	mkfifo "$T/s3.in"
	node --openssl-legacy-provider "$s3/s3server.js" "$dir" b HQTESTKEY \
	    "$S3_SECRET" <"$T/s3.in" >"$T/s3.out" 2>"$T/s3.err" &
	S3_PID=$!
	exec 7>"$T/s3.in"
	for _ in $(seq 300); do
		grep -q PORT "$T/s3.out" 2>/dev/null && break
		sleep 0.05
	done
	S3_PORT=$(awk '/PORT/ { print $2 }' "$T/s3.out")
	trap 'exec 7>&-; kill $S3_PID ${PX_PID:-} 2>/dev/null; wait 2>/dev/null; rm -rf "$T"' EXIT
}

# start_proxy: tests/s3/faultproxy.js in front of the server; sets
# PX_PORT; faults are planned in $T/plan, requests logged in $T/plog.
start_proxy() {
	mkfifo "$T/px.in"
	: >"$T/plan"
	: >"$T/plog"
	node "$HQ_ROOT/tests/s3/faultproxy.js" "$S3_PORT" "$T/plan" "$T/plog" \
	    <"$T/px.in" >"$T/px.out" 2>"$T/px.err" &
	PX_PID=$!
	exec 8>"$T/px.in"
	for _ in $(seq 300); do
		grep -q PORT "$T/px.out" 2>/dev/null && break
		sleep 0.05
	done
	PX_PORT=$(awk '/PORT/ { print $2 }' "$T/px.out")
}
