#!/usr/bin/env bash
# Values no body makes never reach a report (issue 29 items 5 and 9): a
# store holding a heart rate of 1e11 (written before the import writer's
# bounds, as an older hq let it in) leaves it out of max_hr's estimate
# (before: max_hr 1e11, every load 0) and out of the load (before: load,
# ctl and atl null from that day on; the week's page printed "inf" and
# points="86.8,-nan"); [athlete] ftp = 1e-300 and goal targets of 1e-300 and
# 1e300 are refused with file:line (before: an infinite TSS, "inf%", a
# target of 301 digits). Rides from gen-fit, 30 minutes a day for two weeks.
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"
export HQ_NOW=2024-01-15T12:00:00Z HQ_TZ=UTC
gen-fit -n 14 -d 86400 -r 1800 -o "$T/rides" || exit 1
hq-ingest -q "$T"/rides/*.fit >/dev/null
ok $? "14 rides import"
hr=HKQuantityTypeIdentifierHeartRate
is "$(sqlite3 "$HQ_DB" "SELECT max(value) FROM sample WHERE metric_id =
    (SELECT id FROM metric WHERE identifier = '$hr')")" "177.0" "their highest heart rate: 177"
# The last ride's last heart rate made 1e11, as a file once stored it; the
# kept figures dropped, as the import that brought it would have.
sqlite3 "$HQ_DB" "UPDATE sample SET value = 1e11 WHERE id = (SELECT max(id)
    FROM sample WHERE metric_id = (SELECT id FROM metric WHERE identifier = '$hr'));
    DELETE FROM workout_figures"

run hq-report load --from 2024-01-12 --format csv
is "$rc" 0 "load: exit 0"
is "$(printf '%s\n' "$out" | sed -n 2p | cut -d, -f9)" 177 \
    "max_hr's estimate is the highest rate a body makes (177), not 1e11"
mkdir -p "$T/config/hq"
printf '[athlete]\nmax_hr = 190\n' >"$T/config/hq/config"
run hq-report load --from 2024-01-12 --format csv
is "$(printf '%s\n' "$out" | awk -F, 'NR == 4 { print $1, ($4 != "" && $5 != "" &&
    $6 != "" && $7 != "") }')" "2024-01-14 1" \
    "with max_hr 190: the day of the 1e11 has a load, ctl, atl and tsb"
is "$(printf '%s\n' "$out" | grep -c ',,')" 0 "no day's figure is null"
run hq-report week --format html
is "$rc" 0 "week --format html: exit 0"
unlike "$out" "nan|inf" "the page holds no nan or inf"
is "$(printf '%s\n' "$out" | grep -o 'points="[^"]*"' | grep -vc '^points="[0-9., ]*"$')" 0 \
    "every sparkline's points are numbers"
run hq-report week --format table
unlike "$out" "nan|inf" "nor the table"

# ---- the athlete's settings: what a body does ----------------------------------
for ftp in 1e-300 19 2501 0x10; do
	printf '[athlete]\nftp = %s\n' "$ftp" >"$T/config/hq/config"
	run hq-report load
	is "$rc" 2 "ftp = $ftp: refused"
	like "$err" "config:2: .*ftp.*expected a power in W from 20 to 2500" "ftp = $ftp: with file:line"
done
printf '[athlete]\nftp = 20\n' >"$T/config/hq/config"
run hq-report load --from 2024-01-12
is "$rc" 0 "ftp = 20: taken"
run hq-report load --ftp 1e-300
is "$rc" 2 "--ftp 1e-300: refused"

# ---- goal targets ------------------------------------------------------------
for t in 1e-300 1e300 1e13; do
	printf '[goals]\nheart_rate = %s/day\n' "$t" >"$T/config/hq/config"
	run hq-report goals --from 2024-01-08 --to 2024-01-14
	is "$rc" 2 "a goal target of $t: refused"
	like "$err" "config:2: goal 'heart_rate': a target of .* is none a figure reaches: write one from 1e-06 to 1e\+12" \
	    "target $t: with file:line"
done
printf '[goals]\nheart_rate = 1e-6/day\n' >"$T/config/hq/config"
run hq-report goals --from 2024-01-08 --to 2024-01-14 --format table
is "$rc" 0 "a target of 1e-6: taken"
unlike "$out" "inf|nan" "its pct printed as a number"
done_testing
