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
#include "hq/applehealth_int.h"
#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/elemq.h"
#include "hq/term.h"
#include "hq/time.h"
#include "hq/utf8.h"
/* ------------------------------------------------------------------ */
/* Sniffing                                                             */

/* "<HealthData" or "<!DOCTYPE HealthData" in the n bytes at p. */
int
hq_ah_names_health_data(const unsigned char *p, size_t n)
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
	return hq_ah_names_health_data(p + i, n - i) || n >= 4096;
}

/* ------------------------------------------------------------------ */
/* The export reader                                                    */

void
hq_ah_reader_start(struct reader *r, struct hq_input *in)
{
	memset(r, 0, sizeof *r);
	r->in = in;
	r->raw = r->raw_store;
	hq_xml_filter_init(&r->filt);
}

int
hq_ah_reader_fill(struct reader *r)
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
			int k = hq_ah_reader_fill(r);
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
			return -1;   /* hq_ah_run_parser() says which bound */
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
void
hq_ah_keep_error(struct xparse *px, xmlErrorPtr err)
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
int
hq_ah_failed_where(struct ah *a, struct hq_err *e, int with_line)
{
	char why[sizeof e->msg];

	memcpy(why, e->msg, sizeof why);
	if (with_line)
		return fail_at(a, e, why);
	hq_err_set(e, "%s: %s", a->name, why);
	return -1;
}

int
hq_ah_failed_here(struct ah *a, struct hq_err *e)
{
	return hq_ah_failed_where(a, e, 1);
}

void
hq_ah_warn_at(struct ah *a, const char *what)
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
double
hq_ah_sax_num(const xmlChar **attrs, int nattrs, const char *name)
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
	hq_ah_warn_at(a, msg);
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
	char type[HQ_TERM_EXCERPT_SIZE];
	if (record_times(a, &r)) {
		hq_ingest_skip(a->ig, "%s:%d: %s without a valid "
		    "startDate/endDate (skipped)", a->name, line_no(a),
		    hq_term_excerpt(type, sizeof type, r.type));
		return 0;
	}
	rc = hq_ingest_record(a->ig, &r, NULL, &re);
	if (rc < 0)
		return fail_at(a, e, re.msg);
	if (rc == 2)
		hq_ingest_warn(a->ig, "%s:%d: %s: %s (skipped)", a->name,
		    line_no(a), hq_term_excerpt(type, sizeof type, r.type), re.msg);
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
			hq_ah_warn_at(a, "WorkoutActivity without uuid or startDate (skipped)");
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
			hq_ah_warn_at(a, "WorkoutEvent without type or date (skipped)");
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
	return rc < 0 ? hq_ah_failed_here(a, e) : 0;
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
		hq_ah_warn_at(a, workout ? "Workout without a type or valid dates "
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
		hq_ah_warn_at(a, msg);
		*id = 0;
		return 0;
	}
	return rc < 0 ? hq_ah_failed_here(a, e) : rc;
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
		return hq_ah_failed_here(a, e);
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
		hq_ah_warn_at(a, "ActivitySummary without a dateComponents date (skipped)");
		return 0;
	}
	rc = hq_ingest_activity_summary(a->ig, &s, e);
	if (rc == 2) {
		snprintf(msg, sizeof msg, "ActivitySummary: %s (skipped)", e->msg);
		hq_ah_warn_at(a, msg);
		return 0;
	}
	return rc < 0 ? hq_ah_failed_here(a, e) : 0;
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
		hq_ah_warn_at(a, "ClinicalRecord without type or identifier (skipped)");
		return 0;
	}
	if (attr_time(a, "receivedDate", &c.received, NULL))
		c.received = 0;
	return hq_ingest_clinical_record(a->ig, &c, e) < 0 ? hq_ah_failed_here(a, e)
	    : 0;
}

static int
on_me(struct ah *a, struct hq_err *e)
{
	for (int i = 0; i < a->el->nattrs; i++)
		if (hq_ingest_me(a->ig, a->el->attr[2 * i], a->el->attr[2 * i + 1], e))
			return hq_ah_failed_here(a, e);
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
			/* a stored one's children are read too, for the
			 * metadata an older import did not keep */
			rc = rc < 0 ? -1 : a->corr_id ? 0 : 1;
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
				return hq_ah_failed_here(a, e);
		} else if (depth == 2 &&
		    strcmp(name, "HeartRateVariabilityMetadataList") == 0)
			a->kind[2] = C_HRV;
		else if (depth == 3 && a->kind[2] == C_HRV &&
		    strcmp(name, "InstantaneousBeatsPerMinute") == 0) {
			double bpm = attr_num(a, "bpm");
			if (!isnan(bpm) && hq_ingest_hrv_beat(a->ig, a->sample_id,
			    a->beat_seq++, bpm, time_of_day(attr(a, "time")), e))
				return hq_ah_failed_here(a, e);
		}
		return 0;
	case C_CORRELATION:
		if (depth == 2 && a->corr_new && strcmp(name, "Record") == 0) {
			if (on_member(a, e))
				return -1;
		} else if (depth == 2 && strcmp(name, "MetadataEntry") == 0) {
			const char *k = attr(a, "key"), *v = attr(a, "value");
			if (k && v && hq_ingest_correlation_meta(a->ig, a->corr_id, k,
			    v, e))
				return hq_ah_failed_here(a, e);
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
	hq_ah_keep_error(arg, err);
}

/* Run a SAX2 parser with sax's callbacks (user data: user) over px->rd.
 * What xmlParseDocument() said, -1 if the document is not well-formed,
 * -2 if the parser could not start; hq_ah_parse_status() tells which. */
int
hq_ah_run_parser(struct xparse *px, xmlSAXHandler *sax, void *user)
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
	return hq_ah_run_parser(px, &sax, px);
}

/* After a parse (rc: run_parser's): 0, or -1 with e saying why it failed
 * — a callback did (failed; e is set already), a bound of the filter, a
 * read error, libxml2's first error — and where. */
int
hq_ah_parse_status(struct ah *a, int failed, int rc, struct hq_err *e)
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
		char why[128];
		hq_xml_filter_over(&px->rd.filt, why, sizeof why);
		hq_err_set(e, "%s:%ld: %s", a->name, px->rd.filt.over_line, why);
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

int
hq_ah_parse_export(struct ah *a, struct hq_err *e)
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
	rc = hq_ah_parse_status(a, rc != 0, prc, e);
	if (rc == 0 && !a->seen_root) {
		hq_err_set(e, "%s: not an Apple Health export (no <HealthData> "
		    "element)", a->name);
		rc = -1;
	}
	if (a->px.rd.filt.version[0])
		hq_ingest_set_export_info(a->ig, 0, a->px.rd.filt.version, NULL);
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
		rc = hq_ah_import_zip(a, e);
	else {
		hq_ah_reader_start(&a->px.rd, in);
		rc = hq_ah_parse_export(a, e);
		if (rc == 0 && !(in->fd == 0 && strcmp(in->name, "-") == 0))
			rc = hq_ah_import_beside(a, in->name, e);
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
