/*
 * time — instants, the local zone, calendars, and dates as people type them.
 *
 * Every instant is int64_t seconds since the Unix epoch, UTC. Local days,
 * weeks (ISO 8601, Monday first) and months are computed in one IANA zone
 * per process, chosen by hq_time_set_zone(); never from an offset written in
 * a file. A "day number" is days since 1970-01-01 of a calendar date.
 */
#ifndef HQ_TIME_H
#define HQ_TIME_H

#include <stddef.h>
#include <stdint.h>

#include "hq/err.h"

enum hq_period { HQ_PERIOD_NONE, HQ_HOUR, HQ_DAY, HQ_WEEK, HQ_MONTH, HQ_YEAR };

/* Choose the local zone: zone if not NULL, else $HQ_TZ, else $TZ, else the
 * system zone. An unknown zone name is an error (no silent UTC). A zone is
 * an IANA name (Europe/Paris, UTC, Etc/GMT+5: letters, digits, _ - + and
 * '/' between components, at most HQ_TIME_ZONE_MAX bytes) naming a TZif
 * file under $TZDIR or /usr/share/zoneinfo, outside its right/ and posix/
 * trees; never a path (/etc/passwd), a POSIX rule or another file there,
 * all of which the C library would read as UTC without a word. The one
 * path taken is the system's own, /etc/localtime (or :/etc/localtime, as
 * $TZ is often set): it is the system zone. */
#define HQ_TIME_ZONE_MAX 128
int hq_time_set_zone(const char *zone, struct hq_err *e);
/* The zone in use ("America/Los_Angeles", or "system"). */
const char *hq_time_zone(void);
/* Whether name is a zone this machine knows (the rule above): 1 or 0. */
int hq_time_zone_known(const char *name);
/* A zone name as typed, for a message: at most 40 bytes (then "..."), any
 * byte a zone cannot hold as '?'; into buf (n bytes), returned. */
const char *hq_time_zone_shown(char *buf, size_t n, const char *name);

/* Apple's "yyyy-MM-dd HH:mm:ss ±HHMM". Returns 0 or -1. offset_min may be
 * NULL; it is the offset the file wrote, which is not the local zone. */
int hq_time_parse_apple(const char *s, int64_t *utc, int *offset_min);
/* Lenient: Apple's form, ISO 8601 ("T" or space, optional seconds and
 * fraction, "Z", "+HH:MM", "+HHMM", "+HH"), or a bare date. A time without
 * an offset is local wall time in the current zone. Returns 0 or -1. */
int hq_time_parse(const char *s, int64_t *utc);
/* The same, but a time without an offset is UTC, as GPX and TCX times
 * are, whatever the zone: 0, 1 when it had no offset, -1. */
int hq_time_parse_utc(const char *s, int64_t *utc);

/* Calendar arithmetic (proleptic Gregorian). */
int64_t hq_time_days_from_civil(int y, int m, int d);
/* A day number's weekday, Monday 0 ... Sunday 6; its ISO 8601
 * week-numbering year and week. */
int hq_time_weekday(int64_t day);
void hq_time_iso_week(int64_t day, int *wyear, int *week);
void hq_time_civil_from_days(int64_t days, int *y, int *m, int *d);
int hq_time_days_in_month(int y, int m);

struct hq_local {
	int year, month, day, hour, min, sec;
	int wday;        /* 0 = Monday ... 6 = Sunday */
	int offset_min;  /* offset from UTC at that instant */
};
void hq_time_to_local(int64_t utc, struct hq_local *out);
/* Local day number of an instant. */
int64_t hq_time_local_day(int64_t utc);
/* The instant of a local wall time; in a DST gap, the time after the gap;
 * in a repeated hour, the first occurrence. */
int64_t hq_time_from_local(int y, int m, int d, int hh, int mm, int ss);
/* Every instant of a local wall time, earliest first, into t[0] and t[1]:
 * returns 2 in a repeated hour (both occurrences), 1 normally (t[0] ==
 * t[1]), 0 in a skipped hour (t[0] == t[1], the time after the gap). */
int hq_time_from_local_all(int y, int m, int d, int hh, int mm, int ss,
    int64_t t[2]);
/* The instant of local midnight starting a day number. */
int64_t hq_time_day_start(int64_t day);
/* The instant of a whole hour, local time, on a day number (as
 * hq_time_from_local: after a DST gap, the first of a repeated hour). */
int64_t hq_time_day_at(int64_t day, int hour);

/* Buckets in the local zone: the start of the bucket holding utc, the start
 * of the next one, and its label: hour "2024-12-01T13:00-08:00" (always with
 * its offset, so the hour a fall-back night repeats gets a label of its own),
 * day "2024-12-01", week "2024-W49", month "2024-12", year "2024". */
int64_t hq_time_bucket_start(int64_t utc, enum hq_period p);
int64_t hq_time_bucket_next(int64_t start, enum hq_period p);
void hq_time_bucket_label(int64_t start, enum hq_period p, char *buf, size_t n);
int hq_time_parse_period(const char *s, enum hq_period *p);

/* Now, as every command reads it: $HQ_NOW when set (an instant, either
 * seconds since the epoch or a timestamp hq_time_parse reads, such as
 * "2026-12-07T03:30:00Z"), else the system clock. HQ_NOW pins the clock
 * for tests and for asking "what would the report have said then"; it
 * moves "today", "7d", default ranges, import times and the night rule
 * alike. hq_time_set_zone() refuses an HQ_NOW it cannot read, so every
 * command says so before it runs. */
int64_t hq_time_now(void);
/* Seconds on a monotonic clock: for durations and deadlines, never dates. */
double hq_time_monotonic(void);

/* "2024-12-01T08:00:00Z" */
void hq_time_format_utc(int64_t utc, char *buf, size_t n);
/* "2024-12-01T00:00:00-08:00", in the local zone */
void hq_time_format_local(int64_t utc, char *buf, size_t n);
/* "2024-12-01", the local date */
void hq_time_format_date(int64_t utc, char *buf, size_t n);
/* A range [from, to) in words, local dates, for messages: " from
 * 2024-12-01 to 2024-12-31", " on 2024-12-01" (one day), " since ...",
 * " until ..." (INT64_MIN and INT64_MAX are open ends), "" for all time. */
void hq_time_range_text(int64_t from, int64_t to, char *buf, size_t n);
/* "2024-12-01", the date of a day number */
void hq_time_format_day(int64_t day, char *buf, size_t n);

/* A date as typed on a command line, as the half-open range [start, end) it
 * names, relative to now: 2024-12-01, 2024-12, 2024, 2024-W49, a full
 * timestamp (a zero-length range at that instant), today, yesterday, 7d,
 * 3w, 6m, 1y (that many days/weeks/months/years ago: the day it names),
 * this-week, last-week, this-month, last-month, this-year, last-year. */
int hq_time_parse_range(const char *s, int64_t now, int64_t *start,
    int64_t *end, struct hq_err *e);
/* A command's --from and --to (either may be NULL) as one range [*start,
 * *end): from where --from's date starts to where --to's ends (--to 2024-12
 * includes December); INT64_MIN and INT64_MAX where one is not given. 0, or
 * -1 with e saying which is wrong ("--from: cannot read ...", "--from X is
 * after --to Y; swap them"). */
int hq_time_parse_from_to(const char *from, const char *to, int64_t now,
    int64_t *start, int64_t *end, struct hq_err *e);
/* Such a range as local days [*first, *last]: the last is --to's last day,
 * else now's; the first --from's day, else back days before the last. */
void hq_time_day_range(int64_t start, int64_t end, int64_t now, int back,
    int64_t *first, int64_t *last);

#endif
