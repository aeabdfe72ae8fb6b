#!/usr/bin/env bash
# Many files in one run are imported in batches (issue 22: a year of rides
# is 400 files): the files read in about a quarter of a second share a
# transaction, each in a savepoint of its own, and the rollups, the same
# activity and the catalog are brought up to date once a batch. What "one
# file a transaction" means must hold: a bad file among good ones is
# refused whole and the others are in; the store holds the rows (samples,
# rollups, workouts, the same activity, routes, the catalog, each file's
# import and counts) that importing the files one by one gives; a summary
# line printed is a file in the store, even after kill -9; stdin between
# files is read as one file. And a ride of more points than are kept in
# memory (32,768) goes through the temporary table whole.
. "$(dirname "$0")/lib.sh"
command -v gen-fit >/dev/null || skip_all "gen-fit not built"

q() { sqlite3 "$HQ_DB" "$1"; }
# Every table's rows (but the import table's times, and the import after
# which each workout's figures were kept), a digest a line.
tables() {
	# search's virtual tables by their rows, not their shadow tables
	# (FTS5's segments and the R*Tree's nodes depend on the commits)
	for t in $(sqlite3 "$1" "SELECT name FROM sqlite_master WHERE type =
	    'table' AND name NOT LIKE 'sqlite_%' AND name != 'import' AND name
	    NOT GLOB 'search_text_*' AND name NOT GLOB 'route_box_*' ORDER BY
	    name"); do
		cols=$(sqlite3 "$1" "SELECT group_concat('\"' || name || '\"')
		    FROM pragma_table_info('$t') WHERE '$t' != 'workout_figures'
		    OR name != 'stamp'")
		echo "$t $(sqlite3 "$1" "SELECT $cols FROM \"$t\"" | sort | cksum)"
	done
	sqlite3 "$1" "SELECT id, path, format, records, inserted, duplicates,
	    skipped FROM import ORDER BY id"
}

# Two devices recording the same six rides (each pair one activity), and
# a truncated ride between them.
gen-fit -n 6 -r 600 -d 86400 -o "$T/a" >/dev/null
gen-fit -n 6 -r 600 -d 86400 -m 3880000002 -s 2 -o "$T/b" >/dev/null
# a ride whose file CRC does not match (one that merely ends early would
# be imported in part)
cp "$T/a/ride-0003.fit" "$T/bad.fit"
printf 'ZZ' | dd of="$T/bad.fit" bs=1 seek=$(($(wc -c <"$T/bad.fit") - 2)) \
    conv=notrunc 2>/dev/null
files="$T/a/ride-0001.fit $T/a/ride-0002.fit $T/a/ride-0003.fit
$T/a/ride-0004.fit $T/a/ride-0005.fit $T/a/ride-0006.fit $T/bad.fit
$T/b/ride-0001.fit $T/b/ride-0002.fit $T/b/ride-0003.fit $T/b/ride-0004.fit
$T/b/ride-0005.fit $T/b/ride-0006.fit"

# shellcheck disable=SC2086
run hq-ingest $files
is "$rc" 1 "a bad file among good ones: exit 1"
like "$err" 'bad\.fit: .*\(nothing from this file was imported\)' \
    "the bad file is named, refused whole"
is "$(printf '%s\n' "$out" | grep -c '"file":')" 12 "12 summary lines"
unlike "$out" 'bad\.fit' "none for the bad file"
is "$(q "SELECT count(*) FROM import")" 12 "12 imports in the store"
is "$(q "SELECT count(*) FROM import WHERE path LIKE '%bad.fit'")" 0 \
    "none of the bad file"
is "$(q "SELECT count(*) FROM workout")" 12 "12 workouts"
is "$(q "SELECT count(*) FROM workout_same")" 6 \
    "6 of them the same activity as another (made once, at the commit)"
is "$(q "SELECT count(*) FROM sample WHERE import_id NOT IN
    (SELECT id FROM import)")" 0 "no sample of an import not kept"
is "$(q "SELECT sum(inserted) FROM import")" \
    "$(q "SELECT count(*) FROM sample")" \
    "the imports' counts are the samples in the store"
batched=$(tables "$HQ_DB")

# The same files, each by a run of its own (a transaction each).
export HQ_DB="$T/one.db"
for f in $files; do
	hq-ingest -q "$f" >/dev/null 2>&1
done
is "$(tables "$HQ_DB")" "$batched" \
    "the same rows as the files imported one by one (rollups, same activity)"

# stdin between files: read whole as one file of its own.
export HQ_DB="$T/stdin.db"
run sh -c 'hq-ingest "$1" - "$2" <"$3"' sh "$T/a/ride-0001.fit" \
    "$T/a/ride-0003.fit" "$T/a/ride-0002.fit"
is "$rc" 0 "a file, stdin, a file: exit 0"
is "$(printf '%s\n' "$out" | sed -n 's/.*"file":"\([^"]*\)".*/\1/p' |
    sed 's|.*/||' | tr '\n' ' ')" "ride-0001.fit - ride-0003.fit " \
    "three summaries, in order"
is "$(q "SELECT count(*) FROM workout")" 3 "three workouts"

# kill -9 in the middle of a run of many files: the files whose summary
# was printed are in the store, and what is in the store is whole files.
# (Not strictly the converse: a kill between a commit and the printing of
# its lines would leave files in the store unprinted; hq-ingest moves the
# WAL into the store after printing, not in the commit as SQLite would,
# so that window is short; importing them again finds them there.)
gen-fit -n 80 -r 3600 -d 86400 -o "$T/many" >/dev/null
export HQ_DB="$T/killed.db"
hq-ingest -q "$T"/many/*.fit >"$T/killed.out" 2>"$T/killed.err" &
pid=$!
# killed once the first batch is printed (a fixed sleep killed it before
# any commit on a loaded machine under ASan), with more batches to come
for _ in $(seq 1200); do
	grep -q '"file"' "$T/killed.out" 2>/dev/null && break
	sleep 0.05
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
printed=$(sed -n 's/.*"file":"\([^"]*\)".*/\1/p' "$T/killed.out" | sort)
stored=$(q "SELECT path FROM import" | sort)
ok "$([ -n "$stored" ]; echo $?)" \
    "some files were in before the kill ($(printf '%s\n' "$stored" | grep -c .) of 80)"
is "$(comm -23 <(printf '%s\n' "$printed") <(printf '%s\n' "$stored") | grep -c .)" 0 \
    "every file printed ($(printf '%s\n' "$printed" | grep -c .)) is in the store"
is "$(q "SELECT count(*) FROM import i WHERE inserted != (SELECT count(*)
    FROM sample s WHERE s.import_id = i.id)")" 0 "each of them whole"
is "$(q "PRAGMA integrity_check")" ok "the store is sound"

# A ride of 40,000 seconds: its points past 32,768 wait in the temporary
# table; every one is read back, in order (gen-fit writes every field
# each second: 40,000 of each, 39,999 steps of distance).
gen-fit -r 40000 -o "$T/long.fit" >/dev/null
export HQ_DB="$T/long.db"
run hq-ingest -q "$T/long.fit"
is "$rc" 0 "a ride of 40,000 points imports"
is "$(q "SELECT group_concat(n, ' ') FROM (SELECT count(*) AS n FROM sample
    s JOIN metric m ON m.id = s.metric_id GROUP BY m.identifier ORDER BY
    m.identifier)")" "40000 40000 40000 39999 40000" \
    "cadence, power, speed, distance, heart rate: one a point"
is "$(q "SELECT count(*), min(seq), max(seq), count(DISTINCT time),
    max(time) - min(time) FROM route_point")" "40000|0|39999|40000|39999" \
    "40,000 route points, a second apart, in order"
done_testing
