/*
 * alert — is anything off: the rules of hq-report alerts (hq-report(1),
 * alerts), over values the caller reads (daily values as hq-query --by day
 * gives them, CGM metrics as hq-report cgm, lab rows as hq-report latest
 * labs).
 *
 * Baseline: a day's value against the values of the HQ_ALERT_BASELINE_DAYS
 * local days before it (d-28 .. d-1; a day without a value is just not
 * there): their mean and sample SD (n - 1, as R's sd), z = (value - mean) /
 * sd. No baseline (mean, sd and z NaN) with fewer than
 * HQ_ALERT_BASELINE_MIN days holding values; no z (NaN) when the baseline
 * never changes (sd 0: all its values equal), never a division by zero.
 * The rules per measure are data (hq_alert_rule_at): resting heart rate
 * z >= 2, HRV z <= -2, a night's sleep z <= -2.
 *
 * CGM: the consensus targets over a range (Battelino et al. 2019): tir <
 * 70 %, tbr > 4 %, tbr2 > 1 %, tar > 25 %, tar2 > 5 % each an alert,
 * values exactly at a limit are within it.
 *
 * Labs: a result flagged H or L.
 *
 * Stale: silence is not "all fine". A watched measure (the rules' and the
 * CGM's glucose) whose newest sample, or the store's newest import, is
 * more than HQ_ALERT_STALE_DAYS before the end of the range (its last
 * day's end, or now when sooner) is an alert: "no resting HR since
 * 2026-11-23 (14 days): has the import stopped?". A measure silent for
 * longer than the baseline's 28 days is no longer watched (it gave up,
 * or was never worn); the import is always watched.
 *
 * Every alert comes out as a struct hq_alert, the row hq-report(1) gives (date,
 * measure, kind, value, baseline_mean, baseline_sd, z, unit, message), to
 * the caller's function; its strings live until the function returns.
 */
#ifndef HQ_ALERT_H
#define HQ_ALERT_H

#include <stddef.h>
#include <stdint.h>

#include "hq/cgm.h"
#include "hq/document_read.h"

#define HQ_ALERT_BASELINE_DAYS 28
#define HQ_ALERT_BASELINE_MIN 14

struct hq_alert_rule {
	const char *metric;   /* the catalog name: resting_heart_rate */
	int direction;        /* +1: alert at z >= z; -1: at z <= -z */
	double z;             /* 2 */
	const char *what;     /* for messages: "resting HR" */
};
/* The i-th rule, NULL past the last. */
const struct hq_alert_rule *hq_alert_rule_at(size_t i);
/* The rule of a catalog name, NULL when it has none. */
const struct hq_alert_rule *hq_alert_rule_for(const char *metric);

struct hq_alert_baseline {
	int n;              /* days with values among the 28 before */
	double mean, sd;    /* NaN below HQ_ALERT_BASELINE_MIN days */
	double z;           /* NaN without a baseline or when sd is 0 */
};
/* The baseline of day d and the z of value against it, from days day[]
 * (ascending, each once) with values v[]. */
void hq_alert_baseline(const int64_t *day, const double *v, size_t n,
    int64_t d, double value, struct hq_alert_baseline *b);
/* Whether a z passes the rule (NaN never does). */
int hq_alert_rule_fires(const struct hq_alert_rule *r, double z);

struct hq_alert {
	int64_t day;          /* the local day number it is dated */
	const char *measure;  /* resting_heart_rate, ldl, tbr */
	const char *kind;     /* "baseline", "lab", "cgm" or "stale" */
	double value, baseline_mean, baseline_sd, z;   /* NaN: null */
	const char *unit;
	char message[200];
};
/* 0 to go on, -1 to stop (the scan then returns -1). */
typedef int hq_alert_fn(void *arg, const struct hq_alert *a);

/* Every day of the series in [from, to] (day numbers, inclusive) whose
 * value passes the rule against its baseline, oldest first; the days
 * before from serve as baselines. unit: the values' unit. The number of
 * alerts, or -1 when fn said stop. */
long hq_alert_scan(const struct hq_alert_rule *r, const char *unit,
    const int64_t *day, const double *v, size_t n, int64_t from, int64_t to,
    hq_alert_fn *fn, void *arg);

struct hq_alert_cgm_target {
	const char *metric;   /* the field of struct hq_cgm_metrics */
	int above;            /* 1: alert above the limit; 0: below */
	double limit;         /* percent of readings */
	const char *what;     /* "time below range" */
};
/* One alert per target missed by m (none when it has no readings), dated
 * day; the number of alerts, or -1 when fn said stop. */
long hq_alert_cgm(const struct hq_cgm_metrics *m, int64_t day,
    hq_alert_fn *fn, void *arg);

#define HQ_ALERT_STALE_DAYS 2

/* The measures watched for silence: a catalog name and its words ("resting
 * HR"), NULL past the last. */
const char *hq_alert_watched_at(size_t i, const char **what);
/* A stale alert, dated day, for a measure (a catalog name, or "import")
 * whose newest sample (or import) began at newest, the range ending at
 * end (UTC seconds): 1 (a filled: value the days since, unit "d"), or 0
 * when it is not stale. what: the measure in words. */
int hq_alert_stale(const char *measure, const char *what, int64_t newest,
    int64_t end, int64_t day, struct hq_alert *a);

/* A lab result flagged H or L as an alert dated day: 1 (a filled), or 0
 * when the result is not flagged so. */
int hq_alert_lab(const struct hq_lab_row *r, int64_t day, struct hq_alert *a);

#endif
