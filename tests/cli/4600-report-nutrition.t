#!/usr/bin/env bash
# hq-report nutrition: a generated food log (gen-export --meals: two apps,
# one logging some dinners again at the same instant) against the
# generator's own truth (written from the meals it drew, not by hq): each
# day's nutrients equal, the macros' shares within rounding, a dinner two
# apps logged counted once; --entries one row per Food correlation with
# its name (from the correlation's HKFoodType, else its records'), meal
# and app; an import again adds nothing and brings back names a store
# lacks; goals on dietary metrics; bad input.
. "$(dirname "$0")/lib.sh"
command -v gen-export >/dev/null || skip_all "gen-export not built"

gen-export --days 10 --seed 3 --xml --truth "$T/truth.jsonl" \
	--meals "$T/meals.xml" -o "$T/export.xml"
is "$?" 0 "gen-export writes an export, its truth and a food log"
run hq-ingest -q "$T/export.xml" "$T/meals.xml"
is "$rc" 0 "both import"

# The days (2024-10-23..29) against the truth's {"meals":DATE,...} lines.
cmp_truth() {  # the rows in $out against the truth; prints what differs
	printf '%s\n' "$out" | python3 -c '
import json, sys
truth = {d["meals"]: d for d in map(json.loads, open(sys.argv[1])) if "meals" in d}
rows = [json.loads(l) for l in sys.stdin if l.strip()]
keys = ["date", "energy_kcal", "protein_g", "carbs_g", "fat_g", "fiber_g",
        "sugar_g", "sodium_mg", "water_ml", "caffeine_mg", "protein_pct",
        "carbs_pct", "fat_pct"]
bad = []
if sorted(r["date"] for r in rows) != sorted(truth):
    bad.append("days %s, truth %s" % ([r["date"] for r in rows], sorted(truth)))
for r in rows:
    if list(r) != keys:
        bad.append("keys %s" % list(r))
    t = truth.get(r["date"], {})
    for k in keys[1:10]:
        if r[k] is None or abs(r[k] - t.get(k, -1)) > 1e-9:
            bad.append("%s %s: %s, truth %s" % (r["date"], k, r[k], t.get(k)))
    for k in keys[10:]:
        if r[k] is None or abs(r[k] - t.get(k, -1)) > 0.05 + 1e-9:
            bad.append("%s %s: %s, truth %s" % (r["date"], k, r[k], t.get(k)))
print("\n".join(bad))' "$T/truth.jsonl"
}
run hq-report nutrition --from 2024-10-23 --to 2024-10-29
is "$rc" 0 "nutrition: exit 0"
is "$(cmp_truth)" "" "every day's nutrients equal the generator's truth (shares within 0.05)"
python3 -c '
import json, sys
t = [d for d in map(json.loads, open(sys.argv[1])) if "meals" in d]
sys.exit(0 if len(t) == 7 and any(d["energy_kcal_naive"] > d["energy_kcal"] for d in t) else 1)' "$T/truth.jsonl"
ok $? "the truth has 7 days, some with a dinner logged twice (a naive sum is more)"

# One day: --from and --to the same date.
run hq-report nutrition --from 2024-10-27 --to 2024-10-27
is "$(rows '"%d %g" % (len(r), r[0]["energy_kcal"])')" "$(python3 -c '
import json, sys
d = [d for d in map(json.loads, open(sys.argv[1])) if d.get("meals") == "2024-10-27"][0]
print("1 %g" % d["energy_kcal"])' "$T/truth.jsonl")" "one day: its row alone"

# --entries: each correlation, both apps, names from either place.
run hq-report nutrition --entries --from 2024-10-23 --to 2024-10-29
is "$rc" 0 "--entries: exit 0"
printf '%s\n' "$out" | python3 -c '
import json, sys, collections
truth = {d["meals"]: d for d in map(json.loads, open(sys.argv[1])) if "meals" in d}
rows = [json.loads(l) for l in sys.stdin if l.strip()]
per = collections.Counter(r["time"][:10] for r in rows)
assert per == collections.Counter({k: v["entries"] for k, v in truth.items()}), per
assert all(r["food"] for r in rows), "every entry has a name"
assert {r["source"] for r in rows} == {"MyFitnessPal", "Lose It!"}
assert list(rows[0])[:4] == ["time", "food", "meal", "energy_kcal"], list(rows[0])
naive = collections.defaultdict(float)
for r in rows:
    naive[r["time"][:10]] += r["energy_kcal"]
for k, v in truth.items():
    assert abs(naive[k] - v["energy_kcal_naive"]) < 1e-9, (k, naive[k])
assert any(r["meal"] == "Dinner" for r in rows)
' "$T/truth.jsonl"
ok $? "--entries: a row per food logged by either app, named, their energy the naive sum"

# A table fits 80 columns, the food's name in it.
run env COLUMNS=80 hq-report nutrition --entries --from 2024-10-27 --to 2024-10-27 --format table
is "$(printf '%s\n' "$out" | perl -CSD -nle 'print if length > 80' | wc -l)" 0 "--entries' table fits 80 columns"
like "$out" "Latte" "and names the food"
run env COLUMNS=80 hq-report nutrition --from 2024-10-23 --to 2024-10-29 --format table
is "$(printf '%s\n' "$out" | perl -CSD -nle 'print if length > 80' | wc -l)" 0 "the days' table fits 80 columns"
like "$(printf '%s\n' "$out" | head -1)" "date +energy_kcal +protein_g +carbs_g +fat_g" "energy and the macros first"

# Again: nothing added; a store without the names (one from before they
# were kept) gets them back from the next import.
before=$(hq-report nutrition --from 2024-10-23 --to 2024-10-29)
sqlite3 "$HQ_DB" "DELETE FROM correlation_meta"
run hq-report nutrition --entries --from 2024-10-27 --to 2024-10-27
like "$out" '"food":"Spaghetti bolognese".*"source":"Lose It!"' \
	"without the correlation's metadata, the records' HKFoodType names Lose It!'s entry"
run hq-ingest -q "$T/meals.xml"
is "$rc" 0 "the food log imports again"
is "$(sqlite3 "$HQ_DB" "SELECT count(*) FROM correlation_meta WHERE key = 'HKFoodType'")" 28 \
	"its correlations' names are back (28 MyFitnessPal entries)"
is "$(hq-report nutrition --from 2024-10-23 --to 2024-10-29)" "$before" "the days are the same"

# A store whose merged rollups an older hq made (its rule counted an
# instant of a lower-ranked app at a higher one's time): the upgrade drops
# the dietary metrics' ones, the next import merges them again.
DIET="SELECT id FROM metric WHERE identifier LIKE 'HKQuantityTypeIdentifierDietary%'"
sqlite3 "$HQ_DB" "UPDATE rollup_merged SET sum = sum * 2 WHERE metric_id IN ($DIET);
UPDATE rollup_merged_q SET sum = sum * 2 WHERE metric_id IN ($DIET)"
run hq-report nutrition --from 2024-10-23 --to 2024-10-29
isnt_truth=$(cmp_truth)
ok "$([ -n "$isnt_truth" ]; echo $?)" "(the days are read from the merged rollups: doubled, they differ)"
# the version before the food log's migration (15; 16 came after it)
sqlite3 "$HQ_DB" "PRAGMA user_version = 14"
run hq-report nutrition --from 2024-10-23 --to 2024-10-29
is "$rc" 2 "a store before the upgrade: hq-report says to run hq-ingest"
like "$err" "run hq-ingest once to upgrade it" "in those words"
run hq-ingest -q "$T/meals.xml"
is "$rc" 0 "an import upgrades it"
run hq-report nutrition --from 2024-10-23 --to 2024-10-29
is "$(cmp_truth)" "" "and the days equal the truth again: the dietary rollups merged anew"

# Goals on dietary metrics, their daily value the nutrition day's.
printf '[goals]\ndietary_protein = 110g/day\nprotein = 100g/day\n' >"$T/cfg"
run env HQ_CONFIG="$T/cfg" hq-report goals dietary_protein --from 2024-10-27 --to 2024-10-27
is "$rc" 0 "a goal on dietary_protein"
is "$(rows 'r[0]["actual"]')" "$(python3 -c '
import json, sys
d = [d for d in map(json.loads, open(sys.argv[1])) if d.get("meals") == "2024-10-27"][0]
print("%g" % d["protein_g"])' "$T/truth.jsonl")" "its actual is the truth's protein"
run env HQ_CONFIG="$T/cfg" hq-report goals protein --from 2024-10-27 --to 2024-10-27
is "$rc" 0 "and one by the alias protein"

# Bad input: a usage error, nothing found, an option of another report.
run hq-report nutrition --from 2024-10-29 --to 2024-10-23
is "$rc" 2 "--from after --to: exit 2"
like "$err" "swap them" "says so"
run hq-report nutrition --from 2024-10-01 --to 2024-10-05
is "$rc" 1 "no food in the range: exit 1"
like "$err" "no food logged from 2024-10-01 to 2024-10-05" "says so, with the range"
run hq-report nutrition --week 2024-W43
is "$rc" 2 "--week does not go with nutrition"
run hq-report goals --entries
is "$rc" 2 "nor --entries with goals"
like "$err" "--entries does not go with 'goals" "in the usual words"
run hq-report nutrition extra
is "$rc" 2 "no operand"

done_testing
