#!/bin/sh
# hq-query search (issue 31) on ten years of a heavy user: 3,000 workouts
# with routes (300 points each, every 5 s), 7,000 clinical records and
# 3,000 lab results, written by the Perl below as one Apple Health export
# (export.xml, its FHIR files) and a lab CSV, imported by hq-ingest.
# Goals: a search < 50 ms whole process, --near < 50 ms; the indexes add
# < 10 % to the import and < 10 % to the store's size. Measured in this
# one run:
#   - each search: the best of 5 rounds of 10 runs in a row, and its ratio
#     to hq-query --version's (the process alone) in the same rounds. The
#     50 ms goal is judged on the time only when the machine is quiet (the
#     load average below 1, uptime); under load it is flagged "load N"
#     and the ratios and instructions are the figures to compare;
#   - with valgrind, each search's instructions (callgrind), which a busy
#     machine does not change, beside hq-query --version's;
#   - the indexes' share of the import, in instructions (callgrind, so a
#     busy machine does not change it either), on the same export at a
#     tenth of its size (300 workouts, 700 records, 300 labs): what
#     hq_store_search_refresh (the FTS5 rows, the catalog and sources)
#     and the writer's route boxes (hq_ig_box_grow, hq_ig_flush_box)
#     cost, against the rest of the import;
#   - their share of the store: the store VACUUMed into a file with and
#     without the four tables.
# It exits 1 when a goal it judged is missed.
#
# Measured (HQ_BENCH_ONLY=search make bench; instructions are callgrind's,
# which load does not change; times at the load average given):
#   before (e5b8bdc, load 5.4)      after (findfast, load 4.5)
#   --version          15.4 M  37.6 ms     1.6 M   8.5 ms
#   cholesterol        62.4 M  68.7 ms    20.9 M  22.3 ms
#   Dr Lee             34.4 M  47.9 ms    13.5 M  20.2 ms
#   OR, find           83.1 M  51.7 ms    50.5 M  25.9 ms
#   --near (91 rows)   45.6 M  42.7 ms    31.9 M  32.1 ms
#   --near --count     27.2 M  35.4 ms    13.6 M  25.4 ms
#   running --near     89.9 M  71.4 ms    57.3 M  49.8 ms
#   the indexes' share of a tenth's import: 296 M of 2,985 M (+11.0 %)
#   before, 193 M of 2,885 M (+7.2 %) after; the store +8.5 % before,
#   +9.1 % after (search_text_key).
# On a quiet machine (b915534, load average 0.50, the time judged): the
# whole process 4.2 ms for --version; cholesterol 12.4 ms, Dr Lee 9.9,
# OR/find 14.6, --near 23.6, --near --count 16.2, running --near 30.1 ms:
# every goal met (instructions as above, to the percent).
# The indexes' share at full size (the same bench with the callgrind
# import run on the whole export, b915534): 1,986 M of 28,489 M, +7.5 %,
# as at a tenth (+7.2 %), so the tenth stands for it.
set -eu
. "$(dirname "$0")/lib.sh"
DIR=$(mktemp -d "${TMPDIR:-/tmp}/hq-bench-search.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
HQ_TZ=America/Los_Angeles TZ=America/Los_Angeles
export HQ_TZ TZ
export HQ_CONFIG="$DIR/config"
printf '[places]\nlake = 47.6295,-122.3020,1\n' >"$HQ_CONFIG"

# write DIR SCALE: the export and the labs, SCALE 1 or a tenth (10)
write() {
perl - "$1" "$2" <<'P'
use strict; use warnings; use POSIX qw(strftime);
my ($dir, $scale) = @ARGV;
my ($nw, $nr, $nl) = (3000 / $scale, 7000 / $scale, 600 / $scale);
srand(31);
my $X = "$dir/apple_health_export";
mkdir $X; mkdir "$X/clinical-records";
open my $f, '>', "$X/export.xml" or die;
print $f qq{<?xml version="1.0" encoding="UTF-8"?>\n<HealthData locale="en_US">\n <ExportDate value="2026-01-01 08:00:00 -0800"/>\n};
my $t0 = 1451635200;   # 2016-01-01
sub d { strftime('%Y-%m-%d %H:%M:%S +0000', gmtime(shift)) }
my @types = (['Running', 0.45], ['Cycling', 0.25], ['Walking', 0.2], ['Hiking', 0.1]);
my @brands = ('Nike Run Club', 'Strava', 'Zwift', 'Peloton', 'Komoot', 'Workoutdoors');
my @hubs = ([47.62, -122.33], [37.80, -122.45], [45.52, -122.68], [49.28, -123.12]);
for my $i (0 .. $nw - 1) {
	my $s = $t0 + int($i * 10 * 365.25 * 86400 / $nw) + 14 * 3600;
	my $x = rand(); my $type = 'Running';
	for (@types) { if ($x < $_->[1]) { $type = $_->[0]; last } $x -= $_->[1] }
	my $e = $s + 300 * 5;
	printf $f qq{ <Workout workoutActivityType="HKWorkoutActivityType%s" duration="25" durationUnit="min" sourceName="Apple Watch" startDate="%s" endDate="%s">\n}, $type, d($s), d($e);
	printf $f qq{  <MetadataEntry key="HKIndoorWorkout" value="%d"/>\n}, rand() < 0.15 ? 1 : 0;
	printf $f qq{  <MetadataEntry key="HKWorkoutBrandName" value="%s"/>\n}, $brands[int rand @brands] if rand() < 0.5;
	printf $f qq{  <MetadataEntry key="HKTimeZone" value="America/Los_Angeles"/>\n};
	printf $f qq{  <WorkoutRoute sourceName="iPhone" startDate="%s" endDate="%s">\n}, d($s), d($e);
	my $h = $hubs[int rand @hubs];
	my ($la, $lo) = ($h->[0] + rand(0.1) - 0.05, $h->[1] + rand(0.1) - 0.05);
	my $b = rand(6.283);
	for my $k (0 .. 299) {
		$b += rand(0.6) - 0.3;
		$la += 0.00012 * cos($b); $lo += 0.00018 * sin($b);
		printf $f qq{   <Location date="%s" latitude="%.6f" longitude="%.6f" altitude="12.0" horizontalAccuracy="3" verticalAccuracy="2" course="0" speed="3"/>\n}, d($s + 5 * $k), $la, $lo;
	}
	print $f "  </WorkoutRoute>\n </Workout>\n";
}
my @words = qw(hypertension asthma migraine cholesterol vitamin influenza tetanus ibuprofen lisinopril metformin atorvastatin physical annual checkup follow-up knee shoulder back pain allergy rhinitis eczema);
my @docs = ('Dr. Mei Lee', 'Dr. Omar Haddad', 'Dr. Ana Leeds', 'Dr. Jonas Berg', 'Dr. Priya Nair', 'Dr. Kofi Mensah');
my @rt = ('Condition', 'Encounter', 'MedicationRequest', 'Immunization', 'Procedure', 'AllergyIntolerance');
for my $i (0 .. $nr - 1) {
	my $t = $t0 + int(rand(10 * 365.25 * 86400));
	my $r = $rt[int rand @rt];
	my $w = join(' ', map { $words[int rand @words] } 1 .. 6);
	my $doc = $docs[int rand @docs];
	open my $j, '>', "$X/clinical-records/r$i.json" or die;
	printf $j qq({"resourceType":"%s","id":"r%d","status":"final","code":{"text":"%s","coding":[{"system":"http://snomed.info/sct","code":"%d","display":"%s"}]},"recordedDate":"%s","participant":[{"individual":{"display":"%s"}}],"note":[{"text":"%s"}],"serviceProvider":{"display":"Bayview Clinic"}}\n),
	    $r, $i, ucfirst($words[int rand @words]), 100000 + $i, $w, strftime('%Y-%m-%dT%H:%M:%SZ', gmtime($t)), $doc, "Seen by $doc; $w";
	close $j;
	printf $f qq{ <ClinicalRecord type="HKClinicalTypeIdentifier%sRecord" identifier="r%d" sourceName="Bayview Health" fhirVersion="4.0.1" receivedDate="%s" resourceFilePath="/clinical-records/r%d.json"/>\n}, $r, $i, d($t), $i;
}
print $f "</HealthData>\n";
close $f;
open my $l, '>', "$dir/labs.csv" or die;
print $l "date,test,value,unit,ref_low,ref_high,loinc\n";
my @tests = (['LDL cholesterol', 'mg/dL', 60, 180, 100, '13457-7'], ['HDL cholesterol', 'mg/dL', 30, 90, '', '2085-9'],
    ['Glucose', 'mg/dL', 70, 130, 99, '2345-7'], ['Ferritin', 'ng/mL', 20, 300, 400, '2276-4'], ['TSH', 'mIU/L', 0.5, 5, 4.5, '3016-3']);
for my $i (0 .. $nl - 1) {
	my $day = strftime('%Y-%m-%d', gmtime($t0 + int($i * 10 * 365.25 * 86400 / $nl)));
	for my $x (@tests) {
		printf $l "%s,%s,%.1f,%s,,%s,%s\n", $day, $x->[0], $x->[2] + rand($x->[3] - $x->[2]), $x->[1], $x->[4], $x->[5];
	}
}
close $l;
P
}
echo "writing ten years of workouts with routes, records and labs..."
mkdir "$DIR/tenth"
write "$DIR" 1
write "$DIR/tenth" 10
sec() { awk -v s="$1" -v e="$2" 'BEGIN { print e - s }'; }
s=$(date +%s.%N)
hq-ingest -q --db "$DIR/hq.db" "$DIR/apple_health_export/export.xml" "$DIR/labs.csv" >/dev/null
e=$(date +%s.%N)
import=$(sec "$s" "$e")
sqlite3 "$DIR/hq.db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
counts=$(sqlite3 "$DIR/hq.db" "SELECT (SELECT count(*) FROM workout) || ' workouts, ' ||
    (SELECT count(*) FROM route_point) || ' route points, ' || (SELECT count(*) FROM clinical_record) ||
    ' records, ' || (SELECT count(*) FROM lab_result) || ' labs'")
echo "the store: $counts; imported in $(printf '%.1f' "$import") s"

# their share of the store
sqlite3 "$DIR/hq.db" "VACUUM INTO '$DIR/full.db'"
cp "$DIR/full.db" "$DIR/none.db"
sqlite3 "$DIR/none.db" "DROP TABLE search_text; DROP TABLE search_text_key; DROP TABLE search_text_bare; DROP TABLE route_box; DROP TABLE search_mark; VACUUM"
full=$(wc -c <"$DIR/full.db") none=$(wc -c <"$DIR/none.db")

ten() {
	s=$(date +%s.%N)
	for _ in 1 2 3 4 5 6 7 8 9 10; do "$@" >/dev/null 2>&1 || true; done
	e=$(date +%s.%N)
	awk -v s="$s" -v e="$e" 'BEGIN { print (e - s) / 10 }'
}
min() { awk -v a="$1" -v b="$2" 'BEGIN { print (b < a) ? b : a }'; }
Q="hq-query --db $DIR/hq.db"
# the commands timed, one a line: --version first (the process alone)
CMDS="--version
search cholesterol --limit 20 --format jsonl
search Dr Lee --in records --limit 1 --format jsonl
search hypertension OR asthma --mode find --format jsonl
search --near 47.62,-122.33,1 --format jsonl
search --near lake --count
search running --near 37.80,-122.45,2 --limit 20 --format jsonl"
best=""
for _ in 1 2 3 4 5; do
	round=""
	while IFS= read -r c; do
		# shellcheck disable=SC2086
		round="$round $(ten $Q $c)"
	done <<EOF_CMDS
$CMDS
EOF_CMDS
	if [ -z "$best" ]; then best=$round; else
		best=$(awk -v a="$best" -v b="$round" 'BEGIN { n = split(a, x); split(b, y)
		    for (i = 1; i <= n; i++) printf "%s ", (y[i] < x[i]) ? y[i] : x[i] }')
	fi
done
load=$(awk '{ print $1 }' /proc/loadavg)
echo "$($Q search cholesterol --count) match cholesterol," \
    "$($Q search --near 47.62,-122.33,1 --count) workouts pass 47.62,-122.33"
printf '%-52s %7s %6s %7s\n' "whole process (best of 5 x 10)" "seconds" "ratio" "< 50 ms"
status=0
i=0
while IFS= read -r c; do
	i=$((i + 1))
	verdict=$(echo "$best" | awk -v i="$i" -v l="$load" -v c="$c" '{
		b = $1; t = $i
		v = (i == 1) ? "" : (l >= 1) ? "load " l : (t < 0.050) ? "met" : "MISSED"
		sub(/ --format jsonl$/, "", c)
		printf "%-52s %7.4f %6.2f %7s\n", c, t, t / b, v
	}')
	echo "$verdict"
	case $verdict in *MISSED) status=1 ;; esac
done <<EOF_CMDS
$CMDS
EOF_CMDS
awk -v full="$full" -v none="$none" 'BEGIN { r = (full - none) / none
	printf "store %.1f MB, without the indexes %.1f MB: +%.1f %% (goal < 10 %%: %s)\n",
	    full / 1e6, none / 1e6, 100 * r, r < 0.1 ? "met" : "MISSED"
	exit r >= 0.1 }' || status=1
if ! command -v valgrind >/dev/null; then
	echo "(no valgrind: instructions and the import's share not measured)"
	exit $status
fi
ir() {
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
	    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
printf '%-52s %12s %6s\n' "instructions (callgrind)" "Ir" "ratio"
v=""
while IFS= read -r c; do
	# shellcheck disable=SC2086
	n=$(ir $Q $c)
	v=${v:-$n}
	awk -v c="$c" -v n="$n" -v v="$v" 'BEGIN { sub(/ --format jsonl$/, "", c)
		printf "%-52s %12d %6.2f\n", c, n, n / v }'
done <<EOF_CMDS
$CMDS
EOF_CMDS
# the indexes' share of an import: their functions' inclusive instructions
valgrind --tool=callgrind --callgrind-out-file="$DIR/import.cg" hq-ingest -q \
    --db "$DIR/tenth.db" "$DIR/tenth/apple_health_export/export.xml" \
    "$DIR/tenth/labs.csv" >/dev/null 2>&1
callgrind_annotate --threshold=100 --inclusive=yes "$DIR/import.cg" 2>/dev/null | awk '
	/PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
	!/=>/ { for (i = 2; i <= NF; i++)
		if ($i ~ /:(hq_store_search_refresh|hq_ig_box_grow|hq_ig_flush_box)$/) {
			f = $i; sub(/.*:/, "", f)
			if (!seen[f]++) { gsub(",", "", $1); idx += $1 }
		} }
	END {
		r = idx / (total - idx)
		printf "import (a tenth) %.0f M instructions, of which the indexes %.0f M: +%.1f %% (goal < 10 %%: %s)\n",
		    total / 1e6, idx / 1e6, 100 * r, r < 0.1 ? "met" : "MISSED"
		exit r >= 0.1
	}' || status=1
exit $status
