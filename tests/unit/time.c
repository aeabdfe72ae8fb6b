/* Unit tests for lib/base/time.c: Apple and ISO dates, zones, DST, buckets, the
 * dates people type. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hq/time.h"
#include "tap.h"

static int64_t
apple(const char *s)
{
	int64_t t = -1;
	int off;

	if (hq_time_parse_apple(s, &t, &off) != 0)
		return -1;
	return t;
}

static int64_t
iso(const char *s)
{
	int64_t t = -1;

	return hq_time_parse(s, &t) == 0 ? t : -1;
}

static const char *
label(int64_t t, enum hq_period p)
{
	static char buf[64];

	hq_time_bucket_label(t, p, buf, sizeof buf);
	return buf;
}

static const char *
local(int64_t t)
{
	static char buf[64];

	hq_time_format_local(t, buf, sizeof buf);
	return buf;
}

int
main(void)
{
	struct hq_err e;
	int off = 0;
	int64_t t, s, end;

	/* Apple's format; the written offset only locates the instant. */
	is_int(apple("2019-03-04 08:12:34 -0800"), 1551715954, "apple date with -0800");
	is_int(apple("2019-03-04 16:12:34 +0000"), 1551715954, "same instant at +0000");
	is_int(apple("2019-03-04 21:42:34 +0530"), 1551715954, "same instant at +0530");
	hq_time_parse_apple("2019-03-04 21:42:34 +0530", &t, &off);
	is_int(off, 330, "offset minutes kept");
	ok(hq_time_parse_apple("2019-03-04T08:12:34 -0800", &t, NULL) != 0, "apple: T rejected");
	ok(hq_time_parse_apple("2019-02-30 08:12:34 -0800", &t, NULL) != 0, "apple: Feb 30 rejected");
	ok(hq_time_parse_apple("2019-03-04 08:12:34 -08", &t, NULL) != 0, "apple: short offset rejected");
	ok(hq_time_parse_apple("2019-03-04 08:12:34 -0800x", &t, NULL) != 0, "apple: trailing junk rejected");
	ok(hq_time_parse_apple("", &t, NULL) != 0, "apple: empty rejected");

	/* ISO 8601 forms. */
	is_int(iso("2019-03-04T16:12:34Z"), 1551715954, "iso Z");
	is_int(iso("2019-03-04T08:12:34-08:00"), 1551715954, "iso -08:00");
	is_int(iso("2019-03-04T08:12:34-0800"), 1551715954, "iso -0800");
	is_int(iso("2019-03-04T16:12:34.250Z"), 1551715954, "iso fraction dropped");
	is_int(iso("2019-03-04 08:12:34 -0800"), 1551715954, "iso parser takes apple form");
	is_int(iso("2019-03-04T16:12Z"), 1551715920, "iso without seconds");
	ok(iso("2019-13-04T16:12Z") == -1, "iso month 13 rejected");
	ok(iso("2019-03-04T16:12:34+25:00") == -1, "iso offset 25h rejected");

	/* Zones. */
	ok(hq_time_set_zone("Mars/Olympus_Mons", &e) != 0, "unknown zone rejected");
	ok(strstr(e.msg, "Mars/Olympus_Mons") != NULL, "error names the zone");
	/* issue 23: IANA names only, never a file the C library reads as UTC */
	static const char *const notzone[] = {
		"/etc/passwd", ":/etc/passwd", "/usr/share/zoneinfo/Europe/Paris",
		"right/UTC", "right/Europe/Paris", "posix/Europe/Paris",
		"../../../etc/passwd", "Europe/../Europe/Paris", "Europe//Paris",
		"Europe/", "leapseconds", "zone.tab", "tzdata.zi", "SECURITY",
		"Europe/Paris ", "Europe/Par*s", "EST5", "Europe",
	};
	for (size_t i = 0; i < sizeof notzone / sizeof notzone[0]; i++) {
		e.msg[0] = '\0';
		ok(hq_time_set_zone(notzone[i], &e) != 0 && !hq_time_zone_known(notzone[i]) &&
		   strstr(e.msg, "unknown time zone"), "zone %s refused", notzone[i]);
	}
	ok(hq_time_set_zone("Europe/Paris\n\033[2J", &e) != 0 && !strchr(e.msg, 033) && !strchr(e.msg, 012), "a zone with controls is quoted without them");
	{
		char longname[300];
		memset(longname, 'A', sizeof longname - 1);
		longname[sizeof longname - 1] = '\0';
		ok(hq_time_set_zone(longname, &e) != 0 && strlen(e.msg) < 160,
		   "a long name is refused and quoted short: %s", e.msg);
	}
	static const char *const zone[] = { "UTC", "Etc/GMT+5", "America/Argentina/Buenos_Aires",
		"EST5EDT", "Europe/Paris" };
	for (size_t i = 0; i < sizeof zone / sizeof zone[0]; i++)
		ok(hq_time_set_zone(zone[i], &e) == 0 && !strcmp(hq_time_zone(), zone[i]),
		   "zone %s taken", zone[i]);
	ok(hq_time_set_zone(":/etc/localtime", &e) == 0 && !strcmp(hq_time_zone(), "system"),
	   ":/etc/localtime is the system zone");
	ok(hq_time_set_zone("America/Los_Angeles", &e) == 0, "set LA");
	is_str(hq_time_zone(), "America/Los_Angeles", "zone name kept");

	/* Naive local times are read in the zone. */
	is_int(iso("2024-07-01T00:00:00"), iso("2024-07-01T07:00:00Z"), "naive summer time is PDT");
	is_int(iso("2024-01-01"), iso("2024-01-01T08:00:00Z"), "bare date is local midnight");
	/* GPX and TCX: a time without a zone is UTC, whatever the zone. */
	{
		int64_t u = 0;
		is_int(hq_time_parse_utc("2024-07-01T00:00:00", &u), 1, "utc: no zone written, said");
		is_int(u, iso("2024-07-01T00:00:00Z"), "utc: read as UTC, not PDT");
		is_int(hq_time_parse_utc("2024-07-01T00:00:00.500Z", &u), 0, "utc: a zone written");
		is_int(u, iso("2024-07-01T00:00:00Z"), "utc: its fraction dropped");
		is_int(hq_time_parse_utc("2024-07-01T02:00:00+02:00", &u), 0, "utc: an offset");
		is_int(u, iso("2024-07-01T00:00:00Z"), "utc: applied");
		is_int(hq_time_parse_utc("2024-02-30T00:00:00", &u), -1, "utc: no such day");
	}

	/* The trap: 23:30 PST written by a summer export as 00:30 -0700. */
	t = apple("2016-11-15 00:30:00 -0700");
	is_str(label(t, HQ_DAY), "2016-11-14", "23:30 PST written as 00:30 -0700 is the 14th");

	/* DST: 2024-03-10 has 23 hours in LA, 2024-11-03 has 25. */
	s = hq_time_day_start(hq_time_days_from_civil(2024, 3, 10));
	end = hq_time_bucket_next(s, HQ_DAY);
	is_int(end - s, 23 * 3600, "spring-forward day has 23 hours");
	s = hq_time_day_start(hq_time_days_from_civil(2024, 11, 3));
	end = hq_time_bucket_next(s, HQ_DAY);
	is_int(end - s, 25 * 3600, "fall-back day has 25 hours");
	is_str(local(s), "2024-11-03T00:00:00-07:00", "fall-back day starts in PDT");
	is_str(local(end), "2024-11-04T00:00:00-08:00", "and ends in PST");

	/* A wall time in the spring gap lands after it; a repeated one first. */
	t = hq_time_from_local(2024, 3, 10, 2, 30, 0);
	is_str(local(t), "2024-03-10T03:30:00-07:00", "02:30 in the gap becomes 03:30 PDT");
	t = hq_time_from_local(2024, 11, 3, 1, 30, 0);
	is_str(local(t), "2024-11-03T01:30:00-07:00", "repeated 01:30 is the first (PDT)");
	{
		int64_t both[2];
		is_int(hq_time_from_local_all(2024, 11, 3, 1, 30, 0, both), 2,
		    "repeated 01:30: two instants");
		is_str(local(both[1]), "2024-11-03T01:30:00-08:00", "the second is PST");
		is_int(hq_time_from_local_all(2024, 3, 10, 2, 30, 0, both), 0,
		    "02:30 in the spring gap: none");
		is_int(hq_time_from_local_all(2024, 7, 1, 2, 30, 0, both), 1,
		    "a summer 02:30: one");
	}

	/* Hour buckets across fall-back: two distinct 01:00 hours. */
	t = iso("2024-11-03T08:30:00Z");   /* 01:30 PDT */
	int64_t h1 = hq_time_bucket_start(t, HQ_HOUR);
	int64_t h2 = hq_time_bucket_next(h1, HQ_HOUR);
	is_int(h2 - h1, 3600, "hour bucket is an hour");
	is_str(label(h1, HQ_HOUR), "2024-11-03T01:00-07:00", "the first 01 hour, PDT");
	is_str(label(h2, HQ_HOUR), "2024-11-03T01:00-08:00", "the second 01 hour, PST");
	{
		char first[64];

		snprintf(first, sizeof first, "%s", label(h1, HQ_HOUR));
		ok(strcmp(first, label(h2, HQ_HOUR)) != 0,
		    "the repeated hour's two labels differ");
	}
	is_str(label(hq_time_bucket_next(h2, HQ_HOUR), HQ_HOUR),
	    "2024-11-03T02:00-08:00", "then 02 PST");
	/* Spring forward: 01 PST is followed by 03 PDT. */
	t = iso("2024-03-10T09:30:00Z");   /* 01:30 PST */
	h1 = hq_time_bucket_start(t, HQ_HOUR);
	is_str(label(h1, HQ_HOUR), "2024-03-10T01:00-08:00", "01 before the gap");
	is_str(label(hq_time_bucket_next(h1, HQ_HOUR), HQ_HOUR),
	    "2024-03-10T03:00-07:00", "03 after it");

	/* Weeks are ISO 8601, months and years local. */
	t = iso("2024-12-31T12:00:00");
	is_str(label(t, HQ_WEEK), "2025-W01", "2024-12-31 is in 2025-W01");
	is_str(label(hq_time_bucket_start(t, HQ_WEEK), HQ_DAY), "2024-12-30", "week starts Monday");
	is_str(label(t, HQ_MONTH), "2024-12", "month label");
	is_str(label(t, HQ_YEAR), "2024", "year label");
	t = iso("2021-01-03T12:00:00");
	is_str(label(t, HQ_WEEK), "2020-W53", "2021-01-03 is in 2020-W53");

	/* Dates as typed. now = Wed 2024-12-11 15:00 local. */
	int64_t now = iso("2024-12-11T15:00:00");
	ok(hq_time_parse_range("2024-12", now, &s, &end, &e) == 0, "2024-12 parses");
	is_str(local(s), "2024-12-01T00:00:00-08:00", "month start");
	is_str(local(end), "2025-01-01T00:00:00-08:00", "month end");
	hq_time_parse_range("today", now, &s, &end, &e);
	is_str(local(s), "2024-12-11T00:00:00-08:00", "today");
	hq_time_parse_range("yesterday", now, &s, &end, &e);
	is_str(local(s), "2024-12-10T00:00:00-08:00", "yesterday");
	hq_time_parse_range("7d", now, &s, &end, &e);
	is_str(local(s), "2024-12-04T00:00:00-08:00", "7d is the day a week ago");
	hq_time_parse_range("3w", now, &s, &end, &e);
	is_str(local(s), "2024-11-20T00:00:00-08:00", "3w");
	hq_time_parse_range("6m", now, &s, &end, &e);
	is_str(local(s), "2024-06-11T00:00:00-07:00", "6m (in PDT)");
	hq_time_parse_range("1y", now, &s, &end, &e);
	is_str(local(s), "2023-12-11T00:00:00-08:00", "1y");
	hq_time_parse_range("last-week", now, &s, &end, &e);
	is_str(local(s), "2024-12-02T00:00:00-08:00", "last-week starts Monday");
	is_str(local(end), "2024-12-09T00:00:00-08:00", "last-week ends next Monday");
	hq_time_parse_range("this-week", now, &s, &end, &e);
	is_str(local(s), "2024-12-09T00:00:00-08:00", "this-week");
	hq_time_parse_range("last-month", now, &s, &end, &e);
	is_str(local(s), "2024-11-01T00:00:00-07:00", "last-month");
	hq_time_parse_range("this-year", now, &s, &end, &e);
	is_str(local(s), "2024-01-01T00:00:00-08:00", "this-year");
	hq_time_parse_range("2024-W49", now, &s, &end, &e);
	is_str(local(s), "2024-12-02T00:00:00-08:00", "2024-W49 starts Mon 2 Dec");
	ok(hq_time_parse_range("2024-W53", now, &s, &end, &e) != 0, "2024 has no W53");
	ok(hq_time_parse_range("2024", now, &s, &end, &e) == 0 && end - s == 366 * 86400, "2024 is 366 days");
	ok(hq_time_parse_range("2024-02-30", now, &s, &end, &e) != 0, "Feb 30 rejected");
	ok(hq_time_parse_range("lastweek", now, &s, &end, &e) != 0, "typo rejected");
	ok(strstr(e.msg, "last-week") != NULL, "error lists the accepted forms");
	ok(hq_time_parse_range("2024-12-01T10:00", now, &s, &end, &e) == 0 && s == end, "timestamp is an instant");

	/* Another zone: a half-hour offset. */
	ok(hq_time_set_zone("Asia/Kolkata", &e) == 0, "set Kolkata");
	t = iso("2024-06-01T18:29:59Z");
	is_str(label(t, HQ_DAY), "2024-06-01", "23:59:59 IST is still the 1st");
	is_str(label(t + 1, HQ_DAY), "2024-06-02", "00:00 IST is the 2nd");
	is_int(hq_time_day_start(hq_time_local_day(t + 1)), t + 1, "day start at a +05:30 midnight");
	is_str(label(hq_time_bucket_start(t, HQ_HOUR), HQ_HOUR),
	    "2024-06-01T23:00+05:30", "an hour label with a +05:30 offset");

	/* The offset cache (spans of constant offset) against localtime_r, in
	 * zones with DST, half- and quarter-hour offsets and a half-hour DST
	 * (Lord Howe), forwards, backwards and jumping about. */
	static const char *const zones[] = { "America/Los_Angeles", "Europe/London",
		"Asia/Kolkata", "Asia/Kathmandu", "Australia/Lord_Howe",
		"America/St_Johns", "Africa/Casablanca" };
	for (size_t z = 0; z < sizeof zones / sizeof zones[0]; z++) {
		long wrong = 0, n = 0;
		uint64_t r = 12345;
		hq_time_set_zone(zones[z], &e);
		for (int pass = 0; pass < 3; pass++)
			for (int64_t i = 0; i < 8 * 365 * 96; i += 7) {
				int64_t u = 1577836800 + (pass == 1 ? 8 * 365 * 96 - i : i) * 900;
				if (pass == 2) {
					r ^= r << 13;
					r ^= r >> 7;
					r ^= r << 17;
					u = 1577836800 + (int64_t)(r % (8ULL * 365 * 86400));
				} else
					u += i % 900;
				struct hq_local l;
				struct tm tm;
				time_t tt = (time_t)u;
				hq_time_to_local(u, &l);
				localtime_r(&tt, &tm);
				n++;
				wrong += l.year != tm.tm_year + 1900 || l.month != tm.tm_mon + 1 ||
				    l.day != tm.tm_mday || l.hour != tm.tm_hour ||
				    l.min != tm.tm_min || l.sec != tm.tm_sec ||
				    hq_time_local_day(u) != hq_time_days_from_civil(l.year,
				    l.month, l.day);
			}
		is_int(wrong, 0, "%s: local times as localtime_r at %ld instants, 2020-2027",
		    zones[z], n);
	}

	/* issue 23: before a zone's first transition (local mean time, Los
	 * Angeles -07:52:58 until 1883-11-18) and in the early mean times that
	 * are no whole minute (Paris +00:09:21 until 1911, Amsterdam +00:19:32
	 * until 1937), offsets are rounded to the minute: every day starts at
	 * its local midnight, belongs to itself, and the next one follows. */
	{
		static const char *const old[] = { "America/Los_Angeles", "Europe/Paris",
			"Europe/Amsterdam", "Asia/Kolkata", "Africa/Monrovia", "America/New_York" };
		for (size_t z = 0; z < sizeof old / sizeof old[0]; z++) {
			long wrong = 0, n = 0;
			hq_time_set_zone(old[z], &e);
			for (int64_t d = hq_time_days_from_civil(1800, 1, 1);
			    d < hq_time_days_from_civil(1975, 1, 1); d += 3, n++) {
				int64_t s0 = hq_time_day_start(d);
				struct hq_local l;
				hq_time_to_local(s0, &l);
				/* at 00:00, or after a gap that skipped it (Kolkata
				 * 1942-09-01 begins at 01:00) */
				wrong += hq_time_local_day(s0) != d || l.sec ||
				    hq_time_local_day(s0 - 60) != d - 1 ||
				    ((l.hour || l.min) && hq_time_from_local(l.year, l.month,
				    l.day, 0, 0, 0) != s0) ||
				    hq_time_bucket_start(s0, HQ_DAY) != s0 ||
				    hq_time_bucket_next(s0, HQ_DAY) <= s0 ||
				    hq_time_local_day(hq_time_bucket_next(s0, HQ_DAY)) != d + 1 ||
				    (s0 + (int64_t)l.offset_min * 60) % 60 != 0;
			}
			is_int(wrong, 0, "%s: %ld days 1800-1974 start at their midnight, each its own",
			    old[z], n);
		}
		hq_time_set_zone("America/Los_Angeles", &e);
		int64_t u = hq_time_from_local(1880, 6, 2, 7, 0, 0);
		is_int(u, iso("1880-06-02T14:53:00Z"), "1880-06-02 07:00 in Los Angeles: -07:53, LMT to the minute");
		char buf[64];
		hq_time_format_local(u, buf, sizeof buf);
		is_str(buf, "1880-06-02T07:00:00-07:53", "written back as it was typed, with its offset");
		hq_time_format_local(iso("1880-06-01T07:00:00Z"), buf, sizeof buf);
		is_str(buf, "1880-05-31T23:07:00-07:53", "an instant of 1880 shown at -07:53, on its day");
		is_int(hq_time_local_day(iso("1880-06-01T07:52:59Z")),
		    hq_time_days_from_civil(1880, 5, 31), "07:52:59Z is still May 31st there");
		is_int(hq_time_local_day(iso("1880-06-01T07:53:00Z")),
		    hq_time_days_from_civil(1880, 6, 1), "07:53Z is June 1st");
		hq_time_format_local(iso("1883-11-18T20:00:00Z"), buf, sizeof buf);
		is_str(buf, "1883-11-18T12:00:00-08:00", "the first transition, to Pacific time");
		hq_time_format_local(iso("1883-11-18T19:59:59Z"), buf, sizeof buf);
		is_str(buf, "1883-11-18T12:06:59-07:53", "a second before it");
	}

	/* Civil calendar round trips. */
	int bad = 0;
	for (int64_t d = -800000; d < 800000; d += 37) {
		int y, m, dd;
		hq_time_civil_from_days(d, &y, &m, &dd);
		if (hq_time_days_from_civil(y, m, dd) != d)
			bad++;
	}
	is_int(bad, 0, "civil <-> days round trip");
	/* --from and --to as one range. */
	{
		int64_t a, b;
		hq_time_set_zone("America/Los_Angeles", &e);
		ok(hq_time_parse_from_to("2024-11", "2024-11", 0, &a, &b, &e) == 0 &&
		    a == iso("2024-11-01T00:00:00-07:00") &&
		    b == iso("2024-12-01T00:00:00-08:00"), "span: --from/--to a month is the month");
		ok(hq_time_parse_from_to(NULL, NULL, 0, &a, &b, &e) == 0 && a == INT64_MIN &&
		    b == INT64_MAX, "span: both open");
		ok(hq_time_parse_from_to("2024-12", "2024-11", 0, &a, &b, &e) < 0, "span: from after to");
		is_str(e.msg, "--from 2024-12 is after --to 2024-11; swap them", "span: says so");
		ok(hq_time_parse_from_to("2024-13", NULL, 0, &a, &b, &e) < 0 &&
		    strncmp(e.msg, "--from: ", 8) == 0, "span: a bad --from is named (%s)", e.msg);
	}
	return done_testing();
}
