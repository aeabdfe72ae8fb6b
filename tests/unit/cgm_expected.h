/*
 * cgm_expected.h — the expected values base R computed for the CGM tests
 * (tests/data/cgm/expected.R writes tests/data/cgm/expected.txt), for
 * tests/unit/cgm*.c. Header-only, like tap.h; include it after tap.h.
 */
#ifndef HQ_CGM_EXPECTED_H
#define HQ_CGM_EXPECTED_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/cgm.h"

#define DATA "tests/data/cgm/"

/* The value of key on the line of expected.txt that starts with name. */
static double __attribute__((unused))
expected(const char *name, const char *key)
{
	static char buf[1 << 16];
	static size_t len;
	char pat[64];
	const char *line, *p;

	if (!len) {
		FILE *f = fopen(DATA "expected.txt", "r");
		if (!f)
			return NAN;
		len = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
	}
	snprintf(pat, sizeof pat, "%s ", name);
	for (line = buf; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, pat, strlen(pat)) != 0)
			continue;
		snprintf(pat, sizeof pat, " %s=", key);
		p = strstr(line, pat);
		if (!p || (strchr(line, '\n') && p > strchr(line, '\n')))
			return NAN;
		return strtod(p + strlen(pat), NULL);
	}
	return NAN;
}

/* |got - want| within 1e-9 relative (absolute near zero). */
static int __attribute__((unused))
close9(double got, double want)
{
	return fabs(got - want) <= 1e-9 * (fabs(want) > 1 ? fabs(want) : 1);
}

#define is_r(got, name, key) do { \
	double w_ = expected(name, key), g_ = (got); \
	if (!ok(close9(g_, w_), "%s %s = R's %.12g", name, key, w_)) \
		printf("#   got: %.17g\n", g_); \
} while (0)

/* Every field of a row against R's value on the line name of
 * expected.txt (those R printed). */
static void __attribute__((unused))
against_r(const struct hq_cgm_metrics *m, const char *name)
{
	const char *f;

	for (size_t i = 0; (f = hq_cgm_field(i)); i++)
		if (!isnan(expected(name, f)))
			is_r(hq_cgm_value(m, f), name, f);
}

#endif
