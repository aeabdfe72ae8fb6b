#!/usr/bin/env bash
# A push killed (SIGKILL) at 20 points — each a request held by the proxy
# until the kill: the settings, the manifest, the list, segment uploads,
# the manifest's upload, the deletes of old objects — leaves the remote
# readable (its last manifest and every segment it names), and the next
# push completes it, sending again only what the killed one had not sent.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/archive.sh"

start_s3 "$T/s3data"
start_proxy
export HQ_ARCHIVE_ACCESS_KEY=HQTESTKEY HQ_ARCHIVE_SECRET_KEY=$S3_SECRET
A=(--remote s3://b/k --endpoint "http://127.0.0.1:$PX_PORT")
gen-export --zip --days 10 -o "$T/g.zip" >/dev/null 2>&1
hq-ingest -q "$T/g.zip" >/dev/null
hq-archive -q "${A[@]}" init
hq-archive -q "${A[@]}" push
ok $? "the first push"

# a sample in each of 14 months: a push then sends 15 objects (and the
# dims), deletes as many, 35 requests or so
new_months() {   # SEED
	awk -v s="$1" 'BEGIN { for (i = 0; i < 14; i++)
		printf "{\"metric\":\"body_mass\",\"start\":%d,\"value\":%.1f,\"unit\":\"kg\"}\n",
		    1546300800 + i * 86400 * 61 + s * 60, 70 + s / 10 }' >"$T/new.jsonl"
	hq-ingest -q "$T/new.jsonl" >/dev/null
}

for k in 1 2 3 4 5 6 8 10 12 14 16 18 19 20 21 22 24 26 28 30; do
	new_months "$k"
	: >"$T/plog"
	{ for ((i = 1; i < k; i++)); do echo pass; done; echo stall; } >"$T/plan"
	hq-archive -q "${A[@]}" push >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 400); do
		grep -q ' stall$' "$T/plog" && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.05
	done
	req=$(grep ' stall$' "$T/plog" | awk '{ print $1, substr($2, 1, 12) }')
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	: >"$T/plan"
	run hq-archive "${A[@]}" list --format jsonl
	is "$rc" 0 "killed at request $k (${req:-the push ended first}): the remote is readable"
	run hq-archive "${A[@]}" push
	is "$rc" 0 "killed at request $k: the next push completes"
done
run hq-archive "${A[@]}" verify --format jsonl
is "$rc" 0 "after 20 kills: every segment verifies"
is "$(printf '%s\n' "$out" | grep -vc '"status":"ok"')" 0 "and equals the local store"
run hq-archive "${A[@]}" push
like "$out" '"unchanged":true' "and nothing is left to push"
# no orphans: the objects are the manifest's segments, the manifest, the settings
nobj=$(find "$T/s3data/b/k" -name '*._S3rver_object' | wc -l)
nseg=$(printf '%s\n' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["segments"])')
is "$nobj" "$((nseg + 2))" "no object left over from the killed pushes"
mkdir -p "$T/new/config/hq"
cp "$XDG_CONFIG_HOME/hq/archive.key" "$T/new/config/hq/"
run env XDG_CONFIG_HOME="$T/new/config" hq-archive "${A[@]}" --db "$T/new/hq.db" restore
is "$rc" 0 "and restores"
is "$(HQ_DB="$T/new/hq.db" hq-query body_mass --by month)" "$(hq-query body_mass --by month)" \
	"with every month's samples"
done_testing
