/* Unit tests for lib/format/fit.c, the FIT decoder: every FIT file of
 * tests/fixtures/workouts against the facts that decoders independent of
 * hq measured (tests/fixtures/workouts/README.md: Garmin's SDK, fitdecode,
 * fit-file-parser, GPSBabel), record by record against python-fitparse's
 * tables, each file fed whole and in pieces of 1, 7 and 4096 bytes with the
 * same result; then files built here byte by byte for what no fixture
 * has: both byte orders, every base type's invalid value, compressed
 * timestamps rolling over, developer fields, misaligned sizes, and each
 * error with its offset. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hq/fit.h"
#include "hq/fitfile.h"
#include "fixture.h"
#include "tap.h"

#define NONE INT_MIN      /* a fact the README does not give */

/* ---- what a file decodes to -------------------------------------------- */

struct facts {
	long data, compressed, definitions_be, records, sessions, laps;
	long hr, power, power_nz, cadence, position;
	double hr_sum, hr_max, power_sum, power_max;
	long hr_invalid, power_invalid, cadence_invalid, lat_invalid;
	long misaligned;          /* fields of a size no multiple of their type */
	long timer_start, timer_stop, timer_stop_all, stop_auto;
	long dev_records, dev_ids, field_descs;
	long backward, repeated, untimed;
	int64_t first, last, prev;
	double lat_min, lat_max, lon_min, lon_max;
	struct hq_fit_file_id file_id;
	long file_ids;
	struct hq_fit_summary session[8];
	struct hq_fit_activity activity;
	long activities;
	unsigned long long hash;  /* every message, every field, every byte */
	/* records kept for the record tables */
	struct hq_fit_record rec[800];
	int64_t rec_raw_time[800];
	/* the result */
	int rc;
	long long err_off;
	char err[1024];
	int files;
	struct hq_fit_header header;
};

static void
fnv(unsigned long long *h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		*h ^= b[i];
		*h *= 1099511628211ULL;
	}
}

/* Present but invalid: the field is there, its value is not. */
static int
present_invalid(const struct hq_fit_msg *m, unsigned num)
{
	const struct hq_fit_field *f = hq_fit_find(m, num);
	int64_t v;

	return f && !hq_fit_int(f, 0, &v);
}

static int
collect(void *arg, const struct hq_fit_msg *m, struct hq_err *e)
{
	struct facts *x = arg;

	(void)e;
	x->data++;
	x->compressed += m->compressed;
	if (m->nfields && m->field[0].big_endian)
		x->definitions_be++;
	if (m->ndev)
		x->dev_records += m->global == HQ_FIT_RECORD;
	fnv(&x->hash, &m->global, sizeof m->global);
	fnv(&x->hash, &m->time, sizeof m->time);
	fnv(&x->hash, &m->offset, sizeof m->offset);
	fnv(&x->hash, &m->acc_distance, sizeof m->acc_distance);
	fnv(&x->hash, &m->file, sizeof m->file);
	for (int i = 0; i < m->nfields; i++) {
		const struct hq_fit_field *f = &m->field[i];
		fnv(&x->hash, &f->num, 1);
		fnv(&x->hash, &f->type, 1);
		fnv(&x->hash, &f->count, 1);
		fnv(&x->hash, f->raw, f->size);
		x->misaligned += f->count == 0 && f->size > 0;
	}
	switch (m->global) {
	case HQ_FIT_FILE_ID:
		if (x->file_ids++ == 0)
			hq_fit_file_id(m, &x->file_id);
		break;
	case HQ_FIT_SESSION:
		if (x->sessions < 8)
			hq_fit_session(m, &x->session[x->sessions]);
		x->sessions++;
		break;
	case HQ_FIT_LAP:
		x->laps++;
		break;
	case HQ_FIT_ACTIVITY:
		x->activities++;
		hq_fit_activity(m, &x->activity);
		break;
	case HQ_FIT_DEVELOPER_DATA_ID:
		x->dev_ids++;
		break;
	case HQ_FIT_FIELD_DESCRIPTION:
		x->field_descs++;
		break;
	case HQ_FIT_EVENT: {
		struct hq_fit_event ev;
		hq_fit_event(m, &ev);
		if (ev.event != HQ_FIT_EVENT_TIMER)
			break;
		x->timer_start += ev.event_type == HQ_FIT_START;
		x->timer_stop += ev.event_type == HQ_FIT_STOP;
		x->timer_stop_all += ev.event_type == HQ_FIT_STOP_ALL;
		x->stop_auto += hq_fit_event_timer(&ev) == 1 &&
		    ev.timer_trigger == 1;
		break;
	}
	case HQ_FIT_RECORD: {
		struct hq_fit_record r;
		hq_fit_record(m, &r);
		if (x->records < 800) {
			x->rec[x->records] = r;
			x->rec_raw_time[x->records] = r.time == HQ_FIT_NO_TIME ?
			    -1 : r.time - HQ_FIT_EPOCH;
		}
		if (r.time == HQ_FIT_NO_TIME) {
			x->untimed++;
		} else {
			if (x->records == 0 || x->first == HQ_FIT_NO_TIME)
				x->first = r.time;
			else if (r.time < x->prev)
				x->backward++;
			else if (r.time == x->prev)
				x->repeated++;
			x->prev = x->last = r.time;
		}
		x->records++;
		if (!isnan(r.heart_rate)) {
			x->hr++;
			x->hr_sum += r.heart_rate;
			if (r.heart_rate > x->hr_max)
				x->hr_max = r.heart_rate;
		}
		if (!isnan(r.power)) {
			x->power++;
			x->power_nz += r.power != 0;
			x->power_sum += r.power;
			if (r.power > x->power_max)
				x->power_max = r.power;
		}
		x->cadence += !isnan(r.cadence);
		if (!isnan(r.lat) && !isnan(r.lon)) {
			x->position++;
			if (x->position == 1) {
				x->lat_min = x->lat_max = r.lat;
				x->lon_min = x->lon_max = r.lon;
			}
			x->lat_min = fmin(x->lat_min, r.lat);
			x->lat_max = fmax(x->lat_max, r.lat);
			x->lon_min = fmin(x->lon_min, r.lon);
			x->lon_max = fmax(x->lon_max, r.lon);
		}
		x->hr_invalid += present_invalid(m, 3);
		x->power_invalid += present_invalid(m, 7);
		x->cadence_invalid += present_invalid(m, 4);
		x->lat_invalid += present_invalid(m, 0);
		break;
	}
	}
	return 0;
}

/* The file fed to a decoder in pieces of piece bytes (0: whole). */
static void
decode_buf(const unsigned char *buf, size_t len, size_t piece,
    struct facts *x)
{
	struct hq_fit *d;
	struct hq_err e = { "" };
	size_t at = 0;

	memset(x, 0, sizeof *x);
	x->first = x->last = x->prev = HQ_FIT_NO_TIME;
	x->hash = 14695981039346656037ULL;
	d = hq_fit_new(collect, x);
	x->rc = 0;
	if (piece == 0)
		piece = len;
	do {
		size_t n = len - at < piece ? len - at : piece;
		x->rc = hq_fit_feed(d, buf + at, n, &e);
		at += n;
	} while (x->rc == 0 && at < len);
	if (x->rc == 0)
		x->rc = hq_fit_end(d, &e);
	x->err_off = hq_fit_error_offset(d);
	snprintf(x->err, sizeof x->err, "%s", x->rc ? e.msg : "");
	x->files = hq_fit_files(d);
	if (hq_fit_header(d))
		x->header = *hq_fit_header(d);
	hq_fit_free(d);
}

static char *
slurp(const char *name, size_t *len)
{
	char *buf = fixture_slurp(fixture_path("workouts", name), len);

	if (!buf || *len >= (1 << 20) - 1) {
		printf("Bail out! cannot read %s (or it is over 1 MB)\n",
		    fixture_path("workouts", name));
		exit(1);
	}
	return buf;
}

/* The file decoded whole, then in pieces of 1, 7 and 4096 bytes: the same
 * messages, fields, bytes and outcome each time. */
static struct facts *
decode(const char *name)
{
	static const size_t pieces[] = { 1, 7, 4096 };
	struct facts *x = malloc(sizeof *x), *y = malloc(sizeof *y);
	size_t len;
	char *buf = slurp(name, &len);
	int same = 1;

	if (!x || !y)
		exit(1);
	decode_buf((unsigned char *)buf, len, 0, x);
	for (size_t i = 0; i < sizeof pieces / sizeof pieces[0]; i++) {
		decode_buf((unsigned char *)buf, len, pieces[i], y);
		if (y->hash != x->hash || y->data != x->data ||
		    y->rc != x->rc || y->err_off != x->err_off ||
		    strcmp(y->err, x->err) != 0) {
			same = 0;
			printf("# %s in pieces of %zu: %ld messages, %s\n", name,
			    pieces[i], y->data, y->err);
		}
	}
	ok(same, "%s: whole and in pieces of 1, 7, 4096 bytes, the same "
	    "%ld messages and outcome", name, x->data);
	free(y);
	free(buf);
	return x;
}

static const char *
iso(int64_t t)
{
	static char b[4][32];
	static int k;
	time_t tt = (time_t)t;
	struct tm tm;

	k = (k + 1) % 4;
	if (t == HQ_FIT_NO_TIME)
		return "none";
	gmtime_r(&tt, &tm);
	strftime(b[k], sizeof b[k], "%Y-%m-%dT%H:%M:%SZ", &tm);
	return b[k];
}

/* ---- the facts of the README ------------------------------------------ */

struct want {
	const char *file;
	int manufacturer, product;
	long long serial;                 /* -1: none */
	const char *created;
	int sessions, sport, sub_sport;   /* sub_sport -1: none */
	const char *start;
	double elapsed, timer, distance, ascent;     /* NAN: not given */
	double avg_hr, max_hr, avg_power;
	int laps;
	long records;
	const char *first, *last;
	long hr;
	double hr_mean, hr_max;
	long power;
	double power_mean, power_max, power_nz_mean;
	long power_nz, cadence, position;
	long timer_start, timer_stop, timer_stop_all;   /* NONE: not given */
	int local_offset_h;                              /* NONE */
};

#define N NAN
static const struct want wants[] = {
	{ "fitparse/garmin-fenix-5-run.fit", 1, 2697, 3945849289LL,
	  "2017-06-11T14:34:09Z", 1, 1, 0, "2017-06-11T14:34:09Z",
	  56.887, 56.887, 157.56, 2, 90, 112, N, 1, 21,
	  "2017-06-11T14:34:09Z", "2017-06-11T14:35:06Z",
	  21, 84.95, 112, 0, N, N, N, NONE, 21, 21, 1, NONE, 1, -7 },
	{ "fitparse/garmin-fenix-5-walk.fit", 1, 2697, 3945849289LL, NULL,
	  1, 11, 0, "2017-06-11T14:32:51Z", 45.379, 45.379, 67.85, 1,
	  N, N, N, 1, 17, NULL, NULL, 17, 75.35, 82, NONE, N, N, N, NONE,
	  17, 17, NONE, NONE, NONE, NONE },
	{ "fitparse/activity-small-fenix2-run.fit", 1, 1967, 3882015183LL,
	  NULL, 1, 1, -1, "2015-08-15T14:45:08Z", 2832, 2832, 9008.22, 64,
	  N, N, N, 4, 2809, "2015-08-15T14:45:08Z", "2015-08-15T15:32:21Z",
	  2808, 153.98, 178, 0, N, N, N, NONE, 2809, 2809, 1, NONE, 1,
	  NONE },
	{ "fitparse/Edge810-Vector-2013-08-16-15-35-10.fit", 1, 1567,
	  3866465233LL, NULL, 1, 2, 0, "2013-08-16T18:05:10Z", 4700.05,
	  4700.05, 41339.38, 514, 154, 176, 276, 8, 4700,
	  "2013-08-16T18:05:10Z", "2013-08-16T19:23:29Z", 4671, 153.86, 176,
	  4700, 275.49, 619, 294.87, 4391, 4634, 4700, NONE, NONE, NONE,
	  NONE },
	{ "fitparse/2019-02-17-062644-ELEMNT-297E-195-0.fit", 32, 28,
	  1231627776LL, "2019-02-17T08:48:09Z", 1, 2, -1,
	  "2019-02-17T06:26:44Z", 23595, 13471, 78940.55, 185, 124, 170, 102,
	  1, 13471, "2019-02-17T06:26:44Z", "2019-02-17T12:59:55Z", 13402,
	  124.19, 170, 13346, 102.63, 648, 142.38, 9620, 13345, 13348, 56,
	  56, 1, 8 },
	{ "fitparse/compressed-speed-distance.fit", 1, 1436, 1215347LL, NULL,
	  1, 1, NONE, NULL, 3883.273, 3772.75, 10248.67, N, 170, 190, N, 11,
	  755, NULL, NULL, 754, 170.52, 189, NONE, N, N, N, NONE, 753, 0, 1,
	  NONE, 2, NONE },
	{ "fitparse/developer-types-sample.fit", 95, -1, NONE, NULL, 1, 1, 0,
	  "2017-01-17T17:06:47Z", 3424, 3424, 6753.99, N, N, N, 218, 1, 3424,
	  NULL, NULL, 3424, 130.84, 146, 3424, 218.73, 314, N, NONE, NONE,
	  3424, NONE, NONE, NONE, NONE },
	{ "fitparse/DeveloperData.fit", 15, 9001, 1701, NULL, 0, NONE, NONE,
	  NULL, N, N, N, N, N, N, N, 0, 3, NULL, NULL, 3, 142.33, 144, NONE,
	  N, N, N, NONE, NONE, NONE, NONE, NONE, NONE, NONE },
	{ "fitparse/garmin-edge-500-activity.fit", 1, 1036, 3820987521LL,
	  NULL, 1, 2, -1, "2011-09-25T13:00:21Z", 12691.28, 10641.06,
	  92622.34, 541, 162, 189, N, 9, 10686, "2011-09-25T13:00:22Z",
	  "2011-09-25T16:31:53Z", 10686, 162.85, 189, 0, N, N, N, NONE,
	  10565, 10677, 47, NONE, 48, NONE },
	{ "fitparse/sample-activity-indoor-trainer.fit", 1, 1169,
	  3818583228LL, NULL, 1, 2, 0, "2011-11-02T12:54:19Z", 2261.85,
	  2261.85, 0, 4, 148, 176, 201, 5, 2263, "2011-11-02T12:54:19Z",
	  "2011-11-02T13:32:02Z", 2263, 147.75, 176, 2222, 201.42, 331,
	  204.18, NONE, NONE, 0, NONE, NONE, NONE, NONE },
	{ "fitparse/null_compressed_speed_dist.fit", 260, 0, NONE, NULL, 1, 2,
	  58, "2017-10-05T00:04:06Z", 1807, 1808, 13400.14, 92, 0, 0, 123, 1,
	  1808, "2017-10-05T00:04:07Z", "2017-10-05T00:34:14Z", 1808, 0, 0,
	  1808, 122.86, 691, 123.34, 1801, NONE, 1808, NONE, NONE, NONE,
	  NONE },
	{ "fit-parser/garmin-stamina.fit", 1, 4315, 3448026845LL, NULL, 1, 1,
	  0, "2026-05-14T04:05:59Z", 4487.819, 4487.819, 11232.7, 57, 143,
	  199, 229, 12, 4488, NULL, NULL, 4488, 142.69, 199, 4488, 229.32,
	  595, 273.93, 3757, NONE, 4488, NONE, NONE, NONE, 8 },
	{ "fitparse/sample_mulitple_header.fit", 1, 1765, 3915525118LL, NULL,
	  5, 5, 18, "2018-05-27T07:33:01Z", N, 1987.521, 1644.71, N, N, N, N,
	  5, 1773, NULL, NULL, 1430, 173.19, 187, NONE, N, N, N, NONE, NONE,
	  1462, NONE, NONE, NONE, NONE },
	{ "fitparse/activity-large-fenxi2-multisport.fit", 1, 1967,
	  3882015183LL, NULL, 7, 0, NONE, "2015-08-29T08:00:01Z", N, N, N, N,
	  N, N, N, 7, 24239, "2015-08-29T07:14:44Z", "2015-08-29T14:05:08Z",
	  24227, 146.32, 172, NONE, N, N, N, NONE, NONE, NONE, NONE, NONE,
	  NONE, NONE },
	{ "fitparse/coros-pace-2-cycling-misaligned-fields.fit", 294, 802, -1,
	  NULL, 1, 2, NONE, "2020-10-25T11:10:19Z", 12719, 11287, 32145.76,
	  938, N, 168, N, 4, 11272, NULL, NULL, 8946, 131.94, N, NONE, N, N,
	  N, NONE, NONE, 10305, NONE, NONE, NONE, NONE },
	{ "fitparse/Activity.fit", 15, 1, 2147483647LL, NULL, 1, 1, 0,
	  "2012-04-09T21:22:26Z", 13.749, 13.749, 5.73, N, N, N, N, NONE, 14,
	  NULL, NULL, 0, N, N, 0, N, N, N, NONE, NONE, 14, 1, NONE, 1, NONE },
};
#undef N

static void
check_facts(const struct want *w, const struct facts *x)
{
	const char *f = w->file;
	const struct hq_fit_summary *s = &x->session[0];

	is_int(x->rc, 0, "%s: decodes without error", f);
	if (x->rc)
		printf("#   %s\n", x->err);
	is_int(x->file_id.manufacturer, w->manufacturer, "%s: manufacturer",
	    f);
	is_int(x->file_id.product, w->product, "%s: product", f);
	if (w->serial != NONE)
		is_int(x->file_id.serial, w->serial, "%s: serial number", f);
	if (w->created)
		is_str(iso(x->file_id.time_created), w->created,
		    "%s: time_created", f);
	is_int(x->sessions, w->sessions, "%s: sessions", f);
	if (w->sessions > 0) {
		if (w->sport != NONE)
			is_int(s->sport, w->sport, "%s: sport", f);
		if (w->sub_sport != NONE)
			is_int(s->sub_sport, w->sub_sport, "%s: sub_sport", f);
		if (w->start)
			is_str(iso(s->start_time), w->start, "%s: start", f);
	}
	if (!isnan(w->elapsed))
		is_dbl(s->total_elapsed_time, w->elapsed, 0.0005,
		    "%s: elapsed time", f);
	if (!isnan(w->timer))
		is_dbl(s->total_timer_time, w->timer, 0.0005, "%s: timer time",
		    f);
	if (!isnan(w->distance))
		is_dbl(s->total_distance, w->distance, 0.005, "%s: distance", f);
	if (!isnan(w->ascent))
		is_dbl(s->total_ascent, w->ascent, 0, "%s: ascent", f);
	if (!isnan(w->avg_hr))
		is_dbl(s->avg_heart_rate, w->avg_hr, 0, "%s: session avg HR", f);
	if (!isnan(w->max_hr))
		is_dbl(s->max_heart_rate, w->max_hr, 0, "%s: session max HR", f);
	if (!isnan(w->avg_power))
		is_dbl(s->avg_power, w->avg_power, 0, "%s: session avg power",
		    f);
	if (w->laps != NONE)
		is_int(x->laps, w->laps, "%s: laps", f);
	is_int(x->records, w->records, "%s: records", f);
	if (w->first)
		is_str(iso(x->first), w->first, "%s: first record", f);
	if (w->last)
		is_str(iso(x->last), w->last, "%s: last record", f);
	is_int(x->hr, w->hr, "%s: records with HR", f);
	if (!isnan(w->hr_mean))
		is_dbl(x->hr ? x->hr_sum / x->hr : NAN, w->hr_mean, 0.005,
		    "%s: HR mean", f);
	if (!isnan(w->hr_max))
		is_dbl(x->hr_max, w->hr_max, 0, "%s: HR max", f);
	if (w->power != NONE)
		is_int(x->power, w->power, "%s: records with power", f);
	if (!isnan(w->power_mean))
		is_dbl(x->power_sum / x->power, w->power_mean, 0.005,
		    "%s: power mean", f);
	if (!isnan(w->power_max))
		is_dbl(x->power_max, w->power_max, 0, "%s: power max", f);
	if (!isnan(w->power_nz_mean))
		is_dbl(x->power_sum / x->power_nz, w->power_nz_mean, 0.005,
		    "%s: power mean, non-zero only (GPSBabel's)", f);
	if (w->power_nz != NONE)
		is_int(x->power_nz, w->power_nz, "%s: non-zero power (GPSBabel's"
		    " count)", f);
	if (w->cadence != NONE)
		is_int(x->cadence, w->cadence, "%s: records with cadence", f);
	if (w->position != NONE)
		is_int(x->position, w->position, "%s: records with a position",
		    f);
	if (w->timer_start != NONE)
		is_int(x->timer_start, w->timer_start, "%s: timer starts", f);
	if (w->timer_stop != NONE)
		is_int(x->timer_stop, w->timer_stop, "%s: timer stops", f);
	if (w->timer_stop_all != NONE)
		is_int(x->timer_stop_all, w->timer_stop_all,
		    "%s: timer stop_all", f);
	if (w->local_offset_h != NONE)
		is_int(x->activity.local_timestamp - x->activity.time,
		    w->local_offset_h * 3600, "%s: activity local offset", f);
}

/* ---- record tables -------------------------------------------------------- */

/* The next CSV field of *p (cut in place), or NULL. */
static char *
csv_field(char **p)
{
	char *s = *p, *c;

	if (!s)
		return NULL;
	while (*s == ' ')
		s++;
	c = strchr(s, ',');
	if (c) {
		*c = '\0';
		*p = c + 1;
	} else {
		s[strcspn(s, "\r\n")] = '\0';
		*p = NULL;
	}
	return s;
}

/* A number of the table or NAN for "null". */
static double
csv_num(char **p)
{
	char *s = csv_field(p), *end;
	double v;

	if (!s || strcmp(s, "null") == 0 || !*s)
		return NAN;
	v = strtod(s, &end);
	return *end ? NAN : v;
}

static int
same_num(double got, double want, double eps)
{
	return isnan(want) ? isnan(got) : fabs(got - want) <= eps;
}

/* compressed-speed-distance-records.csv: timestamp (raw), HR, speed,
 * distance, cadence of records 2..755 (the first has no HR). */
static void
check_compressed_table(const struct facts *x)
{
	size_t len;
	char *buf = slurp("fitparse/compressed-speed-distance-records.csv",
	    &len), *line, *save = NULL;
	long rows = 0, bad = 0;

	strtok_r(buf, "\n", &save);    /* the header */
	while ((line = strtok_r(NULL, "\n", &save))) {
		const struct hq_fit_record *r;
		double ts = csv_num(&line), hr = csv_num(&line),
		    speed = csv_num(&line), dist = csv_num(&line),
		    cad = csv_num(&line);

		rows++;
		if (rows >= x->records || rows >= 800) {
			bad++;
			continue;
		}
		r = &x->rec[rows];
		if (x->rec_raw_time[rows] != (int64_t)ts ||
		    !same_num(r->heart_rate, hr, 0) ||
		    !same_num(r->speed, speed, 0.0005) ||
		    !same_num(r->distance, dist, 0.00005) ||
		    !same_num(r->cadence, cad, 0)) {
			if (bad++ < 3)
				printf("# row %ld: %.0f %g %g %g %g; got %lld %g "
				    "%g %g %g\n", rows, ts, hr, speed, dist, cad,
				    (long long)x->rec_raw_time[rows],
				    r->heart_rate, r->speed, r->distance,
				    r->cadence);
		}
	}
	is_int(rows, 754, "compressed-speed-distance: the table has 754 rows");
	is_int(bad, 0, "compressed-speed-distance: records 2-755 match "
	    "python-fitparse's table (raw time from compressed headers, HR, "
	    "speed and accumulated distance from compressed_speed_distance, "
	    "cadence)");
	is_dbl(x->rec[x->records - 1].distance, 10248.6875, 0,
	    "compressed-speed-distance: last distance 10248.6875 m, "
	    "accumulated over 12-bit rollovers");
	free(buf);
}

/* garmin-fenix-5-run-records.csv: HR, cadence, speed, distance, lat and
 * long (semicircles), altitude, temperature of all 21 records. */
static void
check_fenix_table(const struct facts *x)
{
	size_t len;
	char *buf = slurp("fitparse/garmin-fenix-5-run-records.csv", &len),
	    *line, *save = NULL;
	long rows = 0, bad = 0;

	strtok_r(buf, "\n", &save);
	while ((line = strtok_r(NULL, "\n", &save))) {
		const struct hq_fit_record *r = &x->rec[rows];

		csv_field(&line);      /* a local time, read elsewhere */
		double hr = csv_num(&line), cad = csv_num(&line),
		    speed = csv_num(&line), dist = csv_num(&line),
		    lat = csv_num(&line), lon = csv_num(&line),
		    alt = csv_num(&line), temp = csv_num(&line);

		if (rows++ >= x->records) {
			bad++;
			continue;
		}
		if (!same_num(r->heart_rate, hr, 0) ||
		    !same_num(r->cadence, cad, 0) ||
		    !same_num(r->speed, speed, 0.0005) ||
		    !same_num(r->distance, dist, 0.005) ||
		    !same_num(r->lat, lat * 180 / 2147483648.0, 1e-9) ||
		    !same_num(r->lon, lon * 180 / 2147483648.0, 1e-9) ||
		    !same_num(r->altitude, alt, 1e-9) ||
		    !same_num(r->temperature, temp, 0)) {
			if (bad++ < 3)
				printf("# row %ld differs: got %g %g %g %g %.9f "
				    "%.9f %g %g\n", rows, r->heart_rate,
				    r->cadence, r->speed, r->distance, r->lat,
				    r->lon, r->altitude, r->temperature);
		}
	}
	is_int(rows, 21, "fenix-5-run: the table has 21 rows");
	is_int(bad, 0, "fenix-5-run: every record matches python-fitparse's "
	    "table (HR, cadence, speed, distance, semicircles, altitude with "
	    "scale 5 offset 500, temperature)");
	free(buf);
}

/* ---- each real file's own traps ---------------------------------------- */

static void
test_fixtures(void)
{
	struct facts *x;

	for (size_t i = 0; i < sizeof wants / sizeof wants[0]; i++) {
		const struct want *w = &wants[i];

		x = decode(w->file);
		check_facts(w, x);

		if (strstr(w->file, "fenix-5-run")) {
			is_int(x->header.size, 14, "fenix-5-run: 14-byte header");
			is_int(x->header.protocol, 0x10, "fenix-5-run: protocol "
			    "1.0");
			check_fenix_table(x);
		} else if (strstr(w->file, "fenix2-run")) {
			is_int(x->hr_invalid, 1, "fenix2-run: 1 HR present but "
			    "invalid (0xFF)");
		} else if (strstr(w->file, "ELEMNT")) {
			is_int(x->definitions_be, x->data, "ELEMNT: every "
			    "message big-endian");
			is_int(x->dev_ids, 5, "ELEMNT: 5 developer data ids");
			is_int(x->stop_auto, 52, "ELEMNT: 52 timer stops with "
			    "trigger auto");
			is_int(x->power_invalid, 83, "ELEMNT: 83 power present "
			    "but invalid");
			is_int(x->cadence_invalid, 84, "ELEMNT: 84 cadence "
			    "present but invalid");
			is_int(x->lat_invalid, 54, "ELEMNT: 54 latitudes present "
			    "but invalid");
		} else if (strstr(w->file, "compressed-speed")) {
			is_int(x->header.size, 12, "compressed: 12-byte header");
			is_int(x->data, 780, "compressed: 780 data messages");
			is_int(x->compressed, 755, "compressed: 755 with a "
			    "compressed-timestamp header");
			is_int(x->rec_raw_time[0], 17217864, "compressed: first "
			    "raw timestamp 17217864");
			is_int(x->last - HQ_FIT_EPOCH, 17221744, "compressed: "
			    "last raw timestamp 17221744");
			is_int(x->backward, 0, "compressed: no timestamp goes "
			    "backwards");
			ok(hq_fit_time_relative(x->first) &&
			    hq_fit_time_relative(x->session[0].start_time),
			    "compressed: its times are device-relative "
			    "(< 0x10000000)");
			is_int(x->session[0].start_time - HQ_FIT_EPOCH, 17217864,
			    "compressed: session start raw 17217864");
			check_compressed_table(x);
		} else if (strstr(w->file, "developer-types")) {
			is_int(x->dev_ids, 1, "developer-types: 1 developer "
			    "data id");
			is_int(x->field_descs, 4, "developer-types: 4 field "
			    "descriptions");
			is_int(x->dev_records, 3424, "developer-types: 3424 "
			    "records carry developer fields, skipped");
		} else if (strstr(w->file, "DeveloperData")) {
			is_int(x->field_descs, 1, "DeveloperData: 1 field "
			    "description");
			is_int(x->untimed, 3, "DeveloperData: 3 records without "
			    "timestamps");
			is_int(x->dev_records, 3, "DeveloperData: developer "
			    "fields skipped in 3 records");
		} else if (strstr(w->file, "edge-500")) {
			is_int(x->repeated, 15, "edge-500: 15 repeated "
			    "timestamps");
			is_int(x->stop_auto, 47, "edge-500: 47 stop_all with "
			    "trigger auto");
		} else if (strstr(w->file, "indoor-trainer")) {
			is_int(x->power_invalid, 33, "indoor: 33 power present "
			    "but invalid");
		} else if (strstr(w->file, "null_compressed")) {
			ok(x->lat_min >= 51.4845 && x->lat_max < 51.5115 &&
			    x->lon_min >= -0.1645 && x->lon_max < -0.0775,
			    "Zwift: positions within lat 51.485-51.511, lon "
			    "-0.164 to -0.078 (%.4f-%.4f, %.4f to %.4f)",
			    x->lat_min, x->lat_max, x->lon_min, x->lon_max);
			is_int(x->session[0].total_timer_time >
			    x->session[0].total_elapsed_time, 1,
			    "Zwift: timer above elapsed, as written");
		} else if (strstr(w->file, "stamina")) {
			is_int(x->header.profile_major, 21, "stamina: profile "
			    "21.184 (major)");
			is_int(x->header.profile_minor, 184, "stamina: profile "
			    "21.184 (minor)");
		} else if (strstr(w->file, "mulitple_header")) {
			static const struct {
				int sport, sub;
				const char *start;
				double timer, dist;
			} legs[5] = {
				{ 5, 18, "2018-05-27T07:33:01Z", 1987.521, 1644.71 },
				{ 3, NONE, "2018-05-27T08:06:08Z", 170.269, 141.7 },
				{ 2, NONE, "2018-05-27T08:08:58Z", 4422.14, 40909.42 },
				{ 3, NONE, "2018-05-27T09:22:40Z", 60.724, 31.93 },
				{ 1, NONE, "2018-05-27T09:23:41Z", 2850.694, 9805.92 },
			};
			int good = 1;
			for (int k = 0; k < 5; k++) {
				const struct hq_fit_summary *s = &x->session[k];
				good &= s->sport == legs[k].sport &&
				    (legs[k].sub == NONE ||
				    s->sub_sport == legs[k].sub) &&
				    strcmp(iso(s->start_time), legs[k].start) == 0 &&
				    fabs(s->total_timer_time - legs[k].timer) < 5e-4 &&
				    fabs(s->total_distance - legs[k].dist) < 5e-3;
			}
			ok(good, "multiple header: the 5 legs' sport, start, "
			    "timer and distance");
			is_int(x->files, 4, "multiple header: 4 chained files");
			is_int(x->data, 3023, "multiple header: 3023 data "
			    "messages");
			is_int(x->activity.type, 1, "multiple header: activity "
			    "auto_multi_sport");
			is_int(x->activity.num_sessions, 5, "multiple header: "
			    "num_sessions 5");
		} else if (strstr(w->file, "fenxi2-multisport")) {
			static const int sports[7] = { 0, 3, 1, 3, 1, 3, 2 };
			int good = 1;
			for (int k = 0; k < 7; k++)
				good &= x->session[k].sport == sports[k];
			ok(good, "fenix2 multisport: the 7 sessions' sports");
			is_int(x->backward, 2, "fenix2 multisport: timestamps go "
			    "backwards twice");
			is_int(x->repeated, 6, "fenix2 multisport: 6 repeated "
			    "timestamps");
		} else if (strstr(w->file, "coros")) {
			ok(x->misaligned > 0, "coros: fields of a size no "
			    "multiple of their type read as bytes (%ld), the "
			    "file decoded", x->misaligned);
			is_int(x->hr_invalid, 1614, "coros: 1614 HR present but "
			    "invalid");
			is_int(x->lat_invalid, 881, "coros: 881 latitudes "
			    "present but invalid");
		} else if (!strcmp(w->file, "fitparse/Activity.fit")) {
			is_int(x->header.size, 12, "Activity.fit: 12-byte header");
			is_int(x->definitions_be, x->data, "Activity.fit: every "
			    "message big-endian");
		}
		free(x);
	}
}

/* The broken files fail whole, with the byte the reference decoders name;
 * what came out before the error is what they decoded. */
static void
test_broken(void)
{
	struct facts *x;

	x = decode("fitparse/strava-android-app-201.10-b1218918.fit");
	is_int(x->rc, -1, "strava: fails");
	is_int(x->err_off, 7471, "strava: at byte 7471");
	like(x->err, "^byte 7471: local message type 11 has no definition",
	    "strava: undefined local message 11");
	is_int(x->records, 473, "strava: 473 records before the error");
	is_int(x->file_id.manufacturer, 265, "strava: manufacturer strava");
	is_int(x->file_id.product, 102, "strava: product 102");
	is_dbl(x->session[0].total_timer_time, 3558, 0, "strava: timer 3558");
	is_dbl(x->session[0].total_distance, 11274.04, 0.005,
	    "strava: distance 11274.04");
	like(iso(x->last), "^2085-12-21", "strava: the last record decoded "
	    "carries the nonsense time the SDK reports");
	free(x);

	x = decode("fitparse/nick.fit");
	is_int(x->rc, -1, "nick: fails");
	is_int(x->err_off, 403456, "nick: at the end, byte 403456");
	like(x->err, "ends inside a data message", "nick: unterminated");
	is_int(x->records, 14391, "nick: 14391 whole records before");
	is_str(iso(x->first), "2020-09-12T12:23:38Z", "nick: first record");
	is_str(iso(x->last), "2020-09-12T17:02:21Z", "nick: last record");
	is_dbl(x->hr_sum / x->hr, 142.70, 0.05, "nick: HR mean 142.7");
	is_dbl(x->hr_max, 160, 0, "nick: HR max 160");
	is_int(x->timer_start, 9, "nick: 9 timer starts");
	is_int(x->timer_stop, 8, "nick: 8 timer stops");
	is_int(x->file_id.manufacturer, 70, "nick: sigmasport");
	is_int(x->file_id.product, 46, "nick: product 46");
	ok(x->power == x->records && x->power_sum == 0 && x->power_max == 0,
	    "nick: power in every record, always 0");
	free(x);

	x = decode("fitparse/activity-filecrc.fit");
	is_int(x->rc, -1, "filecrc: fails");
	is_int(x->err_off, 769, "filecrc: at the CRC, byte 769");
	like(x->err, "file CRC mismatch \\(stored 0xB1D5, computed 0xA1D5\\)",
	    "filecrc: stored 45525, computed 41429 (fitdecode's figures)");
	is_int(x->records, 14, "filecrc: the 14 records came before");
	free(x);

	x = decode("fitparse/activity-unexpected-eof.fit");
	is_int(x->rc, -1, "unexpected-eof: fails");
	is_int(x->err_off, 768, "unexpected-eof: at byte 768");
	like(x->err, "truncated", "unexpected-eof: truncated");
	is_int(x->records, 14, "unexpected-eof: all 14 records before");
	free(x);

	x = decode("fitparse/activity-settings-corruptheader.fit");
	is_int(x->rc, -1, "corruptheader: fails");
	is_int(x->err_off, 771, "corruptheader: at byte 771");
	like(x->err, "^byte 771: not a FIT file header",
	    "corruptheader: the second header is not FIT");
	is_int(x->records, 14, "corruptheader: the first file's 14 records");
	is_int(x->files, 1, "corruptheader: one good header");
	free(x);
}

/* ---- files built here ------------------------------------------------- */

/* A FIT file of hsize (12 or 14) around n bytes of records, its CRCs
 * computed (a 14-byte header's own CRC as hcrc says: -1 computed). */
static size_t
build(unsigned char *out, int hsize, int hcrc, const void *recs, size_t n)
{
	uint16_t crc;

	memset(out, 0, 14);
	out[0] = (unsigned char)hsize;
	out[1] = 0x20;
	out[2] = 0x34;     /* profile 2100: 21.00 */
	out[3] = 0x08;
	out[4] = (unsigned char)n;
	out[5] = (unsigned char)(n >> 8);
	memcpy(out + 8, ".FIT", 4);
	if (hsize == 14) {
		crc = hcrc < 0 ? hq_fit_crc(0, out, 12) : (uint16_t)hcrc;
		out[12] = (unsigned char)crc;
		out[13] = (unsigned char)(crc >> 8);
	}
	memcpy(out + hsize, recs, n);
	crc = hq_fit_crc(0, out, hsize + n);
	out[hsize + n] = (unsigned char)crc;
	out[hsize + n + 1] = (unsigned char)(crc >> 8);
	return hsize + n + 2;
}

/* Messages of a built file, kept whole for checks. */
struct got {
	int n;
	struct {
		int global, compressed, nfields, ndev;
		int64_t time;
		long long offset;
		struct hq_fit_field f[8];
		unsigned char raw[8][16];
	} m[16];
	int stop_at;       /* fail at this message (1-based), 0: never */
};

static int
keep(void *arg, const struct hq_fit_msg *m, struct hq_err *e)
{
	struct got *g = arg;

	if (g->n < 16) {
		g->m[g->n].global = m->global;
		g->m[g->n].compressed = m->compressed;
		g->m[g->n].nfields = m->nfields;
		g->m[g->n].ndev = m->ndev;
		g->m[g->n].time = m->time;
		g->m[g->n].offset = m->offset;
		for (int i = 0; i < m->nfields && i < 8; i++) {
			g->m[g->n].f[i] = m->field[i];
			memcpy(g->m[g->n].raw[i], m->field[i].raw,
			    m->field[i].size < 16 ? m->field[i].size : 16);
			g->m[g->n].f[i].raw = g->m[g->n].raw[i];
		}
	}
	g->n++;
	if (g->stop_at && g->n == g->stop_at) {
		hq_err_set(e, "the callback says stop");
		return -1;
	}
	return 0;
}

/* Decode a built file whole: 0 or -1, with e and the error's offset. */
static int
run(const unsigned char *p, size_t n, struct got *g, struct hq_err *e,
    long long *at)
{
	struct hq_fit *d = hq_fit_new(keep, g);
	int rc = hq_fit_feed(d, p, n, e);

	if (rc == 0)
		rc = hq_fit_end(d, e);
	*at = hq_fit_error_offset(d);
	hq_fit_free(d);
	return rc;
}

static void
test_crc(void)
{
	is_int(hq_fit_crc(0, "123456789", 9), 0xBB3D,
	    "CRC(\"123456789\") = 0xBB3D (the SDK's calculator)");
	is_int(hq_fit_crc(hq_fit_crc(0, "1234", 4), "56789", 5), 0xBB3D,
	    "the CRC continues across pieces");
}

static void
test_byte_orders(void)
{
	/* record (20): timestamp uint32, heart_rate uint8, power uint16,
	 * altitude uint16; the same values in both byte orders */
	static const unsigned char le[] = {
		0x40, 0, 0, 20, 0, 4, 253, 4, 0x86, 3, 1, 0x02, 7, 2, 0x84,
		2, 2, 0x84,
		0x00, 0x10, 0x20, 0x30, 0x40, 150, 0x2C, 0x01, 0xC4, 0x09,
	};
	static const unsigned char be[] = {
		0x40, 0, 1, 0, 20, 4, 253, 4, 0x86, 3, 1, 0x02, 7, 2, 0x84,
		2, 2, 0x84,
		0x00, 0x40, 0x30, 0x20, 0x10, 150, 0x01, 0x2C, 0x09, 0xC4,
	};
	unsigned char file[128];
	struct got a = { 0 }, b = { 0 };
	struct hq_err e;
	long long at;
	int rc;

	rc = run(file, build(file, 14, -1, le, sizeof le), &a, &e, &at);
	is_int(rc, 0, "little-endian definition: decodes");
	rc = run(file, build(file, 14, -1, be, sizeof be), &b, &e, &at);
	is_int(rc, 0, "big-endian definition: decodes");
	is_int(a.n, 1, "one message");
	is_int(b.m[0].global, 20, "big-endian: global number 20");
	is_int(a.m[0].time, 0x40302010LL + HQ_FIT_EPOCH,
	    "little-endian: timestamp");
	is_int(b.m[0].time, a.m[0].time, "big-endian: the same timestamp");
	double p1, p2, alt;
	hq_fit_value(&a.m[0].f[2], 0, &p1);
	hq_fit_value(&b.m[0].f[2], 0, &p2);
	is_dbl(p1, 300, 0, "little-endian: power 300");
	is_dbl(p2, 300, 0, "big-endian: power 300");
	hq_fit_value(&b.m[0].f[3], 0, &alt);
	is_dbl(alt / 5 - 500, 0, 0, "altitude 2500 raw: 0 m (scale 5, "
	    "offset 500)");
}

/* One field of each base type holding its invalid value, then a valid
 * one: only the second has a value. */
static void
test_invalid_values(void)
{
	static const struct {
		unsigned char type, size;
		unsigned char invalid[8], valid[8];
		double value;
	} t[] = {
		{ 0x00, 1, { 0xFF }, { 3 }, 3 },
		{ 0x01, 1, { 0x7F }, { 0x80 }, -128 },
		{ 0x02, 1, { 0xFF }, { 0 }, 0 },
		{ 0x83, 2, { 0xFF, 0x7F }, { 0xFE, 0xFF }, -2 },
		{ 0x84, 2, { 0xFF, 0xFF }, { 0xFE, 0xFF }, 65534 },
		{ 0x85, 4, { 0xFF, 0xFF, 0xFF, 0x7F }, { 0xFF, 0xFF, 0xFF,
		  0xFF }, -1 },
		{ 0x86, 4, { 0xFF, 0xFF, 0xFF, 0xFF }, { 0, 0, 0, 0 }, 0 },
		{ 0x88, 4, { 0xFF, 0xFF, 0xFF, 0xFF }, { 0, 0, 0xC0, 0x3F },
		  1.5 },
		{ 0x89, 8, { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF },
		  { 0, 0, 0, 0, 0, 0, 0x04, 0xC0 }, -2.5 },
		{ 0x0A, 1, { 0 }, { 0xFF }, 255 },
		{ 0x8B, 2, { 0, 0 }, { 0xFF, 0xFF }, 65535 },
		{ 0x8C, 4, { 0, 0, 0, 0 }, { 1, 0, 0, 0 }, 1 },
		{ 0x0D, 1, { 0xFF }, { 0x00 }, 0 },
		{ 0x8E, 8, { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F },
		  { 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF }, -2 },
		{ 0x8F, 8, { 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF },
		  { 7 }, 7 },
		{ 0x90, 8, { 0 }, { 9 }, 9 },
	};
	int good = 0;

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		unsigned char recs[64], file[128];
		size_t n = 0;
		struct got g = { 0 };
		struct hq_err e;
		long long at;
		double v = NAN;

		recs[n++] = 0x40;
		recs[n++] = 0;
		recs[n++] = 0;
		recs[n++] = 0xFF;     /* global 0xFF00+: unknown to hq */
		recs[n++] = 0xFF;
		recs[n++] = 2;
		recs[n++] = 1;
		recs[n++] = t[i].size;
		recs[n++] = t[i].type;
		recs[n++] = 2;
		recs[n++] = t[i].size;
		recs[n++] = t[i].type;
		recs[n++] = 0;
		memcpy(recs + n, t[i].invalid, t[i].size);
		n += t[i].size;
		memcpy(recs + n, t[i].valid, t[i].size);
		n += t[i].size;
		if (run(file, build(file, 12, 0, recs, n), &g, &e, &at) == 0 &&
		    g.n == 1 && !hq_fit_value(&g.m[0].f[0], 0, &v) &&
		    hq_fit_value(&g.m[0].f[1], 0, &v) && v == t[i].value)
			good++;
		else
			printf("# type 0x%02X: got %g\n", t[i].type, v);
	}
	is_int(good, (int)(sizeof t / sizeof t[0]), "every base type: its "
	    "invalid value is no value, the next is read");
}

static void
test_compressed_times(void)
{
	/* an event with timestamp 1000 (low 5 bits 8), then compressed
	 * records with offsets 10 (-> 1002), 2 (rollover -> 1026), 2
	 * (-> 1026 again), 31 (-> 1055) */
	static const unsigned char recs[] = {
		0x40, 0, 0, 21, 0, 1, 253, 4, 0x86,
		0x00, 0xE8, 0x03, 0, 0,
		0x41, 0, 0, 20, 0, 1, 3, 1, 0x02,
		0x80 | 1 << 5 | 10, 100,
		0x80 | 1 << 5 | 2, 101,
		0x80 | 1 << 5 | 2, 102,
		0x80 | 1 << 5 | 31, 103,
	};
	static const int64_t want[] = { 1000, 1002, 1026, 1026, 1055 };
	unsigned char file[128];
	struct got g = { 0 };
	struct hq_err e;
	long long at;
	int good = 1;

	is_int(run(file, build(file, 14, 0, recs, sizeof recs), &g, &e, &at),
	    0, "compressed timestamps: decodes (header CRC 0: not computed)");
	is_int(g.n, 5, "compressed timestamps: 5 messages");
	for (int i = 0; i < 5; i++)
		good &= g.m[i].time == want[i] + HQ_FIT_EPOCH &&
		    g.m[i].compressed == (i > 0);
	ok(good, "compressed timestamps: 1000, then +2, rollover to 1026, "
	    "the same again, 1055");
	ok(hq_fit_time_relative(g.m[0].time), "1000 s is device-relative");
	ok(!hq_fit_time_relative(HQ_FIT_EPOCH + 0x10000000),
	    "0x10000000 is a date");
}

static void
test_developer_and_sizes(void)
{
	/* a definition with developer fields (2: sizes 3 and 5), then a
	 * uint32 field of size 1 (misaligned, as Coros writes) and a
	 * uint16 array of 3 */
	static const unsigned char recs[] = {
		0x60, 0, 0, 20, 0, 3, 3, 1, 0x02, 99, 1, 0x86, 98, 6, 0x84,
		2, 0, 3, 0, 1, 5, 0,
		0x00, 140, 0x07, 1, 0, 0xFF, 0xFF, 3, 0,
		0xAA, 0xBB, 0xCC, 1, 2, 3, 4, 5,
		0x40, 0, 0, 20, 0, 1, 3, 1, 0x02,
		0x00, 141,
	};
	unsigned char file[128];
	struct got g = { 0 };
	struct hq_err e;
	long long at;
	double v;
	int64_t iv;

	is_int(run(file, build(file, 14, -1, recs, sizeof recs), &g, &e, &at),
	    0, "developer fields and odd sizes: decodes");
	is_int(g.n, 2, "two messages: the developer bytes were skipped by "
	    "their sizes");
	is_int(g.m[0].ndev, 2, "the first carried 2 developer fields");
	ok(hq_fit_value(&g.m[0].f[0], 0, &v) && v == 140, "HR 140 read "
	    "before them");
	is_int(g.m[0].f[1].count, 0, "uint32 of size 1: no values");
	ok(!hq_fit_int(&g.m[0].f[1], 0, &iv), "uint32 of size 1: invalid, "
	    "as the SDK reads it");
	is_int(g.m[0].f[2].count, 3, "uint16 of 6 bytes: an array of 3");
	ok(hq_fit_value(&g.m[0].f[2], 0, &v) && v == 1 &&
	    !hq_fit_value(&g.m[0].f[2], 1, &v) &&
	    hq_fit_value(&g.m[0].f[2], 2, &v) && v == 3 &&
	    !hq_fit_value(&g.m[0].f[2], 3, &v),
	    "array: 1, invalid, 3, nothing past the end");
	ok(hq_fit_value(&g.m[1].f[0], 0, &v) && v == 141, "the next message "
	    "after the skipped bytes: HR 141");
}

static void
test_strings_and_helpers(void)
{
	/* file_id: type, manufacturer, product, serial (uint32z 0: none),
	 * product_name "Edge\0\0" */
	static const unsigned char recs[] = {
		0x40, 0, 0, 0, 0, 5, 0, 1, 0x00, 1, 2, 0x84, 2, 2, 0x84,
		3, 4, 0x8C, 8, 6, 0x07,
		0x00, 4, 32, 0, 28, 0, 0, 0, 0, 0, 'E', 'd', 'g', 'e', 0, 0,
	};
	unsigned char file[128];
	struct hq_fit_file_id fid;
	struct got g = { 0 };
	struct hq_err e;
	long long at;
	char small[3];

	is_int(run(file, build(file, 12, 0, recs, sizeof recs), &g, &e, &at),
	    0, "file_id: decodes");
	/* rebuild a message view over what was kept */
	struct hq_fit_msg m = { 0 };
	uint8_t idx[256] = { 0 };
	for (int i = 0; i < g.m[0].nfields; i++)
		idx[g.m[0].f[i].num] = (uint8_t)(i + 1);
	m.global = 0;
	m.nfields = g.m[0].nfields;
	m.field = g.m[0].f;
	m.at = idx;
	is_int(hq_fit_file_id(&m, &fid), 0, "file_id: read");
	is_int(fid.type, 4, "file_id: activity");
	is_int(fid.manufacturer, 32, "file_id: wahoo_fitness");
	is_int(fid.product, 28, "file_id: product 28");
	is_int(fid.serial, -1, "file_id: serial 0 is uint32z's invalid");
	is_str(fid.product_name, "Edge", "file_id: product_name up to NUL");
	is_int(hq_fit_str(&m, 8, small, sizeof small), 2, "a string cut "
	    "to the buffer");
	is_str(small, "Ed", "a string cut, NUL-terminated");
	struct hq_fit_record r;
	is_int(hq_fit_record(&m, &r), -1, "a file_id is no record");
	is_str(hq_fit_sport_name(1), "running", "sport 1 running");
	is_str(hq_fit_sub_sport_name(58), "virtual_activity",
	    "sub_sport 58 virtual_activity");
	is_str(hq_fit_manufacturer_name(294), "coros", "manufacturer 294");
	ok(hq_fit_manufacturer_name(9999) == NULL, "an unknown "
	    "manufacturer has no name");
	is_dbl(hq_fit_degrees(1073741824), 90, 0, "2^30 semicircles: 90 deg");
	ok(hq_fit_sniff(file, 12) && !hq_fit_sniff(file, 11) &&
	    !hq_fit_sniff((const unsigned char *)"{\"a\":1}...........", 19),
	    "sniff: a FIT header, not a short or JSON one");
}

/* Each error with its byte. */
static void
test_errors(void)
{
	static const unsigned char def_hr[] = {
		0x40, 0, 0, 20, 0, 1, 3, 1, 0x02, 0x00, 100,
	};
	unsigned char recs[64], file[256] = { 0 }, two[512];
	struct got g;
	struct hq_err e;
	long long at;
	size_t n, m;

#define RUN(p, len) (memset(&g, 0, sizeof g), run((p), (len), &g, &e, &at))

	ok(RUN(file, 0) == -1 && at == 0 && tap_match(e.msg, "empty") == 1,
	    "empty input: an error at byte 0 (%s)", e.msg);

	n = build(file, 14, -1, def_hr, sizeof def_hr);
	file[13] ^= 1;
	ok(RUN(file, n) == -1 && at == 12 &&
	    tap_match(e.msg, "header CRC mismatch") == 1,
	    "a wrong header CRC: at byte 12 (%s)", e.msg);

	n = build(file, 14, -1, def_hr, sizeof def_hr);
	file[9] = 'G';
	ok(RUN(file, n) == -1 && at == 0, "no .FIT: at byte 0 (%s)", e.msg);

	n = build(file, 14, -1, def_hr, sizeof def_hr);
	file[0] = 13;
	ok(RUN(file, n) == -1 && at == 0, "header size 13: at byte 0 (%s)",
	    e.msg);

	/* a data message of local type 2, never defined */
	memcpy(recs, def_hr, sizeof def_hr);
	recs[sizeof def_hr] = 0x02;
	recs[sizeof def_hr + 1] = 7;
	n = build(file, 14, -1, recs, sizeof def_hr + 2);
	ok(RUN(file, n) == -1 && at == 14 + (long long)sizeof def_hr &&
	    g.n == 1 && tap_match(e.msg, "local message type 2 has no "
	    "definition") == 1, "an undefined local type: at its record "
	    "header, byte 25 (%s)", e.msg);

	/* compressed header of local type 3, undefined */
	memcpy(recs, def_hr, sizeof def_hr);
	recs[sizeof def_hr] = 0x80 | 3 << 5;
	recs[sizeof def_hr + 1] = 7;
	n = build(file, 14, -1, recs, sizeof def_hr + 2);
	ok(RUN(file, n) == -1 && at == 14 + (long long)sizeof def_hr,
	    "a compressed header of an undefined type: at its record header "
	    "(%s)", e.msg);

	/* architecture 2 */
	memcpy(recs, def_hr, sizeof def_hr);
	recs[2] = 2;
	n = build(file, 14, -1, recs, sizeof def_hr);
	ok(RUN(file, n) == -1 && at == 16, "architecture 2: at its byte, "
	    "16 (%s)", e.msg);

	/* base type 0x11 */
	memcpy(recs, def_hr, sizeof def_hr);
	recs[8] = 0x11;
	n = build(file, 14, -1, recs, sizeof def_hr);
	ok(RUN(file, n) == -1 && at == 22 && tap_match(e.msg, "base type "
	    "0x11") == 1, "an unknown base type: at its byte, 22 (%s)",
	    e.msg);

	/* a file CRC changed */
	n = build(file, 14, -1, def_hr, sizeof def_hr);
	file[n - 1] ^= 0x10;
	ok(RUN(file, n) == -1 && at == (long long)n - 2 && g.n == 1 &&
	    tap_match(e.msg, "file CRC mismatch") == 1,
	    "a wrong file CRC: at the CRC, byte %zu (%s)", n - 2, e.msg);

	/* the data size says 10 bytes, the message needs 11 */
	n = build(file, 14, -1, def_hr, sizeof def_hr);
	file[4] = 10;
	file[12] = (unsigned char)hq_fit_crc(0, file, 12);
	file[13] = (unsigned char)(hq_fit_crc(0, file, 12) >> 8);
	ok(RUN(file, n) == -1 && at == 23 && g.n == 0 &&
	    tap_match(e.msg, "runs past the end of the data") == 1,
	    "a message past the data size: at the message, 23 (%s)", e.msg);

	/* truncated: every length short of the whole fails at its end */
	n = build(file, 14, -1, def_hr, sizeof def_hr);
	int good = 1;
	for (size_t k = 1; k < n; k++)
		good &= RUN(file, k) == -1 && at == (long long)k;
	ok(good, "each of the %zu truncations fails at its end", n - 1);

	/* chained: the second file starts with no definitions */
	n = build(file, 14, -1, def_hr, sizeof def_hr);
	memcpy(two, file, n);
	m = build(two + n, 12, 0, (const unsigned char *)"\x00\x05", 2);
	ok(RUN(two, n + m) == -1 && at == (long long)n + 12 && g.n == 1,
	    "a chained file cannot use the first file's definitions (%s)",
	    e.msg);
	m = build(two + n, 12, 0, def_hr, sizeof def_hr);
	ok(RUN(two, n + m) == 0 && g.n == 2, "two chained files: both "
	    "messages");
	two[n + m] = 12;
	ok(RUN(two, n + m + 1) == -1 && at == (long long)(n + m + 1) &&
	    g.n == 2, "a byte after the last CRC: a truncated header, at the "
	    "end (%s)", e.msg);
	memset(two + n + m, 'x', 12);
	ok(RUN(two, n + m + 12) == -1 && at == (long long)(n + m) &&
	    tap_match(e.msg, "not a FIT file header") == 1,
	    "12 bytes of garbage after the last CRC: not a header, at its "
	    "first byte (%s)", e.msg);

	/* the callback stops the decoding at its message */
	memcpy(recs, def_hr, sizeof def_hr);
	memcpy(recs + sizeof def_hr, "\x00\x65\x00\x66", 4);
	n = build(file, 14, -1, recs, sizeof def_hr + 4);
	memset(&g, 0, sizeof g);
	g.stop_at = 2;
	ok(run(file, n, &g, &e, &at) == -1 && g.n == 2 &&
	    at == 14 + (long long)sizeof def_hr &&
	    strcmp(e.msg, "the callback says stop") == 0,
	    "a callback's error stops the decoding at its message");

	/* after an error the decoder stays failed */
	struct hq_fit *d = hq_fit_new(NULL, NULL);
	ok(hq_fit_feed(d, "\x0c\x10", 2, &e) == 0 &&
	    hq_fit_feed(d, "xxxxxxxxxx", 10, &e) == -1 &&
	    hq_fit_feed(d, "", 0, &e) == -1 && hq_fit_end(d, &e) == -1 &&
	    hq_fit_error_offset(d) == 0, "a failed decoder stays failed");
	hq_fit_free(d);
#undef RUN
}

/* The FIT profile's names (Garmin's FIT SDK 21.217, types manufacturer
 * and garmin_product: 289 hammerhead, 3906 fenix7, 3843 edge1040, 3121
 * edge530, 3992 fr255, 4061 edge540, 4260 venu3), as people read them. */
static void
test_names(void)
{
	static const struct { int maker, product; const char *name; } t[] = {
		{ 1, 3906, "Garmin fenix 7 (SN 42)" },
		{ 1, 3843, "Garmin Edge 1040 (SN 42)" },
		{ 1, 3121, "Garmin Edge 530 (SN 42)" },
		{ 1, 3992, "Garmin Forerunner 255 (SN 42)" },
		{ 1, 4061, "Garmin Edge 540 (SN 42)" },
		{ 1, 4260, "Garmin Venu 3 (SN 42)" },
		{ 1, 1765, "Garmin Forerunner 920XT (SN 42)" },
		{ 289, 12, "Hammerhead product 12 (SN 42)" },
		{ 32, 28, "Wahoo product 28 (SN 42)" },
		{ 4242, 3, "FIT manufacturer 4242 product 3 (SN 42)" },
	};
	char buf[256];

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		hq_fitfile_source(t[i].maker, t[i].product, "", 42, buf,
		    sizeof buf);
		is_str(buf, t[i].name, "source name %zu", i);
	}
	is_str(hq_fit_manufacturer_name(289), "hammerhead",
	    "manufacturer 289's word");
	ok(hq_fit_product_name(32, 3906) == NULL,
	    "Garmin's numbers are not Wahoo's");
}

/* A file that ends early is told from one that is broken: the first 768
 * bytes of Activity.fit (its records whole) against a CRC that does not
 * match. */
static void
test_truncated(void)
{
	size_t len;
	char *buf = slurp("fitparse/Activity.fit", &len);
	struct hq_fit *d = hq_fit_new(NULL, NULL);
	struct hq_err e;

	ok(hq_fit_feed(d, buf, 768, &e) == 0 && hq_fit_end(d, &e) == -1 &&
	    hq_fit_truncated(d) && hq_fit_error_offset(d) == 768,
	    "768 bytes of 771: truncated at byte 768");
	hq_fit_free(d);
	buf[len - 1] ^= 1;
	d = hq_fit_new(NULL, NULL);
	ok(hq_fit_feed(d, buf, len, &e) == -1 && !hq_fit_truncated(d),
	    "a CRC that does not match is no truncation");
	hq_fit_free(d);
	d = hq_fit_new(NULL, NULL);
	ok(hq_fit_feed(d, buf, 5, &e) == 0 && hq_fit_end(d, &e) == -1 &&
	    !hq_fit_truncated(d), "5 bytes: no header, nothing truncated");
	hq_fit_free(d);
	free(buf);
}

int
main(void)
{
	test_crc();
	test_fixtures();
	test_broken();
	test_byte_orders();
	test_invalid_values();
	test_compressed_times();
	test_developer_and_sizes();
	test_strings_and_helpers();
	test_errors();
	test_names();
	test_truncated();
	return done_testing();
}
