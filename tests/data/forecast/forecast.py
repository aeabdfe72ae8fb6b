#!/usr/bin/env python3
# The forecast's rule written out on its own, Python's standard library
# only, for tests/cli/4700-report-forecast.t: every slope held and sorted
# (fine for the test's few hundred days; hq never holds them), no code of
# hq's. Usage: forecast.py FILE AHEAD_DAYS [TARGET]
#
# FILE: DAY VALUE lines (DAY a day number, days since 1970-01-01).
# Prints the rows hq-report forecast METRIC writes as JSON lines: date,
# value, low, high (and with TARGET: target, reach, reach_earliest,
# reach_latest), one a week after the last day and one on the last day
# of AHEAD_DAYS when it is not a whole week.
#
# The rule (hq-report(1), forecast):
#   b       the median of the pairwise slopes (v_j - v_i) / (t_j - t_i)
#   a       the median of v_i - b t_i (Conover)
#   b_lo, b_hi  the sorted slopes at M1 = round((N - C) / 2) and
#           M2 = round((N + C) / 2) + 1 (1-based, halves to even), C =
#           qnorm(0.975) sqrt(Var S), Var S = [n(n-1)(2n+5) - sum over
#           groups of u equal values u(u-1)(2u+5)] / 18 (Gilbert 1987)
#   tm      the median of the t_i
#   q_lo, q_hi  R's type-7 quantiles (0.025, 0.975) of v_i - (a + b t_i)
#   value = a + b d; lo/hi(d) = a + b tm + b_lo/hi (d - tm);
#   low = min(lo, hi) + q_lo, high = max(lo, hi) + q_hi
#   reach: ceil((V - a) / b) when b != 0 and after the last day; the
#   earliest edge (low for b < 0, high for b > 0) and the latest, each
#   ceil(tm + (V - q - (a + b tm)) / slope) when its slope has b's sign.
import datetime
import json
import math
import statistics
import sys


def median(x):
    x = sorted(x)
    n = len(x)
    return x[n // 2] if n % 2 else (x[n // 2 - 1] + x[n // 2]) / 2


def quantile7(x, p):
    x = sorted(x)
    n = len(x)
    h = (n - 1) * p
    lo = math.floor(h)
    hi = math.ceil(h)
    g = h - lo
    if x[hi] == x[lo]:
        return x[lo]
    return (1 - g) * x[lo] + g * x[hi]


def day(d):
    return (datetime.date(1970, 1, 1) + datetime.timedelta(days=d)).isoformat()


def main():
    t, v = [], []
    for line in open(sys.argv[1]):
        a, b = line.split()
        t.append(int(a))
        v.append(float(b))
    ahead = int(sys.argv[2])
    target = float(sys.argv[3]) if len(sys.argv) > 3 else None
    n = len(v)
    s = sorted((v[j] - v[i]) / (t[j] - t[i])
               for i in range(n) for j in range(i + 1, n))
    N = len(s)
    groups = {}
    for x in v:
        groups[x] = groups.get(x, 0) + 1
    var_s = (n * (n - 1) * (2 * n + 5) -
             sum(u * (u - 1) * (2 * u + 5) for u in groups.values())) / 18
    C = statistics.NormalDist().inv_cdf(0.975) * math.sqrt(var_s)
    m1 = round((N - C) / 2)
    m2 = round((N + C) / 2) + 1
    b = median(s)
    b_lo, b_hi = s[m1 - 1], s[m2 - 1]
    a = median([v[i] - b * t[i] for i in range(n)])
    tm = median(t)
    r = [v[i] - (a + b * t[i]) for i in range(n)]
    q_lo, q_hi = quantile7(r, 0.025), quantile7(r, 0.975)
    mid = a + b * tm
    last = t[-1]
    reach = [None, None, None]
    if target is not None and b != 0:
        d0 = math.ceil((target - a) / b)
        if d0 > last:
            reach[0] = day(d0)
            edges = [(b_lo, q_lo), (b_hi, q_hi)]
            if b > 0:
                edges.reverse()
            for k, (se, q) in enumerate(edges):
                if se != 0 and (se < 0) == (b < 0):
                    reach[k + 1] = day(math.ceil(tm + (target - q - mid) / se))
    k = 7
    while True:
        d = min(k, ahead)
        x = last + d
        lo = mid + b_lo * (x - tm)
        hi = mid + b_hi * (x - tm)
        row = {"date": day(x), "value": a + b * x,
               "low": min(lo, hi) + q_lo, "high": max(lo, hi) + q_hi}
        if target is not None:
            row.update(target=target, reach=reach[0],
                       reach_earliest=reach[1], reach_latest=reach[2])
        print(json.dumps(row))
        if d == ahead:
            break
        k += 7


main()
