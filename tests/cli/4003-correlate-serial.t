#!/usr/bin/env bash
# hq-correlate on serially correlated days: two generated series that each
# carry over from day to day (AR(1), phi = 0.9, with gaps) and share a
# component, and two drawn independently day by day with the same kind of
# link. On a terminal, the first pair's sentence must say the days are not
# independent and about how many independent days n is worth (recomputed
# here in Python as R's acf(na.action = na.pass) and Bretherton's n_eff;
# lib/base/stats.c itself is checked against R in tests/unit); the second's must
# not. The rows keep hq-correlate(1)'s fields. --against gets the same, shortly, and
# one footnote.
. "$(dirname "$0")/lib.sh"

command -v hq-correlate >/dev/null || skip_all "hq-correlate not built"
command -v python3 >/dev/null || skip_all "python3 missing"

# gen KIND SEED: day rows of two metrics (x then y) in $T/KIND-x.jsonl and
# $T/KIND-y.jsonl; KIND ar (AR(1) with a shared part) or iid. 200 days
# from 2024-03-01, 5 of them missing.
gen() {
	python3 - "$1" "$2" "$T" <<'PY'
import datetime, json, random, sys
kind, seed, t = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rng = random.Random(seed)
def ar(n, phi=0.9):
    v, out = rng.gauss(0, 1), []
    for _ in range(n):
        v = phi * v + rng.gauss(0, (1 - phi * phi) ** 0.5)
        out.append(v)
    return out
n = 200
if kind == "ar":
    z, e, f = ar(n), ar(n), ar(n)
    x = [z[i] + e[i] for i in range(n)]
    y = [z[i] + f[i] for i in range(n)]
else:
    x = [rng.gauss(0, 1) for _ in range(n)]
    y = [0.6 * x[i] + rng.gauss(0, 0.8) for i in range(n)]
gone = {30, 31, 90, 150, 151}
d0 = datetime.date(2024, 3, 1)
for name, metric, unit, v, base, scale in (("x", "resting_heart_rate", "count/min", x, 60, 3),
                                           ("y", "respiratory_rate", "count/min", y, 15, 1)):
    with open("%s/%s-%s.jsonl" % (t, kind, name), "w") as fp:
        for i in range(n):
            if i not in gone:
                fp.write(json.dumps({"metric": metric, "period": str(d0 + datetime.timedelta(i)),
                                     "value": round(base + scale * v[i], 3), "unit": unit}) + "\n")
PY
}

# neff X Y: n, both lag-1 autocorrelations and n_eff of the paired days,
# computed here: consecutive days only, R's acf divisor (k + 1 for k pairs).
neff() {
	python3 - "$1" "$2" <<'PY'
import datetime, json, sys
def load(p):
    return {json.loads(l)["period"]: json.loads(l)["value"] for l in open(p)}
a, b = load(sys.argv[1]), load(sys.argv[2])
days = sorted(set(a) & set(b))
def acf1(v):
    n = len(days); m = sum(v) / n
    s0 = sum((x - m) ** 2 for x in v)
    s1, k = 0, 0
    for i in range(n - 1):
        d0, d1 = (datetime.date.fromisoformat(d) for d in days[i:i + 2])
        if (d1 - d0).days == 1:
            s1 += (v[i] - m) * (v[i + 1] - m); k += 1
    return s1 / (k + 1) / (s0 / n)
r1, r2 = acf1([a[d] for d in days]), acf1([b[d] for d in days])
n = len(days); rr = r1 * r2
print(n, "%.4f" % r1, "%.4f" % r2, "%.3f" % min(n, max(2, n * (1 - rr) / (1 + rr))))
PY
}

gen ar 11
gen iid 12

# ---- serially correlated: the sentence warns -------------------------------------
read -r n r1 r2 ne <<<"$(neff "$T/ar-x.jsonl" "$T/ar-y.jsonl")"
is "$n" 195 "the AR pair: 195 paired days"
ok "$(awk -v a="$r1" -v b="$r2" 'BEGIN { exit !(a > 0.7 && b > 0.7) }'; echo $?)" \
	"both carry over from day to day (lag-1 autocorrelation $r1, $r2)"
run hq-correlate "$T/ar-x.jsonl" "$T/ar-y.jsonl" --format text
is "$rc" 0 "hq-correlate X Y --format text"
text=$(printf '%s\n' "$out" | tr '\n' ' ' | tr -s ' ')
like "$text" "^Days with more resting heart rate went with more respiratory rate the same day: .*\(p = [0-9.e-]+, n = 195 days, 2024-03-01 to 2024-09-16\)\. The days are not independent \(each series carries over from day to day\), so p is smaller than it should be: the 195 days are worth about [0-9]+ independent ones\. An association, not proof of a cause\. $" \
	"a link between serially correlated series: the days are not independent, p too small, what n is worth"
said=$(printf '%s' "$text" | sed -n 's/.*worth about \([0-9]*\) independent.*/\1/p')
num_near "$said" "$ne" 0.5 "about $said independent days: Bretherton's n_eff over the paired days ($ne)"
ok "$(printf '%s\n' "$out" | awk 'length > 80 {bad=1} END {exit bad}'; echo $?)" "wrapped to fit 80 columns"
run hq-correlate "$T/ar-x.jsonl" "$T/ar-y.jsonl" --format text --method pearson
like "$(printf '%s\n' "$out" | tr '\n' ' ' | tr -s ' ')" "r = 0\.[0-9]+ .*the 195 days are worth about $said independent ones" "--method pearson says it too"
run hq-correlate "$T/ar-x.jsonl" "$T/ar-y.jsonl" --lag 1 --format text
like "$(printf '%s\n' "$out" | tr '\n' ' ' | tr -s ' ')" "the next day: .*days are worth about [0-9]+ independent ones" "and with --lag 1"
run hq-correlate "$T/ar-x.jsonl" "$T/ar-y.jsonl"
unlike "$out" "n_eff|acf|independent" "the row keeps hq-correlate(1)'s fields: no n_eff"
like "$out" '"rho_p":[^,]+,"slope":[^,]+,"intercept":[^,]+\}$' "and ends where hq-correlate(1)'s row ends"

# ---- independent days with a link: no warning -------------------------------------------
read -r n r1 r2 ne <<<"$(neff "$T/iid-x.jsonl" "$T/iid-y.jsonl")"
ok "$(awk -v a="$r1" -v b="$r2" 'BEGIN { exit !(a < 0.2 && b < 0.2) }'; echo $?)" \
	"the iid pair does not carry over (lag-1 autocorrelation $r1, $r2)"
run hq-correlate "$T/iid-x.jsonl" "$T/iid-y.jsonl" --format text
text=$(printf '%s\n' "$out" | tr '\n' ' ' | tr -s ' ')
like "$text" "^Days with more resting heart rate went with more respiratory rate the same day: .*\(p = [0-9.e-]+, n = 195 days, .*\)\. An association, not proof of a cause\. $" \
	"independent days with a clear link: the usual sentence"
unlike "$text" "independent|worth about" "and no warning about serial correlation"

# ---- --against: n and what it is worth, and one footnote --------------------------------------
python3 - "$T" >"$T/samples.jsonl" <<'PY'
import json, sys
t = sys.argv[1]
for kind in ("ar", "iid"):
    for name in ("x", "y"):
        for l in open("%s/%s-%s.jsonl" % (t, kind, name)):
            r = json.loads(l)
            metric = {"ar": r["metric"], "iid": {"x": "vo2_max", "y": "body_mass"}[name]}[kind]
            print(json.dumps({"metric": metric, "start": r["period"] + "T20:00:00Z",
                              "value": r["value"], "unit": {"vo2_max": "mL/min·kg",
                              "body_mass": "kg"}.get(metric, "count/min")}))
PY
hq-ingest -q "$T/samples.jsonl" >/dev/null
ok $? "the four series into a store"
run hq-correlate resting_heart_rate --against all --format text
is "$rc" 0 "resting_heart_rate --against all --format text"
text=$(printf '%s\n' "$out" | tr '\n' ' ' | tr -s ' ')
like "$text" "^1\. respiratory rate the same day: higher with more resting heart rate, .*n = 195 days, worth about [0-9]+ independent\)\." \
	"the serially correlated partner: n and what it is worth"
unlike "$text" "(vo2|body).*worth about" "the independent ones: n alone"
like "$text" "Associations, not proof of causes\. Where n is worth fewer independent days, both series carry over from day to day, so the days are not independent and p is smaller than it should be\. $" \
	"one footnote after the ranking"
ok "$(printf '%s\n' "$out" | awk 'length > 80 {bad=1} END {exit bad}'; echo $?)" "fitting 80 columns"
run hq-correlate vo2_max --against body_mass --format text
like "$(printf '%s\n' "$out" | tr '\n' ' ' | tr -s ' ')" "^1\. body (mass|weight) the same day: higher with more" "the independent pair ranked: a link"
unlike "$out" "worth|carry over" "but no footnote: its days are independent"
done_testing
