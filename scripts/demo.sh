#!/bin/sh
# make demo: writes a realistic 60-day Apple Health export of a demo persona
# (iPhone + Apple Watch, CGM, sleep stages, workouts, lab results from her
# health system), three years of lab work and three DEXA scans, ingests
# them into a demo store of its own, and tours what is in it. The Makefile installs the
# dependencies and builds first; this script builds nothing.
#
# Everything goes to $HQ_DEMO_DIR (default ~/.local/share/hq/demo), never to
# your own store: the demo sets HQ_DB to a store there and starts it afresh
# on every run. The demo's days are fixed (2026-09-24 to 2026-11-22, the
# export written the morning after), and so are the dates its commands ask
# for: its output is the same on every run, whatever the day, and the
# README's tour shows it. At its end it prints the line that sets a new
# shell up for the tour.
set -eu
cd "$(dirname "$0")/.."
: "${HQ_BUILD:=$(pwd)/build}"
PATH="$HQ_BUILD/bin:$HQ_BUILD/tools:$PATH"
DIR=${HQ_DEMO_DIR:-$HOME/.local/share/hq/demo}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
HQ_DB="$DIR/hq.db"
HQ_TZ=America/Los_Angeles
export PATH HQ_DB HQ_TZ
# Alex's goals: a config of the demo's own (never your ~/.config/hq/config)
HQ_CONFIG="$DIR/config"
export HQ_CONFIG

have() { command -v "$1" >/dev/null 2>&1; }

# step TITLE CMD ARGS...: prints the command, runs it; a command that is not
# built yet is noted in one line and skipped.
step() {
	title=$1
	shift
	printf '\n== %s\n' "$title"
	if ! have "$1"; then
		printf '   (skipped: %s is not built yet)\n' "$1"
		return 0
	fi
	# quoted where a shell would need it, so the line can be pasted
	printf '$'
	for a in "$@"; do
		case $a in
		*[!A-Za-z0-9_./,:=@%+-]*) printf " '%s'" "$a" ;;
		*) printf ' %s' "$a" ;;
		esac
	done
	printf '\n'
	"$@" || printf '   (%s exited %s)\n' "$1" "$?"
}

if ! have gen-export; then
	echo "demo: $HQ_BUILD/tools/gen-export is missing — run 'make demo' (it builds first)" >&2
	exit 2
fi

mkdir -p "$DIR"
chmod 700 "$DIR"
rm -f "$HQ_DB" "$HQ_DB-wal" "$HQ_DB-shm" "$HQ_DB-journal"
cat >"$HQ_CONFIG" <<'EOF'
# Alex's goals (hq(7)); the rings' goals come with the export
[goals]
steps = 10000/day
sleep = 7h/night
exercise_time = 150min/week
weight = <= 72kg/week

# a place on Alex's longer runs, for hq-query search --near (hq(7))
[places]
hilltop = 34.1340,-118.3000,0.3

# Alex's saved queries: hq run NAME (hq(1)); hq-agent offers each as a tool
[queries]
# what Alex ate on the Monday of the demo's last week, food by food
monday_food = hq-report nutrition --entries --from 2026-11-16 --to 2026-11-16
EOF

# The demo's 60 days: the last week is W47 (Monday 2026-11-16 to Sunday
# 2026-11-22), the last 30 days start on 2026-10-24.
start=2026-09-24
week_from=2026-11-16 week_to=2026-11-22 month_from=2026-10-24
printf '== A demo export: 60 days of Alex, who wears an Apple Watch and carries an iPhone (%s)\n' "$HQ_TZ"
printf '$ gen-export --zip --days 60 --start %s --everyday --clinical --labs %s/labs.csv --dexa %s/dexa.json -o %s/export.zip\n' \
	"$start" "$DIR" "$DIR" "$DIR"
gen-export --zip --days 60 --start "$start" --seed 1 --everyday \
	--truth "$DIR/truth.jsonl" --clinical --labs "$DIR/labs.csv" \
	--dexa "$DIR/dexa.json" --clarity "$DIR/clarity.csv" \
	--meals "$DIR/meals.xml" -o "$DIR/export.zip"
ls -l "$DIR/export.zip" | awk '{ printf "   %s bytes, %s\n", $5, $NF }'

step "Import it" hq-ingest "$DIR/export.zip"
step "Import it again: nothing is added twice" hq-ingest "$DIR/export.zip"
step "What is in the store, and how far back it goes" hq-query --list --format table
step "Daily steps last week, iPhone and Watch merged without double counting" \
	hq-query steps --by day --from $week_from --to $week_to --format table
if have python3; then
	printf '   What the generator knows it wrote, and what a naive sum of both devices says:\n'
	python3 - "$DIR/truth.jsonl" <<'EOF'
import json, sys
days = [json.loads(l) for l in open(sys.argv[1])]
days = [d for d in days if "date" in d and "workout" not in d][-7:]
print("   %-10s %8s %12s" % ("date", "steps", "naive sum"))
for d in days:
    print("   %-10s %8.0f %12.0f" % (d["date"], d["steps"], d["steps_naive"]))
EOF
fi
step "Sleep per night last week (asleep, not merely in bed)" hq-query sleep --by day --from $week_from --to $week_to --format table
step "Heart rate this month, on days with at least 60 exercise minutes" \
	hq-query heart_rate --by day --agg avg,min,max --when 'exercise_time.sum>=60' --from $month_from --to $week_to --format table
step "Glucose: daily average and peak, last week" \
	hq-query glucose --by day --agg avg,max --from $week_from --to $week_to --format table
step "Does sleep shorten after high-glucose days? The nights after days above 140 against the rest" \
	hq-correlate glucose sleep --when 'glucose.max>140' --night --format text
step "Workouts this month, newest first" hq-query workouts --from $month_from --format table
step "The last ride: its heart rate, averaged over it" \
	hq-query workout last:cycling heart_rate --agg avg,max --format table
step "Steps in the last two weeks against each other: total and average per day" \
	hq-query steps --by week --agg sum,avg --from 2026-W46 --to 2026-W47 --format table
step "The average night of each of the last four weeks: asleep, deep, REM (hours)" \
	hq-query sleep sleep_deep sleep_rem --by week --agg avg --from 2026-W44 --to 2026-W47 --format table
step "Hours last week when heart rate averaged over 100" \
	hq-query heart_rate --by hour --from $week_from --to $week_to --where 'value>100' --format table
step "Lab work: three years of results as a CSV, three DEXA scans (BodySpec)" \
	hq-ingest "$DIR/labs.csv" "$DIR/dexa.json"
step "What reports are in the store" hq-report list --format table
step "The latest result of every test, each against its own lab's range" \
	hq-report latest labs --format table
step "What's my latest LDL, and is it in range?" hq-report latest labs ldl --format table
step "How has my HbA1c trended? (one visit abroad reported it in mmol/mol)" \
	hq-report trend labs hba1c --format table
step "LDL over three years: calculated at first, measured directly later" \
	hq-report trend labs ldl --format table
step "Compare my visceral fat between my last two DEXA scans" \
	hq-report compare dexa --fields vat_mass,fat_mass,lean_mass,total_body_fat_pct --format table
if have hq-report; then
	printf '\n== Lab and DEXA charts\n$ hq-report trend labs ldl --format svg > %s/ldl.svg\n' "$DIR"
	hq-report trend labs ldl --format svg >"$DIR/ldl.svg" &&
		hq-report compare dexa --format svg >"$DIR/dexa.svg" &&
		printf '   open %s/ldl.svg and %s/dexa.svg in a browser\n' "$DIR" "$DIR"
fi
if have hq-query; then
	printf '\n== Daily steps as a chart\n$ hq-query steps --by day --from 2026-10-24 --to 2026-11-22 --format svg > %s/steps.svg\n' "$DIR"
	hq-query steps --by day --from $month_from --to $week_to --format svg >"$DIR/steps.svg" &&
		printf '   open %s/steps.svg in a browser\n' "$DIR"
	printf '\n== The last ride: its heart rate as a chart, its route for a map\n'
	printf '$ hq-query workout last:cycling --format svg > %s/ride-hr.svg\n' "$DIR"
	hq-query workout last:cycling --format svg >"$DIR/ride-hr.svg"
	printf '$ hq-query workout last:cycling --format gpx > %s/ride.gpx\n' "$DIR"
	hq-query workout last:cycling --format gpx >"$DIR/ride.gpx" &&
		printf '   %s track points, for GPXSee, OsmAnd or Strava\n' \
		    "$(grep -c '<trkpt' "$DIR/ride.gpx")"
fi

# ---- CGM (issue 9) ----
step "Glucose control over the last month: the consensus metrics" \
	hq-report cgm --from $month_from --to $week_to --format table
step "Alex's Dexcom app also wrote those readings to Clarity: import its CSV export" \
	hq-ingest "$DIR/clarity.csv"
step "Every reading is now stored twice (two sources); the report counts each once" \
	hq-report cgm --from $month_from --to $week_to --by week --format table
step "The sensor sessions" hq-report list cgm --format table
if have hq-report; then
	printf '\n== The ambulatory glucose profile of the last month\n'
	printf '$ hq-report cgm --from 2026-10-24 --to 2026-11-22 --agp --format table | head -5\n'
	hq-report cgm --from $month_from --to $week_to --agp --format table | head -5
	printf '$ hq-report cgm --from 2026-10-24 --to 2026-11-22 --format svg > %s/agp.svg\n' "$DIR"
	hq-report cgm --from $month_from --to $week_to --format svg >"$DIR/agp.svg" &&
		hq-report cgm --from $month_from --to $week_to --format html >"$DIR/agp.html" &&
		printf '   open %s/agp.html (or agp.svg) in a browser\n' "$DIR"
fi
# ---- end CGM ----
# ---- goals and alerts (issue 20) ----
step "Am I keeping my goals? Sleep and exercise last week (the config's [goals])" \
	hq-report goals sleep exercise_time --from $week_from --to $week_to --format table
step "And Apple's move ring, from the export's activity summaries" \
	hq-report goals move --from $week_from --to $week_to --format table
step "Is anything off last week? (exit 0: yes, 1: no; -q for cron)" \
	hq-report alerts --from $week_from --to $week_to --format table
# ---- end goals and alerts ----
# ---- the week, a trend (issue 20) ----
step "How was my week? (the demo's last week, Monday to Sunday)" \
	hq-report week --week 2026-W47 --format table
step "Is my resting heart rate going up?" \
	hq-report trend resting_heart_rate --format table
if have hq-report; then
	printf '\n== The week as a page, to mail from cron\n'
	printf '$ hq-report week --week 2026-W47 --format html > %s/week.html\n' "$DIR"
	hq-report week --week 2026-W47 --format html >"$DIR/week.html" &&
		printf '   open %s/week.html in a browser (or mail it)\n' "$DIR"
fi
# ---- end week ----
# ---- the food log (issue 31) ----
step "Alex's food log of the last week: MyFitnessPal, and Lose It! logging some dinners again" \
	hq-ingest "$DIR/meals.xml"
step "What did Alex eat on Monday? Energy, macros and their share; the dinner two apps logged counts once" \
	hq-report nutrition --from $week_from --to $week_from --format table
step "A saved query of the demo's config: that Monday food by food" \
	hq run monday_food --format table
# ---- end food log ----
if have hq-correlate; then
	printf '\n== Sleep after high-glucose days, as a chart\n'
	printf '$ hq-correlate glucose sleep --when '"'"'glucose.max>140'"'"' --night --format svg > %s/sleep-after-glucose.svg\n' "$DIR"
	hq-correlate glucose sleep --when 'glucose.max>140' --night --format svg \
		>"$DIR/sleep-after-glucose.svg" &&
		printf '   open %s/sleep-after-glucose.svg in a browser\n' "$DIR"
fi

# ---- training (issue 21) ----
step "Am I getting fitter? Training load, fitness, fatigue and form, last two weeks" \
	hq-report load --from 2026-11-09 --to $week_to --format table
step "How did my last 3 rides compare?" \
	hq-report compare workouts --type cycling --format table
step "Minutes in each heart-rate zone, last week" \
	hq-report zones --from $week_from --to $week_to --format table
step "Bests: the fastest stretches of each kind, the best power on a ride" \
	hq-report bests --format table
if have hq-report; then
	printf '\n== Fitness, fatigue and form as a chart\n'
	printf '$ hq-report load --from 2026-09-24 --to 2026-11-22 --format svg > %s/load.svg\n' "$DIR"
	hq-report load --from $start --to $week_to --format svg >"$DIR/load.svg" &&
		printf '   open %s/load.svg in a browser\n' "$DIR"
fi
# ---- end training ----
# ---- a plan and a forecast (issue 32) ----
# Alex's plan: the demo's last week, then two weeks to a half marathon on
# Sunday 6 December (after the demo's data: the load goes on with it).
cat >"$DIR/plan.csv" <<'EOF'
date,type,duration_min,load,title
2026-11-16,running,40,35,Easy
2026-11-17,cycling,60,50,Tempo
2026-11-19,walking,45,20,Walk
2026-11-21,running,45,40,Steady
2026-11-24,cycling,60,50,Tempo ride
2026-11-26,running,45,40,Intervals
2026-11-28,cycling,120,120,Long ride
2026-11-29,running,60,60,Long run
2026-12-01,running,40,35,Easy run
2026-12-03,cycling,45,35,Spin
2026-12-05,running,20,15,Shakeout
2026-12-06,running,100,160,Half marathon
EOF
step "A training plan: the last week and two more to a half marathon" \
	hq-ingest --plan "$DIR/plan.csv"
step "Did I do what the plan said last week?" \
	hq-report plan --week 2026-W47 --format table
step "If I follow it, how fresh will I be on race day?" \
	hq-report load --from 2026-11-30 --to 2026-12-06 --format table
step "Where is my weight heading, and when would it reach 75 kg?" \
	hq-report forecast weight --target 75 --ahead 4w --format table
# ---- end a plan and a forecast ----

# The one line that sets a new shell up for the README's tour: the
# commands on PATH, the demo's store, its config (Alex's goals), the zone
# the demo ran in (on a machine whose zone is UTC the tour then prints
# what the demo printed). Paths quoted, so that the line pastes whatever
# they hold.
q() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"; }
printf '\nThe demo store is %s.\nTo try the tour of README.md in a new shell, ' "$HQ_DB"
printf 'paste this line first:\n\n'
printf '    export PATH=%s:"$PATH" HQ_DB=%s HQ_CONFIG=%s HQ_TZ=%s\n\n' \
	"$(q "$HQ_BUILD/bin")" "$(q "$HQ_DB")" "$(q "$HQ_CONFIG")" "$HQ_TZ"
printf 'then, for example: hq-query workouts --type running --limit 3\n'
printf "'hq help COMMAND' shows a command's manual page (from this checkout until\n"
printf "'make install' puts the pages where man finds them).\n"
printf 'Without HQ_TZ (or --tz, $TZ, tz in ~/.config/hq/config), hq-query uses the\n'
printf 'zone the export records, %s, and says so on a terminal.\n' "$HQ_TZ"
