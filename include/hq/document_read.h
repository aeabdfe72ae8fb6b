/*
 * document_read — lab results and DEXA scans read back out of the store
 * (report.h writes them): the list of reports, a test's latest result
 * and trend, a scan's fields and two scans compared, and their charts
 * (document_svg.c). hq-report's rows of them are document_out.h's.
 * A document is what the store calls a report (report.h, its report
 * table): a lab report or a DEXA scan; the functions keep the store's
 * hq_report_ prefix.
 *
 * Reading hands rows to a callback; a row and its strings are borrowed for
 * the call. Functions return 0, 1 when there is nothing to show (e says
 * what was looked for), or -1 on an error (e set).
 */
#ifndef HQ_DOCUMENT_READ_H
#define HQ_DOCUMENT_READ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hq/err.h"
#include "hq/store.h"

struct hq_report_list_row {
	const char *kind, *date, *source;
	long n;                 /* tests (labs) or fields (dexa) */
};
typedef int hq_report_list_fn(void *arg, const struct hq_report_list_row *r,
    struct hq_err *e);
/* kind "labs", "dexa" or NULL for both; by date, oldest first. */
int hq_report_list(struct hq_store *s, const char *kind,
    hq_report_list_fn *fn, void *arg, struct hq_err *e);

struct hq_lab_row {
	const char *test, *name, *loinc, *date, *unit, *comparator, *text;
	int64_t time;           /* collection instant, UTC */
	const char *source, *flag, *method;
	double value, ref_low, ref_high;   /* NaN: none */
	double change;          /* trend: from the previous result; NaN first */
	int method_changed;     /* trend: another method than the previous one */
	int unconverted;        /* not in the unit asked for (no conversion) */
};
typedef int hq_lab_row_fn(void *arg, const struct hq_lab_row *r,
    struct hq_err *e);
/* A row as people write it, for tables: the value ("<5", "138",
 * "NEGATIVE") into value, the range ("70-99", "<=199", ">=40", "") into
 * range; either may be NULL. */
void hq_report_lab_text(const struct hq_lab_row *r, char *value, size_t vn,
    char *range, size_t rn);

/* A TEST operand (a catalog name, an alias, a LOINC code, or a name the
 * store holds) as the store's test name, into buf. -1 with e "unknown
 * test 'x' (did you mean y?)". */
int hq_report_lab_test(struct hq_store *s, const char *arg, char *buf,
    size_t n, struct hq_err *e);
/* The units a test can be shown in (catalog units and the units of its
 * stored results), space-separated, into buf. */
void hq_report_lab_units(struct hq_store *s, const char *test, char *buf,
    size_t n);
/* Check that every test can be shown in unit: -1 with e naming the units
 * of the first that cannot. */
int hq_report_lab_unit_ok(struct hq_store *s, const char *const *tests,
    size_t n, const char *unit, struct hq_err *e);

/* The newest result of each test (every test in the store when n == 0),
 * by test name; in unit when not NULL. */
int hq_report_labs_latest(struct hq_store *s, const char *const *tests,
    size_t n, const char *unit, hq_lab_row_fn *fn, void *arg,
    struct hq_err *e);
/* Every result of a test, oldest first, in unit (NULL: the newest
 * result's unit), with the change from the previous one (NaN on the
 * first, or across units that do not convert); a change of method (LDL
 * calculated vs direct, CRP vs hs-CRP) is marked and keeps its change. */
int hq_report_labs_trend(struct hq_store *s, const char *test,
    const char *unit, hq_lab_row_fn *fn, void *arg, struct hq_err *e);
/* The unit a trend is shown in without --unit: the newest result's that
 * has a number and a unit ("" when none has). */
void hq_report_lab_trend_unit(struct hq_store *s, const char *test, char *buf,
    size_t n);
/* Every test name the store holds, in order, for completion. */
typedef int hq_report_name_fn(void *arg, const char *name);
int hq_report_lab_tests(struct hq_store *s, hq_report_name_fn *fn, void *arg,
    struct hq_err *e);
/* Every result of every test (trend labs' rows, test by test, oldest
 * first) flagged H or L whose local day lies in [from, to]: fn(arg, row,
 * its day). What alerts report and the week counts. 0, or -1 with e. */
typedef int hq_lab_flagged_fn(void *arg, const struct hq_lab_row *r,
    int64_t day);
int hq_report_labs_flagged(struct hq_store *s, int64_t from, int64_t to,
    hq_lab_flagged_fn *fn, void *arg, struct hq_err *e);

struct hq_dexa_row {
	const char *field, *unit;
	const char *date;                       /* latest */
	double value;
	const char *before_date, *after_date;   /* compare */
	double before, after, change, pct_change;   /* pct_change NaN: before <= 0 */
	double lsc_pct;         /* least significant change, %; NaN: no figure */
	int within_precision;   /* |pct_change| <= lsc_pct */
};
typedef int hq_dexa_row_fn(void *arg, const struct hq_dexa_row *r,
    struct hq_err *e);

/* Check a --fields list: -1 with e naming the first unknown field. */
int hq_report_dexa_fields_ok(const char *const *fields, size_t n,
    struct hq_err *e);
/* The newest scan's fields (only those listed when n > 0), in the
 * catalog's order. */
int hq_report_dexa_latest(struct hq_store *s, const char *const *fields,
    size_t n, hq_dexa_row_fn *fn, void *arg, struct hq_err *e);
/* Two scans: those of dates d1 and d2 (dates as typed: 2024-03-01,
 * 2024-03), or, when both are NULL, the oldest of the last `last` scans
 * (2 or more) against the newest. Fields present in only one are left
 * out. 1 when there are fewer scans than that (e says how many) or a date
 * has none. */
int hq_report_dexa_compare(struct hq_store *s, const char *d1, const char *d2,
    int last, const char *const *fields, size_t n, hq_dexa_row_fn *fn,
    void *arg, struct hq_err *e);
/* Charts: the trend of a test as a line over each result's own
 * reference range, out-of-range results in red and method changes
 * marked; a comparison as before/after bars per field, changes within the
 * scanner's precision muted. Same returns as the row functions. */
int hq_report_labs_trend_svg(struct hq_store *s, const char *test,
    const char *unit, FILE *fp, struct hq_err *e);
int hq_report_dexa_compare_svg(struct hq_store *s, const char *d1,
    const char *d2, int last, const char *const *fields, size_t n, FILE *fp,
    struct hq_err *e);

/* The precision figure hq knows for a field (coefficient of variation, %)
 * and where it comes from, or NaN. */
double hq_report_dexa_cv(const char *field, const char **why);

#endif
