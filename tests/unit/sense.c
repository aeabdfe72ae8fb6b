/* Unit tests for lib/render/sense.c: numbers for people, never scientific
 * notation, rounded to the unit's sense; and hq_format_short's tiny
 * numbers (output.c). */
#include <math.h>
#include <stdio.h>

#include "hq/output.h"
#include "hq/sense.h"
#include "tap.h"

static const char *
value(double v, const char *unit, int flags)
{
	static char buf[64];

	hq_sense_value(v, unit, flags, buf, sizeof buf);
	return buf;
}

int
main(void)
{
	char buf[64];

	is_str(value(14518.9, "count", 0), "14,519", "steps whole, thousands separated");
	is_str(value(-1256.3, "count", HQ_SENSE_SIGN), "-1,256", "a change of steps");
	is_str(value(1234567, "count", 0), "1,234,567", "millions");
	is_str(value(999.6, "count", 0), "1,000", "rounded up into the thousands");
	is_str(value(6.731, "h", 0), "6 h 44 min", "sleep in hours and minutes");
	is_str(value(-0.1666, "h", HQ_SENSE_SIGN), "-10 min", "a change of sleep");
	is_str(value(1.02, "h", HQ_SENSE_SIGN), "+1 h 1 min", "a longer night");
	is_str(value(13, "h", HQ_SENSE_UNIT), "13 h", "whole hours (the stand ring)");
	is_str(value(0.001, "h", HQ_SENSE_SIGN), "0 min", "no change: no sign");
	is_str(value(0.2693, "ms", HQ_SENSE_SIGN), "+0.3", "a change of HRV, to a tenth");
	is_str(value(64.86, "count/min", 0), "64.9", "a resting heart rate, to a tenth");
	is_str(value(72, "kg", HQ_SENSE_UNIT), "72.0 kg", "a weight with its unit");
	is_str(value(10000, "count", HQ_SENSE_UNIT), "10,000", "a count without its unit");
	is_str(value(97.34, "%", HQ_SENSE_UNIT), "97.3%", "a percentage");
	is_str(value(1137.6, "kcal", HQ_SENSE_UNIT), "1,138 kcal", "kcal whole");
	is_str(value(1.117e-12, "", 0), "0.0", "a fitness of 1.1e-12 is 0.0");
	is_str(value(-1.117e-12, "", HQ_SENSE_SIGN), "0.0", "never -0.0");
	is_str(value(-0.6256, "", HQ_SENSE_SIGN), "-0.6", "a change of fitness");
	is_str(value(NAN, "kg", HQ_SENSE_UNIT), "-", "no value");
	is_str(value(0.004, "furlong", 0), "0.00", "an unknown unit by its size");
	is_str(value(1234.5, "furlong", 0), "1,235", "... whole from 100");
	hq_sense_fixed(-1256.54, 1, 0, buf, sizeof buf);
	is_str(buf, "-1,256.5", "fixed with a fraction");
	hq_sense_fixed(1e20, 0, 0, buf, sizeof buf);
	is_str(buf, "100000000000000000000", "beyond 1e15: no grouping, no e");
	hq_sense_fixed(12345, 0, 0, buf, 5);
	is_str(buf, "12,3", "cut to the buffer, ended");
	hq_sense_clock(4479, buf, sizeof buf);
	is_str(buf, "1:14:39", "a duration as h:mm:ss");
	hq_sense_clock(1520, buf, sizeof buf);
	is_str(buf, "25:20", "under an hour, m:ss");
	hq_sense_pace(4.746, buf, sizeof buf);
	is_str(buf, "4:45", "a pace of 4.746 min/km is 4:45");
	hq_sense_pace(4.9999, buf, sizeof buf);
	is_str(buf, "5:00", "seconds rounded, never 4:60");
	hq_sense_pace(NAN, buf, sizeof buf);
	is_str(buf, "-", "no pace");
	hq_format_short(1.117e-12, buf, sizeof buf);
	is_str(buf, "0", "hq_format_short: no scientific notation");
	hq_format_short(2.055e-11, buf, sizeof buf);
	is_str(buf, "0", "hq_format_short: 2e-11 is 0");
	hq_format_short(0.0001234, buf, sizeof buf);
	is_str(buf, "0.0001234", "hq_format_short: 1.2e-4 as a decimal");
	return done_testing();
}
