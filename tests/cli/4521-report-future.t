#!/usr/bin/env bash
# A period after the newest data is "no data" (issue 27, hq-report(1)):
# load, week, goals and trend print no rows past the newest data in the
# store or today, whichever is sooner; a future week (or one after the
# data) has no rows, exits 1 and says so; the week's ctl is the one on its
# last day of data, never a fitness decayed into the future (today
# `--week 2030-W01` printed a ctl of 2e-11). The clock is pinned (HQ_NOW).
. "$(dirname "$0")/lib.sh"
command -v gen-export >/dev/null || skip_all "gen-export not built"

gen-export --xml --days 21 --start 2026-11-01 --seed 4 -o "$T/export.xml" >/dev/null &&
	hq-ingest -q "$T/export.xml" >/dev/null
ok $? "three weeks of an export, 2026-11-01 to 11-21"
# the newest data by the written rule: the newest sample's start or
# activity summary, as a local day
newest=$(python3 - "$HQ_DB" <<'PY'
import datetime, sqlite3, sys, zoneinfo
c = sqlite3.connect(sys.argv[1])
t = c.execute("SELECT max(start) FROM sample").fetchone()[0]
d = datetime.datetime.fromtimestamp(t, zoneinfo.ZoneInfo("America/Los_Angeles")).date()
s = c.execute("SELECT max(date) FROM activity_summary").fetchone()[0]
print(max(d.isoformat(), s or ""))
PY
)
like "$newest" "^2026-11-2[12]$" "the newest data: $newest"
export HQ_NOW=2026-12-07T20:00:00Z

# ---- week -------------------------------------------------------------------
run hq-report week --week 2030-W01
is "$rc:$out" "1:" "a future week: exit 1, no rows"
is "$err" "hq-report: no data in 2030-W01: its Monday 2029-12-31 is after the newest data in the store ($newest)" \
    "and a note on stderr says why"
run hq-report week --week 2030-W01 --format html
is "$rc:$out" "1:" "nor a page"
run hq-report week
is "$rc:$out" "1:" "the last complete week (2026-W49), after the data: exit 1, no rows"
like "$err" "no data in 2026-W49: its Monday 2026-11-30 is after the newest data" "said"
run hq-report week --week 2026-W47
is "$rc" 0 "the week holding the newest data: rows"
wk_ctl=$(printf '%s\n' "$out" | python3 -c '
import json, sys
print(*[r["value"] for r in map(json.loads, sys.stdin) if r["measure"] == "ctl"])')
load_ctl=$(hq-report load --from "$newest" --to "$newest" | python3 -c '
import json, sys
print(*[r["ctl"] for r in map(json.loads, sys.stdin)])')
is "$wk_ctl" "$load_ctl" "the week's ctl is the one on its last day of data ($newest), not Sunday's decayed"

# ---- load -------------------------------------------------------------------
run hq-report load --from 2030-01-01
is "$rc:$out" "1:" "load from 2030: exit 1, no future rows"
like "$err" "2030-01-01 is after the newest data in the store \($newest\)" "said"
last_day() { python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.strip()]
print(rows[-1]["date"] if rows else "none", len(rows))'; }
is "$(hq-report load --from 2026-11-15 --to 2026-12-31 | last_day | cut -d' ' -f1)" "$newest" \
    "--to past the data: the rows end with the newest data"
is "$(hq-report load | last_day | cut -d' ' -f1)" "$newest" \
    "the default 90 days up to today: the rows end with the newest data too"
# today sooner than the data: today ends the rows
is "$(HQ_NOW=2026-11-10T20:00:00Z hq-report load --from 2026-11-05 --to 2026-11-30 | last_day)" \
    "2026-11-10 6" "the clock at 2026-11-10: the rows end today"
run env HQ_NOW=2026-11-10T20:00:00Z hq-report week --week 2026-W47
like "$rc:$err" "^1:.*2026-11-16 is after today \(2026-11-10\)" "a week after today: exit 1, said"

# ---- trend ------------------------------------------------------------------
run hq-report trend steps --from 2030-01-01
is "$rc:$out" "1:" "a trend from 2030: exit 1, no row"
run hq-report trend steps --from 2026-11-01 --to 2030-12-31
is "$(printf '%s\n' "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["to"])')" \
    "$(hq-query steps --by day | tail -1 | python3 -c 'import json,sys; print(json.load(sys.stdin)["period"])')" \
    "a trend's last day is its metric's last day of data"

done_testing
