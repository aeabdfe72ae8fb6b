/* Unit tests for lib/read/cgmfile.c: Dexcom Clarity and LibreView files, the
 * real ones in tests/fixtures/cgm and one written here for every
 * variant (tests/data/cgm): both Clarity timestamp forms, Low/High,
 * mmol/L, German headers with ';' and decimal commas, LibreView preambles,
 * record types 0/1/2, day-first, month-first, a leading year, AM/PM, the
 * ambiguous and the contradictory file, a fall-back night, bad lines. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/buf.h"
#include "hq/cgmfile.h"
#include "hq/time.h"
#include "fixture.h"
#include "tap.h"

#define DATA "tests/data/cgm/"

struct reading {
	int64_t time;
	double mgdl;
	char source[96];
	char unit[8];
	int kind, censored;
	long line;
};

struct result {
	struct reading r[64];
	long n;          /* all readings, even past the 64 kept */
	long low, high, empty;
	char sources[16][96];
	int nsources;
	int64_t first, last;
	int increasing;
	struct hq_cgmfile_stats st;
	char err[1024];
	int rc;
};

static int
collect(void *arg, const struct hq_cgm_reading *rd, struct hq_err *e)
{
	struct result *res = arg;
	int i;

	(void)e;
	if (isnan(rd->mgdl)) {   /* a row without a value: the caller skips it */
		res->empty++;
		return 0;
	}
	if (res->n < 64) {
		struct reading *r = &res->r[res->n];
		r->time = rd->time;
		r->mgdl = rd->mgdl;
		snprintf(r->source, sizeof r->source, "%s", rd->source);
		snprintf(r->unit, sizeof r->unit, "%s", rd->unit);
		r->kind = rd->kind;
		r->censored = rd->censored;
		r->line = rd->line;
	}
	if (res->n == 0)
		res->first = rd->time;
	else if (rd->time <= res->last)
		res->increasing = 0;
	res->last = rd->time;
	res->n++;
	res->low += rd->censored < 0;
	res->high += rd->censored > 0;
	for (i = 0; i < res->nsources; i++)
		if (strcmp(res->sources[i], rd->source) == 0)
			break;
	if (i == res->nsources && i < 16)
		snprintf(res->sources[res->nsources++], 96, "%s", rd->source);
	return 0;
}

static int
fd_rewind(void *arg)
{
	return lseek(*(int *)arg, 0, SEEK_SET) == 0 ? 0 : -1;
}

/* Read a file (sniffed) into res; seekable unless spool is set. */
static struct result *
readf(const char *path, enum hq_date_order order, int spool)
{
	static struct result res;
	int fd = open(path, O_RDONLY);
	unsigned char pre[65536];
	ssize_t n;
	struct hq_err e;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct hq_cgmfile_input in = { base, hq_csv_fd_read, &fd,
	    spool ? NULL : fd_rewind, 0 };

	memset(&res, 0, sizeof res);
	res.increasing = 1;
	if (fd < 0 || (n = read(fd, pre, sizeof pre)) < 0 || fd_rewind(&fd)) {
		snprintf(res.err, sizeof res.err, "cannot read %s", path);
		res.rc = -1;
		return &res;
	}
	res.rc = hq_cgmfile_read(&in, hq_cgmfile_sniff(pre, (size_t)n), order,
	    collect, &res, &res.st, &e);
	if (res.rc)
		snprintf(res.err, sizeof res.err, "%s", e.msg);
	close(fd);
	return &res;
}

static int64_t
utc(const char *s)
{
	int64_t t = 0;

	hq_time_parse(s, &t);
	return t;
}

static enum hq_cgm_format
sniff_file(const char *path)
{
	unsigned char pre[65536];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, pre, sizeof pre);

	if (fd >= 0)
		close(fd);
	return n < 0 ? HQ_CGMFILE_NONE : hq_cgmfile_sniff(pre, (size_t)n);
}

static void
sniffing(void)
{
	static const struct { const char *file; enum hq_cgm_format f; } t[] = {
		{ DATA "dexcom-g6-en.csv", HQ_CGMFILE_DEXCOM },
		{ DATA "dexcom-g7-space.csv", HQ_CGMFILE_DEXCOM },
		{ DATA "dexcom-mmol.csv", HQ_CGMFILE_DEXCOM },
		{ DATA "dexcom-de.csv", HQ_CGMFILE_DEXCOM },
		{ DATA "dexcom-fallback.csv", HQ_CGMFILE_DEXCOM },
		{ DATA "libre-us-mgdl.csv", HQ_CGMFILE_LIBRE },
		{ DATA "libre-de-mmol.csv", HQ_CGMFILE_LIBRE },
		{ DATA "libre-ymd.csv", HQ_CGMFILE_LIBRE },
		{ DATA "libre-ambiguous.csv", HQ_CGMFILE_LIBRE },
		{ DATA "example_data_5_subject.csv", HQ_CGMFILE_NONE },
		{ "tests/cli/data/query-small.jsonl", HQ_CGMFILE_NONE },
		{ "tests/data/ios16-broken-dtd.xml", HQ_CGMFILE_NONE },
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		is_int(sniff_file(t[i].file), t[i].f, "sniffed: %s", t[i].file);
	is_int(sniff_file(fixture_path("cgm", "dexcom-clarity-example.csv")), HQ_CGMFILE_DEXCOM,
	    "sniffed: the real Clarity export");
	is_int(sniff_file(fixture_path("cgm", "libreview-tiny.csv")), HQ_CGMFILE_LIBRE,
	    "sniffed: the real LibreView export");
	is_int(hq_cgmfile_sniff((const unsigned char *)"PK\3\4\0\0", 6), HQ_CGMFILE_NONE,
	    "a zip is not CSV");
}

static void
dexcom(void)
{
	struct result *r;

	r = readf(DATA "dexcom-g6-en.csv", HQ_DATES_AUTO, 0);
	is_int(r->rc, 0, "g6: read (%s)", r->err);
	is_int(r->n, 5, "g6: the five EGV rows; metadata, alerts, calibration, carbs, insulin, exercise skipped");
	is_str(r->r[0].source, "Dexcom G6 (SN 8XXXXX)", "g6: source from the Device row and the transmitter");
	is_int(r->r[0].time, utc("2019-10-14T16:37:37Z"), "g6: ISO timestamp, local (UTC here)");
	is_dbl(r->r[0].mgdl, 39, 0, "g6: Low stored as 39");
	is_int(r->r[0].censored, -1, "g6: Low marked");
	is_int(r->r[0].line, 7, "g6: its line");
	is_dbl(r->r[1].mgdl, 52, 0, "g6: a number");
	is_dbl(r->r[2].mgdl, 71, 0, "g6: the calibration between is skipped");
	is_dbl(r->r[3].mgdl, 401, 0, "g6: High stored as 401");
	is_int(r->r[3].censored, 1, "g6: High marked");
	is_dbl(r->r[4].mgdl, 399, 0, "g6: a quoted number");
	is_str(r->r[4].unit, "mg/dL", "g6: unit as written");
	is_int(r->st.rows, 15, "g6: 15 data rows");

	r = readf(DATA "dexcom-g7-space.csv", HQ_DATES_AUTO, 0);
	is_int(r->rc, 0, "g7: read (%s)", r->err);
	is_int(r->n, 4, "g7: four readings");
	is_int(r->r[0].time, utc("2025-05-01T00:01:47Z"), "g7: '2025-05-01 0:01:47' (space, unpadded hour)");
	is_int(r->r[3].time, utc("2025-05-01T23:59:59Z"), "g7: 23:59:59");
	is_str(r->r[0].source, "Dexcom G7 (SN ABCD12)", "g7: first sensor");
	is_str(r->r[3].source, "Dexcom G7 (SN EFGH34)", "g7: a new sensor, a new source");

	r = readf(DATA "dexcom-mmol.csv", HQ_DATES_AUTO, 0);
	is_int(r->rc, 0, "mmol: read (%s)", r->err);
	is_dbl(r->r[0].mgdl, 5.5 * 18.016, 1e-9, "mmol: 5.5 mmol/L = 99.088 mg/dL");
	is_dbl(r->r[1].mgdl, 39, 0, "mmol: Low is 39 mg/dL");
	is_dbl(r->r[2].mgdl, 22.2 * 18.016, 1e-9, "mmol: 22.2");
	is_dbl(r->r[3].mgdl, 401, 0, "mmol: High is 401 mg/dL");
	is_str(r->r[0].unit, "mmol/L", "mmol: unit as written");
	is_str(r->r[0].source, "Dexcom G6 Receiver", "mmol: no transmitter column, no SN");

	r = readf(DATA "dexcom-de.csv", HQ_DATES_AUTO, 0);
	is_int(r->rc, 0, "German: read (%s)", r->err);
	is_int(r->n, 4, "German: EGW rows, the Kalibrierung skipped");
	is_dbl(r->r[0].mgdl, 5.8 * 18.016, 1e-9, "German: '5,8' mmol/l");
	is_int(r->r[1].censored, -1, "German: Niedrig is Low");
	is_int(r->r[2].censored, 1, "German: Hoch is High");
	is_dbl(r->r[3].mgdl, 12.25 * 18.016, 1e-9, "German: quoted '12,25'");
	is_str(r->r[0].source, "Dexcom G6 (SN 8AAAAA)", "German: device from the Gerät row");

	r = readf(fixture_path("cgm", "dexcom-clarity-example.csv"), HQ_DATES_AUTO, 0);
	is_int(r->rc, 0, "real Clarity export: read (%s)", r->err);
	is_int(r->n, 24542, "real Clarity export: 24,542 EGV rows");
	is_int(r->low, 64, "real Clarity export: 64 Low");
	is_int(r->high, 0, "real Clarity export: no High");
	is_int(r->nsources, 9, "real Clarity export: nine sensors");
	is_str(r->sources[0], "Dexcom ONE+ (SN 74xxxxxxxx11)", "real Clarity export: the first sensor");
	is_int(r->first, utc("2024-06-06T00:00:41Z"), "real Clarity export: first reading");
	is_int(r->last, utc("2024-09-03T11:20:50Z"), "real Clarity export: last reading");
}

static void
fall_back(void)
{
	struct hq_err e;
	struct result *r;
	int steady = 1;

	hq_time_set_zone("America/Los_Angeles", &e);
	r = readf(DATA "dexcom-fallback.csv", HQ_DATES_AUTO, 0);
	is_int(r->rc, 0, "fall-back: read (%s)", r->err);
	is_int(r->n, 37, "fall-back: 37 readings");
	for (int i = 1; i < r->n && i < 64; i++)
		if (r->r[i].time - r->r[i - 1].time != 300)
			steady = 0;
	ok(steady, "fall-back: the repeated hour read in file order, 5 minutes apart throughout");
	is_int(r->r[6].time, utc("2024-11-03T01:00:00-07:00"), "fall-back: the first 01:00 is PDT");
	is_int(r->r[18].time, utc("2024-11-03T01:00:00-08:00"), "fall-back: the second 01:00 is PST");
	is_int(r->r[36].time, utc("2024-11-03T02:30:00-08:00"), "fall-back: 02:30 PST");
	hq_time_set_zone("UTC", &e);
}

static void
libre(void)
{
	struct result *r;
	struct hq_err e;

	r = readf(DATA "libre-us-mgdl.csv", HQ_DATES_AUTO, 0);
	is_int(r->rc, 0, "US: read (%s)", r->err);
	is_int(r->n, 6, "US: three historic, LO, HI, a scan, a strip; insulin and a note skipped");
	is_int(r->st.skipped, 1, "US: a historic row without a value skipped");
	is_int(r->empty, 1, "US: and handed over as such (NaN), for a warning");
	is_int(r->r[0].time, utc("2024-11-12T23:45:00Z"), "US: 11:45 PM, month first");
	is_str(r->r[0].source, "FreeStyle Libre 2 (SN ABC-123)", "US: the sensor");
	is_int(r->r[0].kind, HQ_CGM_REGULAR, "US: type 0 is regular");
	is_int(r->r[1].kind, HQ_CGM_SCAN, "US: type 1 is a scan");
	is_dbl(r->r[1].mgdl, 150, 0, "US: the scan's value from the scan column");
	is_str(r->r[1].source, "FreeStyle Libre 2 scan (SN ABC-123)", "US: scans are a source of their own");
	is_int(r->r[2].time, utc("2024-11-13T00:00:00Z"), "US: 12:00 AM is midnight");
	is_dbl(r->r[3].mgdl, 39, 0, "US: LO stored as 39");
	is_int(r->r[4].kind, HQ_CGM_STRIP, "US: type 2 is a strip");
	is_dbl(r->r[4].mgdl, 97, 0, "US: the strip's value from column 15");
	is_int(r->r[4].time, utc("2024-11-13T12:20:00Z"), "US: 12:20 PM");
	is_str(r->r[4].source, "FreeStyle Libre 2 strip (SN ABC-123)", "US: strips are a source of their own");
	is_dbl(r->r[5].mgdl, 501, 0, "US: HI stored as 501");

	r = readf(DATA "libre-de-mmol.csv", HQ_DATES_AUTO, 0);
	is_int(r->rc, 0, "German: read (%s)", r->err);
	is_int(r->n, 4, "German: two preamble lines, four readings");
	is_int(r->r[0].time, utc("2024-11-12T23:45:00Z"), "German: day first (a day of 13 settles it)");
	is_dbl(r->r[0].mgdl, 7.2 * 18.016, 1e-9, "German: '7,2' mmol/L");
	is_str(r->r[2].source, "FreeStyle LibreLink scan (SN b59d4499-1a07-462b-b7da-a179f2093996)",
	    "German: the scan");
	is_str(r->r[0].unit, "mmol/L", "German: unit as written");

	r = readf(DATA "libre-de-mmol.csv", HQ_DATES_AUTO, 1);
	is_int(r->rc, 0, "German, not seekable: read from the spool (%s)", r->err);
	is_int(r->n, 4, "German, not seekable: the same four");

	r = readf(DATA "libre-ymd.csv", HQ_DATES_AUTO, 0);
	is_int(r->rc, 0, "leading year: read (%s)", r->err);
	is_int(r->r[2].time, utc("2024-11-04T08:15:00Z"), "leading year settles the order");

	r = readf(DATA "libre-ambiguous.csv", HQ_DATES_AUTO, 0);
	ok(r->rc < 0 && strstr(r->err, "libre-ambiguous.csv: dates such as '05-12-2019 16:25' (line 3) "
	    "could be day-first or month-first") && strstr(r->err, "--date-order"),
	    "ambiguous dates: an error that says so (%s)", r->err);
	is_int(r->n, 0, "ambiguous dates: nothing emitted");
	r = readf(DATA "libre-ambiguous.csv", HQ_DATES_DMY, 0);
	is_int(r->r[0].time, utc("2019-12-05T16:25:00Z"), "ambiguous, told day-first");
	r = readf(DATA "libre-ambiguous.csv", HQ_DATES_MDY, 0);
	is_int(r->r[0].time, utc("2019-05-12T16:25:00Z"), "ambiguous, told month-first");

	r = readf(DATA "libre-conflict.csv", HQ_DATES_AUTO, 0);
	is_str(r->err, "libre-conflict.csv:2: a month-first date here but a day-first one on line 3",
	    "contradictory dates: both lines named");
	r = readf(DATA "libre-bad-type.csv", HQ_DATES_AUTO, 0);
	is_str(r->err, "libre-bad-type.csv:3: record type 'x' is not a number", "bad record type");

	r = readf(fixture_path("cgm", "libreview-tiny.csv"), HQ_DATES_AUTO, 0);
	ok(r->rc < 0 && strstr(r->err, "could be day-first or month-first"),
	    "real LibreView file: every date is ambiguous, and it says so");
	r = readf(fixture_path("cgm", "libreview-tiny.csv"), HQ_DATES_DMY, 0);
	is_int(r->rc, 0, "real LibreView file, day-first: read (%s)", r->err);
	is_int(r->n, 6, "real LibreView file: six historic readings");
	is_dbl(r->r[0].mgdl, 6.3 * 18.016, 1e-9, "real LibreView file: 6.3 mmol/L");
	is_int(r->r[0].time, utc("2019-12-05T16:25:00Z"), "real LibreView file: 05-12-2019 16:25");
	is_str(r->r[0].source, "FreeStyle LibreLink (SN b59d4499-1a07-462b-b7da-a179f2093996)",
	    "real LibreView file: source");

	/* The spool has a bound: a pipe longer than it is refused. */
	{
		int fd = open(DATA "libre-us-mgdl.csv", O_RDONLY);
		struct hq_cgmfile_input in = { "pipe", hq_csv_fd_read, &fd, NULL, 1000 };
		struct hq_cgmfile_stats st;
		struct result res;
		memset(&res, 0, sizeof res);
		ok(fd >= 0 && hq_cgmfile_read(&in, HQ_CGMFILE_LIBRE, HQ_DATES_AUTO, collect,
		    &res, &st, &e) < 0 && strstr(e.msg, "cannot be rewound and is "
		    "longer than 1000 bytes"), "a pipe past the spool bound: refused (%s)", e.msg);
		if (fd >= 0)
			close(fd);
	}
}

static void
bad_lines(void)
{
	struct result *r;

	r = readf(DATA "dexcom-bad-value.csv", HQ_DATES_AUTO, 0);
	is_str(r->err, "dexcom-bad-value.csv:4: glucose value '12O' is neither a number nor Low/High",
	    "a bad value names its line");
	r = readf(DATA "dexcom-bad-quote.csv", HQ_DATES_AUTO, 0);
	is_str(r->err, "dexcom-bad-quote.csv:3: quoted field not closed", "an unclosed quote names its line");
}

int
main(void)
{
	struct hq_err e;

	if (hq_time_set_zone("UTC", &e))
		return 1;
	sniffing();
	dexcom();
	fall_back();
	libre();
	bad_lines();
	return done_testing();
}
