#!/usr/bin/env bash
# Silence is not "all fine" (issue 27, hq-report(1) alerts): hq-report
# alerts raises kind `stale` (exit 0) when the newest sample of a measure
# it watches (resting heart rate, HRV, sleep, glucose), or the store's
# newest import, is more than 2 days before the range's end (its last
# day's end, or now when sooner). A cron job whose import broke mails.
# The clock is pinned (HQ_NOW), at import and at report: nothing here
# depends on the day or the hour the test runs.
. "$(dirname "$0")/lib.sh"

# 40 days of resting heart rate, HRV and sleep up to 2026-11-22 (local),
# steady, imported on the morning of 2026-11-23.
python3 - "$T/days.jsonl" <<'PY'
import datetime as dt, json, sys
with open(sys.argv[1], "w") as fp:
    d = dt.date(2026, 10, 14)
    i = 0
    while d <= dt.date(2026, 11, 22):
        fp.write(json.dumps({"metric": "resting_heart_rate", "start": "%sT15:00:00Z" % d,
                             "value": 58 + i % 4, "unit": "count/min"}) + "\n")
        fp.write(json.dumps({"metric": "hrv", "start": "%sT14:00:00Z" % d,
                             "value": 50 + i % 5, "unit": "ms"}) + "\n")
        fp.write(json.dumps({"metric": "sleep_analysis", "start": "%sT06:30:00Z" % d,
                             "end": "%sT13:30:00Z" % d,
                             "value": "HKCategoryValueSleepAnalysisAsleepCore"}) + "\n")
        d += dt.timedelta(1)
        i += 1
PY
HQ_NOW=2026-11-23T16:00:00Z hq-ingest -q "$T/days.jsonl" >/dev/null
ok $? "40 days imported on 2026-11-23"

fields() {
	python3 -c '
import json, sys
for l in sys.stdin:
    if l.strip():
        r = json.loads(l)
        print(" ".join(str(r[k]) for k in sys.argv[1:]))' "$@"
}

# The next night (04:00 local): all is fresh, nothing off
run env HQ_NOW=2026-11-24T12:00:00Z hq-report alerts
is "$rc:$out" "1:" "a day after the import: nothing off, exit 1"
like "$err" "nothing off from 2026-11-18 to 2026-11-24" "and says so"

# A week later, no import since: every watched measure, and the import
run env HQ_NOW=2026-11-30T15:00:00Z hq-report alerts
is "$rc" 0 "a week without data: alerts, exit 0 (cron mails)"
is "$(printf '%s\n' "$out" | fields date measure kind value unit)" \
"2026-11-30 resting_heart_rate stale 8 d
2026-11-30 heart_rate_variability_sdnn stale 8 d
2026-11-30 sleep stale 8 d
2026-11-30 import stale 6 d" \
    "one row a watched measure and the import, dated the range's last day, value the whole days since"
like "$out" '"message":"no resting HR since 2026-11-22 \(8 days\): has the import stopped\?"' \
    "the message says since when, and what to look at"
like "$out" '"message":"no sleep since 2026-11-22 \(8 days\)' \
    "sleep: since the night that ended on 2026-11-22"
like "$out" '"message":"no new export since 2026-11-23 \(6 days\): has the import stopped\?"' \
    "the import's message"
run env HQ_NOW=2026-11-30T15:00:00Z hq-report alerts -q
is "$rc:$out:$err" "0::" "-q: exit 0, silent"
run env HQ_NOW=2026-11-30T15:00:00Z hq-report alerts --format table
like "$out" "no HRV since 2026-11-22" "the table shows the message"

# The range's end, not now, when the range ends earlier
run env HQ_NOW=2026-11-30T15:00:00Z hq-report alerts --from 2026-11-18 --to 2026-11-23
is "$rc" 1 "a range ending the day after the data: not stale"
run env HQ_NOW=2026-11-30T15:00:00Z hq-report alerts --from 2026-11-18 --to 2026-11-24
is "$(printf '%s\n' "$out" | fields measure | tr '\n' ' ')" \
    "resting_heart_rate heart_rate_variability_sdnn sleep " \
    "a range ending with 2026-11-24: the measures are over 2 days old there, the import (11-23 08:00 local) not"
# now sooner than the range's end: now decides
run env HQ_NOW=2026-11-24T12:00:00Z hq-report alerts --to 2026-11-30
is "$rc" 1 "--to in the future, now a day after the data: not stale"

# A measure silent longer than a baseline (28 days) is no longer watched;
# the import still is
run env HQ_NOW=2026-12-30T15:00:00Z hq-report alerts
is "$(printf '%s\n' "$out" | fields measure | tr '\n' ' ')" "import " \
    "five weeks later: only the import (the measures have given up)"

# A fresh import of fresh data: quiet again
printf '{"metric":"resting_heart_rate","start":"2026-11-29T15:00:00Z","value":60,"unit":"count/min"}\n' >"$T/more.jsonl"
HQ_NOW=2026-11-30T14:00:00Z hq-ingest -q "$T/more.jsonl" >/dev/null
run env HQ_NOW=2026-11-30T15:00:00Z hq-report alerts
is "$(printf '%s\n' "$out" | fields measure | tr '\n' ' ')" \
    "heart_rate_variability_sdnn sleep " "a new import with resting heart rate: HRV and sleep still silent"

# A store that never had a watched measure: steps only, imported now
export HQ_DB="$T/steps.db"
printf '{"metric":"steps","start":"2026-10-01T12:00:00Z","end":"2026-10-01T12:10:00Z","value":5000}\n' >"$T/steps.jsonl"
HQ_NOW=2026-11-30T14:00:00Z hq-ingest -q "$T/steps.jsonl" >/dev/null
run env HQ_NOW=2026-11-30T15:00:00Z hq-report alerts
is "$rc:$out" "1:" "no watched measure, a fresh import: nothing off"

done_testing
