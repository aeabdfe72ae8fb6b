#!/usr/bin/env bash
# Mangled exports (XML and zip) never crash the Apple Health reader; under
# the ASan+UBSan build (make check SANITIZE=1) this is a fuzzing run with
# leak checks on every CI run. The seed changes with the day, and is printed.
# The other readers, the expression parser, the config file and the model
# replies: 1007-fuzz-readers.t.
. "$(dirname "$0")/lib.sh"
command -v fuzz_input >/dev/null || skip_all "fuzz_input not built"
A=$HQ_FIXTURES/apple-health
need_fixtures apple-health/dogsheep/export.xml apple-health/jshrake/export.zip \
    apple-health/aleksi/testdata.xml apple-health/tdda/export6s3sample.xml

seed=${HQ_FUZZ_SEED:-$(date +%j)}
n=${HQ_FUZZ_ITERATIONS:-1500}
gen-export --days 2 --zip -o "$T/gen.zip" >/dev/null 2>&1
run fuzz_input -f apple -n "$n" -s "$seed" -o "$T/last" \
    "$A/dogsheep/export.xml" "$A/jshrake/export.zip" \
    "$A/aleksi/testdata.xml" "$A/tdda/export6s3sample.xml" \
    "$HQ_ROOT/tests/data/ios16-broken-dtd.xml" "$T/gen.zip"
is "$rc" 0 "fuzz_input -f apple: $n mutated exports, seed $seed, no crash (HQ_FUZZ_SEED=$seed to replay)"
like "$out" "^fuzz_input: $n iterations over 6 files" "every iteration ran"
is "$err" "" "no sanitizer or leak report"
if [ "$rc" -ne 0 ]; then
	cp "$T/last" "${TMPDIR:-/tmp}/hq-fuzz-apple.crash"
	echo "# the input that failed: ${TMPDIR:-/tmp}/hq-fuzz-apple.crash"
fi
done_testing
