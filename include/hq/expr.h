/*
 * expr — the small expression language of --where and --when.
 *
 *     value > 100
 *     exercise_time.sum >= 60 and heart_rate.max < 170
 *     not (avg < 50 or avg > 120)
 *     glucose.max[-1] > 140          (the day before: for nights after it)
 *
 * Comparisons (< <= > >= == !=) between numbers and names; a name is a
 * field (value, n, avg, p90...) or metric.field, optionally followed by a
 * day offset in brackets ([-1]: the day before). `and` binds tighter than
 * `or`; `not` and parentheses as usual. A comparison whose name has no
 * value (a day without that metric) is false.
 *
 * An expression nests at most HQ_EXPR_MAX_DEPTH levels (parentheses, not,
 * and an and/or whose side is a group): past it hq_expr_parse() fails,
 * so neither parsing nor evaluation can exhaust the stack, whatever a
 * user or a model writes. A flat chain (a and b and c ...) is one level
 * however long; its length is a separate bound, HQ_EXPR_MAX_TERMS
 * comparisons in the whole expression (a command line holds about 16,000
 * short ones; the model's 32 KiB arguments about 4,000), past which
 * hq_expr_parse() fails too. Numbers are decimal (hq_opts_scan_number()).
 *
 * hq_expr_parse() returns an expression the caller frees with
 * hq_expr_free(); the references it lists are owned by it.
 */
#ifndef HQ_EXPR_H
#define HQ_EXPR_H

#include <stddef.h>

#include "hq/err.h"

#define HQ_EXPR_MAX_DEPTH 100
#define HQ_EXPR_MAX_DEPTH_S "100"
#define HQ_EXPR_MAX_TERMS 10000
#define HQ_EXPR_MAX_TERMS_S "10000"

struct hq_expr;

struct hq_expr_ref {
	const char *metric;   /* NULL for a plain field */
	const char *field;
	int lag;              /* day offset: -1 the day before; 0 the same day */
};

/* NULL with e saying what is wrong and where (column). */
struct hq_expr *hq_expr_parse(const char *src, struct hq_err *e);
void hq_expr_free(struct hq_expr *x);
const char *hq_expr_source(const struct hq_expr *x);

/* The distinct names the expression uses. */
size_t hq_expr_nrefs(const struct hq_expr *x);
const struct hq_expr_ref *hq_expr_ref(const struct hq_expr *x, size_t i);

/* Gives the value of reference i (index into hq_expr_ref): 0, or -1 when
 * it has no value. */
typedef int (*hq_expr_lookup)(void *ctx, size_t ref, double *v);
/* 1 true, 0 false. */
int hq_expr_eval(const struct hq_expr *x, hq_expr_lookup lookup, void *ctx);

#endif
