#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/expr.h"
#include "hq/opts.h"

enum node_type { N_NUM, N_REF, N_CMP, N_AND, N_OR, N_NOT };
enum cmp_op { OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE };

struct node {
	enum node_type type;
	enum cmp_op op;
	double num;
	size_t ref;
	int a, b;   /* children, node indices */
	int depth;  /* of the tree under it: hq_expr_eval() recurses this deep */
};

struct hq_expr {
	char *src;
	struct node *nodes;
	size_t n, cap;
	struct hq_expr_ref *refs;
	size_t nrefs;
};

struct parser {
	struct hq_expr *x;
	const char *s, *p;
	struct hq_err *e;
	int failed;
	int nesting;   /* parentheses and not open around the parser */
	int terms;     /* comparisons so far */
};

static void
fail(struct parser *ps, const char *what)
{
	if (ps->failed)
		return;
	ps->failed = 1;
	/* The expression itself, cut short: the column and why must fit. */
	hq_err_set(ps->e, "bad expression '%.80s%s' at column %d: %s", ps->s,
	    strlen(ps->s) > 80 ? "..." : "", (int)(ps->p - ps->s) + 1, what);
}

static int
add_node(struct parser *ps, struct node nd)
{
	struct hq_expr *x = ps->x;

	nd.depth = 1;
	if (nd.type == N_CMP || nd.type == N_AND || nd.type == N_OR ||
	    nd.type == N_NOT) {
		int da = x->nodes[nd.a].depth, db = nd.type == N_NOT ? 0
		    : x->nodes[nd.b].depth;
		nd.depth = 1 + (da > db ? da : db);
		/* a chain (a and b and c: and over and on the left) is one
		 * level, however long: eval() walks it in a loop */
		if ((nd.type == N_AND || nd.type == N_OR) && x->nodes[nd.a].type == nd.type)
			nd.depth = da > 1 + db ? da : 1 + db;
	}
	if (nd.depth > HQ_EXPR_MAX_DEPTH) {
		fail(ps, "nested too deep (more than " HQ_EXPR_MAX_DEPTH_S
		    " levels of and, or, not)");
		return -1;
	}
	if (x->n == x->cap) {
		x->cap = x->cap ? x->cap * 2 : 16;
		x->nodes = hq_xrealloc(x->nodes, x->cap * sizeof *x->nodes);
	}
	x->nodes[x->n] = nd;
	return (int)x->n++;
}

static void
skip_space(struct parser *ps)
{
	while (isspace((unsigned char)*ps->p))
		ps->p++;
}

/* Does the input continue with keyword kw as a whole word, or its symbol
 * (&&, ||, ! but not !=)? */
static int
keyword(struct parser *ps, const char *kw, const char *sym)
{
	size_t len = strlen(kw), slen = strlen(sym);

	skip_space(ps);
	if (strncmp(ps->p, kw, len) == 0 &&
	    !isalnum((unsigned char)ps->p[len]) && ps->p[len] != '_' && ps->p[len] != '.') {
		ps->p += len;
		return 1;
	}
	if (strncmp(ps->p, sym, slen) == 0 && ps->p[slen] != '=') {
		ps->p += slen;
		return 1;
	}
	return 0;
}

static size_t
intern_ref(struct hq_expr *x, const char *metric, const char *field, int lag)
{
	for (size_t i = 0; i < x->nrefs; i++)
		if (strcmp(x->refs[i].field, field) == 0 && x->refs[i].lag == lag &&
		    ((!metric && !x->refs[i].metric) ||
		     (metric && x->refs[i].metric && strcmp(metric, x->refs[i].metric) == 0)))
			return i;
	x->refs = hq_xrealloc(x->refs, (x->nrefs + 1) * sizeof *x->refs);
	x->refs[x->nrefs].metric = metric ? hq_xstrdup(metric) : NULL;
	x->refs[x->nrefs].field = hq_xstrdup(field);
	x->refs[x->nrefs].lag = lag;
	return x->nrefs++;
}

static int
parse_operand(struct parser *ps)
{
	struct node nd = {0};
	char name[2][128];
	int parts = 0;

	skip_space(ps);
	if (isdigit((unsigned char)*ps->p) || *ps->p == '-' || *ps->p == '+' ||
	    *ps->p == '.') {
		const char *end;
		int rc = hq_opts_scan_number(ps->p, &end, &nd.num);
		if (rc == HQ_NUM_RANGE) {
			fail(ps, "number out of range (a double: about 1e-308 to 1e308)");
			return -1;
		}
		if (rc) {
			fail(ps, "expected a decimal number such as 16, -2.5 or 1e3 "
			    "(no hex, inf or nan)");
			return -1;
		}
		ps->p = end;
		nd.type = N_NUM;
		return add_node(ps, nd);
	}
	while (parts < 2) {
		size_t len = 0;
		while (isalnum((unsigned char)ps->p[len]) || ps->p[len] == '_')
			len++;
		if (len == 0 || !isalpha((unsigned char)ps->p[0])) {
			fail(ps, "expected a number or a name such as value or "
			    "exercise_time.sum");
			return -1;
		}
		if (len >= sizeof name[0]) {
			fail(ps, "name too long");
			return -1;
		}
		memcpy(name[parts], ps->p, len);
		name[parts][len] = '\0';
		for (char *c = name[parts]; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		ps->p += len;
		parts++;
		if (*ps->p != '.')
			break;
		ps->p++;
	}
	if (*ps->p == '.') {
		fail(ps, "a name has at most one dot (metric.field)");
		return -1;
	}
	int lag = 0;
	if (*ps->p == '[') {
		char *end;
		long v;
		ps->p++;
		errno = 0;
		v = strtol(ps->p, &end, 10);
		if (end == ps->p || *end != ']' || errno || v < -366 || v > 366) {
			fail(ps, "expected a day offset such as [-1] (the day before)");
			return -1;
		}
		lag = (int)v;
		ps->p = end + 1;
	}
	nd.type = N_REF;
	nd.ref = parts == 2 ? intern_ref(ps->x, name[0], name[1], lag)
	    : intern_ref(ps->x, NULL, name[0], lag);
	return add_node(ps, nd);
}

static int parse_or(struct parser *ps);

static int
parse_cmp(struct parser *ps)
{
	static const struct { const char *s; enum cmp_op op; } ops[] = {
		{ "<=", OP_LE }, { ">=", OP_GE }, { "==", OP_EQ }, { "!=", OP_NE },
		{ "<", OP_LT }, { ">", OP_GT }, { "=", OP_EQ },
	};
	struct node nd = {0};
	int a, b;
	size_t i;

	/* Each not and parenthesis is a level of the parser's recursion. */
	if (ps->nesting >= HQ_EXPR_MAX_DEPTH) {
		fail(ps, "nested too deep (more than " HQ_EXPR_MAX_DEPTH_S
		    " levels of parentheses and not)");
		return -1;
	}
	if (keyword(ps, "not", "!")) {
		ps->nesting++;
		a = parse_cmp(ps);
		ps->nesting--;
		if (a < 0)
			return -1;
		nd.type = N_NOT;
		nd.a = a;
		return add_node(ps, nd);
	}
	skip_space(ps);
	if (*ps->p == '(') {
		ps->p++;
		ps->nesting++;
		a = parse_or(ps);
		ps->nesting--;
		if (a < 0)
			return -1;
		skip_space(ps);
		if (*ps->p != ')') {
			fail(ps, "expected ')'");
			return -1;
		}
		ps->p++;
		return a;
	}
	if (++ps->terms > HQ_EXPR_MAX_TERMS) {
		fail(ps, "too many conditions (more than " HQ_EXPR_MAX_TERMS_S
		    " comparisons)");
		return -1;
	}
	a = parse_operand(ps);
	if (a < 0)
		return -1;
	skip_space(ps);
	for (i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (strncmp(ps->p, ops[i].s, strlen(ops[i].s)) == 0)
			break;
	if (i == sizeof ops / sizeof ops[0]) {
		fail(ps, "expected a comparison (< <= > >= == !=)");
		return -1;
	}
	ps->p += strlen(ops[i].s);
	b = parse_operand(ps);
	if (b < 0)
		return -1;
	nd.type = N_CMP;
	nd.op = ops[i].op;
	nd.a = a;
	nd.b = b;
	return add_node(ps, nd);
}

static int
parse_and(struct parser *ps)
{
	int a = parse_cmp(ps);

	while (a >= 0 && keyword(ps, "and", "&&")) {
		struct node nd = { .type = N_AND, .a = a };
		if ((nd.b = parse_cmp(ps)) < 0)
			return -1;
		a = add_node(ps, nd);
	}
	return a;
}

static int
parse_or(struct parser *ps)
{
	int a = parse_and(ps);

	while (a >= 0 && keyword(ps, "or", "||")) {
		struct node nd = { .type = N_OR, .a = a };
		if ((nd.b = parse_and(ps)) < 0)
			return -1;
		a = add_node(ps, nd);
	}
	return a;
}

struct hq_expr *
hq_expr_parse(const char *src, struct hq_err *e)
{
	struct hq_expr *x = hq_xcalloc(1, sizeof *x);
	struct parser ps = { x, src, src, e, 0, 0, 0 };
	int root;

	x->src = hq_xstrdup(src);
	root = parse_or(&ps);
	skip_space(&ps);
	if (root >= 0 && *ps.p)
		fail(&ps, "unexpected text (join conditions with and/or)");
	if (root < 0 || ps.failed) {
		hq_expr_free(x);
		return NULL;
	}
	/* Every production adds its own node last, so the root is the last
	 * node; hq_expr_eval() relies on that. */
	return x;
}

void
hq_expr_free(struct hq_expr *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->nrefs; i++) {
		free((char *)x->refs[i].metric);
		free((char *)x->refs[i].field);
	}
	free(x->refs);
	free(x->nodes);
	free(x->src);
	free(x);
}

const char *
hq_expr_source(const struct hq_expr *x)
{
	return x->src;
}

size_t
hq_expr_nrefs(const struct hq_expr *x)
{
	return x->nrefs;
}

const struct hq_expr_ref *
hq_expr_ref(const struct hq_expr *x, size_t i)
{
	return i < x->nrefs ? &x->refs[i] : NULL;
}

/* The value of an operand node: 0, or -1 when it has none. */
static int
operand(const struct hq_expr *x, int i, hq_expr_lookup lookup, void *ctx,
    double *v)
{
	const struct node *nd = &x->nodes[i];

	if (nd->type == N_NUM) {
		*v = nd->num;
		return 0;
	}
	if (lookup(ctx, nd->ref, v) != 0 || isnan(*v))
		return -1;
	return 0;
}

static int
eval(const struct hq_expr *x, int i, hq_expr_lookup lookup, void *ctx)
{
	const struct node *nd = &x->nodes[i];
	double a, b;

	switch (nd->type) {
	case N_AND:
	case N_OR:
		/* down the chain's left side in a loop (its terms right to
		 * left: they have no side effects), recursing only into the
		 * right of each, so a flat chain costs one level */
		for (;;) {
			int v = eval(x, nd->b, lookup, ctx);
			if (nd->type == N_AND ? !v : v)
				return v;
			if (x->nodes[nd->a].type != nd->type)
				return eval(x, nd->a, lookup, ctx);
			nd = &x->nodes[nd->a];
		}
	case N_NOT:
		return !eval(x, nd->a, lookup, ctx);
	case N_CMP:
		if (operand(x, nd->a, lookup, ctx, &a) || operand(x, nd->b, lookup, ctx, &b))
			return 0;
		switch (nd->op) {
		case OP_LT: return a < b;
		case OP_LE: return a <= b;
		case OP_GT: return a > b;
		case OP_GE: return a >= b;
		case OP_EQ: return a == b;
		case OP_NE: return a != b;
		}
		return 0;
	default:
		/* A bare operand is true when it has a non-zero value. */
		return operand(x, i, lookup, ctx, &a) == 0 && a != 0;
	}
}

int
hq_expr_eval(const struct hq_expr *x, hq_expr_lookup lookup, void *ctx)
{
	return eval(x, (int)x->n - 1, lookup, ctx);
}
