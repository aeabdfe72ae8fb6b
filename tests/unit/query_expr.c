/* Unit tests for lib/expr.c: the --where/--when language. */
#include <math.h>
#include <stdlib.h>

#include "hq/expr.h"
#include "tap.h"

struct env {
	const char *names[4];
	double values[4];
};

static int
lookup(void *ctx, size_t ref, double *v)
{
	double *vals = ctx;

	*v = vals[ref];
	return isnan(*v) ? -1 : 0;
}

static int
eval(const char *src, double a, double b)
{
	struct hq_err e;
	struct hq_expr *x = hq_expr_parse(src, &e);
	double vals[2] = { a, b };
	int r;

	if (!x)
		return -1;
	r = hq_expr_eval(x, lookup, vals);
	hq_expr_free(x);
	return r;
}

int
main(void)
{
	struct hq_err e;
	struct hq_expr *x;

	is_int(eval("value>100", 150, 0), 1, "value>100 on 150");
	is_int(eval("value>100", 100, 0), 0, "value>100 on 100");
	is_int(eval("value >= 100", 100, 0), 1, ">= includes");
	is_int(eval("value<=5", 5, 0), 1, "<=");
	is_int(eval("value == 3", 3, 0), 1, "==");
	is_int(eval("value != 3", 3, 0), 0, "!=");
	is_int(eval("100 < value", 150, 0), 1, "number on the left");
	is_int(eval("value>1 and n<5", 2, 9), 0, "and");
	is_int(eval("value>1 or n<5", 0, 3), 1, "or");
	is_int(eval("value>1 or value<0 and n>5", 2, 0), 1, "and binds tighter than or");
	is_int(eval("(value>1 or value<0) and n>5", 2, 0), 0, "parentheses");
	is_int(eval("not value>1", 0, 0), 1, "not");
	is_int(eval("value>1 && n>1", 2, 2), 1, "&& as and");
	is_int(eval("value>-1.5e1", -10, 0), 1, "negative and exponent numbers");
	is_int(eval("value>100", NAN, 0), 0, "a missing value never satisfies");
	is_int(eval("not value>100", NAN, 0), 1, "...so its negation does");

	x = hq_expr_parse("exercise_time.sum>=60 and heart_rate.max<170 and exercise_time.sum<300", &e);
	ok(x != NULL, "metric.field names parse");
	if (x) {
		is_int(hq_expr_nrefs(x), 2, "repeated names are one reference");
		is_str(hq_expr_ref(x, 0)->metric, "exercise_time", "metric of the first");
		is_str(hq_expr_ref(x, 0)->field, "sum", "field of the first");
		hq_expr_free(x);
	}

	x = hq_expr_parse("glucose.max[-1] > 140 and glucose.max > 140", &e);
	ok(x != NULL, "a day offset parses");
	if (x) {
		is_int(hq_expr_nrefs(x), 2, "the same name on another day is another reference");
		is_int(hq_expr_ref(x, 0)->lag, -1, "its offset");
		is_int(hq_expr_ref(x, 1)->lag, 0, "no offset is the same day");
		hq_expr_free(x);
	}
	ok(hq_expr_parse("glucose.max[x] > 1", &e) == NULL, "a bad offset is refused");
	ok(hq_expr_parse("glucose.max[-1 > 1", &e) == NULL, "an unclosed offset is refused");
	ok(hq_expr_parse("value >", &e) == NULL, "missing operand refused");
	is_str(e.msg, "bad expression 'value >' at column 8: expected a number or a name such as value or exercise_time.sum",
	    "with the column");
	ok(hq_expr_parse("value 100", &e) == NULL, "missing operator refused");
	ok(hq_expr_parse("value > 1 junk", &e) == NULL, "trailing text refused");
	ok(strstr(e.msg, "and/or") != NULL, "and the message says how to join conditions");
	ok(hq_expr_parse("(value > 1", &e) == NULL, "unbalanced parenthesis refused");
	ok(hq_expr_parse("a.b.c > 1", &e) == NULL, "two dots refused");
	ok(hq_expr_parse("", &e) == NULL, "empty refused");
	return done_testing();
}
