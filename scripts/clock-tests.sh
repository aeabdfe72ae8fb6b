#!/bin/sh
# scripts/clock-tests.sh: the CLI tests that read the clock, for `make
# check-clock` (faketime at three hours): those that ask the date (date,
# Python's today or now), pin it (HQ_NOW), say a day relative to today
# (today, yesterday, this-week, last-month, 7d...), or run a report whose
# range ends today when none is given (alerts, goals, load, zones, week),
# and those that say so with a line "# reads the clock".
cd "$(dirname "$0")/.." || exit 2
grep -lE '\$\(date|\bdate -|datetime|time\.time|localtime|HQ_NOW|[^a-z_-](today|yesterday|(this|last)-(week|month|year))\b|--(from|to)[ =]+[0-9]+[dwmy]\b|hq-report (alerts|goals|load|zones|week)\b|# reads the clock' \
	tests/cli/*.t
