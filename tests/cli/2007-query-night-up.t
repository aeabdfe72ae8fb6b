#!/usr/bin/env bash
# A night that ended this morning counts once the person is up (issue 27,
# hq-query(1) "A night counts once it has ended"): a night whose window
# (up to 18:00 of its date) is still open at the newest export date, or at
# now when sooner, counts only when its last sleep sample ended at least an
# hour before that time. An export at 08:00 after waking at 06:30 counts
# last night; one at 07:00 does not yet; one at 23:30 during the night does
# not count the night going on. The clock is pinned (HQ_NOW): nothing here
# depends on the hour the test runs.
. "$(dirname "$0")/lib.sh"

sleep_rec() {
	printf ' <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="%s" endDate="%s" value="HKCategoryValueSleepAnalysisAsleepCore"/>\n' "$1" "$2"
}
# export NAME EXPORTDATE: the night before 2024-06-02 (22:40 to 06:30,
# 7 h 50 min) and the one before, as an export written at EXPORTDATE
export_at() {
	{
		printf '<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n'
		printf ' <ExportDate value="%s"/>\n' "$2"
		sleep_rec "2024-05-31 23:00:00 -0700" "2024-06-01 06:00:00 -0700"
		sleep_rec "2024-06-01 22:40:00 -0700" "2024-06-02 06:30:00 -0700"
		printf '</HealthData>\n'
	} >"$T/$1.xml"
	HQ_DB="$T/$1.db" hq-ingest -q "$T/$1.xml" >/dev/null
}
nights() {
	HQ_DB="$T/$1.db" hq-query sleep --by day 2>/dev/null | python3 -c '
import json, sys
print(" ".join("%s=%.4f" % (r["period"], r["value"]) for r in map(json.loads, sys.stdin)))'
}
export HQ_NOW=2024-06-03T12:00:00Z     # well after every export below

export_at up "2024-06-02 08:00:00 -0700"
is "$(nights up)" "2024-06-01=7.0000 2024-06-02=7.8333" \
    "an export at 08:00, up since 06:30: last night counts (7 h 50 min)"
export_at hour "2024-06-02 07:30:00 -0700"
is "$(nights hour)" "2024-06-01=7.0000 2024-06-02=7.8333" \
    "an export exactly an hour after the last sample ended: it counts"
export_at early "2024-06-02 07:00:00 -0700"
is "$(nights early)" "2024-06-01=7.0000" \
    "an export at 07:00, half an hour after waking: the night may still go on"
is "$(HQ_DB="$T/early.db" hq-query --list | python3 -c '
import json, sys
for r in map(json.loads, sys.stdin):
    if r["metric"] == "sleep":
        print(r["count"], r["last"][:10])')" "1 2024-06-01" "--list: one night, the one before"
is "$(HQ_DB="$T/up.db" hq-query sleep --by week --agg avg,count | python3 -c '
import json, sys
r = json.loads(sys.stdin.readline())
print("%.4f %d" % (r["avg"], r["count"]))')" "7.4167 2" "the week's average night holds the night that counts"

# now sooner than the export date: now decides
is "$(HQ_NOW=2024-06-02T14:00:00Z nights up)" "2024-06-01=7.0000" \
    "now (07:00 local) sooner than the export (08:00): the night is still going on"
is "$(HQ_NOW=2024-06-02T15:00:00Z nights up)" "2024-06-01=7.0000 2024-06-02=7.8333" \
    "now at 08:00 local: it counts"

# an export at 23:30 during the night: the 50 minutes are no night
{
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n'
	printf ' <ExportDate value="2024-06-01 23:30:00 -0700"/>\n'
	sleep_rec "2024-05-31 23:00:00 -0700" "2024-06-01 06:00:00 -0700"
	sleep_rec "2024-06-01 22:40:00 -0700" "2024-06-01 23:30:00 -0700"
	printf '</HealthData>\n'
} >"$T/late.xml"
HQ_DB="$T/late.db" hq-ingest -q "$T/late.xml" >/dev/null
is "$(nights late)" "2024-06-01=7.0000" "an export at 23:30, asleep since 22:40: no night of 50 minutes"
# a nap that ended more than an hour before an evening export (before 18:00
# of the next date, its window is open): it counts, as its own night
{
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n'
	printf ' <ExportDate value="2024-06-01 21:00:00 -0700"/>\n'
	sleep_rec "2024-05-31 23:00:00 -0700" "2024-06-01 06:00:00 -0700"
	sleep_rec "2024-06-01 18:30:00 -0700" "2024-06-01 19:30:00 -0700"
	printf '</HealthData>\n'
} >"$T/nap.xml"
HQ_DB="$T/nap.db" hq-ingest -q "$T/nap.xml" >/dev/null
is "$(nights nap)" "2024-06-01=7.0000 2024-06-02=1.0000" \
    "an evening nap over 90 minutes before the export: the next date's night so far"

# JSON lines record no export date: now decides
printf '{"metric":"sleep_analysis","start":"2024-06-02T05:40:00Z","end":"2024-06-02T13:30:00Z","value":"HKCategoryValueSleepAnalysisAsleepCore"}\n' >"$T/n.jsonl"
HQ_DB="$T/jl.db" hq-ingest -q "$T/n.jsonl" >/dev/null
is "$(HQ_NOW=2024-06-02T14:00:00Z nights jl)" "" "JSON lines, now 07:00 local, woke at 06:30: going on"
is "$(HQ_NOW=2024-06-02T14:30:00Z nights jl)" "2024-06-02=7.8333" "now 07:30 local: it counts"

done_testing
