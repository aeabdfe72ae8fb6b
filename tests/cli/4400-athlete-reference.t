#!/usr/bin/env bash
# The figures tests/unit/athlete.c holds hq's athlete engine to (the rules of
# hq-report(1)'s "Training" and hq-query(1)'s WORKOUTS) are what the independent
# reference, tests/data/athlete/reference.py, computes: run it again here
# and compare. Its generated data and expected figures are reproduced byte
# for byte, and on two real exports imported by hq-ingest it writes the
# recorded fixtures.expected again (its comment lines aside).
. "$(dirname "$0")/lib.sh"

command -v hq-ingest >/dev/null || skip_all "hq-ingest not built"
command -v python3 >/dev/null || skip_all "python3 missing"
need_fixtures apple-health/jshrake/export.zip \
    apple-health/dogsheep/zip_contents/apple_health_export/export.xml

D=$HQ_ROOT/tests/data/athlete

python3 "$D/reference.py" generate "$T"
ok $? "reference.py generate"
cmp -s "$T/generated.sql" "$D/generated.sql"
ok $? "generated.sql is the reference's data"
cmp -s "$T/generated.expected" "$D/generated.expected"
ok $? "generated.expected is what the reference computes from it"

hq-ingest -q "$HQ_FIXTURES/apple-health/jshrake/export.zip" \
    "$HQ_FIXTURES/apple-health/dogsheep/zip_contents/apple_health_export/export.xml" \
    >/dev/null
ok $? "the real exports imported"
python3 "$D/reference.py" store "$HQ_DB" America/Los_Angeles >"$T/fixtures"
ok $? "reference.py store"
grep -v '^#' "$D/fixtures.expected" | cmp -s - "$T/fixtures"
ok $? "fixtures.expected is what the reference computes from their store"
grep -q '^best 1 400.0 [0-9]' "$T/fixtures"
ok $? "jshrake's walk has a best 400 m"

done_testing
