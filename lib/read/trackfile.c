#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/xmlreader.h>

#include "hq/activity.h"
#include "hq/ingest.h"
#include "hq/input.h"
#include "hq/opts.h"
#include "hq/time.h"
#include "hq/trackfile.h"
#include "hq/utf8.h"
#include "hq/xmlfilter.h"

/* The end of what starts with text at p + i (a bound n), or 0. */
static size_t
find(const unsigned char *p, size_t n, size_t i, const char *text)
{
	size_t k = strlen(text);

	for (; i + k <= n; i++)
		if (memcmp(p + i, text, k) == 0)
			return i + k;
	return 0;
}

/* Past the markup at p + i ("<?", "<!--", "<!DOCTYPE" with its internal
 * subset, whose declarations may hold '>' in quotes and comments), or 0
 * when it does not end within n. */
static size_t
markup_end(const unsigned char *p, size_t n, size_t i)
{
	int depth = 0;
	unsigned char quote = 0;

	if (p[i + 1] == '?')
		return find(p, n, i + 2, "?>");
	if (i + 3 < n && p[i + 2] == '-' && p[i + 3] == '-')
		return find(p, n, i + 4, "-->");
	for (i += 2; i < n; i++) {
		unsigned char c = p[i];
		if (quote) {
			if (c == quote)
				quote = 0;
		} else if (c == '"' || c == '\'') {
			quote = c;
		} else if (c == '<' && i + 3 < n && p[i + 1] == '!' &&
		    p[i + 2] == '-' && p[i + 3] == '-') {
			if (!(i = find(p, n, i + 4, "-->")))
				return 0;
			i--;
		} else if (c == '[') {
			depth++;
		} else if (c == ']') {
			depth--;
		} else if (c == '>' && depth <= 0) {
			return i + 1;
		}
	}
	return 0;
}

/* How much of a UTF-16 file sniffing reads (as the UTF-8 it becomes). */
#define SNIFF_UTF16 8192

/* The root element's local name past a BOM, white space, the XML
 * declaration, comments and a DOCTYPE with its internal subset; 1 when it
 * is root. A file in UTF-16 is looked at as UTF-8. */
static int
root_is(const unsigned char *p, size_t n, const char *root)
{
	char u8[3 * SNIFF_UTF16 / 2 + 8];
	int order = hq_utf16_detect(p, n);

	if (order) {
		struct hq_utf16 u = { .order = order };
		n = hq_utf16_decode(&u, p, n < SNIFF_UTF16 ? n : SNIFF_UTF16, u8);
		p = (const unsigned char *)u8;
	}
	size_t i = hq_input_skip_space(p, n), len = strlen(root);

	while (i < n && p[i] == '<') {
		if (i + 1 < n && (p[i + 1] == '?' || p[i + 1] == '!')) {
			if (!(i = markup_end(p, n, i)))
				return 0;
			while (i < n && isspace(p[i]))
				i++;
			continue;
		}
		size_t j = ++i;
		while (j < n && (isalnum(p[j]) || p[j] == '_' || p[j] == '-' ||
		    p[j] == '.' || p[j] == ':'))
			j++;
		const unsigned char *colon = memchr(p + i, ':', j - i);
		if (colon)
			i = (size_t)(colon - p) + 1;
		return j - i == len && memcmp(p + i, root, len) == 0;
	}
	return 0;
}

int
hq_trackfile_sniff_tcx(const unsigned char *p, size_t n)
{
	return root_is(p, n, "TrainingCenterDatabase");
}

int
hq_trackfile_sniff_gpx(const unsigned char *p, size_t n)
{
	return root_is(p, n, "gpx");
}

#define DEPTH 64
/* The file's bytes read at a time; as UTF-8 (from UTF-16) at most half
 * again as many. */
#define RAW_SIZE 16384
#define MID_SIZE (3 * RAW_SIZE / 2 + 8)

struct tr {
	struct hq_ingest *ig;
	struct hq_input *in;
	struct hq_act *act;
	xmlTextReaderPtr r;
	int tcx;
	int started;               /* leading white space dropped */
	/* What libxml2 reads: the file's bytes (UTF-16 made UTF-8) through
	 * the filter that drops a DTD and bounds each tag (xmlfilter.h). */
	struct hq_utf16 u16;       /* order 0: not UTF-16 */
	struct hq_xml_filter filt;
	unsigned char raw[RAW_SIZE], mid[MID_SIZE], out[MID_SIZE + 16];
	size_t opos, olen;
	long not_numbers;          /* values that are none (0x10, inf) */
	long zoneless;             /* times without a zone, read as UTC */
	char err[512];
	long err_line;
	char stack[DEPTH][32];     /* local names of the open elements */
	int depth;
	char txt[256];
	/* the point being read */
	struct hq_act_point pt;
	int no_time;
	int future;                /* its time past the import and a day */
	int ses_future;            /* the activity (trk) held such a time */
	long future_sessions;      /* activities (trks) that held nothing else */
	long skipped;
	int offset_seen;           /* a point's time stated its offset */
	/* the activity (TCX) or trk (GPX) being read */
	enum hq_act_sport sport;
	int64_t start, first, last, lap_start;
	double timer, distance, energy, max_hr, lap_time;
	char creator[256], unit_id[64], type[64], name[256];
	int sessions;
};

static int
io_read(void *arg, char *buf, int len)
{
	struct tr *t = arg;
	size_t n;

	while (t->opos == t->olen) {
		ssize_t r = hq_input_read(t->in, t->raw, sizeof t->raw);
		const unsigned char *p = t->raw;
		if (r <= 0)
			return r < 0 ? -1 : 0;
		n = (size_t)r;
		if (t->u16.order) {
			n = hq_utf16_decode(&t->u16, t->raw, n, (char *)t->mid);
			p = t->mid;
		}
		if (!t->started) {
			/* Strava writes white space (and a BOM) before <?xml. */
			size_t k = hq_input_skip_space(p, n);
			if (k == n)
				continue;
			p += k;
			n -= k;
			t->started = 1;
		}
		t->olen = hq_xml_filter_run(&t->filt, p, n, t->out);
		t->opos = 0;
		if (t->filt.over)
			return -1;   /* read_track says which bound */
	}
	hq_ingest_tick(t->ig, t->in);
	n = t->olen - t->opos;
	if (len < 0)
		return -1;
	if (n > (size_t)len)
		n = (size_t)len;
	memcpy(buf, t->out + t->opos, n);
	t->opos += n;
	return (int)n;
}

static void
on_error(void *arg, const char *msg, xmlParserSeverities sev,
    xmlTextReaderLocatorPtr loc)
{
	struct tr *t = arg;
	size_t len;

	if (t->err[0] || (sev != XML_PARSER_SEVERITY_ERROR &&
	    sev != XML_PARSER_SEVERITY_VALIDITY_ERROR))
		return;
	snprintf(t->err, sizeof t->err, "%s", msg);
	len = strlen(t->err);
	while (len && (t->err[len - 1] == '\n' || t->err[len - 1] == ' '))
		t->err[--len] = '\0';
	t->err_line = xmlTextReaderLocatorLineNumber(loc);
}

/* A number as XML Schema writes a decimal (hq's number syntax,
 * opts.h): never hex (0x10), inf or nan, which strtod() reads. */
static double
num(const char *s)
{
	const char *end;
	double v;

	while (isspace((unsigned char)*s))
		s++;
	if (hq_opts_scan_number(s, &end, &v))
		return NAN;
	while (isspace((unsigned char)*end))
		end++;
	return *end ? NAN : v;
}

/* The element's text as a value: NaN when empty; one that is no number
 * is counted (skipped and said at the end). */
static double
value(struct tr *t)
{
	double v = num(t->txt);
	const char *s = t->txt;

	while (isspace((unsigned char)*s))
		s++;
	if (isnan(v) && *s)
		t->not_numbers++;
	return v;
}

/* A time of the file: UTC when it has no zone (GPX and TCX times are),
 * so that --tz changes nothing. INT64_MIN when it is no time, or one more
 * than a day after the import (hq_act_future: what holds it is skipped,
 * and said; *future set). */
static int64_t
file_time(struct tr *t, const char *s, int *future)
{
	char where[32];
	int64_t u;
	int rc = s ? hq_time_parse_utc(s, &u) : -1;

	if (rc < 0)
		return INT64_MIN;
	t->zoneless += rc;
	snprintf(where, sizeof where, "line %d",
	    xmlTextReaderGetParserLineNumber(t->r));
	if (!hq_act_future(t->act, u, where))
		return u;
	if (future)
		*future = 1;
	t->ses_future = 1;
	return INT64_MIN;
}

static const char *
parent(const struct tr *t, int up)
{
	return t->depth - 1 - up >= 0 ? t->stack[t->depth - 1 - up] : "";
}

static int
is(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

static void
point_reset(struct tr *t)
{
	t->pt = (struct hq_act_point){ .time = 0, .lat = NAN, .lon = NAN,
	    .ele = NAN, .hr = NAN, .power = NAN, .cadence = NAN, .speed = NAN,
	    .distance = NAN };
	t->no_time = 1;
	t->future = 0;
}

static void
session_reset(struct tr *t)
{
	t->sport = HQ_ACT_OTHER;
	t->start = t->first = t->last = INT64_MIN;
	t->timer = t->distance = t->energy = t->max_hr = NAN;
	t->type[0] = t->name[0] = '\0';
	t->ses_future = 0;
}

static double
add(double sum, double v)
{
	return isnan(v) ? sum : isnan(sum) ? v : sum + v;
}

static char *
attr(struct tr *t, const char *name)
{
	return (char *)xmlTextReaderGetAttribute(t->r, (const xmlChar *)name);
}

static int64_t
attr_time(struct tr *t, const char *name)
{
	char *v = attr(t, name);
	int64_t u = file_time(t, v, NULL);

	xmlFree(v);
	return u;
}

static double
attr_num(struct tr *t, const char *name)
{
	char *v = attr(t, name);
	double d = v ? num(v) : NAN;

	xmlFree(v);
	return d;
}

/* A word of a GPX type or name, or TCX's Sport, as a sport. */
static enum hq_act_sport
sport_word(const char *s)
{
	static const struct { const char *w; enum hq_act_sport sp; } t[] = {
		{ "running", HQ_ACT_RUNNING }, { "run", HQ_ACT_RUNNING },
		{ "cycling", HQ_ACT_CYCLING }, { "biking", HQ_ACT_CYCLING },
		{ "ride", HQ_ACT_CYCLING }, { "bike", HQ_ACT_CYCLING },
		{ "walking", HQ_ACT_WALKING }, { "walk", HQ_ACT_WALKING },
		{ "hiking", HQ_ACT_HIKING }, { "hike", HQ_ACT_HIKING },
		{ "swimming", HQ_ACT_SWIMMING }, { "swim", HQ_ACT_SWIMMING },
		{ "rowing", HQ_ACT_ROWING },
	};
	char w[32];

	while (*s) {        /* each word of s */
		size_t k = 0;
		while (*s && !isalpha((unsigned char)*s))
			s++;
		while (isalpha((unsigned char)*s)) {
			if (k + 1 < sizeof w)
				w[k++] = (char)tolower((unsigned char)*s);
			s++;
		}
		w[k] = '\0';
		for (size_t i = 0; k && i < sizeof t / sizeof t[0]; i++)
			if (is(w, t[i].w))
				return t[i].sp;
	}
	return HQ_ACT_OTHER;
}

/* The offset an ISO 8601 time states after its clock ("+02:00",
 * "-0500", "+05"; "Z" states none, only UTC): 1 with *min, else 0. */
static int
stated_offset(const char *s, int *min)
{
	const char *c = strpbrk(s, "Tt ");
	const char *sign = c ? strpbrk(c, "+-") : NULL;
	int hh = 0, mm = 0, n = 0;

	if (!sign || sscanf(sign + 1, "%2d%n", &hh, &n) != 1 || n != 2)
		return 0;
	if (sign[3] == ':' ? sscanf(sign + 4, "%2d", &mm) != 1 :
	    sign[3] && sscanf(sign + 3, "%2d", &mm) != 1)
		return 0;
	if (hh > 16 || mm > 59)
		return 0;
	*min = (*sign == '-' ? -1 : 1) * (hh * 60 + mm);
	return 1;
}

/* A point's time (its text in t->txt), and the local offset it states. */
static void
point_time(struct tr *t)
{
	int min;

	t->pt.time = file_time(t, t->txt, &t->future);
	t->no_time = t->pt.time == INT64_MIN;
	if (!t->no_time && !t->offset_seen && stated_offset(t->txt, &min)) {
		t->offset_seen = 1;
		hq_act_local_offset(t->act, t->pt.time, min);
	}
}

static int
end_point(struct tr *t, struct hq_err *e)
{
	if (t->no_time) {
		t->skipped += !t->future;   /* a future one is said apart */
		return 0;
	}
	if (t->first == INT64_MIN || t->pt.time < t->first)
		t->first = t->pt.time;
	if (t->last == INT64_MIN || t->pt.time > t->last)
		t->last = t->pt.time;
	return hq_act_point(t->act, &t->pt, e);
}

static int
end_session(struct tr *t, struct hq_err *e)
{
	int64_t start = t->start != INT64_MIN ? t->start : t->first;
	int64_t end = t->last;

	if (start == INT64_MIN && t->ses_future) {
		t->future_sessions++;      /* its times said at the end */
		return 0;
	}
	if (start == INT64_MIN) {
		hq_ingest_warn(t->ig, "%s:%d: %s without a time (skipped)",
		    t->in->name, xmlTextReaderGetParserLineNumber(t->r),
		    t->tcx ? "Activity" : "trk");
		return 0;
	}
	if (!t->tcx && t->sport == HQ_ACT_OTHER)
		t->sport = sport_word(t->type[0] ? t->type : t->name);
	if (end == INT64_MIN || end < start)
		end = start;
	if (!isnan(t->timer) && hq_act_end(start, t->timer) > end)
		end = hq_act_end(start, t->timer);
	t->sessions++;
	return hq_act_session(t->act, &(struct hq_act_session){
	    .sport = t->sport, .name = t->name[0] ? t->name : NULL,
	    .indoor = -1, .start = start, .end = end,
	    .duration = !isnan(t->timer) ? t->timer : (double)(end - start),
	    .distance = t->distance, .energy = t->energy, .ascent = NAN,
	    .avg_hr = NAN, .max_hr = t->max_hr, .avg_power = NAN,
	    .max_power = NAN }, e);
}

static int
start_element(struct tr *t, const char *name, struct hq_err *e)
{
	const char *root = t->tcx ? "TrainingCenterDatabase" : "gpx";

	if (t->depth == 1 && !is(name, root)) {   /* --format said so */
		hq_err_set(e, "%s:%d: not a %s file: the root element is <%.64s>, "
		    "not <%s>", t->in->name, xmlTextReaderGetParserLineNumber(t->r),
		    t->tcx ? "TCX" : "GPX", name, root);
		return -1;
	}
	if (t->tcx) {
		if (is(name, "Activity")) {
			char *sp = attr(t, "Sport");
			session_reset(t);
			t->sport = sp && is(sp, "Running") ? HQ_ACT_RUNNING
			    : sp && is(sp, "Biking") ? HQ_ACT_CYCLING
			    : HQ_ACT_OTHER;
			xmlFree(sp);
		} else if (is(name, "Lap")) {
			t->lap_start = attr_time(t, "StartTime");
			t->lap_time = NAN;
		} else if (is(name, "Trackpoint"))
			point_reset(t);
	} else {
		if (is(name, "gpx")) {
			char *c = attr(t, "creator");
			snprintf(t->creator, sizeof t->creator, "%s", c ? c : "");
			xmlFree(c);
		} else if (is(name, "trk"))
			session_reset(t);
		else if (is(name, "trkpt")) {
			point_reset(t);
			t->pt.lat = attr_num(t, "lat");
			t->pt.lon = attr_num(t, "lon");
			if (fabs(t->pt.lat) > 90 || fabs(t->pt.lon) > 180)
				t->pt.lat = t->pt.lon = NAN;
		}
	}
	return 0;
}

/* The element name (its text in t->txt) ends; it is still on the stack. */
static int
end_tcx(struct tr *t, const char *name, struct hq_err *e)
{
	const char *up = parent(t, 1), *up2 = parent(t, 2);

	if (is(name, "Trackpoint"))
		return end_point(t, e);
	if (is(name, "Lap")) {
		if (t->lap_start != INT64_MIN)
			return hq_act_lap(t->act, t->lap_start, INT64_MIN,
			    t->lap_time, e);
		return 0;
	}
	if (is(name, "Activity"))
		return end_session(t, e);
	if (is(up, "Trackpoint")) {
		if (is(name, "Time"))
			point_time(t);
		else if (is(name, "AltitudeMeters"))
			t->pt.ele = value(t);
		else if (is(name, "DistanceMeters"))
			t->pt.distance = value(t);
		else if (is(name, "Cadence"))
			t->pt.cadence = value(t);
	} else if (is(up, "Position")) {
		double v = value(t);
		if (is(name, "LatitudeDegrees") && fabs(v) <= 90)
			t->pt.lat = v;
		else if (is(name, "LongitudeDegrees") && fabs(v) <= 180)
			t->pt.lon = v;
	} else if (is(name, "Value") && is(up, "HeartRateBpm") &&
	    is(up2, "Trackpoint")) {
		t->pt.hr = value(t);
	} else if (is(up, "TPX")) {
		if (is(name, "Speed"))
			t->pt.speed = value(t);
		else if (is(name, "Watts"))
			t->pt.power = value(t);
	} else if (is(up, "Lap")) {
		double v = value(t);
		if (is(name, "TotalTimeSeconds")) {
			/* one no clock makes is the lap's to refuse, not the
			 * workout's length */
			t->lap_time = v;
			if (hq_act_length_ok(v))
				t->timer = add(t->timer, v);
		} else if (is(name, "DistanceMeters"))
			t->distance = add(t->distance, v);
		else if (is(name, "Calories"))
			t->energy = add(t->energy, v);
	} else if (is(name, "Value") && is(up, "MaximumHeartRateBpm") &&
	    is(up2, "Lap")) {
		double v = value(t);
		if (isnan(t->max_hr) || v > t->max_hr)
			t->max_hr = v;
	} else if (is(up, "Activity") && is(name, "Id")) {
		t->start = file_time(t, t->txt, NULL);
	} else if (is(up, "Creator") && is(up2, "Activity")) {
		if (is(name, "Name"))
			snprintf(t->creator, sizeof t->creator, "%s", t->txt);
		else if (is(name, "UnitId"))
			snprintf(t->unit_id, sizeof t->unit_id, "%.63s", t->txt);
	}
	return 0;
}

static int
end_gpx(struct tr *t, const char *name, struct hq_err *e)
{
	const char *up = parent(t, 1);

	if (is(name, "trkpt"))
		return end_point(t, e);
	if (is(name, "trk"))
		return end_session(t, e);
	if (is(up, "trk")) {
		if (is(name, "type"))
			snprintf(t->type, sizeof t->type, "%.63s", t->txt);
		else if (is(name, "name"))
			snprintf(t->name, sizeof t->name, "%s", t->txt);
	} else if (is(up, "trkpt")) {
		if (is(name, "ele"))
			t->pt.ele = value(t);
		else if (is(name, "time"))
			point_time(t);
	} else {
		/* inside a trkpt's extensions, whatever the prefix */
		int in_pt = 0;
		for (int i = 0; i < t->depth && !in_pt; i++)
			in_pt = is(t->stack[i], "trkpt");
		if (!in_pt)
			return 0;
		if (is(name, "hr"))
			t->pt.hr = value(t);
		else if (is(name, "cad"))
			t->pt.cadence = value(t);
		else if (is(name, "speed"))
			t->pt.speed = value(t);
		else if (is(name, "power") || is(name, "PowerInWatts"))
			t->pt.power = value(t);
	}
	return 0;
}

static void
source_name(struct tr *t, char *buf, size_t n)
{
	if (!t->creator[0])
		snprintf(buf, n, "%s", t->tcx ? "TCX file" : "GPX file");
	else if (t->unit_id[0] && strcmp(t->unit_id, "0") != 0)
		snprintf(buf, n, "%s (SN %s)", t->creator, t->unit_id);
	else
		snprintf(buf, n, "%s", t->creator);
}

/* The XML reader over the input (io_read: the byte filter). Without
 * XML_PARSE_HUGE: libxml2's limits hold (10 MB a text node, 256 levels);
 * no network. UTF-16 reaches it as UTF-8, whatever the declaration says. */
static int
track_open(struct tr *t, struct hq_err *e)
{
	t->r = xmlReaderForIO(io_read, NULL, t, NULL, t->u16.order ? "UTF-8" :
	    NULL, XML_PARSE_NONET | XML_PARSE_NOBLANKS |
	    (t->u16.order ? XML_PARSE_IGNORE_ENC : 0));
	if (!t->r) {
		hq_err_set(e, "%s: cannot start the XML reader", t->in->name);
		return -1;
	}
	xmlTextReaderSetErrorHandler(t->r, on_error, t);
	return 0;
}

/* The reader's node: an element opened (and closed at once when empty),
 * an element closed, or text kept for the element it is in. */
static int
track_node(struct tr *t, struct hq_err *e)
{
	int type = xmlTextReaderNodeType(t->r);

	if (type == XML_READER_TYPE_ELEMENT) {
		const char *name = (const char *)xmlTextReaderConstLocalName(t->r);
		int empty = xmlTextReaderIsEmptyElement(t->r);
		if (t->depth == DEPTH) {
			hq_err_set(e, "%s:%d: nested deeper than %d elements",
			    t->in->name, xmlTextReaderGetParserLineNumber(t->r),
			    DEPTH);
			return -1;
		}
		snprintf(t->stack[t->depth++], sizeof t->stack[0], "%s",
		    name ? name : "");
		t->txt[0] = '\0';
		if (start_element(t, t->stack[t->depth - 1], e))
			return -1;
		if (!empty)
			return 0;
		type = XML_READER_TYPE_END_ELEMENT;
	}
	if (type == XML_READER_TYPE_END_ELEMENT && t->depth > 0) {
		if ((t->tcx ? end_tcx : end_gpx)(t, t->stack[t->depth - 1], e))
			return -1;
		t->depth--;
		t->txt[0] = '\0';
	} else if (type == XML_READER_TYPE_TEXT ||
	    type == XML_READER_TYPE_CDATA) {
		const char *v = (const char *)xmlTextReaderConstValue(t->r);
		snprintf(t->txt, sizeof t->txt, "%s", v ? v : "");
	}
	return 0;
}

/* Every node of the file, then what stopped the reading: a bound of the
 * byte filter, the input, or XML that is not well formed. */
static int
track_read(struct tr *t, struct hq_err *e)
{
	struct hq_input *in = t->in;
	int rc;

	while ((rc = xmlTextReaderRead(t->r)) == 1)
		if (track_node(t, e))
			return -1;
	hq_ingest_dropped_chars(t->ig, t->filt.dropped_ctrl);
	if (t->filt.over) {
		char why[128];
		hq_xml_filter_over(&t->filt, why, sizeof why);
		hq_err_set(e, "%s:%ld: %s", in->name, t->filt.over_line, why);
		return -1;
	}
	if (rc < 0 || t->err[0]) {
		if (in->err || ((in->ar || in->fn) && !t->err[0]))
			hq_err_set(e, "%s: %s", in->name, hq_input_strerror(in));
		else
			hq_err_set(e, "%s:%ld: %s", in->name, t->err_line,
			    t->err[0] ? t->err : "malformed XML");
		return -1;
	}
	return 0;
}

/* The file read: no activity in it is an error; else the activity with
 * its source, and a line each for what was skipped or read as UTC. */
static int
track_finish(struct tr *t, struct hq_err *e)
{
	const char *name = t->in->name;
	int tcx = t->tcx;
	char src[512];

	if (!t->sessions && t->future_sessions) {
		hq_err_set(e, "%s: every %s in this %s file is more than a day "
		    "after this import (a device's clock set wrong?): not "
		    "imported", name, tcx ? "Activity" : "track", tcx ? "TCX" :
		    "GPX");
		return -1;
	}
	if (!t->sessions) {
		hq_err_set(e, "%s: no activity in this %s file (no %s with a "
		    "time)", name, tcx ? "TCX" : "GPX", tcx ? "Activity" :
		    "track");
		return -1;
	}
	source_name(t, src, sizeof src);
	hq_act_source(t->act, src, NULL);
	if (hq_act_finish(t->act, e))
		return -1;
	if (t->skipped)
		hq_ingest_skip_n(t->ig, t->skipped, "%s: %ld track points without a "
		    "time (skipped)", name, t->skipped);
	if (t->not_numbers)
		hq_ingest_skip_n(t->ig, t->not_numbers, "%s: %ld values that are not "
		    "numbers (0x10, inf, nan...: skipped)", name,
		    t->not_numbers);
	if (t->zoneless)
		hq_ingest_warn(t->ig, "%s: %ld times without a zone read as UTC (GPX "
		    "and TCX times are; --tz changes nothing)", name,
		    t->zoneless);
	return 0;
}

/* A GPX file or a TCX one (tcx) into the import: the reader opened, every
 * node read, the activity finished. */
static int
read_track(struct hq_ingest *ig, struct hq_input *in, int tcx,
    struct hq_err *e)
{
	struct tr *t = hq_xcalloc(1, sizeof *t);
	int status = -1;

	t->ig = ig;
	t->in = in;
	t->tcx = tcx;
	session_reset(t);
	point_reset(t);
	hq_xml_filter_init(&t->filt);
	t->u16.order = hq_utf16_detect(in->pre, in->prelen);
	if ((t->act = hq_act_new(ig, in, e)) && !track_open(t, e) &&
	    !track_read(t, e) && !track_finish(t, e))
		status = 0;
	if (t->r)
		xmlFreeTextReader(t->r);
	hq_act_free(t->act);
	free(t);
	return status;
}

int
hq_trackfile_read_tcx(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e)
{
	(void)o;
	return read_track(ig, in, 1, e);
}

int
hq_trackfile_read_gpx(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e)
{
	(void)o;
	return read_track(ig, in, 0, e);
}
