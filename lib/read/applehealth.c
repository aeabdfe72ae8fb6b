#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>
#include <cjson/cJSON.h>
#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>

#include "hq/applehealth.h"
#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/elemq.h"
#include "hq/time.h"
#include "hq/utf8.h"
/* ------------------------------------------------------------------ */
/* Sniffing                                                             */

/* "<HealthData" or "<!DOCTYPE HealthData" in the n bytes at p. */
static int
names_health_data(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i + 11 <= n; i++)
		if (p[i] == '<' && (memcmp(p + i, "<HealthData", 11) == 0 ||
		    (i + 20 <= n && memcmp(p + i, "<!DOCTYPE HealthData", 20) == 0)))
			return 1;
	return 0;
}

int
hq_applehealth_sniff_zip(const unsigned char *p, size_t n)
{
	return n >= 4 && p[0] == 'P' && p[1] == 'K' && p[2] == 3 && p[3] == 4;
}

int
hq_applehealth_sniff_xml(const unsigned char *p, size_t n)
{
	size_t i = hq_input_skip_space(p, n);

	if (i >= n || p[i] != '<')
		return 0;
	/* Apple's root element, possibly after a long DTD; XML that holds
	 * neither in its first 4 KB is still Apple's to judge (a DTD can be
	 * longer than what was sniffed). */
	return names_health_data(p + i, n - i) || n >= 4096;
}

/* ------------------------------------------------------------------ */
/* The export reader                                                    */

#define RAW_SIZE (256 * 1024)
#define OUT_SIZE (64 * 1024)
#define MAX_DEPTH 16
#define MAX_ROUTES_PER_FILE 16
#define MAX_SIDE_FILE (16 << 20)

/* What the parser reads from: the file, or the current zip entry. */
struct reader {
	struct hq_input *in;
	unsigned char *raw;          /* raw_store: bytes read, not yet filtered */
	unsigned char raw_store[RAW_SIZE];
	unsigned char out[OUT_SIZE];   /* filtered, not yet given to libxml2 */
	size_t opos, olen;
	size_t rpos, rlen;
	int eof, ioerr;
	char ioerrmsg[256];
	struct hq_xml_filter filt;
};

/* A parse: what libxml2 reads and what it reported. During an export's
 * parse this is the parsing thread's alone (elemq.h); the writer's state
 * is the rest of struct ah. */
struct xparse {
	struct reader rd;
	xmlParserCtxtPtr ctxt;
	struct hq_elemq *q;
	struct hq_input *src;        /* for progress: the file read */
	struct archive *ar;          /* and the zip it is, or NULL */
	int depth;                   /* of the next element to start */
	char err[768];               /* libxml2's first error */
	int errline;
	int lastline;                /* where the parse ended */
};

enum ctx_kind { C_NONE, C_RECORD, C_CORRELATION, C_WORKOUT, C_ACTIVITY,
	C_ROUTE, C_HRV, C_OTHER };

struct ah {
	struct hq_ingest *ig;
	struct hq_input *src;        /* the file */
	struct archive *ar;          /* the file as a zip */
	struct hq_input entry;       /* the zip entry being read */
	const char *name;            /* for messages */
	struct xparse px;
	struct hq_err *e;            /* the error of a failed callback */
	int line;                    /* of the element being read */
	int skip_depth;              /* children of this depth skipped; -1 */
	int failed;
	const struct hq_elem *el;    /* the element being read (its copy,
	                                elemq.h), whose attributes attr() reads */
	struct hq_input prog;        /* the file, as progress shows it */
	/* GPX */
	const int64_t *route_ids;
	int nroutes, have_point, point_no;
	struct hq_route_point pt;
	int64_t first_time, last_time;
	int field;
	char text[128];
	size_t textlen;
	/* the element open at each depth, and what it made */
	enum ctx_kind kind[MAX_DEPTH];
	int64_t sample_id, corr_id, workout_id, route_id;
	int corr_new, beat_seq, point_seq;
	char activity_uuid[64];
	int in_activity;
	int seen_root;
	long ticks;
};

static void
reader_start(struct reader *r, struct hq_input *in)
{
	memset(r, 0, sizeof *r);
	r->in = in;
	r->raw = r->raw_store;
	hq_xml_filter_init(&r->filt);
}

static int
reader_fill(struct reader *r)
{
	ssize_t n;

	if (r->eof || r->ioerr)
		return 0;
	n = hq_input_read(r->in, r->raw, RAW_SIZE);
	if (n < 0) {
		snprintf(r->ioerrmsg, sizeof r->ioerrmsg, "%s",
		    hq_input_strerror(r->in));
		r->ioerr = 1;
		return -1;
	}
	if (n == 0)
		r->eof = 1;
	r->rpos = 0;
	r->rlen = (size_t)n;
	return (int)(n > 0);
}

/* libxml2's read callback: raw bytes through the filter, staged in out
 * because the parser may ask for fewer bytes than a filter run makes. */
static int
xml_read(void *arg, char *buf, int len)
{
	struct reader *r = arg;

	while (r->opos == r->olen) {
		if (r->rpos == r->rlen) {
			int k = reader_fill(r);
			if (k < 0)
				return -1;
			if (k == 0)
				return 0;
		}
		size_t take = r->rlen - r->rpos;
		if (take > OUT_SIZE - 16)
			take = OUT_SIZE - 16;
		r->olen = hq_xml_filter_run(&r->filt, r->raw + r->rpos, take, r->out);
		r->opos = 0;
		r->rpos += take;
		if (r->filt.over)
			return -1;   /* run_parser() says which bound */
	}
	size_t n = r->olen - r->opos;
	if (len < 0)
		return -1;
	if (n > (size_t)len)
		n = (size_t)len;
	memcpy(buf, r->out + r->opos, n);
	r->opos += n;
	return (int)n;
}

static int
xml_close(void *arg)
{
	(void)arg;
	return 0;
}

/* libxml2's first error, kept for the message. */
static void
keep_error(struct xparse *px, xmlErrorPtr err)
{
	if (px->err[0] || !err || err->level < XML_ERR_ERROR)
		return;
	px->errline = err->line;
	snprintf(px->err, sizeof px->err, "%s", err->message ? err->message :
	    "XML error");
	size_t n = strlen(px->err);
	while (n && (px->err[n - 1] == '\n' || px->err[n - 1] == ' '))
		px->err[--n] = '\0';
}

static int
line_no(struct ah *a)
{
	return a->line;
}

/* e = "name:line: what": -1. */
static int
fail_at(struct ah *a, struct hq_err *e, const char *what)
{
	hq_err_set(e, "%s:%d: %s", a->name, line_no(a), what);
	return -1;
}

/* e, set by the writer, gets where: "name:line: why" (in the XML) or
 * "name: why" (a side file as a whole). -1. */
static int
failed_where(struct ah *a, struct hq_err *e, int with_line)
{
	char why[sizeof e->msg];

	memcpy(why, e->msg, sizeof why);
	if (with_line)
		return fail_at(a, e, why);
	hq_err_set(e, "%s: %s", a->name, why);
	return -1;
}

static int
failed_here(struct ah *a, struct hq_err *e)
{
	return failed_where(a, e, 1);
}

static void
warn_at(struct ah *a, const char *what)
{
	hq_ingest_warn(a->ig, "%s:%d: %s", a->name, line_no(a), what);
}

/* The writer's own warnings (ingest.h) name the line being read. */
static void
where(void *arg, char *buf, size_t n)
{
	struct ah *a = arg;

	snprintf(buf, n, "%s:%d", a->name, line_no(a));
}

static const char *
attr(const struct ah *a, const char *name)
{
	for (int i = 0; i < a->el->nattrs; i++)
		if (strcmp(a->el->attr[2 * i], name) == 0)
			return a->el->attr[2 * i + 1];
	return NULL;
}

static double
num(const char *s)
{
	char *end;
	double v;

	if (!s || !*s)
		return NAN;
	errno = 0;
	v = strtod(s, &end);
	while (isspace((unsigned char)*end))
		end++;
	if (*end || errno || !isfinite(v))
		return NAN;
	return v;
}

static double
attr_num(const struct ah *a, const char *name)
{
	return num(attr(a, name));
}

/* A number attribute of a SAX2 element (GPX, read on its own). */
static double
sax_num(const xmlChar **attrs, int nattrs, const char *name)
{
	char v[64];

	for (int i = 0; i < nattrs; i++) {
		const char *val = (const char *)attrs[5 * i + 3];
		const char *end = (const char *)attrs[5 * i + 4];
		if (strcmp((const char *)attrs[5 * i], name) != 0)
			continue;
		if (!val || end < val || (size_t)(end - val) >= sizeof v)
			return NAN;
		memcpy(v, val, (size_t)(end - val));
		v[end - val] = '\0';
		return num(v);
	}
	return NAN;
}

/* An Apple date attribute: 0, or -1 when missing or malformed. */
static int
attr_time(const struct ah *a, const char *name, int64_t *t, int *off)
{
	const char *s = attr(a, name);

	if (off)
		*off = 0;
	if (!s)
		return -1;
	if (hq_time_parse_apple(s, t, off) == 0)
		return 0;
	return hq_time_parse(s, t);
}

/* A duration attribute with its unit attribute, in seconds. */
static double
attr_duration(const struct ah *a, const char *name, const char *unitname)
{
	double v = attr_num(a, name), s;
	const char *unit = attr(a, unitname);

	if (isnan(v))
		return NAN;
	if (hq_unit_convert(v, unit ? unit : "min", "s", &s))
		return v * 60;
	return s;
}

/* A workout total in unit to; NaN (and a warning) when its unit is not
 * one hq converts: a distance in an unknown unit is no distance in m. */
static double
attr_converted(struct ah *a, const char *name, const char *unitname,
    const char *to)
{
	double v = attr_num(a, name), out;
	const char *unit = attr(a, unitname);
	char msg[256];

	if (isnan(v) || !unit)
		return v;
	if (hq_unit_convert(v, unit, to, &out) == 0)
		return out;
	snprintf(msg, sizeof msg, "Workout %s in '%.100s', not a unit hq "
	    "converts to %s (left out)", name, unit, to);
	warn_at(a, msg);
	return NAN;
}

static void
fill_record(const struct ah *a, struct hq_ingest_record *r)
{
	memset(r, 0, sizeof *r);
	r->type = attr(a, "type");
	r->source = attr(a, "sourceName");
	r->source_version = attr(a, "sourceVersion");
	r->device = attr(a, "device");
	r->unit = attr(a, "unit");
	r->value_str = attr(a, "value");
	r->percent_fraction = 1;
}

/* Dates of a Record-like element: 0, or -1 when one is missing or bad. */
static int
record_times(const struct ah *a, struct hq_ingest_record *r)
{
	if (attr_time(a, "startDate", &r->start, &r->offset_min) ||
	    attr_time(a, "endDate", &r->end, NULL))
		return -1;
	if (attr_time(a, "creationDate", &r->created, NULL))
		r->created = 0;
	return 0;
}

static int
on_record(struct ah *a, struct hq_err *e)
{
	struct hq_ingest_record r;
	struct hq_err re;
	int rc;

	fill_record(a, &r);
	a->sample_id = 0;
	if (!r.type) {
		hq_ingest_skip(a->ig, "%s:%d: Record without a type (skipped)",
		    a->name, line_no(a));
		return 0;
	}
	if (record_times(a, &r)) {
		hq_ingest_skip(a->ig, "%s:%d: %.200s without a valid "
		    "startDate/endDate (skipped)", a->name, line_no(a), r.type);
		return 0;
	}
	rc = hq_ingest_record(a->ig, &r, NULL, &re);
	if (rc < 0)
		return fail_at(a, e, re.msg);
	if (rc == 2)
		hq_ingest_warn(a->ig, "%s:%d: %.200s: %s (skipped)", a->name,
		    line_no(a), r.type, re.msg);
	/* Children (metadata, beats) only for a sample new to the store. */
	if (rc == 1) {
		a->sample_id = hq_ingest_new_sample_id(a->ig);
		a->beat_seq = 0;
	}
	return 0;
}

static const char *
activity(const struct ah *a)
{
	return a->in_activity ? a->activity_uuid : NULL;
}

/* An element inside a Workout. */
static int
on_workout_child(struct ah *a, const char *name, int depth, struct hq_err *e)
{
	int64_t w = a->workout_id;
	enum ctx_kind parent = a->kind[depth - 1];
	int rc = 0;

	if (strcmp(name, "MetadataEntry") == 0) {
		if (parent != C_WORKOUT && parent != C_ACTIVITY)
			return 0;   /* of an event or a route: not kept */
		const char *k = attr(a, "key"), *v = attr(a, "value");
		if (k)
			rc = hq_ingest_workout_meta(a->ig, w, activity(a), k, v, e);
	} else if (strcmp(name, "WorkoutActivity") == 0 && parent == C_WORKOUT) {
		const char *uuid = attr(a, "uuid");
		int64_t start, end = 0;
		if (!uuid || attr_time(a, "startDate", &start, NULL)) {
			warn_at(a, "WorkoutActivity without uuid or startDate (skipped)");
			a->kind[depth] = C_OTHER;
			return 0;
		}
		if (attr_time(a, "endDate", &end, NULL))
			end = 0;
		snprintf(a->activity_uuid, sizeof a->activity_uuid, "%s", uuid);
		a->in_activity = 1;
		a->kind[depth] = C_ACTIVITY;
		const char *type = attr(a, "workoutActivityType");
		if (!type)
			type = attr(a, "activityType");
		rc = hq_ingest_workout_activity(a->ig, w, uuid, type, start, end,
		    attr_duration(a, "duration", "durationUnit"), e);
	} else if (strcmp(name, "WorkoutEvent") == 0) {
		const char *type = attr(a, "type");
		int64_t date;
		if (!type || attr_time(a, "date", &date, NULL)) {
			warn_at(a, "WorkoutEvent without type or date (skipped)");
			return 0;
		}
		rc = hq_ingest_workout_event(a->ig, w, activity(a), type, date,
		    attr_duration(a, "duration", "durationUnit"), e);
	} else if (strcmp(name, "WorkoutStatistics") == 0) {
		struct hq_ingest_stat s = {
			.activity_uuid = activity(a), .type = attr(a, "type"),
			.unit = attr(a, "unit"),
			.sum = attr_num(a, "sum"), .average = attr_num(a, "average"),
			.minimum = attr_num(a, "minimum"),
			.maximum = attr_num(a, "maximum"),
		};
		if (!s.type)
			return 0;
		if (attr_time(a, "startDate", &s.start, NULL))
			s.start = 0;
		if (attr_time(a, "endDate", &s.end, NULL))
			s.end = 0;
		rc = hq_ingest_workout_stat(a->ig, w, &s, e);
	} else if (strcmp(name, "WorkoutRoute") == 0 && parent == C_WORKOUT) {
		int64_t start, end;
		if (attr_time(a, "startDate", &start, NULL))
			start = 0;
		if (attr_time(a, "endDate", &end, NULL))
			end = 0;
		a->route_id = hq_ingest_route(a->ig, w, attr(a, "sourceName"),
		    start, end, NULL, e);
		if (a->route_id < 0)
			rc = -1;
		a->point_seq = 0;
		a->kind[depth] = C_ROUTE;
	} else if (strcmp(name, "FileReference") == 0 && parent == C_ROUTE) {
		const char *path = attr(a, "path");
		if (path)
			rc = hq_ingest_route_file(a->ig, a->route_id, path, e);
	} else if (strcmp(name, "Location") == 0 && parent == C_ROUTE) {
		struct hq_route_point p = {
			.lat = attr_num(a, "latitude"), .lon = attr_num(a, "longitude"),
			.ele = attr_num(a, "altitude"),
			.h_acc = attr_num(a, "horizontalAccuracy"),
			.v_acc = attr_num(a, "verticalAccuracy"),
			.course = attr_num(a, "course"), .speed = attr_num(a, "speed"),
		};
		if (isnan(p.lat) || isnan(p.lon))
			return 0;
		if (attr_time(a, "date", &p.time, NULL))
			p.time = 0;
		rc = hq_ingest_route_point(a->ig, a->route_id, a->point_seq++, &p, e);
	}
	return rc < 0 ? failed_here(a, e) : 0;
}

/* A Workout or a Correlation: 1 new (its children are read), 0 already
 * stored or skipped (its children are not), -1. */
static int
on_group(struct ah *a, int workout, struct hq_err *e)
{
	struct hq_ingest_group g = {
		.type = attr(a, workout ? "workoutActivityType" : "type"),
		.source = attr(a, "sourceName"),
		.source_version = attr(a, "sourceVersion"),
		.device = attr(a, "device"),
		.duration = NAN, .distance = NAN, .energy = NAN,
	};
	int64_t *id = workout ? &a->workout_id : &a->corr_id;
	char msg[sizeof e->msg + 64];
	int rc;

	*id = 0;
	if (!g.type || attr_time(a, "startDate", &g.start, &g.offset_min) ||
	    attr_time(a, "endDate", &g.end, NULL)) {
		warn_at(a, workout ? "Workout without a type or valid dates "
		    "(skipped)" : "Correlation without a type or valid dates "
		    "(skipped)");
		return 0;
	}
	if (attr_time(a, "creationDate", &g.created, NULL))
		g.created = 0;
	if (workout) {
		g.duration = attr_duration(a, "duration", "durationUnit");
		g.distance = attr_converted(a, "totalDistance", "totalDistanceUnit",
		    "m");
		g.energy = attr_converted(a, "totalEnergyBurned",
		    "totalEnergyBurnedUnit", "kcal");
		rc = hq_ingest_workout(a->ig, &g, id, e);
	} else
		rc = hq_ingest_correlation(a->ig, &g, id, e);
	if (rc == 2) {
		/* Like a Record the writer refuses: said, and skipped. */
		snprintf(msg, sizeof msg, "%s: %s (skipped)", workout ? "Workout"
		    : "Correlation", e->msg);
		warn_at(a, msg);
		*id = 0;
		return 0;
	}
	return rc < 0 ? failed_here(a, e) : rc;
}

/* A Record inside a Correlation: link it to the top-level copy. */
static int
on_member(struct ah *a, struct hq_err *e)
{
	struct hq_ingest_record r;
	int64_t id;

	fill_record(a, &r);
	if (!r.type || record_times(a, &r))
		return 0;
	id = hq_ingest_member(a->ig, &r, e);
	if (id < 0 || (id > 0 && hq_ingest_correlation_member(a->ig, a->corr_id,
	    id, e)))
		return failed_here(a, e);
	return 0;
}

static int
on_summary(struct ah *a, struct hq_err *e)
{
	struct hq_ingest_summary s = {
		.date = attr(a, "dateComponents"),
		.active_energy = attr_num(a, "activeEnergyBurned"),
		.active_energy_goal = attr_num(a, "activeEnergyBurnedGoal"),
		.active_energy_unit = attr(a, "activeEnergyBurnedUnit"),
		.move_time = attr_num(a, "appleMoveTime"),
		.move_time_goal = attr_num(a, "appleMoveTimeGoal"),
		.exercise_time = attr_num(a, "appleExerciseTime"),
		.exercise_time_goal = attr_num(a, "appleExerciseTimeGoal"),
		.stand_hours = attr_num(a, "appleStandHours"),
		.stand_hours_goal = attr_num(a, "appleStandHoursGoal"),
	};
	char msg[sizeof e->msg + 64];
	int rc;

	if (isnan(s.move_time))
		s.move_time = attr_num(a, "appleMoveMinutes");
	if (isnan(s.move_time_goal))
		s.move_time_goal = attr_num(a, "appleMoveMinutesGoal");
	if (!s.date) {
		warn_at(a, "ActivitySummary without a dateComponents date (skipped)");
		return 0;
	}
	rc = hq_ingest_activity_summary(a->ig, &s, e);
	if (rc == 2) {
		snprintf(msg, sizeof msg, "ActivitySummary: %s (skipped)", e->msg);
		warn_at(a, msg);
		return 0;
	}
	return rc < 0 ? failed_here(a, e) : 0;
}

static int
on_clinical(struct ah *a, struct hq_err *e)
{
	struct hq_ingest_clinical c = {
		.type = attr(a, "type"), .identifier = attr(a, "identifier"),
		.source = attr(a, "sourceName"), .source_url = attr(a, "sourceURL"),
		.fhir_version = attr(a, "fhirVersion"),
		.resource_path = attr(a, "resourceFilePath"),
	};

	if (!c.type || !c.identifier) {
		warn_at(a, "ClinicalRecord without type or identifier (skipped)");
		return 0;
	}
	if (attr_time(a, "receivedDate", &c.received, NULL))
		c.received = 0;
	return hq_ingest_clinical_record(a->ig, &c, e) < 0 ? failed_here(a, e)
	    : 0;
}

static int
on_me(struct ah *a, struct hq_err *e)
{
	for (int i = 0; i < a->el->nattrs; i++)
		if (hq_ingest_me(a->ig, a->el->attr[2 * i], a->el->attr[2 * i + 1], e))
			return failed_here(a, e);
	return 0;
}

/* "00:20:37,80" (locale decimal separator) → seconds since midnight. */
static double
time_of_day(const char *s)
{
	int h, m;
	double sec;
	char buf[32], *end;

	if (!s || strlen(s) >= sizeof buf || strlen(s) < 8 || s[2] != ':' ||
	    s[5] != ':' || !isdigit((unsigned char)s[0]) ||
	    !isdigit((unsigned char)s[1]) || !isdigit((unsigned char)s[3]) ||
	    !isdigit((unsigned char)s[4]))
		return NAN;
	h = (s[0] - '0') * 10 + (s[1] - '0');
	m = (s[3] - '0') * 10 + (s[4] - '0');
	snprintf(buf, sizeof buf, "%s", s + 6);
	for (char *p = buf; *p; p++)
		if (*p == ',')
			*p = '.';
	errno = 0;
	sec = strtod(buf, &end);
	if (*end || errno || end == buf)
		return NAN;
	return h * 3600 + m * 60 + sec;
}

/* One element start, with the context of its ancestors. Returns 0, 1 when
 * its children are to be skipped, -1 on error. */
static int
on_element(struct ah *a, const char *name, int depth, struct hq_err *e)
{
	if (depth >= MAX_DEPTH)
		return 0;
	a->kind[depth] = C_OTHER;
	if (depth <= 2)
		a->in_activity = 0;
	if (depth == 0) {
		if (strcmp(name, "HealthData") != 0)
			return fail_at(a, e, "not an Apple Health export: the root "
			    "element is not <HealthData>");
		a->seen_root = 1;
		hq_ingest_set_export_info(a->ig, 0, NULL, attr(a, "locale"));
		return 0;
	}
	if (depth == 1) {
		int rc = 0;
		if (strcmp(name, "Record") == 0) {
			a->kind[1] = C_RECORD;
			rc = on_record(a, e);
			if (rc == 0 && !a->sample_id)
				rc = 1;
		} else if (strcmp(name, "Workout") == 0) {
			a->kind[1] = C_WORKOUT;
			rc = on_group(a, 1, e);
			rc = rc < 0 ? -1 : rc == 1 ? 0 : 1;
		} else if (strcmp(name, "Correlation") == 0) {
			a->kind[1] = C_CORRELATION;
			rc = on_group(a, 0, e);
			a->corr_new = rc == 1;
			rc = rc < 0 ? -1 : rc == 1 ? 0 : 1;
		} else if (strcmp(name, "ActivitySummary") == 0)
			rc = on_summary(a, e);
		else if (strcmp(name, "ClinicalRecord") == 0)
			rc = on_clinical(a, e);
		else if (strcmp(name, "Me") == 0)
			rc = on_me(a, e);
		else if (strcmp(name, "ExportDate") == 0) {
			int64_t t;
			if (attr_time(a, "value", &t, NULL) == 0)
				hq_ingest_set_export_info(a->ig, t, NULL, NULL);
		} else
			rc = 1;   /* Audiogram, VisionPrescription...: not kept */
		return rc;
	}
	switch (a->kind[1]) {
	case C_RECORD:
		if (!a->sample_id)
			return 1;
		if (depth == 2 && strcmp(name, "MetadataEntry") == 0) {
			const char *k = attr(a, "key"), *v = attr(a, "value");
			if (k && hq_ingest_sample_meta(a->ig, a->sample_id, k, v, e))
				return failed_here(a, e);
		} else if (depth == 2 &&
		    strcmp(name, "HeartRateVariabilityMetadataList") == 0)
			a->kind[2] = C_HRV;
		else if (depth == 3 && a->kind[2] == C_HRV &&
		    strcmp(name, "InstantaneousBeatsPerMinute") == 0) {
			double bpm = attr_num(a, "bpm");
			if (!isnan(bpm) && hq_ingest_hrv_beat(a->ig, a->sample_id,
			    a->beat_seq++, bpm, time_of_day(attr(a, "time")), e))
				return failed_here(a, e);
		}
		return 0;
	case C_CORRELATION:
		if (depth == 2 && a->corr_new && strcmp(name, "Record") == 0) {
			if (on_member(a, e))
				return -1;
		}
		return depth == 2 && strcmp(name, "Record") == 0 ? 1 : 0;
	case C_WORKOUT:
		if (!a->workout_id)
			return 1;
		return on_workout_child(a, name, depth, e);
	default:
		return 0;
	}
}

/* The parsing side of an export (its own thread, elemq.h): each element,
 * copied, to export_elem() on the writer's. */
static void
px_start(void *arg, const xmlChar *localname, const xmlChar *prefix,
    const xmlChar *uri, int nns, const xmlChar **ns, int nattrs, int ndefaulted,
    const xmlChar **attrs)
{
	struct xparse *px = arg;
	uint64_t bytes = px->ar ? (uint64_t)archive_filter_bytes(px->ar, -1) :
	    px->src->bytes;

	(void)prefix, (void)uri, (void)nns, (void)ns, (void)ndefaulted;
	if (hq_elemq_put(px->q, (const char *)localname, px->depth++,
	    xmlSAX2GetLineNumber(px->ctxt), nattrs, attrs, bytes))
		xmlStopParser(px->ctxt);
}

static void
px_end(void *arg, const xmlChar *localname, const xmlChar *prefix,
    const xmlChar *uri)
{
	struct xparse *px = arg;

	(void)localname, (void)prefix, (void)uri;
	px->depth--;
}

static void
px_error(void *arg, xmlErrorPtr err)
{
	keep_error(arg, err);
}

/* Run a SAX2 parser with sax's callbacks (user data: user) over px->rd.
 * What xmlParseDocument() said, -1 if the document is not well-formed,
 * -2 if the parser could not start; parse_status() tells which. */
static int
run_parser(struct xparse *px, xmlSAXHandler *sax, void *user)
{
	int rc;

	sax->initialized = XML_SAX2_MAGIC;
	px->depth = 0;
	px->err[0] = '\0';
	px->errline = px->lastline = 0;
	px->ctxt = xmlCreateIOParserCtxt(sax, user, xml_read, xml_close, &px->rd,
	    XML_CHAR_ENCODING_NONE);
	if (!px->ctxt)
		return -2;
	/* Without XML_PARSE_HUGE: libxml2's own limits (10 MB a text node,
	 * depth 256) stand behind the filter's bounds on tags. */
	xmlCtxtUseOptions(px->ctxt, XML_PARSE_NONET | XML_PARSE_NOBLANKS);
	rc = xmlParseDocument(px->ctxt);
	if (rc == 0 && !px->ctxt->wellFormed)
		rc = -1;
	px->lastline = xmlSAX2GetLineNumber(px->ctxt);
	xmlFreeParserCtxt(px->ctxt);
	px->ctxt = NULL;
	return rc;
}

static int
export_parse(void *arg, struct hq_elemq *q)
{
	struct xparse *px = arg;
	xmlSAXHandler sax;

	memset(&sax, 0, sizeof sax);
	sax.startElementNs = px_start;
	sax.endElementNs = px_end;
	sax.serror = px_error;
	px->q = q;
	return run_parser(px, &sax, px);
}

/* After a parse (rc: run_parser's): 0, or -1 with e saying why it failed
 * — a callback did (failed; e is set already), a bound of the filter, a
 * read error, libxml2's first error — and where. */
static int
parse_status(struct ah *a, int failed, int rc, struct hq_err *e)
{
	struct xparse *px = &a->px;

	hq_ingest_dropped_chars(a->ig, px->rd.filt.dropped_ctrl);
	if (failed)
		return -1;
	if (rc == -2) {
		hq_err_set(e, "%s: cannot start the XML parser", a->name);
		return -1;
	}
	if (px->rd.filt.over) {
		if (px->rd.filt.over == 1)
			hq_err_set(e, "%s:%ld: a tag longer than %ld MiB (its name "
			    "and attributes; see LIMITS in hq-ingest(1))", a->name,
			    px->rd.filt.over_line, HQ_XML_MAX_TAG >> 20);
		else
			hq_err_set(e, "%s:%ld: a tag with more than %d attributes "
			    "(see LIMITS in hq-ingest(1))", a->name,
			    px->rd.filt.over_line, HQ_XML_MAX_ATTRS);
		return -1;
	}
	if (rc != 0 || px->rd.ioerr) {
		int line = px->errline ? px->errline : px->lastline;
		if (px->rd.ioerr)
			hq_err_set(e, "%s:%d: read error: %s", a->name, line,
			    px->rd.ioerrmsg);
		else
			hq_err_set(e, "%s:%d: %s", a->name, line,
			    px->err[0] ? px->err : "malformed XML");
		return -1;
	}
	return 0;
}

/* The writer's side: one element of the export, in document order. */
static int
export_elem(void *arg, const struct hq_elem *el)
{
	struct ah *a = arg;
	int rc;

	a->line = el->line;
	if (a->skip_depth >= 0) {
		if (el->depth > a->skip_depth)
			return 0;
		a->skip_depth = -1;
	}
	a->el = el;
	rc = on_element(a, el->name, el->depth, a->e);
	if (rc < 0)
		return -1;
	if (rc == 1)
		a->skip_depth = el->depth;
	if ((++a->ticks & 63) == 0) {
		a->prog.bytes = el->bytes;
		hq_ingest_tick(a->ig, &a->prog);
	}
	return 0;
}

static int
parse_export(struct ah *a, struct hq_err *e)
{
	int rc, prc;

	a->e = e;
	a->skip_depth = -1;
	a->seen_root = 0;
	memset(a->kind, 0, sizeof a->kind);
	a->px.src = a->src;
	a->px.ar = a->ar;
	a->prog = *a->src;
	rc = hq_elemq_run(export_parse, &a->px, export_elem, a,
	    hq_elemq_threaded(), &prc);
	a->el = NULL;
	rc = parse_status(a, rc != 0, prc, e);
	if (rc == 0 && !a->seen_root) {
		hq_err_set(e, "%s: not an Apple Health export (no <HealthData> "
		    "element)", a->name);
		rc = -1;
	}
	if (a->px.rd.filt.version[0])
		hq_ingest_set_export_info(a->ig, 0, a->px.rd.filt.version, NULL);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Side files in the zip: GPX routes, FHIR resources                    */

enum gpx_field { G_NONE, G_ELE, G_TIME, G_SPEED, G_COURSE, G_HACC, G_VACC };

/* The point read so far goes to every route of the file. */
static int
gpx_flush(struct ah *a)
{
	if (!a->have_point)
		return 0;
	a->have_point = 0;
	if (a->pt.time) {
		if (!a->first_time || a->pt.time < a->first_time)
			a->first_time = a->pt.time;
		if (a->pt.time > a->last_time)
			a->last_time = a->pt.time;
	}
	for (int i = 0; i < a->nroutes; i++)
		if (hq_ingest_route_point(a->ig, a->route_ids[i], a->point_no,
		    &a->pt, a->e))
			return failed_here(a, a->e);
	a->point_no++;
	return 0;
}

static void
gpx_error(void *arg, xmlErrorPtr err)
{
	struct ah *a = arg;

	keep_error(&a->px, err);
}

static void
gpx_fail(struct ah *a)
{
	a->failed = 1;
	xmlStopParser(a->px.ctxt);
}

static void
start_gpx(void *arg, const xmlChar *localname, const xmlChar *prefix,
    const xmlChar *uri, int nns, const xmlChar **ns, int nattrs, int ndefaulted,
    const xmlChar **attrs)
{
	struct ah *a = arg;
	const char *name = (const char *)localname;

	(void)prefix, (void)uri, (void)nns, (void)ns, (void)ndefaulted;
	a->line = xmlSAX2GetLineNumber(a->px.ctxt);
	a->field = G_NONE;
	a->textlen = 0;
	if (a->failed)
		return;
	if (strcmp(name, "trkpt") == 0) {
		if (gpx_flush(a)) {
			gpx_fail(a);
			return;
		}
		a->pt = (struct hq_route_point){
		    .lat = sax_num(attrs, nattrs, "lat"),
		    .lon = sax_num(attrs, nattrs, "lon"), .ele = NAN, .h_acc = NAN,
		    .v_acc = NAN, .course = NAN, .speed = NAN };
		a->have_point = !isnan(a->pt.lat) && !isnan(a->pt.lon);
	} else if (strcmp(name, "ele") == 0)
		a->field = G_ELE;
	else if (strcmp(name, "time") == 0)
		a->field = G_TIME;
	else if (strcmp(name, "speed") == 0)
		a->field = G_SPEED;
	else if (strcmp(name, "course") == 0)
		a->field = G_COURSE;
	else if (strcmp(name, "hAcc") == 0)
		a->field = G_HACC;
	else if (strcmp(name, "vAcc") == 0)
		a->field = G_VACC;
}

static void
chars_gpx(void *arg, const xmlChar *ch, int len)
{
	struct ah *a = arg;

	if (a->field == G_NONE || len <= 0)
		return;
	size_t n = (size_t)len;
	if (a->textlen + n >= sizeof a->text)
		n = sizeof a->text - 1 - a->textlen;
	memcpy(a->text + a->textlen, ch, n);
	a->textlen += n;
}

static void
end_gpx(void *arg, const xmlChar *localname, const xmlChar *prefix,
    const xmlChar *uri)
{
	struct ah *a = arg;
	char *end;
	double v;

	(void)prefix, (void)uri;
	a->line = xmlSAX2GetLineNumber(a->px.ctxt);
	if (a->failed)
		return;
	if (a->field != G_NONE && a->have_point) {
		a->text[a->textlen] = '\0';
		if (a->field == G_TIME) {
			if (hq_time_parse(a->text, &a->pt.time))
				a->pt.time = 0;
		} else {
			v = strtod(a->text, &end);
			if (end != a->text && isfinite(v)) {
				switch (a->field) {
				case G_ELE: a->pt.ele = v; break;
				case G_SPEED: a->pt.speed = v; break;
				case G_COURSE: a->pt.course = v; break;
				case G_HACC: a->pt.h_acc = v; break;
				case G_VACC: a->pt.v_acc = v; break;
				default: break;
				}
			}
		}
	}
	a->field = G_NONE;
	a->textlen = 0;
	if (strcmp((const char *)localname, "trkpt") == 0 && gpx_flush(a))
		gpx_fail(a);
}

/* A GPX file for the routes ids[]: its track points become route points. */
static int
parse_gpx(struct ah *a, const int64_t *ids, int nids, struct hq_err *e)
{
	xmlSAXHandler sax;
	int rc;

	memset(&sax, 0, sizeof sax);
	sax.startElementNs = start_gpx;
	sax.endElementNs = end_gpx;
	sax.characters = chars_gpx;
	a->route_ids = ids;
	a->nroutes = nids;
	a->have_point = a->point_no = 0;
	a->first_time = a->last_time = 0;
	a->field = G_NONE;
	a->textlen = 0;
	a->e = e;
	a->failed = 0;
	sax.serror = gpx_error;
	rc = run_parser(&a->px, &sax, a);
	rc = parse_status(a, a->failed, rc, e);
	for (int i = 0; rc == 0 && i < nids; i++)
		if (hq_ingest_route_span(a->ig, ids[i], a->first_time,
		    a->last_time, e))
			rc = failed_where(a, e, 0);
	return rc;
}

/* The whole entry (a FHIR resource, small) into b. */
static int
read_entry(struct ah *a, struct hq_buf *b, struct hq_err *e)
{
	for (;;) {
		if (a->px.rd.rpos < a->px.rd.rlen) {
			hq_buf_append(b, a->px.rd.raw + a->px.rd.rpos, a->px.rd.rlen - a->px.rd.rpos);
			a->px.rd.rpos = a->px.rd.rlen;
		}
		if (b->len > MAX_SIDE_FILE) {
			hq_err_set(e, "%s: larger than %d MB", a->name,
			    MAX_SIDE_FILE >> 20);
			return -1;
		}
		int k = reader_fill(&a->px.rd);
		if (k < 0) {
			hq_err_set(e, "%s: %s", a->name, a->px.rd.ioerrmsg);
			return -1;
		}
		if (k == 0)
			return 0;
	}
}


static int
side_clinical(struct ah *a, const char *ref, struct hq_err *e)
{
	struct hq_buf b = { 0 };
	int rc = read_entry(a, &b, e);

	if (rc == 0 && b.len) {
		cJSON *j = cJSON_ParseWithLength(b.data, b.len);
		if (!j)
			warn_at(a, "not valid JSON (FHIR resource not attached)");
		else if (!hq_utf8_valid(b.data, b.len))
			warn_at(a, "not UTF-8 (FHIR resource not attached)");
		else if (hq_ingest_clinical_resource(a->ig, ref, b.data, e) < 0)
			rc = failed_where(a, e, 0);
		cJSON_Delete(j);
	}
	hq_buf_free(&b);
	return rc;
}

/* The path the XML uses for a zip entry: "apple_health_export/workout-
 * routes/x.gpx" → "/workout-routes/x.gpx". NULL when not a side file. */
static const char *
side_ref(const char *entry, char *buf, size_t n, int *kind)
{
	const char *p;
	size_t len = strlen(entry);

	if ((p = strstr(entry, "workout-routes/")) && len > 4 &&
	    strcasecmp(entry + len - 4, ".gpx") == 0)
		*kind = 1;
	else if ((p = strstr(entry, "clinical-records/")) && len > 5 &&
	    strcasecmp(entry + len - 5, ".json") == 0)
		*kind = 2;
	else
		return NULL;
	snprintf(buf, n, "/%s", p);
	return buf;
}

static int
side_file(struct ah *a, const char *ref, int kind, struct hq_err *e)
{
	int64_t ids[MAX_ROUTES_PER_FILE];
	int n;

	if (kind == 2)
		return side_clinical(a, ref, e);
	n = hq_ingest_routes_for_file(a->ig, ref, ids, MAX_ROUTES_PER_FILE, e);
	if (n < 0)
		return failed_where(a, e, 0);
	if (n == 0)
		return 0;   /* a route of a known workout, or none */
	return parse_gpx(a, ids, n, e);
}

/* ------------------------------------------------------------------ */
/* Side files beside an export.xml (an unzipped export)                 */

/*
 * What the zip reader does with its entries, done with the files under
 * workout-routes/ and clinical-records/ in the XML's directory: each is
 * named by its path there ("/workout-routes/x.gpx", the form of the XML's
 * FileReference and resourceFilePath) and read for the routes and records
 * that name it. A path in the XML is only ever compared with those names,
 * never opened: one that holds "..", or names a file elsewhere on the disk,
 * matches nothing, as in a zip. Symbolic links are followed only to files
 * inside the directory (the resolved path is checked); linked directories
 * are not entered.
 */
#define BESIDE_DEPTH 8

struct beside {
	char root[PATH_MAX];         /* the XML's directory, resolved ("" for /) */
	char **ref;                  /* "/workout-routes/x.gpx", ... */
	size_t n, cap;
};

static void
beside_walk(struct beside *b, const char *rel, int depth)
{
	char dir[PATH_MAX], path[PATH_MAX], ref[PATH_MAX];
	struct dirent *d;
	struct stat st;
	DIR *dp;
	int kind;

	if ((size_t)snprintf(dir, sizeof dir, "%s%s", b->root, rel) >= sizeof dir
	    || !(dp = opendir(dir)))
		return;
	while ((d = readdir(dp))) {
		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0 ||
		    (size_t)snprintf(path, sizeof path, "%s/%s", rel, d->d_name) >=
		    sizeof path)
			continue;
		if ((size_t)snprintf(dir, sizeof dir, "%s%s", b->root, path) >=
		    sizeof dir || lstat(dir, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (depth < BESIDE_DEPTH)
				beside_walk(b, path, depth + 1);
		} else if ((S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) &&
		    side_ref(path + 1, ref, sizeof ref, &kind) &&
		    strcmp(ref, path) == 0) {
			if (b->n == b->cap) {
				b->cap = b->cap ? 2 * b->cap : 64;
				b->ref = hq_xrealloc(b->ref, b->cap * sizeof *b->ref);
			}
			b->ref[b->n++] = hq_xstrdup(path);
		}
	}
	closedir(dp);
}

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* One side file: 0 (read, or not a file inside the directory), -1. */
static int
beside_file(struct ah *a, const struct beside *b, const char *ref,
    struct hq_err *e)
{
	char path[PATH_MAX], real[PATH_MAX], canon[PATH_MAX];
	size_t rootlen = strlen(b->root);
	struct hq_input in;
	struct stat st;
	int kind, fd, rc;

	snprintf(path, sizeof path, "%s%s", b->root, ref);
	if (!realpath(path, real) || strncmp(real, b->root, rootlen) != 0 ||
	    real[rootlen] != '/')
		return 0;
	fd = open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	in = (struct hq_input){ .fd = fd, .name = path, .close_fd = 1,
	    .size = (uint64_t)st.st_size };
	a->name = path;
	reader_start(&a->px.rd, &in);
	side_ref(ref + 1, canon, sizeof canon, &kind);
	rc = side_file(a, ref, kind, e);
	hq_input_close(&in);
	return rc;
}

/* The side files beside the XML at xml (not stdin: it has no directory). */
static int
import_beside(struct ah *a, const char *xml, struct hq_err *e)
{
	struct beside *b = hq_xcalloc(1, sizeof *b);
	const char *slash = strrchr(xml, '/');
	char dir[PATH_MAX];
	int rc = 0;

	if (slash == xml)
		snprintf(dir, sizeof dir, "/");
	else if (slash)
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - xml), xml);
	else
		snprintf(dir, sizeof dir, ".");
	if (realpath(dir, b->root)) {
		if (strcmp(b->root, "/") == 0)
			b->root[0] = '\0';   /* paths are root + "/x" */
		beside_walk(b, "/workout-routes", 1);
		beside_walk(b, "/clinical-records", 1);
	}
	if (b->n)
		qsort(b->ref, b->n, sizeof *b->ref, cmp_str);
	for (size_t i = 0; i < b->n; i++) {
		if (rc == 0)
			rc = beside_file(a, b, b->ref[i], e);
		free(b->ref[i]);
	}
	free(b->ref);
	free(b);
	a->name = xml;
	return rc;
}

/* ------------------------------------------------------------------ */
/* Zip                                                                  */

static int
is_junk_entry(const char *name)
{
	const char *base = strrchr(name, '/');

	base = base ? base + 1 : name;
	return strncmp(name, "__MACOSX/", 9) == 0 || strncmp(base, "._", 2) == 0;
}

/* Does an entry start like Apple's main XML? Looks at its first bytes,
 * which stay in a->px.rd for the parser. */
static int
looks_like_export(struct ah *a)
{
	return names_health_data(a->px.rd.raw, a->px.rd.rlen < 4096 ? a->px.rd.rlen : 4096);
}

static ssize_t
zip_read_cb(struct archive *ar, void *arg, const void **buf)
{
	static unsigned char block[RAW_SIZE];
	struct hq_input *src = arg;
	ssize_t n = hq_input_read(src, block, sizeof block);

	if (n < 0)
		archive_set_error(ar, src->err, "%s", hq_input_strerror(src));
	*buf = block;
	return n;
}

static struct archive *
zip_open(struct hq_input *src, int seekable, struct hq_err *e)
{
	struct archive *ar = archive_read_new();

	if (!ar) {
		hq_err_set(e, "out of memory");
		return NULL;
	}
	archive_read_support_format_zip(ar);
	int rc = seekable ? archive_read_open_fd(ar, src->fd, RAW_SIZE)
	    : archive_read_open(ar, src, NULL, zip_read_cb, NULL);
	if (rc != ARCHIVE_OK) {
		hq_err_set(e, "%s: not a readable zip: %s", src->name,
		    archive_error_string(ar) ? archive_error_string(ar) : "?");
		archive_read_free(ar);
		return NULL;
	}
	return ar;
}

/*
 * Walk the archive. Pass 1 (main_index < 0): parse every export XML (a
 * zip may hold two: both are imported), and the side files that follow
 * the first; *main_index is the last XML's place and *early the number of
 * side files before it. Pass 2: the side files before main_index again,
 * for the XMLs that came after them (linking is idempotent: only routes
 * without points and records without their resource are filled).
 */
static int
zip_pass(struct ah *a, const char *zipname, int *main_index, int *early,
    struct hq_err *e)
{
	struct archive_entry *ent;
	char name[1024], ref[1024];
	int idx = 0, rc, pass2 = *main_index >= 0, found = pass2, nside = 0;

	while ((rc = archive_read_next_header(a->ar, &ent)) == ARCHIVE_OK ||
	    rc == ARCHIVE_WARN) {
		const char *path = archive_entry_pathname_utf8(ent);
		int kind = 0;

		if (!path)
			path = archive_entry_pathname(ent);
		if (!path)
			path = "?";
		idx++;
		if (pass2 && idx >= *main_index)
			break;
		if (archive_entry_filetype(ent) != AE_IFREG || is_junk_entry(path))
			continue;
		snprintf(name, sizeof name, "%s:%s", zipname, path);
		a->name = name;
		hq_input_entry(&a->entry, a->ar, name);
		reader_start(&a->px.rd, &a->entry);
		const char *r = side_ref(path, ref, sizeof ref, &kind);
		if (r) {
			nside++;
			/* Before any XML there is nothing to link it to yet. */
			if (found && side_file(a, r, kind, e))
				return -1;
			continue;
		}
		if (pass2)
			continue;
		if (reader_fill(&a->px.rd) < 0) {
			hq_err_set(e, "%s: %s", name, a->px.rd.ioerrmsg);
			return -1;
		}
		if (!looks_like_export(a))
			continue;
		found = 1;
		*main_index = idx;
		*early = nside;
		if (parse_export(a, e))
			return -1;
	}
	if (rc != ARCHIVE_EOF && !(pass2 && rc == ARCHIVE_OK)) {
		hq_err_set(e, "%s: damaged or truncated zip: %s", zipname,
		    archive_error_string(a->ar) ? archive_error_string(a->ar) : "?");
		return -1;
	}
	if (!found) {
		hq_err_set(e, "%s: no Apple Health export XML in this zip (no entry "
		    "starts with <HealthData)", zipname);
		return -1;
	}
	return 0;
}

static int
import_zip(struct ah *a, struct hq_err *e)
{
	struct hq_input *src = a->src;
	int seekable = hq_input_rewind(src) == 0;
	int main_index = -1, early = 0, rc;
	const char *zipname = src->name;

	a->ar = zip_open(src, seekable, e);
	if (!a->ar)
		return -1;
	rc = zip_pass(a, zipname, &main_index, &early, e);
	archive_read_free(a->ar);
	a->ar = NULL;
	if (rc || !early)
		return rc;
	if (!seekable) {
		char msg[256];
		snprintf(msg, sizeof msg, "%d route/clinical files come before an "
		    "export XML in this zip and cannot be read from a pipe; give "
		    "the zip as a file to import them", early);
		a->name = zipname;
		warn_at(a, msg);
		return 0;
	}
	/* Second pass: the side files that came before the XML. */
	if (hq_input_rewind(src)) {
		hq_err_set(e, "%s: %s", zipname, strerror(errno));
		return -1;
	}
	a->ar = zip_open(src, 1, e);
	if (!a->ar)
		return -1;
	rc = zip_pass(a, zipname, &main_index, &early, e);
	archive_read_free(a->ar);
	a->ar = NULL;
	return rc;
}

static int
import(struct hq_ingest *ig, struct hq_input *in, int zip, struct hq_err *e)
{
	struct ah *a = hq_xcalloc(1, sizeof *a);
	int rc;

	a->ig = ig;
	a->src = in;
	a->name = in->name;
	hq_ingest_set_where(ig, where, a);
	if (zip)
		rc = import_zip(a, e);
	else {
		reader_start(&a->px.rd, in);
		rc = parse_export(a, e);
		if (rc == 0 && !(in->fd == 0 && strcmp(in->name, "-") == 0))
			rc = import_beside(a, in->name, e);
	}
	hq_ingest_set_where(ig, NULL, NULL);
	free(a);
	return rc;
}

int
hq_applehealth_read_zip(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e)
{
	(void)o;
	return import(ig, in, 1, e);
}

int
hq_applehealth_read_xml(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e)
{
	(void)o;
	return import(ig, in, 0, e);
}
