#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "hq/buf.h"
#include "hq/csvline.h"
#include "hq/labs.h"

/*
 * The readers of labs.h: hq's lab CSV and JSON lines. Both go through
 * fill_result(), so that a CSV row and a JSON line saying the same thing
 * give the same result.
 */

/* Copy a structured field (unit, code): an error when it does not fit. */
static int
copy_field(char *dst, size_t n, const char *s, const char *what,
    struct hq_err *e)
{
	size_t len = strlen(s);

	if (len >= n) {
		hq_err_set(e, "%s longer than %zu bytes", what, n - 1);
		return -1;
	}
	memcpy(dst, s, len + 1);
	return 0;
}

/* The fields every format shares, as strings; NULL = absent. */
struct raw_result {
	const char *date, *test, *value, *unit, *loinc, *source, *flag;
	const char *comparator;
};

/*
 * A number needs its unit: 90 mg/dL and 90 mmol/L of glucose differ
 * 18-fold, and a result stored without one could never be converted or
 * compared. Only a test whose catalog unit is empty may go without; a
 * unitless result of a test hq does not know (pH, INR, a ratio) is
 * written with the unit 1. A value that is text ("NEGATIVE") has none.
 */
static int
unit_needed(const struct hq_lab_result *r, struct hq_err *e)
{
	const struct hq_lab_test *t;

	if (r->unit[0] || isnan(r->value))
		return 0;
	t = hq_labs_lookup(r->test);
	if (t && !t->unit[0])
		return 0;
	hq_err_set(e, "%s %g has no unit (a number needs one: %s; 1 for a "
	    "unitless test such as pH or INR)", r->name, r->value,
	    t ? t->unit : "the lab's");
	return -1;
}

static int
fill_result(struct hq_lab_sink *sink, const struct raw_result *in,
    struct hq_lab_result *r, struct hq_err *e)
{
	char unit[64];

	if (!in->date || !*in->date) {
		hq_err_set(e, "no date");
		return -1;
	}
	if (hq_labs_parse_date(in->date, r)) {
		hq_err_set(e, "date '%.40s' is not a date (2024-03-01 or an "
		    "ISO 8601 date-time)", in->date);
		return -1;
	}
	if (!in->test || !in->test[strspn(in->test, " ")]) {
		hq_err_set(e, "no test name");
		return -1;
	}
	hq_labs_copy_text(r->name, sizeof r->name, in->test);
	if (in->value && hq_labs_parse_value(in->value, r) < 0) {
		hq_err_set(e, "no value");
		return -1;
	}
	if (in->comparator && *in->comparator) {
		char cmp[3];
		size_t k = hq_labs_comparator(in->comparator, cmp);
		if (!k || in->comparator[k] || isnan(r->value)) {
			hq_err_set(e, "comparator '%.8s' is not <, <=, > or >= "
			    "before a number", in->comparator);
			return -1;
		}
		memcpy(r->comparator, cmp, sizeof cmp);
	}
	hq_labs_unit_normalise(in->unit ? in->unit : "", unit, sizeof unit);
	if (copy_field(r->unit, sizeof r->unit, unit, "unit", e))
		return -1;
	if (in->loinc && *in->loinc) {
		char code[32];
		hq_labs_copy_text(code, sizeof code, in->loinc);
		if (!hq_labs_loinc_valid(code)) {
			hq_err_set(e, "loinc '%.20s' is not a LOINC code (its "
			    "check digit is wrong or it is not NNNNN-N)", code);
			return -1;
		}
		memcpy(r->loinc, code, strlen(code) + 1);
	}
	hq_labs_copy_text(r->source, sizeof r->source,
	    in->source && *in->source ? in->source :
	    sink->source ? sink->source : "");
	r->lab_flag[0] = '\0';
	if (in->flag && *in->flag)
		snprintf(r->lab_flag, sizeof r->lab_flag, "%s",
		    hq_labs_lab_flag(in->flag));
	hq_labs_resolve(r);
	return unit_needed(r, e);
}

static int
emit(struct hq_lab_sink *sink, const struct hq_lab_result *r,
    struct hq_err *e)
{
	sink->read++;
	return sink->emit(sink->arg, r, e);
}

enum { C_DATE, C_TEST, C_VALUE, C_UNIT, C_LOW, C_HIGH, C_LOINC, C_SOURCE,
	C_FLAG };
static const char *const col_names[] = { "date", "test", "value", "unit",
	"ref_low", "ref_high", "loinc", "source", "flag", NULL };

struct hq_labs_csv {
	struct hq_lab_sink *sink;
	struct hq_csvline_table t;
};

struct hq_labs_csv *
hq_labs_csv_new(struct hq_lab_sink *sink)
{
	struct hq_labs_csv *c = hq_xcalloc(1, sizeof *c);

	c->sink = sink;
	c->t.names = col_names;
	c->t.nrequired = C_HIGH + 1;
	return c;
}

void
hq_labs_csv_free(struct hq_labs_csv *c)
{
	free(c);
}

/* A limit column: empty is none. */
static int
csv_limit(const char *s, const char *what, double *v, struct hq_err *e)
{
	*v = NAN;
	if (!s || !*s)
		return 0;
	if (hq_csvline_number(s, v)) {
		hq_err_set(e, "%s '%.20s' is not a number", what, s);
		return -1;
	}
	return 0;
}

int
hq_labs_csv_line(struct hq_labs_csv *c, char *line, size_t len, long lineno,
    struct hq_err *e)
{
	const struct hq_csvline_table *t = &c->t;
	struct raw_result in;
	struct hq_lab_result r;
	struct hq_err fe;
	int rc = hq_csvline_table_line(&c->t, line, len, &fe);

	if (rc <= 0) {
		if (rc < 0)
			hq_err_set(e, "%s:%ld: %s", c->sink->file, lineno, fe.msg);
		return rc;
	}
	in = (struct raw_result){
		.date = hq_csvline_table_get(t, C_DATE),
		.test = hq_csvline_table_get(t, C_TEST),
		.value = hq_csvline_table_get(t, C_VALUE),
		.unit = hq_csvline_table_get(t, C_UNIT),
		.loinc = hq_csvline_table_get(t, C_LOINC),
		.source = hq_csvline_table_get(t, C_SOURCE),
		.flag = hq_csvline_table_get(t, C_FLAG),
	};
	hq_labs_result_init(&r);
	if (!in.value) {
		hq_err_set(&fe, "no value");
		goto bad;
	}
	if (fill_result(c->sink, &in, &r, &fe) ||
	    csv_limit(hq_csvline_table_get(t, C_LOW), "ref_low", &r.ref_low, &fe) ||
	    csv_limit(hq_csvline_table_get(t, C_HIGH), "ref_high", &r.ref_high, &fe))
		goto bad;
	return emit(c->sink, &r, e);
bad:
	hq_err_set(e, "%s:%ld: %s", c->sink->file, lineno, fe.msg);
	return -1;
}

int
hq_labs_csv_sniff(const char *line, size_t len)
{
	static const char *const names[] = { "date", "test", "value", "unit", NULL };

	return hq_csvline_header_has(line, len, names);
}

/* A JSON member as a string: strings as they are, numbers printed; NULL
 * when absent or null. Anything else is an error. */
static int
json_text(const cJSON *obj, const char *key, char *buf, size_t n,
    const char **out, struct hq_err *e)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = NULL;
	if (!v || cJSON_IsNull(v))
		return 0;
	if (cJSON_IsString(v)) {
		*out = v->valuestring;
		return 0;
	}
	if (cJSON_IsNumber(v) && isfinite(v->valuedouble)) {
		snprintf(buf, n, "%.17g", v->valuedouble);
		*out = buf;
		return 0;
	}
	hq_err_set(e, "\"%s\" is neither a string nor a number", key);
	return -1;
}

static int
json_limit(const cJSON *obj, const char *key, double *v, struct hq_err *e)
{
	const cJSON *j = cJSON_GetObjectItemCaseSensitive(obj, key);

	*v = NAN;
	if (!j || cJSON_IsNull(j))
		return 0;
	if (cJSON_IsNumber(j) && isfinite(j->valuedouble)) {
		*v = j->valuedouble;
		return 0;
	}
	if (cJSON_IsString(j) && (!*j->valuestring ||
	    hq_csvline_number(j->valuestring, v) == 0))
		return 0;
	hq_err_set(e, "\"%s\" is not a number", key);
	return -1;
}

int
hq_labs_json_sniff(const cJSON *obj)
{
	return cJSON_IsObject(obj) &&
	    cJSON_GetObjectItemCaseSensitive(obj, "test") &&
	    cJSON_GetObjectItemCaseSensitive(obj, "date");
}

int
hq_labs_json(struct hq_lab_sink *sink, const cJSON *obj, long line,
    struct hq_err *e)
{
	static const char *const keys[] = { "date", "test", "value", "unit",
		"loinc", "source", "flag", "comparator" };
	char num[8][32];
	const char *s[8];
	struct raw_result in;
	struct hq_lab_result r;
	struct hq_err fe;

	if (!cJSON_IsObject(obj)) {
		hq_err_set(&fe, "not a JSON object");
		goto bad;
	}
	for (size_t i = 0; i < 8; i++)
		if (json_text(obj, keys[i], num[i], sizeof num[i], &s[i], &fe))
			goto bad;
	in = (struct raw_result){ .date = s[0], .test = s[1], .value = s[2],
		.unit = s[3], .loinc = s[4], .source = s[5], .flag = s[6],
		.comparator = s[7] };
	hq_labs_result_init(&r);
	if (!in.value) {
		hq_err_set(&fe, "no value");
		goto bad;
	}
	if (fill_result(sink, &in, &r, &fe) ||
	    json_limit(obj, "ref_low", &r.ref_low, &fe) ||
	    json_limit(obj, "ref_high", &r.ref_high, &fe))
		goto bad;
	return emit(sink, &r, e);
bad:
	hq_err_set(e, "%s:%ld: %s", sink->file, line, fe.msg);
	return -1;
}
