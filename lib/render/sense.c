#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hq/sense.h"

void
hq_sense_fixed(double v, int decimals, int flags, char *buf, size_t n)
{
	char digits[64], *dot;
	size_t len, head, k = 0, out = 0;
	double scale = pow(10, decimals);

	if (isnan(v)) {
		snprintf(buf, n, "-");
		return;
	}
	if (isinf(v) || fabs(v) >= 1e15) {       /* no grouping so far out */
		snprintf(buf, n, "%.0f", v);
		return;
	}
	v = round(v * scale) / scale;
	if (v == 0)
		v = 0;                               /* never "-0" */
	snprintf(digits, sizeof digits, "%.*f", decimals, fabs(v));
	dot = strchr(digits, '.');
	head = dot ? (size_t)(dot - digits) : strlen(digits);
	len = strlen(digits);
	if (n == 0)
		return;
	if (v < 0 || (v > 0 && (flags & HQ_SENSE_SIGN))) {
		if (out + 1 < n)
			buf[out++] = v < 0 ? '-' : '+';
	}
	for (k = 0; k < len && out + 1 < n; k++) {
		if (k > 0 && k < head && (head - k) % 3 == 0) {
			buf[out++] = ',';
			if (out + 1 >= n)
				break;
		}
		buf[out++] = digits[k];
	}
	buf[out] = '\0';
}

static const struct {
	const char *unit;
	int decimals;
} senses[] = {
	{ "count", 0 }, { "min", 0 }, { "kcal", 0 }, { "kJ", 0 },
	{ "mg/dL", 0 }, { "bpm", 0 }, { "W", 0 }, { "m", 0 }, { "s", 0 },
	{ "count/min", 1 }, { "ms", 1 }, { "kg", 1 }, { "lb", 1 }, { "%", 1 },
	{ "km/h", 1 }, { "mph", 1 }, { "mmol/L", 1 }, { "", 1 },
	{ "km", 2 }, { "mi", 2 }, { "m/beat", 2 },
};

int
hq_sense_decimals(const char *unit, double v)
{
	for (size_t i = 0; i < sizeof senses / sizeof senses[0]; i++)
		if (strcmp(unit ? unit : "", senses[i].unit) == 0)
			return senses[i].decimals;
	return fabs(v) < 1 ? 2 : fabs(v) < 100 ? 1 : 0;
}

/* Hours as "6 h 44 min", to the minute. */
static void
hours(double v, int flags, char *buf, size_t n)
{
	long m = lround(fabs(v) * 60);
	const char *sign = m == 0 ? "" : v < 0 ? "-" :
	    flags & HQ_SENSE_SIGN ? "+" : "";

	if (m < 60)
		snprintf(buf, n, "%s%ld min", sign, m);
	else if (m % 60 == 0)
		snprintf(buf, n, "%s%ld h", sign, m / 60);
	else
		snprintf(buf, n, "%s%ld h %ld min", sign, m / 60, m % 60);
}

void
hq_sense_value(double v, const char *unit, int flags, char *buf, size_t n)
{
	size_t len;

	if (!unit)
		unit = "";
	if (!isnan(v) && strcmp(unit, "h") == 0) {
		hours(v, flags, buf, n);
		return;
	}
	hq_sense_fixed(v, hq_sense_decimals(unit, v), flags, buf, n);
	len = strlen(buf);
	if ((flags & HQ_SENSE_UNIT) && !isnan(v) && *unit &&
	    strcmp(unit, "count") != 0 && len < n)
		snprintf(buf + len, n - len, "%s%s", strcmp(unit, "%") ? " " : "",
		    unit);
}

void
hq_sense_clock(double seconds, char *buf, size_t n)
{
	long s;

	if (isnan(seconds) || seconds < 0) {
		snprintf(buf, n, "-");
		return;
	}
	s = lround(seconds);
	if (s >= 3600)
		snprintf(buf, n, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, n, "%ld:%02ld", s / 60, s % 60);
}

void
hq_sense_pace(double minutes, char *buf, size_t n)
{
	hq_sense_clock(isnan(minutes) ? NAN : minutes * 60, buf, n);
}
