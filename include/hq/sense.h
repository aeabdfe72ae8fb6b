/*
 * sense — numbers for people (tables and pages; JSON and CSV keep every
 * digit through output.c's hq_format_number). Never scientific notation:
 * a value is rounded as its unit says a person reads it — steps whole,
 * with thousands separators (14,519), a heart rate or a weight to a
 * tenth, kcal and mg/dL whole, hours as "6 h 44 min" — a change with its
 * sign (+0.3, -1,256, -10 min), a duration as h:mm:ss and a pace as m:ss.
 * Never "-0". NaN is "-". Every text goes into the caller's buffer.
 */
#ifndef HQ_SENSE_H
#define HQ_SENSE_H

#include <stddef.h>

enum {
	HQ_SENSE_SIGN = 1,   /* a change: "+" before a value above 0 */
	HQ_SENSE_UNIT = 2,   /* the unit after the number ("72.0 kg"; none
	                      * for a count or a value without one) */
};

/* v to decimals places, thousands separated ("14,519", "-1,256.5"). */
void hq_sense_fixed(double v, int decimals, int flags, char *buf, size_t n);
/* The decimals a value in unit is read to: 0 for counts, kcal, min,
 * mg/dL, bpm, W, m; 1 for a heart rate in count/min, ms, kg, lb, %,
 * km/h, mmol/L, no unit (a load, a fitness); 2 for km, mi, m/beat; by
 * its size for another (2 under 1, 1 under 100, else 0). */
int hq_sense_decimals(const char *unit, double v);
/* v in unit as a person reads it: hq_sense_fixed to the unit's decimals,
 * hours ("h") as "6 h 44 min" ("13 h" when whole, "44 min" under one). */
void hq_sense_value(double v, const char *unit, int flags, char *buf,
    size_t n);
/* Seconds as h:mm:ss, or m:ss under an hour (the second rounded). */
void hq_sense_clock(double seconds, char *buf, size_t n);
/* A pace in minutes per km (or mile) as m:ss ("4:45"). */
void hq_sense_pace(double minutes, char *buf, size_t n);

#endif
