#!/usr/bin/env bash
# A month archived by an older hq, whose schema lacked a column a later
# migration added (here sample's last, import_id, dropped from the store
# before the push and added back after the prune, as a migration would):
# new rows imported into that pruned month are merged into its archived
# segment (the archived rows take the column's default); the hybrid read
# of a month still of the older schema, before that push; a restore of
# what the push made.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/archive.sh"

# steps every hour of 2023-01..2023-03 (2,160 samples)
hourly_steps 2160 "$T/steps.jsonl"
hq-ingest -q "$T/steps.jsonl" >/dev/null
# the raw samples of 2023-02-10, as the hybrid read gives them
feb() { hq-query steps --from 2023-02-10 --to 2023-02-10 --format jsonl |
	awk -F'"value":' '{ split($2, a, ","); s += a[1]; n++ } END { print n, s }'; }
before=$(samples_of "$HQ_DB")
feb_before=$(feb)

# the store as the older hq had it: no sample.import_id
sqlite3 "$HQ_DB" "ALTER TABLE sample DROP COLUMN import_id"
hq-archive -q init >/dev/null
hq-archive -q push
run hq-archive prune --before 2023-03 --yes
is "$rc" 0 "pruned 2023-01..2023-02, archived without sample.import_id"
# the migration that added it
sqlite3 "$HQ_DB" "ALTER TABLE sample ADD COLUMN import_id INTEGER REFERENCES import(id)"

# the hybrid read of a month the archive holds of the older schema
run feb
is "$rc" 0 "hq-query over a pruned month of the older schema"
is "$out" "$feb_before" "it reads the archived rows"

printf '{"metric":"steps","start":"2023-01-05T10:30:00Z","end":"2023-01-05T10:40:00Z","value":777,"unit":"count","source":"Late"}\n' >"$T/late.jsonl"
hq-ingest "$T/late.jsonl" >/dev/null 2>&1
run hq-archive -v push
is "$rc" 0 "push: a new row merged into a month archived by the older schema"
unlike "$err" "columns" "no column-count error"
# the new column changed what the store builds of each pruned month:
# both are merged once, to the new schema
like "$out" '"sent":[1-9][0-9]*,' "the months are sent again"
is "$(grep -cE 'GET [0-9a-f]{32}' <<<"$err")" 2 "each pruned month fetched once"
run hq-archive push --all
like "$out" '"sent":0,' "then nothing more to send"

# a new machine
run env HOME="$T/new" XDG_CONFIG_HOME="$XDG_CONFIG_HOME" hq-archive -q --db "$T/new.db" restore
is "$rc" 0 "restore"
read -r n s <<<"$before"
is "$(samples_of "$T/new.db")" "$((n + 1)) $((s + 777))" "every sample once, the late one too"
is "$(sqlite3 "$T/new.db" "SELECT count(*) FROM sample WHERE import_id IS NULL")" "$n" \
	"the archived samples: import_id takes its default"
is "$(sqlite3 "$T/new.db" "SELECT count(*) FROM sample AS s JOIN import AS i ON i.id = s.import_id WHERE s.value = 777")" 1 \
	"the late one keeps its import"

done_testing
