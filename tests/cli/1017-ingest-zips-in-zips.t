#!/usr/bin/env bash
# Zips inside a zip (issue 22): Garmin Connect's bulk export holds the
# uploaded files in zips (DI_CONNECT/DI-Connect-Uploaded-Files/
# UploadedFiles_0-_Part1.zip), Strava's has activities/*.fit.gz. A zip
# entry that is a zip is read like the zip (its .fit.gz too), one level
# deep: a zip inside that is skipped and warned about; a damaged zip
# inside is refused alone, named, and the rest kept. Before, a zip inside
# was "no FIT, TCX or GPX file" and its rides were lost.
. "$(dirname "$0")/lib.sh"
command -v gen-fit >/dev/null || skip_all "gen-fit not built"

q() { sqlite3 "$HQ_DB" "$1"; }
gen-fit -n 6 -r 300 -d 86400 -o "$T/r" >/dev/null
gzip -c "$T/r/ride-0001.fit" >"$T/r/ride-0001.fit.gz"
printf '{"activities": []}\n' >"$T/notes.json"
# zip OUT NAME=FILE...: a zip of the files under those names (deflated).
zip() {
	python3 - "$@" <<'EOF'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
    for arg in sys.argv[2:]:
        name, path = arg.split("=", 1)
        z.write(path, name)
EOF
}
zip "$T/part1.zip" "ride-0002.fit=$T/r/ride-0002.fit" \
    "ride-0003.fit=$T/r/ride-0003.fit" "notes.json=$T/notes.json"
zip "$T/deep.zip" "ride-0005.fit=$T/r/ride-0005.fit"
zip "$T/part2.zip" "ride-0004.fit=$T/r/ride-0004.fit" "deeper.zip=$T/deep.zip"
head -c 600 "$T/part1.zip" >"$T/broken.zip"
zip "$T/export.zip" \
    "DI_CONNECT/DI-Connect-Uploaded-Files/UploadedFiles_0-_Part1.zip=$T/part1.zip" \
    "DI_CONNECT/DI-Connect-Uploaded-Files/UploadedFiles_0-_Part2.zip=$T/part2.zip" \
    "DI_CONNECT/DI-Connect-Uploaded-Files/UploadedFiles_0-_Part3.zip=$T/broken.zip" \
    "activities/ride-0001.fit.gz=$T/r/ride-0001.fit.gz" \
    "activities/ride-0006.fit=$T/r/ride-0006.fit"

run hq-ingest "$T/export.zip"
is "$rc" 0 "a zip of zips imports"
like "$out" '"format":"device-zip"' "sniffed as device files (a .zip entry)"
like "$out" '"workouts":5,"workouts_inserted":5,' \
    "5 rides: 2 in Part1, 1 in Part2, a .fit.gz and a .fit beside them"
is "$(q "SELECT count(*) FROM workout")" 5 "5 workouts in the store"
is "$(q "SELECT count(DISTINCT start) FROM workout")" 5 "each ride once"
like "$err" 'export\.zip:DI_CONNECT/DI-Connect-Uploaded-Files/UploadedFiles_0-_Part2\.zip:deeper\.zip: a zip inside a zip inside a zip \(skipped' \
    "the zip inside a zip inside the zip: skipped, named"
like "$err" 'UploadedFiles_0-_Part3\.zip: damaged or truncated zip.*\(skipped: nothing from this file was imported\)' \
    "the damaged zip inside: refused alone, named"
like "$err" 'export\.zip: 2 files that are no FIT, TCX or GPX file' \
    "Part1's notes.json and the zip skipped: counted"
is "$(q "SELECT count(*) FROM import")" 1 "one import"
done_testing
