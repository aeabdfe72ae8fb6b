#!/usr/bin/env bash
# hq-report nutrition --entries marks each entry by whether the days
# counted it (issue 31: two apps logging one meal count once): the
# generated food log's dinners logged again by a second app at the same
# instant are "no" for the app that yields and "yes" for the other; the
# energy of the entries marked yes is each day's energy_kcal (and the
# generator's truth); [query] source_priority turns the marks over and
# the days' sums stay the truth.
. "$(dirname "$0")/lib.sh"
command -v gen-export >/dev/null || skip_all "gen-export not built"
command -v python3 >/dev/null || skip_all "python3 missing"

gen-export --days 10 --seed 3 --xml --truth "$T/truth.jsonl" \
	--meals "$T/meals.xml" -o "$T/export.xml" >/dev/null
hq-ingest -q "$T/export.xml" "$T/meals.xml" >/dev/null 2>&1
ok $? "an export and its food log imported"

check() {   # WINNER: the app whose entry counts where both logged one
	hq-report nutrition --entries --from 2024-10-23 --to 2024-10-29 \
	    --format jsonl >"$T/entries"
	hq-report nutrition --from 2024-10-23 --to 2024-10-29 \
	    --format jsonl >"$T/days"
	python3 - "$T/entries" "$T/days" "$T/truth.jsonl" "$1" <<'P'
import collections, json, sys
entries = [json.loads(l) for l in open(sys.argv[1])]
days = {d["date"]: d for d in map(json.loads, open(sys.argv[2]))}
truth = {d["meals"]: d for d in map(json.loads, open(sys.argv[3])) if "meals" in d}
winner = sys.argv[4]
at = collections.defaultdict(list)
for x in entries:
    at[x["time"]].append(x)
dups = [v for v in at.values() if len(v) > 1]
assert dups, "the log has meals two apps logged"
for v in dups:
    marks = sorted((x["source"], x["counted"]) for x in v)
    assert all(c == ("yes" if s == winner else "no") for s, c in marks), marks
for x in entries:
    if len(at[x["time"]]) == 1:
        assert x["counted"] == "yes", x
kcal = collections.Counter()
for x in entries:
    if x["counted"] == "yes":
        kcal[x["time"][:10]] += x["energy_kcal"]
for day, d in days.items():
    assert abs(kcal[day] - d["energy_kcal"]) < 1e-6, (day, kcal[day], d["energy_kcal"])
    assert abs(d["energy_kcal"] - truth[day]["energy_kcal"]) < 1e-6, day
print(len(dups))
P
}
n=$(check "Lose It!")
ok $? "both apps' meals: Lose It! (first by name) counted, MyFitnessPal's not; counted energy = the days' = the truth ($n meals)"

export HQ_CONFIG="$T/hq.conf"
printf '[query]\nsource_priority = MyFitnessPal, Lose It\n' >"$HQ_CONFIG"
n=$(check "MyFitnessPal")
ok $? "source_priority = MyFitnessPal: the marks turn over, the sums stay the truth ($n meals)"

run env COLUMNS=80 hq-report nutrition --entries --from 2024-10-27 --to 2024-10-27 --format table
is "$(printf '%s\n' "$out" | perl -CSD -nle 'print if length > 80' | wc -l)" 0 \
	"the table with its counted column fits 80 columns"
like "$out" 'counted' "and shows the mark"
done_testing
