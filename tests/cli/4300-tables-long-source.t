#!/usr/bin/env bash
# Every table that shows a source fits an 80-column terminal when the
# source's name is long (60 characters): the name gives way, cut with "…".
# The data are the fixtures and the tests' lab CSV with their sources
# renamed, and a generated export whose Watch is renamed.
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null || skip_all "script(1) is needed for a terminal"
command -v gen-export >/dev/null || skip_all "gen-export not built"
L="Stanford Health Care Clinical Laboratory of Palo Alto (Main)"
is "${#L}" 60 "a source name of 60 characters"

sed "s/,Quest,/,$L,/" "$HQ_ROOT/tests/cli/data/labs/lipids.csv" >"$T/labs.csv"
sed "s/\"source\": \"[^\"]*\"/\"source\": \"$L\"/" \
	"$HQ_FIXTURES/dexa/ge-lunar-idxa-2020-01-22.json" >"$T/dexa.json"
sed "s/Dexcom ONE+ Mobile App/$L/" "$HQ_FIXTURES/cgm/dexcom-clarity-example.csv" >"$T/clarity.csv"
gen-export --days 14 --xml --start 2024-10-20 -o "$T/e.xml" >/dev/null 2>&1
sed "s/sourceName=\"Alex’s Apple Watch\"/sourceName=\"$L\"/g" "$T/e.xml" >"$T/long.xml"
for f in labs.csv dexa.json clarity.csv long.xml; do
	hq-ingest -q "$T/$f" >/dev/null || echo "# $f did not import"
done
is "$(sqlite3 "$HQ_DB" "select count(distinct kind) from report where source = '$L'")" 2 \
	"the long name is the labs' and the scan's source"
is "$(sqlite3 "$HQ_DB" "select count(*) from source where name like 'Dexcom $L (SN %'")" 9 \
	"and the sensors' (Dexcom and the device's name)"

# widest CMD: the widest line CMD prints on an 80-column terminal
# (characters, the header's bold left out)
widest() {
	script -qec "stty cols 80; $1" /dev/null | tr -d '\r' | python3 -c '
import re, sys
lines = [re.sub(r"\x1b\[[0-9;]*m", "", l.rstrip("\n")) for l in sys.stdin]
print(max((len(l) for l in lines), default=0), int(any("…" in l for l in lines)))'
}
for cmd in "hq-report list" "hq-report list labs" "hq-report list dexa" "hq-report list cgm" \
	"hq-report latest labs" "hq-report latest labs ldl" "hq-report trend labs ldl" \
	"hq-report latest dexa" "hq-query --list" "hq-query workouts" "hq-query workout last" \
	"hq-query heart_rate --from 2024-10-25 --to 2024-10-25" "hq-query sleep_analysis --limit 20" \
	"hq-query workout last heart_rate"; do
	set -- $(widest "$cmd")
	ok "$([ "${1:-99}" -le 80 ]; echo $?)" "$cmd: fits 80 columns (widest $1)"
done
set -- $(widest "hq-report list")
is "${2:-0}" 1 "hq-report list: the long name cut with …"
like "$(widest "hq-report latest labs" | cut -d' ' -f2)" 1 "hq-report latest labs: cut too"
done_testing
