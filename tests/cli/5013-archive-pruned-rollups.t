#!/usr/bin/env bash
# New samples imported into months hq-archive prune took out of the store:
# the hours they touch are totalled again with the archived samples, read
# back into the cache, so that the merged rollups (the source-priority
# merge of steps) are what a store never pruned holds. The truth is
# computed here from the generated samples and the merge's rule
# (hq-query(1): Watch > iPhone > others; a sample counts for the part of
# its time no higher-ranked one covers, pro rata), then compared with a
# twin store that was never pruned, and with a restore of the archive.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pruned.sh"

# late: another app in an hour of 2023-01-05 (beside the iPhone's);
# a Watch over half of the iPhone's 10:00-10:10 of 2023-01-06 (the
# Watch counts whole, the iPhone's half it does not cover); an app
# repeating the iPhone's 10:00-10:10 of 2023-02-10 (outranked: 0)
h1=$((t0 + (4 * 24 + 10) * 3600)) h2=$((t0 + (5 * 24 + 10) * 3600))
h3=$((t0 + (40 * 24 + 10) * 3600))
printf '{"metric":"steps","start":%d,"end":%d,"value":777,"unit":"count","source":"Late"}\n' $((h1 + 1800)) $((h1 + 2400)) >"$T/late1.jsonl"
{
	printf '{"metric":"steps","start":%d,"end":%d,"value":500,"unit":"count","source":"My Apple Watch"}\n' $((h2 + 300)) $((h2 + 900))
	printf '{"metric":"steps","start":%d,"end":%d,"value":999,"unit":"count","source":"Other App"}\n' "$h3" $((h3 + 600))
} >"$T/late2.jsonl"
want1=$(($(v $h1) + 777)) want2=$((500 + $(v $h2) / 2)) want3=$(v $h3)

hour() {   # the merged steps of the UTC hour at $2, hourly and by quarters
	sqlite3 "$1" "SELECT printf('%d', (SELECT sum FROM rollup_merged WHERE
	    metric_id = $steps AND slot = $2)), printf('%d', (SELECT sum(sum) FROM
	    rollup_merged_q WHERE metric_id = $steps AND slot >= $2 AND slot < $2 + 3600))" |
	    tr '|' ' '
}
rollups() {   # every rollup row, by name
	sqlite3 "$1" "SELECT 'm', slot, printf('%.6f', sum), n FROM rollup_merged
	    UNION ALL SELECT 'q', slot, printf('%.6f', sum), n FROM rollup_merged_q
	    UNION ALL SELECT s.name, slot, n, printf('%.6f', r.sum) FROM rollup r
	    JOIN source s ON s.id = r.source_id ORDER BY 1, 2"
}

pruned_store "$T/phone.jsonl"
ok $? "a store pushed, 2023-01..2023-02 pruned"

# two files in one run (one transaction: the months read for the first
# serve the second and the run's rollups)
run hq-ingest "$T/late1.jsonl" "$T/late2.jsonl"
is "$rc" 0 "new samples in pruned months imported"
like "$(tr '\n' ' ' <<<"$out")" 'late1.*"inserted":1,.*late2.*"inserted":2,' "all three kept"
unlike "$err" "leave out|warning" "nothing said: nothing is left out"
is "$(cached)" 2 "the two pruned months read back into the cache"
is "$(hour "$HQ_DB" $h1)" "$want1 $want1" "an app beside the archived iPhone sample: both counted ($want1)"
is "$(hour "$HQ_DB" $h2)" "$want2 $want2" "a Watch over half of an archived iPhone sample: 500 + half ($want2)"
is "$(hour "$HQ_DB" $h3)" "$want3 $want3" "an app repeating an archived iPhone sample: outranked ($want3)"
run hq-query steps --by hour --from 2023-01-06 --to 2023-01-06 --offline --format jsonl
like "$out" "\"value\":$want2[,}]" "hq-query --offline reads that hour from the rollups"

# a store never pruned, the same imports: the same rollups, every row
HQ_DB="$T/twin.db" hq-ingest -q "$T/phone.jsonl" "$T/late1.jsonl" "$T/late2.jsonl" >/dev/null
is "$(rollups "$HQ_DB")" "$(rollups "$T/twin.db")" "every rollup row as in a store never pruned"

# pushed (the months merged with the new rows), restored elsewhere: the same
run hq-archive -q push
is "$rc" 0 "push"
run env HOME="$T/new" hq-archive -q --db "$T/new.db" restore
is "$rc" 0 "restore on a new machine"
is "$(rollups "$T/new.db")" "$(rollups "$T/twin.db")" "its rollups as in a store never pruned"

# the same file again: duplicates, nothing read
rm -f "$cache"/*.db
cat "$T/late1.jsonl" "$T/late2.jsonl" >"$T/late.jsonl"
run hq-ingest "$T/late.jsonl"
like "$out" '"inserted":0,"duplicates":3,' "imported again: duplicates"
is "$(cached)" 0 "nothing read back"
is "$(rollups "$HQ_DB")" "$(rollups "$T/twin.db")" "the rollups unchanged"

# a metric merged whole (as after a migration that makes the merged
# rollups again): every pruned month of its samples read
sqlite3 "$HQ_DB" "DELETE FROM rollup_merged; DELETE FROM rollup_merged_q;
    DELETE FROM rollup_merged_metric; DELETE FROM rollup_merged_q_metric"
printf '{"metric":"steps","start":"2023-03-20T10:02:00Z","end":"2023-03-20T10:12:00Z","value":40,"unit":"count","source":"Late"}\n' >"$T/march.jsonl"
run hq-ingest "$T/march.jsonl"
is "$rc" 0 "a new sample, steps merged whole"
is "$(cached)" 2 "both pruned months read back"
HQ_DB="$T/twin.db" hq-ingest -q "$T/march.jsonl" >/dev/null
is "$(rollups "$HQ_DB")" "$(rollups "$T/twin.db")" "every rollup row as in a store never pruned"

# the same activity recorded twice (hq-ingest(1)): recordings rank by
# the heart-rate seconds they cover, the archived ones too. A Watch's ride
# of 2024-01 (a heart rate every 5 s of 3,000: 600 s; power), pruned; the
# bike computer's FIT of it synced late (every 30 s: 100 s): by the rule
# the Watch's recording still counts, and the FIT's yields to it.
export XDG_CONFIG_HOME="$T/config2" HOME="$T/home2" HQ_DB="$T/same.db"
cache="$HOME/.cache/hq/archive"
mkdir -p "$XDG_CONFIG_HOME/hq" "$HOME"
printf '[archive]\nremote = file://%s/remote2\n' "$T" >"$XDG_CONFIG_HOME/hq/config"
python3 "$HQ_ROOT/tests/cli/data/mksame.py" "$T" pruned
hq-ingest -q "$T/watch.xml" "$T/march.jsonl" >/dev/null
hq-archive -q init >/dev/null && hq-archive -q push &&
    hq-archive -q prune --before 2024-02 --yes
ok $? "a Watch's ride pushed, its month pruned"
mv "$T/remote2" "$T/remote2.away"
dump=$(sqlite3 "$HQ_DB" .dump | md5sum)
run hq-ingest "$T/late.fit"
is "$rc" 2 "the archive out of reach: the FIT refused"
like "$err" "late\.fit: .*months 2024-01 could not be read back" "by name, with the month"
is "$(sqlite3 "$HQ_DB" .dump | md5sum)" "$dump" "the store as it was"
mv "$T/remote2.away" "$T/remote2"
run hq-ingest "$T/late.fit"
is "$rc" 0 "the ride's FIT synced late"
is "$(hq-query workouts --format jsonl --offline 2>/dev/null | python3 -c '
import json, sys
print(" ".join(r["source"] for r in map(json.loads, sys.stdin)))')" "My Apple Watch" \
    "the Watch's recording counts, as in a store never pruned"
is "$(cached)" 1 "the ride's month read back (2024-01)"
# Strava's copy of it with power (every 20 s) and fewer heart rates: it
# yields too, and the Watch, which has power of its own (archived),
# takes none of Strava's (hq-ingest(1): it takes what it lacks)
run hq-ingest "$T/strava.xml"
is "$rc" 0 "Strava's copy synced"
is "$(hq-query workouts --format jsonl --offline 2>/dev/null | python3 -c '
import json, sys
print(" ".join("%s %s" % (r["source"], sorted(r.get("filled_from") or {})) for r in map(json.loads, sys.stdin)))')" \
    "My Apple Watch []" "the Watch's recording keeps its own power"
# the training figures hq-ingest keeps of each workout after an import:
# the Watch ride's, dropped when the late recordings came, figured again
# from its archived samples (fetched for that), as a store never pruned
# holds them: the Watch's 600 heart rates of 150 (every 5 s of 3,000 s),
# its power 200; the bike computer's ride takes the Watch's power
figs() {
	sqlite3 "$1" "SELECT s.name, f.nhr, f.hr_max, f.np FROM workout_figures f
	    JOIN workout w ON w.id = f.workout_id JOIN source s ON s.id = w.source_id
	    ORDER BY s.name"
}
HQ_DB="$T/same-twin.db" hq-ingest -q "$T/watch.xml" "$T/march.jsonl" \
    "$T/late.fit" "$T/strava.xml" >/dev/null
like "$(figs "$HQ_DB" | tr '\n' ' ')" "My Apple Watch\|600\|150\.0\|200\.0 " \
    "the Watch ride's kept figures from its archived samples (600 of 150, power 200)"
is "$(figs "$HQ_DB")" "$(figs "$T/same-twin.db")" \
    "every workout's kept figures as in a store never pruned"

done_testing
