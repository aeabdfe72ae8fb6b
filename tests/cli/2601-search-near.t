#!/usr/bin/env bash
# hq-query search --near (issue 31): the workouts whose route passes
# within a radius, and each one's closest approach, equal what
# tests/data/search/routes.pl computes from the GPX points it wrote (its
# own haversine, not hq's code): routes past the Golden Gate Bridge and
# 1.2 km beside it, across the antimeridian, near both poles, one that
# touches a radius exactly (in at that radius, out a micrometre short),
# and random walks. Places by name from [places].
. "$(dirname "$0")/lib.sh"
command -v hq-ingest >/dev/null && command -v hq-query >/dev/null ||
	skip_all "hq-ingest or hq-query is not built"
command -v perl >/dev/null || skip_all "perl missing"

perl "$HQ_ROOT/tests/data/search/routes.pl" "$T/r"
ok $? "routes.pl wrote the routes and the truth"
hq-ingest -q "$T"/r/route-*.gpx >/dev/null
ok $? "the routes imported"

# The rows as "day<TAB>distance", one a line, sorted by day.
rows() {
	perl -MJSON::PP -ne 'my $r = decode_json($_);
	    printf "%s\t%s\n", substr($r->{date}, 0, 10), $r->{distance_km}' | sort
}

while IFS=$'\t' read -r name lat lon km; do
	hq-query search --near "$lat,$lon,$km" --format jsonl >"$T/got" 2>"$T/err"
	rc=$?
	rows <"$T/got" >"$T/got.tsv"
	grep "^$name	" "$T/r/truth.tsv" | cut -f2,3 | sort >"$T/want.tsv"
	if [ -s "$T/want.tsv" ]; then
		is "$rc" 0 "$name: exit 0"
	else
		is "$rc" 1 "$name: nothing within, exit 1"
	fi
	is "$(cut -f1 "$T/got.tsv" | tr '\n' ' ')" "$(cut -f1 "$T/want.tsv" | tr '\n' ' ')" \
		"$name: the workouts within $km km are routes.pl's"
	# distance_km: JSON's 10 significant digits of the closest approach
	bad=$(paste "$T/got.tsv" "$T/want.tsv" | awk -F'\t' '{ d = $2 - $4; if (d < 0) d = -d;
	    if (d > 2e-9 + 1e-9 * $4) print $1 ": " $2 " vs " $4 }')
	is "$bad" "" "$name: distance_km is the closest point's haversine"
done <"$T/r/queries.tsv"

# --near with --type, --from/--to and the words
n=$(hq-query search --near 47.6,-122.32,8 --type running --from 2026-01-20 --to 2026-01-25 --count)
want=$(awk -F'\t' '$1 == "sea4" && $2 >= "2026-01-20" && $2 <= "2026-01-25"' "$T/r/truth.tsv" | wc -l | tr -d ' ')
is "$n" "$want" "--near with --from/--to counts the routes.pl rows of those days"
hq-query search --near 47.6,-122.32,8 --type cycling >/dev/null 2>&1
is $? 1 "--near with another type: none"
# mode find without words: the closest five, closest first
got=$(hq-query search --near 47.6,-122.32,8 --mode find --format jsonl | perl -MJSON::PP -ne 'print substr(decode_json($_)->{date}, 0, 10), "\n"' | tr '\n' ' ')
want=$(awk -F'\t' '$1 == "sea4"' "$T/r/truth.tsv" | sort -t'	' -k3,3g | head -5 | cut -f2 | tr '\n' ' ')
is "$got" "$want" "--mode find: the five closest, closest first"
# paging: --limit and --offset over the newest-first rows
all=$(hq-query search --near 47.6,-122.32,8 --format jsonl | perl -MJSON::PP -ne 'print decode_json($_)->{id}, " "')
page=$(hq-query search --near 47.6,-122.32,8 --limit 3 --offset 2 --format jsonl | perl -MJSON::PP -ne 'print decode_json($_)->{id}, " "')
is "$page" "$(echo "$all" | awk '{ print $3, $4, $5 }') " "--limit 3 --offset 2: the third to fifth of every row"

# a place by name
mkdir -p "$XDG_CONFIG_HOME/hq"
cat >"$XDG_CONFIG_HOME/hq/config" <<'CFG'
[places]
golden_gate = 37.8199,-122.4783,0.5
wide = 37.8199,-122.4783,2
CFG
a=$(hq-query search --near golden_gate --format jsonl | rows)
b=$(hq-query search --near 37.8199,-122.4783,0.5 --format jsonl | rows)
is "$a" "$b" "[places] golden_gate is its coordinates"
is "$(hq-query search --near wide --count)" 2 "[places] wide: its radius, 2 km"
printf '7.5 = 1,2\n' >>"$XDG_CONFIG_HOME/hq/config"
out=$(hq-query search --near wide 2>&1)
is $? 2 "a place named like a coordinate: a usage error"
like "$out" "config:[0-9]+: \[places\] '7.5'.*coordinate" "it names the file, the line and the name"
done_testing
