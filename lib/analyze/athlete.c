/* The athlete's settings (athlete.h): [athlete] in the config, flags, and
 * the defaults hq-report(1) gives (Training), from the store. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/athlete.h"
#include "hq/athlete_cache.h"
#include "hq/athlete_load.h"
#include "hq/catalog.h"
#include "hq/opts.h"

#define SEX_KEY "HKCharacteristicTypeIdentifierBiologicalSex"

/* Bounds of a setting (bpm for heart rates, W for ftp). */
#define HR_LO HQ_ATHLETE_HR_LO
#define HR_HI HQ_ATHLETE_HR_HI

static const char *const keyname[HQ_ATH_NKEYS] = {
	"sex", "max_hr", "rest_hr", "lthr", "ftp", "zones",
};

void
hq_athlete_init(struct hq_athlete *a)
{
	memset(a, 0, sizeof *a);
	a->sex = HQ_SEX_UNKNOWN;
	a->max_hr = a->rest_hr = a->lthr = a->ftp = NAN;
	for (int i = 0; i < 4; i++)
		a->zones[i] = NAN;
}

int
hq_athlete_resolve(struct hq_athlete *a, const struct hq_config *c,
    const char *const flags[HQ_ATH_NKEYS],
    const char *const names[HQ_ATH_NKEYS], struct hq_store *s,
    struct hq_err *e)
{
	static const char *const options[HQ_ATH_NKEYS] = {
		[HQ_ATH_MAX_HR] = "--max-hr", [HQ_ATH_REST_HR] = "--rest-hr",
		[HQ_ATH_LTHR] = "--lthr", [HQ_ATH_FTP] = "--ftp",
	};

	hq_athlete_init(a);
	if (c && hq_athlete_config(a, c, e))
		return -1;
	for (int k = 0; flags && k < HQ_ATH_NKEYS; k++)
		if (flags[k] && hq_athlete_flag(a, (enum hq_athlete_key)k,
		    names && names[k] ? names[k] : options[k], flags[k], e))
			return -1;
	return hq_athlete_defaults(a, s, e);
}

const char *
hq_athlete_basis_of(const struct hq_athlete *a)
{
	static const enum hq_athlete_key keys[] = { HQ_ATH_MAX_HR,
		HQ_ATH_REST_HR, HQ_ATH_LTHR };
	int worst = 3;

	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		enum hq_basis b = a->basis[keys[i]];
		int rank = b == HQ_BASIS_NONE || b == HQ_BASIS_DEFAULT ? 1 :
		    b == HQ_BASIS_STORE ? 2 : 3;
		if (rank < worst)
			worst = rank;
	}
	return worst == 1 ? "default" : worst == 2 ? "store" : "config";
}

const char *
hq_athlete_basis_name(enum hq_basis b)
{
	switch (b) {
	case HQ_BASIS_DEFAULT: return "default";
	case HQ_BASIS_STORE: return "store";
	case HQ_BASIS_CONFIG: return "config";
	case HQ_BASIS_FLAG: return "flag";
	case HQ_BASIS_NONE: break;
	}
	return NULL;
}

const char *
hq_athlete_sex_name(enum hq_sex s)
{
	return s == HQ_SEX_MALE ? "male" : s == HQ_SEX_FEMALE ? "female" :
	    "unknown";
}

void
hq_athlete_banister(enum hq_sex s, double *a, double *b)
{
	if (s == HQ_SEX_FEMALE) {
		*a = 0.86;
		*b = 1.67;
	} else {
		*a = 0.64;
		*b = 1.92;
	}
}

/* A whole number: strict, the whole text. */
static int
number(const char *s, double *v)
{
	const char *end;

	while (*s == ' ')
		s++;
	if (hq_opts_scan_number(s, &end, v))
		return -1;
	while (*end == ' ')
		end++;
	return *end ? -1 : 0;
}

/* One value of key checked alone into a; why (static text) on failure. */
static int
set_value(struct hq_athlete *a, enum hq_athlete_key key, const char *value,
    const char **why)
{
	double v, z[4];

	switch (key) {
	case HQ_ATH_SEX:
		if (strcmp(value, "male") == 0)
			a->sex = HQ_SEX_MALE;
		else if (strcmp(value, "female") == 0)
			a->sex = HQ_SEX_FEMALE;
		else {
			*why = "expected male or female";
			return -1;
		}
		return 0;
	case HQ_ATH_MAX_HR:
	case HQ_ATH_REST_HR:
	case HQ_ATH_LTHR:
		if (number(value, &v) || v < HR_LO || v > HR_HI) {
			*why = "expected a heart rate in bpm from 25 to 250";
			return -1;
		}
		*(key == HQ_ATH_MAX_HR ? &a->max_hr : key == HQ_ATH_REST_HR ?
		    &a->rest_hr : &a->lthr) = v;
		return 0;
	case HQ_ATH_FTP:
		if (number(value, &v) || v < HQ_ATHLETE_FTP_LO ||
		    v > HQ_ATHLETE_FTP_HI) {
			*why = "expected a power in W from 20 to 2500";
			return -1;
		}
		a->ftp = v;
		return 0;
	case HQ_ATH_ZONES: {
		const char *p = value;
		int n = 0;
		char item[64];

		*why = "expected four rising heart rates in bpm (the lower edges "
		    "of zones 2 to 5), e.g. 120, 140, 155, 170";
		while (*p) {
			size_t len = strcspn(p, ",");
			if (n == 4 || len >= sizeof item)
				return -1;
			memcpy(item, p, len);
			item[len] = '\0';
			if (number(item, &z[n]) || z[n] < HR_LO || z[n] > HR_HI ||
			    (n > 0 && z[n] <= z[n - 1]))
				return -1;
			n++;
			p += len;
			if (*p == ',' && !*++p)
				return -1;
		}
		if (n != 4)
			return -1;
		memcpy(a->zones, z, sizeof z);
		return 0;
	}
	case HQ_ATH_NKEYS:
		break;
	}
	*why = "not a setting";
	return -1;
}

int
hq_athlete_config(struct hq_athlete *a, const struct hq_config *c,
    struct hq_err *e)
{
	for (int k = 0; k < HQ_ATH_NKEYS; k++) {
		const char *v = hq_config_get(c, "athlete", keyname[k]), *why;
		char where[sizeof a->where[0]];

		if (!v)
			continue;
		if (hq_config_where(c, "athlete", keyname[k], where, sizeof where))
			snprintf(where, sizeof where, "config");
		if (set_value(a, (enum hq_athlete_key)k, v, &why)) {
			hq_err_set(e, "%s: [athlete] %s = %.64s: %s", where,
			    keyname[k], v, why);
			return -1;
		}
		a->basis[k] = HQ_BASIS_CONFIG;
		snprintf(a->where[k], sizeof a->where[k], "%s", where);
	}
	return 0;
}

int
hq_athlete_flag(struct hq_athlete *a, enum hq_athlete_key key,
    const char *flag, const char *value, struct hq_err *e)
{
	const char *why;

	if (key < 0 || key >= HQ_ATH_NKEYS || set_value(a, key, value, &why)) {
		hq_err_set(e, "%s %.64s: %s", flag, value,
		    key < 0 || key >= HQ_ATH_NKEYS ? "not a setting" : why);
		return -1;
	}
	a->basis[key] = HQ_BASIS_FLAG;
	snprintf(a->where[key], sizeof a->where[key], "%s", flag);
	return 0;
}

/* One number from a query of one row and column; NAN when NULL or no row. */
static int
query_num(struct hq_store *s, const char *sql, const char *arg, double *v,
    struct hq_err *e)
{
	sqlite3_stmt *q;
	int rc;

	*v = NAN;
	if (hq_store_prepare(s, sql, &q, e))
		return -1;
	if (arg)
		sqlite3_bind_text(q, 1, arg, -1, SQLITE_STATIC);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW && sqlite3_column_type(q, 0) != SQLITE_NULL)
		*v = sqlite3_column_double(q, 0);
	sqlite3_finalize(q);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		hq_err_set(e, "%s: reading the athlete's defaults: %s",
		    hq_store_filename(s), sqlite3_errmsg(hq_store_db(s)));
		return -1;
	}
	return 0;
}

/* The median of the resting heart rate samples: NAN when none. The
 * metric's id is looked up first and written in the SQL: a number, not a
 * subquery, reaches a pruned store's archived months (hybrid.h), which
 * then read that metric's rows alone. */
static int
median_rest(struct hq_store *s, double *v, struct hq_err *e)
{
	double id, n, lo, hi;
	char sql[256];

	*v = NAN;
	if (query_num(s, "SELECT id FROM metric WHERE identifier = ?1",
	    HQ_RESTING_HR_ID, &id, e))
		return -1;
	if (isnan(id))
		return 0;
	snprintf(sql, sizeof sql, "SELECT count(*) FROM sample WHERE"
	    " metric_id = %lld AND text = ''", (long long)id);
	if (query_num(s, sql, NULL, &n, e))
		return -1;
	if (!(n > 0))
		return 0;
	/* The middle one, or the two middle ones' mean. */
	snprintf(sql, sizeof sql, "SELECT value FROM sample WHERE metric_id ="
	    " %lld AND text = '' ORDER BY value LIMIT 1 OFFSET %lld",
	    (long long)id, (long long)((n - 1) / 2));
	if (query_num(s, sql, NULL, &lo, e))
		return -1;
	snprintf(sql, sizeof sql, "SELECT value FROM sample WHERE metric_id ="
	    " %lld AND text = '' ORDER BY value LIMIT 1 OFFSET %lld",
	    (long long)id, (long long)(n / 2));
	if (query_num(s, sql, NULL, &hi, e))
		return -1;
	*v = (lo + hi) / 2;
	return 0;
}

static int
store_sex(struct hq_store *s, enum hq_sex *sex, struct hq_err *e)
{
	sqlite3_stmt *q;
	int rc;

	*sex = HQ_SEX_UNKNOWN;
	if (hq_store_prepare(s, "SELECT value FROM me WHERE key = ?1", &q, e))
		return -1;
	sqlite3_bind_text(q, 1, SEX_KEY, -1, SQLITE_STATIC);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		const char *v = (const char *)sqlite3_column_text(q, 0);
		if (v && strcmp(v, "HKBiologicalSexMale") == 0)
			*sex = HQ_SEX_MALE;
		else if (v && strcmp(v, "HKBiologicalSexFemale") == 0)
			*sex = HQ_SEX_FEMALE;
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		hq_err_set(e, "%s: reading Me: %s", hq_store_filename(s),
		    sqlite3_errmsg(hq_store_db(s)));
		return -1;
	}
	return 0;
}

/* "max_hr 180 (--max-hr)", "rest_hr 60 (default)" */
static void
origin(const struct hq_athlete *a, enum hq_athlete_key k, double v,
    char *buf, size_t n)
{
	const char *why = a->where[k][0] ? a->where[k] :
	    a->basis[k] == HQ_BASIS_STORE ? (k == HQ_ATH_MAX_HR ?
	    "the highest heart rate in a workout" : "the store") : "default";

	snprintf(buf, n, "%s %g (%s)", keyname[k], v, why);
}

int
hq_athlete_defaults(struct hq_athlete *a, struct hq_store *s,
    struct hq_err *e)
{
	char o1[160], o2[160], o3[160];
	double v = NAN;
	int all_kept = 0;

	if (!a->basis[HQ_ATH_SEX]) {
		enum hq_sex sex = HQ_SEX_UNKNOWN;
		if (s && store_sex(s, &sex, e))
			return -1;
		a->sex = sex;
		a->basis[HQ_ATH_SEX] = sex == HQ_SEX_UNKNOWN ? HQ_BASIS_DEFAULT :
		    HQ_BASIS_STORE;
	}
	if (!a->basis[HQ_ATH_MAX_HR] && s) {
		/* From the kept per-workout summaries when every workout has
		 * one (kept now if the store can be written), else from the
		 * samples. */
		all_kept = hq_athcache_max_hr(s, &v, e);
		if (all_kept == 0 && (all_kept = hq_athlete_fill_figures(s, e)) > 0)
			all_kept = hq_athcache_max_hr(s, &v, e);
		if (all_kept < 0)
			return -1;
	}
	if (!a->basis[HQ_ATH_MAX_HR] && s && !all_kept) {
		/* CROSS JOIN keeps the workouts outside: one range of the
		 * sample index each (else SQLite scans the workouts per sample).
		 * Only rates a setting could be (a file's 60,000 is none). */
		char sql[400];
		snprintf(sql, sizeof sql, "SELECT max(x.value) FROM workout w"
		    " CROSS JOIN sample x WHERE x.metric_id = (SELECT id FROM metric"
		    " WHERE identifier = ?1) AND x.start >= w.start"
		    " AND x.start < w.end AND x.text = ''"
		    " AND x.value BETWEEN %g AND %g", HR_LO, HR_HI);
		if (query_num(s, sql, HQ_HEART_RATE_ID, &v, e))
			return -1;
	}
	if (!a->basis[HQ_ATH_MAX_HR] && s && !isnan(v)) {
		a->max_hr = v;
		a->basis[HQ_ATH_MAX_HR] = HQ_BASIS_STORE;
	}
	if (!a->basis[HQ_ATH_REST_HR]) {
		v = NAN;
		if (s && median_rest(s, &v, e))
			return -1;
		a->rest_hr = isnan(v) ? 60 : v;
		a->basis[HQ_ATH_REST_HR] = isnan(v) ? HQ_BASIS_DEFAULT :
		    HQ_BASIS_STORE;
	}
	if (!a->basis[HQ_ATH_LTHR] && !isnan(a->max_hr)) {
		/* As sure as the less sure of the two it follows from: from
		 * the store's max_hr and rest_hr it is the store's. */
		a->lthr = a->rest_hr + 0.85 * (a->max_hr - a->rest_hr);
		a->basis[HQ_ATH_LTHR] = a->basis[HQ_ATH_MAX_HR] <
		    a->basis[HQ_ATH_REST_HR] ? a->basis[HQ_ATH_MAX_HR] :
		    a->basis[HQ_ATH_REST_HR];
	}
	if (!isnan(a->max_hr) && !(a->max_hr > a->rest_hr)) {
		origin(a, HQ_ATH_MAX_HR, a->max_hr, o1, sizeof o1);
		origin(a, HQ_ATH_REST_HR, a->rest_hr, o2, sizeof o2);
		hq_err_set(e, "%s is not above %s: set max_hr and rest_hr under "
		    "[athlete] in the config, or --max-hr and --rest-hr", o1, o2);
		return -1;
	}
	if (!isnan(a->lthr) && (!(a->lthr > a->rest_hr) ||
	    (!isnan(a->max_hr) && !(a->lthr < a->max_hr)))) {
		origin(a, HQ_ATH_LTHR, a->lthr, o1, sizeof o1);
		origin(a, HQ_ATH_REST_HR, a->rest_hr, o2, sizeof o2);
		origin(a, HQ_ATH_MAX_HR, a->max_hr, o3, sizeof o3);
		hq_err_set(e, "%s is not between %s and %s", o1, o2, o3);
		return -1;
	}
	if (!isnan(a->zones[0]) && !isnan(a->max_hr) &&
	    !(a->zones[0] > 0.5 * a->max_hr)) {
		origin(a, HQ_ATH_MAX_HR, a->max_hr, o1, sizeof o1);
		hq_err_set(e, "zones (%s): zone 2 from %g bpm is not above zone 1, "
		    "which starts at half of %s", a->where[HQ_ATH_ZONES],
		    a->zones[0], o1);
		return -1;
	}
	return 0;
}

void
hq_athlete_zone_edges(const struct hq_athlete *a, double lo[6])
{
	static const double pct[6] = { 0, 0.5, 0.6, 0.7, 0.8, 0.9 };

	for (int i = 0; i < 6; i++)
		lo[i] = isnan(a->max_hr) ? NAN : pct[i] * a->max_hr;
	if (!isnan(a->zones[0]))
		for (int i = 0; i < 4; i++)
			lo[i + 2] = a->zones[i];
	lo[0] = 0;
}
