#!/usr/bin/env python3
# tests/cli/data/goals/gen.py OUTDIR SEED: generated days for 4510-goals.t
# and what hq-report goals must say of them, computed here by hq-report(1)'s
# written rule (not by hq's code):
#   OUTDIR/samples.jsonl  steps (local 08:00 and 23:30: the late one is the
#                         next day in UTC), sleep intervals (a night ends on
#                         the date it is keyed by), exercise minutes, weight
#   OUTDIR/export.xml     an Apple export: ActivitySummary rows (the rings,
#                         the move goal changing on 2025-01-01)
#   OUTDIR/expected.jsonl per goal and period: goal, period, op, target,
#                         actual, pct, met (null: still going on, or no
#                         weigh-in: weight is a measurement), streak
# Days 2024-11-01 .. 2025-02-09 in America/Los_Angeles, a few missing; the
# rows asked for are --from 2024-12-20 --to 2025-02-09, so streaks cross
# the year's and months' ends and count the days before --from.
import datetime as dt, json, math, random, sys
from zoneinfo import ZoneInfo

out, seed = sys.argv[1], int(sys.argv[2])
rng = random.Random(seed)
tz = ZoneInfo("America/Los_Angeles")
first, last = dt.date(2024, 11, 1), dt.date(2025, 2, 9)
FROM, TO = dt.date(2024, 12, 20), dt.date(2025, 2, 9)
days = [first + dt.timedelta(i) for i in range((last - first).days + 1)]

def utc(d, h, m=0):
    t = dt.datetime(d.year, d.month, d.day, h, m, tzinfo=tz)
    return t.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

steps, sleep, exer, weight = {}, {}, {}, {}
rows = []
for i, d in enumerate(days):
    # a run of kept step days from 2024-12-10 over the year's end
    if d.day % 17 == 5:
        pass                                     # no steps that day
    else:
        a = rng.randint(3000, 7000)
        met = dt.date(2024, 12, 10) <= d <= dt.date(2025, 1, 12) or rng.random() < 0.5
        b = rng.randint(7200, 9000) if met else rng.randint(500, 2500)
        steps[d] = a + b
        rows.append({"metric": "steps", "start": utc(d, 8), "end": utc(d, 8, 30), "value": a, "unit": "count", "source": "phone"})
        rows.append({"metric": "steps", "start": utc(d, 23, 30), "end": utc(d, 23, 50), "value": b, "unit": "count", "source": "phone"})
    if d != first and d.day % 13 != 4:
        mins = rng.randint(330, 500)             # asleep from 23:00 the evening before
        sleep[d] = mins / 60
        prev = d - dt.timedelta(1)
        s = dt.datetime(prev.year, prev.month, prev.day, 23, 0, tzinfo=tz)
        e = s + dt.timedelta(minutes=mins)
        rows.append({"metric": "sleep_analysis", "start": s.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                     "end": e.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                     "value": "HKCategoryValueSleepAnalysisAsleepCore", "source": "watch"})
    if rng.random() < 0.7:
        m = rng.randint(5, 45)
        exer[d] = m
        rows.append({"metric": "exercise_time", "start": utc(d, 17), "end": utc(d, 17) , "value": m, "unit": "min", "source": "watch"})
    if rng.random() < 0.3:
        w = round(rng.uniform(70.5, 73.5), 2)
        weight[d] = w
        rows.append({"metric": "weight", "start": utc(d, 7), "value": w, "unit": "kg", "source": "scale"})
with open(out + "/samples.jsonl", "w") as fp:
    for r in rows:
        fp.write(json.dumps(r) + "\n")

# The rings: the days from 2024-12-01, the move goal 500 then 650.
rings = {}
xml = ['<?xml version="1.0" encoding="UTF-8"?>', "<HealthData locale=\"en_US\">",
       ' <ExportDate value="2025-02-10 06:00:00 -0800"/>']
for d in days:
    if d < dt.date(2024, 12, 1) or d.day == 15:
        continue
    mg = 500 if d.year == 2024 else 650
    mv, ex, st = round(rng.uniform(350, 800), 3), rng.randint(10, 60), rng.randint(8, 14)
    rings[d] = {"move": (mv, mg), "exercise": (ex, 30), "stand": (st, 12)}
    xml.append(' <ActivitySummary dateComponents="%s" activeEnergyBurned="%s" activeEnergyBurnedGoal="%d" '
               'activeEnergyBurnedUnit="kcal" appleMoveTime="0" appleMoveTimeGoal="0" appleExerciseTime="%d" '
               'appleExerciseTimeGoal="30" appleStandHours="%d" appleStandHoursGoal="12"/>' % (d, mv, mg, ex, st))
xml.append("</HealthData>")
with open(out + "/export.xml", "w") as fp:
    fp.write("\n".join(xml) + "\n")

# The newest data: the newest sample's start (all in the jsonl), or the
# newest summary, as a local day. A period ending on or after it goes on;
# a period after it, no row (it is before today here).
newest = max(max(steps), max(sleep), max(exer), max(weight), max(rings))

def week_of(d):
    mon = d - dt.timedelta(d.weekday())
    y, w, _ = mon.isocalendar()
    return mon, mon + dt.timedelta(6), "%04d-W%02d" % (y, w)

def month_of(d):
    f = d.replace(day=1)
    n = (f.replace(year=f.year + (f.month == 12), month=f.month % 12 + 1)) - dt.timedelta(1)
    return f, n, "%04d-%02d" % (d.year, d.month)

def day_of(d):
    return d, d, d.isoformat()

def goal(name, values, target, at_most, period, figure, targets=None, measured=False):
    # measured: a measurement (weight), judged on the periods that have a
    # value; one without is no data (met null), the streak left as it is
    ds = sorted(values)
    start = min(ds[0], FROM)
    d, streak, res = start, 0, []
    while d <= TO and d <= newest:
        f, l, label = period(d)
        inside = [x for x in ds if f <= x <= l]
        t = target
        if targets and inside:
            t = targets[inside[-1]]
        if inside:
            vs = [values[x] for x in inside]
            actual = sum(vs) if figure == "total" else vs[-1] if figure == "last" else sum(vs) / len(vs)
        else:
            actual = None
        if l >= newest:
            met = None
        elif actual is None and measured:
            met = None
        elif actual is None:
            met, streak = False, 0
        else:
            met = actual <= t if at_most else actual >= t
            streak = streak + 1 if met else 0
        if l >= FROM:
            res.append({"goal": name, "period": label, "op": "<=" if at_most else ">=",
                        "target": t, "actual": actual,
                        "pct": None if actual is None else 100 * actual / t, "met": met, "streak": streak})
        d = l + dt.timedelta(1)
    return res

exp = []
exp += goal("steps", steps, 10000, False, day_of, "total")
exp += goal("sleep", sleep, 7, False, day_of, "average")
exp += goal("exercise_time", exer, 150, False, week_of, "total")
exp += goal("weight", weight, 72, True, month_of, "last", measured=True)
exp += goal("body_mass", weight, 72, True, day_of, "last", measured=True)
for k in ("move", "exercise", "stand"):
    vals = {d: r[k][0] for d, r in rings.items()}
    tg = {d: r[k][1] for d, r in rings.items()}
    exp += goal(k, vals, tg[max(tg)], False, day_of, "total", tg)
with open(out + "/expected.jsonl", "w") as fp:
    for r in exp:
        fp.write(json.dumps(r) + "\n")
