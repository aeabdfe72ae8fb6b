/*
 * cgm_out — `hq-report cgm` (cgm_out.h): cgm_read.c's metrics and AGP as
 * rows, or the AGP drawn (cgm_svg.c).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "hq/cgm_out.h"
#include "hq/cgm_svg.h"
#include "hq/rowdesc.h"
#include "hq/time.h"

#define CGM(k, t, f) HQ_COL_AT(k, t, struct hq_cgm_metrics, f)
/* Every field, in hq-report(1)'s order (cgm; cgm.c's hq_cgm_field()). */
static const struct hq_col cgm_wide_cols[] = {
	{ CGM("from", HQ_COL_DAY, from_day) },
	{ CGM("to", HQ_COL_DAY, to_day) },
	{ CGM("days", HQ_COL_LONG, days) },
	{ CGM("readings", HQ_COL_LONG, readings) },
	{ CGM("coverage_pct", HQ_COL_NUM, coverage_pct) },
	{ CGM("mean", HQ_COL_NUM, mean) },
	{ CGM("sd", HQ_COL_NUM, sd) },
	{ CGM("cv", HQ_COL_NUM, cv) },
	{ CGM("gmi", HQ_COL_NUM, gmi) },
	{ CGM("tir", HQ_COL_NUM, tir) },
	{ CGM("titr", HQ_COL_NUM, titr) },
	{ CGM("tbr", HQ_COL_NUM, tbr) },
	{ CGM("tbr2", HQ_COL_NUM, tbr2) },
	{ CGM("tar", HQ_COL_NUM, tar) },
	{ CGM("tar2", HQ_COL_NUM, tar2) },
	{ CGM("j_index", HQ_COL_NUM, j_index) },
	{ CGM("lbgi", HQ_COL_NUM, lbgi) },
	{ CGM("hbgi", HQ_COL_NUM, hbgi) },
	{ CGM("gri", HQ_COL_NUM, gri) },
	{ HQ_COL_K("unit", "mg/dL") },
	{ .key = NULL },
};

/* The fields 80 columns have room for when a table has a row per bucket
 * (JSON and CSV have them all). */
static const struct hq_col cgm_narrow_cols[] = {
	{ CGM("from", HQ_COL_DAY, from_day) },
	{ CGM("days", HQ_COL_LONG, days) },
	{ CGM("mean", HQ_COL_NUM, mean) },
	{ CGM("cv", HQ_COL_NUM, cv) },
	{ CGM("gmi", HQ_COL_NUM, gmi) },
	{ CGM("tir", HQ_COL_NUM, tir) },
	{ CGM("tbr", HQ_COL_NUM, tbr) },
	{ CGM("tbr2", HQ_COL_NUM, tbr2) },
	{ CGM("tar", HQ_COL_NUM, tar) },
	{ CGM("tar2", HQ_COL_NUM, tar2) },
	{ CGM("gri", HQ_COL_NUM, gri) },
	{ .key = NULL },
};

static int
agp_time(const void *row, char *buf, size_t n)
{
	int slot = ((const struct hq_cgm_agp_row *)row)->slot;

	snprintf(buf, n, "%02d:%02d", slot / 4, slot % 4 * 15);
	return 0;
}

#define AGP(k, t, f) HQ_COL_AT(k, t, struct hq_cgm_agp_row, f)
static const struct hq_col agp_cols[] = {
	{ HQ_COL_FN("time", agp_time) },
	{ AGP("p5", HQ_COL_NUM, p5) },
	{ AGP("p25", HQ_COL_NUM, p25) },
	{ AGP("p50", HQ_COL_NUM, p50) },
	{ AGP("p75", HQ_COL_NUM, p75) },
	{ AGP("p95", HQ_COL_NUM, p95) },
	{ AGP("n", HQ_COL_LONG, n) },
	{ HQ_COL_K("unit", "mg/dL") },
	{ .key = NULL },
};

/* "no glucose readings from 2024-06-01 to 2024-06-30" */
static void
no_readings(const struct hq_cgm_report_opts *o, struct hq_err *e)
{
	char from[16] = "", to[16] = "";

	if (o->from != INT64_MIN)
		hq_time_format_date(o->from, from, sizeof from);
	if (o->to != INT64_MAX)
		hq_time_format_date(o->to - 1, to, sizeof to);
	if (!*from && !*to)
		hq_err_set(e, "no glucose readings in the store: import a CGM "
		    "file (Dexcom Clarity, LibreView) or an Apple Health export "
		    "with hq-ingest");
	else
		hq_err_set(e, "no glucose readings%s%s%s%s", *from ? " from " : "",
		    from, *to ? " to " : " on", *to ? to : "");
}

/* The report's rows into out: the AGP's, or the metrics'. */
static void
cgm_rows(struct hq_out *out, const struct hq_cgm_report_opts *o,
    const struct hq_cgm_report *r)
{
	int table = hq_out_format(out) == HQ_FMT_TABLE;

	if (o->agp) {
		for (int i = 0; i < HQ_CGM_AGP_SLOTS; i++) {
			struct hq_cgm_agp_row a = r->agp[i];
			a.slot = i;
			hq_out_row(out, agp_cols, &a);
		}
		return;
	}
	for (size_t i = 0; i < r->nrows; i++)
		hq_out_row(out, !table || r->nrows == 1 ? cgm_wide_cols :
		    cgm_narrow_cols, &r->rows[i].m);
	if (table)
		hq_out_keyvalue(out);
}

int
hq_cgm_report_print(struct hq_store *s, const struct hq_cgm_report_opts *o,
    const char *format, FILE *fp, struct hq_err *e)
{
	struct hq_cgm_report_opts oo = *o;
	struct hq_cgm_report r;
	enum hq_format f = HQ_FMT_AUTO;
	int draw = format && (strcmp(format, "svg") == 0 ||
	    strcmp(format, "html") == 0);
	int rc, status = 0;

	if (format && !draw && hq_output_parse_format(format, &f)) {
		hq_err_set(e, "unknown format '%s'", format);
		return -1;
	}
	oo.agp = o->agp || draw;
	if ((rc = hq_cgm_report_run(s, &oo, &r, e)) <= 0) {
		if (rc == 0)
			no_readings(o, e);
		return rc < 0 ? -1 : 1;
	}
	if (draw) {
		status = (strcmp(format, "svg") == 0 ? hq_cgm_svg_write(fp, &r) :
		    hq_cgm_html_write(fp, &r)) ? -1 : 0;
		if (status)
			hq_err_set(e, "writing the AGP failed");
	} else {
		struct hq_out *out = hq_out_new(fp, f);
		cgm_rows(out, o, &r);
		if (hq_out_free(out)) {
			hq_err_set(e, "writing the rows failed");
			status = -1;
		}
	}
	hq_cgm_report_free(&r);
	return status;
}
