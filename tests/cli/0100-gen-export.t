#!/usr/bin/env bash
# gen-export writes a realistic Apple Health export and the truth about it:
# deterministic for a seed, the zip laid out as an iPhone lays it out, every
# date in the export-time offset, well-formed XML, and a truth file that an
# independent reading of the XML (Python, zoneinfo) agrees with.
. "$(dirname "$0")/lib.sh"

command -v gen-export >/dev/null || skip_all "gen-export not built"
command -v python3 >/dev/null || skip_all "python3 missing"

run gen-export --help
is "$rc" 0 "--help exits 0"
like "$out" "^usage: gen-export" "--help prints usage on stdout"

# --- determinism --------------------------------------------------------------
gen-export --xml --seed 7 -o "$T/a.xml" --truth "$T/a.truth"
ok $? "writes a 30-day export"
gen-export --xml --seed 7 -o "$T/b.xml" --truth "$T/b.truth"
cmp -s "$T/a.xml" "$T/b.xml"
ok $? "same seed, same XML, byte for byte"
cmp -s "$T/a.truth" "$T/b.truth"
ok $? "same seed, same truth"
gen-export --xml --seed 8 -o "$T/c.xml"
! cmp -s "$T/a.xml" "$T/c.xml"
ok $? "another seed, another export"

# --- well-formed, with and without its internal DTD ----------------------------
run xmllint --stream --noout "$T/a.xml"
is "$rc" 0 "xmllint --stream accepts the XML with its DTD"
sed '/<!DOCTYPE/,/^]>/d' "$T/a.xml" >"$T/nodtd.xml"
run xmllint --stream --noout "$T/nodtd.xml"
is "$rc" 0 "xmllint --stream accepts it with the DTD stripped"
like "$(head -c 200 "$T/a.xml")" "HealthKit Export Version: 1[34]" "header carries a v13/v14 DTD"

# --- the quirks of real exports, on request ---------------------------------------
gen-export --xml --days 5 --broken-dtd -o "$T/dtd16.xml"
run xmllint --stream --noout "$T/dtd16.xml"
is "$rc" 1 "--broken-dtd: libxml2 rejects the iOS 16 DTD"
sed '/<!DOCTYPE/,/^]>/d' "$T/dtd16.xml" >"$T/dtd16-stripped.xml"
run xmllint --stream --noout "$T/dtd16-stripped.xml"
is "$rc" 0 "--broken-dtd: and accepts the body once the DTD is dropped"
gen-export --xml --days 5 --control-chars -o "$T/vt.xml"
run xmllint --stream --noout "$T/vt.xml"
like "$err" "invalid character in attribute value" "--control-chars: U+000B in attribute values breaks libxml2"
tr -d '\013' <"$T/vt.xml" >"$T/vt-stripped.xml"
run xmllint --stream --noout "$T/vt-stripped.xml"
is "$rc" 0 "--control-chars: and the rest is well-formed"

# --- every date carries the offset of the export date ----------------------------
offsets=$(grep -oE '"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} [-+][0-9]{4}"' "$T/a.xml" |
	  cut -c22-26 | sort | uniq -c | awk '{print $2}' | tr '\n' ' ')
is "$offsets" "-0800 " "winter export: every date written -0800, even October's PDT samples"
gen-export --xml --days 10 --start 2024-10-25 --export-date '2025-07-04 08:00:00' -o "$T/summer.xml"
offsets=$(grep -oE '"[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2} [-+][0-9]{4}"' "$T/summer.xml" |
	  cut -c22-26 | sort -u | tr '\n' ' ')
is "$offsets" "-0700 " "summer export: every date written -0700, even November's PST samples"
gen-export --xml --days 3 --tz Asia/Kolkata -o "$T/kolkata.xml"
like "$(grep -m1 '<ExportDate' "$T/kolkata.xml")" '\+0530"' "half-hour offsets are written +0530"

# --- the zip ---------------------------------------------------------------------
gen-export --zip --seed 7 --xml-name '导出.xml' -o "$T/e.zip" --truth "$T/e.truth"
ok $? "writes a zip with a localised XML name"
run python3 - "$T/e.zip" "$T/a.xml" <<'EOF'
import re, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = z.namelist()
assert z.testzip() is None, "CRC error"
assert "apple_health_export/导出.xml" in names, names[:5]
assert "apple_health_export/export_cda.xml" in names
xml = z.read("apple_health_export/导出.xml")
assert xml == open(sys.argv[2], "rb").read(), "zip XML differs from --xml with the same seed"
refs = re.findall(rb'<FileReference path="/(workout-routes/[^"]+)"/>', xml)
gpx = [n for n in names if n.startswith("apple_health_export/workout-routes/") and n.endswith(".gpx")]
assert refs and len(refs) == len(gpx), (len(refs), len(gpx))
for r in refs:
    assert "apple_health_export/" + r.decode() in names, r
    assert re.match(r"workout-routes/route_\d{4}-\d\d-\d\d_\d{1,2}\.\d\d[ap]m\.gpx$", r.decode()), r
g = z.read(gpx[0]).decode()
assert 'creator="Apple Health Export"' in g and "<trkpt " in g
times = re.findall(r"<time>([^<]+)</time>", g)
assert times and all(t.endswith("Z") for t in times), times[:3]
print(len(names), len(gpx))
EOF
is "$rc" 0 "zip: 导出.xml, export_cda.xml and one GPX per FileReference, UTC times ($out) $err"
cmp -s "$T/a.truth" "$T/e.truth"
ok $? "zip and bare XML runs tell the same truth"
python3 -c "import zipfile,sys; sys.stdout.buffer.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))" \
	"$T/e.zip" apple_health_export/workout-routes/"$(python3 -c "
import zipfile,sys; print([n for n in zipfile.ZipFile(sys.argv[1]).namelist() if n.endswith('.gpx')][0].rsplit('/',1)[1])" "$T/e.zip")" >"$T/r.gpx"
run xmllint --noout "$T/r.gpx"
is "$rc" 0 "the GPX route is well-formed"

# --- what the export holds, read back independently --------------------------------
run python3 - "$T/a.xml" "$T/a.truth" <<'EOF'
# Recomputes the truth from the XML alone: parse dates with their written
# offset, bucket in America/Los_Angeles, apply HACKING.md's semantics.
import json, sys, xml.etree.ElementTree as ET
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo
tz = ZoneInfo("America/Los_Angeles")
def ts(s): return datetime.strptime(s, "%Y-%m-%d %H:%M:%S %z").timestamp()
def day(t): return datetime.fromtimestamp(t, tz).date().isoformat()
def mid(d): return datetime.fromisoformat(d).replace(tzinfo=tz).timestamp()
def nextmid(d): return mid((datetime.fromisoformat(d) + timedelta(days=1)).date().isoformat())
def prorata(acc, s, e, v):
    if e <= s:
        acc[day(s)] = acc.get(day(s), 0) + v; return
    d = day(s)
    while mid(d) < e:
        a, z = max(s, mid(d)), min(e, nextmid(d))
        if z > a: acc[d] = acc.get(d, 0) + v * (z - a) / (e - s)
        d = (datetime.fromisoformat(d) + timedelta(days=1)).date().isoformat()

truth = {}; wk = []; summary = None
for line in open(sys.argv[2]):
    r = json.loads(line)
    if "date" in r and "workout" not in r: truth[r["date"]] = r
    elif "workout" in r: wk.append(r)
    else: summary = r

seen = set(); dups = 0; nrec = 0
watch, phone, naive, hr, gl, ex, asleep, inbed, stages = [], [], {}, {}, {}, {}, [], [], {}
cats = set(); kinds = {"old": 0, "new": 0}; corr = 0; hrv_beats = 0; legacy = 0
root = ET.parse(sys.argv[1]).getroot()
for el in root:
    if el.tag == "Correlation":
        corr += 1
        assert len(el.findall("Record")) == 2
    if el.tag == "Workout":
        kinds["new" if el.find("WorkoutStatistics") is not None else "old"] += 1
    if el.tag != "Record": continue
    nrec += 1
    a = el.attrib
    key = tuple(sorted((k, v) for k, v in a.items() if k != "device"))
    if key in seen: dups += 1; continue
    seen.add(key)
    t, src = a["type"], a["sourceName"]
    s, e = ts(a["startDate"]), ts(a["endDate"])
    if t.endswith("StepCount"):
        v = float(a["value"]); prorata(naive, s, e, v)
        (watch if "Watch" in src else phone).append((s, e, v))
    elif t.endswith("Identifier" + "HeartRate"):
        hr.setdefault(day(s), []).append(float(a["value"]))
    elif t.endswith("BloodGlucose"):
        gl.setdefault(day(s), []).append(float(a["value"]))
    elif t.endswith("AppleExerciseTime"):
        prorata(ex, s, e, float(a["value"]))
    elif t.endswith("HeartRateVariabilitySDNN"):
        hrv_beats += len(el.findall("HeartRateVariabilityMetadataList/InstantaneousBeatsPerMinute"))
    elif t.endswith("SleepAnalysis"):
        v = a["value"]; cats.add(v)
        if v.endswith("InBed"): inbed.append((s, e))
        elif "Asleep" in v and "Watch" in src: asleep.append((s, e))
        if v.endswith("Asleep"): legacy += 1
        if v[28:] in ("AsleepDeep", "AsleepREM", "AsleepCore"): stages.setdefault(v[28:], []).append((s, e))

# steps: Watch, plus iPhone time no Watch sample covers, pro rata
steps = {}
for s, e, v in watch: prorata(steps, s, e, v)
cover = sorted((s, e) for s, e, _ in watch)
merged = []
for s, e in cover:
    if merged and s <= merged[-1][1]: merged[-1][1] = max(merged[-1][1], e)
    else: merged.append([s, e])
import bisect
starts = [m[0] for m in merged]
for s, e, v in phone:
    t = s
    i = max(0, bisect.bisect_right(starts, s) - 1)
    while i < len(merged) and t < e:
        ms, me = merged[i]
        if me > t:
            if ms > t: prorata(steps, t, min(ms, e), v * (min(ms, e) - t) / (e - s))
            t = max(t, me)
        i += 1
    if t < e: prorata(steps, t, e, v * (e - t) / (e - s))

def sleepkey(t):
    d = datetime.fromtimestamp(t, tz)
    return (d.date() + timedelta(days=1 if d.hour >= 18 else 0)).isoformat()
def union(ivs):
    out = {}; cur = None
    for s, e in sorted(ivs):
        if cur and s <= cur[1]: cur[1] = max(cur[1], e)
        else:
            if cur: out[sleepkey(cur[1])] = out.get(sleepkey(cur[1]), 0) + (cur[1] - cur[0]) / 60
            cur = [s, e]
    if cur: out[sleepkey(cur[1])] = out.get(sleepkey(cur[1]), 0) + (cur[1] - cur[0]) / 60
    return out
sl, ib = union(asleep), union(inbed)

bad = []
def check(name, got, want, tol):
    if abs(got - want) > tol: bad.append(f"{name}: xml {got} truth {want}")
for d, r in truth.items():
    check(d + " steps", steps.get(d, 0), r["steps"], 1e-6 * max(1, r["steps"]))
    check(d + " steps_naive", naive.get(d, 0), r["steps_naive"], 1e-6 * r["steps_naive"])
    h = hr.get(d, [])
    check(d + " hr_n", len(h), r["heart_rate_n"], 0)
    check(d + " hr_avg", sum(h) / len(h), r["heart_rate_avg"], 1e-6)
    check(d + " hr_min", min(h), r["heart_rate_min"], 0)
    check(d + " hr_max", max(h), r["heart_rate_max"], 0)
    g = gl.get(d, [])
    check(d + " glucose_avg", sum(g) / len(g), r["glucose_avg"], 1e-6)
    check(d + " glucose_max", max(g), r["glucose_max"], 0)
    check(d + " exercise", ex.get(d, 0), r["exercise_minutes"], 1e-6)
    check(d + " asleep", sl.get(d, 0), r["sleep_asleep_min"], 1e-6)
    check(d + " inbed", ib.get(d, 0), r["sleep_inbed_min"], 1e-6)
assert not bad, "\n".join(bad[:10])
assert nrec == summary["records"], (nrec, summary["records"])
assert dups == summary["duplicates"] and dups > 0, (dups, summary["duplicates"])
assert corr == summary["correlations"] and corr > 0
assert kinds["old"] > 0 and kinds["new"] > 0, kinds
assert kinds["old"] + kinds["new"] == summary["workouts"] == len(wk)
assert hrv_beats > 0 and legacy > 0
for c in ("InBed", "Asleep", "AsleepCore", "AsleepDeep", "AsleepREM", "Awake"):
    assert "HKCategoryValueSleepAnalysis" + c in cats, c
print(len(truth), "days,", nrec, "records,", dups, "duplicates agree")
EOF
is "$rc" 0 "an independent reading of the XML gives the truth file's figures: $out $err"

run python3 - "$T/a.truth" <<'EOF'
import json, sys
days = [json.loads(l) for l in open(sys.argv[1])]
wk = [d for d in days if "workout" in d]
days = [d for d in days if "date" in d and "workout" not in d]
assert len(days) == 30
dst = [d for d in days if d["day_hours"] != 24]
assert [(d["date"], d["day_hours"]) for d in dst] == [("2024-11-03", 25)], dst
trains = {w["date"] for w in wk}
for d in days:
    # a heart rate a minute the Watch is worn; during a workout one every 5 s
    if d["date"] in trains:
        assert d["heart_rate_n"] + d["watch_off_min"] > d["day_hours"] * 60, d["date"]
    else:
        assert d["heart_rate_n"] + d["watch_off_min"] == d["day_hours"] * 60, d["date"]
    assert d["steps_watch"] <= d["steps"] <= d["steps_naive"], d["date"]
naive_more = sum(d["steps_naive"] > d["steps"] + 100 for d in days)
assert naive_more >= 27, naive_more
assert any(d["glucose_max"] > 140 for d in days) and any(d["glucose_max"] < 140 for d in days)
assert any(d["exercise_minutes"] >= 60 for d in days) and any(d["exercise_minutes"] < 60 for d in days)
assert all(d["sleep_asleep_min"] > 300 and d["sleep_inbed_min"] > 300 for d in days)
assert sum(d["sleep_asleep_min"] < d["sleep_inbed_min"] for d in days) >= 20   # naps are asleep, not in bed
assert sum(d["sleep_deep_min"] > 0 for d in days) >= 20
assert {w["form"] for w in wk} == {"old", "new"}
assert all(w["distance_km"] > 0 and w["avg_hr"] > 80 and w["route_points"] > 0 for w in wk)
print(naive_more)
EOF
is "$rc" 0 "truth: 25-hour DST day, naive steps above the truth on $out/30 days, spikes and quiet days $err"

gen-export --xml --start 2025-03-01 --days 14 -o "$T/spring.xml" --truth "$T/spring.truth"
like "$(grep '"day_hours":23' "$T/spring.truth")" '"date":"2025-03-09"' "spring forward: 2025-03-09 has 23 hours"
like "$(grep -c '"day_hours":24' "$T/spring.truth")" '^13$' "and the other 13 days 24"

# --- known effects, for hq-correlate to find -----------------------------------------
gen-export --xml --seed 7 --days 200 -o /dev/null --truth "$T/effects.truth"
run python3 - "$T/effects.truth" <<'EOF'
# Sleep starts 40 min (0.667 h) later after a day with glucose above 140; HRV
# falls 0.02 ms per kcal of yesterday's workout; glucose and steps are drawn
# independently. 200 days: the sizes within sampling error of the design.
import json, sys, statistics as st
rows = [json.loads(l) for l in open(sys.argv[1])]
days = [d for d in rows if "date" in d and "workout" not in d]
kcal = {}
for w in (d for d in rows if "workout" in d):
    kcal[w["date"]] = kcal.get(w["date"], 0) + w["energy_kcal"]
hi = [days[i + 1]["sleep_asleep_min"] / 60 for i in range(len(days) - 1) if days[i]["glucose_max"] > 140]
lo = [days[i + 1]["sleep_asleep_min"] / 60 for i in range(len(days) - 1) if days[i]["glucose_max"] <= 140]
diff = st.mean(hi) - st.mean(lo)
assert len(hi) > 40 and len(lo) > 40 and -1.0 < diff < -0.35, (len(hi), len(lo), diff)
pairs = [(kcal.get(days[i]["date"], 0), days[i + 1]["hrv_avg"]) for i in range(len(days) - 1)
         if days[i + 1]["hrv_avg"] is not None]
slope = st.linear_regression(*zip(*pairs)).slope
assert -0.03 < slope < -0.01, slope
r = st.correlation([d["glucose_max"] for d in days], [d["steps"] for d in days])
assert abs(r) < 0.2, r
print("%.2f h less sleep, %.4f ms/kcal, r = %.2f" % (diff, slope, r))
EOF
is "$rc" 0 "the persona's known effects are in the data: $out $err"

# --- a later export is a superset, whatever offset it is written in ---------------
gen-export --xml --seed 7 --days 36 --export-date '2025-07-04 08:00:00' -o "$T/later.xml"
run python3 - "$T/a.xml" "$T/later.xml" <<'EOF'
import re, sys
from datetime import datetime
pat = re.compile(r'(creationDate|startDate|endDate|date)="([^"]+)"')
def norm(line):
    line = re.sub(r"HKDevice: 0x[0-9a-f]+", "", line)
    return pat.sub(lambda m: m.group(1) + "=" + str(datetime.strptime(m.group(2), "%Y-%m-%d %H:%M:%S %z").timestamp()), line)
def records(path):
    return {norm(l) for l in open(path, encoding="utf-8") if l.startswith((" <Record ", " <Workout ", " <ActivitySummary "))}
a, b = records(sys.argv[1]), records(sys.argv[2])
assert len(b) > len(a), (len(a), len(b))
missing = a - b
assert not missing, list(missing)[:2]
print(len(a), len(b))
EOF
is "$rc" 0 "36 days exported in July hold every record of 30 days exported in November, same UTC instants ($out) $err"

# --- --size ----------------------------------------------------------------------
gen-export --xml --size 8M -o "$T/sized.xml" --truth "$T/sized.truth"
bytes=$(wc -c <"$T/sized.xml")
num_near "$bytes" 8000000 1500000 "--size 8M writes about 8 MB ($bytes bytes)"
like "$(tail -1 "$T/sized.truth")" "\"xml_bytes\":$bytes[,}]" "summary line counts the XML bytes"

# --- bad input -----------------------------------------------------------------------
run gen-export --tz Nowhere/Atlantis -o "$T/x.xml"
is "$rc" 2 "unknown zone exits 2"
like "$err" "unknown time zone 'Nowhere/Atlantis'" "and says which zone"
run gen-export --days 3 --size 1M -o "$T/x.xml"
is "$rc" 2 "--days with --size exits 2"
run gen-export --days x -o "$T/x.xml"
is "$rc" 2 "a non-numeric --days exits 2"
like "$err" "bad value 'x' for --days" "and names the option"
run gen-export --days 3
is "$rc" 2 "no -o exits 2"
like "$err" "usage: gen-export" "with a usage line"

done_testing
