#!/bin/sh
# scripts/clock-tests.sh [BUILD]: the tests that read the clock, for `make
# check-clock` (faketime at three hours). CLI tests that ask the date
# (date, Python's today or now), pin it (HQ_NOW), say a day relative to
# today (today, yesterday, this-week, last-month, 7d...), or run a report
# whose range ends today when none is given or stops at today (alerts,
# goals, load, zones, week), and those that say so with a line "# reads
# the clock" (0008: the README's commands are in README.md); the CLI tests
# whose scripted model (tests/fake/scenarios) asks for such a report or
# day; and, with BUILD, the unit tests (BUILD/tests/NAME) whose source
# reads the clock (time(NULL), hq_time_now, HQ_NOW, a relative day).
cd "$(dirname "$0")/.." || exit 2
days='today|yesterday|(this|last)-(week|month|year)'
{
	grep -lE '\$\(date|\bdate -|datetime|time\.time|localtime|HQ_NOW|[^a-z_-]('"$days"')\b|--(from|to)[ =]+["'\'']?[0-9]+[dwmy]\b|hq-report (alerts|goals|load|zones|week)\b|# reads the clock' \
		tests/cli/*.t
	for s in $(grep -lE '"args": *\["(alerts|goals|load|zones|week)"|"('"$days"'|[0-9]+[dwmy])"' \
	    tests/fake/scenarios/*.json); do
		grep -lw -- "$(basename "$s" .json)" tests/cli/*.t
	done
} | sort -u
[ -n "${1-}" ] || exit 0
for f in $(grep -lE 'time\(NULL\)|hq_time_now\(|HQ_NOW|"('"$days"')"' tests/unit/*.c); do
	f=${f#tests/unit/}
	echo "$1/tests/${f%.c}"
done
