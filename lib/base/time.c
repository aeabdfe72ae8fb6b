#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "hq/time.h"

static char zone_name[256] = "system";

/*
 * The zone's offset from UTC, cached over spans of time in which it is
 * constant. Offsets change only at 15-minute UTC boundaries in every real
 * zone, and never twice within six hours: a span starts as the block that
 * holds an instant and grows six hours at a time while the offset there is
 * the same (up to a day), or up to the block where it changes (a binary
 * search). A day of per-minute samples then costs a handful of calls to
 * localtime_r(), not one per block. A few spans are kept, for callers that
 * look a day back and forth (hq_time_from_local()).
 */
#define NSPANS 8
static struct span {
	int64_t lo, hi;       /* [lo, hi): UTC seconds */
	int64_t off;          /* local - UTC, seconds */
} spans[NSPANS];
static unsigned next_span;

/* Local days' first instants, remembered (direct-mapped by day). */
#define NDAYSTARTS 256
static struct {
	int64_t day, start;
	int valid;
} day_starts[NDAYSTARTS];

static void
forget_zone(void)
{
	memset(spans, 0, sizeof spans);
	memset(day_starts, 0, sizeof day_starts);
	next_span = 0;
}

/* The system's zone written as a path, as $TZ often is on a system that
 * sets it: the zone the system uses, not a file to read. */
static int
system_zone_path(const char *z)
{
	return strcmp(z, "/etc/localtime") == 0 || strcmp(z, ":/etc/localtime") == 0;
}

/*
 * A zone is an IANA name (issue 23): letters, digits, '_', '-', '+' and
 * '/' between components, at most HQ_TIME_ZONE_MAX bytes, no leading or
 * trailing '/', no empty component, no '.' (so no ".."), not in the
 * zoneinfo's right/ (leap seconds: months would start at 23:59:33) or
 * posix/ trees, naming a TZif file under $TZDIR or /usr/share/zoneinfo.
 * A path (/etc/passwd), a POSIX rule (EST5) that is no file there, or a
 * file of the zoneinfo folder that is no zone (leapseconds, zone.tab) is
 * unknown; glibc would read any of them as UTC without a word.
 */
static int
zone_exists(const char *z)
{
	char path[512], magic[4];
	struct stat st;
	const char *dir = getenv("TZDIR");
	size_t len = strlen(z);
	FILE *fp;
	int ok;

	if (strcmp(z, "UTC") == 0 || strcmp(z, "GMT") == 0 || system_zone_path(z))
		return 1;
	if (len == 0 || len > HQ_TIME_ZONE_MAX || z[0] == '/' || z[len - 1] == '/' ||
	    strstr(z, "//") || strncmp(z, "right/", 6) == 0 || strncmp(z, "posix/", 6) == 0)
		return 0;
	for (const char *p = z; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_-+/", *p))
			return 0;
	snprintf(path, sizeof path, "%s/%s", dir && *dir ? dir : "/usr/share/zoneinfo", z);
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || !(fp = fopen(path, "rb")))
		return 0;
	ok = fread(magic, 1, 4, fp) == 4 && memcmp(magic, "TZif", 4) == 0;
	fclose(fp);
	return ok;
}

/* $HQ_NOW as an instant: 1 and *t when set, 0 when not, -1 when it cannot
 * be read. */
static int
now_pinned(int64_t *t)
{
	const char *s = getenv("HQ_NOW");
	char *end;

	if (!s || !*s)
		return 0;
	if (strspn(s, "0123456789") == strlen(s) && strlen(s) <= 12) {
		errno = 0;
		long long v = strtoll(s, &end, 10);
		if (errno || *end)
			return -1;
		*t = v;
		return 1;
	}
	return hq_time_parse(s, t) == 0 ? 1 : -1;
}

int64_t
hq_time_now(void)
{
	int64_t t;

	return now_pinned(&t) == 1 ? t : (int64_t)time(NULL);
}

int
hq_time_set_zone(const char *zone, struct hq_err *e)
{
	const char *src = "--tz";

	if (!zone || !*zone) {
		src = "HQ_TZ";
		zone = getenv("HQ_TZ");
	}
	if (!zone || !*zone) {
		src = "TZ";
		zone = getenv("TZ");
	}
	if (zone && *zone) {
		if (!zone_exists(zone)) {
			char shown[64];
			hq_err_set(e, "unknown time zone '%s' (from %s); use an IANA "
			    "name such as Europe/Paris or America/New_York",
			    hq_time_zone_shown(shown, sizeof shown, zone), src);
			return -1;
		}
	}
	if (zone && *zone && system_zone_path(zone))
		zone = NULL;
	if (zone && *zone) {
		setenv("TZ", zone, 1);
		snprintf(zone_name, sizeof zone_name, "%s", zone);
	} else {
		unsetenv("TZ");
		snprintf(zone_name, sizeof zone_name, "system");
	}
	tzset();
	forget_zone();
	int64_t now;
	if (now_pinned(&now) < 0) {
		hq_err_set(e, "cannot read HQ_NOW '%.40s': use seconds since 1970 or "
		    "a timestamp such as 2026-12-07T03:30:00Z", getenv("HQ_NOW"));
		return -1;
	}
	return 0;
}

const char *
hq_time_zone(void)
{
	return zone_name;
}

int
hq_time_zone_known(const char *name)
{
	return name && *name && zone_exists(name);
}

const char *
hq_time_zone_shown(char *buf, size_t n, const char *name)
{
	size_t k = 0;
	const char *p = name;

	/* at most 40 bytes, each outside the zone's characters as '?' */
	for (; *p && k + 4 < n && p - name < 40; p++)
		buf[k++] = isalnum((unsigned char)*p) || strchr("_-+/:.", *p) ? *p : '?';
	if (*p && k + 4 <= n) {
		memcpy(buf + k, "...", 3);
		k += 3;
	}
	buf[k] = '\0';
	return buf;
}

int64_t
hq_time_days_from_civil(int y, int m, int d)
{
	/* Howard Hinnant's days_from_civil. */
	int64_t yy = (int64_t)y - (m <= 2);
	int64_t era = (yy >= 0 ? yy : yy - 399) / 400;
	int64_t yoe = yy - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return era * 146097 + doe - 719468;
}

void
hq_time_civil_from_days(int64_t z, int *y, int *m, int *d)
{
	z += 719468;
	int64_t era = (z >= 0 ? z : z - 146096) / 146097;
	int64_t doe = z - era * 146097;
	int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	int64_t mp = (5 * doy + 2) / 153;
	int64_t dd = doy - (153 * mp + 2) / 5 + 1;
	int64_t mm = mp < 10 ? mp + 3 : mp - 9;

	*y = (int)(yoe + era * 400 + (mm <= 2));
	*m = (int)mm;
	*d = (int)dd;
}

int
hq_time_days_in_month(int y, int m)
{
	static const int dim[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	if (m < 1 || m > 12)
		return 0;
	return m == 2 ? 28 + leap : dim[m - 1];
}

static int
digits(const char *s, int n, int *out)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

static int
valid_civil(int y, int mo, int d, int h, int mi, int s)
{
	return y >= 1 && mo >= 1 && mo <= 12 && d >= 1 &&
	    d <= hq_time_days_in_month(y, mo) && h >= 0 && h <= 23 &&
	    mi >= 0 && mi <= 59 && s >= 0 && s <= 60;
}

int
hq_time_parse_apple(const char *s, int64_t *utc, int *offset_min)
{
	int y, mo, d, h, mi, sec, oh, om;

	/* 2019-03-04 08:12:34 -0800 */
	if (strlen(s) < 25 || s[4] != '-' || s[7] != '-' || s[10] != ' ' ||
	    s[13] != ':' || s[16] != ':' || s[19] != ' ' ||
	    (s[20] != '+' && s[20] != '-') || s[25] != '\0')
		return -1;
	if (digits(s, 4, &y) || digits(s + 5, 2, &mo) || digits(s + 8, 2, &d) ||
	    digits(s + 11, 2, &h) || digits(s + 14, 2, &mi) ||
	    digits(s + 17, 2, &sec) || digits(s + 21, 2, &oh) ||
	    digits(s + 23, 2, &om))
		return -1;
	if (!valid_civil(y, mo, d, h, mi, sec) || oh > 23 || om > 59)
		return -1;
	int off = (oh * 60 + om) * (s[20] == '-' ? -1 : 1);
	*utc = hq_time_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 +
	    sec - (int64_t)off * 60;
	if (offset_min)
		*offset_min = off;
	return 0;
}

/* hq_time_parse() and hq_time_parse_utc(): a time without an offset in
 * the local zone (local) or UTC; 0, 1 when it had none, -1. */
static int
parse_iso(const char *s, int64_t *utc, int local)
{
	int y, mo, d, h = 0, mi = 0, sec = 0;
	const char *p;

	if (hq_time_parse_apple(s, utc, NULL) == 0)
		return 0;
	while (isspace((unsigned char)*s))
		s++;
	if (strlen(s) < 10 || s[4] != '-' || s[7] != '-' ||
	    digits(s, 4, &y) || digits(s + 5, 2, &mo) || digits(s + 8, 2, &d))
		return -1;
	p = s + 10;
	if (*p == 'T' || *p == 't' || (*p == ' ' && isdigit((unsigned char)p[1]))) {
		p++;
		if (digits(p, 2, &h) || p[2] != ':' || digits(p + 3, 2, &mi))
			return -1;
		p += 5;
		if (*p == ':') {
			if (digits(p + 1, 2, &sec))
				return -1;
			p += 3;
			if (*p == '.' || *p == ',') {
				p++;
				if (!isdigit((unsigned char)*p))
					return -1;
				while (isdigit((unsigned char)*p))
					p++;
			}
		}
	}
	if (!valid_civil(y, mo, d, h, mi, sec))
		return -1;
	while (*p == ' ')
		p++;
	if (*p == '\0') {
		*utc = local ? hq_time_from_local(y, mo, d, h, mi, sec) :
		    hq_time_days_from_civil(y, mo, d) * 86400 + h * 3600 +
		    mi * 60 + sec;
		return 1;
	}
	int off;
	if (*p == 'Z' || *p == 'z') {
		off = 0;
		p++;
	} else if (*p == '+' || *p == '-') {
		int oh, om = 0, sign = *p == '-' ? -1 : 1;
		p++;
		if (digits(p, 2, &oh))
			return -1;
		p += 2;
		if (*p == ':')
			p++;
		if (isdigit((unsigned char)*p)) {
			if (digits(p, 2, &om))
				return -1;
			p += 2;
		}
		if (oh > 23 || om > 59)
			return -1;
		off = sign * (oh * 60 + om);
	} else {
		return -1;
	}
	if (*p != '\0')
		return -1;
	*utc = hq_time_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 +
	    sec - (int64_t)off * 60;
	return 0;
}

int
hq_time_parse(const char *s, int64_t *utc)
{
	return parse_iso(s, utc, 1) < 0 ? -1 : 0;
}

int
hq_time_parse_utc(const char *s, int64_t *utc)
{
	return parse_iso(s, utc, 0);
}

static int64_t
floor_div(int64_t a, int64_t b)
{
	return a >= 0 ? a / b : -((-a + b - 1) / b);
}

/* local - UTC at t, from the C library, to the nearest whole minute
 * (issue 23). Offsets hq writes are whole minutes (+HH:MM), and so is every
 * offset of every zone since 1972; before that the tz database has offsets
 * with seconds: each zone's local mean time before its first transition
 * (Los Angeles -07:52:58 until 1883-11-18, New York -04:56:02, Paris
 * +00:09:21) and a few mean times kept as civil time later (Paris
 * +00:09:21 until 1911, Amsterdam +00:19:32 until 1937, Monrovia -00:44:30
 * until 1972). hq rounds those to the minute (-07:53), everywhere:
 * days start at that local midnight, times are shown and read at that
 * offset, and a time written with it reads back as the same instant.
 * Without the rounding a day started 58 seconds after what hq wrote as its
 * midnight: dates shifted and --by day never reached the next day. */
static int64_t
offset_at(int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!localtime_r(&tt, &tm))
		return 0;
	int64_t off = hq_time_days_from_civil(tm.tm_year + 1900, tm.tm_mon + 1,
	    tm.tm_mday) * 86400 + tm.tm_hour * 3600 + tm.tm_min * 60 + tm.tm_sec - t;
	return floor_div(off + 30, 60) * 60;
}

#define SPAN_STEP (6 * 3600)

static int64_t
zone_offset(int64_t utc)
{
	struct span *sp;
	int64_t base, off, hi;

	for (int i = 0; i < NSPANS; i++)
		if (utc >= spans[i].lo && utc < spans[i].hi)
			return spans[i].off;
	base = floor_div(utc, 900) * 900;
	off = offset_at(base);
	hi = base + 900;
	for (int k = 1; k <= 4; k++) {
		int64_t p = base + k * SPAN_STEP;
		if (offset_at(p) == off) {
			hi = p + 900;
			continue;
		}
		/* The first block in (hi - 900, p] with another offset. */
		int64_t a = hi - 900, b = p;
		while (b - a > 900) {
			int64_t mid = a + (b - a) / 1800 * 900;
			if (offset_at(mid) == off)
				a = mid;
			else
				b = mid;
		}
		hi = b;
		break;
	}
	sp = &spans[next_span++ % NSPANS];
	sp->lo = base;
	sp->hi = hi;
	sp->off = off;
	return off;
}

void
hq_time_to_local(int64_t utc, struct hq_local *out)
{
	static int64_t last_day = INT64_MIN;
	static int ly, lm, ld;
	int64_t local = utc + zone_offset(utc);
	int64_t day = floor_div(local, 86400);
	int64_t sod = local - day * 86400;

	if (day != last_day) {
		hq_time_civil_from_days(day, &ly, &lm, &ld);
		last_day = day;
	}
	out->year = ly;
	out->month = lm;
	out->day = ld;
	out->hour = (int)(sod / 3600);
	out->min = (int)(sod / 60 % 60);
	out->sec = (int)(sod % 60);
	out->wday = hq_time_weekday(day);
	out->offset_min = (int)((local - utc) / 60);
}

int64_t
hq_time_local_day(int64_t utc)
{
	return floor_div(utc + zone_offset(utc), 86400);
}

static int64_t
local_wall(int64_t utc)
{
	struct hq_local l;

	hq_time_to_local(utc, &l);
	return hq_time_days_from_civil(l.year, l.month, l.day) * 86400 +
	    l.hour * 3600 + l.min * 60 + l.sec;
}

int
hq_time_from_local_all(int y, int m, int d, int hh, int mm, int ss,
    int64_t t[2])
{
	int64_t wall = hq_time_days_from_civil(y, m, d) * 86400 + hh * 3600 +
	    mm * 60 + ss;
	struct hq_local before, after;

	/* The offsets a day either side bracket any transition near wall. */
	hq_time_to_local(wall - 86400, &before);
	hq_time_to_local(wall + 86400, &after);
	int64_t t1 = wall - (int64_t)before.offset_min * 60;
	int64_t t2 = wall - (int64_t)after.offset_min * 60;
	int ok1 = local_wall(t1) == wall, ok2 = local_wall(t2) == wall;

	if (ok1 && ok2 && t1 != t2) {   /* a repeated hour */
		t[0] = t1 < t2 ? t1 : t2;
		t[1] = t1 < t2 ? t2 : t1;
		return 2;
	}
	if (ok1 || ok2) {
		t[0] = t[1] = ok1 ? t1 : t2;
		return 1;
	}
	t[0] = t[1] = t1 > t2 ? t1 : t2;  /* a skipped hour: after the gap */
	return 0;
}

int64_t
hq_time_from_local(int y, int m, int d, int hh, int mm, int ss)
{
	int64_t t[2];

	hq_time_from_local_all(y, m, d, hh, mm, ss, t);
	return t[0];
}

int64_t
hq_time_day_start(int64_t day)
{
	size_t k = (size_t)((uint64_t)day % NDAYSTARTS);
	int y, m, d;

	if (day_starts[k].valid && day_starts[k].day == day)
		return day_starts[k].start;
	hq_time_civil_from_days(day, &y, &m, &d);
	day_starts[k].day = day;
	day_starts[k].start = hq_time_from_local(y, m, d, 0, 0, 0);
	day_starts[k].valid = 1;
	return day_starts[k].start;
}

int64_t
hq_time_day_at(int64_t day, int hour)
{
	int y, m, d;

	if (hour == 0)
		return hq_time_day_start(day);
	hq_time_civil_from_days(day, &y, &m, &d);
	return hq_time_from_local(y, m, d, hour, 0, 0);
}

int
hq_time_weekday(int64_t day)
{
	return (int)(((day % 7) + 7 + 3) % 7);    /* 1970-01-01 was a Thursday */
}

void
hq_time_iso_week(int64_t day, int *wyear, int *week)
{
	int y, m, d;
	int64_t thursday = day - hq_time_weekday(day) + 3;

	hq_time_civil_from_days(thursday, &y, &m, &d);
	*wyear = y;
	*week = (int)((thursday - hq_time_days_from_civil(y, 1, 1)) / 7 + 1);
}

static int64_t
iso_week_monday(int wyear, int week)
{
	int64_t jan4 = hq_time_days_from_civil(wyear, 1, 4);

	return jan4 - hq_time_weekday(jan4) + (int64_t)(week - 1) * 7;
}

int64_t
hq_time_bucket_start(int64_t utc, enum hq_period p)
{
	struct hq_local l;

	hq_time_to_local(utc, &l);
	int64_t day = hq_time_days_from_civil(l.year, l.month, l.day);
	switch (p) {
	case HQ_HOUR: {
		/* The hour's start in local wall time; in a repeated hour both
		 * occurrences are distinct buckets, so work from utc. */
		return utc - l.min * 60 - l.sec;
	}
	case HQ_DAY:
		return hq_time_day_start(day);
	case HQ_WEEK:
		return hq_time_day_start(day - l.wday);
	case HQ_MONTH:
		return hq_time_from_local(l.year, l.month, 1, 0, 0, 0);
	case HQ_YEAR:
		return hq_time_from_local(l.year, 1, 1, 0, 0, 0);
	default:
		return utc;
	}
}

int64_t
hq_time_bucket_next(int64_t start, enum hq_period p)
{
	struct hq_local l;

	hq_time_to_local(start, &l);
	int64_t day = hq_time_days_from_civil(l.year, l.month, l.day);
	switch (p) {
	case HQ_HOUR:
		return start + 3600 - l.min * 60 - l.sec;
	case HQ_DAY:
		return hq_time_day_start(day + 1);
	case HQ_WEEK:
		return hq_time_day_start(day - l.wday + 7);
	case HQ_MONTH:
		return l.month == 12 ? hq_time_from_local(l.year + 1, 1, 1, 0, 0, 0)
		    : hq_time_from_local(l.year, l.month + 1, 1, 0, 0, 0);
	case HQ_YEAR:
		return hq_time_from_local(l.year + 1, 1, 1, 0, 0, 0);
	default:
		return start;
	}
}

void
hq_time_bucket_label(int64_t start, enum hq_period p, char *buf, size_t n)
{
	struct hq_local l;
	int wy, wk, off;

	hq_time_to_local(start, &l);
	switch (p) {
	case HQ_HOUR:
		/* With the offset, so that the hour a fall-back night repeats
		 * has a label of its own: 01:00-07:00, then 01:00-08:00. */
		off = l.offset_min < 0 ? -l.offset_min : l.offset_min;
		snprintf(buf, n, "%04d-%02d-%02dT%02d:%02d%c%02d:%02d", l.year,
		    l.month, l.day, l.hour, l.min, l.offset_min < 0 ? '-' : '+',
		    off / 60, off % 60);
		break;
	case HQ_WEEK:
		hq_time_iso_week(hq_time_days_from_civil(l.year, l.month, l.day), &wy, &wk);
		snprintf(buf, n, "%04d-W%02d", wy, wk);
		break;
	case HQ_MONTH:
		snprintf(buf, n, "%04d-%02d", l.year, l.month);
		break;
	case HQ_YEAR:
		snprintf(buf, n, "%04d", l.year);
		break;
	default:
		snprintf(buf, n, "%04d-%02d-%02d", l.year, l.month, l.day);
	}
}

int
hq_time_parse_period(const char *s, enum hq_period *p)
{
	static const struct { const char *name; enum hq_period p; } names[] = {
		{ "hour", HQ_HOUR }, { "day", HQ_DAY }, { "week", HQ_WEEK },
		{ "month", HQ_MONTH }, { "year", HQ_YEAR },
	};

	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(s, names[i].name) == 0) {
			*p = names[i].p;
			return 0;
		}
	return -1;
}

void
hq_time_format_utc(int64_t utc, char *buf, size_t n)
{
	int64_t day = utc >= 0 ? utc / 86400 : (utc - 86399) / 86400;
	int64_t sod = utc - day * 86400;
	int y, m, d;

	hq_time_civil_from_days(day, &y, &m, &d);
	snprintf(buf, n, "%04d-%02d-%02dT%02d:%02d:%02dZ", y, m, d,
	    (int)(sod / 3600), (int)(sod / 60 % 60), (int)(sod % 60));
}

void
hq_time_format_local(int64_t utc, char *buf, size_t n)
{
	struct hq_local l;
	int off;
	char t[32];

	hq_time_to_local(utc, &l);
	off = l.offset_min < 0 ? -l.offset_min : l.offset_min;
	if (l.year < 0 || l.year > 9999 || off / 60 > 99 || n < 26) {
		snprintf(buf, n, "%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d", l.year,
		    l.month, l.day, l.hour, l.min, l.sec,
		    l.offset_min < 0 ? '-' : '+', off / 60, off % 60);
		return;
	}
	/* By hand: this is printed twice per row of raw samples. */
	int f[] = { l.year / 100, l.year % 100, l.month, l.day, l.hour, l.min,
	    l.sec, off / 60, off % 60 };
	static const char sep[9] = { 0, 0, '-', '-', 'T', ':', ':', 0, ':' };
	char *p = t;
	for (int i = 0; i < 9; i++) {
		if (i == 7)
			*p++ = l.offset_min < 0 ? '-' : '+';
		else if (sep[i])
			*p++ = sep[i];
		*p++ = (char)('0' + f[i] / 10);
		*p++ = (char)('0' + f[i] % 10);
	}
	*p = '\0';
	memcpy(buf, t, (size_t)(p - t) + 1);
}

void
hq_time_format_date(int64_t utc, char *buf, size_t n)
{
	struct hq_local l;

	hq_time_to_local(utc, &l);
	snprintf(buf, n, "%04d-%02d-%02d", l.year, l.month, l.day);
}

void
hq_time_range_text(int64_t from, int64_t to, char *buf, size_t n)
{
	char a[16], b[16];

	if (from != INT64_MIN)
		hq_time_format_date(from, a, sizeof a);
	if (to != INT64_MAX)
		hq_time_format_date(to - 1, b, sizeof b);
	if (from != INT64_MIN && to != INT64_MAX && strcmp(a, b) == 0)
		snprintf(buf, n, " on %s", a);
	else if (from != INT64_MIN && to != INT64_MAX)
		snprintf(buf, n, " from %s to %s", a, b);
	else if (from != INT64_MIN)
		snprintf(buf, n, " since %s", a);
	else if (to != INT64_MAX)
		snprintf(buf, n, " until %s", b);
	else
		snprintf(buf, n, "%s", "");
}

void
hq_time_format_day(int64_t day, char *buf, size_t n)
{
	int y, m, d;

	hq_time_civil_from_days(day, &y, &m, &d);
	snprintf(buf, n, "%04d-%02d-%02d", y, m, d);
}

static int64_t
month_start(int y, int m)
{
	while (m < 1) {
		m += 12;
		y--;
	}
	while (m > 12) {
		m -= 12;
		y++;
	}
	return hq_time_from_local(y, m, 1, 0, 0, 0);
}

static int
set_day(int64_t day, int64_t *start, int64_t *end)
{
	*start = hq_time_day_start(day);
	*end = hq_time_day_start(day + 1);
	return 0;
}

int
hq_time_parse_range(const char *s, int64_t now, int64_t *start, int64_t *end,
    struct hq_err *e)
{
	struct hq_local l;
	int y, m, d, w;
	size_t len = strlen(s);

	hq_time_to_local(now, &l);
	int64_t today = hq_time_days_from_civil(l.year, l.month, l.day);

	if (strcmp(s, "today") == 0)
		return set_day(today, start, end);
	if (strcmp(s, "yesterday") == 0)
		return set_day(today - 1, start, end);
	if (strcmp(s, "this-week") == 0 || strcmp(s, "last-week") == 0) {
		int64_t mon = today - l.wday - (s[0] == 'l' ? 7 : 0);
		*start = hq_time_day_start(mon);
		*end = hq_time_day_start(mon + 7);
		return 0;
	}
	if (strcmp(s, "this-month") == 0 || strcmp(s, "last-month") == 0) {
		int k = s[0] == 'l' ? -1 : 0;
		*start = month_start(l.year, l.month + k);
		*end = month_start(l.year, l.month + k + 1);
		return 0;
	}
	if (strcmp(s, "this-year") == 0 || strcmp(s, "last-year") == 0) {
		int k = s[0] == 'l' ? -1 : 0;
		*start = hq_time_from_local(l.year + k, 1, 1, 0, 0, 0);
		*end = hq_time_from_local(l.year + k + 1, 1, 1, 0, 0, 0);
		return 0;
	}
	/* 7d, 3w, 6m, 1y: the day that long ago. */
	if (len >= 2 && strchr("dwmy", s[len - 1])) {
		char *endp;
		errno = 0;
		long n = strtol(s, &endp, 10);
		if (endp == s + len - 1 && errno == 0 && n >= 0 && n <= 100000 &&
		    isdigit((unsigned char)s[0])) {
			switch (s[len - 1]) {
			case 'd': return set_day(today - n, start, end);
			case 'w': return set_day(today - 7 * n, start, end);
			case 'm': case 'y': {
				int mm = l.month - (int)(s[len - 1] == 'm' ? n : 12 * n);
				int yy = l.year;
				while (mm < 1) {
					mm += 12;
					yy--;
				}
				int dd = l.day;
				if (dd > hq_time_days_in_month(yy, mm))
					dd = hq_time_days_in_month(yy, mm);
				return set_day(hq_time_days_from_civil(yy, mm, dd), start, end);
			}
			}
		}
	}
	/* 2024-W49 */
	if (len == 8 && s[4] == '-' && (s[5] == 'W' || s[5] == 'w') &&
	    !digits(s, 4, &y) && !digits(s + 6, 2, &w) && w >= 1 && w <= 53) {
		int64_t mon = iso_week_monday(y, w);
		int wy, wk;
		hq_time_iso_week(mon, &wy, &wk);
		if (wy == y && wk == w) {
			*start = hq_time_day_start(mon);
			*end = hq_time_day_start(mon + 7);
			return 0;
		}
	}
	if (len == 4 && !digits(s, 4, &y) && y >= 1) {
		*start = hq_time_from_local(y, 1, 1, 0, 0, 0);
		*end = hq_time_from_local(y + 1, 1, 1, 0, 0, 0);
		return 0;
	}
	if (len == 7 && s[4] == '-' && !digits(s, 4, &y) && !digits(s + 5, 2, &m) &&
	    m >= 1 && m <= 12 && y >= 1) {
		*start = month_start(y, m);
		*end = month_start(y, m + 1);
		return 0;
	}
	if (len == 10 && s[4] == '-' && s[7] == '-' && !digits(s, 4, &y) &&
	    !digits(s + 5, 2, &m) && !digits(s + 8, 2, &d) &&
	    valid_civil(y, m, d, 0, 0, 0))
		return set_day(hq_time_days_from_civil(y, m, d), start, end);
	if (len > 10 && hq_time_parse(s, start) == 0) {
		*end = *start;
		return 0;
	}
	hq_err_set(e, "cannot read the date '%s': use 2024-12-01, 2024-12, 2024, "
	    "2024-W49, today, yesterday, 7d, 3w, 6m, 1y, this-week, last-week, "
	    "this-month, last-month, this-year or last-year", s);
	return -1;
}

double
hq_time_monotonic(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void
hq_time_day_range(int64_t start, int64_t end, int64_t now, int back,
    int64_t *first, int64_t *last)
{
	*last = hq_time_local_day(end != INT64_MAX ? end - 1 : now);
	*first = start != INT64_MIN ? hq_time_local_day(start) : *last - back;
}

int
hq_time_parse_from_to(const char *from, const char *to, int64_t now,
    int64_t *start, int64_t *end, struct hq_err *e)
{
	int64_t s, z;

	*start = INT64_MIN;
	*end = INT64_MAX;
	if (from) {
		if (hq_time_parse_range(from, now, &s, &z, e)) {
			hq_err_prefix(e, "--from");
			return -1;
		}
		*start = s;
	}
	if (to) {
		if (hq_time_parse_range(to, now, &s, &z, e)) {
			hq_err_prefix(e, "--to");
			return -1;
		}
		/* --to names the last day (or month...) to include. */
		*end = z > s ? z : s;
	}
	if (*start != INT64_MIN && *end != INT64_MAX && *start >= *end) {
		hq_err_set(e, "--from %s is after --to %s; swap them", from, to);
		return -1;
	}
	return 0;
}
