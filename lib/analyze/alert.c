#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hq/alert.h"
#include "hq/daily.h"
#include "hq/time.h"

/* hq-report alerts' rules per measure (hq-report(1), alerts): z against the 28 days
 * before. A new measure is a line here. */
static const struct hq_alert_rule rules[] = {
	{ "resting_heart_rate", +1, 2, "resting HR" },
	{ "heart_rate_variability_sdnn", -1, 2, "HRV" },
	{ "sleep", -1, 2, "sleep" },
};

#define NRULES (sizeof rules / sizeof rules[0])

const struct hq_alert_rule *
hq_alert_rule_at(size_t i)
{
	return i < NRULES ? &rules[i] : NULL;
}

const struct hq_alert_rule *
hq_alert_rule_for(const char *metric)
{
	for (size_t i = 0; i < NRULES; i++)
		if (strcmp(rules[i].metric, metric) == 0)
			return &rules[i];
	return NULL;
}

int
hq_alert_rule_fires(const struct hq_alert_rule *r, double z)
{
	if (isnan(z))
		return 0;
	return r->direction > 0 ? z >= r->z : z <= -r->z;
}

void
hq_alert_baseline(const int64_t *day, const double *v, size_t n, int64_t d,
    double value, struct hq_alert_baseline *b)
{
	size_t from = hq_daily_lower(day, n, d - HQ_ALERT_BASELINE_DAYS);
	size_t to = hq_daily_lower(day, n, d);   /* days before d: [from, to) */
	double sum = 0, ss = 0, min = INFINITY, max = -INFINITY;

	b->n = (int)(to - from);
	b->mean = b->sd = b->z = NAN;
	if (b->n < HQ_ALERT_BASELINE_MIN)
		return;
	for (size_t i = from; i < to; i++) {
		sum += v[i];
		min = v[i] < min ? v[i] : min;
		max = v[i] > max ? v[i] : max;
	}
	b->mean = sum / b->n;
	/* All equal: sd 0 exactly (the mean of 28 copies of 0.1 need not be
	 * 0.1 to the last bit, which would make an sd of 1e-17). */
	if (min == max) {
		b->mean = min;
		b->sd = 0;
		return;
	}
	for (size_t i = from; i < to; i++)
		ss += (v[i] - b->mean) * (v[i] - b->mean);
	b->sd = sqrt(ss / (b->n - 1));
	b->z = (value - b->mean) / b->sd;
}

long
hq_alert_scan(const struct hq_alert_rule *r, const char *unit,
    const int64_t *day, const double *v, size_t n, int64_t from, int64_t to,
    hq_alert_fn *fn, void *arg)
{
	long count = 0;

	for (size_t i = hq_daily_lower(day, n, from); i < n && day[i] <= to; i++) {
		struct hq_alert_baseline b;
		struct hq_alert a;
		hq_alert_baseline(day, v, n, day[i], v[i], &b);
		if (!hq_alert_rule_fires(r, b.z))
			continue;
		a.day = day[i];
		a.measure = r->metric;
		a.kind = "baseline";
		a.value = v[i];
		a.baseline_mean = b.mean;
		a.baseline_sd = b.sd;
		a.z = b.z;
		a.unit = unit;
		snprintf(a.message, sizeof a.message,
		    "%s %.1f %s, %.1f SD %s baseline %.1f ± %.1f",
		    r->what, v[i], unit ? unit : "", fabs(b.z),
		    b.z > 0 ? "above" : "below", b.mean, b.sd);
		if (fn(arg, &a) < 0)
			return -1;
		count++;
	}
	return count;
}

/* The consensus targets (Battelino et al. 2019; hq-report(1), alerts). */
static const struct hq_alert_cgm_target targets[] = {
	{ "tir", 0, 70, "time in range (70-180 mg/dL)" },
	{ "tbr", 1, 4, "time below range (< 70 mg/dL)" },
	{ "tbr2", 1, 1, "time below 54 mg/dL" },
	{ "tar", 1, 25, "time above range (> 180 mg/dL)" },
	{ "tar2", 1, 5, "time above 250 mg/dL" },
};

#define NTARGETS (sizeof targets / sizeof targets[0])

long
hq_alert_cgm(const struct hq_cgm_metrics *m, int64_t day, hq_alert_fn *fn,
    void *arg)
{
	long count = 0;

	if (m->readings <= 0)
		return 0;
	for (size_t i = 0; i < NTARGETS; i++) {
		const struct hq_alert_cgm_target *t = &targets[i];
		double x = hq_cgm_value(m, t->metric);
		struct hq_alert a;
		if (isnan(x) || (t->above ? !(x > t->limit) : !(x < t->limit)))
			continue;
		a.day = day;
		a.measure = t->metric;
		a.kind = "cgm";
		a.value = x;
		a.baseline_mean = a.baseline_sd = a.z = NAN;
		a.unit = "%";
		snprintf(a.message, sizeof a.message,
		    "%s %.1f %% (target: %s %g %%)", t->what, x,
		    t->above ? "at most" : "at least", t->limit);
		if (fn(arg, &a) < 0)
			return -1;
		count++;
	}
	return count;
}

int
hq_alert_lab(const struct hq_lab_row *r, int64_t day, struct hq_alert *a)
{
	char value[64], range[64];

	if (!r->flag || (strcmp(r->flag, "H") != 0 && strcmp(r->flag, "L") != 0))
		return 0;
	hq_report_lab_text(r, value, sizeof value, range, sizeof range);
	a->day = day;
	a->measure = r->test;
	a->kind = "lab";
	a->value = r->value;
	a->baseline_mean = a->baseline_sd = a->z = NAN;
	a->unit = r->unit;
	snprintf(a->message, sizeof a->message, "%s %s%s%s %s%s%s%s",
	    r->name && *r->name ? r->name : r->test, value,
	    r->unit && *r->unit ? " " : "", r->unit ? r->unit : "",
	    strcmp(r->flag, "H") == 0 ? "high" : "low",
	    *range ? " (range " : "", range, *range ? ")" : "");
	return 1;
}

/* Watched for silence: the rules' measures and the CGM's readings. */
static const struct { const char *metric, *what; } watched[] = {
	{ "resting_heart_rate", "resting HR" },
	{ "heart_rate_variability_sdnn", "HRV" },
	{ "sleep", "sleep" },
	{ "blood_glucose", "glucose" },
};

const char *
hq_alert_watched_at(size_t i, const char **what)
{
	if (i >= sizeof watched / sizeof watched[0])
		return NULL;
	*what = watched[i].what;
	return watched[i].metric;
}

int
hq_alert_stale(const char *measure, const char *what, int64_t newest,
    int64_t end, int64_t day, struct hq_alert *a)
{
	char since[16];
	double days = (double)(end - newest) / 86400;

	if (!(end - newest > (int64_t)HQ_ALERT_STALE_DAYS * 86400))
		return 0;
	hq_time_format_day(hq_time_local_day(newest), since, sizeof since);
	a->day = day;
	a->measure = measure;
	a->kind = "stale";
	a->value = floor(days);
	a->baseline_mean = a->baseline_sd = a->z = NAN;
	a->unit = "d";
	snprintf(a->message, sizeof a->message, "no %s since %s (%.0f days): "
	    "has the import stopped?", what, since, floor(days));
	return 1;
}
