#!/usr/bin/env bash
# The FIT decoder (lib/format/fit.c) in constant memory: a 10 MB input (the 1 MB
# multisport file chained ten times, each copy a whole FIT file with its
# CRC) peaks at the RSS of a 178-byte file, within 1 MiB, where holding the
# input would add 10 MB. Streamed in 1-byte pieces it reads the same.
. "$(dirname "$0")/lib.sh"
command -v fit-probe >/dev/null || skip_all "fit-probe not built"
need_fixtures workouts/fitparse/activity-large-fenxi2-multisport.fit \
    workouts/fitparse/DeveloperData.fit workouts/fitparse/nick.fit
W=$HQ_FIXTURES/workouts/fitparse
big=$W/activity-large-fenxi2-multisport.fit

for i in 1 2 3 4 5 6 7 8 9 10; do cat "$big"; done >"$T/chained.fit"
run fit-probe "$T/chained.fit"
is "$rc" 0 "ten chained files decode"
like "$out" "^messages=242660 records=242390 files=10 error_at=-1 " \
    "all ten: 24266 messages, 24239 records each"
rss_big=$(printf '%s' "$out" | sed -n 's/.*rss_kb=\([0-9]*\).*/\1/p')

run fit-probe "$W/DeveloperData.fit"
is "$rc" 0 "a 178-byte file decodes"
rss_small=$(printf '%s' "$out" | sed -n 's/.*rss_kb=\([0-9]*\).*/\1/p')
ok $(( rss_big - rss_small < 1024 ? 0 : 1 )) \
    "10 MB peaks within 1 MiB of 178 bytes ($rss_big KiB, $rss_small KiB)"

run fit-probe -p 1 "$big"
like "$out" "^messages=24266 records=24239 files=1 error_at=-1 " \
    "fed a byte at a time, the same messages"

run fit-probe "$W/nick.fit"
is "$rc" 1 "an unterminated file fails"
like "$err" "nick\.fit: byte 403456: the input ends inside a data message" \
    "with the byte where it ends"
done_testing
