/*
 * fuzz_expr — mangled --where/--when expressions (lib/query/expr.c), which a
 * user or a model writes: each line of an input is parsed, its references
 * listed, and evaluated against values that exist for some references and
 * not for others; then freed.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "hq/expr.h"

const char fuzz_hot[] = "()[]<>=!.-+ \t0123456789e_";
const char *const fuzz_words[] = {
	" and ", " or ", "not ", "(", ")", "[-1]", "[0]", "[", "]", ".max",
	".sum", "value", "avg", "p90", "glucose", "<", "<=", ">", ">=", "==",
	"!=", "=", "1e309", "-1e309", "nan", "inf", "0x10", "-", "--", ".",
	"99999999999999999999", "[-2147483649]", "[9999999999]", "\xC3\xA9",
	"\xFF", "0X1p4", "infinity", "1e-400", ".5", "5.", " && ", " || ", NULL
};

static int
lookup(void *ctx, size_t ref, double *v)
{
	(void)ctx;
	if (ref % 3 == 2)
		return -1;   /* no value that day */
	*v = ref % 3 ? -1.5 : 100.0;
	return 0;
}

static void
one(const char *src)
{
	struct hq_err e;
	struct hq_expr *x = hq_expr_parse(src, &e);

	if (!x)
		return;
	for (size_t i = 0; i < hq_expr_nrefs(x); i++) {
		const struct hq_expr_ref *r = hq_expr_ref(x, i);
		if (!r->field || (r->metric && !*r->metric))
			abort();
	}
	if (strcmp(hq_expr_source(x), src) != 0)
		abort();
	hq_expr_eval(x, lookup, NULL);
	hq_expr_free(x);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = hq_xmalloc(size + 1), *line, *nl;

	memcpy(s, data, size);
	s[size] = '\0';
	/* The whole input (a NUL ends it, as in a C string), then each line. */
	one(s);
	for (line = s; (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		one(line);
	}
	one(line);
	free(s);
	return 0;
}
