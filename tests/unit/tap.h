/*
 * tap.h — a minimal TAP producer for unit tests (header-only).
 *
 *   plan_no_plan(); ok(cond, "name"); is_int(got, want, "name");
 *   is_str(got, want, "name"); is_dbl(got, want, eps, "name");
 *   like(text, "extended regex", "name"); unlike(...);
 *   return done_testing();
 */
#ifndef HQ_TAP_H
#define HQ_TAP_H

#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

static int __attribute__((format(printf, 2, 3), unused))
ok(int cond, const char *fmt, ...)
{
	va_list ap;

	tap_n++;
	printf("%sok %d - ", cond ? "" : "not ", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!cond)
		tap_failed++;
	return cond;
}

#define is_int(got, want, ...) do { \
	long long g_ = (long long)(got), w_ = (long long)(want); \
	if (!ok(g_ == w_, __VA_ARGS__)) \
		printf("#   got: %lld\n#   expected: %lld\n", g_, w_); \
} while (0)

#define is_str(got, want, ...) do { \
	const char *g_ = (got), *w_ = (want); \
	if (!ok(g_ && w_ ? strcmp(g_, w_) == 0 : g_ == w_, __VA_ARGS__)) \
		printf("#   got: '%s'\n#   expected: '%s'\n", \
		    g_ ? g_ : "(null)", w_ ? w_ : "(null)"); \
} while (0)

#define is_dbl(got, want, eps, ...) do { \
	double g_ = (got), w_ = (want); \
	if (!ok(fabs(g_ - w_) <= (eps), __VA_ARGS__)) \
		printf("#   got: %.10g\n#   expected: %.10g\n", g_, w_); \
} while (0)

/* Whether text matches the POSIX extended regex re (1), or not (0). */
static int __attribute__((unused))
tap_match(const char *text, const char *re)
{
	regex_t rx;
	int m;

	if (regcomp(&rx, re, REG_EXTENDED | REG_NOSUB) != 0)
		return -1;
	m = text && regexec(&rx, text, 0, NULL, 0) == 0;
	regfree(&rx);
	return m;
}

#define like(text, re, ...) do { \
	const char *t_ = (text); \
	if (!ok(tap_match(t_, (re)) == 1, __VA_ARGS__)) \
		printf("#   %s\n#   does not match: %s\n", t_ ? t_ : "(null)", (re)); \
} while (0)

#define unlike(text, re, ...) do { \
	const char *t_ = (text); \
	if (!ok(tap_match(t_, (re)) == 0, __VA_ARGS__)) \
		printf("#   %s\n#   matches: %s\n", t_ ? t_ : "(null)", (re)); \
} while (0)

static int __attribute__((unused))
done_testing(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
