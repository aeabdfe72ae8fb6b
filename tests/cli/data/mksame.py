# Crafted recordings for the same-activity rule (hq-ingest(1), "The same
# activity recorded twice"; tests/cli/2563 to 2567): FIT files written from
# the protocol with mkfit.py's fit() and d(), Apple Health XML and GPX
# written by hand. python3 mksame.py DIR CASE writes CASE's files into DIR.
#
#   legs        a multisport FIT whose first leg's elapsed time runs past
#               the next legs' starts (issue 28's fenix 2 file), and a GPX
#               of two tracks that overlap: a file's legs are never the
#               same activity as each other
#   fill        a ride recorded by an Apple Watch (distance, energy, ascent,
#               a route, power, heart rate every 30 s) and by a bike
#               computer's FIT (heart rate every second, nothing else), and
#               the same ride as a GPX with gpxtpx heart rates every 5 s
#   chain       a triathlon: a bike computer's multisport FIT (swim 450
#               heart rates, bike 3600, run 1800) and a watch's recording of
#               the whole race (heart rate every 5 s: 1440)
#   second      a 50-minute run (FIT, a heart rate every 5 s) and a
#               1-second recording with 5,000 heart rates on that second
#   overlap N   N sessions that all overlap each other, in one FIT file
#               (one.fit) and as N workouts of N sources in one Apple
#               Health XML (sources.xml)
#   pruned      a 50-minute ride of 2024-01 recorded by an Apple Watch
#               (watch.xml: a heart rate every 5 s, 600 seconds covered,
#               power every 20 s), a step of 2024-03 (march.jsonl), and
#               the same ride from a bike computer synced late (late.fit:
#               every 30 s, 100) and from Strava (strava.xml: heart rate
#               every 60 s, 50; power every 20 s)
#   random S N  N Apple Health XMLs (rNN.xml) of workouts of four sources
#               that overlap at random, with heart rates, distance, energy,
#               ascent, routes and power or not, and later heart rates as
#               JSON lines (late.jsonl): seed S
import os, struct, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mkfit import fit, d

FIT_EPOCH = 631065600
T0 = 1704096000          # 2024-01-01 08:00:00 UTC
SPORT = {"running": 1, "cycling": 2, "swimming": 5}


def fitfile(serial, records, sessions):
    """records: (t, hr) at UTC seconds; sessions: (start, timestamp,
    elapsed_s, sport). A file_id of a Garmin device with that serial."""
    out = d(0, 0, [(0, 1, 0), (1, 2, 0x84), (2, 2, 0x84), (3, 4, 0x8c), (4, 4, 0x86)])
    out += bytes([0, 4]) + struct.pack('<HHII', 1, 1567, serial, T0 - FIT_EPOCH)
    out += d(1, 20, [(253, 4, 0x86), (3, 1, 2)])
    for t, hr in records:
        out += bytes([1]) + struct.pack('<IB', t - FIT_EPOCH, hr)
    out += d(2, 18, [(253, 4, 0x86), (2, 4, 0x86), (7, 4, 0x86), (5, 1, 0), (6, 1, 0)])
    for start, ts, elapsed, sport in sessions:
        out += bytes([2]) + struct.pack('<IIIBB', ts - FIT_EPOCH, start - FIT_EPOCH,
                                        elapsed * 1000, SPORT[sport], 0)
    return fit(out)


def apple_time(t):
    from datetime import datetime, timezone
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%d %H:%M:%S +0000")


def apple(records, workouts):
    """records: (type, source, t, value, unit); workouts: dicts with type,
    source, start, end and optional distance_km, kcal, ascent_m,
    route [(t, lat, lon, ele)]."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<HealthData locale="en_US">',
           ' <ExportDate value="%s"/>' % apple_time(T0 + 86400)]
    for typ, src, t, v, unit in records:
        out.append(' <Record type="HKQuantityTypeIdentifier%s" sourceName="%s" unit="%s"'
                   ' startDate="%s" endDate="%s" value="%s"/>'
                   % (typ, src, unit, apple_time(t), apple_time(t), v))
    for w in workouts:
        attrs = ('workoutActivityType="HKWorkoutActivityType%s" duration="%g" durationUnit="min"'
                 % (w["type"], (w["end"] - w["start"]) / 60))
        if "distance_km" in w:
            attrs += ' totalDistance="%g" totalDistanceUnit="km"' % w["distance_km"]
        if "kcal" in w:
            attrs += ' totalEnergyBurned="%g" totalEnergyBurnedUnit="kcal"' % w["kcal"]
        out.append(' <Workout %s sourceName="%s" startDate="%s" endDate="%s">'
                   % (attrs, w["source"], apple_time(w["start"]), apple_time(w["end"])))
        if "ascent_m" in w:
            out.append('  <MetadataEntry key="HKElevationAscended" value="%g m"/>' % w["ascent_m"])
        if "route" in w:
            out.append('  <WorkoutRoute sourceName="%s" startDate="%s" endDate="%s">'
                       % (w["source"], apple_time(w["start"]), apple_time(w["end"])))
            for t, lat, lon, ele in w["route"]:
                out.append('   <Location date="%s" latitude="%.6f" longitude="%.6f"'
                           ' altitude="%.1f"/>' % (apple_time(t), lat, lon, ele))
            out.append('  </WorkoutRoute>')
        out.append(' </Workout>')
    out.append('</HealthData>')
    return "\n".join(out) + "\n"


def gpx(tracks, creator="Strava"):
    """tracks: lists of (t, lat, lon, ele, hr or None)."""
    from datetime import datetime, timezone
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<gpx version="1.1" creator="%s" xmlns="http://www.topografix.com/GPX/1/1"'
           ' xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">' % creator]
    for pts in tracks:
        out.append(' <trk><type>cycling</type><trkseg>')
        for t, lat, lon, ele, hr in pts:
            ext = ('<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>%d</gpxtpx:hr>'
                   '</gpxtpx:TrackPointExtension></extensions>' % hr) if hr else ''
            out.append('  <trkpt lat="%.7f" lon="%.7f"><ele>%.1f</ele><time>%s</time>%s</trkpt>'
                       % (lat, lon, ele, datetime.fromtimestamp(t, timezone.utc)
                          .strftime("%Y-%m-%dT%H:%M:%SZ"), ext))
        out.append(' </trkseg></trk>')
    out.append('</gpx>')
    return "\n".join(out) + "\n"


def write(dirname, name, data):
    with open(os.path.join(dirname, name), "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)


def legs(dirname):
    # swim [T0, T0+1800] whose elapsed time says 7000 s (to T0+7000, past
    # both other legs), bike [T0+1900, T0+4900], run [T0+5000, T0+7000];
    # a heart rate every 2 s in each leg, 100 + the leg's number
    recs, ses = [], []
    for k, (a, b, sport, elapsed) in enumerate(((T0, T0 + 1800, "swimming", 7000),
                                                 (T0 + 1900, T0 + 4900, "cycling", 3000),
                                                 (T0 + 5000, T0 + 7000, "running", 2000))):
        recs += [(t, 100 + k) for t in range(a, b, 2)]
        ses.append((a, b, elapsed, sport))
    write(dirname, "legs.fit", fitfile(7001, recs, ses))
    # two tracks of one GPX: [T0+10000, T0+11000] and [T0+10400, T0+11400]
    tr = [[(T0 + 10000 + o + i * 10, 45 + i * 1e-4, 7, 100.0, 120 + o // 400)
           for i in range(101)] for o in (0, 400)]
    write(dirname, "legs.gpx", gpx(tr))


def ride_route(start, end, step):
    return [(t, 45 + (t - start) * 1e-5, 7.0, 100 + (t - start) // 60)
            for t in range(start, end + 1, step)]


def fill(dirname):
    a, b = T0, T0 + 1800
    hr = lambda t: 120 + (t - a) % 40
    # the watch: 2 s later, heart rate every 30 s (61), power every 10 s
    wa, wb = a + 2, b
    recs = [("HeartRate", "Apple Watch", t, hr(t), "count/min") for t in range(wa, wb + 1, 30)]
    recs += [("CyclingPower", "Apple Watch", t, 180 + (t - a) % 50, "W")
             for t in range(wa, wb, 10)]
    w = {"type": "Cycling", "source": "Apple Watch", "start": wa, "end": wb,
         "distance_km": 10.82, "kcal": 252, "ascent_m": 64,
         "route": [(t, la, lo, el) for t, la, lo, el in ride_route(wa, wb, 5)]}
    write(dirname, "ride-watch.xml", apple(recs, [w]))
    # the bike computer: heart rate every second, no distance, energy,
    # route or power
    write(dirname, "ride-edge.fit",
          fitfile(7002, [(t, hr(t)) for t in range(a, b)], [(a, b, b - a, "cycling")]))
    # the same ride as a GPX, gpxtpx heart rate every 5 s (361)
    write(dirname, "ride.gpx", gpx([[(t, la, lo, el, hr(t))
                                      for t, la, lo, el in ride_route(a, b, 5)]]))


def chain(dirname):
    s0 = T0
    legs_ = ((s0, s0 + 1800, "swimming", 4), (s0 + 1800, s0 + 5400, "cycling", 1),
             (s0 + 5400, s0 + 7200, "running", 1))
    recs, ses = [], []
    for a, b, sport, step in legs_:
        recs += [(t, 140) for t in range(a, b, step)]
        ses.append((a, b, b - a, sport))
    write(dirname, "tri-edge.fit", fitfile(7003, recs, ses))
    recs = [("HeartRate", "Forerunner", t, 150, "count/min")
            for t in range(s0, s0 + 7200, 5)]
    w = {"type": "Other", "source": "Forerunner", "start": s0, "end": s0 + 7200}
    write(dirname, "tri-watch.xml", apple(recs, [w]))


def second(dirname):
    a, b = T0, T0 + 3000
    write(dirname, "run.fit", fitfile(7004, [(t, 150) for t in range(a, b, 5)],
                                      [(a, b, b - a, "running")]))
    t = a + 600
    recs = [("HeartRate", "Phone App", t, "%.2f" % (60 + i * 0.01), "count/min")
            for i in range(5000)]
    w = {"type": "Running", "source": "Phone App", "start": t, "end": t + 1}
    write(dirname, "second.xml", apple(recs, [w]))


def pruned(dirname):
    a, b = T0, T0 + 3000
    recs = [("HeartRate", "My Apple Watch", t, "150", "count/min")
            for t in range(a, b, 5)]
    recs += [("CyclingPower", "My Apple Watch", t, "200", "W") for t in range(a, b, 20)]
    w = {"type": "Cycling", "source": "My Apple Watch", "start": a, "end": b}
    write(dirname, "watch.xml", apple(recs, [w]))
    write(dirname, "march.jsonl", '{"metric":"steps","start":"2024-03-05T10:00:00Z",'
          '"value":10,"unit":"count","source":"My iPhone"}\n')
    write(dirname, "late.fit", fitfile(7006, [(t, 140) for t in range(a, b, 30)],
                                       [(a, b, b - a, "cycling")]))
    recs = [("HeartRate", "Strava", t, "130", "count/min") for t in range(a, b, 60)]
    recs += [("CyclingPower", "Strava", t, "180", "W") for t in range(a, b, 20)]
    w = {"type": "Cycling", "source": "Strava", "start": a, "end": b}
    write(dirname, "strava.xml", apple(recs, [w]))


def overlap(dirname, n):
    # session i: [T0 + i, T0 + i + 100000 + i]: each overlaps every other
    # by more than half of the shorter
    ses = [(T0 + i, T0 + 2 * i + 100000, 100000 + i, "cycling") for i in range(n)]
    write(dirname, "one.fit", fitfile(7005, [], ses))
    ws = [{"type": "Cycling", "source": "S%d" % i, "start": T0 + i,
           "end": T0 + 2 * i + 100000} for i in range(n)]
    write(dirname, "sources.xml", apple([], ws))


def random_files(dirname, seed, n):
    import random, json
    from datetime import datetime, timezone
    rnd = random.Random(seed)
    srcs = ["Watch", "Edge", "Strava", "Phone"]
    for f in range(n):
        recs, ws = [], []
        for _ in range(rnd.randint(1, 4)):
            src = rnd.choice(srcs)
            a = T0 + rnd.randrange(0, 6 * 3600, 60)
            b = a + rnd.choice([0, 60, 600, 1200, 1800, 3600, 7200])
            w = {"type": rnd.choice(["Cycling", "Running"]), "source": src,
                 "start": a, "end": b}
            if rnd.random() < 0.5:
                w["distance_km"] = rnd.randint(1, 40)
            if rnd.random() < 0.5:
                w["kcal"] = rnd.randint(50, 900)
            if rnd.random() < 0.3:
                w["ascent_m"] = rnd.randint(1, 500)
            if rnd.random() < 0.3 and b > a:
                w["route"] = [(t, la, lo, el) for t, la, lo, el in ride_route(a, b, 60)]
            ws.append(w)
            step = rnd.choice([0, 5, 30, 300])
            if step:
                recs += [("HeartRate", src, t, 100 + t % 50, "count/min")
                         for t in range(a, b + 1, step)]
            if rnd.random() < 0.3:
                recs += [("CyclingPower", src, t, 150 + t % 80, "W")
                         for t in range(a, b, 20)]
        write(dirname, "r%02d.xml" % f, apple(recs, ws))
    with open(os.path.join(dirname, "late.jsonl"), "w") as out:
        for _ in range(20):
            t = T0 + rnd.randrange(0, 8 * 3600, 7)
            out.write(json.dumps({"metric": "heart_rate", "source": rnd.choice(srcs),
                                  "start": datetime.fromtimestamp(t, timezone.utc).isoformat(),
                                  "end": datetime.fromtimestamp(t, timezone.utc).isoformat(),
                                  "value": 120, "unit": "count/min"}) + "\n")


if __name__ == "__main__":
    case = sys.argv[2]
    if case == "overlap":
        overlap(sys.argv[1], int(sys.argv[3]))
    elif case == "random":
        random_files(sys.argv[1], int(sys.argv[3]), int(sys.argv[4]))
    else:
        {"legs": legs, "fill": fill, "chain": chain, "second": second,
         "pruned": pruned}[case](sys.argv[1])
