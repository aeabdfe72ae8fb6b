/* Reports in the store: the same lab result from a CSV and a FHIR file
 * stored once, amendments, retractions, DEXA scans merged by date, clinical
 * records read into lab rows (two health systems with the same resource
 * id both kept), and the rows latest / trend / compare give. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hq/document_read.h"
#include "hq/fhir.h"
#include "hq/jsonin.h"
#include "hq/report.h"
#include "hq/time.h"
#include "fixture.h"
#include "tap.h"

static struct hq_store *store;
static struct hq_report_writer *writer;

static int
add_lab(void *arg, const struct hq_lab_result *r, struct hq_err *e)
{
	(void)arg;
	return hq_report_add_lab(writer, r, 0, e) < 0 ? -1 : 0;
}

static int
add_scan(void *arg, const struct hq_dexa_scan *s, struct hq_err *e)
{
	(void)arg;
	return hq_report_add_dexa(writer, s, e);
}

static struct hq_lab_sink sink = { .emit = add_lab };

static int
dexa_each(void *arg, const cJSON *v, long line, struct hq_err *e)
{
	return hq_dexa_json(arg, v, line, e);
}

static int
fhir_doc(void *arg, const cJSON *v, long line, struct hq_err *e)
{
	(void)arg;
	return hq_fhir_read(&sink, v, line, e);
}

/* One import: a transaction, a writer; the counts of the writer after. */
static struct hq_report_counts last;

static void
begin(void)
{
	struct hq_err e;

	hq_store_begin(store, &e);
	writer = hq_report_writer_new(store, 0);
}

static void
commit(void)
{
	struct hq_err e;

	last = *hq_report_writer_counts(writer);
	hq_report_writer_free(writer);
	hq_store_commit(store, &e);
}

static int
import_fhir_text(const char *text, const char *source)
{
	struct hq_err e;
	long n;

	begin();
	sink = (struct hq_lab_sink){ .file = "t.json", .source = source, .emit = add_lab };
	n = hq_jsonin_each(text, strlen(text), "t.json", 0, fhir_doc, NULL, &e);
	if (n < 0)
		printf("# %s\n", e.msg);
	commit();
	return n < 0 ? -1 : 0;
}

static int
import_file(const char *path)
{
	size_t len;
	char *buf = fixture_slurp(path, &len);
	int rc;

	if (!buf)
		return -1;
	if (strstr(path, ".csv")) {
		struct hq_err e;
		struct hq_labs_csv *c;
		char *line = buf, *nl;
		long no = 0;
		begin();
		sink = (struct hq_lab_sink){ .file = path, .emit = add_lab };
		c = hq_labs_csv_new(&sink);
		rc = 0;
		for (; rc == 0 && *line; line = nl + 1) {
			nl = strchr(line, '\n');
			if (!nl)
				nl = line + strlen(line) - 1;
			else
				*nl = '\0';
			rc = hq_labs_csv_line(c, line, strlen(line), ++no, &e);
		}
		if (rc)
			printf("# %s\n", e.msg);
		hq_labs_csv_free(c);
		commit();
	} else {
		rc = import_fhir_text(buf, NULL);
	}
	free(buf);
	return rc;
}

/* Rows of a query, kept as text for checks. */
static char rows[32][256];
static int nrows;

static int
keep_lab(void *arg, const struct hq_lab_row *r, struct hq_err *e)
{
	(void)arg, (void)e;
	if (nrows < 32)
		snprintf(rows[nrows++], sizeof rows[0], "%s %s %.10g%s %s [%.10g,%.10g] %s ch=%.10g%s%s",
		    r->test, r->date, r->value, r->comparator, r->unit, r->ref_low,
		    r->ref_high, r->flag, r->change, r->method_changed ? " METHOD" : "",
		    r->unconverted ? " UNCONVERTED" : "");
	return 0;
}

static int
keep_dexa(void *arg, const struct hq_dexa_row *r, struct hq_err *e)
{
	(void)arg, (void)e;
	if (nrows < 32)
		snprintf(rows[nrows++], sizeof rows[0], "%s %.10g→%.10g %s %.4g%% lsc=%.4g%s",
		    r->field, r->before, r->after, r->unit, r->pct_change, r->lsc_pct,
		    r->within_precision ? " noise" : "");
	return 0;
}

static int
keep_latest(void *arg, const struct hq_dexa_row *r, struct hq_err *e)
{
	(void)arg, (void)e;
	if (nrows < 32)
		snprintf(rows[nrows++], sizeof rows[0], "%s %s %.10g %s", r->field,
		    r->date, r->value, r->unit);
	return 0;
}

static const char *
row_of(const char *prefix)
{
	for (int i = 0; i < nrows; i++)
		if (strncmp(rows[i], prefix, strlen(prefix)) == 0)
			return rows[i];
	return "(none)";
}

static void
lab_results(void)
{
	struct hq_err e;
	char test[64];
	const char *one[1];

	is_int(import_file("tests/cli/data/labs/lipids.csv"), 0, "lipids.csv stored");
	is_int(last.inserted, 9, "nine results");
	is_int(import_file("tests/cli/data/labs/lipids.csv"), 0, "again");
	is_int(last.inserted, 0, "nothing new the second time");
	is_int(last.duplicates, 9, "nine duplicates");

	/* The same LDL as FHIR: date-only in the CSV, a time here; another
	 * source and format. */
	import_fhir_text("{\"resourceType\":\"Observation\",\"id\":\"ldl-1\",\"status\":\"final\","
	    "\"code\":{\"coding\":[{\"system\":\"http://loinc.org\",\"code\":\"13457-7\"}]},"
	    "\"effectiveDateTime\":\"2023-02-14T08:30:00-08:00\","
	    "\"valueQuantity\":{\"value\":138,\"unit\":\"mg/dl\"}}", "UCSF Health");
	is_int(last.duplicates, 1, "the CSV's LDL delivered again as FHIR: stored once");
	is_int(last.inserted, 0, "nothing inserted");

	/* An amendment of a FHIR result, and the original arriving later. */
	import_fhir_text("{\"resourceType\":\"Observation\",\"id\":\"glu-7\",\"status\":\"final\","
	    "\"code\":{\"coding\":[{\"system\":\"http://loinc.org\",\"code\":\"2345-7\"}]},"
	    "\"effectiveDateTime\":\"2024-05-01T08:00:00Z\",\"valueQuantity\":{\"value\":140,\"unit\":\"mg/dL\"},"
	    "\"referenceRange\":[{\"low\":{\"value\":70},\"high\":{\"value\":99}}]}", "Lab A");
	import_fhir_text("{\"resourceType\":\"Observation\",\"id\":\"glu-7\",\"status\":\"amended\","
	    "\"code\":{\"coding\":[{\"system\":\"http://loinc.org\",\"code\":\"2345-7\"}]},"
	    "\"effectiveDateTime\":\"2024-05-01T08:00:00Z\",\"valueQuantity\":{\"value\":104,\"unit\":\"mg/dL\"},"
	    "\"referenceRange\":[{\"low\":{\"value\":70},\"high\":{\"value\":99}}]}", "Lab A");
	is_int(last.superseded, 1, "the amendment supersedes the first result");
	nrows = 0;
	one[0] = "glucose";
	hq_report_labs_latest(store, one, 1, NULL, keep_lab, NULL, &e);
	is_str(row_of("glucose"), "glucose 2024-05-01 104 mg/dL [70,99] H ch=nan", "latest glucose is the amended 104");
	import_fhir_text("{\"resourceType\":\"Observation\",\"id\":\"glu-8\",\"status\":\"corrected\","
	    "\"code\":{\"coding\":[{\"system\":\"http://loinc.org\",\"code\":\"2345-7\"}]},"
	    "\"effectiveDateTime\":\"2024-06-01T08:00:00Z\",\"valueQuantity\":{\"value\":95,\"unit\":\"mg/dL\"}}", "Lab A");
	import_fhir_text("{\"resourceType\":\"Observation\",\"id\":\"glu-8\",\"status\":\"final\","
	    "\"code\":{\"coding\":[{\"system\":\"http://loinc.org\",\"code\":\"2345-7\"}]},"
	    "\"effectiveDateTime\":\"2024-06-01T08:00:00Z\",\"valueQuantity\":{\"value\":150,\"unit\":\"mg/dL\"}}", "Lab A");
	is_int(last.inserted, 1, "an original arriving after its correction is kept");
	nrows = 0;
	hq_report_labs_latest(store, one, 1, NULL, keep_lab, NULL, &e);
	ok(strstr(row_of("glucose"), " 95 ") != NULL, "but the correction stays the latest: %s", row_of("glucose"));

	/* Entered in error takes a result back. */
	import_fhir_text("{\"resourceType\":\"Observation\",\"id\":\"tsh-1\",\"status\":\"final\","
	    "\"code\":{\"coding\":[{\"system\":\"http://loinc.org\",\"code\":\"3016-3\"}]},"
	    "\"effectiveDateTime\":\"2024-05-01\",\"valueQuantity\":{\"value\":9.9,\"unit\":\"uIU/mL\"}}", "Lab A");
	import_fhir_text("{\"resourceType\":\"Observation\",\"id\":\"tsh-1\",\"status\":\"entered-in-error\","
	    "\"code\":{\"coding\":[{\"system\":\"http://loinc.org\",\"code\":\"3016-3\"}]}}", "Lab A");
	is_int(last.retracted, 1, "entered-in-error takes the result back");
	nrows = 0;
	one[0] = "tsh";
	is_int(hq_report_labs_latest(store, one, 1, NULL, keep_lab, NULL, &e), 1, "no TSH left");
	is_str(e.msg, "no tsh results in the store", "says so");

	/* Latest of several tests, converted. */
	const char *two[2] = { "ldl", "total_cholesterol" };
	nrows = 0;
	is_int(hq_report_labs_latest(store, two, 2, NULL, keep_lab, NULL, &e), 0, "latest ldl, total_cholesterol");
	is_str(row_of("ldl"), "ldl 2024-03-01 2.6 mmol/L [nan,3] N ch=nan", "LDL as written (mmol/L)");
	nrows = 0;
	hq_report_labs_latest(store, two, 2, "mg/dL", keep_lab, NULL, &e);
	is_str(row_of("ldl"), "ldl 2024-03-01 100.542 mg/dL [nan,116.01] N ch=nan", "LDL in mg/dL (× 38.67), limit too");

	/* Trend: oldest first, in the newest result's unit. */
	nrows = 0;
	is_int(hq_report_labs_trend(store, "ldl", NULL, keep_lab, NULL, &e), 0, "trend ldl");
	is_int(nrows, 2, "two results");
	is_str(rows[0], "ldl 2023-02-14 3.568657874 mmol/L [nan,2.560124127] H ch=nan", "the first in mmol/L");
	nrows = 0;
	hq_report_labs_trend(store, "hba1c", "mmol/mol", keep_lab, NULL, &e);
	is_str(rows[0], "hba1c 2023-02-14 38.801 mmol/mol [20.22,37.708] H ch=nan", "HbA1c in mmol/mol: 10.93 × 5.7 − 23.5");
	ok(strstr(rows[1], "<") != NULL, "the <5 keeps its comparator");

	/* Test names. */
	is_int(hq_report_lab_test(store, "LDL-C", test, sizeof test, &e), 0, "LDL-C");
	is_str(test, "ldl", "→ ldl");
	is_int(hq_report_lab_test(store, "22748-8", test, sizeof test, &e), 0, "a LOINC code");
	is_int(hq_report_lab_test(store, "Hepatitis B surface antigen", test, sizeof test, &e), 0, "a name only the store knows");
	is_str(test, "hepatitis_b_surface_antigen", "→ its snake name");
	is_int(hq_report_lab_test(store, "ldk", test, sizeof test, &e), -1, "unknown");
	is_str(e.msg, "unknown test 'ldk' (did you mean ldl?)", "did you mean");
	is_int(hq_report_lab_test(store, "hepatitis_b_surfce_antigen", test, sizeof test, &e), -1, "unknown");
	is_str(e.msg, "unknown test 'hepatitis_b_surfce_antigen' (did you mean hepatitis_b_surface_antigen?)", "a stored name suggested");
	one[0] = "hba1c";
	is_int(hq_report_lab_unit_ok(store, one, 1, "mmol/L", &e), -1, "HbA1c has no mmol/L");
	is_str(e.msg, "hba1c cannot be shown in 'mmol/L' (its units: % mmol/mol)", "names its units");
	one[0] = "ldl";
	is_int(hq_report_lab_unit_ok(store, one, 1, "mmol/L", &e), 0, "LDL in mmol/L");
}

/* A method change in a trend: calculated, then direct. */
static void
methods(void)
{
	struct hq_err e;

	import_fhir_text("{\"resourceType\":\"Bundle\",\"entry\":["
	    "{\"resource\":{\"resourceType\":\"Observation\",\"status\":\"final\",\"code\":{\"coding\":[{\"system\":\"http://loinc.org\",\"code\":\"1988-5\"}]},"
	    "\"effectiveDateTime\":\"2021-01-01\",\"valueQuantity\":{\"value\":4,\"unit\":\"mg/L\"}}},"
	    "{\"resource\":{\"resourceType\":\"Observation\",\"status\":\"final\",\"code\":{\"coding\":[{\"system\":\"http://loinc.org\",\"code\":\"1988-5\"}]},"
	    "\"effectiveDateTime\":\"2022-01-01\",\"valueQuantity\":{\"value\":3,\"unit\":\"mg/L\"}}},"
	    "{\"resource\":{\"resourceType\":\"Observation\",\"status\":\"final\",\"code\":{\"coding\":[{\"system\":\"http://loinc.org\",\"code\":\"30522-7\"}]},"
	    "\"effectiveDateTime\":\"2023-01-01\",\"valueQuantity\":{\"value\":0.8,\"unit\":\"mg/L\"}}}]}", "Lab B");
	nrows = 0;
	hq_report_labs_trend(store, "crp", NULL, keep_lab, NULL, &e);
	is_int(nrows, 3, "three CRP results");
	is_str(rows[1], "crp 2022-01-01 3 mg/L [nan,nan]  ch=-1", "standard → standard: a change");
	is_str(rows[2], "crp 2023-01-01 0.8 mg/L [nan,nan]  ch=-2.2 METHOD",
	    "standard → hs: marked, and the change from the previous result (0.8 - 3)");
}

static void
dexa(void)
{
	struct hq_err e;
	struct hq_dexa_sink ds = { .emit = add_scan };
	size_t len;
	char *buf;

	nrows = 0;
	is_int(hq_report_dexa_compare(store, NULL, NULL, 2, NULL, 0, keep_dexa, NULL, &e), 1, "no scans: nothing to compare");
	is_str(e.msg, "a comparison needs two DEXA scans; the store has 0", "says how many");

	buf = fixture_slurp(fixture_path("dexa", "ge-lunar-idxa-2020-01-22.json"), &len);
	begin();
	ds.file = "ge.json";
	ok(buf && hq_jsonin_each(buf, len, "ge.json", 0, dexa_each, &ds, &e) == 1, "the GE scan stored");
	commit();
	free(buf);
	is_int(last.inserted, 16, "16 fields");
	is_int(hq_report_dexa_compare(store, NULL, NULL, 2, NULL, 0, keep_dexa, NULL, &e), 1, "one scan: nothing to compare");
	is_str(e.msg, "a comparison needs two DEXA scans; the store has 1", "says how many");

	/* The CSV of the same scan: no source, joins it; nothing new. */
	struct hq_dexa_csv *c;
	buf = fixture_slurp(fixture_path("dexa", "ge-lunar-idxa-2020-01-22.csv"), &len);
	begin();
	c = hq_dexa_csv_new(&ds);
	long no = 0;
	for (char *line = buf, *nl; line && *line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		hq_dexa_csv_line(c, line, strlen(line), ++no, &e);
	}
	hq_dexa_csv_finish(c, &e);
	hq_dexa_csv_free(c);
	commit();
	free(buf);
	is_int(last.duplicates, 16, "the CSV of the same scan adds nothing");

	buf = fixture_slurp("tests/cli/data/dexa/bodyspec-2023.json", &len);
	begin();
	ok(buf && hq_jsonin_each(buf, len, "b.json", 0, dexa_each, &ds, &e) == 1, "two BodySpec scans");
	commit();
	free(buf);

	nrows = 0;
	is_int(hq_report_dexa_compare(store, NULL, NULL, 2, NULL, 0, keep_dexa, NULL, &e), 0, "the last two");
	is_int(nrows, 2, "two shared fields");
	is_str(row_of("total_body_fat_pct"), "total_body_fat_pct 24→22.1 % -7.917% lsc=nan", "body fat, no precision figure");
	is_str(row_of("vat_mass"), "vat_mass 498.951607→430 g -13.82% lsc=13.86 noise", "VAT −13.8 %%: within 2.77 × 5 %%");
	nrows = 0;
	is_int(hq_report_dexa_compare(store, NULL, NULL, 3, NULL, 0, keep_dexa, NULL, &e), 0, "--last 3");
	is_str(row_of("total_body_fat_pct"), "total_body_fat_pct 49.2→22.1 % -55.08% lsc=nan", "the oldest of the last three against the newest");
	is_int(hq_report_dexa_compare(store, NULL, NULL, 4, NULL, 0, keep_dexa, NULL, &e), 1, "--last 4 with three scans");
	is_str(e.msg, "the last 4 DEXA scans: the store has 3", "says how many");
	nrows = 0;
	const char *f[] = { "fat_mass", "lean_mass" };
	is_int(hq_report_dexa_compare(store, "2020-01-22", "2023-01", 0, f, 2, keep_dexa, NULL, &e), 0, "--dates 2020-01-22,2023-01 --fields fat_mass,lean_mass");
	is_int(nrows, 2, "two fields");
	is_str(row_of("lean_mass"), "lean_mass 34.60909783→55.11147296 kg 59.24% lsc=1.386", "lean mass: a change beyond 2.77 × 0.5 %%");
	is_int(hq_report_dexa_compare(store, "2019-01-01", "2023-01", 0, NULL, 0, keep_dexa, NULL, &e), 1, "a date without a scan");
	is_str(e.msg, "no DEXA scan on 2019-01-01", "says which");
	nrows = 0;
	is_int(hq_report_dexa_latest(store, NULL, 0, keep_latest, NULL, &e), 0, "latest");
	is_int(nrows, 2, "the newest scan's two fields");
	is_str(rows[0], "total_body_fat_pct 2023-07-12 22.1 %", "in the catalog's order");
	const char *bad[] = { "fat_mas" };
	is_int(hq_report_dexa_fields_ok(bad, 1, &e), -1, "an unknown field");
}

static int
count_list(void *arg, const struct hq_report_list_row *r, struct hq_err *e)
{
	(void)e;
	if (nrows < 32)
		snprintf(rows[nrows++], sizeof rows[0], "%s %s %s %ld", r->kind,
		    r->date, r->source, r->n);
	(void)arg;
	return 0;
}

static void
list(void)
{
	struct hq_err e;

	nrows = 0;
	is_int(hq_report_list(store, "dexa", count_list, NULL, &e), 0, "list dexa");
	is_int(nrows, 3, "three scans");
	is_str(rows[0], "dexa 2020-01-22 GE Lunar iDXA 16", "the GE scan, source from the JSON");
	nrows = 0;
	hq_report_list(store, "labs", count_list, NULL, &e);
	is_str(row_of("labs 2023-02-14"), "labs 2023-02-14 Quest 5", "labs: one row per date and source");
}

/* Clinical records: two systems, one resource id; read at backfill. */
#define OBS "{\"resourceType\":\"Observation\",\"id\":\"same-id\",\"status\":\"final\"," \
	    "\"category\":{\"coding\":[{\"code\":\"laboratory\"}]}," \
	    "\"code\":{\"coding\":[{\"system\":\"http://loinc.org\",\"code\":\"2085-9\"}]}," \
	    "\"effectiveDateTime\":\"2019-0%d-01\",\"valueQuantity\":{\"value\":%d,\"unit\":\"mg/dL\"}}"

static void
clinical(void)
{
	struct hq_err e;
	sqlite3_stmt *st;
	char json[1024];

	begin();
	for (int i = 0; i < 2; i++) {
		int64_t sid = hq_store_source_id(store, i ? "Kaiser" : "UCSF Health", 1, &e);
		hq_store_prepare(store, "INSERT OR IGNORE INTO clinical_record(type, identifier, "
		    "source_id, source_url, resource_path, resource) VALUES "
		    "('HKClinicalTypeIdentifierLabResultRecord', 'same-id', ?, ?, ?, ?)", &st, &e);
		snprintf(json, sizeof json, OBS, 3 + i, 50 + i);
		sqlite3_bind_int64(st, 1, sid);
		sqlite3_bind_text(st, 2, i ? "https://kp.org/fhir" : "https://ucsf.edu/fhir", -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, i ? "/clinical-records/Observation-same-id-1.json" :
		    "/clinical-records/Observation-same-id.json", -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, json, -1, SQLITE_TRANSIENT);
		sqlite3_step(st);
		ok(sqlite3_changes(hq_store_db(store)) == 1, "record %d of the same id kept", i + 1);
		sqlite3_finalize(st);
	}
	/* One that hq cannot read: skipped with a warning, the rest read. */
	hq_store_exec(store, "INSERT INTO clinical_record(type, identifier, resource) VALUES "
	    "('HKClinicalTypeIdentifierLabResultRecord', 'broken', "
	    "'{\"resourceType\":\"Observation\",\"code\":{\"text\":\"x\"},\"effectiveDateTime\":\"never\",\"valueQuantity\":{\"value\":1}}')", &e);
	is_int(hq_report_backfill(writer, NULL, NULL, &e), 0, "backfill");
	commit();
	is_int(last.inserted, 2, "both records became lab rows");
	is_int(last.skipped, 1, "the broken one skipped");
	begin();
	hq_report_backfill(writer, NULL, NULL, &e);
	commit();
	is_int(last.inserted + last.duplicates, 0, "read once only");
	nrows = 0;
	hq_report_labs_trend(store, "hdl", NULL, keep_lab, NULL, &e);
	is_str(row_of("hdl 2019-03-01"), "hdl 2019-03-01 50 mg/dL [nan,nan]  ch=nan", "UCSF's");
	is_str(row_of("hdl 2019-04-01"), "hdl 2019-04-01 51 mg/dL [nan,nan]  ch=1", "Kaiser's");
}

static void
warned(void *arg, const char *msg)
{
	snprintf(arg, 256, "%s", msg);
}

/* The checks every reader's results and scans pass (issue 23): a value
 * past 1e12 or not finite after conversion, a date more than a day after
 * the import: refused (2), nothing written; a clinical record so refused
 * is skipped with a warning, not a store error. */
static void
checks(void)
{
	struct hq_lab_result r;
	struct hq_dexa_scan *scan = calloc(1, sizeof *scan);
	struct hq_err e;
	char tomorrow[11], msg[256] = "";
	long before;

	begin();
	hq_labs_result_init(&r);
	snprintf(r.test, sizeof r.test, "ldl");
	snprintf(r.unit, sizeof r.unit, "mg/dL");
	hq_labs_parse_date("9999-12-31", &r);
	r.value = 90;
	is_int(hq_report_add_lab(writer, &r, 0, &e), 2, "a result dated 9999-12-31: refused");
	is_str(e.msg, "date 9999-12-31 is in the future (more than a day after this import)",
	    "saying why");
	hq_time_format_date((int64_t)time(NULL) + 86400, tomorrow, sizeof tomorrow);
	hq_labs_parse_date(tomorrow, &r);
	is_int(hq_report_add_lab(writer, &r, 0, &e), 1, "tomorrow's: stored");
	hq_labs_parse_date("2020-01-01", &r);
	r.value = INFINITY;
	is_int(hq_report_add_lab(writer, &r, 0, &e), 2, "an infinite value: refused");
	r.value = 90;
	r.ref_high = 2e12;
	is_int(hq_report_add_lab(writer, &r, 0, &e), 2, "a reference limit past 1e12: refused");
	is_str(e.msg, "reference range high 2e+12 is out of range (at most 1e+12 in size)", "%s", e.msg);

	snprintf(scan->date, sizeof scan->date, "2020-02-02");
	hq_time_parse("2020-02-02", &scan->time);
	scan->n = 2;
	snprintf(scan->v[0].field, sizeof scan->v[0].field, "fat_mass");
	scan->v[0].value = 20;
	scan->v[0].unit = "kg";
	snprintf(scan->v[1].field, sizeof scan->v[1].field, "vat_mass");
	scan->v[1].value = 1e308 * 453.59237;
	scan->v[1].unit = "g";
	before = hq_report_writer_counts(writer)->inserted;
	is_int(hq_report_add_dexa(writer, scan, &e), 2, "a scan with an infinite field: refused");
	is_str(e.msg, "vat_mass inf is out of range (at most 1e+12 in size)", "%s", e.msg);
	is_int(hq_report_writer_counts(writer)->inserted - before, 0, "none of its fields written");
	scan->v[1].value = 1000;
	snprintf(scan->date, sizeof scan->date, "9999-12-31");
	hq_time_parse("9999-12-31", &scan->time);
	is_int(hq_report_add_dexa(writer, scan, &e), 2, "a scan dated 9999-12-31: refused");

	hq_store_exec(store, "INSERT INTO clinical_record(type, identifier, resource) VALUES "
	    "('HKClinicalTypeIdentifierLabResultRecord', 'future', "
	    "'{\"resourceType\":\"Observation\",\"code\":{\"text\":\"LDL\"},"
	    "\"effectiveDateTime\":\"9999-12-31\",\"valueQuantity\":{\"value\":1,\"unit\":\"mg/dL\"}}')", &e);
	is_int(hq_report_backfill(writer, warned, msg, &e), 0,
	    "a clinical record dated 9999: the backfill goes on");
	like(msg, "date 9999-12-31 is in the future", "the record skipped with a warning: %s", msg);
	commit();
	is_int(last.skipped, 1, "counted skipped");
	free(scan);
}

static int
count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* The charts, read as text: what a reader would see in them. */
static void
charts(void)
{
	struct hq_err e;
	char *svg = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&svg, &len);

	is_int(hq_report_labs_trend_svg(store, "crp", NULL, fp, &e), 0, "trend svg");
	fclose(fp);
	ok(strstr(svg, "crp: C-reactive protein (mg/L)") != NULL, "titled with the test and unit");
	ok(strstr(svg, ">method: hs</text>") != NULL, "the change to hs-CRP marked");
	ok(strstr(svg, "3 results, 2021-01-01 to 2023-01-01") != NULL, "subtitle counts results");
	is_int(count(svg, "<circle"), 3, "a dot per result");
	free(svg);

	fp = open_memstream(&svg, &len);
	hq_report_labs_trend_svg(store, "glucose", NULL, fp, &e);
	fclose(fp);
	is_int(count(svg, "class=\"band\""), 1, "one reference band");
	ok(count(svg, "fill=\"#d62728\"") >= 1, "an out-of-range result in red");
	free(svg);

	fp = open_memstream(&svg, &len);
	is_int(hq_report_dexa_compare_svg(store, NULL, NULL, 2, NULL, 0, fp, &e), 0, "compare svg");
	fclose(fp);
	ok(strstr(svg, "DEXA: 2023-01-10 to 2023-07-12") != NULL, "titled with the dates");
	ok(strstr(svg, "-68.95 g (-13.8 %)") != NULL, "VAT change with its percentage");
	ok(strstr(svg, "-1.9 points (-7.9 %)") != NULL, "a %% field changes in points");
	is_int(count(svg, "within the scanner&apos;s precision</text>"), 1, "VAT within precision, noted");
	free(svg);

	fp = open_memstream(&svg, &len);
	is_int(hq_report_dexa_compare_svg(store, "2010", "2011", 0, NULL, 0, fp, &e), 1, "no scans on those dates: nothing drawn");
	fclose(fp);
	is_int(len, 0, "and nothing written");
	free(svg);
}

int
main(void)
{
	char dir[] = "/tmp/hq-report-test.XXXXXX", path[256];
	struct hq_err e;

	if (fixture_zone() || !mkdtemp(dir))
		return 1;
	snprintf(path, sizeof path, "%s/hq.db", dir);
	store = hq_store_open(path, HQ_STORE_CREATE, &e);
	if (!ok(store != NULL, "a store"))
		return done_testing();
	lab_results();
	methods();
	dexa();
	list();
	clinical();
	charts();
	checks();
	hq_store_close(store);
	fixture_remove_store(dir);
	return done_testing();
}
