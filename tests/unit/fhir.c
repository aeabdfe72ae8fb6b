/* FHIR lab results: the real files in tests/fixtures/labs (US Core
 * R4 Observations, the FHIR specification's own examples, an LRI Bundle)
 * and files written for what those lack (DSTU2, a DiagnosticReport with
 * contained Observations, a Bundle without a type). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/fhir.h"
#include "hq/jsonin.h"
#include "hq/time.h"
#include "fixture.h"
#include "lab_results.h"
#include "tap.h"

#define DATA "tests/cli/data/labs/"

static struct hq_lab_sink sink;

static int
each(void *arg, const cJSON *v, long line, struct hq_err *e)
{
	(void)arg;
	return hq_fhir_read(&sink, v, line, e);
}

/* Read a file: the number of JSON values, -1 on error. */
static long
read_file(const char *path, const char *source, struct hq_err *e)
{
	size_t len;
	char *buf = fixture_slurp(path, &len);
	long n;

	ngot = 0;
	sink = (struct hq_lab_sink){ .file = path, .source = source, .emit = keep };
	if (!buf) {
		hq_err_set(e, "%s: cannot read", path);
		return -1;
	}
	n = hq_jsonin_each(buf, len, path, 0, each, NULL, e);
	free(buf);
	return n;
}

static long
read_text(const char *text, struct hq_err *e)
{
	ngot = 0;
	sink = (struct hq_lab_sink){ .file = "t.json", .emit = keep };
	return hq_jsonin_each(text, strlen(text), "t.json", 0, each, NULL, e);
}

static void
us_core(void)
{
	static const struct {
		const char *file, *test, *loinc, *unit, *flag;
		double value, low, high;
	} want[] = {
		{ "bun", "bun", "3094-0", "mg/dL", "N", 10, 5, 20 },
		{ "calcium", "calcium", "17861-6", "mg/dL", "L", 7.7, 8.5, 10.5 },
		{ "chloride", "chloride", "2075-0", "mmol/L", "N", 105, 95, 105 },
		{ "co2", "co2", "2028-9", "mmol/L", "N", 24, 22, 29 },
		{ "creatinine", "creatinine", "2160-0", "mg/dL", "H", 1, 0.2, 0.6 },
		{ "glucose", "glucose", "2345-7", "mg/dL", "N", 76, 40, 109 },
		{ "potassium", "potassium", "2823-3", "mmol/L", "N", 5.4, 3.5, 5.5 },
		{ "sodium", "sodium", "2951-2", "mmol/L", "N", 137, 135, 145 },
	};
	struct hq_err e = { { 0 } };
	char name[128];

	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		snprintf(name, sizeof name, "us-core/observation-serum-%s.json", want[i].file);
		if (!ok(read_file(fixture_path("labs", name), NULL, &e) == 1 && ngot == 1,
		    "%s: one result", name)) {
			printf("# %s\n", e.msg);
			continue;
		}
		struct hq_lab_result *r = &got[0];
		is_str(r->test, want[i].test, "%s: test", want[i].file);
		is_str(r->loinc, want[i].loinc, "%s: loinc", want[i].file);
		is_str(r->unit, want[i].unit, "%s: unit (BUN and calcium: no UCUM code)", want[i].file);
		is_dbl(r->value, want[i].value, 0, "%s: value", want[i].file);
		ok(r->ref_low == want[i].low && r->ref_high == want[i].high, "%s: range", want[i].file);
		is_str(r->date, "2005-07-05", "%s: a date without a time", want[i].file);
		is_int(r->has_time, 0, "%s: no time", want[i].file);
		is_str(hq_labs_flag(r->value, r->ref_low, r->ref_high, r->lab_flag),
		    want[i].flag, "%s: flag %s from the range", want[i].file, want[i].flag);
		is_str(r->lab_flag, want[i].flag, "%s: the lab's interpretation agrees", want[i].file);
		is_str(r->source, "", "%s: a practitioner is no source", want[i].file);
		is_str(r->status, "final", "%s: status", want[i].file);
	}
	snprintf(name, sizeof name, "us-core/observation-serum-chloride.json");
	read_file(fixture_path("labs", name), "UCSF Health", &e);
	is_str(got[0].source, "UCSF Health", "a source given by the caller (Apple's health system)");
	is_str(got[0].id, "serum-chloride", "the resource id");
}

static void
hl7_examples(void)
{
	struct hq_err e = { { 0 } };

	is_int(read_file(fixture_path("labs", "hl7-r4/observation-example-f001-glucose.json"), NULL, &e), 1, "f001 reads");
	is_int(ngot, 1, "f001: no category is a lab result");
	is_str(got[0].test, "glucose", "f001: 15074-8 is glucose");
	is_str(got[0].loinc, "15074-8", "f001: its own code");
	is_str(got[0].unit, "mmol/L", "f001: mmol/l written, mmol/L kept");
	is_dbl(got[0].value, 6.3, 0, "f001: 6.3");
	is_str(got[0].date, "2013-04-02", "f001: effectivePeriod.start's local date");
	is_int(got[0].has_time, 1, "f001: with a time");
	is_str(hq_labs_flag(got[0].value, got[0].ref_low, got[0].ref_high, got[0].lab_flag), "H", "f001: 6.3 against 3.1-6.2 is H");

	/* 09:30+01:00 is 22:30 the day before in Honolulu. */
	hq_time_set_zone("Pacific/Honolulu", &e);
	read_file(fixture_path("labs", "hl7-r4/observation-example-f001-glucose.json"), NULL, &e);
	is_str(got[0].date, "2013-04-01", "f001 in Honolulu: the local date of the instant");
	hq_time_set_zone("America/Los_Angeles", &e);

	is_int(read_file(fixture_path("labs", "hl7-r4/observation-example-f005-hemoglobin.json"), NULL, &e), 1, "f005 reads");
	is_str(got[0].test, "hemoglobin", "f005: 718-7 is hemoglobin");
	is_str(got[0].unit, "g/dL", "f005: g/dl → g/dL");
	is_str(got[0].date, "2013-04-05", "f005: effectivePeriod");
	is_str(hq_labs_flag(got[0].value, got[0].ref_low, got[0].ref_high, got[0].lab_flag), "L", "f005: 7.2 against 7.5-10 is L");

	is_int(read_file(fixture_path("labs", "hl7-r4/diagnosticreport-example-lri.json"), NULL, &e), 1, "the LRI bundle reads");
	is_int(ngot, 12, "12 results: 6 MICs, 3 growths, 3 organisms");
	is_int(sink.skipped, 4, "4 gram stains without a value skipped");
	int mics = 0, coded = 0;
	for (int i = 0; i < ngot; i++) {
		if (got[i].comparator[0]) {
			mics++;
			ok(!strcmp(got[i].comparator, "<") && !strcmp(got[i].unit, "ug/mL") &&
			    !got[i].lab_flag[0], "MIC %s: < in ug/mL, no flag", got[i].id);
		} else if (got[i].text[0] && isnan(got[i].value)) {
			coded++;
		}
	}
	is_int(mics, 6, "six MICs with a comparator");
	is_int(coded, 6, "six coded values kept as text");
	for (int i = 0; i < ngot; i++)
		if (!strcmp(got[i].id, "org2-amp")) {
			is_str(got[i].test, "ampicilin_mic", "org2-amp: the file's name in snake_case");
			is_str(got[i].loinc, "28-1", "org2-amp: its code");
			is_dbl(got[i].value, 0.06, 0, "org2-amp: 0.06");
			is_str(got[i].date, "2016-08-18", "org2-amp: date");
		}
}

static void
written(void)
{
	struct hq_err e = { { 0 } };
	struct hq_lab_result *r;

	is_int(read_file(DATA "bundle-dstu2.json", NULL, &e), 1, "a DSTU2 searchset reads");
	is_int(ngot, 5, "four lab results and a retraction");
	is_int(sink.skipped, 3, "vital signs, social history and entered-in-error skipped");
	is_str(got[3].status, "entered-in-error", "entered-in-error: handed on as a retraction");
	is_str(got[3].id, "dstu2-wrong", "with its id");
	ok(!got[3].test[0] && isnan(got[3].value), "and nothing else");
	r = &got[0];
	is_str(r->test, "total_cholesterol", "DSTU2 category object: laboratory");
	ok(isnan(r->ref_low) && r->ref_high == 200, "range text <200 read as a high limit");
	is_str(r->ref_text, "<200", "range text kept");
	is_str(r->lab_flag, "H", "DSTU2 interpretation object");
	r = &got[1];
	is_str(r->test, "crp", "hs-CRP");
	is_str(r->comparator, "<", "valueString <0.5: comparator");
	is_dbl(r->value, 0.5, 0, "valueString <0.5: number");
	is_str(hq_labs_flag(r->value, r->ref_low, r->ref_high, r->lab_flag), "N", "<0.5 against ≤3: N by its number");
	r = &got[2];
	is_str(r->text, "NEGATIVE", "valueString NEGATIVE: text");
	ok(isnan(r->value), "NEGATIVE: no number");
	is_str(r->test, "hepatitis_b_surface_ag", "a local name in snake_case");
	is_str(hq_labs_flag(r->value, r->ref_low, r->ref_high, r->lab_flag), "N", "text: the lab's flag");
	r = &got[4];
	is_str(r->status, "amended", "amended status kept");
	is_int(hq_labs_supersedes(r->status), 1, "amended supersedes");
	is_str(r->date, "2019-03-13", "no effective time: issued");
	is_str(hq_labs_flag(r->value, r->ref_low, r->ref_high, r->lab_flag), "H", "101 against 70-99: H");

	is_int(read_file(DATA "report-contained.json", NULL, &e), 1, "a DiagnosticReport with contained Observations");
	is_int(ngot, 2, "both read");
	r = &got[0];
	is_str(r->test, "ldl", "direct LDL");
	is_str(r->loinc, "18262-6", "its code, although written in mmol/L");
	is_str(r->unit, "mmol/L", "the unit written decides");
	is_str(r->date, "2022-11-02", "no date of its own: the report's");
	is_str(r->source, "Acme Clinical Lab", "the report's performing organisation");
	is_dbl(r->ref_high, 130 / 38.67, 1e-12, "a limit in mg/dL converted to the value's mmol/L");
	is_str(hq_labs_flag(r->value, r->ref_low, r->ref_high, r->lab_flag), "H", "3.4 mmol/L > 130 mg/dL: H");
	r = &got[1];
	is_str(r->comparator, ">=", "valueQuantity.comparator");
	is_str(hq_labs_flag(r->value, r->ref_low, r->ref_high, r->lab_flag), "", "upside-down range: no flag");

	is_int(read_file(DATA "bundle-notype.json", NULL, &e), 1, "a Bundle without a type");
	is_int(ngot, 1, "one result");
	ok(got[0].ref_low == 4 && got[0].ref_high == 5.6, "range text 4.0 - 5.6");
	is_str(hq_labs_flag(got[0].value, got[0].ref_low, got[0].ref_high, ""), "H", "6.1: H");

	is_int(read_text("{\"resourceType\":\"Observation\",\"id\":\"x\",\"code\":{\"text\":\"ldl\"},"
	    "\"effectiveDateTime\":\"yesterday\",\"valueQuantity\":{\"value\":1,\"unit\":\"mg/dL\"}}", &e),
	    -1, "a date that is none");
	is_str(e.msg, "t.json:1: Observation/x: date 'yesterday' is not a FHIR dateTime", "names the resource");
	is_int(read_text("\n{\"resourceType\":\"Observation\",\"id\":\"y\",\"code\":{\"text\":\"ldl\"},"
	    "\"effectiveDateTime\":\"2024-01-01\",\"valueQuantity\":{\"value\":1,\"comparator\":\"~\"}}", &e),
	    -1, "a comparator that is none");
	is_str(e.msg, "t.json:2: Observation/y: comparator '~' is not <, <=, > or >=", "says so");
	is_int(read_text("{\"resourceType\":\"Observation\",\"code\":{\"text\":\"ldl\"},"
	    "\"valueQuantity\":{\"value\":1}}", &e), 1, "no date at all");
	is_int(ngot, 0, "is skipped");
	is_int(sink.skipped, 1, "and counted");
	is_int(read_text("{\"resourceType\":\"Patient\",\"id\":\"p\"}", &e), 1, "a resource that is not read");
	is_int(ngot, 0, "gives nothing");
}

/* The file fed to hq_fhir_stream() chunk bytes at a time: the number of
 * top-level values, -1 on error. */
static long
stream_text(const char *name, const char *text, size_t len, size_t chunk,
    struct hq_err *e)
{
	struct hq_jsonin_stream *s;
	long n = 0;

	ngot = 0;
	sink = (struct hq_lab_sink){ .file = name, .emit = keep };
	s = hq_fhir_stream(&sink, &(struct hq_jsonin_limits){ .element_bytes =
	    4 << 20, .element_values = 1 << 17, .value_bytes = 16 << 20,
	    .value_values = 1 << 19 });
	for (size_t off = 0; off < len && n == 0; off += chunk)
		n = hq_jsonin_stream_feed(s, text + off,
		    len - off < chunk ? len - off : chunk, e);
	if (n == 0)
		n = hq_jsonin_stream_end(s, e);
	hq_jsonin_stream_free(s);
	return n;
}

static int
same_dbl(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

/* Two results field by field (memcmp would compare padding). */
static int
same_result(const struct hq_lab_result *a, const struct hq_lab_result *b)
{
	return !strcmp(a->test, b->test) && !strcmp(a->name, b->name) &&
	    !strcmp(a->loinc, b->loinc) && a->time == b->time &&
	    a->has_time == b->has_time && !strcmp(a->date, b->date) &&
	    same_dbl(a->value, b->value) && !strcmp(a->comparator, b->comparator) &&
	    !strcmp(a->text, b->text) && !strcmp(a->unit, b->unit) &&
	    same_dbl(a->ref_low, b->ref_low) && same_dbl(a->ref_high, b->ref_high) &&
	    !strcmp(a->ref_text, b->ref_text) && !strcmp(a->lab_flag, b->lab_flag) &&
	    !strcmp(a->source, b->source) && !strcmp(a->id, b->id) &&
	    !strcmp(a->status, b->status);
}

/* Every file read whole and streamed in pieces of 1, 7 and 4096 bytes
 * gives the same results, skipped counts and values. */
static void
streamed(void)
{
	static struct hq_lab_result whole[64];
	const char *files[] = {
		"us-core/observation-serum-bun.json",
		"us-core/observation-serum-glucose.json",
		"hl7-r4/observation-example-f001-glucose.json",
		"hl7-r4/observation-example-f005-hemoglobin.json",
		"hl7-r4/diagnosticreport-example-lri.json",
		DATA "bundle-dstu2.json", DATA "bundle-notype.json",
		DATA "report-contained.json",
	};
	const size_t chunks[] = { 1, 7, 4096 };
	struct hq_err e = { { 0 } };

	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		const char *path = strncmp(files[i], DATA, strlen(DATA)) == 0 ?
		    files[i] : fixture_path("labs", files[i]);
		char *name = strdup(path);
		size_t len;
		char *buf = fixture_slurp(name, &len);
		long n = read_file(name, NULL, &e), skipped = sink.skipped;
		int nwhole = ngot;

		memcpy(whole, got, sizeof whole);
		ok(buf && n == 1 && nwhole > 0, "%s: read whole", files[i]);
		for (size_t c = 0; buf && c < sizeof chunks / sizeof chunks[0]; c++) {
			int same = stream_text(name, buf, len, chunks[c], &e) == 1 &&
			    ngot == nwhole && sink.skipped == skipped;
			for (int k = 0; same && k < ngot; k++)
				same = same_result(&got[k], &whole[k]);
			ok(same, "%s in %zu-byte pieces: the same %d results, %ld skipped",
			    files[i], chunks[c], nwhole, skipped);
		}
		free(buf);
		free(name);
	}

	const char *bundle = "{\"resourceType\":\"Bundle\",\"entry\":[\n"
	    "{\"resource\":{\"resourceType\":\"Observation\",\"id\":\"a\",\"code\":{\"text\":\"ldl\"},"
	    "\"effectiveDateTime\":\"2024-01-01\",\"valueQuantity\":{\"value\":1,\"unit\":\"mg/dL\"}}},\n"
	    "{\"resource\":{\"resourceType\":\"Observation\",\"id\":\"x\",\"code\":{\"text\":\"ldl\"},"
	    "\"effectiveDateTime\":\"yesterday\",\"valueQuantity\":{\"value\":1,\"unit\":\"mg/dL\"}}}]}";
	is_int(stream_text("t.json", bundle, strlen(bundle), 5, &e), -1,
	    "a Bundle entry that cannot be read fails the stream");
	is_str(e.msg, "t.json:3: Observation/x: date 'yesterday' is not a FHIR dateTime",
	    "named by the line the entry starts on");
	is_int(ngot, 1, "after the entry before it");

	const char *late = "{\"entry\":[{\"resource\":{\"resourceType\":\"Observation\",\"id\":\"a\","
	    "\"code\":{\"text\":\"ldl\"},\"effectiveDateTime\":\"2024-01-01\",\"valueQuantity\":{\"value\":1}}}],"
	    "\"resourceType\":\"Bundle\"}";
	is_int(stream_text("t.json", late, strlen(late), 3, &e), 1,
	    "a Bundle whose resourceType follows its entries");
	is_int(ngot, 1, "is read whole: its entry");
	const char *notbundle = "{\"resourceType\":\"Patient\",\"entry\":[{\"resource\":{\"resourceType\":\"Observation\",\"id\":\"a\","
	    "\"code\":{\"text\":\"ldl\"},\"effectiveDateTime\":\"2024-01-01\",\"valueQuantity\":{\"value\":1}}}]}";
	is_int(stream_text("t.json", notbundle, strlen(notbundle), 3, &e), 1,
	    "a resource that is no Bundle, with an entry member");
	is_int(ngot, 0, "gives nothing, as read whole");
}

static void
sniff(void)
{
	cJSON *a = cJSON_Parse("{\"resourceType\":\"Bundle\"}");
	cJSON *b = cJSON_Parse("{\"resourceType\":\"Patient\"}");
	cJSON *c = cJSON_Parse("{\"metric\":\"steps\"}");

	ok(hq_fhir_sniff(a), "sniff: a Bundle");
	ok(!hq_fhir_sniff(b), "sniff: not a Patient");
	ok(!hq_fhir_sniff(c), "sniff: not JSON lines");
	cJSON_Delete(a);
	cJSON_Delete(b);
	cJSON_Delete(c);
}

int
main(void)
{
	if (fixture_zone())
		return 1;
	us_core();
	hl7_examples();
	written();
	streamed();
	sniff();
	return done_testing();
}
