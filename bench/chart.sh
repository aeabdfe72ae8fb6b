#!/bin/sh
# Charts: hq_svg_write for a year of days up to five years of minutes, line
# and bars, against writing the same points as CSV in the same run.
set -eu
for n in 365 200000 2600000; do
	chart-bench "$n"
	chart-bench "$n" bars
done
