#!/usr/bin/env bash
# An Apple Health export is parsed on one thread and written on another
# (lib/format/elemq.c); HQ_THREADS=0 parses and writes on one. Both must make
# the same store, row for row: the real exports (XML and zip, with routes and
# clinical records), a generated one with every kind of element, and the
# same warnings and errors (which name the same file:line).
. "$(dirname "$0")/lib.sh"
command -v gen-export >/dev/null || skip_all "gen-export not built"

fx="$HQ_FIXTURES/apple-health"
need_fixtures apple-health/jshrake/export.zip apple-health/dogsheep/export.xml \
    apple-health/tdda/export6s3sample.xml apple-health/aleksi/testdata.xml

# Every row of the store but the import's clock times.
# The catalog sorted: its rows are added as each batch commits, and a
# batch ends on a clock (hq-ingest's BATCH_SECONDS), so on a loaded machine
# its rows come in another order; its content is what must agree. So
# with search's indexes: the FTS5 index's segments and the R*Tree's
# nodes depend on where the batches ended; what is indexed (the FTS5
# content, the boxes) must agree, and each index must check whole
# against it (FTS5's integrity-check, SQLite's rtreecheck).
rows_of() {
	sqlite3 "$1" .dump | grep -Ev '^INSERT INTO (catalog|search_text_data|search_text_idx|route_box_node|route_box_parent|route_box_rowid) ' |
	    sed -E 's/^(INSERT INTO import VALUES\([0-9]+,[^,]*,[^,]*,[0-9]+,[^,]*,[^,]*,[^,]*,)[0-9]+,[0-9]+,/\1T,T,/'
	sqlite3 "$1" 'SELECT * FROM catalog ORDER BY identifier' \
	    'SELECT * FROM route_box ORDER BY id' \
	    "INSERT INTO search_text(search_text) VALUES ('integrity-check')" \
	    "SELECT rtreecheck('route_box')" 2>&1
}

gen-export --days 45 --xml -o "$T/gen.xml" >/dev/null 2>&1
gen-export --days 20 --zip -o "$T/gen.zip" >/dev/null 2>&1
files=("$fx/jshrake/export.zip" "$fx/dogsheep/export.xml"
    "$fx/tdda/export6s3sample.xml" "$fx/aleksi/testdata.xml" "$T/gen.xml" "$T/gen.zip")

for threads in 0 1; do
	HQ_THREADS=$threads HQ_DB="$T/t$threads.db" hq-ingest "${files[@]}" \
	    >"$T/out$threads" 2>"$T/err$threads"
	echo $? >"$T/rc$threads"
done
is "$(cat "$T/rc1")" "$(cat "$T/rc0")" "the same exit status"
is "$(cat "$T/rc1")" 0 "both succeed"
n=$(sqlite3 "$T/t1.db" 'select count(*) from sample')
ok "$([ "$n" -gt 10000 ]; echo $?)" "samples were imported ($n)"
is "$(sqlite3 "$T/t1.db" 'select count(*) from route_point')" \
    "$(sqlite3 "$T/t0.db" 'select count(*) from route_point')" "the same route points"
if cmp -s <(rows_of "$T/t0.db") <(rows_of "$T/t1.db"); then same=0; else same=1; fi
ok $same "the same store, row for row"
diff <(rows_of "$T/t0.db") <(rows_of "$T/t1.db") | head -5 | sed 's/^/# /'
is "$(sed 's/"seconds":[0-9.]*//' "$T/out1")" "$(sed 's/"seconds":[0-9.]*//' "$T/out0")" \
    "the same summaries"
is "$(cat "$T/err1")" "$(cat "$T/err0")" "the same warnings"

# Warnings and errors name the same line on either path.
cat >"$T/warn.xml" <<'EOF'
<HealthData>
<Record type="HKQuantityTypeIdentifierHeartRate" unit="count/min" value="70" startDate="2024-01-01 10:00:00 +0000" endDate="2024-01-01 10:00:00 +0000"/>
<Record type="HKQuantityTypeIdentifierHeartRate" unit="count/min" value="71" startDate="2024-01-01 10:00:00 +0000" endDate="2023-01-01 10:00:00 +0000"/>
<Record type="HKQuantityTypeIdentifierHeartRate" unit="count/min" value="72" startDate="2024-01-01 11:00:00 +0000" endDate="2024-01-01 11:00:00 +0000">
EOF
for threads in 0 1; do
	HQ_THREADS=$threads HQ_DB="$T/w$threads.db" hq-ingest "$T/warn.xml" \
	    >/dev/null 2>"$T/werr$threads"
	echo $? >>"$T/werr$threads"
done
like "$(cat "$T/werr1")" "warn\.xml:3: .*end is before start" "a warning names its line"
like "$(cat "$T/werr1")" "warn\.xml:5: " "the parse error names its line"
is "$(cat "$T/werr1")" "$(cat "$T/werr0")" "the same messages and status either way"

# Elements as large as the bounds allow (a 300 kB attribute each; a block
# grows to hold one): the queue stays bounded.
python3 -c 'import sys
o = sys.stdout.buffer
o.write(b"<?xml version=\"1.0\"?>\n<HealthData locale=\"en\">\n")
v = b"A" * (300 * 1024)
for i in range(150):
    o.write(b" <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"x\" unit=\"count\" startDate=\"2024-01-01 10:00:00 +0000\" endDate=\"2024-01-01 10:01:00 +0000\" value=\"%d\"><MetadataEntry key=\"k\" value=\"" % i + v + b"\"/></Record>\n")
o.write(b"</HealthData>\n")' >"$T/wide.xml"
HQ_DB="$T/wide.db" /usr/bin/time -f %M -o "$T/rss" hq-ingest -q "$T/wide.xml" >/dev/null
is "$?" 0 "150 elements of 300 kB each import"
rss=$(tail -n 1 "$T/rss")
# (An ASan build keeps freed memory in quarantine, so the bound is the
# plain build's to check.)
if ldd "$(command -v hq-ingest)" 2>/dev/null | grep -q libasan; then
	ok 0 "# skip peak RSS under ASan (${rss} KB)"
else
	ok "$([ "$rss" -lt 65536 ]; echo $?)" "in bounded memory (peak ${rss} KB < 64 MB)"
fi

# The writer stops the parse (not an export): the error, nothing stored.
{ echo '<Other>'; for i in $(seq 1 50000); do echo "<Record type=\"x\" value=\"$i\"/>"; done; echo '</Other>'; } >"$T/other.xml"
run hq-ingest "$T/other.xml"
is "$rc" 2 "the writer's error stops the import"
like "$err" "other\.xml:1: not an Apple Health export" "and names the line"
done_testing
