#!/usr/bin/env bash
# Nights that have not ended, and category samples counted (issue 18):
# hq-query(1) — a night whose window (up to the cut-off hour of its date) ends
# after the newest export date in the store, or after now, is still going
# on: no row, in no aggregate, not --list's last night; stand hours are the
# hours stood (Idle hours are not stands), unit h.
. "$(dirname "$0")/lib.sh"

command -v gen-export >/dev/null || skip_all "gen-export not built"
command -v python3 >/dev/null || skip_all "python3 missing"

# ---- a generated export taken at 23:30, after that evening's sleep began --
# gen-export writes whole days; the export is cut as the phone would have
# written it at 23:30 on 10-10 (the sleep began at 22:40): what starts later is not there, what was
# going on ends then.
gen-export --xml --days 11 --start 2024-10-01 --seed 5 --truth "$T/truth" \
    --export-date '2024-10-10 23:30:00' -o "$T/full.xml"
ok $? "generated 11 days, export dated 2024-10-10 23:30"
python3 - "$T/full.xml" "$T/cut.xml" <<'PY'
import re, sys
from datetime import datetime
cut = datetime.strptime("2024-10-10 23:30:00 -0700", "%Y-%m-%d %H:%M:%S %z")
def at(el, name):
    m = re.search(r'\b%s="([^"]*)"' % name, el)
    return datetime.strptime(m.group(1), "%Y-%m-%d %H:%M:%S %z") if m else None
out, el, tag = [], [], None
for line in open(sys.argv[1], encoding="utf-8"):
    if tag is None:
        m = re.match(r' <(Record|Workout|Correlation|ActivitySummary)\b', line)
        if not m:
            out.append(line)
            continue
        tag, el = m.group(1), []
    el.append(line)
    if len(el) == 1 and line.rstrip().endswith("/>") or line.startswith(" </%s>" % tag):
        text = "".join(el)
        if tag == "ActivitySummary":
            day = re.search(r'dateComponents="([^"]*)"', text).group(1)
            keep = day <= "2024-10-10"
        else:
            start, end = at(text, "startDate"), at(text, "endDate")
            keep = start < cut
            if keep and end > cut and tag == "Record":
                text = text.replace('endDate="%s"' % end.strftime("%Y-%m-%d %H:%M:%S %z"),
                                    'endDate="2024-10-10 23:30:00 -0700"', 1)
        if keep:
            out.append(text)
        tag = None
open(sys.argv[2], "w", encoding="utf-8").write("".join(out))
PY
ok $? "cut at the export date"
# the night of 10-11 has begun before the export, and is cut there
begun=$(python3 - "$T/cut.xml" <<'PY'
import re, sys
x = open(sys.argv[1], encoding="utf-8").read()
print(len(re.findall(r'SleepAnalysis"[^>]*startDate="2024-10-10 2[0-3]:[^>]*endDate="2024-10-10 23:30:00', x)) > 0)
PY
)
is "$begun" True "the cut export holds that evening's sleep, cut at 23:30"
hq-ingest -q "$T/cut.xml" >/dev/null
ok $? "ingested"

# The truth: gen-export's own nights (minutes, keyed by the date they
# end), of which 10-01..10-10 had ended by the export; 10-11 had not.
truth() {
	python3 - "$T/truth" "$@" <<'PY'
import json, sys
days = [json.loads(l) for l in open(sys.argv[1])]
days = {d["date"]: d for d in days if "date" in d and "workout" not in d}
what = sys.argv[2]
ended = ["2024-10-%02d" % d for d in range(1, 11)]
if what == "nights":
    print(" ".join("%s=%.6f" % (d, days[d]["sleep_asleep_min"] / 60) for d in ended))
elif what == "deep":
    print(" ".join("%s=%.6f" % (d, days[d]["sleep_deep_min"] / 60) for d in ended if days[d]["sleep_deep_min"] > 0))
elif what == "weeks":
    # ISO weeks: 09-30..10-06 holds nights 10-01..10-06, 10-07..10-13 the rest
    for w in (ended[:6], ended[6:]):
        v = [days[d]["sleep_asleep_min"] / 60 for d in w]
        print("%.6f n=%d" % (sum(v) / len(v), len(v)))
elif what == "stand":
    print(" ".join("%s=%d" % (d, days[d]["stand_hours"]) for d in ended))
PY
}
rows() {
	python3 -c '
import json, sys
print(" ".join("%s=%.6f" % (r["period"], r["value"]) for r in map(json.loads, sys.stdin)))'
}

is "$(hq-query sleep --by day | rows)" "$(truth nights)" \
    "sleep --by day: the ten nights that had ended; no row for the night going on"
is "$(hq-query sleep | rows)" "$(truth nights)" "without --by: the same nights"
is "$(hq-query sleep_deep --by day | rows)" "$(truth deep)" "a stage (deep) follows the same rule"
is "$(hq-query sleep_in_bed --by day | wc -l)" 10 "in bed too: ten nights"
is "$(hq-query sleep --by week --agg avg,count | python3 -c '
import json, sys
for r in map(json.loads, sys.stdin):
    print("%.6f n=%d" % (r["avg"], r["n"]))')" "$(truth weeks)" \
    "the week's average night and n leave the night going on out"
is "$(hq-query --list | python3 -c '
import json, sys
for r in map(json.loads, sys.stdin):
    if r["metric"] == "sleep":
        print(r["count"], r["last"][:10])')" "10 2024-10-10" "--list: ten nights, the last one 10-10's"
is "$(hq-query sleep --by day --when 'sleep.sum<3' 2>/dev/null | wc -l)" 0 \
    "--when on sleep: the night going on is no short night"
# hq-correlate's daily series: day D against the night after (D + 1);
# 10-10's steps have no ended night after them.
got=$(hq-correlate steps sleep --night --min-n 5 --format json | python3 -c '
import json, sys
r = json.load(sys.stdin)[0]
print(r["n"], r["to"], "%.6f" % r["r"])')
want=$(python3 - "$T/truth" <<'PY'
import json, sys
from statistics import correlation
days = {d["date"]: d for d in map(json.loads, open(sys.argv[1])) if "date" in d and "workout" not in d}
x = [days["2024-10-%02d" % d]["steps"] for d in range(1, 10)]
y = [days["2024-10-%02d" % (d + 1)]["sleep_asleep_min"] / 60 for d in range(1, 10)]
print(9, "2024-10-09", "%.6f" % correlation(x, y))
PY
)
is "$got" "$want" "hq-correlate --night: nine pairs, the night going on is not one"

# ---- stand hours: counted, not timed --------------------------------------
is "$(hq-query stand_hour --by day --from 2024-10-01 --to 2024-10-10 | rows | sed 's/\.000000//g')" \
    "$(truth stand)" "stand_hour per day = the hours stood (gen-export's truth), idle hours not counted"
is "$(hq-query stand_hour --by day --limit 1 | python3 -c 'import json,sys; print(json.loads(sys.stdin.readline())["unit"])')" h \
    "stand_hour's unit is h"

# ---- a hand-made export, then a later one ---------------------------------
export HQ_DB="$T/hand.db"
stand() {
	# stand D STOOD IDLE: hours from 07:00, the stood ones first
	i=0
	while [ $i -lt $(($2 + $3)) ]; do
		v=Stood
		[ $i -ge "$2" ] && v=Idle
		printf ' <Record type="HKCategoryTypeIdentifierAppleStandHour" sourceName="Watch" startDate="%s %02d:00:00 -0700" endDate="%s %02d:00:00 -0700" value="HKCategoryValueAppleStandHour%s"/>\n' \
		    "$1" $((7 + i)) "$1" $((8 + i)) "$v"
		i=$((i + 1))
	done
}
sleep_rec() {
	printf ' <Record type="HKCategoryTypeIdentifierSleepAnalysis" sourceName="Watch" startDate="%s" endDate="%s" value="HKCategoryValueSleepAnalysisAsleepCore"/>\n' "$1" "$2"
}
{
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n'
	printf ' <ExportDate value="2024-06-01 23:30:00 -0700"/>\n'
	sleep_rec "2024-05-31 22:40:00 -0700" "2024-06-01 06:10:00 -0700"
	sleep_rec "2024-06-01 22:40:00 -0700" "2024-06-01 23:30:00 -0700"
	stand 2024-06-01 9 6
	stand 2024-05-31 0 14
	printf '</HealthData>\n'
} >"$T/hand1.xml"
hq-ingest -q "$T/hand1.xml" >/dev/null
ok $? "a hand-made export at 23:30, sleep begun at 22:40"
is "$(hq-query sleep --by day | rows)" "2024-06-01=7.500000" \
    "one night (22:40 to 06:10, 7.5 h); the 50 minutes going on at the export are no night"
is "$(hq-query sleep --by month --agg avg,count | python3 -c '
import json, sys
r = json.loads(sys.stdin.readline())
print(r["avg"], r["n"])')" "7.5 1" "the month's average night is 7.5 h of one night, not 4.17 h of two"
is "$(hq-query stand_hour --by day | rows)" "2024-05-31=0.000000 2024-06-01=9.000000" \
    "9 Stood and 6 Idle hours: 9 h; a day of 14 Idle hours: 0 h, a day with data"
is "$(hq-query stand_hour --by day --agg sum,count,avg | python3 -c '
import json, sys
r = [json.loads(l) for l in sys.stdin][1]
print(r["sum"], r["count"], round(r["avg"], 4))')" "9 15 0.6" \
    "sum: hours stood; count: hours recorded; avg: the share stood"
is "$(hq-query stand_hour | python3 -c '
import json, sys
print(" ".join("%s:%g" % (r["category"], r["value"]) for r in map(json.loads, sys.stdin) if r["start"].startswith("2024-06-01T16")))')" \
    "idle:0" "a row per sample: an Idle hour is 0"
is "$(hq-query --list | python3 -c '
import json, sys
for r in map(json.loads, sys.stdin):
    if r["metric"] in ("apple_stand_hour", "sleep"):
        print(r["metric"], r["unit"], r["count"], r["last"][:10])')" \
    "apple_stand_hour h 29 2024-06-01
sleep h 1 2024-06-01" "--list: stand hours in h, one night, the last 06-01's"

# A later export holds the rest of that night: it has ended (18:00 on 06-02
# is before the export at 20:00), so it counts now.
{
	printf '<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n'
	printf ' <ExportDate value="2024-06-02 20:00:00 -0700"/>\n'
	sleep_rec "2024-06-01 22:40:00 -0700" "2024-06-02 06:40:00 -0700"
	sleep_rec "2024-06-02 22:00:00 -0700" "2024-06-02 22:30:00 -0700"
	printf '</HealthData>\n'
} >"$T/hand2.xml"
hq-ingest -q "$T/hand2.xml" >/dev/null
ok $? "a later export"
is "$(hq-query sleep --by day | rows)" "2024-06-01=7.500000 2024-06-02=8.000000" \
    "the newest export date decides: 06-02's night (8 h, the union) counts; 06-03's has not ended"

# ---- no export date: now decides ------------------------------------------
# JSON lines record no export date. A zone where it is about 06:00 now:
# a night that ended half an hour ago closes at 18:00 today, after now; the
# night a day before has closed.
export HQ_DB="$T/jsonl.db"
h=$(date -u +%H)
h=${h#0}
k=$((6 - h))
[ $k -lt -12 ] && k=$((k + 24))
if [ $k -ge 0 ]; then zone=Etc/GMT-$k; else zone=Etc/GMT+$((-k)); fi
now=$(date -u +%s)
iso() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ; }
{
	printf '{"metric":"sleep_analysis","start":"%s","end":"%s","value":"HKCategoryValueSleepAnalysisAsleepCore"}\n' \
	    "$(iso $((now - 86400 - 7 * 3600)))" "$(iso $((now - 86400 - 1800)))"
	printf '{"metric":"sleep_analysis","start":"%s","end":"%s","value":"HKCategoryValueSleepAnalysisAsleepCore"}\n' \
	    "$(iso $((now - 7 * 3600)))" "$(iso $((now - 1800)))"
} >"$T/now.jsonl"
hq-ingest -q "$T/now.jsonl" >/dev/null
ok $? "JSON lines: two nights of 6.5 h, the last ended half an hour ago"
is "$(hq-query sleep --by day --tz "$zone" | python3 -c '
import json, sys
print(" ".join("%.2f" % r["value"] for r in map(json.loads, sys.stdin)))')" "6.50" \
    "in $zone: yesterday's night counts; today's is going on until 18:00 (no export date: now)"

done_testing
