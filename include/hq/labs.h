/*
 * labs — lab results: the catalog of tests, units and their conversions,
 * flags, and the readers of lab files (CSV and JSON lines here; FHIR in
 * fhir.h).
 *
 * The catalog is static: a test (ldl, hba1c, vitamin_d, ...) has aliases,
 * the LOINC codes that belong to its group (a mass and a molar code are
 * different codes, and the unit a result is written in picks between them),
 * a canonical unit, and what it takes to convert between its units: a molar
 * mass linking mass and molar concentrations, or a factor of its own
 * (HbA1c % to mmol/mol). There is never one global mg/dL to mmol/L factor.
 * Every pointer the catalog returns is borrowed and lives for the program.
 *
 * A reader hands each result to a callback as a struct hq_lab_result it
 * owns; the callback copies what it keeps. Free text (names, sources, text
 * values) longer than its field is cut; a unit, a code, a number or a date
 * that does not fit or does not parse is an error naming file:line.
 */
#ifndef HQ_LABS_H
#define HQ_LABS_H

#include <stddef.h>
#include <stdint.h>

#include "hq/err.h"

struct hq_lab_code {
	const char *loinc;
	const char *unit;       /* the unit family the code is for: "mg/dL" */
	const char *method;     /* "calculated", "direct", "hs"; "" unspecified */
};

struct hq_lab_test {
	const char *name;        /* snake_case, unique: "ldl" */
	const char *aliases;     /* space-separated */
	const char *description; /* "LDL cholesterol" */
	const char *unit;        /* canonical unit */
	const char *units;       /* the units people use, space-separated */
	double molar_mass;       /* g/mol linking mass and molar units; 0: none */
	const struct hq_lab_code *codes;
	/* A unit with a factor of its own: value in unit = canonical * factor
	 * + offset (HbA1c mmol/mol, insulin pmol/L, sodium mEq/L). */
	const char *extra_unit;
	double extra_factor, extra_offset;
};

size_t hq_labs_count(void);
const struct hq_lab_test *hq_labs_at(size_t i);
/* By name, alias (case-insensitive, spaces and '-' as '_') or LOINC code;
 * NULL when unknown. */
const struct hq_lab_test *hq_labs_lookup(const char *name);
/* The test a LOINC code belongs to, and the code's entry (code may be
 * NULL); NULL when the catalog does not know the code. */
const struct hq_lab_test *hq_labs_by_loinc(const char *loinc,
    const struct hq_lab_code **code);
/* The closest test name or alias to name into buf, or NULL. */
const char *hq_labs_suggest(const char *name, char *buf, size_t n);
/* The catalog's code for a result of t written in unit (normalised), or
 * NULL: the unit picks the code (mg/dL LDL 2089-1, mmol/L LDL 22748-8). */
const char *hq_labs_code_for_unit(const struct hq_lab_test *t,
    const char *unit);
/* The method a code names ("calculated", "direct", "hs") or "". */
const char *hq_labs_method(const char *loinc);

/* The units hq knows by name, for completion: NULL past the end. */
const char *hq_labs_unit_at(size_t i);
/* A unit as written ("mg/dl", "µmol/L", "x10E3/uL") in hq's spelling
 * ("mg/dL", "umol/L", "10*3/uL"); an unknown unit is copied trimmed. */
void hq_labs_unit_normalise(const char *unit, char *buf, size_t n);
/* Convert v of test t (NULL: a test not in the catalog, so only units of
 * one kind convert, mg/dL to mg/L) from one unit to another (both
 * normalised). 0, or -1 when hq does not know how (*out = v). */
int hq_labs_convert(const struct hq_lab_test *t, double v, const char *from,
    const char *to, double *out);

/* Whether s is a LOINC code: digits, '-', and the right check digit. */
int hq_labs_loinc_valid(const char *s);

/* A name as a test key: "LDL Cholesterol (calc)" → "ldl_cholesterol_calc". */
void hq_labs_snake(const char *name, char *buf, size_t n);

/* ------------------------------------------------------------------ */
/* Results                                                              */

struct hq_lab_result {
	char test[64];          /* catalog name, or the file's name in snake_case */
	char name[128];         /* the test's name as the file wrote it */
	char loinc[16];         /* the result's code (see hq_labs_resolve) */
	int64_t time;           /* collection instant, UTC seconds */
	int has_time;           /* 0: the file gave a date only (local midnight) */
	char date[11];          /* the local date of time, YYYY-MM-DD */
	double value;           /* NaN: no number (text only) */
	char comparator[3];     /* "", "<", "<=", ">", ">=" */
	char text[128];         /* a value that is not a number ("NEGATIVE") */
	char unit[32];          /* normalised */
	double ref_low, ref_high;  /* NaN: none */
	char ref_text[64];      /* a range given as text ("<130"), as written */
	char lab_flag[4];       /* the lab's own flag: H, L, N, A or "" */
	char source[128];
	char id[128];           /* the FHIR resource id; "" for other formats */
	char status[24];        /* FHIR status ("final", "amended"); "" */
};

/* A result with the readers' defaults: no value, no range, no time. */
void hq_labs_result_init(struct hq_lab_result *r);
/* Fill test (and loinc, when the file gave none and the catalog has a
 * code for the unit) from r->loinc, r->name and r->unit: a code the
 * catalog knows decides the test; otherwise the name (an alias, or the
 * name in snake_case). */
void hq_labs_resolve(struct hq_lab_result *r);
/* Whether a status supersedes an earlier result (amended, corrected). */
int hq_labs_supersedes(const char *status);

/* The flag of a value against a reference range: "H", "L" or "N" (limits
 * inclusive; a one-sided range flags its side only), "" when the range is
 * upside down or absent and the lab gave no flag (then lab_flag decides
 * when it is H, L or N). value NaN (text only): lab_flag or "". */
const char *hq_labs_flag(double value, double low, double high,
    const char *lab_flag);
/* The lab's own flag as written ("H", "High", "HH", "Normal", "A", ">")
 * as H, L, N, A or "". */
const char *hq_labs_lab_flag(const char *s);
/* A value as written: "<5", "<= 0.5", ">1000", "5.2", "NEGATIVE" →
 * comparator and number, or text. 0, or -1 when s is empty. */
int hq_labs_parse_value(const char *s, struct hq_lab_result *r);
/* A comparator at the start of s ("<", "<=", "≤", ...) into cmp as
 * "<", "<=", ">" or ">=": its length in bytes, 0 when there is none. */
size_t hq_labs_comparator(const char *s, char cmp[3]);
/* Copy s trimmed of spaces into dst, cut to n - 1 bytes at a UTF-8
 * character boundary (free text: names, sources). */
void hq_labs_copy_text(char *dst, size_t n, const char *s);
/* A range written as text: "<130", "<=130", ">40", "3.5-5.0", "3.5 - 5.0",
 * "3.5 to 5.0" → low/high (NaN for the open side). -1 when not a range. */
int hq_labs_parse_range(const char *s, double *low, double *high);
/* A date or date-time as a collection time (r->time, r->has_time,
 * r->date in the local zone). Partial FHIR dates (2013, 2013-04) stand for
 * their first day. 0 or -1. */
int hq_labs_parse_date(const char *s, struct hq_lab_result *r);

/* ------------------------------------------------------------------ */
/* Readers                                                              */

typedef int hq_lab_emit_fn(void *arg, const struct hq_lab_result *r,
    struct hq_err *e);

struct hq_lab_sink {
	const char *file;       /* for messages */
	const char *source;     /* when the file names none; may be NULL */
	hq_lab_emit_fn *emit;
	void *arg;
	long read;              /* results handed to emit */
	long skipped;           /* entries that are not usable lab results */
};

/* CSV: a header naming date, test, value, unit, ref_low, ref_high (any
 * order; loinc, source, flag optional; other columns ignored), then a
 * result per line. Feed every line, header first, with its number. */
struct hq_labs_csv;
struct hq_labs_csv *hq_labs_csv_new(struct hq_lab_sink *sink);
int hq_labs_csv_line(struct hq_labs_csv *c, char *line, size_t len,
    long lineno, struct hq_err *e);
void hq_labs_csv_free(struct hq_labs_csv *c);
/* Whether a first line is a lab CSV header. */
int hq_labs_csv_sniff(const char *line, size_t len);

/* One JSON object of JSON lines: {"date","test","value","unit","ref_low",
 * "ref_high","loinc","source","flag"}; value a number or a string ("<5"),
 * limits numbers or null. line is where it starts, for messages. */
struct cJSON;
int hq_labs_json(struct hq_lab_sink *sink, const struct cJSON *obj,
    long line, struct hq_err *e);
/* Whether a JSON object looks like a lab result (has "test" and "date"). */
int hq_labs_json_sniff(const struct cJSON *obj);

#endif
