#!/usr/bin/env python3
"""Reference for hq-report(1)'s "Training" and hq-query(1)'s WORKOUTS.

Computes, from the samples alone and by the written rules only (none of
hq's code), every figure tests/unit/athlete.c checks hq's engine against:
the athlete's defaults, each workout's held heart rate, trimp, hrss,
edwards, zones, NP/IF/TSS, load and elevation gain, the daily
ctl/atl/tsb/ramp series, the bests (distance and power) and the splits.

    reference.py generate DIR   write DIR/generated.sql (data with the traps
                                the issue lists) and DIR/generated.expected
    reference.py store DB TZ    the same figures for an hq store (hq-ingest's
                                SQLite file), local days in zone TZ
    reference.py rows DB TZ REPORT [--from D] [--to D] [--type T,...]
        [--ids A,B] [--last N] [--max-hr B] [--rest-hr B] [--lthr B]
        [--ftp W] [--zones A,B,C,D] [ID]
                                the rows hq-report REPORT (load, zones,
                                bests, compare) writes as JSON lines, by
                                the man pages' rules for the commands
    reference.py same A B       1e-9 relative: the JSON lines of file A
                                and of file B hold the same rows
    reference.py activity DB    the same activity recorded twice by
                                hq-ingest(1)'s rule, from the store's rows:
                                "yield ID SAME_AS" and "fill ID FIELD FROM"
                                lines, sorted

Output lines (the C test reads them; "null" is no value):
    scenario NAME [key=value ...]       settings given; later lines use them
    setting KEY VALUE
    workout ID FIELD VALUE
    days TYPES N                        the series has N days
    day TYPES DATE FIELD VALUE          TYPES: "all" or a HealthKit type
                                        (store: only days with workouts
                                        and the last)
    best ID TARGET_M SECONDS T_FROM     (or "none none")
    power ID WINDOW_S WATTS T_FROM      (or "none none")
    split ID UNIT_M K FIELD VALUE
Python 3.9+ (zoneinfo) and its sqlite3 module; no other package.
"""
import math
import os
import random
import sqlite3
import sys
import time
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

HR = "HKQuantityTypeIdentifierHeartRate"
REST = "HKQuantityTypeIdentifierRestingHeartRate"
POWER = "HKQuantityTypeIdentifierCyclingPower"
W = "HKWorkoutActivityType"
R_EARTH = 6371000.0
HOLD = 120
FOOT_TARGETS = [400, 1000, 1609.344, 5000, 10000, 21097.5, 42195]
RIDE_TARGETS = [5000, 10000, 20000, 40000, 100000]
POWER_WINDOWS = [5, 60, 300, 1200, 3600]
SPLIT_UNITS = [1000, 1609.344, 500, 2000]


def fmt(v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "null"
    if isinstance(v, int):
        return str(v)
    return repr(float(v))


# ---- the rules, from a store ----

def pauses_of(db, wid, start, end):
    rows = db.execute("SELECT type, date, activity_uuid IS NULL FROM workout_event"
                      " WHERE workout_id = ? ORDER BY date, rowid", (wid,)).fetchall()
    if any(r[2] for r in rows):
        rows = [r for r in rows if r[2]]
    out, since = [], None
    for typ, date, _ in rows:
        if typ.endswith("Pause") or typ.endswith("MotionPaused"):
            if since is None:
                since = date
        elif typ.endswith("Resume") or typ.endswith("MotionResumed"):
            if since is not None:
                out.append((since, date))
                since = None
    if since is not None:
        out.append((since, end))
    clipped = []
    for a, b in out:
        a, b = max(a, start), min(b, end)
        if b > a:
            clipped.append((a, b))
    return clipped


def in_pause(t, pauses):
    return any(a <= t < b for a, b in pauses)


def held(db, metric, wid, wsrc, start, end, pauses, then=None):
    """[(t, value, seconds held)] from one source, and that source: the
    workout's own when it has samples inside, else then's (the source of
    the recording it takes power from), else the one with the most."""
    rows = db.execute("SELECT s.start, s.value, s.source_id FROM sample s"
                      " JOIN metric m ON m.id = s.metric_id WHERE m.identifier = ?"
                      " AND s.text = '' ORDER BY s.start, s.source_id, s.end, s.value, s.text",
                      (metric,)).fetchall()
    inside = [r for r in rows if start <= r[0] < end and not in_pause(r[0], pauses)]
    if not inside:
        return [], None
    counts = {}
    for r in inside:
        counts[r[2]] = counts.get(r[2], 0) + 1
    if wsrc in counts:
        src = wsrc
    elif then in counts:
        src = then
    else:
        src = sorted(counts, key=lambda s: (-counts[s], s))[0]
    mine = [r for r in inside if r[2] == src]
    out = []
    for i, (t, v, _) in enumerate(mine):
        until = t + HOLD
        if i + 1 < len(mine):
            until = min(until, mine[i + 1][0])
        until = min(until, end)
        for a, b in pauses:
            if a > t:
                until = min(until, a)
        out.append((t, v, until - t))
    return out, src


def gain_of(eles):
    ref, gain = None, 0.0
    for e in eles:
        if e is None:
            continue
        if ref is None:
            ref = e
        elif e - ref >= 3:
            gain += e - ref
            ref = e
        elif ref - e >= 3:
            ref = e
    return None if ref is None else gain


def metres(text):
    parts = text.split()
    v = float(parts[0])
    unit = parts[1] if len(parts) > 1 else "m"
    return v * {"m": 1, "cm": 0.01, "km": 1000, "ft": 0.3048, "mm": 0.001}[unit]


def seconds_series(pieces):
    out = []
    for t, v, dt in pieces:
        out.extend([v] * dt)
    return out


def normalized_power(pieces):
    s = seconds_series(pieces)
    if len(s) < 30:
        return None, len(s)
    rolled = [sum(s[i - 29:i + 1]) / 30 for i in range(29, len(s))]
    return (sum(r ** 4 for r in rolled) / len(rolled)) ** 0.25, len(s)


def figures(st, w, hr, power, gain, ascended):
    """Every figure of one workout for settings st."""
    wid, start, end, paused = w["id"], w["start"], w["end"], w["paused"]
    f = {}
    f["moving_min"] = (end - start - paused) / 60
    secs = sum(p[2] for p in hr)
    f["hr_minutes"] = secs / 60
    f["hr_coverage_pct"] = 100 * f["hr_minutes"] / f["moving_min"] if f["moving_min"] > 0 else None
    f["avg_hr"] = sum(p[1] * p[2] for p in hr) / secs if hr and secs > 0 else None
    a, b = (0.86, 1.67) if st["sex"] == "female" else (0.64, 1.92)
    mx, rest, lthr = st["max_hr"], st["rest_hr"], st["lthr"]
    for k in ["trimp", "hrss", "edwards"] + ["z%d_min" % z for z in range(6)]:
        f[k] = None
    if hr and mx is not None:
        edges = [0, 0.5 * mx, 0.6 * mx, 0.7 * mx, 0.8 * mx, 0.9 * mx]
        if st.get("zones"):
            edges[2:6] = st["zones"]
        trimp = edw = 0.0
        z = [0.0] * 6
        for t, v, dt in hr:
            m = dt / 60
            x = max(0.0, (v - rest) / (mx - rest))
            trimp += m * x * a * math.exp(b * x)
            q = v / mx
            edw += m * (5 if q >= 0.9 else 4 if q >= 0.8 else 3 if q >= 0.7
                        else 2 if q >= 0.6 else 1 if q >= 0.5 else 0)
            zone = max(i for i in range(6) if v >= edges[i])
            z[zone] += m
        xlt = (lthr - rest) / (mx - rest)
        f["trimp"] = trimp
        f["edwards"] = edw
        f["hrss"] = 100 * trimp / (60 * xlt * a * math.exp(b * xlt))
        for i in range(6):
            f["z%d_min" % i] = z[i]
    f["np"] = f["if"] = f["tss"] = None
    if power:
        np_, n = normalized_power(power)
        f["np"] = np_
        if np_ is not None and st.get("ftp"):
            f["if"] = np_ / st["ftp"]
            f["tss"] = n * np_ * f["if"] / (st["ftp"] * 3600) * 100
    f["load"] = f["tss"] if f["tss"] is not None else f["hrss"]
    f["elevation_gain_m"] = gain if gain is not None else ascended
    return f


def haversine(p, q):
    # the differences of the degrees, then radians: nearby points lose
    # no digits to the subtraction
    dla, dlo = math.radians(q[0] - p[0]), math.radians(q[1] - p[1])
    h = (math.sin(dla / 2) ** 2 + math.cos(math.radians(p[0])) *
         math.cos(math.radians(q[0])) * math.sin(dlo / 2) ** 2)
    return 2 * R_EARTH * math.asin(math.sqrt(min(h, 1.0)))


def best_distance(points, start, end, pauses, target):
    """points: (t, lat, lon, route). Brute force over every start point."""
    kept = [p for p in points if start <= p[0] < end and not in_pause(p[0], pauses)]
    # step j: from kept[j - 1] to kept[j], None where the chain breaks
    step = [None] + [None if a[3] != b[3] or any(a[0] < pa < b[0] for pa, _ in pauses)
                     else haversine(a[1:3], b[1:3]) for a, b in zip(kept, kept[1:])]
    best = None
    for i in range(len(kept)):
        d = 0.0
        for j in range(i + 1, len(kept)):
            b = kept[j]
            if step[j] is None:
                break
            d += step[j]
            if d >= target:
                s = b[0] - kept[i][0]
                if best is None or s < best[0]:
                    best = (s, kept[i][0])
                break
    return best


def best_power(pieces, window):
    best = None
    runs, cur = [], []
    for p in pieces:
        if cur and cur[-1][0] + cur[-1][2] != p[0]:
            runs.append(cur)
            cur = []
        cur.append(p)
    if cur:
        runs.append(cur)
    for run in runs:
        s = seconds_series(run)
        pre = [0]
        for v in s:
            pre.append(pre[-1] + v)
        for i in range(0, len(s) - window + 1):
            m = (pre[i + window] - pre[i]) / window
            if best is None or m > best[0]:
                best = (m, run[0][0] + i)
    return best


def splits(points, pauses, hr, unit):
    """points: (t, lat, lon, route, ele), all of the route in order."""
    cum = [0.0]
    for i in range(1, len(points)):
        a, b = points[i - 1], points[i]
        cum.append(cum[-1] + (haversine(a[1:3], b[1:3]) if a[3] == b[3] else 0.0))
    any_ele = any(p[4] is not None for p in points)
    # gain at each point, by the 3 m hysteresis over the whole route
    ref, at = None, []
    for p in points:
        g = 0.0
        e = p[4]
        if e is not None:
            if ref is None:
                ref = e
            elif e - ref >= 3:
                g = e - ref
                ref = e
            elif ref - e >= 3:
                ref = e
        at.append(g)
    ends, k = [], 1
    for i in range(1, len(points)):
        while cum[i] >= k * unit:
            ends.append(i)
            k += 1
    first = 0
    out = []
    bounds = []
    for e in ends:
        bounds.append((first, e))
        first = e
    if cum[-1] > cum[first]:
        bounds.append((first, len(points) - 1))
    for n, (a, b) in enumerate(bounds):
        ta, tb = points[a][0], points[b][0]
        sec = (tb - ta) - sum(max(0, min(pb, tb) - max(pa, ta)) for pa, pb in pauses)
        km = (cum[b] - cum[a]) / 1000
        wsum = wsec = 0.0
        for t, v, dt in hr:
            lo, hi = max(t, ta), min(t + dt, tb)
            if hi > lo:
                wsum += v * (hi - lo)
                wsec += hi - lo
        gain = sum(at[(a + 1 if n else 0):b + 1]) if any_ele else None
        out.append({"km": km, "seconds": sec,
                    "pace_min_per_km": sec / 60 / km if km > 0 else None,
                    "speed_kmh": km / (sec / 3600) if sec > 0 else None,
                    "avg_hr": wsum / wsec if wsec > 0 else None,
                    "gain_m": gain})
    return out


def defaults(db):
    st = {}
    sex = db.execute("SELECT value FROM me WHERE key ="
                     " 'HKCharacteristicTypeIdentifierBiologicalSex'").fetchone()
    st["sex"] = {"HKBiologicalSexMale": "male", "HKBiologicalSexFemale": "female"}.get(
        sex[0] if sex else None, "unknown")
    mx = None
    ws = db.execute("SELECT start, end FROM workout").fetchall()
    for t, v in db.execute("SELECT s.start, s.value FROM sample s JOIN metric m"
                           " ON m.id = s.metric_id WHERE m.identifier = ? AND s.text = ''",
                           (HR,)):
        if any(a <= t < b for a, b in ws) and (mx is None or v > mx):
            mx = v
    st["max_hr"] = mx
    rest = sorted(r[0] for r in db.execute(
        "SELECT s.value FROM sample s JOIN metric m ON m.id = s.metric_id"
        " WHERE m.identifier = ? AND s.text = ''", (REST,)))
    if rest:
        n = len(rest)
        st["rest_hr"] = (rest[(n - 1) // 2] + rest[n // 2]) / 2
    else:
        st["rest_hr"] = 60.0
    st["lthr"] = st["rest_hr"] + 0.85 * (mx - st["rest_hr"]) if mx is not None else None
    st["ftp"] = None
    st["zones"] = None
    return st


def workouts(db):
    out = []
    for wid, typ, src, start, end in db.execute(
            "SELECT id, activity_type, source_id, start, end FROM workout ORDER BY start, id"):
        p = pauses_of(db, wid, start, end)
        out.append({"id": wid, "type": typ, "source": src, "start": start, "end": end,
                    "pauses": p, "paused": sum(b - a for a, b in p)})
    return out


# ---- the same activity recorded twice (hq-ingest(1)) ----

DEVICE_FORMATS = ("fit", "tcx", "gpx", "device-zip", "gzip")
FILL_FIELDS = ("distance", "energy", "ascent", "route", "power")


def has_table(db, name):
    return db.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone()


def same_activity(db):
    """hq-ingest(1)'s rule, from the store's rows alone: ({id: the id it
    yields to}, {(id, field): the id it takes field from}).

    Two workouts are the same activity when they overlap by more than half
    of the shorter, unless one import and one source wrote both. A
    recording covers the distinct seconds of its own source's heart rates
    inside [start, end]; rank: coverage, then length, then a device file's,
    then the smaller id. Best first, each is counted unless the same as
    one counted already: then it yields to the one of those it overlaps
    most (on a tie, the best-ranked). A
    counted one takes each field it lacks from the best-ranked recording
    that yields to it, overlaps it by more than half of the longer and
    has it."""
    fmt = {}
    if has_table(db, "import"):
        fmt = dict(db.execute("SELECT id, format FROM import"))
    # (the generated data's schema has no import, distance nor energy)
    have = {r[1] for r in db.execute("PRAGMA table_info(workout)")}
    cols = ", ".join(c if c in have else "NULL" for c in ("import_id", "distance", "energy"))
    ws = [{"id": i, "src": src, "imp": imp, "a": a, "b": b, "dist": dist,
           "energy": en, "dev": 1 if fmt.get(imp) in DEVICE_FORMATS else 0}
          for i, src, a, b, imp, dist, en in db.execute(
              "SELECT id, source_id, start, end, %s FROM workout" % cols)]
    secs = {}
    for src, t in db.execute("SELECT DISTINCT s.source_id, s.start FROM sample s JOIN metric m"
                             " ON m.id = s.metric_id WHERE m.identifier = ?", (HR,)):
        secs.setdefault(src, []).append(t)
    for w in ws:
        w["cov"] = sum(1 for t in secs.get(w["src"], ()) if w["a"] <= t <= w["b"])
        w["dur"] = w["b"] - w["a"]

    def overlap(x, y):
        return min(x["b"], y["b"]) - max(x["a"], y["a"])

    def partners(x, y):
        return not (x["imp"] == y["imp"] and x["src"] == y["src"]) and \
            2 * overlap(x, y) > min(x["dur"], y["dur"])

    ranked = sorted(ws, key=lambda w: (-w["cov"], -w["dur"], -w["dev"], w["id"]))
    counted, yields = [], {}
    for w in ranked:
        mine = [c for c in counted if partners(w, c)]
        if mine:
            # the one it overlaps most; on a tie the best-ranked (first)
            yields[w["id"]] = max(mine, key=lambda c: overlap(w, c))["id"]
        else:
            counted.append(w)

    def has(w, field):
        i = w["id"]
        if field in ("distance", "energy"):
            if w["dist" if field == "distance" else "energy"] is not None:
                return True
            if not has_table(db, "workout_stat"):
                return False
            for ident, in db.execute("SELECT m.identifier FROM workout_stat st JOIN metric m"
                                     " ON m.id = st.metric_id WHERE st.workout_id = ? AND"
                                     " st.sum IS NOT NULL", (i,)):
                if (ident.lower().startswith("hkquantitytypeidentifierdistance")
                        if field == "distance" else
                        ident.lower() == "hkquantitytypeidentifieractiveenergyburned"):
                    return True
            return False
        if field == "ascent":
            return bool(db.execute("SELECT 1 FROM workout_meta WHERE workout_id = ? AND"
                                   " activity_uuid IS NULL AND key = 'HKElevationAscended'",
                                   (i,)).fetchone())
        if field == "route":
            return bool(db.execute("SELECT 1 FROM route r JOIN route_point p ON"
                                   " p.route_id = r.id WHERE r.workout_id = ?", (i,)).fetchone())
        return bool(db.execute("SELECT 1 FROM sample s JOIN metric m ON m.id = s.metric_id"
                               " WHERE m.identifier = ? AND s.source_id = ? AND s.start >= ?"
                               " AND s.start < ?", (POWER, w["src"], w["a"], w["b"])).fetchone())

    fills = {}
    for k in counted:
        giving = [y for y in ranked if yields.get(y["id"]) == k["id"] and
                  2 * overlap(k, y) > max(k["dur"], y["dur"])]
        for field in FILL_FIELDS:
            if has(k, field):
                continue
            for y in giving:
                if has(y, field):
                    fills[(k["id"], field)] = y["id"]
                    break
    return yields, fills


def local_date(t, tz):
    return datetime.fromtimestamp(t, tz).date()


def inputs(db, w, fills, src_of):
    """What workout w's figures read: its heart rate, its power (then the
    source of the recording it takes power from), the altitudes and timed
    points of its route and its ascent (those of the recordings it takes
    them from: hq-ingest(1), the same activity recorded twice)."""
    then = src_of.get(fills.get((w["id"], "power")))
    hr, hsrc = held(db, HR, w["id"], w["source"], w["start"], w["end"], w["pauses"])
    pw, psrc = held(db, POWER, w["id"], w["source"], w["start"], w["end"], w["pauses"],
                    then)
    rid = fills.get((w["id"], "route"), w["id"])
    eles = [r[0] for r in db.execute(
        "SELECT rp.ele FROM route_point rp JOIN route r ON r.id = rp.route_id"
        " WHERE r.workout_id = ? ORDER BY r.id, rp.seq", (rid,))]
    meta = db.execute("SELECT value FROM workout_meta WHERE workout_id = ? AND"
                      " activity_uuid IS NULL AND key = 'HKElevationAscended'"
                      " ORDER BY rowid LIMIT 1",
                      (fills.get((w["id"], "ascent"), w["id"]),)).fetchone()
    pts = db.execute("SELECT rp.time, rp.lat, rp.lon, r.id, rp.ele FROM route_point rp"
                     " JOIN route r ON r.id = rp.route_id WHERE r.workout_id = ?"
                     " AND rp.time IS NOT NULL ORDER BY r.id, rp.seq", (rid,)).fetchall()
    return hr, hsrc, pw, psrc, gain_of(eles), metres(meta[0]) if meta else None, pts


def report(db, tz, scenarios, out, only_busy=False):
    ws = workouts(db)
    yields, fills = same_activity(db)
    src_of = {w["id"]: w["source"] for w in ws}
    data = {w["id"]: inputs(db, w, fills, src_of) for w in ws}
    for name, given, day_types in scenarios:
        st = defaults(db)
        st.update(given)
        if "max_hr" in given and "lthr" not in given:
            st["lthr"] = st["rest_hr"] + 0.85 * (st["max_hr"] - st["rest_hr"])
        out.append("scenario %s %s" % (name, " ".join(
            "%s=%s" % (k, ",".join(map(str, v)) if isinstance(v, list) else v)
            for k, v in given.items())))
        for k in ("sex", "max_hr", "rest_hr", "lthr"):
            out.append("setting %s %s" % (k, st[k] if k == "sex" else fmt(st[k])))
        loads = {}
        for w in ws:
            hr, hsrc, pw, psrc, gain, asc, pts = data[w["id"]]
            f = figures(st, w, hr, pw, gain, asc)
            loads[w["id"]] = f["load"]
            out.append("workout %d hr_source %s" % (w["id"], fmt(hsrc or 0)))
            out.append("workout %d power_source %s" % (w["id"], fmt(psrc or 0)))
            out.append("workout %d paused_s %d" % (w["id"], w["paused"]))
            for k, v in f.items():
                out.append("workout %d %s %s" % (w["id"], k, fmt(v)))
        for types in day_types:
            # an activity recorded twice counts once
            chosen = [w for w in ws if (types == "all" or w["type"] == types) and
                      w["id"] not in yields]
            if not chosen:
                continue
            first = local_date(chosen[0]["start"], tz)
            last = max(local_date(w["start"], tz) for w in chosen)
            days = []
            d = first
            while d <= last:
                days.append(d)
                d += timedelta(days=1)
            k42, k7 = 1 - math.exp(-1 / 42), 1 - math.exp(-1 / 7)
            ctl = atl = 0.0
            hist = []
            out.append("days %s %d" % (types, len(days)))
            for i, d in enumerate(days):
                mine = [w for w in chosen if local_date(w["start"], tz) == d]
                load = sum(loads[w["id"]] for w in mine if loads[w["id"]] is not None)
                nohr = sum(1 for w in mine if loads[w["id"]] is None)
                tsb = ctl - atl
                ctl = ctl + (load - ctl) * k42
                atl = atl + (load - atl) * k7
                hist.append(ctl)
                ramp = ctl - hist[i - 7] if i >= 7 else None
                if only_busy and not mine and i != len(days) - 1:
                    continue
                for k, v in (("workouts", len(mine)), ("workouts_no_hr", nohr),
                             ("load", float(load)), ("ctl", ctl), ("atl", atl),
                             ("tsb", tsb), ("ramp", ramp)):
                    out.append("day %s %s %s %s" % (types, d.isoformat(), k, fmt(v)))
    # bests and splits do not depend on the settings
    for w in ws:
        hr, hsrc, pw, psrc, gain, asc, pts = data[w["id"]]
        if pts:
            foot = any(w["type"] == W + x for x in ("Running", "Walking", "Hiking"))
            for target in FOOT_TARGETS if foot else RIDE_TARGETS:
                b = best_distance([(p[0], p[1], p[2], p[3]) for p in pts],
                                  w["start"], w["end"], w["pauses"], target)
                out.append("best %d %s %s" % (w["id"], fmt(float(target)),
                                              "none none" if b is None else
                                              "%s %d" % (fmt(float(b[0])), b[1])))
            for unit in SPLIT_UNITS:
                for k, s in enumerate(splits(pts, w["pauses"], hr, unit), 1):
                    for key, v in s.items():
                        out.append("split %d %s %d %s %s" % (w["id"], fmt(float(unit)), k,
                                                             key, fmt(v)))
        if pw:
            for win in POWER_WINDOWS:
                b = best_power(pw, win)
                out.append("power %d %d %s" % (w["id"], win, "none none" if b is None
                                              else "%s %d" % (fmt(float(b[0])), b[1])))


# ---- the generated data ----

LA = ZoneInfo("America/Los_Angeles")
SOURCES = {1: "Apple Watch", 2: "Polar H10", 3: "iPhone", 4: "Wahoo KICKR", 5: "Zwift"}


def local(y, mo, d, h, mi, s=0, fold=0):
    return int(datetime(y, mo, d, h, mi, s, tzinfo=LA, fold=fold).timestamp())


class Gen:
    def __init__(self):
        self.rng = random.Random(21)
        self.samples = []     # (metric, source, t, value)
        self.workouts = []    # (id, type, source, start, end)
        self.events = []      # (workout, activity_uuid, type, t)
        self.meta = []        # (workout, key, value)
        self.routes = []      # (route id, workout id, [(t, lat, lon, ele)])

    def hr(self, src, t0, t1, step, base, swing, skip=()):
        t = t0
        while t < t1:
            if not any(a <= t < b for a, b in skip):
                v = base + swing * math.sin((t - t0) / 300.0) + self.rng.randint(-4, 4)
                self.samples.append((HR, src, t, float(round(v))))
            t += step

    def power(self, src, t0, t1, base, skip=()):
        t = t0
        while t < t1:
            if not any(a <= t < b for a, b in skip):
                v = max(0, base + 80 * math.sin((t - t0) / 97.0) + self.rng.randint(-60, 60))
                if self.rng.random() < 0.05:
                    v = 0  # coasting
                self.samples.append((POWER, src, t, float(v)))
            t += 1

    def route(self, rid, wid, t0, t1, step, speed, lat, lon, hills, stops=()):
        pts, t, heading = [], t0, 0.3
        while t <= t1:
            moving = not any(a <= t < b for a, b in stops)
            if moving:
                v = speed * (1 + 0.25 * math.sin((t - t0) / 150.0))
                heading += self.rng.uniform(-0.08, 0.08)
                dn, de = v * step * math.cos(heading), v * step * math.sin(heading)
                lat += dn / 111195.0
                lon += de / (111195.0 * math.cos(math.radians(lat)))
            ele = (hills * math.sin((t - t0) / 400.0) + 0.4 * hills *
                   math.sin((t - t0) / 61.0) + self.rng.uniform(-1.5, 1.5) + 120)
            pts.append((t, round(lat, 7), round(lon, 7), round(ele, 1)))
            t += step
        self.routes.append((rid, wid, pts))

    def build(self):
        # 1: a run, its own watch's heart rate every 5 s (a chest strap too,
        # more often, not chosen), a pause with heart rate inside it, a gap
        # of 210 s, samples just before and at the end; a hilly route.
        s, e = local(2026, 10, 20, 7, 0), local(2026, 10, 20, 7, 50)
        pause = (local(2026, 10, 20, 7, 20), local(2026, 10, 20, 7, 25))
        self.workouts.append((1, W + "Running", 1, s, e))
        self.events += [(1, None, "HKWorkoutEventTypePause", pause[0]),
                        (1, None, "HKWorkoutEventTypeResume", pause[1]),
                        (1, None, "HKWorkoutEventTypeSegment", s + 600)]
        self.hr(1, s - 60, e + 31, 5, 150, 15,
                skip=[(local(2026, 10, 20, 7, 35), local(2026, 10, 20, 7, 38, 30))])
        self.hr(2, s + 3, e, 2, 148, 12)
        self.route(11, 1, s, e - 1, 5, 3.0, 37.77, -122.45, 18, stops=[pause])
        # 2: a ride the same day, watch heart rate every 10 s and a strap
        # every 2 s (the watch's are chosen: the workout's own source),
        # 1 s power from a trainer (the only power source), a motion
        # pause, a 150 s power dropout; a route with hills.
        s, e = local(2026, 10, 20, 17, 30), local(2026, 10, 20, 18, 30)
        mp = (local(2026, 10, 20, 17, 50), local(2026, 10, 20, 17, 52))
        self.workouts.append((2, W + "Cycling", 1, s, e))
        self.events += [(2, None, "HKWorkoutEventTypeMotionPaused", mp[0]),
                        (2, None, "HKWorkoutEventTypeMotionResumed", mp[1])]
        self.hr(1, s, e, 10, 140, 20)
        self.hr(2, s, e, 2, 139, 20)
        self.power(4, s, e, 210, skip=[(s + 2400, s + 2550)])
        self.route(12, 2, s, e - 1, 4, 8.0, 37.80, -122.40, 30, stops=[mp])
        # 3: an indoor ride recorded by Zwift, which wrote no heart rate:
        # the strap (every 2 s) has more than the watch (every 5 s) and is
        # chosen; power from Zwift (its own) and, for a while, a trainer;
        # pauses only at the activity level.
        s, e = local(2026, 10, 22, 6, 0), local(2026, 10, 22, 6, 30)
        self.workouts.append((3, W + "Cycling", 5, s, e))
        self.events += [(3, "A1", "HKWorkoutEventTypePause", s + 900),
                        (3, "A1", "HKWorkoutEventTypeResume", s + 1080)]
        self.hr(2, s, e, 2, 155, 10)
        self.hr(1, s, e, 5, 158, 10)
        self.power(5, s, e, 240)
        self.power(4, s, s + 600, 180)
        # 4: a walk across midnight (its day: Oct 31), no route but the
        # elevation in its metadata.
        s, e = local(2026, 10, 31, 23, 30), local(2026, 11, 1, 0, 40)
        self.workouts.append((4, W + "Walking", 1, s, e))
        self.meta.append((4, "HKElevationAscended", "8500 cm"))
        self.hr(1, s, e, 7, 105, 10)
        # 5: a run across the end of DST (00:50 PDT to 01:40 PST: 110
        # minutes), a pause; a route with a pause.
        s, e = local(2026, 11, 1, 0, 50), local(2026, 11, 1, 1, 40, fold=1)
        pause = (s + 1800, s + 2160)
        self.workouts.append((5, W + "Running", 1, s, e))
        self.events += [(5, None, "HKWorkoutEventTypePause", pause[0]),
                        (5, None, "HKWorkoutEventTypeResume", pause[1])]
        self.hr(1, s, e, 5, 160, 18, skip=[(s + 4000, s + 4300)])
        self.route(15, 5, s, e - 1, 5, 3.3, 37.75, -122.47, 12, stops=[pause])
        # 6: a walk with no heart rate at all, the same local day as 5
        # (23:30 PST is already the next day in UTC).
        s, e = local(2026, 11, 1, 23, 30), local(2026, 11, 2, 0, 10)
        self.workouts.append((6, W + "Walking", 3, s, e))
        # 7: a run whose heart rate stops after 20 minutes, with a pause
        # that never resumes; the store's highest heart rate in a workout.
        s, e = local(2026, 11, 5, 7, 0), local(2026, 11, 5, 7, 45)
        self.workouts.append((7, W + "Running", 1, s, e))
        self.events += [(7, None, "HKWorkoutEventTypePause", s + 2400)]
        self.hr(1, s, s + 1200, 5, 170, 8)
        self.samples.append((HR, 1, s + 1202, 196.0))
        # higher, but in no workout: not max_hr
        self.samples.append((HR, 1, local(2026, 11, 5, 12, 0), 203.0))
        # 8: a ride with heart rate and no power, a week later.
        s, e = local(2026, 11, 12, 17, 0), local(2026, 11, 12, 18, 10)
        self.workouts.append((8, W + "Cycling", 1, s, e))
        self.hr(1, s, e, 5, 135, 12)
        # resting heart rate: an even count (the median is a mean of two)
        for d in range(10):
            self.samples.append((REST, 1, local(2026, 10, 15 + d, 6, 0),
                                 float(52 + (d * 7) % 9)))

    def sql(self):
        out = ["BEGIN;"]
        for i, n in SOURCES.items():
            out.append("INSERT INTO source(id, name) VALUES (%d, '%s');" % (i, n))
        for i, m in enumerate((HR, REST, POWER), 1):
            out.append("INSERT INTO metric(id, identifier) VALUES (%d, '%s');" % (i, m))
        out.append("INSERT INTO me(key, value) VALUES ("
                   "'HKCharacteristicTypeIdentifierBiologicalSex', 'HKBiologicalSexNotSet');")
        for wid, typ, src, s, e in self.workouts:
            out.append("INSERT INTO workout(id, activity_type, source_id, start, end, duration)"
                       " VALUES (%d, '%s', %d, %d, %d, %d);" % (wid, typ, src, s, e, e - s))
        for wid, act, typ, t in self.events:
            out.append("INSERT INTO workout_event(workout_id, activity_uuid, type, date)"
                       " VALUES (%d, %s, '%s', %d);" % (wid, "'%s'" % act if act else "NULL",
                                                         typ, t))
        for wid, k, v in self.meta:
            out.append("INSERT INTO workout_meta(workout_id, key, value)"
                       " VALUES (%d, '%s', '%s');" % (wid, k, v))
        mid = {HR: 1, REST: 2, POWER: 3}
        rows = ["(%d,%d,%d,%d,%s)" % (mid[m], src, t, t, repr(v))
                for m, src, t, v in self.samples]
        for i in range(0, len(rows), 500):
            out.append("INSERT INTO sample(metric_id, source_id, start, end, value)"
                       " VALUES\n" + ",\n".join(rows[i:i + 500]) + ";")
        for rid, wid, pts in self.routes:
            out.append("INSERT INTO route(id, workout_id, start, end) VALUES (%d, %d, %d, %d);"
                       % (rid, wid, pts[0][0], pts[-1][0]))
            rows = ["(%d,%d,%d,%s,%s,%s)" % (rid, k, t, repr(la), repr(lo), repr(el))
                    for k, (t, la, lo, el) in enumerate(pts)]
            for i in range(0, len(rows), 500):
                out.append("INSERT INTO route_point(route_id, seq, time, lat, lon, ele)"
                           " VALUES\n" + ",\n".join(rows[i:i + 500]) + ";")
        out.append("COMMIT;")
        return "\n".join(out) + "\n"


SCHEMA = """
CREATE TABLE source (id INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE metric (id INTEGER PRIMARY KEY, identifier TEXT);
CREATE TABLE me (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE workout (id INTEGER PRIMARY KEY, activity_type TEXT, source_id INTEGER,
  start INTEGER, end INTEGER, duration REAL);
CREATE TABLE workout_event (workout_id INTEGER, activity_uuid TEXT, type TEXT,
  date INTEGER, duration REAL);
CREATE TABLE workout_meta (workout_id INTEGER, activity_uuid TEXT, key TEXT, value TEXT);
CREATE TABLE sample (id INTEGER PRIMARY KEY, metric_id INTEGER, source_id INTEGER,
  start INTEGER, end INTEGER, value REAL, text TEXT NOT NULL DEFAULT '');
CREATE TABLE route (id INTEGER PRIMARY KEY, workout_id INTEGER, source_id INTEGER,
  start INTEGER, end INTEGER, file TEXT);
CREATE TABLE route_point (route_id INTEGER, seq INTEGER, time INTEGER, lat REAL,
  lon REAL, ele REAL);
"""

SCENARIOS = [
    ("defaults", {}, ["all", W + "Cycling"]),
    ("set", {"sex": "female", "max_hr": 192.0, "rest_hr": 48.0, "lthr": 170.0,
             "ftp": 260.0, "zones": [115.0, 135.0, 152.0, 168.0]}, ["all"]),
]


# ---- the commands' rows (hq-report load, zones, bests, compare) ----

TARGET_NAMES = {400: "400 m", 1000: "1 km", 1609.344: "1 mile", 5000: "5 km",
                10000: "10 km", 21097.5: "half marathon", 42195: "marathon",
                20000: "20 km", 40000: "40 km", 100000: "100 km"}
WINDOW_NAMES = {5: "5 s", 60: "1 min", 300: "5 min", 1200: "20 min", 3600: "60 min"}


def settings_for(db, given):
    st = defaults(db)
    basis = {"max_hr": "store" if st["max_hr"] is not None else "default",
             "rest_hr": "store" if db.execute(
                 "SELECT 1 FROM sample s JOIN metric m ON m.id = s.metric_id"
                 " WHERE m.identifier = ? AND s.text = ''", (REST,)).fetchone() else "default",
             "lthr": "default"}
    for k, v in given.items():
        st[k] = v
        if k in basis:
            basis[k] = "config"
    rank = {"default": 1, "store": 2, "config": 3}
    if "lthr" not in given and st["max_hr"] is not None:
        st["lthr"] = st["rest_hr"] + 0.85 * (st["max_hr"] - st["rest_hr"])
        # derived from max_hr and rest_hr: as sure as the less sure of them
        basis["lthr"] = min(basis["max_hr"], basis["rest_hr"], key=rank.get)
    st["basis"] = min((basis[k] for k in ("max_hr", "rest_hr", "lthr")), key=rank.get)
    return st


def now_seconds():
    """The clock as hq reads it: $HQ_NOW (seconds, or an ISO 8601 time
    with its offset or Z) when set, else the system's."""
    s = os.environ.get("HQ_NOW", "")
    if s.isdigit():
        return int(s)
    if s:
        return int(datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp())
    return int(time.time())


def last_day(db, tz):
    """The last local day an every-day report shows (hq-report(1):
    no rows past the newest data or today): the newest sample's start or
    activity summary's date, as a local day, or today if sooner."""
    today = local_date(now_seconds(), tz)
    t = db.execute("SELECT max(start) FROM sample").fetchone()[0]
    newest = local_date(t, tz) if t is not None else None
    if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'activity_summary'").fetchone():
        d = db.execute("SELECT max(date) FROM activity_summary").fetchone()[0]
        if d is not None:
            d = datetime.strptime(d, "%Y-%m-%d").date()
            newest = d if newest is None or d > newest else newest
    return today if newest is None or newest > today else newest


def type_id(name):
    return W + "".join(p.capitalize() for p in name.split("_"))


def rows(db, tz, kind, args):
    opts, operand = {}, None
    i = 0
    while i < len(args):
        if args[i].startswith("--"):
            opts[args[i][2:]] = args[i + 1]
            i += 2
        else:
            operand = args[i]
            i += 1
    given = {}
    for flag, key in (("max-hr", "max_hr"), ("rest-hr", "rest_hr"), ("lthr", "lthr"),
                      ("ftp", "ftp")):
        if flag in opts:
            given[key] = float(opts[flag])
    if "zones" in opts:       # [athlete] zones of the config
        given["zones"] = [float(x) for x in opts["zones"].split(",")]
    st = settings_for(db, given)
    types = [type_id(t) for t in opts["type"].split(",")] if "type" in opts else None
    d0 = datetime.strptime(opts["from"], "%Y-%m-%d").date() if "from" in opts else None
    d1 = datetime.strptime(opts["to"], "%Y-%m-%d").date() if "to" in opts else None
    # the same activity by the written rule, not the store's workout_same
    same, fills = same_activity(db)
    src_of = {w["id"]: w["source"] for w in workouts(db)}
    ws = [w for w in workouts(db) if w["id"] not in same and
          (types is None or w["type"] in types)]

    def in_range(w):
        d = local_date(w["start"], tz)
        return (d0 is None or d >= d0) and (d1 is None or d <= d1)

    def figs(w, want_route=False):
        hr, _, pw, _, gain, asc, _ = inputs(db, w, fills, src_of)
        f = figures(st, w, hr, pw, gain, asc)
        f["max_hr"] = max(p[1] for p in hr if p[2] > 0) if any(p[2] > 0 for p in hr) else None
        return f, hr, pw

    def setting_cols():
        return {"max_hr": st["max_hr"], "rest_hr": st["rest_hr"], "lthr": st["lthr"],
                "basis": st["basis"]}

    out = []
    if kind == "load":
        if not ws:
            return None
        loads = {w["id"]: figs(w)[0]["load"] for w in ws}
        first = local_date(ws[0]["start"], tz)
        d1 = last_day(db, tz) if d1 is None else min(d1, last_day(db, tz))
        last = max(max(local_date(w["start"], tz) for w in ws), d1)
        k42, k7 = 1 - math.exp(-1 / 42), 1 - math.exp(-1 / 7)
        ctl = atl = 0.0
        hist = []
        d, i = first, 0
        while d <= last:
            mine = [w for w in ws if local_date(w["start"], tz) == d]
            load = sum(loads[w["id"]] for w in mine if loads[w["id"]] is not None)
            tsb = ctl - atl
            ctl = ctl + (load - ctl) * k42
            atl = atl + (load - atl) * k7
            hist.append(ctl)
            if d0 <= d <= d1:
                r = {"date": d.isoformat(), "workouts": len(mine),
                     "workouts_no_hr": sum(1 for w in mine if loads[w["id"]] is None),
                     "load": float(load), "ctl": ctl, "atl": atl, "tsb": tsb,
                     "ramp": ctl - hist[i - 7] if i >= 7 else None}
                r.update(setting_cols())
                out.append(r)
            d += timedelta(days=1)
            i += 1
    elif kind == "zones":
        chosen = ([w for w in workouts(db) if w["id"] == int(operand)] if operand
                  else [w for w in ws if in_range(w)])
        z = [0.0] * 6
        for w in chosen:
            f = figs(w)[0]
            if f["z0_min"] is not None:
                for k in range(6):
                    z[k] += f["z%d_min" % k]
        mx = st["max_hr"]
        if mx is None or sum(z) == 0:
            return None
        edges = [0, 0.5 * mx, 0.6 * mx, 0.7 * mx, 0.8 * mx, 0.9 * mx]
        if st.get("zones"):
            edges[2:6] = st["zones"]
        total = sum(z)
        for k in range(6):
            r = {"zone": k, "lo_bpm": edges[k], "hi_bpm": edges[k + 1] if k < 5 else None,
                 "minutes": z[k], "pct": 100 * z[k] / total}
            r.update(setting_cols())
            out.append(r)
    elif kind == "bests":
        for tname in (opts["type"].split(",") if "type" in opts
                      else ["running", "walking", "cycling"]):
            mine = [w for w in workouts(db) if w["id"] not in same and
                    w["type"] == type_id(tname) and in_range(w)]
            targets = RIDE_TARGETS if tname == "cycling" else FOOT_TARGETS
            dist, power = {}, {}
            for w in mine:
                _, _, pw, _, _, _, pts = inputs(db, w, fills, src_of)
                pts = [p[:4] for p in pts]
                for t in targets:
                    b = best_distance(pts, w["start"], w["end"], w["pauses"], t)
                    if b and (t not in dist or b[0] < dist[t][0]):
                        dist[t] = (b[0], w, b[1])
                for win in POWER_WINDOWS:
                    b = best_power(pw, win)
                    if b and (win not in power or b[0] > power[win][0]):
                        power[win] = (b[0], w, b[1])
            for keyed, names, unit in ((dist, TARGET_NAMES, "s"), (power, WINDOW_NAMES, "W")):
                for t in (targets if unit == "s" else POWER_WINDOWS):
                    if t in keyed:
                        v, w, tf = keyed[t]
                        out.append({"type": tname, "target": names[t], "unit": unit,
                                    "value": float(v), "workout_id": w["id"],
                                    "date": local_date(w["start"], tz).isoformat(),
                                    "offset_s": tf - w["start"]})
    elif kind == "compare":
        if "ids" in opts:
            ids = [int(x) for x in opts["ids"].split(",")]
            chosen = [w for w in workouts(db) if w["id"] in ids]
        else:
            chosen = [w for w in ws if in_range(w)][-int(opts.get("last", 3)):]
        chosen.sort(key=lambda w: (w["start"], w["id"]))
        table = []
        for w in chosen:
            f = figs(w)[0]
            # the workout's own, else those of the recording it takes them from
            dist = db.execute("SELECT distance FROM workout WHERE id = ?", (fills.get(
                (w["id"], "distance"), w["id"]),)).fetchone()[0]
            energy = db.execute("SELECT energy FROM workout WHERE id = ?", (fills.get(
                (w["id"], "energy"), w["id"]),)).fetchone()[0]
            km = dist / 1000 if dist is not None else None
            mv = f["moving_min"]
            foot = w["type"] in (W + "Running", W + "Walking")
            table.append((w, {
                "duration_min": mv, "distance_km": km,
                "speed_kmh": km / (mv / 60) if km is not None and mv > 0 else None,
                "pace_min_per_km": mv / km if foot and km else None,
                "avg_hr": f["avg_hr"], "max_hr": f["max_hr"], "energy_kcal": energy,
                "load": f["load"], "elevation_gain_m": f["elevation_gain_m"],
                "efficiency": dist / (f["avg_hr"] * mv) if dist is not None and
                f["avg_hr"] and mv > 0 else None}))
        units = {"duration_min": "min", "distance_km": "km", "speed_kmh": "km/h",
                 "pace_min_per_km": "min/km", "avg_hr": "bpm", "max_hr": "bpm",
                 "energy_kcal": "kcal", "load": None, "elevation_gain_m": "m",
                 "efficiency": "m/beat"}
        for field, unit in units.items():
            if all(v[field] is None for _, v in table):
                continue
            prev = None
            for k, (w, v) in enumerate(table):
                x = v[field]
                out.append({"field": field, "unit": unit, "workout_id": w["id"],
                            "date": local_date(w["start"], tz).isoformat(), "value": x,
                            "change": x - prev if k and x is not None and prev is not None
                            else None})
                prev = x
    return out


def same_rows(a, b):
    """Whether two files of JSON lines hold the same rows: the same keys,
    strings equal, numbers to 1e-9 relative. Says what differs."""
    import json
    ra = [json.loads(x) for x in open(a) if x.strip()]
    rb = [json.loads(x) for x in open(b) if x.strip()]
    bad = 0
    if len(ra) != len(rb):
        print("# %d rows against %d" % (len(ra), len(rb)))
        return False
    n = 0
    for i, (x, y) in enumerate(zip(ra, rb)):
        if set(x) != set(y):
            print("# row %d: keys %s against %s" % (i + 1, sorted(x), sorted(y)))
            bad += 1
            continue
        for k in x:
            u, v = x[k], y[k]
            n += 1
            if isinstance(u, (int, float)) and isinstance(v, (int, float)) and \
                    not isinstance(u, bool):
                if abs(u - v) > 1e-9 * max(abs(u), abs(v), 1e-3):
                    print("# row %d %s: %r against %r" % (i + 1, k, u, v))
                    bad += 1
            elif u != v:
                print("# row %d %s: %r against %r" % (i + 1, k, u, v))
                bad += 1
    print("# %d values compared, %d differ" % (n, bad))
    return bad == 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "generate":
        g = Gen()
        g.build()
        text = g.sql()
        with open(sys.argv[2] + "/generated.sql", "w") as f:
            f.write(text)
        db = sqlite3.connect(":memory:")
        db.executescript(SCHEMA)
        db.executescript(text)
        out = ["# reference.py generate: the expected figures of generated.sql"]
        report(db, LA, SCENARIOS, out)
        with open(sys.argv[2] + "/generated.expected", "w") as f:
            f.write("\n".join(out) + "\n")
    elif len(sys.argv) == 4 and sys.argv[1] == "store":
        db = sqlite3.connect("file:%s?mode=ro" % sys.argv[2], uri=True)
        out = []
        report(db, ZoneInfo(sys.argv[3]), [("defaults", {}, ["all"])], out,
               only_busy=True)
        print("\n".join(out))
    elif len(sys.argv) >= 5 and sys.argv[1] == "rows":
        import json
        db = sqlite3.connect("file:%s?mode=ro" % sys.argv[2], uri=True)
        out = rows(db, ZoneInfo(sys.argv[3]), sys.argv[4], sys.argv[5:])
        for r in out or []:
            print(json.dumps({k: (None if isinstance(v, float) and math.isnan(v) else v)
                              for k, v in r.items()}))
    elif len(sys.argv) == 4 and sys.argv[1] == "same":
        sys.exit(0 if same_rows(sys.argv[2], sys.argv[3]) else 1)
    elif len(sys.argv) == 3 and sys.argv[1] == "activity":
        db = sqlite3.connect("file:%s?mode=ro" % sys.argv[2], uri=True)
        yields, fills = same_activity(db)
        for line in sorted(["yield %d %d" % kv for kv in yields.items()] +
                           ["fill %d %s %d" % (k, f, v) for (k, f), v in fills.items()]):
            print(line)
    else:
        sys.exit("usage: reference.py generate DIR | store DB TZ | rows DB TZ REPORT ..."
                 " | same A B | activity DB")


if __name__ == "__main__":
    main()
