#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "hq/fhir.h"
#include "hq/json.h"
#include "hq/jsonin.h"

#define LOINC_SYSTEM "http://loinc.org"

static const cJSON *
item(const cJSON *obj, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(obj, key);
}

/* A CodeableConcept, or each of a list of them (R4 lists what DSTU2
 * writes as one object): calls fn on each coding's code until it says
 * stop. */
static int
any_coding(const cJSON *cc, int (*fn)(const char *code, void *arg), void *arg)
{
	const cJSON *one;

	if (cJSON_IsArray(cc)) {
		cJSON_ArrayForEach(one, cc)
			if (any_coding(one, fn, arg))
				return 1;
		return 0;
	}
	const cJSON *codings = item(cc, "coding"), *c;
	cJSON_ArrayForEach(c, codings) {
		const char *code = hq_json_str(c, "code");
		if (code && fn(code, arg))
			return 1;
	}
	return 0;
}

static int
is_code(const char *code, void *arg)
{
	return strcasecmp(code, (const char *)arg) == 0;
}

/* A lab result: a laboratory category or none; never vital signs. */
static int
is_lab(const cJSON *obs)
{
	const cJSON *cat = item(obs, "category");

	if (!cat || cJSON_IsNull(cat) || (cJSON_IsArray(cat) &&
	    cJSON_GetArraySize(cat) == 0))
		return 1;
	if (any_coding(cat, is_code, "vital-signs"))
		return 0;
	return any_coding(cat, is_code, "laboratory");
}

/* The first interpretation code that means something to hq_labs_lab_flag. */
static int
take_flag(const char *code, void *arg)
{
	const char *f = hq_labs_lab_flag(code);

	if (!*f)
		return 0;
	snprintf(arg, 4, "%s", f);
	return 1;
}

/* The name and LOINC code of code.coding. */
static void
read_code(const cJSON *code, struct hq_lab_result *r)
{
	const cJSON *c;
	const char *text = hq_json_str(code, "text"), *first = NULL;
	const char *loinc_display = NULL;

	cJSON_ArrayForEach(c, item(code, "coding")) {
		const char *sys = hq_json_str(c, "system");
		const char *cd = hq_json_str(c, "code");
		const char *disp = hq_json_str(c, "display");
		if (!first)
			first = disp ? disp : cd;
		if (!r->loinc[0] && sys && strcmp(sys, LOINC_SYSTEM) == 0 && cd &&
		    strlen(cd) < sizeof r->loinc && hq_labs_loinc_valid(cd)) {
			memcpy(r->loinc, cd, strlen(cd) + 1);
			loinc_display = disp;
		}
	}
	if (text && *text)
		hq_labs_copy_text(r->name, sizeof r->name, text);
	else if (loinc_display)
		hq_labs_copy_text(r->name, sizeof r->name, loinc_display);
	else if (first)
		hq_labs_copy_text(r->name, sizeof r->name, first);
}

/* The unit of a Quantity: its human unit, else its UCUM code. */
static const char *
quantity_unit(const cJSON *q)
{
	const char *u = hq_json_str(q, "unit");

	if (!u || !*u)
		u = hq_json_str(q, "code");
	return u ? u : "";
}

static int
set_unit(struct hq_lab_result *r, const char *unit, struct hq_err *e)
{
	char buf[64];

	hq_labs_unit_normalise(unit, buf, sizeof buf);
	if (strlen(buf) >= sizeof r->unit) {
		hq_err_set(e, "unit longer than %zu bytes", sizeof r->unit - 1);
		return -1;
	}
	memcpy(r->unit, buf, strlen(buf) + 1);
	return 0;
}

/* 1 with a value, 0 without, -1 on error. */
static int
read_value(const cJSON *obs, struct hq_lab_result *r, struct hq_err *e)
{
	const cJSON *q = item(obs, "valueQuantity"), *v;
	const char *s;

	if (q) {
		const char *cmp = hq_json_str(q, "comparator");
		if (hq_json_num(q, "value", &r->value))
			return 0;
		if (cmp && *cmp) {
			if (strcmp(cmp, "<") && strcmp(cmp, "<=") &&
			    strcmp(cmp, ">") && strcmp(cmp, ">=")) {
				hq_err_set(e, "comparator '%.8s' is not <, <=, > "
				    "or >=", cmp);
				return -1;
			}
			snprintf(r->comparator, sizeof r->comparator, "%s", cmp);
		}
		return set_unit(r, quantity_unit(q), e) ? -1 : 1;
	}
	if ((s = hq_json_str(obs, "valueString")))
		return hq_labs_parse_value(s, r) == 0;
	if ((v = item(obs, "valueInteger")) && cJSON_IsNumber(v)) {
		r->value = v->valuedouble;
		return 1;
	}
	if ((v = item(obs, "valueCodeableConcept"))) {
		const char *text = hq_json_str(v, "text");
		const cJSON *c = cJSON_GetArrayItem(item(v, "coding"), 0);
		if (!text || !*text)
			text = hq_json_str(c, "display");
		if (!text || !*text)
			text = hq_json_str(c, "code");
		if (!text || !*text)
			return 0;
		hq_labs_copy_text(r->text, sizeof r->text, text);
		return 1;
	}
	return 0;
}

/* A limit of a range, converted to the value's unit when written in
 * another one hq knows how to convert. */
static double
limit(const cJSON *q, const struct hq_lab_result *r)
{
	char unit[64];
	double v, out;

	if (!q || hq_json_num(q, "value", &v))
		return NAN;
	hq_labs_unit_normalise(quantity_unit(q), unit, sizeof unit);
	if (*unit && *r->unit && strcmp(unit, r->unit) != 0 &&
	    hq_labs_convert(hq_labs_lookup(r->test), v, unit, r->unit, &out) == 0)
		return out;
	return v;
}

static void
read_range(const cJSON *obs, struct hq_lab_result *r)
{
	const cJSON *rr = cJSON_GetArrayItem(item(obs, "referenceRange"), 0);
	const char *text;

	if (!rr)
		return;
	r->ref_low = limit(item(rr, "low"), r);
	r->ref_high = limit(item(rr, "high"), r);
	if ((text = hq_json_str(rr, "text")) && *text) {
		hq_labs_copy_text(r->ref_text, sizeof r->ref_text, text);
		if (isnan(r->ref_low) && isnan(r->ref_high))
			hq_labs_parse_range(text, &r->ref_low, &r->ref_high);
	}
}

/* The collection time: effectiveDateTime, else effectivePeriod.start,
 * else issued. 1 found, 0 none, -1 unparsable. */
static const char *
date_of(const cJSON *res)
{
	const char *s = hq_json_str(res, "effectiveDateTime");

	if (!s)
		s = hq_json_str(item(res, "effectivePeriod"), "start");
	if (!s)
		s = hq_json_str(res, "issued");
	return s;
}

/* An Observation contained in a DiagnosticReport without a date of its
 * own was collected when the report says. */
static int
read_date(const cJSON *obs, const cJSON *parent, struct hq_lab_result *r,
    struct hq_err *e)
{
	const char *s = date_of(obs);

	if (!s && parent)
		s = date_of(parent);
	if (!s)
		return 0;
	if (hq_labs_parse_date(s, r)) {
		hq_err_set(e, "date '%.40s' is not a FHIR dateTime", s);
		return -1;
	}
	return 1;
}

/* The performing organisation's name, when it is one. */
static const char *
performer(const cJSON *obs)
{
	const cJSON *p;

	cJSON_ArrayForEach(p, item(obs, "performer")) {
		const char *ref = hq_json_str(p, "reference");
		const char *disp = hq_json_str(p, "display");
		if (ref && disp && *disp && strncmp(ref, "Organization/", 13) == 0)
			return disp;
	}
	return NULL;
}

/* The source of a result: the caller's (Apple's health system), else the
 * performing organisation of the Observation or its report, else none. */
static const char *
source_of(const struct hq_lab_sink *sink, const cJSON *obs, const cJSON *parent)
{
	const char *src = sink->source && *sink->source ? sink->source : NULL;

	if (!src)
		src = performer(obs);
	if (!src && parent)
		src = performer(parent);
	return src ? src : "";
}

static int
observation(struct hq_lab_sink *sink, const cJSON *obs, const cJSON *parent,
    struct hq_err *e)
{
	struct hq_lab_result r;
	const char *status = hq_json_str(obs, "status"), *id, *src;
	int rc;

	if (status && strcmp(status, "entered-in-error") == 0) {
		/* Not a result: a retraction of what its id stood for, which
		 * the store takes back (report.h). */
		sink->skipped++;
		if (!(id = hq_json_str(obs, "id")) || !*id)
			return 0;
		hq_labs_result_init(&r);
		hq_labs_copy_text(r.id, sizeof r.id, id);
		hq_labs_copy_text(r.status, sizeof r.status, status);
		hq_labs_copy_text(r.source, sizeof r.source,
		    source_of(sink, obs, parent));
		return sink->emit(sink->arg, &r, e);
	}
	if (status && strcmp(status, "cancelled") == 0) {
		sink->skipped++;
		return 0;
	}
	if (!is_lab(obs)) {
		sink->skipped++;
		return 0;
	}
	hq_labs_result_init(&r);
	read_code(item(obs, "code"), &r);
	if ((rc = read_value(obs, &r, e)) <= 0 ||
	    (rc = read_date(obs, parent, &r, e)) <= 0) {
		if (rc == 0)
			sink->skipped++;
		return rc;
	}
	if (!r.name[0] && !r.loinc[0]) {
		sink->skipped++;
		return 0;
	}
	hq_labs_resolve(&r);
	read_range(obs, &r);
	any_coding(item(obs, "interpretation"), take_flag, r.lab_flag);
	if ((id = hq_json_str(obs, "id")))
		hq_labs_copy_text(r.id, sizeof r.id, id);
	if (status)
		hq_labs_copy_text(r.status, sizeof r.status, status);
	src = source_of(sink, obs, parent);
	hq_labs_copy_text(r.source, sizeof r.source, src);
	sink->read++;
	return sink->emit(sink->arg, &r, e);
}

static int resource(struct hq_lab_sink *, const cJSON *, const cJSON *,
    struct hq_err *);

/* The resources of a list: Bundle entries (key "resource") or a report's
 * contained ones (key NULL, parent the report). */
static int
each_resource(struct hq_lab_sink *sink, const cJSON *list, const char *key,
    const cJSON *parent, struct hq_err *e)
{
	const cJSON *one;

	cJSON_ArrayForEach(one, list) {
		const cJSON *res = key ? item(one, key) : one;
		if (res && resource(sink, res, parent, e) < 0)
			return -1;
	}
	return 0;
}

static int
resource(struct hq_lab_sink *sink, const cJSON *res, const cJSON *parent,
    struct hq_err *e)
{
	const char *type = hq_json_str(res, "resourceType");
	const char *id = hq_json_str(res, "id");
	const char *status = hq_json_str(res, "status");
	int rc = 0;

	if (!type)
		return 0;
	if (strcmp(type, "Observation") == 0)
		rc = observation(sink, res, parent, e);
	else if (strcmp(type, "Bundle") == 0)
		rc = each_resource(sink, item(res, "entry"), "resource", NULL, e);
	else if (strcmp(type, "DiagnosticReport") == 0 && !(status &&
	    strcmp(status, "entered-in-error") == 0))
		rc = each_resource(sink, item(res, "contained"), NULL, res, e);
	if (rc < 0 && strcmp(type, "Observation") == 0)
		hq_err_prefix(e, "Observation/%.64s", id ? id : "(no id)");
	return rc;
}

int
hq_fhir_sniff(const cJSON *doc)
{
	const char *type = hq_json_str(doc, "resourceType");

	return type && (strcmp(type, "Bundle") == 0 ||
	    strcmp(type, "Observation") == 0 ||
	    strcmp(type, "DiagnosticReport") == 0);
}

int
hq_fhir_read(struct hq_lab_sink *sink, const cJSON *doc, long line,
    struct hq_err *e)
{
	if (resource(sink, doc, NULL, e) < 0) {
		hq_err_prefix(e, "%s:%ld", sink->file, line);
		return -1;
	}
	return 0;
}

/* ---- streams ------------------------------------------------------------ */

/* The first "entry" of a Bundle's top-level object (the one cJSON would
 * find), when its resourceType came before it; otherwise the array stays
 * in the object and is read with it. */
static int
split_entries(void *arg, const cJSON *obj, const char *key)
{
	const char *type = hq_json_str(obj, "resourceType");

	(void)arg;
	return strcmp(key, "entry") == 0 && !item(obj, "entry") && type &&
	    strcmp(type, "Bundle") == 0;
}

/* One element of a Bundle's entry, as each_resource() reads it. */
static int
stream_entry(void *arg, const cJSON *entry, long line, struct hq_err *e)
{
	struct hq_lab_sink *sink = arg;
	const cJSON *res = item(entry, "resource");

	if (res && resource(sink, res, NULL, e) < 0) {
		hq_err_prefix(e, "%s:%ld", sink->file, line);
		return -1;
	}
	return 0;
}

static int
stream_doc(void *arg, const cJSON *doc, long line, struct hq_err *e)
{
	return hq_fhir_read(arg, doc, line, e);
}

static const struct hq_jsonin_stream_cb stream_cb = {
	.split = split_entries,
	.element = stream_entry,
	.value = stream_doc,
	.element_what = "a Bundle entry",
};

struct hq_jsonin_stream *
hq_fhir_stream(struct hq_lab_sink *sink, const struct hq_jsonin_limits *lim)
{
	return hq_jsonin_stream_new(sink->file, lim, &stream_cb, sink);
}
