#!/usr/bin/env bash
# The plan reader (hq-ingest --plan) under mangled plans (fuzz_plan): no
# crash, no sanitizer report, and what it accepts holds to its rules.
. "$(dirname "$0")/lib.sh"
command -v fuzz_plan >/dev/null || skip_all "fuzz_plan not built"
D=$HQ_ROOT/tests/data/plan
seed=${HQ_FUZZ_SEED:-$(date +%j)}
n=$((3000 * ${HQ_FUZZ_SCALE:-1}))
run fuzz_plan -n "$n" -s "$seed" -o "$T/last" "$D/plan.csv" "$D/plan2.jsonl" "$D/fuzz.jsonl"
is "$rc" 0 "fuzz_plan: $n mutated plans, seed $seed, no crash (HQ_FUZZ_SEED=$seed to replay)"
like "$out" "^fuzz_plan: $n iterations over 3 files" "every iteration ran"
is "$err" "" "no sanitizer or leak report"
[ "$rc" -eq 0 ] || cp "$T/last" "${TMPDIR:-/tmp}/hq-fuzz_plan.crash"
done_testing
