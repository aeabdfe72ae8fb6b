/*
 * number — hq's one number syntax, wherever a number is typed: option
 * values (opts.h), --when and --where, a model's tool arguments, the
 * config's settings. Its functions keep the hq_opts_ names they had when
 * they lived in the option loop's file; opts.h includes this header.
 */
#ifndef HQ_NUMBER_H
#define HQ_NUMBER_H

/* Strict number parsing for option values: 0, or -1 when s is not wholly a
 * number within [min, max]. */
int hq_opts_parse_long(const char *s, long min, long max, long *out);
int hq_opts_parse_double(const char *s, double *out);

/* hq's one number syntax, wherever a number is typed (options, --when and
 * --where, a model's tool arguments): decimal only, [+-]digits[.digits]
 * or [+-].digits, with an optional exponent e[+-]digits; never hex
 * (0x10), inf, infinity or nan, which strtod() takes. The number must be
 * finite and representable: 1e400 (and 1e-400, which underflows) are out
 * of range. hq_opts_scan_number() reads the number at the start of s and
 * sets *end past it: 0; HQ_NUM_SYNTAX when s does not start with a
 * decimal number or one runs on into letters (0x10, 1e, 5abc);
 * HQ_NUM_RANGE when it is out of range. */
#define HQ_NUM_SYNTAX (-1)
#define HQ_NUM_RANGE (-2)
int hq_opts_scan_number(const char *s, const char **end, double *out);
/* The same number followed at once by a unit (2km, 7h, 1.5e3m): *end at
 * the unit. Same returns. */
int hq_opts_scan_quantity(const char *s, const char **end, double *out);

#endif
