#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "hq/jsonl.h"
#include "hq/time.h"

/* The longest line taken; a longer one is a bad line. */
#define JSONL_MAX_LINE (1 << 20)

int
hq_jsonl_sniff(const unsigned char *p, size_t n)
{
	size_t i = hq_input_skip_space(p, n);

	return i < n && p[i] == '{';
}

static const char *
json_string(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A time field: a string in any form hq_time_parse takes, or epoch
 * seconds. 0, or -1 when absent or bad (why in e). */
static int
json_time(const cJSON *o, const char *key, int64_t *t, struct hq_err *e)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (cJSON_IsNumber(v) && isfinite(v->valuedouble) &&
	    fabs(v->valuedouble) < 1e11) {
		*t = (int64_t)v->valuedouble;
		return 0;
	}
	if (cJSON_IsString(v) && hq_time_parse(v->valuestring, t) == 0)
		return 0;
	if (!v)
		hq_err_set(e, "no \"%s\"", key);
	else
		hq_err_set(e, "\"%s\" is not a date", key);
	return -1;
}

/* The record a line holds: 0, or -1 (e says why). Strings in r point
 * into o. */
static int
line_record(const cJSON *o, struct hq_ingest_record *r, struct hq_err *e)
{
	const cJSON *v;

	if (!cJSON_IsObject(o)) {
		hq_err_set(e, "not a JSON object");
		return -1;
	}
	*r = (struct hq_ingest_record){ .by_name = 1 };
	r->type = json_string(o, "metric");
	r->unit = json_string(o, "unit");
	r->source = json_string(o, "source");
	r->source_version = json_string(o, "source_version");
	r->device = json_string(o, "device");
	r->text = json_string(o, "text");
	v = cJSON_GetObjectItemCaseSensitive(o, "value");
	if (cJSON_IsNumber(v)) {
		r->value_num = v->valuedouble;
		r->has_value = 1;
	} else if (cJSON_IsString(v))
		r->value_str = v->valuestring;
	if (!r->source)
		r->source = "jsonl";
	if (!r->type) {
		hq_err_set(e, "no \"metric\"");
		return -1;
	}
	if (json_time(o, "start", &r->start, e))
		return -1;
	if (!cJSON_GetObjectItemCaseSensitive(o, "end"))
		r->end = r->start;
	else if (json_time(o, "end", &r->end, e))
		return -1;
	return 0;
}

/* One line: 1 inserted, 0 duplicate, 2 bad (e says why), -1. A bad line
 * fails the file, so it is not counted as a skipped record. */
static int
read_line(struct hq_ingest *ig, const char *line, struct hq_err *e)
{
	struct hq_ingest_record r;
	cJSON *o = cJSON_Parse(line);
	int rc;

	rc = line_record(o, &r, e) ? 2 : hq_ingest_record(ig, &r, NULL, e);
	cJSON_Delete(o);
	return rc;
}

/* The writer's own warnings (ingest.h) name the line being read. */
static void
where(void *arg, char *buf, size_t n)
{
	const struct hq_input_lines *l = arg;

	snprintf(buf, n, "%s:%ld", l->in->name, l->lineno);
}

int
hq_jsonl_read(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e)
{
	(void)o;
	struct hq_input_lines l;
	int rc, status = 0;

	hq_input_lines_start(&l, in, JSONL_MAX_LINE);
	hq_ingest_set_where(ig, where, &l);
	while ((rc = hq_input_lines_next(&l, e)) > 0) {
		struct hq_err le;
		const char *p = l.line.data;
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (l.too_long) {
			hq_err_set(&le, "line longer than %d bytes", JSONL_MAX_LINE);
			rc = 2;
		} else if (!*p)
			continue;   /* blank */
		else
			rc = read_line(ig, p, &le);
		/* A script's output is all right or it is a bug: a bad line
		 * rejects the whole file, which is never half imported (unlike
		 * a quirk in Apple's own export). */
		if (rc < 0 || rc == 2) {
			hq_err_set(e, "%s:%ld: %s", in->name, l.lineno, le.msg);
			status = -1;
			break;
		}
		hq_ingest_tick(ig, in);
	}
	if (rc < 0)
		status = -1;
	hq_ingest_set_where(ig, NULL, NULL);
	hq_input_lines_end(&l);
	return status;
}
