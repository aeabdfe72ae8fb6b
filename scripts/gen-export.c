/*
 * gen-export: writes a realistic Apple Health export of one persona, for the
 * tests, `make demo` and `make bench`.  Never installed.
 *
 * The persona lives in an IANA zone (default America/Los_Angeles) and wears
 * an Apple Watch most of the day while the iPhone in her pocket counts the
 * same steps, so a naive sum double counts.  Every date is written with the
 * zone's offset at --export-date, as Apple does, never the sample's own.
 *
 * Output is deterministic for --seed: every day's samples come from random
 * streams keyed by (seed, day, stream), so the XML can be written one record
 * type at a time, as Apple groups it, with constant memory.  --truth writes
 * per-day aggregates computed from the same samples with the semantics of
 * HACKING.md (source priority for steps, pro-rata splits at local midnight,
 * sleep keyed by the local date it ends with an 18:00 cut-off).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static const char *prog = "gen-export";

/* ---- options and global state ------------------------------------------ */

static struct {
	int days;                 /* days in the range */
	int start_y, start_m, start_d;
	uint64_t seed;
	const char *tz;
	int64_t export_time;      /* UTC seconds */
	uint64_t size;            /* --size: target XML bytes, 0 = use days */
	int zip;
	const char *xml_name;
	const char *truth;
	const char *clarity;      /* --clarity: the CGM readings as Dexcom writes them */
	const char *meals;        /* --meals: a food log of the last days, an export of its own */
	const char *out;
	int broken_dtd, control_chars;  /* quirks of real exports, off by default */
	int everyday;             /* --everyday: a resting HR trend and a spike */
} opt = { 30, 2024, 10, 20, 1, "America/Los_Angeles", 0, 0, -1, "export.xml",
	  NULL, NULL, NULL, NULL, 0, 0, 0 };

static int64_t export_off;         /* seconds east of UTC at export time */
static char export_off_str[8];     /* "-0800" */
static int64_t *mids;              /* local midnights, days + 2 entries */

/* ---- random numbers: one stream per (seed, day, purpose) --------------- */

struct rng { uint64_t s; };

static uint64_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int64_t start_days;         /* days since epoch of the first day */

/* Streams are keyed by the calendar date, not the day's index in the range,
 * so a later export with the same --start is a superset of an earlier one. */
static struct rng rng_for(int day, int stream)
{
	struct rng r = { opt.seed * 0x100000001b3ULL ^ ((uint64_t)(start_days + day + 100000) << 20)
			 ^ (uint64_t)stream };
	rng_next(&r);
	return r;
}

static double uni(struct rng *r) { return (double)(rng_next(r) >> 11) / 9007199254740992.0; }
static double urange(struct rng *r, double lo, double hi) { return lo + (hi - lo) * uni(r); }
static int irange(struct rng *r, int lo, int hi) { return lo + (int)(uni(r) * (hi - lo + 1)); }
static double gauss(struct rng *r) { return uni(r) + uni(r) + uni(r) + uni(r) - 2.0; }
static double round_to(double v, double q) { return round(v / q) * q; }

enum { S_NIGHT, S_DAY, S_HR, S_GLUC, S_SLEEP, S_MISC, S_PTR, S_BEATS = 100,
       S_TRAIN = 200, S_FOOD = 300 };

/* ---- calendar arithmetic (proleptic Gregorian, no libc) ---------------- */

static int64_t days_from_civil(int64_t y, int m, int d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int *y, int *m, int *d)
{
	z += 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	*d = (int)(doy - (153 * mp + 2) / 5 + 1);
	*m = (int)(mp < 10 ? mp + 3 : mp - 9);
	*y = (int)(yoe + era * 400 + (*m <= 2));
}

static int64_t floordiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

/* Wall-clock time h:m:s on day `day` of the range, in the persona's zone. */
static int64_t local_at(int day, int h, int mi, int s)
{
	int y, m, d;
	civil_from_days(start_days + day, &y, &m, &d);
	struct tm tm = { .tm_year = y - 1900, .tm_mon = m - 1, .tm_mday = d,
			 .tm_hour = h, .tm_min = mi, .tm_sec = s, .tm_isdst = -1 };
	return (int64_t)mktime(&tm);
}

static int64_t local_min(int day, int minutes) { return local_at(day, minutes / 60, minutes % 60, 0); }

static int day_of(int64_t t)      /* index of the local day holding t; -1 before */
{
	int lo = 0, hi = opt.days + 1;
	if (t < mids[0])
		return -1;
	while (hi - lo > 1) {
		int mid = (lo + hi) / 2;
		if (mids[mid] <= t)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static void date_str(char *buf, size_t n, int day)
{
	int y, m, d;
	civil_from_days(start_days + day, &y, &m, &d);
	snprintf(buf, n, "%04d-%02d-%02d", y, m, d);
}

/* "2024-11-03 01:30:00 -0800": the instant in the export-time offset. */
static char *fmt_apple(char *p, int64_t t)
{
	int64_t lt = t + export_off, days = floordiv(lt, 86400), sod = lt - days * 86400;
	int y, m, d;
	civil_from_days(days, &y, &m, &d);
	int h = (int)(sod / 3600), mi = (int)(sod / 60 % 60), s = (int)(sod % 60);
	p[0] = (char)('0' + y / 1000); p[1] = (char)('0' + y / 100 % 10);
	p[2] = (char)('0' + y / 10 % 10); p[3] = (char)('0' + y % 10); p[4] = '-';
	p[5] = (char)('0' + m / 10); p[6] = (char)('0' + m % 10); p[7] = '-';
	p[8] = (char)('0' + d / 10); p[9] = (char)('0' + d % 10); p[10] = ' ';
	p[11] = (char)('0' + h / 10); p[12] = (char)('0' + h % 10); p[13] = ':';
	p[14] = (char)('0' + mi / 10); p[15] = (char)('0' + mi % 10); p[16] = ':';
	p[17] = (char)('0' + s / 10); p[18] = (char)('0' + s % 10); p[19] = ' ';
	memcpy(p + 20, export_off_str, 6);
	return p;
}

static void fmt_utc(char *buf, size_t n, int64_t t)
{
	int64_t days = floordiv(t, 86400), sod = t - days * 86400;
	int y, m, d;
	civil_from_days(days, &y, &m, &d);
	snprintf(buf, n, "%04d-%02d-%02dT%02d:%02d:%02dZ", y, m, d, (int)(sod / 3600),
		 (int)(sod / 60 % 60), (int)(sod % 60));
}

/* ---- output: a counting, buffered sink over a FILE or a zip entry ------ */

#define SINK_CAP (1u << 20)
static struct {
	FILE *fp;
	struct archive *ar;
	char *buf;
	size_t len;
	uint64_t bytes;           /* bytes of the current entry */
	int failed;
} out;

static void sink_flush(void)
{
	if (out.len && !out.failed) {
		if (out.ar) {
			la_ssize_t n = archive_write_data(out.ar, out.buf, out.len);
			if (n < 0 || (size_t)n != out.len)
				out.failed = 1;
		} else if (out.fp && fwrite(out.buf, 1, out.len, out.fp) != out.len) {
			out.failed = 1;
		}
	}
	out.len = 0;
}

static void put(const char *s, size_t n)
{
	if (out.len + n > SINK_CAP)
		sink_flush();
	if (n > SINK_CAP) {
		out.failed = 1;
		return;
	}
	memcpy(out.buf + out.len, s, n);
	out.len += n;
	out.bytes += n;
}

static void puts_(const char *s) { put(s, strlen(s)); }

__attribute__((format(printf, 1, 2)))
static void putf(const char *fmt, ...)
{
	if (out.len + 4096 > SINK_CAP)
		sink_flush();
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(out.buf + out.len, 4096, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= 4096) {
		out.failed = 1;
		return;
	}
	out.len += (size_t)n;
	out.bytes += (size_t)n;
}

static void put_attr_date(const char *name, int64_t t)
{
	char b[32];
	fmt_apple(b, t);
	putf(" %s=\"%.25s\"", name, b);
}

/* ---- the persona's sources and record types ---------------------------- */

enum { WATCH, PHONE, CGM, SCALE, CUFF, NSRC };
static const struct {
	const char *name, *version, *device;
} src[NSRC] = {
	{ "Alex\u2019s Apple Watch", "10.1",
	  "name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1" },
	{ "Alex\u2019s iPhone", "17.1.1",
	  "name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:17.1.1" },
	{ "Dexcom G7", "2.1.0",
	  "name:Dexcom G7, manufacturer:Dexcom, model:G7, software:2.1.0" },
	{ "Health Mate", "6.2.1", NULL },
	{ "OMRON connect", "7.14.0",
	  "name:BP7450, manufacturer:OMRON HEALTHCARE Co., Ltd., model:BP7450, hardware:1.0, software:1.2" },
};

enum { T_MASS, T_HR, T_STEPS, T_DIST, T_BASAL, T_ACTIVE, T_SYS, T_DIA, T_GLUC,
       T_EXER, T_RHR, T_VO2, T_HRV, T_SLEEP, T_STAND, T_POWER, NTYPES };
static const struct {
	const char *id, *unit;
	int decimals;                 /* how the value is printed; -1: %.10g */
} types[NTYPES] = {
	{ "HKQuantityTypeIdentifierBodyMass", "lb", 1 },
	{ "HKQuantityTypeIdentifierHeartRate", "count/min", 0 },
	{ "HKQuantityTypeIdentifierStepCount", "count", 0 },
	{ "HKQuantityTypeIdentifierDistanceWalkingRunning", "mi", -1 },
	{ "HKQuantityTypeIdentifierBasalEnergyBurned", "Cal", -1 },
	{ "HKQuantityTypeIdentifierActiveEnergyBurned", "Cal", -1 },
	{ "HKQuantityTypeIdentifierBloodPressureSystolic", "mmHg", 0 },
	{ "HKQuantityTypeIdentifierBloodPressureDiastolic", "mmHg", 0 },
	{ "HKQuantityTypeIdentifierBloodGlucose", "mg/dL", 0 },
	{ "HKQuantityTypeIdentifierAppleExerciseTime", "min", 0 },
	{ "HKQuantityTypeIdentifierRestingHeartRate", "count/min", 0 },
	{ "HKQuantityTypeIdentifierVO2Max", "mL/min\u00b7kg", -1 },
	{ "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "ms", -1 },
	{ "HKCategoryTypeIdentifierSleepAnalysis", NULL, 0 },
	{ "HKCategoryTypeIdentifierAppleStandHour", NULL, 0 },
	{ "HKQuantityTypeIdentifierCyclingPower", "W", 0 },
};

enum { INBED, ASLEEP_LEGACY, AWAKE, CORE, DEEP, REM, STOOD, IDLE };
static const char *const catname[] = {
	"HKCategoryValueSleepAnalysisInBed", "HKCategoryValueSleepAnalysisAsleep",
	"HKCategoryValueSleepAnalysisAwake", "HKCategoryValueSleepAnalysisAsleepCore",
	"HKCategoryValueSleepAnalysisAsleepDeep", "HKCategoryValueSleepAnalysisAsleepREM",
	"HKCategoryValueAppleStandHourStood", "HKCategoryValueAppleStandHourIdle",
};

/* ---- one day's plan and samples ---------------------------------------- */

struct sample {
	int64_t start, end;
	double value;
	unsigned char type, src, cat, ctx, dup;
};

struct night { int64_t bed, onset, wake, out; int legacy; };

enum { RUN, WALK, CYCLE };
static const char *const wk_type[] = { "HKWorkoutActivityTypeRunning",
	"HKWorkoutActivityTypeWalking", "HKWorkoutActivityTypeCycling" };
static const char *const wk_name[] = { "running", "walking", "cycling" };

struct workout {
	int kind, new_form;
	int64_t start, end, pause_at;  /* pause_at: 0 = no pause */
	int pause_len;
	double active_s, dist_mi, energy, basal;   /* as written (mi, Cal) */
	double hr_avg, hr_min, hr_max;
	int steps, route_points;
};

struct bout { int64_t start, end; double cadence; int phone, brisk; };

#define MAXS 16384
#define MAXB 48
static struct day {
	int idx;
	int64_t mid, next;
	struct night n0, n1;          /* the night ending today, tonight's */
	int64_t off_s[2], off_e[2];   /* watch off the wrist (charging, shower) */
	int noff, off_min;
	int has_wk;
	struct workout wk;
	struct bout b[MAXB];
	int nb;
	struct sample s[MAXS];
	int n;
} D;

static struct sample *add(int type, int srcid, int64_t s, int64_t e, double v)
{
	if (D.n >= MAXS) {
		fprintf(stderr, "%s: too many samples in one day (internal limit %d)\n", prog, MAXS);
		exit(2);
	}
	struct sample *x = &D.s[D.n++];
	*x = (struct sample){ s, e, v, (unsigned char)type, (unsigned char)srcid, 0, 0, 0 };
	return x;
}

static int watch_off(int64_t s, int64_t e)
{
	for (int i = 0; i < D.noff; i++)
		if (s < D.off_e[i] && e > D.off_s[i])
			return 1;
	return 0;
}

/* ---- after-effects: what one day does to the next --------------------------
 *
 * Known effects, so that tests can check hq-correlate finds them with the
 * right sign and size (and nothing between series drawn independently):
 * after a day whose big dinner sends glucose above 140 mg/dL, sleep starts
 * LATE_ONSET_MIN minutes later that night (in bed as usual, asleep less);
 * the day after a workout, every HRV reading is lower by HRV_MS_PER_KCAL ms
 * per kcal the workout burned.  Both are pure functions of the day before,
 * replayed from its own random streams. */
#define LATE_ONSET_MIN 40
#define HRV_MS_PER_KCAL 0.02

/* The day's meals: minutes after getting up for breakfast, lunch and dinner
 * times, peak heights (mg/dL); returns the glucose stream, drawn so far. */
static struct rng plan_meals(int day, int *breakfast_after, int64_t *lunch, int64_t *dinner,
			     double height[3])
{
	struct rng g = rng_for(day, S_GLUC);
	*breakfast_after = irange(&g, 20, 50);
	*lunch = local_min(day, irange(&g, 12 * 60 + 10, 13 * 60));
	*dinner = local_min(day, irange(&g, 18 * 60 + 40, 19 * 60 + 40));
	for (int i = 0; i < 3; i++)
		height[i] = urange(&g, 15, 35);
	if (uni(&g) < 0.45)
		height[2] = urange(&g, 58, 90);  /* big dinner: above 140 */
	return g;
}

static int big_dinner(int day)
{
	int b;
	int64_t l, d;
	double h[3];
	plan_meals(day, &b, &l, &d, h);
	return h[2] >= 58;
}

/* The night that ends on the morning of `day`: bed (in bed, iPhone), onset
 * (asleep, Watch), wake, out of bed.  Some nights start after midnight. */
static void night_for(int day, struct night *n)
{
	struct rng r = rng_for(day, S_NIGHT);
	int late = uni(&r) < 0.15;
	n->bed = late ? local_min(day, irange(&r, 15, 45)) : local_min(day - 1, irange(&r, 22 * 60 + 20, 23 * 60 + 30));
	n->bed += irange(&r, 0, 59);
	n->onset = n->bed + irange(&r, 6 * 60, 22 * 60);
	if (big_dinner(day - 1))
		n->onset += LATE_ONSET_MIN * 60;
	n->wake = local_min(day, irange(&r, 6 * 60, 7 * 60 + 20)) + irange(&r, 0, 59);
	n->out = n->wake + irange(&r, 4 * 60, 15 * 60);
	n->legacy = day < 5;
}

/* The Watch charges after waking up; some evenings it comes off for a
 * shower.  Returns how many times it is off. */
static int plan_watch_off(struct rng *r, int day, const struct night *n0, int64_t off_s[2], int64_t off_e[2])
{
	off_s[0] = n0->out + irange(r, 5, 15) * 60;
	off_e[0] = off_s[0] + irange(r, 35, 70) * 60;
	if (uni(r) < 0.3) {
		off_s[1] = local_min(day, irange(r, 20 * 60 + 35, 21 * 60 + 30));
		off_e[1] = off_s[1] + irange(r, 10, 20) * 60;
		return 2;
	}
	return 1;
}

/* The persona trains: during a workout the Watch records heart rate every
 * 5 s (on through a pause, as a Watch does: hq-query(1)'s rule leaves those out),
 * rising and falling with the route's hills and with intervals, with a
 * dropout of 2-4 minutes now and then; on some rides a power meter writes
 * cycling power every second (coasting at 0, nothing in the pause). Its
 * own random stream, so the rest of the day is as before. */
static struct sample *add(int type, int srcid, int64_t s, int64_t e, double v);
static void train(int day, const struct workout *w)
{
	struct rng r = rng_for(day, S_TRAIN);
	static const double base[] = { 150, 108, 136 }, watts[] = { 0, 0, 175 };
	double lv = 92, fit = 1 - 0.0015 * (day < 60 ? day : 60);   /* fitter */
	int64_t drop = uni(&r) < 0.3 ? w->start + (int64_t)(uni(&r) * (double)(w->end - w->start) * 0.8) : 0;
	int drop_len = irange(&r, 130, 240), power = w->kind == CYCLE && uni(&r) < 0.6;
	double effort = urange(&r, 0.92, 1.08);

	for (int64_t t = w->start + irange(&r, 0, 4); t < w->end; t += 5) {
		double x = (double)(t - w->start);
		int paused = w->pause_at && t >= w->pause_at && t < w->pause_at + w->pause_len;
		double target = paused ? 100 : base[w->kind] * effort * fit +
			12 * sin(x / 300.0) + 7 * sin(x / 95.0);
		lv += (target - lv) * 0.07 + gauss(&r) * 1.1;
		if (drop && t >= drop && t < drop + drop_len)
			continue;
		struct sample *s = add(T_HR, WATCH, t, t, round(lv));
		s->ctx = 2;
	}
	if (!power)
		return;
	for (int64_t t = w->start; t < w->end; t++) {
		if (w->pause_at && t >= w->pause_at && t < w->pause_at + w->pause_len)
			continue;
		double x = (double)(t - w->start);
		double v = watts[w->kind] * effort + 45 * sin(x / 300.0) + 25 * sin(x / 41.0) +
			gauss(&r) * 18;
		add(T_POWER, WATCH, t, t, uni(&r) < 0.04 || v < 0 ? 0 : round(v));
	}
}

/* Today's workout, if there is time for one between the Watch's charge
 * (ending off_end) and an hour before bed; returns whether there is one. */
static int plan_workout(struct rng *r, int day, int weekend, int64_t off_end, int64_t bed, struct workout *w)
{
	memset(w, 0, sizeof *w);
	if (uni(r) > (weekend ? 0.7 : 0.4))
		return 0;
	double u = uni(r);
	w->kind = u < 0.55 ? RUN : u < 0.8 ? WALK : CYCLE;
	w->start = weekend ? local_min(day, irange(r, 8 * 60 + 30, 10 * 60))
			   : local_min(day, irange(r, 17 * 60 + 30, 18 * 60 + 20));
	w->start += irange(r, 0, 59);
	w->active_s = irange(r, 24 * 60, w->kind == WALK ? 75 * 60 : 68 * 60) + round_to(uni(r), 0.001);
	w->new_form = day >= (opt.days < 30 ? opt.days / 3 : 10);  /* before iOS 16 */
	if (uni(r) < 0.5) {
		w->pause_at = w->start + (int64_t)(w->active_s * urange(r, 0.3, 0.6));
		w->pause_len = irange(r, 45, 240);
	}
	w->end = w->start + (int64_t)ceil(w->active_s) + w->pause_len;
	if (w->start < off_end + 600 || w->end > bed - 3600) {
		memset(w, 0, sizeof *w);     /* no time for it today */
		return 0;
	}
	static const double speed[] = { 2.9, 1.5, 6.3 }, kcal_min[] = { 11.5, 5.2, 9.0 };
	w->dist_mi = round_to(w->active_s * speed[w->kind] * urange(r, 0.9, 1.1) / 1609.344, 1e-6);
	w->energy = round_to(w->active_s / 60 * kcal_min[w->kind] * urange(r, 0.9, 1.1), 0.001);
	w->basal = round_to(w->active_s / 60 * 1.15, 0.001);
	return 1;
}

static int is_weekend(int day)
{
	int64_t wd = (start_days + day + 4) % 7;   /* 0 = Sunday */
	return wd == 0 || wd == 6;
}

/* The energy (kcal) of the day's workout, 0 without one: gen_day's plan
 * replayed (after-effects). */
static double workout_energy(int day)
{
	struct night n0, n1;
	struct workout w;
	int64_t off_s[2], off_e[2];
	night_for(day, &n0);
	night_for(day + 1, &n1);
	struct rng r = rng_for(day, S_DAY);
	plan_watch_off(&r, day, &n0, off_s, off_e);
	return plan_workout(&r, day, is_weekend(day), off_e[0], n1.bed, &w) ? w.energy : 0;
}

static int bout_free(int64_t s, int64_t e)
{
	for (int i = 0; i < D.nb; i++)
		if (s < D.b[i].end + 300 && e > D.b[i].start - 300)
			return 0;
	return s > D.n0.out + 300 && e < D.n1.bed - 600;
}

static void try_bout(struct rng *r, int from_min, int to_min, int len_lo, int len_hi,
		     double cadence, double p_phone, int brisk)
{
	int64_t s = local_min(D.idx, irange(r, from_min, to_min)) + irange(r, 0, 59);
	int64_t e = s + irange(r, len_lo, len_hi);
	if (!bout_free(s, e) || D.nb >= MAXB)
		return;
	D.b[D.nb++] = (struct bout){ s, e, cadence * urange(r, 0.9, 1.1), uni(r) < p_phone, brisk };
}

static int cmp_bout(const void *a, const void *b)
{
	const struct bout *x = a, *y = b;
	return (x->start > y->start) - (x->start < y->start);
}

/* Steps (and distance) for one bout: the Watch in chunks of 1-7 minutes, the
 * iPhone, when carried, over a slightly wider span in chunks of 2-10 minutes
 * whose edges fall inside the Watch's chunks. */
static void bout_steps(struct rng *r, const struct bout *b)
{
	if (b->cadence <= 0)
		return;
	for (int64_t t = b->start; t < b->end;) {
		int64_t e = t + irange(r, 60, 420);
		if (e > b->end)
			e = b->end;
		double steps = round(b->cadence * (double)(e - t) / 60 * urange(r, 0.85, 1.15));
		if (!watch_off(t, e) && steps > 0) {
			add(T_STEPS, WATCH, t, e, steps);
			add(T_DIST, WATCH, t, e, round_to(steps * 0.000452, 1e-7));
		}
		t = e;
	}
	if (!b->phone)
		return;
	int64_t ps = b->start - irange(r, 0, 90), pe = b->end + irange(r, 0, 120);
	for (int64_t t = ps; t < pe;) {
		int64_t e = t + irange(r, 120, 600);
		if (e > pe)
			e = pe;
		double steps = round(b->cadence * 0.93 * (double)(e - t) / 60 * urange(r, 0.8, 1.1));
		if (steps > 0) {
			add(T_STEPS, PHONE, t, e, steps);
			add(T_DIST, PHONE, t, e, round_to(steps * 0.000447, 1e-7));
		}
		t = e;
	}
}

static double bout_overlap(int64_t s, int64_t e, double *rate)
{
	double sec = 0;
	*rate = 0;
	for (int i = 0; i < D.nb; i++) {
		int64_t a = s > D.b[i].start ? s : D.b[i].start;
		int64_t z = e < D.b[i].end ? e : D.b[i].end;
		if (z > a) {
			sec += (double)(z - a);
			int is_wk = D.has_wk && D.b[i].start == D.wk.start;
			double k = is_wk ? D.wk.energy / (D.wk.active_s / 60) : D.b[i].cadence * 0.045;
			*rate += k * (double)(z - a) / 60;
		}
	}
	return sec;
}

static int asleep_at(int64_t t)
{
	return (t >= D.n0.onset && t < D.n0.wake) || (t >= D.n1.onset && t < D.n1.wake);
}

static void gen_sleep(struct rng *r, const struct night *n, int legacy)
{
	struct sample *x = add(T_SLEEP, PHONE, n->bed, n->out, 0);
	x->cat = INBED;
	if (legacy) {
		for (int64_t t = n->onset; t < n->wake;) {
			int64_t e = t + irange(r, 40 * 60, 130 * 60);
			if (e > n->wake - 600)
				e = n->wake;
			add(T_SLEEP, WATCH, t, e, 0)->cat = ASLEEP_LEGACY;
			t = e + irange(r, 2 * 60, 9 * 60);
		}
		return;
	}
	static const unsigned char cycle[] = { CORE, DEEP, CORE, REM };
	int k = 0;
	for (int64_t t = n->onset; t < n->wake; k++) {
		int st = cycle[k % 4];
		double frac = (double)(t - n->onset) / (double)(n->wake - n->onset);
		if (k > 2 && uni(r) < 0.12)
			st = AWAKE;
		int lo = st == AWAKE ? 60 : st == DEEP ? (frac < 0.5 ? 15 * 60 : 4 * 60) : st == REM ? (frac < 0.5 ? 6 * 60 : 15 * 60) : 12 * 60;
		int hi = st == AWAKE ? 360 : st == DEEP ? (frac < 0.5 ? 40 * 60 : 12 * 60) : st == REM ? (frac < 0.5 ? 14 * 60 : 35 * 60) : 45 * 60;
		int64_t e = t + irange(r, lo, hi);
		if (e > n->wake || n->wake - e < 240)
			e = n->wake;
		add(T_SLEEP, WATCH, t, e, 0)->cat = (unsigned char)st;
		t = e;
	}
}

static void gen_day(int day)
{
	memset(&D, 0, offsetof(struct day, s));
	D.idx = day;
	D.n = 0;
	D.mid = mids[day];
	D.next = mids[day + 1];
	night_for(day, &D.n0);
	night_for(day + 1, &D.n1);
	struct rng r = rng_for(day, S_DAY);
	int weekend = is_weekend(day);

	D.noff = plan_watch_off(&r, day, &D.n0, D.off_s, D.off_e);
	D.has_wk = plan_workout(&r, day, weekend, D.off_e[0], D.n1.bed, &D.wk);
	if (D.has_wk)
		D.b[D.nb++] = (struct bout){ D.wk.start, D.wk.end, D.wk.kind == RUN ? 165 : D.wk.kind == WALK ? 118 : 0, 0, 1 };
	/* walks: commute, lunch, errands; a few short ones; a late one on late nights */
	if (!weekend) {
		try_bout(&r, 8 * 60, 8 * 60 + 20, 900, 1500, 108, 1.0, 1);
		try_bout(&r, 12 * 60, 12 * 60 + 30, 900, 2100, 112, 0.8, 1);
		try_bout(&r, 17 * 60 + 10, 17 * 60 + 25, 900, 1400, 104, 1.0, 1);
	} else {
		try_bout(&r, 11 * 60, 13 * 60, 1800, 3600, 96, 0.7, 0);
		try_bout(&r, 15 * 60, 17 * 60, 1200, 2400, 90, 0.9, 0);
	}
	try_bout(&r, 19 * 60 + 15, 19 * 60 + 45, 600, 1300, 100, 0.6, 0);
	/* in the charging window: only the iPhone counts */
	try_bout(&r, (int)((D.off_s[0] - D.mid) / 60) + 2, (int)((D.off_s[0] - D.mid) / 60) + 5, 300, 900, 80, 1.0, 0);
	for (int i = 0; i < 14; i++)
		try_bout(&r, 7 * 60, 22 * 60, 60, 420, urange(&r, 40, 80), 0.6, 0);
	if (D.n1.bed > D.next + 600) {       /* a late walk across midnight */
		int64_t s = D.next - irange(&r, 10, 25) * 60, e = D.next + irange(&r, 3, 8) * 60;
		if (bout_free(s, e))
			D.b[D.nb++] = (struct bout){ s, e, 95, 1, 0 };
	}
	qsort(D.b, (size_t)D.nb, sizeof D.b[0], cmp_bout);

	for (int i = 0; i < D.nb; i++) {
		bout_steps(&r, &D.b[i]);
		if (D.b[i].brisk)        /* exercise minutes while the Watch is on */
			for (int64_t t = D.b[i].start; t + 60 <= D.b[i].end; t += 60)
				if (!watch_off(t, t + 60) && !(D.wk.pause_at && t + 60 > D.wk.pause_at && t < D.wk.pause_at + D.wk.pause_len))
					add(T_EXER, WATCH, t, t + 60, 1);
	}

	/* active energy in 5-minute chunks while awake; basal every 15 minutes */
	for (int64_t t = D.n0.out; t + 300 <= D.n1.bed; t += 300) {
		if (watch_off(t, t + 300))
			continue;
		double rate;
		bout_overlap(t, t + 300, &rate);
		add(T_ACTIVE, WATCH, t, t + 300, round_to(urange(&r, 0.6, 1.6) + rate, 0.001));
	}
	for (int64_t t = D.mid; t + 900 <= D.next; t += 900)
		if (!watch_off(t, t + 900))
			add(T_BASAL, WATCH, t, t + 900, round_to(urange(&r, 15.8, 17.4), 0.001));

	/* heart rate every minute the Watch is on the wrist */
	struct rng hr = rng_for(day, S_HR);
	double level = 70;
	int hr0 = D.n;
	for (int64_t m = D.mid; m < D.next; m += 60) {
		if (watch_off(m, m + 60)) {
			D.off_min++;
			continue;
		}
		int64_t t = m + irange(&hr, 0, 59);
		double target = 72, rate;
		int ctx = 1;
		if (asleep_at(t))
			target = 56;
		if (bout_overlap(t, t + 1, &rate) > 0) {
			ctx = 2;
			target = 102;
			if (D.has_wk && t >= D.wk.start && t <= D.wk.end)
				target = D.wk.kind == RUN ? 152 : D.wk.kind == WALK ? 108 : 138;
		}
		level += (target - level) * 0.35 + gauss(&hr) * 3;
		if (D.has_wk && t >= D.wk.start && t < D.wk.end)
			continue;     /* the workout's own, every 5 s, below */
		struct sample *x = add(T_HR, WATCH, t, t, round(level));
		x->ctx = (unsigned char)ctx;
	}
	if (D.has_wk)
		train(day, &D.wk);
	if (D.n > hr0)           /* real exports repeat a few records */
		D.s[hr0 + (D.n - hr0) / 2].dup = 1;

	/* CGM glucose every 5 minutes, with meals; a sensor change every 10 days */
	int breakfast_after;
	int64_t meal[3];
	double height[3];
	struct rng g = plan_meals(day, &breakfast_after, &meal[1], &meal[2], height);
	meal[0] = D.n0.out + breakfast_after * 60;
	int64_t gap = (day % 10 == 9) ? local_min(day, 10 * 60) : 0;
	for (int64_t t = D.mid + 137; t < D.next; t += 300) {
		if (gap && t >= gap && t < gap + 7200)
			continue;
		double v = 92 + 5 * sin((double)(t - D.mid) / 86400 * 6.283) + gauss(&g) * 3;
		for (int i = 0; i < 3; i++) {
			double x = (double)(t - meal[i]) / 2700;
			if (x > 0 && x < 5)
				v += height[i] * x * exp(1 - x);
		}
		add(T_GLUC, CGM, t, t, fmax(40, round(v)));
	}
	if (uni(&g) < 0.2)
		D.s[D.n - 1].dup = 1;

	/* sleep: the night that ends this morning, a weekend nap, an evening doze */
	struct rng sl = rng_for(day, S_SLEEP);
	gen_sleep(&sl, &D.n0, D.n0.legacy);
	if (!D.n0.legacy && weekend && uni(&sl) < 0.5) {
		int64_t s = local_min(day, irange(&sl, 14 * 60, 15 * 60));
		if (bout_free(s, s + 2400))
			add(T_SLEEP, WATCH, s, s + irange(&sl, 20, 40) * 60, 0)->cat = CORE;
	}
	if (!D.n0.legacy && uni(&sl) < 0.15) {
		int64_t s = local_min(day, irange(&sl, 20 * 60 + 5, 20 * 60 + 30));
		if (bout_free(s, s + 1800) && !watch_off(s, s + 1800))
			add(T_SLEEP, WATCH, s, s + irange(&sl, 12, 25) * 60, 0)->cat = CORE;
	}
	if (uni(&sl) < 0.25)
		D.s[D.n - 1].dup = 1;

	/* stand hours, resting HR, HRV, VO2 max, weight, blood pressure */
	struct rng mr = rng_for(day, S_MISC);
	for (int64_t h = D.mid; h < D.next; h += 3600) {
		if (h + 3600 <= D.n0.out || h >= D.n1.bed || watch_off(h, h + 3600))
			continue;
		double rate;
		int stood = bout_overlap(h, h + 3600, &rate) > 0 || uni(&mr) < 0.5;
		add(T_STAND, WATCH, h, h + 3600, 0)->cat = stood ? STOOD : IDLE;
	}
	struct sample *rhr = add(T_RHR, WATCH, D.mid + irange(&mr, 60, 400),
	    local_min(day, irange(&mr, 20 * 60, 21 * 60)), irange(&mr, 54, 61));
	/* --everyday: the same draws, then 0.1 bpm more a day and 12 more on
	 * the fourth day from the end (hq-report trend and alerts find them) */
	if (opt.everyday && rhr)
		rhr->value += 0.1 * day + (day == opt.days - 4 ? 12 : 0);
	double hrv_drop = HRV_MS_PER_KCAL * workout_energy(day - 1);
	int64_t hrv_at[5] = { D.n0.onset + 5400, D.n0.onset + 12600, local_min(day, 10 * 60 + 15),
			      local_min(day, 16 * 60 + 40), D.n0.wake - 1800 };
	for (int i = 0; i < 5; i++) {
		int64_t t = hrv_at[i] + irange(&mr, 0, 900);
		if (watch_off(t, t + 70) || (D.has_wk && t < D.wk.end && t + 70 > D.wk.start))
			continue;
		add(T_HRV, WATCH, t, t + irange(&mr, 58, 66),
		    round_to((asleep_at(t) ? urange(&mr, 40, 85) : urange(&mr, 22, 55)) - hrv_drop, 0.0001));
	}
	if (D.has_wk && D.wk.kind == RUN)
		add(T_VO2, WATCH, D.wk.end, D.wk.end, round_to(urange(&mr, 38.5, 43.5), 0.00001));
	if (uni(&mr) < 0.3) {
		int64_t t = D.n0.out + irange(&mr, 180, 600);
		add(T_MASS, SCALE, t, t, round_to(urange(&mr, 158, 165), 0.1));
	}
	if (day % 3 == 1) {
		int64_t t = local_min(day, irange(&mr, 20 * 60 + 5, 20 * 60 + 25)) + irange(&mr, 0, 59);
		add(T_SYS, CUFF, t, t, irange(&mr, 110, 129));
		add(T_DIA, CUFF, t, t, irange(&mr, 70, 85));
	}
	for (int i = 0; i < D.n; i++)     /* one Watch step sample is written twice */
		if (D.s[i].type == T_STEPS && D.s[i].src == WATCH) {
			D.s[i].dup = 1;
			break;
		}

	/* the workout's heart-rate statistics, from the samples just made */
	if (D.has_wk) {
		double sum = 0;
		int n = 0;
		D.wk.hr_min = 1e9;
		D.wk.hr_max = 0;
		for (int i = 0; i < D.n; i++) {
			const struct sample *x = &D.s[i];
			if (x->type == T_HR && x->start >= D.wk.start && x->start <= D.wk.end) {
				sum += x->value;
				n++;
				D.wk.hr_min = fmin(D.wk.hr_min, x->value);
				D.wk.hr_max = fmax(D.wk.hr_max, x->value);
			}
			if (x->type == T_STEPS && x->src == WATCH && x->start >= D.wk.start && x->end <= D.wk.end)
				D.wk.steps += (int)x->value;
		}
		D.wk.hr_avg = n ? round_to(sum / n, 0.0001) : 0;
		if (!n)
			D.wk.hr_min = 0;
	}
}

/* ---- truth: per-day aggregates computed from the generated samples ----- */

enum { F_STEPS, F_NAIVE, F_WATCH, F_PHONE, F_HR_SUM, F_HR_MIN, F_HR_MAX, F_HR_N, F_OFF,
       F_EXER, F_ACTIVE, F_GL_SUM, F_GL_MAX, F_GL_N, F_ASLEEP, F_INBED, F_DEEP, F_REM,
       F_CORE, F_AWAKE, F_STAND, F_NWK, F_HRV_SUM, F_HRV_N, NF };
static double *tr;                 /* days x NF */
#define TR(d, f) tr[(size_t)(d) * NF + (f)]
/* Heart rate and glucose are whole numbers: per day, how many of each
 * value (0..HMAX-1), for medians and percentiles computed here by counting,
 * independently of hq's own method. */
#define HMAX 512
enum { H_HR, H_GL, NH };
static uint16_t *hist;             /* days x NH x HMAX */
static int hist_bad;               /* a value was not a whole number in range */
#define HIST(d, h) (&hist[((size_t)(d) * NH + (h)) * HMAX])

static void hist_add(int d, int h, double v)
{
	if (v < 0 || v >= HMAX || v != floor(v)) {
		hist_bad = 1;
		return;
	}
	HIST(d, h)[(int)v]++;
}

/* The type 7 quantile p (R's default: h = (n - 1) p, between the order
 * statistics floor(h) and floor(h) + 1) of the values counted in c[0..HMAX)
 * of days [d0, d1); -1 without values. */
static double hist_quantile(int d0, int d1, int h, double p)
{
	double n = 0, x[2] = { -1, -1 }, hh, lo;
	long want[2], seen = 0;

	for (int d = d0; d < d1; d++)
		for (int v = 0; v < HMAX; v++)
			n += HIST(d, h)[v];
	if (n == 0 || hist_bad)
		return -1;
	hh = (n - 1) * p;
	lo = floor(hh);
	want[0] = (long)lo;
	want[1] = (long)lo + 1 < (long)n ? (long)lo + 1 : (long)lo;
	for (int v = 0; v < HMAX; v++) {
		long c = 0;
		for (int d = d0; d < d1; d++)
			c += HIST(d, h)[v];
		for (int k = 0; k < 2; k++)
			if (x[k] < 0 && want[k] < seen + c)
				x[k] = v;
		seen += c;
	}
	return x[0] + (hh - lo) * (x[1] - x[0]);
}

struct wk_truth { struct workout w; int day; };
static struct wk_truth *wks;
static int nwks;

/* Adds `amount` spread over [s, e) to field f of each local day it touches. */
static void add_prorata(int f, int64_t s, int64_t e, double amount)
{
	if (e <= s) {
		int d = day_of(s);
		if (d >= 0 && d < opt.days)
			TR(d, f) += amount;
		return;
	}
	for (int d = day_of(s) < 0 ? 0 : day_of(s); d < opt.days && mids[d] < e; d++) {
		int64_t a = s > mids[d] ? s : mids[d], z = e < mids[d + 1] ? e : mids[d + 1];
		if (z > a)
			TR(d, f) += amount * (double)(z - a) / (double)(e - s);
	}
}

/* Sleep belongs to the local date on which it ends; after 18:00, the next. */
static int sleep_key(int64_t end)
{
	struct tm tm;
	time_t t = (time_t)end;
	localtime_r(&t, &tm);
	int d = day_of(end);
	return tm.tm_hour >= 18 ? d + 1 : d;
}

struct iv { int64_t s, e; };
static struct iv ivs[MAXS];

static int cmp_iv(const void *a, const void *b)
{
	const struct iv *x = a, *y = b;
	return (x->s > y->s) - (x->s < y->s);
}

/* Sorts and merges ivs[0..n) in place; returns the new count. */
static int merge_ivs(int n)
{
	qsort(ivs, (size_t)n, sizeof ivs[0], cmp_iv);
	int m = 0;
	for (int i = 0; i < n; i++) {
		if (m && ivs[i].s <= ivs[m - 1].e) {
			if (ivs[i].e > ivs[m - 1].e)
				ivs[m - 1].e = ivs[i].e;
		} else {
			ivs[m++] = ivs[i];
		}
	}
	return m;
}

static void union_minutes(int f, int (*pick)(const struct sample *))
{
	int n = 0;
	for (int i = 0; i < D.n; i++)
		if (pick(&D.s[i]))
			ivs[n++] = (struct iv){ D.s[i].start, D.s[i].end };
	n = merge_ivs(n);
	for (int i = 0; i < n; i++) {
		int k = sleep_key(ivs[i].e);
		if (k >= 0 && k < opt.days)
			TR(k, f) += (double)(ivs[i].e - ivs[i].s) / 60;
	}
}

static int is_asleep(const struct sample *x)
{
	return x->type == T_SLEEP && x->src == WATCH &&
	       (x->cat == CORE || x->cat == DEEP || x->cat == REM || x->cat == ASLEEP_LEGACY);
}
static int is_inbed(const struct sample *x) { return x->type == T_SLEEP && x->cat == INBED; }

static void truth_day(int d)
{
	gen_day(d);
	/* steps: the Watch's, plus the iPhone's where no Watch sample covers it */
	int nw = 0;
	for (int i = 0; i < D.n; i++)
		if (D.s[i].type == T_STEPS && D.s[i].src == WATCH)
			ivs[nw++] = (struct iv){ D.s[i].start, D.s[i].end };
	nw = merge_ivs(nw);
	for (int i = 0; i < D.n; i++) {
		const struct sample *x = &D.s[i];
		int k = day_of(x->start);
		switch (x->type) {
		case T_STEPS:
			add_prorata(F_NAIVE, x->start, x->end, x->value);
			if (x->src == WATCH) {
				add_prorata(F_STEPS, x->start, x->end, x->value);
				add_prorata(F_WATCH, x->start, x->end, x->value);
				break;
			}
			add_prorata(F_PHONE, x->start, x->end, x->value);
			int64_t t = x->start;
			double per_s = x->value / (double)(x->end - x->start);
			for (int j = 0; j < nw && t < x->end; j++) {
				if (ivs[j].e <= t)
					continue;
				if (ivs[j].s > t)
					add_prorata(F_STEPS, t, ivs[j].s < x->end ? ivs[j].s : x->end,
						    per_s * (double)((ivs[j].s < x->end ? ivs[j].s : x->end) - t));
				t = ivs[j].e;
			}
			if (t < x->end)
				add_prorata(F_STEPS, t, x->end, per_s * (double)(x->end - t));
			break;
		case T_HR:
			if (k < 0 || k >= opt.days)
				break;
			if (TR(k, F_HR_N) == 0 || x->value < TR(k, F_HR_MIN))
				TR(k, F_HR_MIN) = x->value;
			if (x->value > TR(k, F_HR_MAX))
				TR(k, F_HR_MAX) = x->value;
			TR(k, F_HR_SUM) += x->value;
			TR(k, F_HR_N) += 1;
			hist_add(k, H_HR, x->value);
			break;
		case T_GLUC:
			if (k < 0 || k >= opt.days)
				break;
			TR(k, F_GL_SUM) += x->value;
			TR(k, F_GL_N) += 1;
			hist_add(k, H_GL, x->value);
			if (x->value > TR(k, F_GL_MAX))
				TR(k, F_GL_MAX) = x->value;
			break;
		case T_EXER:
			add_prorata(F_EXER, x->start, x->end, x->value);
			break;
		case T_HRV:
			if (k >= 0 && k < opt.days) {
				TR(k, F_HRV_SUM) += x->value;
				TR(k, F_HRV_N) += 1;
			}
			break;
		case T_ACTIVE:
			add_prorata(F_ACTIVE, x->start, x->end, x->value);
			break;
		case T_STAND:
			if (x->cat == STOOD && k >= 0 && k < opt.days)
				TR(k, F_STAND) += 1;
			break;
		case T_SLEEP: {
			int f = x->cat == DEEP ? F_DEEP : x->cat == REM ? F_REM : x->cat == CORE ? F_CORE
				: x->cat == AWAKE ? F_AWAKE : -1;
			int key = sleep_key(x->end);
			if (f >= 0 && key >= 0 && key < opt.days)
				TR(key, f) += (double)(x->end - x->start) / 60;
			break;
		}
		}
	}
	union_minutes(F_ASLEEP, is_asleep);
	union_minutes(F_INBED, is_inbed);
	TR(d, F_OFF) = D.off_min;
	if (D.has_wk) {
		TR(d, F_NWK) += 1;
		struct wk_truth *p = realloc(wks, (size_t)(nwks + 1) * sizeof *wks);
		if (!p) {
			fprintf(stderr, "%s: out of memory\n", prog);
			exit(2);
		}
		wks = p;
		wks[nwks++] = (struct wk_truth){ D.wk, d };
	}
}

/* ---- the XML ------------------------------------------------------------ */

static const char dtd[] =
	"<!DOCTYPE HealthData [\n"
	"<!-- HealthKit Export Version: 14 -->\n"
	"<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>\n"
	"<!ATTLIST HealthData\n  locale CDATA #REQUIRED\n>\n"
	"<!ELEMENT ExportDate EMPTY>\n<!ATTLIST ExportDate\n  value CDATA #REQUIRED\n>\n"
	"<!ELEMENT Me EMPTY>\n<!ATTLIST Me\n"
	"  HKCharacteristicTypeIdentifierDateOfBirth                   CDATA #REQUIRED\n"
	"  HKCharacteristicTypeIdentifierBiologicalSex                 CDATA #REQUIRED\n"
	"  HKCharacteristicTypeIdentifierBloodType                     CDATA #REQUIRED\n"
	"  HKCharacteristicTypeIdentifierFitzpatrickSkinType           CDATA #REQUIRED\n"
	"  HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse   CDATA #REQUIRED\n>\n"
	"<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>\n"
	"<!ATTLIST Record\n  type          CDATA #REQUIRED\n  unit          CDATA #IMPLIED\n"
	"  value         CDATA #IMPLIED\n  sourceName    CDATA #REQUIRED\n  sourceVersion CDATA #IMPLIED\n"
	"  device        CDATA #IMPLIED\n  creationDate  CDATA #IMPLIED\n  startDate     CDATA #REQUIRED\n"
	"  endDate       CDATA #REQUIRED\n>\n"
	"<!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->\n"
	"<!ELEMENT Correlation ((MetadataEntry|Record)*)>\n"
	"<!ATTLIST Correlation\n  type          CDATA #REQUIRED\n  sourceName    CDATA #REQUIRED\n"
	"  sourceVersion CDATA #IMPLIED\n  device        CDATA #IMPLIED\n  creationDate  CDATA #IMPLIED\n"
	"  startDate     CDATA #REQUIRED\n  endDate       CDATA #REQUIRED\n>\n"
	"<!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>\n"
	"<!ATTLIST Workout\n  workoutActivityType   CDATA #REQUIRED\n  duration              CDATA #IMPLIED\n"
	"  durationUnit          CDATA #IMPLIED\n  totalDistance         CDATA #IMPLIED\n"
	"  totalDistanceUnit     CDATA #IMPLIED\n  totalEnergyBurned     CDATA #IMPLIED\n"
	"  totalEnergyBurnedUnit CDATA #IMPLIED\n  sourceName            CDATA #REQUIRED\n"
	"  sourceVersion         CDATA #IMPLIED\n  device                CDATA #IMPLIED\n"
	"  creationDate          CDATA #IMPLIED\n  startDate             CDATA #REQUIRED\n"
	"  endDate               CDATA #REQUIRED\n>\n"
	"<!ELEMENT WorkoutActivity ((MetadataEntry)*)>\n"
	"<!ATTLIST WorkoutActivity\n  uuid         CDATA #REQUIRED\n  startDate    CDATA #REQUIRED\n"
	"  endDate      CDATA #IMPLIED\n  duration     CDATA #IMPLIED\n  durationUnit CDATA #IMPLIED\n>\n"
	"<!ELEMENT WorkoutEvent ((MetadataEntry)*)>\n"
	"<!ATTLIST WorkoutEvent\n  type         CDATA #REQUIRED\n  date         CDATA #REQUIRED\n"
	"  duration     CDATA #IMPLIED\n  durationUnit CDATA #IMPLIED\n>\n"
	"<!ELEMENT WorkoutStatistics EMPTY>\n"
	"<!ATTLIST WorkoutStatistics\n  type      CDATA #REQUIRED\n  startDate CDATA #REQUIRED\n"
	"  endDate   CDATA #REQUIRED\n  average   CDATA #IMPLIED\n  minimum   CDATA #IMPLIED\n"
	"  maximum   CDATA #IMPLIED\n  sum       CDATA #IMPLIED\n  unit      CDATA #IMPLIED\n>\n"
	"<!ELEMENT WorkoutRoute ((MetadataEntry|FileReference)*)>\n"
	"<!ATTLIST WorkoutRoute\n  sourceName    CDATA #REQUIRED\n  sourceVersion CDATA #IMPLIED\n"
	"  device        CDATA #IMPLIED\n  creationDate  CDATA #IMPLIED\n  startDate     CDATA #REQUIRED\n"
	"  endDate       CDATA #REQUIRED\n>\n"
	"<!ELEMENT FileReference EMPTY>\n<!ATTLIST FileReference\n  path CDATA #REQUIRED\n>\n"
	"<!ELEMENT ActivitySummary EMPTY>\n"
	"<!ATTLIST ActivitySummary\n  dateComponents           CDATA #IMPLIED\n"
	"  activeEnergyBurned       CDATA #IMPLIED\n  activeEnergyBurnedGoal   CDATA #IMPLIED\n"
	"  activeEnergyBurnedUnit   CDATA #IMPLIED\n  appleMoveTime            CDATA #IMPLIED\n"
	"  appleMoveTimeGoal        CDATA #IMPLIED\n  appleExerciseTime        CDATA #IMPLIED\n"
	"  appleExerciseTimeGoal    CDATA #IMPLIED\n  appleStandHours          CDATA #IMPLIED\n"
	"  appleStandHoursGoal      CDATA #IMPLIED\n>\n"
	"<!ELEMENT MetadataEntry EMPTY>\n<!ATTLIST MetadataEntry\n  key   CDATA #REQUIRED\n  value CDATA #REQUIRED\n>\n"
	"<!-- Note: Heart Rate Variability records captured by Apple Watch may include an associated list of instantaneous beats-per-minute readings. -->\n"
	"<!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>\n"
	"<!ELEMENT InstantaneousBeatsPerMinute EMPTY>\n"
	"<!ATTLIST InstantaneousBeatsPerMinute\n  bpm  CDATA #REQUIRED\n  time CDATA #REQUIRED\n>\n"
	"<!ELEMENT ClinicalRecord EMPTY>\n"
	"<!ATTLIST ClinicalRecord\n  type             CDATA #REQUIRED\n  identifier       CDATA #REQUIRED\n"
	"  sourceName       CDATA #REQUIRED\n  sourceURL        CDATA #REQUIRED\n"
	"  fhirVersion      CDATA #REQUIRED\n  receivedDate     CDATA #REQUIRED\n"
	"  resourceFilePath CDATA #REQUIRED\n>\n"
	"<!ELEMENT Audiogram ((MetadataEntry|SensitivityPoint)*)>\n"
	"<!ATTLIST Audiogram\n  type          CDATA #REQUIRED\n  sourceName    CDATA #REQUIRED\n"
	"  sourceVersion CDATA #IMPLIED\n  device        CDATA #IMPLIED\n  creationDate  CDATA #IMPLIED\n"
	"  startDate     CDATA #REQUIRED\n  endDate       CDATA #REQUIRED\n>\n"
	"<!ELEMENT SensitivityPoint EMPTY>\n"
	"<!ATTLIST SensitivityPoint\n  frequencyValue CDATA #REQUIRED\n  frequencyUnit  CDATA #REQUIRED\n"
	"  leftEarValue   CDATA #IMPLIED\n  leftEarUnit    CDATA #IMPLIED\n  leftEarMasked  CDATA #IMPLIED\n"
	"  rightEarValue  CDATA #IMPLIED\n  rightEarUnit   CDATA #IMPLIED\n  rightEarMasked CDATA #IMPLIED\n>\n"
	"<!ELEMENT VisionPrescription ((RightEye|LeftEye|Attachment|MetadataEntry)*)>\n"
	"<!ATTLIST VisionPrescription\n  type           CDATA #REQUIRED\n  dateIssued     CDATA #REQUIRED\n"
	"  expirationDate CDATA #IMPLIED\n  brand          CDATA #IMPLIED\n";
/* iOS 16 (export version 12) left the ATTLIST above unclosed and junk at the
 * end; --broken-dtd writes it that way. */
static const char dtd_tail[] =
	"<!ELEMENT RightEye EMPTY>\n<!ATTLIST RightEye\n  sphere     CDATA #IMPLIED\n  sphereUnit CDATA #IMPLIED\n"
	"  cylinder   CDATA #IMPLIED\n  axis       CDATA #IMPLIED\n>\n"
	"<!ELEMENT LeftEye EMPTY>\n<!ATTLIST LeftEye\n  sphere     CDATA #IMPLIED\n  sphereUnit CDATA #IMPLIED\n"
	"  cylinder   CDATA #IMPLIED\n  axis       CDATA #IMPLIED\n>\n"
	"<!ELEMENT Attachment EMPTY>\n<!ATTLIST Attachment\n  identifier CDATA #IMPLIED\n>\n";
static const char dtd_ios16_junk[] =
	"  device CDATA #IMPLIED\n  <!ELEMENT MetadataEntry EMPTY>\n  <!ATTLIST MetadataEntry\n"
	"    key CDATA #IMPLIED\n    value CDATA #IMPLIED\n>\n>\n";

static struct { uint64_t records, dups, correlations, workouts, routes, points; } cnt;
static struct rng ptr_rng;

static uint64_t new_pointer(void) { return 0x280000000ULL + (rng_next(&ptr_rng) & 0xffffff0ULL); }

static void put_uuid(struct rng *r)
{
	uint64_t a = rng_next(r), b = rng_next(r);
	putf("%08" PRIX64 "-%04" PRIX64 "-4%03" PRIX64 "-A%03" PRIX64 "-%012" PRIX64, a >> 32,
	     (a >> 16) & 0xffff, a & 0xfff, b >> 52, b & UINT64_C(0xffffffffffff));
}

static void put_source(int srcid, uint64_t ptr)
{
	putf(" sourceName=\"%s\" sourceVersion=\"%s\"", src[srcid].name, src[srcid].version);
	if (src[srcid].device && ptr)
		putf(" device=\"&lt;&lt;HKDevice: 0x%" PRIx64 "&gt;, %s&gt;\"", ptr, src[srcid].device);
}

/* The beat-by-beat list of an HRV sample: true local time of day, "HH:MM:SS,cc". */
static void put_beats(const struct sample *x)
{
	struct rng r = { opt.seed ^ ((uint64_t)x->start * 0x9e3779b97f4a7c15ULL) };
	double t = 0, span = (double)(x->end - x->start);
	puts_("  <HeartRateVariabilityMetadataList>\n");
	while (t < span) {
		int bpm = irange(&r, 54, 72);
		int64_t whole = x->start + (int64_t)t;
		int cs = (int)((t - floor(t)) * 100);
		struct tm tm;
		time_t tt = (time_t)whole;
		localtime_r(&tt, &tm);
		putf("   <InstantaneousBeatsPerMinute bpm=\"%d\" time=\"%02d:%02d:%02d,%02d\"/>\n",
		     bpm, tm.tm_hour, tm.tm_min, tm.tm_sec, cs);
		t += 60.0 / bpm * urange(&r, 0.92, 1.08);
	}
	puts_("  </HeartRateVariabilityMetadataList>\n");
}

static void put_record(const struct sample *x, const char *indent, uint64_t ptr)
{
	putf("%s<Record type=\"%s\"", indent, types[x->type].id);
	put_source(x->src, ptr);
	if (types[x->type].unit)
		putf(" unit=\"%s\"", types[x->type].unit);
	put_attr_date("creationDate", x->end + 5 + (x->start % 173));
	put_attr_date("startDate", x->start);
	put_attr_date("endDate", x->end);
	if (x->type == T_SLEEP || x->type == T_STAND) {
		putf(" value=\"%s\"", catname[x->cat]);
	} else {
		puts_(" value=\"");
		if (types[x->type].decimals < 0)
			putf("%.10g", x->value);
		else
			putf("%.*f", types[x->type].decimals, x->value);
		puts_("\"");
	}
	if (x->type == T_HR) {
		putf(">\n%s <MetadataEntry key=\"HKMetadataKeyHeartRateMotionContext\" value=\"%d\"/>\n%s</Record>\n",
		     indent, x->ctx, indent);
	} else if (x->type == T_SLEEP) {
		putf(">\n%s <MetadataEntry key=\"HKTimeZone\" value=\"%s\"/>\n%s</Record>\n", indent, opt.tz, indent);
	} else if (x->type == T_MASS) {
		putf(">\n%s <MetadataEntry key=\"Health Mate App Version\" value=\"6.2.1\"/>\n"
		     "%s <MetadataEntry key=\"Withings User Identifier\" value=\"%s\"/>\n%s</Record>\n",
		     indent, indent, opt.control_chars ? "31\v4142" : "314142", indent);
	} else if (x->type == T_VO2) {
		putf(">\n%s <MetadataEntry key=\"HKVO2MaxTestType\" value=\"2\"/>\n%s</Record>\n", indent, indent);
	} else if (x->type == T_HRV) {
		puts_(">\n");
		put_beats(x);
		putf("%s</Record>\n", indent);
	} else {
		puts_("/>\n");
	}
}

static int cmp_sample(const void *a, const void *b)
{
	const struct sample *x = a, *y = b;
	if (x->src != y->src)
		return x->src - y->src;
	return (x->start > y->start) - (x->start < y->start);
}

static void write_records(int type)
{
	for (int d = 0; d < opt.days; d++) {
		gen_day(d);
		qsort(D.s, (size_t)D.n, sizeof D.s[0], cmp_sample);
		for (int i = 0; i < D.n; i++) {
			if (D.s[i].type != type)
				continue;
			uint64_t ptr = new_pointer();
			for (int k = 0; k <= D.s[i].dup; k++) {
				put_record(&D.s[i], " ", ptr);
				cnt.records++;
			}
			cnt.dups += D.s[i].dup;
		}
	}
}

static void write_correlations(void)
{
	for (int d = 0; d < opt.days; d++) {
		gen_day(d);
		for (int i = 0; i + 1 < D.n; i++) {
			const struct sample *sys = &D.s[i], *dia = &D.s[i + 1];
			if (sys->type != T_SYS || dia->type != T_DIA)
				continue;
			uint64_t ptr = new_pointer();
			puts_(" <Correlation type=\"HKCorrelationTypeIdentifierBloodPressure\"");
			put_source(CUFF, ptr);
			put_attr_date("creationDate", sys->end + 5 + (sys->start % 173));
			put_attr_date("startDate", sys->start);
			put_attr_date("endDate", sys->end);
			puts_(">\n  <MetadataEntry key=\"HKWasUserEntered\" value=\"0\"/>\n");
			put_record(sys, "  ", ptr);
			put_record(dia, "  ", ptr);
			puts_(" </Correlation>\n");
			cnt.correlations++;
		}
	}
}

/* A workout's route: a loop in Griffith Park, faster and slower by turns, one
 * point every `step` seconds of active time (pauses leave no points). */
struct point { int64_t t; double lat, lon, ele, speed, course; };

static int route_point(const struct workout *w, int k, int step, struct point *p)
{
	double active = (double)k * step;
	if (active > w->active_s)
		return 0;
	p->t = w->start + (int64_t)active;
	if (w->pause_at && p->t >= w->pause_at)
		p->t += w->pause_len;
	/* Faster and slower by turns (three times a loop: the hills), so
	 * that a workout's best stretches are not all alike. */
	double u = active / w->active_s, surge = 0.012 * sin(6 * M_PI * u);
	double len = w->dist_mi * 1609.344, rad = len / (2 * M_PI), th = 2 * M_PI * (u + surge);
	p->lat = 34.1184 + rad * cos(th) / 111320.0;
	p->lon = -118.3004 + rad * sin(th) / (111320.0 * cos(34.1184 * M_PI / 180));
	p->ele = 140 + 18 * sin(2 * th);
	p->speed = len / w->active_s * (1 + 0.012 * 6 * M_PI * cos(6 * M_PI * u));
	p->course = fmod(th * 180 / M_PI + 90, 360);
	return 1;
}

static void route_name(char *buf, size_t n, const struct workout *w, int file)
{
	char b[32];
	fmt_apple(b, w->end);
	int h = (b[11] - '0') * 10 + (b[12] - '0');
	snprintf(buf, n, file ? "route_%.10s_%d.%.2s%s.gpx" : "Route %.10s %d:%.2s%s", b,
		 h % 12 ? h % 12 : 12, b + 14, h < 12 ? "am" : "pm");
}

static void put_stat(const char *type, const struct workout *w, const char *body)
{
	putf("  <WorkoutStatistics type=\"HKQuantityTypeIdentifier%s\"", type);
	put_attr_date("startDate", w->start);
	put_attr_date("endDate", w->end);
	putf(" %s/>\n", body);
}

static void put_stats(const struct workout *w, const char *indent)
{
	char b[160];
	static const char *const dist_type[] = { "DistanceWalkingRunning", "DistanceWalkingRunning", "DistanceCycling" };
	puts_(indent);
	snprintf(b, sizeof b, "sum=\"%.10g\" unit=\"Cal\"", w->energy);
	put_stat("ActiveEnergyBurned", w, b);
	puts_(indent);
	snprintf(b, sizeof b, "sum=\"%.10g\" unit=\"Cal\"", w->basal);
	put_stat("BasalEnergyBurned", w, b);
	puts_(indent);
	snprintf(b, sizeof b, "sum=\"%.10g\" unit=\"mi\"", w->dist_mi);
	put_stat(dist_type[w->kind], w, b);
	puts_(indent);
	snprintf(b, sizeof b, "average=\"%.10g\" minimum=\"%.0f\" maximum=\"%.0f\" unit=\"count/min\"",
		 w->hr_avg, w->hr_min, w->hr_max);
	put_stat("HeartRate", w, b);
	if (w->kind != CYCLE) {
		puts_(indent);
		snprintf(b, sizeof b, "sum=\"%d\" unit=\"count\"", w->steps);
		put_stat("StepCount", w, b);
	}
}

static void put_events(const struct workout *w, const char *indent)
{
	if (!w->pause_at)
		return;
	putf("%s<WorkoutEvent type=\"HKWorkoutEventTypePause\"", indent);
	put_attr_date("date", w->pause_at);
	putf("/>\n%s<WorkoutEvent type=\"HKWorkoutEventTypeResume\"", indent);
	put_attr_date("date", w->pause_at + w->pause_len);
	puts_("/>\n");
}

static void write_workout(struct workout *w, int day)
{
	struct rng r = rng_for(day, S_MISC + 7);
	putf(" <Workout workoutActivityType=\"%s\" duration=\"%.10g\" durationUnit=\"min\"",
	     wk_type[w->kind], w->active_s / 60);
	if (!w->new_form)
		putf(" totalDistance=\"%.10g\" totalDistanceUnit=\"mi\" totalEnergyBurned=\"%.10g\" totalEnergyBurnedUnit=\"kcal\"",
		     w->dist_mi, w->energy);
	put_source(WATCH, new_pointer());
	put_attr_date("creationDate", w->end + 3);
	put_attr_date("startDate", w->start);
	put_attr_date("endDate", w->end);
	puts_(">\n");
	if (w->new_form)
		puts_("  <MetadataEntry key=\"HKIndoorWorkout\" value=\"0\"/>\n");
	putf("  <MetadataEntry key=\"HKTimeZone\" value=\"%s\"/>\n", opt.tz);
	putf("  <MetadataEntry key=\"HKWeatherTemperature\" value=\"%d degF\"/>\n", irange(&r, 48, 78));
	putf("  <MetadataEntry key=\"HKWeatherHumidity\" value=\"%d %%\"/>\n", irange(&r, 30, 95) * (w->new_form ? 100 : 1));
	struct point p;
	int step = w->new_form ? 5 : 10;
	if (!w->new_form) {
		put_events(w, "  ");
		puts_("  <WorkoutRoute");
		put_source(PHONE, 0);
		put_attr_date("creationDate", w->end + 40);
		put_attr_date("startDate", w->start);
		put_attr_date("endDate", w->end);
		puts_(">\n");
		for (int k = 0; route_point(w, k, step, &p); k++) {
			puts_("   <Location");
			put_attr_date("date", p.t);
			putf(" latitude=\"%.6f\" longitude=\"%.6f\" altitude=\"%.4f\" horizontalAccuracy=\"%.5f\""
			     " verticalAccuracy=\"%.5f\" course=\"%.4f\" speed=\"%.5f\"/>\n", p.lat, p.lon, p.ele,
			     urange(&r, 2, 5), urange(&r, 1.5, 3.5), p.course, p.speed);
			w->route_points++;
		}
		puts_("  </WorkoutRoute>\n </Workout>\n");
		cnt.workouts++;
		cnt.routes++;
		cnt.points += (uint64_t)w->route_points;
		return;
	}
	putf("  <MetadataEntry key=\"HKAverageMETs\" value=\"%.5f kcal/hr\u00b7kg\"/>\n", urange(&r, 4, 11));
	putf("  <MetadataEntry key=\"HKElevationAscended\" value=\"%d cm\"/>\n", irange(&r, 800, 6000));
	put_events(w, "  ");
	puts_("  <WorkoutActivity uuid=\"");
	put_uuid(&r);
	puts_("\"");
	put_attr_date("startDate", w->start);
	put_attr_date("endDate", w->end);
	putf(" duration=\"%.10g\" durationUnit=\"min\">\n", w->active_s / 60);
	put_events(w, "   ");
	put_stats(w, " ");
	putf("   <MetadataEntry key=\"HKTimeZone\" value=\"%s\"/>\n  </WorkoutActivity>\n", opt.tz);
	put_stats(w, "");
	puts_("  <WorkoutRoute");
	put_source(WATCH, new_pointer());
	put_attr_date("creationDate", w->end + 40);
	put_attr_date("startDate", w->start);
	put_attr_date("endDate", w->end);
	puts_(">\n   <MetadataEntry key=\"HKMetadataKeySyncVersion\" value=\"2\"/>\n"
	      "   <MetadataEntry key=\"HKMetadataKeySyncIdentifier\" value=\"");
	put_uuid(&r);
	char name[64];
	route_name(name, sizeof name, w, 1);
	putf("\"/>\n   <FileReference path=\"/workout-routes/%s\"/>\n  </WorkoutRoute>\n </Workout>\n", name);
	for (int k = 0; route_point(w, k, step, &p); k++)
		w->route_points++;
	cnt.workouts++;
	cnt.routes++;
	cnt.points += (uint64_t)w->route_points;
}

static void write_gpx(const struct workout *w, int day)
{
	struct rng r = rng_for(day, S_MISC + 8);
	char name[64], t[32];
	route_name(name, sizeof name, w, 0);
	fmt_utc(t, sizeof t, opt.export_time);
	putf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"Apple Health Export\""
	     " xmlns=\"http://www.topografix.com/GPX/1/1\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
	     " xsi:schemaLocation=\"http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd\">\n"
	     "  <metadata>\n    <time>%s</time>\n  </metadata>\n  <trk>\n    <name>%s</name>\n    <trkseg>\n", t, name);
	struct point p;
	for (int k = 0; route_point(w, k, 5, &p); k++) {
		fmt_utc(t, sizeof t, p.t);
		putf("      <trkpt lon=\"%.6f\" lat=\"%.6f\"><ele>%.6f</ele><time>%s</time><extensions>"
		     "<speed>%.6f</speed><course>%.6f</course><hAcc>%.6f</hAcc><vAcc>%.6f</vAcc></extensions></trkpt>\n",
		     p.lon, p.lat, p.ele, t, p.speed, p.course, urange(&r, 1.3, 4.5), urange(&r, 0.9, 3.2));
	}
	puts_("    </trkseg>\n  </trk>\n</gpx>\n");
}

/* ---- reports: a lab history and DEXA scans -------------------------------- */

/*
 * --labs FILE writes three years of the persona's lab work as a lab CSV:
 * a lipid panel and HbA1c every six months, the LDL calculated at first
 * and measured directly later (a change of method), a few results out of
 * range, and one visit abroad reported in SI units (mmol/L, mmol/mol).
 * --dexa FILE writes three DEXA scans (BodySpec, in pounds) as hq's DEXA
 * JSON. --clinical puts the newest panel's LDL and HbA1c (the same results
 * as the CSV's, as the health system sends them) and a fasting glucose
 * into the export as ClinicalRecords with their FHIR resources.
 * Everything is dated back from the export's last day.
 */
static struct {
	const char *labs, *dexa;
	int clinical;
} rep;

#define NPANELS 7

static const struct panel {
	const char *source, *unit_mass, *ldl_code, *a1c_unit;
	double tc, hdl, ldl, tg, a1c;
	double ldl_high;                   /* the lab's own limit */
} panels[NPANELS] = {
	{ "Quest Diagnostics", "mg/dL", "13457-7", "%", 218, 48, 142, 140, 5.9, 129 },
	{ "Quest Diagnostics", "mg/dL", "13457-7", "%", 229, 46, 151, 162, 6.1, 129 },
	{ "Quest Diagnostics", "mg/dL", "13457-7", "%", 211, 50, 138, 131, 5.8, 129 },
	{ "Hopital Europeen Georges-Pompidou", "mmol/L", "22748-8", "mmol/mol",
	  5.4, 1.3, 3.3, 1.5, 39, 3.4 },
	{ "Stanford Health Care", "mg/dL", "18262-6", "%", 186, 52, 112, 118, 5.6, 99 },
	{ "Stanford Health Care", "mg/dL", "18262-6", "%", 174, 55, 101, 105, 5.5, 99 },
	{ "Stanford Health Care", "mg/dL", "18262-6", "%", 168, 57, 94, 99, 5.4, 99 },
};

/* The day (index in the range, negative before it) of panel k. */
static int panel_day(int k)
{
	return opt.days - 1 - 21 - 182 * (NPANELS - 1 - k);
}

static int write_labs(const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs("date,test,value,unit,ref_low,ref_high,loinc,source\n", f);
	for (int k = 0; k < NPANELS; k++) {
		const struct panel *p = &panels[k];
		int si = strcmp(p->unit_mass, "mmol/L") == 0;
		char date[16];
		date_str(date, sizeof date, panel_day(k));
		const struct {
			const char *name;
			double v;
			const char *unit, *lo, *hi, *code;
		} row[] = {
			{ "Cholesterol Total", p->tc, p->unit_mass, "", si ? "5.2" : "199",
			  si ? "14647-2" : "2093-3" },
			{ "HDL Cholesterol", p->hdl, p->unit_mass, si ? "1.0" : "40", "",
			  si ? "14646-4" : "2085-9" },
			{ "LDL Cholesterol", p->ldl, p->unit_mass, "", NULL, p->ldl_code },
			{ "Triglycerides", p->tg, p->unit_mass, "", si ? "1.7" : "149",
			  si ? "14927-8" : "2571-8" },
			{ "Hemoglobin A1c", p->a1c, p->a1c_unit, si ? "20" : "4.0",
			  si ? "42" : "5.6", si ? "59261-8" : "4548-4" },
		};
		for (size_t i = 0; i < sizeof row / sizeof row[0]; i++) {
			char hi[32];
			snprintf(hi, sizeof hi, "%.10g", p->ldl_high);
			fprintf(f, "%s,%s,%.10g,%s,%s,%s,%s,%s\n", date, row[i].name,
				row[i].v, row[i].unit, row[i].lo, row[i].hi ? row[i].hi : hi,
				row[i].code, p->source);
		}
	}
	return fclose(f);
}

static const struct scan {
	int days_before;                   /* the export's last day */
	double pct, fat, lean, bmc, vat, trunk_fat, android, gynoid, almi;
} scans[] = {
	{ 400, 25.8, 42.1, 118.2, 6.9, 1.32, 21.4, 31.0, 27.5, 7.9 },
	{ 220, 23.6, 38.0, 120.1, 6.9, 1.10, 18.9, 27.8, 26.1, 8.1 },
	{ 30, 22.2, 35.2, 120.4, 7.0, 1.06, 17.2, 25.9, 25.2, 8.1 },
};

static int write_dexa(const char *path)
{
	FILE *f = fopen(path, "w");
	size_t n = sizeof scans / sizeof scans[0];
	if (!f)
		return -1;
	fputs("[\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct scan *x = &scans[i];
		char date[16];
		date_str(date, sizeof date, opt.days - 1 - x->days_before);
		fprintf(f, "  {\"kind\": \"dexa\", \"date\": \"%s\", \"source\": \"BodySpec\",\n"
			"   \"fields\": {\"total_body_fat_pct\": %.10g,"
			" \"fat_mass\": {\"value\": %.10g, \"unit\": \"lb\"},"
			" \"lean_mass\": {\"value\": %.10g, \"unit\": \"lb\"},"
			" \"bmc\": {\"value\": %.10g, \"unit\": \"lb\"},"
			" \"total_mass\": {\"value\": %.10g, \"unit\": \"lb\"},"
			" \"vat_mass\": {\"value\": %.10g, \"unit\": \"lb\"},"
			" \"android_fat_pct\": %.10g, \"gynoid_fat_pct\": %.10g,"
			" \"ag_ratio\": %.3f, \"almi\": %.10g},\n"
			"   \"regions\": {\"trunk\": {\"fat_mass\": {\"value\": %.10g, \"unit\": \"lb\"}}}}%s\n",
			date, x->pct, x->fat, x->lean, x->bmc, x->fat + x->lean + x->bmc,
			x->vat, x->android, x->gynoid, x->android / x->gynoid, x->almi,
			x->trunk_fat, i + 1 < n ? "," : "");
	}
	fputs("]\n", f);
	return fclose(f);
}

/* The clinical records: id, FHIR version, and the resource's JSON. */
struct clinical {
	const char *id, *fhir;
	char json[1024];
};

static size_t clinical_records(struct clinical *c)
{
	const struct panel *p = &panels[NPANELS - 1];
	char when[40];
	int64_t t = local_at(panel_day(NPANELS - 1), 8, 10, 0);
	fmt_utc(when, sizeof when, t);
	c[0] = (struct clinical){ "e7Xq2mN1.ldl", "4.0.1", "" };
	snprintf(c[0].json, sizeof c[0].json,
		"{\"resourceType\":\"Observation\",\"id\":\"e7Xq2mN1.ldl\",\"status\":\"final\","
		"\"category\":[{\"coding\":[{\"system\":\"http://terminology.hl7.org/CodeSystem/"
		"observation-category\",\"code\":\"laboratory\"}]}],\"code\":{\"coding\":[{\"system\":"
		"\"http://loinc.org\",\"code\":\"18262-6\",\"display\":\"LDL Cholesterol (Direct)\"}],"
		"\"text\":\"LDL CHOLESTEROL, DIRECT\"},\"effectiveDateTime\":\"%s\",\"valueQuantity\":"
		"{\"value\":%.10g,\"unit\":\"mg/dL\",\"system\":\"http://unitsofmeasure.org\",\"code\":"
		"\"mg/dL\"},\"referenceRange\":[{\"high\":{\"value\":99,\"unit\":\"mg/dL\"}}]}",
		when, p->ldl);
	c[1] = (struct clinical){ "e7Xq2mN1.a1c", "4.0.1", "" };
	snprintf(c[1].json, sizeof c[1].json,
		"{\"resourceType\":\"Observation\",\"id\":\"e7Xq2mN1.a1c\",\"status\":\"final\","
		"\"category\":[{\"coding\":[{\"code\":\"laboratory\"}]}],\"code\":{\"coding\":[{\"system\":"
		"\"http://loinc.org\",\"code\":\"4548-4\"}],\"text\":\"HEMOGLOBIN A1C\"},"
		"\"effectiveDateTime\":\"%s\",\"valueQuantity\":{\"value\":%.10g,\"unit\":\"%%\"},"
		"\"referenceRange\":[{\"low\":{\"value\":4.0},\"high\":{\"value\":5.6}}]}",
		when, p->a1c);
	c[2] = (struct clinical){ "Tb9Lk0.glu", "1.0.2", "" };
	snprintf(c[2].json, sizeof c[2].json,
		"{\"resourceType\":\"Observation\",\"id\":\"Tb9Lk0.glu\",\"status\":\"final\","
		"\"category\":{\"coding\":[{\"system\":\"http://hl7.org/fhir/observation-category\","
		"\"code\":\"laboratory\"}]},\"code\":{\"coding\":[{\"system\":\"http://loinc.org\","
		"\"code\":\"1558-6\"}],\"text\":\"GLUCOSE, FASTING\"},\"effectiveDateTime\":\"%s\","
		"\"valueQuantity\":{\"value\":97,\"unit\":\"mg/dL\"},\"referenceRange\":[{\"low\":"
		"{\"value\":65},\"high\":{\"value\":99}}],\"interpretation\":{\"coding\":[{\"code\":\"N\"}]}}",
		when);
	return 3;
}

static void write_clinical_stubs(void)
{
	struct clinical c[3];
	size_t n = clinical_records(c);
	char b[32];
	fmt_apple(b, opt.export_time);
	for (size_t i = 0; i < n; i++)
		putf(" <ClinicalRecord type=\"HKClinicalTypeIdentifierLabResultRecord\""
		     " identifier=\"%s\" sourceName=\"Stanford Health Care\""
		     " sourceURL=\"https://fhir.stanfordhealthcare.org/api/FHIR/%s\""
		     " fhirVersion=\"%s\" receivedDate=\"%.25s\""
		     " resourceFilePath=\"/clinical-records/Observation-%s.json\"/>\n",
		     c[i].id, strcmp(c[i].fhir, "1.0.2") == 0 ? "DSTU2" : "R4", c[i].fhir, b,
		     c[i].id);
}

static int write_clinical_files(int (*entry)(const char *, int))
{
	struct clinical c[3];
	size_t n = clinical_records(c);
	char name[256];
	if (entry("apple_health_export/clinical-records/", 1))
		return -1;
	for (size_t i = 0; i < n; i++) {
		snprintf(name, sizeof name,
			 "apple_health_export/clinical-records/Observation-%s.json", c[i].id);
		if (entry(name, 0))
			return -1;
		puts_(c[i].json);
		sink_flush();
	}
	return 0;
}

static int write_reports(void)
{
	if (rep.labs && write_labs(rep.labs) != 0) {
		fprintf(stderr, "%s: cannot write %s: %s\n", prog, rep.labs, strerror(errno));
		return -1;
	}
	if (rep.dexa && write_dexa(rep.dexa) != 0) {
		fprintf(stderr, "%s: cannot write %s: %s\n", prog, rep.dexa, strerror(errno));
		return -1;
	}
	return 0;
}

static void write_xml(void)
{
	char b[32];
	puts_("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	puts_(dtd);
	puts_(opt.broken_dtd ? "" : ">\n");
	puts_(dtd_tail);
	puts_(opt.broken_dtd ? dtd_ios16_junk : "");
	puts_("]>\n");
	puts_("<HealthData locale=\"en_US\">\n <ExportDate value=\"");
	put(fmt_apple(b, opt.export_time), 25);
	puts_("\"/>\n <Me HKCharacteristicTypeIdentifierDateOfBirth=\"1988-04-12\""
	      " HKCharacteristicTypeIdentifierBiologicalSex=\"HKBiologicalSexFemale\""
	      " HKCharacteristicTypeIdentifierBloodType=\"HKBloodTypeAPositive\""
	      " HKCharacteristicTypeIdentifierFitzpatrickSkinType=\"HKFitzpatrickSkinTypeNotSet\""
	      " HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse=\"None\"/>\n");
	ptr_rng = rng_for(-1, S_PTR);
	for (int t = 0; t < NTYPES; t++)
		write_records(t);
	write_correlations();
	for (int i = 0; i < nwks; i++)
		write_workout(&wks[i].w, wks[i].day);
	for (int d = 0; d < opt.days; d++) {
		char date[16];
		date_str(date, sizeof date, d);
		putf(" <ActivitySummary dateComponents=\"%s\" activeEnergyBurned=\"%.10g\" activeEnergyBurnedGoal=\"600\""
		     " activeEnergyBurnedUnit=\"Cal\" appleMoveTime=\"0\" appleMoveTimeGoal=\"0\" appleExerciseTime=\"%.0f\""
		     " appleExerciseTimeGoal=\"30\" appleStandHours=\"%.0f\" appleStandHoursGoal=\"12\"/>\n",
		     date, round_to(TR(d, F_ACTIVE), 0.001), TR(d, F_EXER), TR(d, F_STAND));
	}
	if (rep.clinical)
		write_clinical_stubs();
	puts_("</HealthData>\n");
}

/* ---- zip entries, truth file, range set-up ------------------------------ */

static int zip_entry(const char *name, int dir)
{
	struct archive_entry *e = archive_entry_new();
	if (!e)
		return -1;
	archive_entry_set_pathname_utf8(e, name);
	archive_entry_set_filetype(e, dir ? AE_IFDIR : AE_IFREG);
	archive_entry_set_perm(e, dir ? 0755 : 0644);
	archive_entry_set_mtime(e, (time_t)opt.export_time, 0);
	if (dir)
		archive_entry_set_size(e, 0);
	int rc = archive_write_header(out.ar, e);
	archive_entry_free(e);
	out.bytes = 0;
	return rc == ARCHIVE_OK || rc == ARCHIVE_WARN ? 0 : -1;
}

static void write_cda(void)
{
	char b[32];
	fmt_apple(b, opt.export_time);
	putf("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	     "<ClinicalDocument xmlns=\"urn:hl7-org:v3\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n"
	     " <realmCode code=\"US\"/>\n <typeId root=\"2.16.840.1.113883.1.3\" extension=\"POCD_HD000040\"/>\n"
	     " <title>Health Data Export</title>\n"
	     " <effectiveTime value=\"%.4s%.2s%.2s%.2s%.2s%.2s%.5s\"/>\n"
	     " <recordTarget><patientRole><patient><administrativeGenderCode code=\"F\"/>"
	     "<birthTime value=\"19880412\"/></patient></patientRole></recordTarget>\n"
	     " <component><structuredBody/></component>\n</ClinicalDocument>\n",
	     b, b + 5, b + 8, b + 11, b + 14, b + 17, b + 20);
}

/* The truth file, one JSON object a line: per local day (date, day_hours,
 * steps after source priority, steps_naive, heart rate avg/min/max/n,
 * watch_off_min, exercise_minutes, active_energy, glucose avg/max/n, sleep
 * minutes keyed by the night's end: asleep (union), inbed, deep, rem, core,
 * awake; stand_hours, workouts; HRV avg and n, null without readings;
 * heart rate median and p90, glucose median and p10); then per workout
 * (type, form old|new, start and end in UTC, duration_min without pauses,
 * distance_km, energy_kcal, avg/min/max HR of the samples inside it,
 * route_points); then a summary (with the median and p99 of every heart
 * rate, the p25 of every glucose value). */
static int write_truth(const char *path)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	for (int d = 0; d < opt.days; d++) {
		char date[16];
		date_str(date, sizeof date, d);
		double hn = TR(d, F_HR_N), gn = TR(d, F_GL_N);
		char hrv[32] = "null";
		if (TR(d, F_HRV_N) > 0)
			snprintf(hrv, sizeof hrv, "%.10g", TR(d, F_HRV_SUM) / TR(d, F_HRV_N));
		fprintf(f, "{\"date\":\"%s\",\"day_hours\":%.10g,\"steps\":%.10g,\"steps_naive\":%.10g,"
			"\"steps_watch\":%.10g,\"steps_phone\":%.10g,\"heart_rate_avg\":%.10g,"
			"\"heart_rate_min\":%.10g,\"heart_rate_max\":%.10g,\"heart_rate_n\":%.10g,"
			"\"watch_off_min\":%.10g,\"exercise_minutes\":%.10g,\"active_energy\":%.10g,"
			"\"glucose_avg\":%.10g,\"glucose_max\":%.10g,\"glucose_n\":%.10g,"
			"\"sleep_asleep_min\":%.10g,\"sleep_inbed_min\":%.10g,\"sleep_deep_min\":%.10g,"
			"\"sleep_rem_min\":%.10g,\"sleep_core_min\":%.10g,\"sleep_awake_min\":%.10g,"
			"\"stand_hours\":%.10g,\"workouts\":%.10g,\"hrv_avg\":%s,\"hrv_n\":%.10g,"
			"\"heart_rate_median\":%.10g,\"heart_rate_p90\":%.10g,\"glucose_median\":%.10g,"
			"\"glucose_p10\":%.10g}\n",
			date, (double)(mids[d + 1] - mids[d]) / 3600, TR(d, F_STEPS), TR(d, F_NAIVE),
			TR(d, F_WATCH), TR(d, F_PHONE), hn ? TR(d, F_HR_SUM) / hn : 0, TR(d, F_HR_MIN),
			TR(d, F_HR_MAX), hn, TR(d, F_OFF), TR(d, F_EXER), TR(d, F_ACTIVE),
			gn ? TR(d, F_GL_SUM) / gn : 0, TR(d, F_GL_MAX), gn, TR(d, F_ASLEEP), TR(d, F_INBED),
			TR(d, F_DEEP), TR(d, F_REM), TR(d, F_CORE), TR(d, F_AWAKE), TR(d, F_STAND), TR(d, F_NWK),
			hrv, TR(d, F_HRV_N),
			hist_quantile(d, d + 1, H_HR, 0.5), hist_quantile(d, d + 1, H_HR, 0.9),
			hist_quantile(d, d + 1, H_GL, 0.5), hist_quantile(d, d + 1, H_GL, 0.1));
	}
	for (int i = 0; i < nwks; i++) {
		const struct workout *w = &wks[i].w;
		char s[32], e[32], date[16];
		fmt_utc(s, sizeof s, w->start);
		fmt_utc(e, sizeof e, w->end);
		date_str(date, sizeof date, wks[i].day);
		fprintf(f, "{\"workout\":%d,\"type\":\"%s\",\"form\":\"%s\",\"date\":\"%s\",\"start\":\"%s\",\"end\":\"%s\","
			"\"duration_min\":%.10g,\"pause_s\":%d,\"distance_km\":%.10g,\"energy_kcal\":%.10g,"
			"\"avg_hr\":%.10g,\"min_hr\":%.10g,\"max_hr\":%.10g,\"route_points\":%d}\n",
			i + 1, wk_name[w->kind], w->new_form ? "new" : "old", date, s, e, w->active_s / 60,
			w->pause_len, w->dist_mi * 1.609344, w->energy, w->hr_avg, w->hr_min, w->hr_max,
			w->route_points);
	}
	fprintf(f, "{\"summary\":true,\"days\":%d,\"tz\":\"%s\",\"export_offset\":\"%s\",\"records\":%" PRIu64
		",\"duplicates\":%" PRIu64 ",\"unique_records\":%" PRIu64 ",\"correlations\":%" PRIu64
		",\"workouts\":%" PRIu64 ",\"routes\":%" PRIu64 ",\"route_points\":%" PRIu64
		",\"xml_bytes\":%" PRIu64 ",\"heart_rate_median\":%.10g,\"heart_rate_p99\":%.10g,"
		"\"glucose_p25\":%.10g}\n",
		opt.days, opt.tz, export_off_str, cnt.records, cnt.dups, cnt.records - cnt.dups,
		cnt.correlations, cnt.workouts, cnt.routes, cnt.points, out.bytes,
		hist_quantile(0, opt.days, H_HR, 0.5), hist_quantile(0, opt.days, H_HR, 0.99),
		hist_quantile(0, opt.days, H_GL, 0.25));
	return fclose(f) == 0 ? 0 : -1;
}

/* --clarity: the persona's CGM readings (the Dexcom G7 samples of the
 * export) as a Dexcom Clarity CSV export writes them: the header, the
 * metadata rows, then one EGV row per reading in local wall time with no
 * zone, a transmitter ID per 10-day sensor. The same readings reach hq twice
 * this way, as they do for a Dexcom user who also exports from Clarity. */
static int write_clarity(const char *path)
{
	FILE *f = fopen(path, "w");
	long row = 1;
	if (!f)
		return -1;
	fprintf(f, "\xEF\xBB\xBFIndex,Timestamp (YYYY-MM-DDThh:mm:ss),Event Type,Event Subtype,"
		"Patient Info,Device Info,Source Device ID,Glucose Value (mg/dL),Insulin Value (u),"
		"Carb Value (grams),Duration (hh:mm:ss),Glucose Rate of Change (mg/dL/min),"
		"Transmitter Time (Long Integer),Transmitter ID\r\n");
	fprintf(f, "%ld,,FirstName,,Alex,,,,,,,,,\r\n", row++);
	fprintf(f, "%ld,,LastName,,Doe,,,,,,,,,\r\n", row++);
	fprintf(f, "%ld,,Device,,,Dexcom G7 Mobile App,iOS G7,,,,,,,\r\n", row++);
	fprintf(f, "%ld,,Alert,High,,,iOS G7,250,,,,,,\r\n", row++);
	for (int d = 0; d < opt.days; d++) {
		gen_day(d);
		qsort(D.s, (size_t)D.n, sizeof D.s[0], cmp_sample);
		for (int i = 0; i < D.n; i++) {
			if (D.s[i].type != T_GLUC)
				continue;
			struct tm tm;
			time_t t = (time_t)D.s[i].start;
			localtime_r(&t, &tm);
			fprintf(f, "%ld,%04d-%02d-%02dT%02d:%02d:%02d,EGV,,,,iOS G7,%.0f,,,,,%ld,G7SENSOR%02d\r\n",
				row++, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
				tm.tm_sec, D.s[i].value, (long)(D.s[i].start % 864000),
				/* gen_day changes the sensor at 10:00 on every tenth day */
				(d + (d % 10 == 9 && tm.tm_hour >= 10)) / 10 + 1);
		}
	}
	return fclose(f) == 0 ? 0 : -1;
}

static void set_range(void)
{
	free(mids);
	free(tr);
	free(hist);
	free(wks);
	wks = NULL;
	nwks = 0;
	memset(&cnt, 0, sizeof cnt);
	mids = malloc((size_t)(opt.days + 2) * sizeof *mids);
	tr = calloc((size_t)opt.days * NF, sizeof *tr);
	hist = calloc((size_t)opt.days * NH * HMAX, sizeof *hist);
	hist_bad = 0;
	if (!mids || !tr || !hist) {
		fprintf(stderr, "%s: out of memory\n", prog);
		exit(2);
	}
	for (int d = 0; d < opt.days + 2; d++)
		mids[d] = local_at(d, 0, 0, 0);
	for (int d = 0; d < opt.days; d++)
		truth_day(d);
}

/* ---- main ---------------------------------------------------------------- */

/* ---- --meals: a food log ----------------------------------------------------
 *
 * The last MEAL_DAYS days of the range (all of a shorter one): breakfast
 * (at the glucose model's time after getting up), a latte ten minutes
 * later, lunch and dinner (the glucose model's times), each a Food
 * correlation of MyFitnessPal with its nutrients as Dietary records, top
 * level and inside it, HKFoodType and meal on the correlation.  On some
 * days Lose It! logs the dinner again, the same food at the same instant
 * (HKFoodType on its records, not on the correlation): a naive sum counts
 * it twice.  A file of its own, so the export and its truth stay as they
 * were; its truth lines are appended to --truth's file. */
#define MEAL_DAYS 7
enum { N_ENERGY, N_PROTEIN, N_CARBS, N_FAT, N_FIBER, N_SUGAR, N_SODIUM, N_CAFFEINE,
       N_WATER, NNUTR };
static const struct { const char *hk, *unit, *key; } nutr[NNUTR] = {
	{ "DietaryEnergyConsumed", "kcal", "energy_kcal" }, { "DietaryProtein", "g", "protein_g" },
	{ "DietaryCarbohydrates", "g", "carbs_g" }, { "DietaryFatTotal", "g", "fat_g" },
	{ "DietaryFiber", "g", "fiber_g" }, { "DietarySugar", "g", "sugar_g" },
	{ "DietarySodium", "mg", "sodium_mg" }, { "DietaryCaffeine", "mg", "caffeine_mg" },
	{ "DietaryWater", "mL", "water_ml" },
};
static const struct food { const char *name; double v[NNUTR]; } menu[] = {
	{ "Oatmeal with blueberries", { 310, 10.5, 54, 6.2, 8, 14, 120, 0, 0 } },
	{ "Greek yogurt and granola", { 340, 20, 42, 9.5, 3, 18, 95, 0, 0 } },
	{ "Scrambled eggs on toast", { 420, 24, 30, 22, 2.5, 4, 610, 0, 0 } },
	{ "Latte", { 190, 10, 15, 7, 0, 14, 150, 150, 300 } },
	{ "Chicken burrito bowl", { 650, 42, 70, 20, 12, 6, 1150, 0, 0 } },
	{ "Lentil soup", { 380, 22, 55, 7, 16, 8, 820, 0, 0 } },
	{ "Turkey sandwich", { 480, 30, 48, 16, 5, 7, 1240, 0, 0 } },
	{ "Salmon, rice and broccoli", { 690, 45, 62, 26, 6, 3, 540, 0, 0 } },
	{ "Spaghetti bolognese", { 780, 38, 92, 26, 8, 12, 980, 0, 0 } },
	{ "Tofu stir-fry", { 560, 28, 58, 22, 9, 10, 1320, 0, 0 } },
};
static const char *const meal_name[] = { "Breakfast", "Breakfast", "Lunch", "Dinner" };

struct meal { int64_t t; const struct food *f; int twice; };

/* Day d's four entries, in time order. */
static void plan_food(int d, struct meal m[4])
{
	struct rng r = rng_for(d, S_FOOD);
	struct night n;
	int after;
	int64_t lunch, dinner;
	double h[3];
	night_for(d, &n);
	plan_meals(d, &after, &lunch, &dinner, h);
	int64_t breakfast = (n.out + after * 60) / 60 * 60;
	m[0] = (struct meal){ breakfast, &menu[irange(&r, 0, 2)], 0 };
	m[1] = (struct meal){ breakfast + 600, &menu[3], 0 };
	m[2] = (struct meal){ lunch, &menu[irange(&r, 4, 6)], 0 };
	m[3] = (struct meal){ dinner, &menu[irange(&r, 7, 9)], uni(&r) < 0.5 };
}

static void put_food_records(FILE *f, const struct meal *m, const char *source,
			     const char *indent, int meta)
{
	char b[32];
	fmt_apple(b, m->t);
	for (int k = 0; k < NNUTR; k++) {
		if (m->f->v[k] == 0)
			continue;
		fprintf(f, "%s<Record type=\"HKQuantityTypeIdentifier%s\" sourceName=\"%s\" "
			"sourceVersion=\"1\" unit=\"%s\" creationDate=\"%.25s\" startDate=\"%.25s\" "
			"endDate=\"%.25s\" value=\"%.10g\"", indent, nutr[k].hk, source, nutr[k].unit,
			b, b, b, m->f->v[k]);
		if (meta)
			fprintf(f, ">\n%s <MetadataEntry key=\"HKFoodType\" value=\"%s\"/>\n%s</Record>\n",
				indent, m->f->name, indent);
		else
			fputs("/>\n", f);
	}
}

static int write_meals(const char *path, const char *truth)
{
	static const char *const app[2] = { "MyFitnessPal", "Lose It!" };
	FILE *f = fopen(path, "w"), *t = NULL;
	int first = opt.days > MEAL_DAYS ? opt.days - MEAL_DAYS : 0;
	char b[32];
	if (!f || (truth && !(t = fopen(truth, "a")))) {
		if (f)
			fclose(f);
		return -1;
	}
	fmt_apple(b, opt.export_time);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
		" <ExportDate value=\"%.25s\"/>\n", b);
	for (int d = first; d < opt.days; d++) {      /* the records, top level */
		struct meal m[4];
		plan_food(d, m);
		for (int i = 0; i < 4; i++) {
			put_food_records(f, &m[i], app[0], " ", 0);
			if (m[i].twice)
				put_food_records(f, &m[i], app[1], " ", 1);
		}
	}
	for (int d = first; d < opt.days; d++) {      /* the correlations */
		struct meal m[4];
		double sum[NNUTR] = { 0 }, naive = 0;
		int entries = 0;
		char date[16];
		plan_food(d, m);
		for (int i = 0; i < 4; i++)
			for (int a = 0; a < 1 + m[i].twice; a++) {
				fmt_apple(b, m[i].t);
				fprintf(f, " <Correlation type=\"HKCorrelationTypeIdentifierFood\" "
					"sourceName=\"%s\" sourceVersion=\"1\" creationDate=\"%.25s\" "
					"startDate=\"%.25s\" endDate=\"%.25s\">\n", app[a], b, b, b);
				if (a == 0)
					fprintf(f, "  <MetadataEntry key=\"HKFoodType\" value=\"%s\"/>\n"
						"  <MetadataEntry key=\"meal\" value=\"%s\"/>\n",
						m[i].f->name, meal_name[i]);
				put_food_records(f, &m[i], app[a], "  ", a == 1);
				fputs(" </Correlation>\n", f);
				entries++;
				naive += m[i].f->v[N_ENERGY];
				if (a == 0)
					for (int k = 0; k < NNUTR; k++)
						sum[k] += m[i].f->v[k];
			}
		if (!t)
			continue;
		/* the truth: each meal once; shares of the energy at 4/4/9 kcal/g */
		date_str(date, sizeof date, d);
		fprintf(t, "{\"meals\":\"%s\"", date);
		for (int k = 0; k < NNUTR; k++)
			fprintf(t, ",\"%s\":%.10g", nutr[k].key, sum[k]);
		fprintf(t, ",\"protein_pct\":%.10g,\"carbs_pct\":%.10g,\"fat_pct\":%.10g,"
			"\"entries\":%d,\"energy_kcal_naive\":%.10g}\n",
			sum[N_PROTEIN] * 4 / sum[N_ENERGY] * 100, sum[N_CARBS] * 4 / sum[N_ENERGY] * 100,
			sum[N_FAT] * 9 / sum[N_ENERGY] * 100, entries, naive);
	}
	fputs("</HealthData>\n", f);
	int bad = ferror(f) | (t && ferror(t));
	bad |= fclose(f) != 0;
	if (t)
		bad |= fclose(t) != 0;
	return bad ? -1 : 0;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: gen-export [--days N] [--start YYYY-MM-DD] [--seed N] [--tz ZONE]\n"
		"                  [--export-date 'YYYY-MM-DD HH:MM:SS'] [--size BYTES[K|M|G]]\n"
		"                  [--zip|--xml] [--xml-name NAME] [--truth FILE] [--clarity FILE]\n"
		"                  [--broken-dtd] [--control-chars] [--labs FILE] [--dexa FILE]\n"
		"                  [--clinical] [--everyday] [--meals FILE] -o OUT\n"
		"Writes a realistic Apple Health export (zip or bare XML) of one persona:\n"
		"iPhone + Apple Watch steps that overlap, per-minute heart rate, HRV beat lists,\n"
		"sleep stages and in-bed time, CGM glucose, blood pressure, workouts in the old\n"
		"and iOS 16+ forms with routes, activity summaries.  She trains: heart rate\n"
		"every 5 s during workouts (on through pauses), cycling power every second on\n"
		"some rides, hilly routes taken faster and slower by turns.  Dates carry the\n"
		"zone's offset at the export date.  --truth writes per-day aggregates as JSON\n"
		"lines.\n"
		"Defaults: 30 days from 2024-10-20 (across the November DST change), seed 1,\n"
		"America/Los_Angeles, export the morning after the last day, --zip if OUT\n"
		"ends in .zip.  --size keeps adding days until the XML is about BYTES long.\n"
		"--broken-dtd writes the malformed DTD of iOS 16; --control-chars puts U+000B\n"
		"in some metadata values, as real exports have: both are not well-formed XML.\n"
		"Known effects: sleep starts 40 minutes later after a day with glucose above\n"
		"140 mg/dL; HRV is 0.02 ms lower per kcal of the previous day's workout.\n"
		"--labs writes three years of lab results as a lab CSV, --dexa three DEXA\n"
		"scans as DEXA JSON; --clinical adds lab ClinicalRecords and their FHIR files.\n"
		"--clarity writes the CGM readings again as a Dexcom Clarity CSV export.\n"
		"--everyday: resting heart rate 0.1 bpm higher each day, and 12 bpm higher\n"
		"still on the fourth day from the end (a trend and an alert to find).\n"
		"--meals writes a food log of the last 7 days as an export XML of its own\n"
		"(Food correlations of two apps, one logging some dinners again); with\n"
		"--truth, its days' nutrients are appended there as {\"meals\":DATE,...}.\n");
}

static int parse_u64(const char *s, uint64_t *v, int suffixes)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		return -1;
	uint64_t mul = 1;
	if (suffixes && *end) {
		mul = *end == 'K' ? 1000 : *end == 'M' ? 1000000 : *end == 'G' ? 1000000000 : 0;
		if (!mul || end[1])
			return -1;
	} else if (*end) {
		return -1;
	}
	*v = (uint64_t)x * mul;
	return 0;
}

/* The zone must exist: glibc silently falls back to UTC otherwise. */
static int set_zone(const char *tz)
{
	const char *dir = getenv("TZDIR") ? getenv("TZDIR") : "/usr/share/zoneinfo";
	char path[4096];
	struct stat st;
	snprintf(path, sizeof path, "%s/%s", dir, tz);
	if (tz[0] == '\0' || strstr(tz, "..") || stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "%s: unknown time zone '%s' (not in %s) — use an IANA name such as Europe/Paris\n",
			prog, tz, dir);
		return -1;
	}
	if (setenv("TZ", tz, 1) != 0)
		return -1;
	tzset();
	return 0;
}

static void set_export_time(int64_t t)
{
	struct tm tm;
	time_t et = (time_t)t;
	localtime_r(&et, &tm);
	opt.export_time = t;
	export_off = tm.tm_gmtoff;
	int o = (int)(labs(tm.tm_gmtoff) / 60 % (24 * 60));
	snprintf(export_off_str, sizeof export_off_str, "%c%02d%02d", tm.tm_gmtoff < 0 ? '-' : '+', o / 60, o % 60);
}

/* --size: writes a week into a sink that discards, then sizes the range.
 * Without --start the range ends where the default 30 days end. */
static void size_range(int have_start, int have_export)
{
	int64_t first = start_days, end_days = start_days + 30;
	opt.days = 7;
	start_days = end_days - 7;
	if (!have_export)
		set_export_time(local_at(7, 9, 41, 27));
	set_range();
	write_xml();
	uint64_t per_day = out.bytes / 7 + 1;
	out.len = 0;
	out.bytes = 0;
	opt.days = (int)((opt.size + per_day - 1) / per_day);
	start_days = have_start ? first : end_days - opt.days;
}

static int write_zip(void)
{
	char name[1024];
	out.ar = archive_write_new();
	if (!out.ar || archive_write_set_format_zip(out.ar) != ARCHIVE_OK)
		return -1;
	archive_write_set_format_option(out.ar, "zip", "compression-level", "1");
	archive_write_set_format_option(out.ar, "zip", "hdrcharset", "UTF-8");
	if (archive_write_open_filename(out.ar, opt.out) != ARCHIVE_OK)
		return -1;
	snprintf(name, sizeof name, "apple_health_export/%s", opt.xml_name);
	if (zip_entry("apple_health_export/", 1) || zip_entry(name, 0))
		return -1;
	write_xml();
	sink_flush();
	uint64_t xml_bytes = out.bytes;
	if (zip_entry("apple_health_export/export_cda.xml", 0))
		return -1;
	write_cda();
	sink_flush();
	if (zip_entry("apple_health_export/workout-routes/", 1))
		return -1;
	for (int i = 0; i < nwks; i++) {
		if (!wks[i].w.new_form)
			continue;
		char file[64];
		route_name(file, sizeof file, &wks[i].w, 1);
		snprintf(name, sizeof name, "apple_health_export/workout-routes/%s", file);
		if (zip_entry(name, 0))
			return -1;
		write_gpx(&wks[i].w, wks[i].day);
		sink_flush();
	}
	if (rep.clinical && write_clinical_files(zip_entry))
		return -1;
	out.bytes = xml_bytes;
	return out.failed || archive_write_close(out.ar) != ARCHIVE_OK ? -1 : 0;
}

static int write_bare(void)
{
	out.fp = strcmp(opt.out, "-") == 0 ? stdout : fopen(opt.out, "wb");
	if (!out.fp)
		return -1;
	write_xml();
	sink_flush();
	int failed = out.failed || ferror(out.fp);
	return (out.fp != stdout ? fclose(out.fp) : fflush(out.fp)) != 0 || failed ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "days", required_argument, NULL, 'd' }, { "start", required_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'S' }, { "tz", required_argument, NULL, 'z' },
		{ "export-date", required_argument, NULL, 'e' }, { "size", required_argument, NULL, 'b' },
		{ "zip", no_argument, NULL, 'Z' }, { "xml", no_argument, NULL, 'X' },
		{ "xml-name", required_argument, NULL, 'n' }, { "truth", required_argument, NULL, 't' },
		{ "output", required_argument, NULL, 'o' }, { "help", no_argument, NULL, 'h' },
		{ "broken-dtd", no_argument, NULL, 'B' }, { "control-chars", no_argument, NULL, 'C' },
		{ "labs", required_argument, NULL, 'L' }, { "dexa", required_argument, NULL, 'D' },
		{ "clinical", no_argument, NULL, 'R' },
		{ "clarity", required_argument, NULL, 'G' },
		{ "everyday", no_argument, NULL, 'V' },
		{ "meals", required_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 } };
	const char *export_date = NULL;
	int have_start = 0, have_days = 0, c, n, li = 0, status = 0;
	uint64_t v;
	while ((c = getopt_long(argc, argv, "o:h", longopts, &li)) != -1) {
		switch (c) {
		case 'd':
			if (parse_u64(optarg, &v, 0) || v < 1 || v > 36500)
				goto bad;
			opt.days = (int)v;
			have_days = 1;
			break;
		case 's':
			if (sscanf(optarg, "%4d-%2d-%2d%n", &opt.start_y, &opt.start_m, &opt.start_d, &n) != 3
			    || optarg[n] || opt.start_m < 1 || opt.start_m > 12 || opt.start_d < 1 || opt.start_d > 31)
				goto bad;
			have_start = 1;
			break;
		case 'S':
			if (parse_u64(optarg, &opt.seed, 0))
				goto bad;
			break;
		case 'z': opt.tz = optarg; break;
		case 'e': export_date = optarg; break;
		case 'b':
			if (parse_u64(optarg, &opt.size, 1) || opt.size < 100000)
				goto bad;
			break;
		case 'Z': opt.zip = 1; break;
		case 'X': opt.zip = 0; break;
		case 'n': opt.xml_name = optarg; break;
		case 't': opt.truth = optarg; break;
		case 'o': opt.out = optarg; break;
		case 'B': opt.broken_dtd = 1; break;
		case 'C': opt.control_chars = 1; break;
		case 'L': rep.labs = optarg; break;
		case 'D': rep.dexa = optarg; break;
		case 'R': rep.clinical = 1; break;
		case 'G': opt.clarity = optarg; break;
		case 'V': opt.everyday = 1; break;
		case 'M': opt.meals = optarg; break;
		case 'h': usage(stdout); return 0;
		default: goto usage_error;
		}
	}
	if (optind != argc || !opt.out)
		goto usage_error;
	if (have_days && opt.size) {
		fprintf(stderr, "%s: --days and --size exclude each other — give one\n", prog);
		return 2;
	}
	if (opt.zip < 0) {
		size_t len = strlen(opt.out);
		opt.zip = len > 4 && strcmp(opt.out + len - 4, ".zip") == 0;
	}
	if (set_zone(opt.tz) != 0)
		return 2;
	start_days = days_from_civil(opt.start_y, opt.start_m, opt.start_d);
	if (export_date) {
		int y, mo, d, h, mi, s;
		if (sscanf(export_date, "%4d-%2d-%2d %2d:%2d:%2d%n", &y, &mo, &d, &h, &mi, &s, &n) != 6 || export_date[n]) {
			fprintf(stderr, "%s: bad --export-date '%s' — write it as 'YYYY-MM-DD HH:MM:SS'\n", prog, export_date);
			return 2;
		}
		struct tm tm = { .tm_year = y - 1900, .tm_mon = mo - 1, .tm_mday = d, .tm_hour = h,
				 .tm_min = mi, .tm_sec = s, .tm_isdst = -1 };
		set_export_time((int64_t)mktime(&tm));
	}
	if (!(out.buf = malloc(SINK_CAP)))
		return 2;
	if (opt.size)
		size_range(have_start, export_date != NULL);
	if (!export_date)
		set_export_time(local_at(opt.days, 9, 41, 27));
	set_range();

	if ((opt.zip ? write_zip() : write_bare()) != 0) {
		const char *why = out.ar && archive_error_string(out.ar) ? archive_error_string(out.ar)
				  : errno ? strerror(errno) : "write failed";
		fprintf(stderr, "%s: cannot write %s: %s\n", prog, opt.out, why);
		if (strcmp(opt.out, "-") != 0)
			remove(opt.out);
		status = 2;
	} else if (opt.truth && write_truth(opt.truth) != 0) {
		fprintf(stderr, "%s: cannot write %s: %s\n", prog, opt.truth, strerror(errno));
		status = 2;
	} else if (opt.clarity && write_clarity(opt.clarity) != 0) {
		fprintf(stderr, "%s: cannot write %s: %s\n", prog, opt.clarity, strerror(errno));
		status = 2;
	} else if (write_reports() != 0) {
		status = 2;
	} else if (opt.meals && write_meals(opt.meals, opt.truth) != 0) {
		fprintf(stderr, "%s: cannot write %s: %s\n", prog, opt.meals, strerror(errno));
		status = 2;
	}
	if (out.ar)
		archive_write_free(out.ar);
	free(out.buf);
	free(mids);
	free(tr);
	free(hist);
	free(wks);
	return status;
bad:
	fprintf(stderr, "%s: bad value '%s' for --%s\n", prog, optarg, longopts[li].name);
usage_error:
	fprintf(stderr, "usage: gen-export [options] -o OUT (try --help)\n");
	return 2;
}
