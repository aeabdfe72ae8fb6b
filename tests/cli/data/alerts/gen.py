#!/usr/bin/env python3
# tests/cli/data/alerts/gen.py OUTDIR SEED: generated days for
# 4511-alerts.t and the alerts hq-report(1)'s written rule gives them, computed
# here (not by hq's code):
#   OUTDIR/samples.jsonl  resting heart rate (two readings a day: the daily
#                         mean counts), HRV, sleep (a night keyed by the date
#                         it ends), 2025-03-01 .. 2025-06-08, local days in
#                         America/Los_Angeles; anomalies planted after
#                         2025-05-01, a quiet stretch before (values within
#                         1.5 SD of a steady level), a stretch of days with
#                         no resting heart rate, a constant HRV fortnight
#   OUTDIR/glucose.jsonl  CGM readings every 5 minutes on 2025-06-02 .. 06-08,
#                         one in ten at 60 mg/dL (time below range 10 %)
#   OUTDIR/labs.csv       LDL flagged H on 2025-06-03, HDL in range the same
#                         day, LDL H long before the range
#   OUTDIR/expected.jsonl the baseline alerts of every day of 2025-04-01 ..
#                         2025-06-08: date, measure, value, mean, sd, z
import datetime as dt, json, math, random, statistics, sys
from zoneinfo import ZoneInfo

out, seed = sys.argv[1], int(sys.argv[2])
rng = random.Random(seed)
tz = ZoneInfo("America/Los_Angeles")
first, last = dt.date(2025, 3, 1), dt.date(2025, 6, 8)
days = [first + dt.timedelta(i) for i in range((last - first).days + 1)]

def utc(d, h, m=0):
    return dt.datetime(d.year, d.month, d.day, h, m, tzinfo=tz).astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

rows = []
series = {"resting_heart_rate": {}, "heart_rate_variability_sdnn": {}, "sleep": {}}
planted = {dt.date(2025, 5, 6): ("resting_heart_rate", 74), dt.date(2025, 5, 20): ("heart_rate_variability_sdnn", 18),
           dt.date(2025, 6, 4): ("sleep", 3.5), dt.date(2025, 6, 5): ("resting_heart_rate", 75)}
for d in days:
    # resting HR: the quiet level 58 +- 1.5 sd; no values 2025-04-10..04-25
    if not (dt.date(2025, 4, 10) <= d <= dt.date(2025, 4, 25)):
        v = planted[d][1] if d in planted and planted[d][0] == "resting_heart_rate" else round(rng.uniform(55.5, 60.5), 1)
        a, b = v - 1, v + 1                # two readings, their mean v
        series["resting_heart_rate"][d] = (a + b) / 2
        rows.append({"metric": "resting_heart_rate", "start": utc(d, 6), "value": a, "unit": "count/min", "source": "watch"})
        rows.append({"metric": "resting_heart_rate", "start": utc(d, 23, 30), "value": b, "unit": "count/min", "source": "watch"})
    # HRV: constant 50 over 2025-03-01..03-20 (sd 0: no z, no alert)
    if d <= dt.date(2025, 3, 20):
        v = 50.0
    else:
        v = planted[d][1] if d in planted and planted[d][0] == "heart_rate_variability_sdnn" else round(rng.uniform(42, 54), 1)
    series["heart_rate_variability_sdnn"][d] = v
    rows.append({"metric": "heart_rate_variability_sdnn", "start": utc(d, 3), "value": v, "unit": "ms", "source": "watch"})
    # sleep: from 23:00 the evening before
    if d != first:
        h = planted[d][1] if d in planted and planted[d][0] == "sleep" else rng.randint(400, 470) / 60
        mins = round(h * 60)
        series["sleep"][d] = mins / 60
        p = d - dt.timedelta(1)
        s = dt.datetime(p.year, p.month, p.day, 23, 0, tzinfo=tz)
        e = s + dt.timedelta(minutes=mins)
        rows.append({"metric": "sleep_analysis", "start": s.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                     "end": e.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                     "value": "HKCategoryValueSleepAnalysisAsleepCore", "source": "watch"})
with open(out + "/samples.jsonl", "w") as fp:
    for r in rows:
        fp.write(json.dumps(r) + "\n")

with open(out + "/glucose.jsonl", "w") as fp:
    t = dt.datetime(2025, 6, 2, 0, 0, tzinfo=tz)
    i = 0
    while t < dt.datetime(2025, 6, 9, 0, 0, tzinfo=tz):
        v = 60 if i % 10 == 0 else 100 + (i % 7) * 5
        fp.write(json.dumps({"metric": "blood_glucose", "start": t.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                             "value": v, "unit": "mg/dL", "source": "cgm"}) + "\n")
        t += dt.timedelta(minutes=5)
        i += 1

with open(out + "/labs.csv", "w") as fp:
    fp.write("date,test,value,unit,ref_low,ref_high,loinc,source\n"
             "2024-01-10,LDL Cholesterol,150,mg/dL,,129,13457-7,Lab\n"
             "2025-06-03,LDL Cholesterol,162,mg/dL,,129,13457-7,Lab\n"
             "2025-06-03,HDL Cholesterol,55,mg/dL,40,,2085-9,Lab\n")

rule = {"resting_heart_rate": 1, "heart_rate_variability_sdnn": -1, "sleep": -1}
exp = []
for d in days:
    if d < dt.date(2025, 4, 1):
        continue
    for m in ("resting_heart_rate", "heart_rate_variability_sdnn", "sleep"):
        s = series[m]
        if d not in s:
            continue
        base = [s[d - dt.timedelta(k)] for k in range(1, 29) if d - dt.timedelta(k) in s]
        if len(base) < 14:
            continue
        mean, sd = statistics.mean(base), statistics.stdev(base)
        if sd == 0:
            continue
        z = (s[d] - mean) / sd
        if (rule[m] > 0 and z >= 2) or (rule[m] < 0 and z <= -2):
            exp.append({"date": d.isoformat(), "measure": m, "value": s[d], "baseline_mean": mean,
                        "baseline_sd": sd, "z": z})
with open(out + "/expected.jsonl", "w") as fp:
    for r in exp:
        fp.write(json.dumps(r) + "\n")
