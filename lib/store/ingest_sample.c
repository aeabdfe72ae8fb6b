/*
 * ingest_sample — a record made a sample (ingest.h): the device's name
 * cleaned, the type resolved through the cache (ingest_int.h), the
 * source and device interned, the checks every reader inherits (names,
 * amounts, spans), a category's or a quantity's value, the sample written
 * now or later in groups, members of a correlation, a sample's metadata
 * and heartbeats. The import's life (its transaction, counts, warnings,
 * zones) is ingest.c's.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/catalog.h"
#include "hq/ingest.h"
#include "hq/ingest_int.h"
#include "hq/term.h"
#include "hq/utf8.h"

void
hq_ingest_clean_device(const char *device, char *buf, size_t n)
{
	const char *p = device;
	size_t len;

	/* "<<HKDevice: 0x282a45810>, name:..., software:4.3.1>" */
	if (strncmp(p, "<<HKDevice:", 11) == 0) {
		const char *q = strchr(p, '>');
		if (q) {
			p = q + 1;
			if (*p == ',')
				p++;
			while (*p == ' ')
				p++;
		}
		len = strlen(p);
		if (len && p[len - 1] == '>')
			len--;
	} else
		len = strlen(p);
	if (len >= n)
		len = n - 1;
	memcpy(buf, p, len);
	buf[len] = '\0';
}

static int
looks_like_identifier(const char *s)
{
	return strncmp(s, "HK", 2) == 0;
}

/* Resolve r->type to a metric, through the cache (ingest_int.h): 0, 2
 * (skip: e says why) or -1. */
static int
resolve_type(struct hq_ingest *ig, const char *type, int by_name,
    struct hq_err *e)
{
	struct type_cache *tc = ig->tc;
	const struct hq_metric_info *info;

	if (tc->metric_id && tc->by_name == by_name && strcmp(tc->type, type) == 0)
		return 0;
	for (size_t i = 0; i < TYPE_CACHE; i++) {
		tc = &ig->tcs[i];
		if (tc->metric_id && tc->by_name == by_name &&
		    strcmp(tc->type, type) == 0) {
			ig->tc = tc;
			return 0;
		}
	}
	/* A new one: into the next slot in turn, made the current one only
	 * once resolved (the current one stays whole until then). */
	tc = &ig->tcs[ig->tc_next];
	if (hq_ig_check_name("type", type, e))
		return 2;
	if (!*type) {
		hq_err_set(e, "empty metric type");
		return 2;
	}
	info = by_name ? hq_catalog_lookup(type) : hq_catalog_by_identifier(type);
	if (info && info->kind == HQ_KIND_SLEEP)
		info = hq_catalog_by_identifier(info->identifier);
	if (!info && by_name && !looks_like_identifier(type)) {
		struct hq_catalog_suggestion known;
		const char *sug = hq_catalog_suggest_known(type, &known);
		if (sug) {
			char x[HQ_TERM_EXCERPT_SIZE];
			hq_err_set(e, "unknown metric '%s' (did you mean %s?)",
			    hq_term_excerpt(x, sizeof x, type), sug);
			return 2;
		}
	}
	tc->metric_id = 0;           /* whole again only once resolved */
	snprintf(tc->identifier, sizeof tc->identifier, "%s",
	    info ? info->identifier : type);
	int64_t id = hq_store_metric_id(ig->s, tc->identifier, 1, e);
	if (id < 0)
		return -1;
	snprintf(tc->type, sizeof tc->type, "%s", type);
	tc->by_name = by_name;
	tc->metric_id = id;
	tc->info = info;
	tc->kind = info ? info->kind : hq_catalog_guess_kind(tc->identifier);
	tc->watched = strcmp(tc->identifier,
	    "HKQuantityTypeIdentifierHeartRate") == 0 || strcmp(tc->identifier,
	    "HKQuantityTypeIdentifierCyclingPower") == 0;
	ig->tc = tc;
	ig->tc_next = (ig->tc_next + 1) % TYPE_CACHE;
	return 0;
}

int64_t
hq_ig_source_id(struct hq_ingest *ig, const char *name, struct hq_err *e)
{
	if (ig->last_source_id && strcmp(ig->last_source, name) == 0)
		return ig->last_source_id;
	int64_t id = hq_store_source_id(ig->s, name, 1, e);
	if (id > 0 && strlen(name) < sizeof ig->last_source) {
		snprintf(ig->last_source, sizeof ig->last_source, "%s", name);
		ig->last_source_id = id;
	}
	return id;
}

int64_t
hq_ig_device_id(struct hq_ingest *ig, const char *raw, struct hq_err *e)
{
	char clean[HQ_INGEST_MAX_NAME + 1];

	if (!raw || !*raw)
		return 0;
	hq_ingest_clean_device(raw, clean, sizeof clean);
	if (!*clean)
		return 0;
	if (ig->last_device_id && strcmp(ig->last_device, clean) == 0)
		return ig->last_device_id;
	int64_t id = hq_store_device_id(ig->s, clean, e);
	if (id > 0) {
		memcpy(ig->last_device, clean, sizeof clean);
		ig->last_device_id = id;
	}
	return id;
}

/* Strict decimal number: all of s, finite. */
static int
parse_number(const char *s, double *v)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return -1;
	errno = 0;
	*v = strtod(s, &end);
	while (isspace((unsigned char)*end))
		end++;
	if (*end || errno == ERANGE || !isfinite(*v))
		return -1;
	return 0;
}

/* A name a reader passes (a type, source, device, unit, category, key):
 * NULL, or UTF-8 of at most HQ_INGEST_MAX_NAME bytes. 0, or -1 with e
 * saying why. */
int
hq_ig_check_name(const char *what, const char *s, struct hq_err *e)
{
	size_t n;

	if (!s)
		return 0;
	n = strnlen(s, HQ_INGEST_MAX_NAME + 1);
	if (n > HQ_INGEST_MAX_NAME) {
		hq_err_set(e, "%s longer than %d bytes", what, HQ_INGEST_MAX_NAME);
		return -1;
	}
	if (!hq_utf8_valid(s, n)) {
		hq_err_set(e, "%s is not valid UTF-8", what);
		return -1;
	}
	return 0;
}

/* An amount (NaN: absent): finite, not negative, at most max. 0 or -1. */
int
hq_ig_check_amount(const char *what, double v, double max, struct hq_err *e)
{
	if (isnan(v))
		return 0;
	if (!isfinite(v) || v < 0 || v > max) {
		hq_err_set(e, "%s %g is %s", what, v, v < 0 ? "negative"
		    : "out of range");
		return -1;
	}
	return 0;
}

/* Start and end of a sample, workout or correlation: 0, or -1 with e. */
int
hq_ig_check_span(int64_t start, int64_t end, int64_t max, struct hq_err *e)
{
	if (end < start) {
		hq_err_set(e, "end is before start");
		return -1;
	}
	if (end - start > max) {
		hq_err_set(e, "spans %.1f days, longer than %lld days", (double)(end -
		    start) / 86400, (long long)(max / 86400));
		return -1;
	}
	return 0;
}

/* A category sample's value: its code in smp->value, its name in text
 * (the catalog's, or one written). 0, or 2 (skip, e says why). */
static int
category_value(const struct hq_ingest *ig, const struct hq_ingest_record *r,
    struct hq_sample *smp, char *text, size_t textn, struct hq_err *e)
{
	const struct type_cache *tc = ig->tc;
	double code = 0;

	if (r->text) {
		snprintf(text, textn, "%s", r->text);
		code = r->has_value ? r->value_num : 0;
	} else if (r->value_str) {
		double v;
		int c = 0;
		hq_catalog_category(tc->identifier, r->value_str, text,
		    textn, &c);
		code = c;
		/* Some apps write a category as a bare number. */
		if (!*text && parse_number(r->value_str, &v) == 0)
			code = v;
	} else if (r->has_value)
		code = r->value_num;
	if (fabs(code) > INT32_MAX) {
		hq_err_set(e, "category code %g is out of range", code);
		return 2;
	}
	smp->value = (int)code;
	smp->text = text;
	return 0;
}

/* A quantity sample's value in smp->value, in the catalog's unit when hq
 * converts the one written. Top-level records (top) warn about and count
 * a unit that cannot be converted. 0, or 2 (skip, e says why). */
static int
quantity_value(struct hq_ingest *ig, const struct hq_ingest_record *r,
    int top, struct hq_sample *smp, struct hq_err *e)
{
	const struct type_cache *tc = ig->tc;
	double v, lo, hi;
	int canonical = 1;

	if (r->value_str) {
		if (parse_number(r->value_str, &v)) {
			char x[HQ_TERM_EXCERPT_SIZE];
			hq_err_set(e, "value '%s' is not a number",
			    hq_term_excerpt(x, sizeof x, r->value_str));
			return 2;
		}
	} else if (r->has_value)
		v = r->value_num;
	else {
		hq_err_set(e, "no value");
		return 2;
	}
	if (tc->info && tc->info->unit && smp->unit && !r->converted) {
		if (r->percent_fraction && strcmp(smp->unit, "%") == 0 &&
		    strcmp(tc->info->unit, "%") == 0)
			v *= 100;
		else if (hq_unit_convert(v, smp->unit, tc->info->unit, &v)) {
			canonical = 0;
			/* Kept with the unit written, so nothing is lost,
			 * but a sum over it would be wrong: say so. */
			if (top) {
				ig->c.units_unconverted++;
				hq_ig_note(ig, "%.200s: unit '%.100s' is not one hq "
				    "converts to %s (stored as written)", r->type,
				    smp->unit, tc->info->unit);
			}
		}
	}
	if (!isfinite(v) || fabs(v) > HQ_INGEST_MAX_VALUE) {
		hq_err_set(e, "value %g is out of range", v);
		return 2;
	}
	if (canonical && hq_catalog_bounds(tc->info, &lo, &hi) &&
	    (v < lo || v > hi)) {
		hq_err_set(e, "value %g %s is not one a body makes (%s: %g to "
		    "%g)", v, tc->info->unit, tc->info->name, lo, hi);
		return 2;
	}
	if (v < 0 && tc->kind == HQ_KIND_CUMULATIVE) {
		hq_err_set(e, "value %g is negative (an amount)", v);
		return 2;
	}
	smp->value = v;
	smp->text = "";
	return 0;
}

/* The sample a record becomes: 0, 2 (skip, e says why), -1. Top-level
 * records (top) warn about and count a unit that cannot be converted. */
static int
make_sample(struct hq_ingest *ig, const struct hq_ingest_record *r, int top,
    struct hq_sample *smp, char *text, size_t textn, struct hq_err *e)
{
	const struct type_cache *tc;
	int rc;

	if (hq_ig_check_name("source", r->source, e) ||
	    hq_ig_check_name("source version", r->source_version, e) ||
	    hq_ig_check_name("device", r->device, e) ||
	    hq_ig_check_name("unit", r->unit, e) || hq_ig_check_name("text", r->text, e) ||
	    hq_ig_check_name("value", r->value_str, e))
		return 2;
	if ((rc = resolve_type(ig, r->type, r->by_name, e)) != 0)
		return rc;
	tc = ig->tc;                  /* the type's, once resolved */
	memset(smp, 0, sizeof *smp);
	if (hq_ig_check_span(r->start, r->end, tc->kind == HQ_KIND_CUMULATIVE ?
	    HQ_CUMULATIVE_MAX_SPAN : HQ_INGEST_MAX_SPAN, e))
		return 2;
	if (r->has_value && !isfinite(r->value_num)) {
		hq_err_set(e, "value is not a finite number");
		return 2;
	}
	smp->metric_id = tc->metric_id;
	smp->start = r->start;
	smp->end = r->end;
	smp->unit = r->unit && *r->unit ? r->unit : NULL;
	smp->source_version = r->source_version;
	smp->created = r->created;
	smp->offset_min = r->offset_min;
	smp->import_id = ig->import_id;
	text[0] = '\0';
	rc = tc->kind == HQ_KIND_CATEGORY
	    ? category_value(ig, r, smp, text, textn, e)
	    : quantity_value(ig, r, top, smp, e);
	if (rc)
		return rc;
	int64_t sid = hq_ig_source_id(ig, r->source && *r->source ? r->source :
	    "unknown", e);
	if (sid < 0)
		return -1;
	smp->source_id = sid;
	int64_t did = hq_ig_device_id(ig, r->device, e);
	if (did < 0)
		return -1;
	smp->device_id = did;
	return 0;
}

/* Room for a category's name (the catalog's, or one written). */
#define TEXT_SIZE (HQ_INGEST_MAX_NAME + 1)

/* A record counted and made a sample (make_sample): 0, 2 skipped (counted
 * as such), or -1. */
static int
counted_sample(struct hq_ingest *ig, const struct hq_ingest_record *r,
    struct hq_sample *smp, char text[TEXT_SIZE], struct hq_err *e)
{
	int rc;

	ig->c.records++;
	rc = make_sample(ig, r, 1, smp, text, TEXT_SIZE, e);
	if (rc == 2)
		ig->c.skipped++;
	/* The times the same activity looks at again (same.c). */
	if (rc == 0 && ig->tc->watched) {
		if (smp->start < ig->watch_lo)
			ig->watch_lo = smp->start;
		if (smp->start > ig->watch_hi)
			ig->watch_hi = smp->start;
	}
	return rc;
}

int
hq_ingest_record(struct hq_ingest *ig, const struct hq_ingest_record *r,
    int64_t *id, struct hq_err *e)
{
	struct hq_sample smp;
	char text[TEXT_SIZE];
	int rc;

	if ((rc = counted_sample(ig, r, &smp, text, e)))
		return rc;
	if (hq_ingest_flush(ig, e))
		return -1;
	rc = hq_store_add_sample(ig->s, &smp, e);
	if (rc < 0)
		return -1;
	if (rc == 1) {
		ig->c.inserted++;
		ig->new_sample_id = hq_store_last_id(ig->s);
		ig->new_sample_start = smp.start;
		if (id)
			*id = ig->new_sample_id;
	} else {
		ig->c.duplicates++;
		if (id && (*id = hq_store_find_sample(ig->s, &smp, e)) < 0)
			return -1;
	}
	return rc;
}

int
hq_ingest_flush(struct hq_ingest *ig, struct hq_err *e)
{
	int n;

	if (hq_ig_flush_points(ig, e) || hq_ig_flush_box(ig, e))
		return -1;
	if (!ig->nlater)
		return 0;
	n = hq_store_add_samples(ig->s, ig->later, ig->nlater, e);
	if (n < 0)
		return -1;
	ig->c.inserted += n;
	ig->c.duplicates += (long)ig->nlater - n;
	ig->nlater = 0;
	return 0;
}

int
hq_ingest_record_later(struct hq_ingest *ig, const struct hq_ingest_record *r,
    struct hq_err *e)
{
	struct hq_sample smp;
	char text[TEXT_SIZE];
	int rc;

	if ((rc = counted_sample(ig, r, &smp, text, e)))
		return rc;
	/* What points to the caller's strings is written now. */
	if ((smp.text && *smp.text) || smp.source_version || (smp.unit &&
	    strlen(smp.unit) >= sizeof ig->later_unit[0])) {
		if (hq_ingest_flush(ig, e) || (rc = hq_store_add_sample(ig->s,
		    &smp, e)) < 0)
			return -1;
		ig->c.inserted += rc;
		ig->c.duplicates += !rc;
		return 0;
	}
	if (smp.unit) {
		snprintf(ig->later_unit[ig->nlater], sizeof ig->later_unit[0],
		    "%s", smp.unit);
		smp.unit = ig->later_unit[ig->nlater];
	}
	smp.text = "";
	ig->later[ig->nlater++] = smp;
	return ig->nlater == HQ_STORE_SAMPLES_AT_ONCE ? hq_ingest_flush(ig, e)
	    : 0;
}

int64_t
hq_ingest_new_sample_id(const struct hq_ingest *ig)
{
	return hq_store_last_id(ig->s);
}

int64_t
hq_ingest_member(struct hq_ingest *ig, const struct hq_ingest_record *r,
    struct hq_err *e)
{
	struct hq_sample smp;
	char text[TEXT_SIZE];
	int64_t id;
	int rc = make_sample(ig, r, 0, &smp, text, sizeof text, e);

	if (rc == 2)
		return 0;
	if (rc || hq_ingest_flush(ig, e))
		return -1;
	if ((id = hq_store_find_sample(ig->s, &smp, e)) != 0)
		return id;
	/* Not (yet) at top level: store it once; the top-level copy, if it
	 * comes later, is then a duplicate of this row. */
	rc = hq_store_add_sample(ig->s, &smp, e);
	if (rc < 0)
		return -1;
	return rc == 1 ? hq_store_last_id(ig->s) : hq_store_find_sample(ig->s,
	    &smp, e);
}

int
hq_ingest_sample_meta(struct hq_ingest *ig, int64_t sample_id,
    const char *key, const char *value, struct hq_err *e)
{
	if (sample_id == ig->new_sample_id && strcmp(key, "HKTimeZone") == 0)
		hq_ig_note_zone(ig, value, ig->new_sample_start);
	return hq_ig_run(ig, ST_SAMPLE_META, (struct hq_bind[]){ HQ_INT(sample_id),
	    HQ_TEXT(key), HQ_TEXT(value), HQ_END }, e);
}

int
hq_ingest_hrv_beat(struct hq_ingest *ig, int64_t sample_id, int seq,
    double bpm, double time_of_day, struct hq_err *e)
{
	ig->c.beats++;
	return hq_ig_run(ig, ST_BEAT, (struct hq_bind[]){ HQ_INT(sample_id),
	    HQ_INT(seq), HQ_REAL(bpm), HQ_OPT_REAL(time_of_day), HQ_END }, e);
}
