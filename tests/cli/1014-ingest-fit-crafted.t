#!/usr/bin/env bash
# Issue 22's bad input, crafted (tests/cli/data/mkfit.py): a good ride of 10
# records (HR 120..129, power 200..209) and its variants, each imported into
# a store that already holds the good one. Refused whole, with the byte,
# the store unchanged: a 4 GB declared data size in a 182-byte file (read
# to its end: the CRC read as a message of an undefined type, at byte
# 180). Merely odd, read, counted and warned: one heart rate 0xFF (that
# field skipped), a record with every field invalid (no time: skipped), a
# compressed timestamp before any full one (no time to add to: skipped).
# Read as the protocol says: a local type redefined mid-file (5 records
# with HR and power, then 5 with power only), timestamps going backwards
# (kept; a repeated second's same values once).
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip_all "no python3"
command -v sqlite3 >/dev/null || skip_all "no sqlite3"
python3 "$HQ_ROOT/tests/cli/data/mkfit.py" "$T"
q() { sqlite3 "$HQ_DB" "$1"; }
counts() { q "SELECT (SELECT count(*) FROM sample) || ' ' ||
    (SELECT count(*) FROM workout) || ' ' || (SELECT count(*) FROM import)"; }
metric() { q "SELECT count(*) FROM sample s JOIN metric m ON m.id = s.metric_id
    WHERE m.identifier = 'HKQuantityTypeIdentifier$1' AND s.import_id =
    (SELECT max(id) FROM import)"; }

run hq-ingest -q "$T/good.fit"
is "$rc" 0 "the good ride imports"
is "$(counts)" "20 1 1" "20 samples, a workout"

run hq-ingest "$T/size4g.fit"
is "$rc" 2 "4 GB declared in 182 bytes: refused"
like "$err" "size4g\.fit: byte 180: .*nothing from this file was imported" \
    "with its file and byte"
is "$(counts)" "20 1 1" "the store unchanged"

for f in hr-ff all-invalid compressed-first redefined backwards; do
	rm -f "$HQ_DB" "$HQ_DB-wal" "$HQ_DB-shm"
	run hq-ingest "$T/$f.fit"
	eval "rc_$(echo $f | tr - _)=$rc"
	eval "err_$(echo $f | tr - _)=\$err"
	eval "hr_$(echo $f | tr - _)=$(metric HeartRate)"
	eval "pw_$(echo $f | tr - _)=$(metric CyclingPower)"
done
is "$rc_hr_ff $hr_hr_ff $pw_hr_ff" "0 9 10" "HR 0xFF in one record: read without it (9 HR, 10 power)"
like "$err_hr_ff" "hr-ff\.fit: 1 heart rates marked invalid in the file \(skipped\)" \
    "counted and warned"
is "$rc_all_invalid $hr_all_invalid $pw_all_invalid" "0 10 10" \
    "a record with every field invalid among 10: skipped"
like "$err_all_invalid" "all-invalid\.fit: 1 records without a time \(skipped\)" \
    "counted and warned"
is "$rc_compressed_first $hr_compressed_first" "0 0" \
    "a compressed timestamp before any full one: no time, skipped"
like "$err_compressed_first" "compressed-first\.fit: 1 records without a time \(skipped\)" \
    "counted and warned"
is "$rc_redefined $hr_redefined $pw_redefined" "0 5 10" \
    "redefined mid-file: 5 HR, then power only (10)"
is "$rc_backwards $hr_backwards $pw_backwards" "0 8 8" \
    "timestamps going back: 8 distinct seconds of the 10 records"
done_testing
