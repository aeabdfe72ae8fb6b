/*
 * number — hq's one number syntax (number.h): option values, --when and
 * --where, a model's tool arguments, the config's numbers.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hq/number.h"

int
hq_opts_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int
hq_opts_scan_number(const char *s, const char **end, double *out)
{
	const char *p = s;
	size_t digits = 0;
	char *e;

	*end = s;
	if (*p == '+' || *p == '-')
		p++;
	for (; isdigit((unsigned char)*p); p++)
		digits++;
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			digits++;
	if (!digits)
		return HQ_NUM_SYNTAX;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdigit((unsigned char)*p))
			return HQ_NUM_SYNTAX;
		while (isdigit((unsigned char)*p))
			p++;
	}
	/* 0x10 or 5abc is not 0 followed by a name */
	if (isalnum((unsigned char)*p) || *p == '_' || *p == '.')
		return HQ_NUM_SYNTAX;
	/* strtod() reads exactly what was scanned: its hex, inf and nan
	 * forms all start with a letter after the sign or 0 */
	errno = 0;
	double v = strtod(s, &e);
	if (e != p)
		return HQ_NUM_SYNTAX;
	if (errno == ERANGE || !isfinite(v))
		return HQ_NUM_RANGE;
	*end = p;
	*out = v;
	return 0;
}

int
hq_opts_scan_quantity(const char *s, const char **end, double *out)
{
	char num[64];
	const char *e;
	size_t len = strspn(s, "0123456789.eE+-");
	int rc;

	*end = s;
	if (len == 0 || len >= sizeof num)
		return HQ_NUM_SYNTAX;
	memcpy(num, s, len);
	num[len] = '\0';
	if ((rc = hq_opts_scan_number(num, &e, out)))
		return rc;
	if (*e)
		return HQ_NUM_SYNTAX;
	*end = s + len;
	return 0;
}

int
hq_opts_parse_double(const char *s, double *out)
{
	const char *end;
	double v;

	if (!s || hq_opts_scan_number(s, &end, &v) || *end)
		return -1;
	*out = v;
	return 0;
}
