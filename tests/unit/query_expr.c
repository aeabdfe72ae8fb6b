/* Unit tests for lib/query/expr.c: the --where/--when language. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
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

	/* Nesting is bounded: parsing and evaluation recurse that deep. */
	struct hq_buf b = {0};
	for (int i = 0; i < HQ_EXPR_MAX_DEPTH - 2; i++)
		hq_buf_putc(&b, '(');
	hq_buf_puts(&b, "value>1");
	for (int i = 0; i < HQ_EXPR_MAX_DEPTH - 2; i++)
		hq_buf_putc(&b, ')');
	is_int(eval(b.data, 2, 0), 1, "%d parentheses deep is fine", HQ_EXPR_MAX_DEPTH - 2);
	hq_buf_reset(&b);
	for (int i = 0; i < 100000; i++)
		hq_buf_putc(&b, '(');
	hq_buf_puts(&b, "value>1");
	ok(hq_expr_parse(b.data, &e) == NULL, "100000 parentheses deep is refused");
	ok(strstr(e.msg, "at column 101: nested too deep") != NULL, "at the level past the bound: %s", e.msg);
	ok(strlen(e.msg) < 300, "the message quotes the expression cut short");
	hq_buf_reset(&b);
	for (int i = 0; i < 100000; i++)
		hq_buf_puts(&b, i % 2 ? "not " : "!");
	hq_buf_puts(&b, "value>1");
	ok(hq_expr_parse(b.data, &e) == NULL, "100000 not and ! are refused");
	hq_buf_reset(&b);
	for (int i = 0; i < 20000; i++)
		hq_buf_puts(&b, i ? " or value>1" : "value>1");
	ok(hq_expr_parse(b.data, &e) == NULL, "20000 conditions in a chain are refused");
	ok(strstr(e.msg, "too many conditions (more than 10000 comparisons)") != NULL,
	   "as too many conditions, not as too deep: %s", e.msg);
	hq_buf_reset(&b);
	for (int i = 0; i < 90; i++)
		hq_buf_puts(&b, i ? " and value>1" : "value>1");
	is_int(eval(b.data, 2, 0), 1, "90 conditions in a chain are fine");
	/* issue 23: a flat chain is not deep, however long (to its own bound) */
	for (int n = 150; n <= HQ_EXPR_MAX_TERMS; n = n == 150 ? HQ_EXPR_MAX_TERMS : n + 1) {
		hq_buf_reset(&b);
		for (int i = 0; i < n; i++)
			hq_buf_puts(&b, i ? " and value>1" : "value>1");
		is_int(eval(b.data, 2, 0), 1, "%d conditions joined by and are fine", n);
		is_int(eval(b.data, 1, 0), 0, "(and false when one is)");
		hq_buf_reset(&b);
		for (int i = 0; i < n; i++)
			hq_buf_puts(&b, i ? " or value>1" : "value<0");
		is_int(eval(b.data, 2, 0), 1, "%d joined by or", n);
		is_int(eval(b.data, 1, 0), 0, "(false when none is)");
	}
	hq_buf_reset(&b);
	for (int i = 0; i < 300; i++)
		hq_buf_puts(&b, i % 3 == 2 ? " or value>1" : i ? " and value>1" : "value>1");
	is_int(eval(b.data, 2, 0), 1, "300 conditions mixing and and or are fine");
	hq_buf_reset(&b);
	for (int i = 0; i <= HQ_EXPR_MAX_TERMS; i++)
		hq_buf_puts(&b, i ? " and value>1" : "value>1");
	ok(hq_expr_parse(b.data, &e) == NULL && strstr(e.msg, "too many conditions"),
	   "%d conditions are refused: %.60s", HQ_EXPR_MAX_TERMS + 1, e.msg + strlen(e.msg) - 60);
	hq_buf_free(&b);

	/* issue 23: one number syntax, decimal only */
	is_int(eval("value>.5", 1, 0), 1, ".5 is a number");
	is_int(eval("value>16", 17, 0), 1, "16 is a number");
	static const char *const notnum[] = {
		"value>0x10", "value>0X1p4", "value>-inf", "value>+nan", "value>1e",
		"value>5abc", "value>1.5.2", "value>-infinity",
	};
	for (size_t i = 0; i < sizeof notnum / sizeof notnum[0]; i++) {
		ok(hq_expr_parse(notnum[i], &e) == NULL && strstr(e.msg, "expected a decimal number"),
		   "%s refused: %s", notnum[i], e.msg);
	}
	static const char *const range[] = { "value>1e400", "value<-1e400", "value>1e-400" };
	for (size_t i = 0; i < sizeof range / sizeof range[0]; i++)
		ok(hq_expr_parse(range[i], &e) == NULL && strstr(e.msg, "number out of range"),
		   "%s refused: %s", range[i], e.msg);
	return done_testing();
}
