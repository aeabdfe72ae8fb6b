/* DEXA scans: the GE Lunar fixture as JSON and as CSV must give the same
 * fields (its README's values in kg), aliases, regions and unit
 * conversions on written files, and every way a file can be wrong. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/dexa.h"
#include "hq/jsonin.h"
#include "hq/time.h"
#include "fixture.h"
#include "tap.h"

#define DATA "tests/cli/data/dexa/"

static struct hq_dexa_scan got[8];
static int ngot;

static int
keep(void *arg, const struct hq_dexa_scan *s, struct hq_err *e)
{
	(void)arg, (void)e;
	if (ngot < 8)
		got[ngot++] = *s;
	return 0;
}

static struct hq_dexa_sink sink;

static int
each(void *arg, const cJSON *v, long line, struct hq_err *e)
{
	(void)arg;
	return hq_dexa_json(&sink, v, line, e);
}

static long
read_json(const char *path, const char *text, struct hq_err *e)
{
	char *buf = NULL;
	size_t len = 0;
	long n;

	if (path) {
		if (!(text = buf = fixture_slurp(path, &len))) {
			hq_err_set(e, "%s: cannot read", path);
			return -1;
		}
	} else {
		len = strlen(text);
	}
	ngot = 0;
	sink = (struct hq_dexa_sink){ .file = path ? path : "t.json", .emit = keep };
	n = hq_jsonin_each(text, len, sink.file, 0, each, NULL, e);
	free(buf);
	return n;
}

static int
read_csv(const char *path, const char *text, struct hq_err *e)
{
	FILE *f = path ? fopen(path, "r") : fmemopen((void *)text, strlen(text), "r");
	struct hq_dexa_csv *c;
	char line[4096];
	long n = 0;
	int rc = 0;

	if (!f) {
		hq_err_set(e, "cannot open");
		return -1;
	}
	ngot = 0;
	sink = (struct hq_dexa_sink){ .file = path ? path : "t.csv", .emit = keep };
	c = hq_dexa_csv_new(&sink);
	while (rc == 0 && fgets(line, sizeof line, f)) {
		size_t len = strlen(line);
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		rc = hq_dexa_csv_line(c, line, len, ++n, e);
	}
	if (rc == 0)
		rc = hq_dexa_csv_finish(c, e);
	hq_dexa_csv_free(c);
	fclose(f);
	return rc;
}

static const struct hq_dexa_value *
field(const struct hq_dexa_scan *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i].field, name) == 0)
			return &s->v[i];
	return NULL;
}

static double
value(const struct hq_dexa_scan *s, const char *name)
{
	const struct hq_dexa_value *v = field(s, name);

	return v ? v->value : NAN;
}

static void
ge_lunar(void)
{
	struct hq_err e = { { 0 } };
	struct hq_dexa_scan json;

	if (!ok(read_json(fixture_path("dexa", "ge-lunar-idxa-2020-01-22.json"), NULL, &e) == 1 &&
	    ngot == 1, "the GE Lunar JSON reads")) {
		printf("# %s\n", e.msg);
		return;
	}
	json = got[0];
	is_str(json.date, "2020-01-22", "date");
	is_str(json.source, "GE Lunar iDXA", "source");
	is_int(json.n, 16, "16 fields");
	/* The fixture README's values in kg (1 lb = 0.45359237 kg). */
	is_dbl(value(&json, "fat_mass"), 33.520476143, 1e-9, "fat_mass 73.9 lb = 33.520476143 kg");
	is_dbl(value(&json, "lean_mass"), 34.609097831, 1e-9, "lean_mass");
	is_dbl(value(&json, "bmc"), 2.222602613, 1e-9, "bmc");
	is_dbl(value(&json, "total_mass"), 70.30681735, 1e-9, "total_mass");
	is_dbl(value(&json, "trunk_fat_mass"), 20.593093598, 1e-9, "trunk_fat_mass");
	is_dbl(value(&json, "legs_lean_mass"), 10.976935354, 1e-9, "legs_lean_mass");
	is_dbl(value(&json, "total_body_fat_pct"), 49.2, 0, "total_body_fat_pct");
	is_dbl(value(&json, "ag_ratio"), 1.14, 0, "ag_ratio");
	is_str(field(&json, "ag_ratio")->unit, "", "ag_ratio has no unit");
	is_str(field(&json, "fat_mass")->unit, "kg", "fat_mass in kg");
	is_str(field(&json, "android_fat_pct")->unit, "%", "android_fat_pct in %%");

	if (!ok(read_csv(fixture_path("dexa", "ge-lunar-idxa-2020-01-22.csv"), NULL, &e) == 0 &&
	    ngot == 1, "the GE Lunar CSV reads")) {
		printf("# %s\n", e.msg);
		return;
	}
	is_int(got[0].n, json.n, "the same number of fields");
	int same = got[0].n == json.n;
	for (size_t i = 0; i < json.n; i++) {
		const struct hq_dexa_value *v = field(&got[0], json.v[i].field);
		if (!v || fabs(v->value - json.v[i].value) > 1e-12 ||
		    strcmp(v->unit, json.v[i].unit) != 0) {
			ok(0, "%s differs", json.v[i].field);
			same = 0;
		}
	}
	ok(same, "JSON and CSV give the same fields, values and units");
	is_str(got[0].date, "2020-01-22", "CSV: date");
	is_str(got[0].source, "", "CSV without a source column: none");
}

static void
written(void)
{
	struct hq_err e = { { 0 } };
	const struct hq_dexa_scan *s;

	if (!ok(read_json(DATA "bodyspec-2023.json", NULL, &e) == 1 && ngot == 2,
	    "an array of two scans")) {
		printf("# %s\n", e.msg);
		return;
	}
	s = &got[0];
	is_str(s->date, "2023-01-10", "a date-time: its local date");
	is_int(s->n, 15, "15 fields (z_score null is absent)");
	is_dbl(value(s, "total_body_fat_pct"), 24, 0, "body_fat_percent → total_body_fat_pct");
	is_dbl(value(s, "fat_mass"), 40.2 * 0.45359237, 1e-12, "lb → kg");
	is_dbl(value(s, "bmc"), 3.21, 1e-12, "g → kg");
	is_dbl(value(s, "total_mass"), 74.6, 0, "kg stays");
	is_dbl(value(s, "vat_mass"), 1.1 * 453.59237, 1e-9, "visceral_fat_mass lb → vat_mass g");
	is_str(field(s, "vat_mass")->unit, "g", "vat_mass in g");
	is_dbl(value(s, "vat_volume"), 32.5 * 16.387064, 1e-9, "in3 → cm³");
	is_str(field(s, "vat_volume")->unit, "cm\xc2\xb3", "cm³");
	is_dbl(value(s, "vat_area"), 14.2 * 6.4516, 1e-9, "in² → cm²");
	is_dbl(value(s, "bmd_total"), 1.21, 0, "bmd → bmd_total");
	is_str(field(s, "almi")->unit, "kg/m\xc2\xb2", "almi in kg/m²");
	ok(field(s, "z_score") == NULL, "null is absent");
	is_dbl(value(s, "left_arm_lean_mass"), 7.9 * 0.45359237, 1e-12, "region l_arm → left_arm");
	is_dbl(value(s, "right_arm_lean_mass"), 8.1 * 0.45359237, 1e-12, "regional alias lean");
	is_dbl(value(s, "trunk_fat_pct"), 25.5, 0, "trunk_fat_pct");
	is_int(got[1].n, 2, "second scan: two fields");
	is_dbl(value(&got[1], "vat_mass"), 430, 0, "a bare number is in the canonical unit");

	if (!ok(read_csv(DATA "scans.csv", NULL, &e) == 0 && ngot == 2, "scans.csv: two scans")) {
		printf("# %s\n", e.msg);
		return;
	}
	s = &got[0];
	is_int(s->n, 8, "first: 8 fields");
	is_str(s->source, "Hologic Horizon A", "source column");
	is_dbl(value(s, "trunk_fat_mass"), 9.8, 0, "field + region column");
	is_dbl(value(s, "trunk_lean_mass"), 24.1, 0, "a regional name in the field column");
	is_dbl(value(s, "left_arm_lean_mass"), 2.9, 0, "region 'L Arm'");
	is_dbl(value(s, "t_score"), -0.4, 0, "a negative T-score");
	is_dbl(value(&got[1], "vat_mass"), 480, 1e-9, "kg → g for vat_mass");
	is_dbl(value(&got[1], "fat_mass"), 19, 0, "region 'total' is the whole body");
}

static void
errors(void)
{
	struct hq_err e = { { 0 } };
	const char *H = "date,field,value,unit,region\n";
	char buf[512];

	snprintf(buf, sizeof buf, "%s2024-01-01,fat_mas,1,kg,\n", H);
	is_int(read_csv(NULL, buf, &e), -1, "an unknown field");
	is_str(e.msg, "t.csv:2: unknown DEXA field 'fat_mas' (did you mean fat_mass?)", "did you mean");
	snprintf(buf, sizeof buf, "%s2024-01-01,fat_mass,1,stone,\n", H);
	is_int(read_csv(NULL, buf, &e), -1, "a unit that is not a mass");
	is_str(e.msg, "t.csv:2: fat_mass: unit 'stone' is not kg, g or lb", "says which fit");
	snprintf(buf, sizeof buf, "%s2024-01-01,vat_volume,1,cm2,\n", H);
	is_int(read_csv(NULL, buf, &e), -1, "an area for a volume");
	snprintf(buf, sizeof buf, "%s2024-01-01,vat_mass,1,g,trunk\n", H);
	is_int(read_csv(NULL, buf, &e), -1, "a field without a regional form");
	snprintf(buf, sizeof buf, "%s2024-01-01,fat_mass,1,kg,pelvis\n", H);
	is_int(read_csv(NULL, buf, &e), -1, "an unknown region");
	snprintf(buf, sizeof buf, "%s2024-01-01,fat_mass,1,kg,\n2024-01-01,fat_mass,2,kg,\n", H);
	is_int(read_csv(NULL, buf, &e), -1, "one field twice with two values");
	is_str(e.msg, "t.csv:3: fat_mass given twice for 2024-01-01 with different values", "names both");
	snprintf(buf, sizeof buf, "%s2024-01-01,fat_mass,1,kg,\n2024-01-01,fat_mass,1000,g,\n", H);
	is_int(read_csv(NULL, buf, &e), 0, "the same value twice (in two units) is fine");
	snprintf(buf, sizeof buf, "%s2024-01-01,fat_mass,heavy,kg,\n", H);
	is_int(read_csv(NULL, buf, &e), -1, "a value that is not a number");
	snprintf(buf, sizeof buf, "%s01/02/2024,fat_mass,1,kg,\n", H);
	is_int(read_csv(NULL, buf, &e), -1, "a date hq cannot read");
	is_int(read_csv(NULL, "date,field,unit\n", &e), -1, "no value column");
	is_str(e.msg, "t.csv:1: the header needs the columns date, field, value, unit (missing: value)", "names it");
	is_int(read_csv(NULL, "", &e), -1, "an empty file");

	is_int(read_json(NULL, "{\"kind\":\"dexa\",\"date\":\"2024-01-01\",\"fields\":{}}", &e), -1, "a scan without fields");
	is_int(read_json(NULL, "{\"kind\":\"cgm\",\"date\":\"2024-01-01\"}", &e), -1, "another kind");
	is_int(read_json(NULL, "\n{\"kind\":\"dexa\",\"date\":\"2024-01-01\",\"fields\":{\"fat_mass\":\"1\"}}", &e), -1, "a value as a string");
	is_str(e.msg, "t.json:2: fat_mass: neither a number nor {\"value\",\"unit\"}", "file:line");
	is_int(read_json(NULL, "{\"kind\":\"dexa\",\"date\":\"2024-01-01\",\"fields\":{\"fat_mass\":{\"value\":1,\"unit\":\"oz\"}}}", &e), -1, "an ounce");
	is_int(read_json(NULL, "{\"kind\":\"dexa\",\"date\":\"2024-01-01\",\"regions\":{\"trunk\":5}}", &e), -1, "a region that is not an object");
	is_int(read_json(NULL, "{\"kind\":\"dexa\",\"fields\":{\"fat_mass\":1}}", &e), -1, "no date");
}

static void
catalog(void)
{
	const char *unit;
	char name[64];
	struct hq_err e;

	ok(hq_dexa_field_known("trunk_fat_mass", &unit) && !strcmp(unit, "kg"), "trunk_fat_mass is a field");
	ok(hq_dexa_field_known("vat_mass", &unit) && !strcmp(unit, "g"), "vat_mass in g");
	ok(!hq_dexa_field_known("visceral_fat_mass", NULL), "an alias is not a canonical name");
	ok(!hq_dexa_field_known("l_arm_fat_mass", NULL), "nor a region alias");
	is_int(hq_dexa_field_name("Visceral Fat Mass", NULL, name, sizeof name, &unit, &e), 0, "written as people do");
	is_str(name, "vat_mass", "→ vat_mass");
	is_int(hq_dexa_field_name("android_fat_pct", NULL, name, sizeof name, &unit, &e), 0, "android_fat_pct");
	is_int(hq_dexa_field_name("fat_pct", "android", name, sizeof name, &unit, &e), 0, "fat_pct in the android region");
	is_str(name, "android_fat_pct", "is the same field");
	ok(hq_dexa_field_count() >= 24 && hq_dexa_region_count() == 10, "fields and regions listed");
	ok(hq_dexa_csv_sniff("date,field,value,unit", 21), "sniff: DEXA CSV");
	ok(!hq_dexa_csv_sniff("date,test,value,unit", 20), "sniff: a lab CSV is not");
	cJSON *j = cJSON_Parse("[{\"kind\":\"dexa\"}]");
	ok(hq_dexa_json_sniff(j), "sniff: an array of scans");
	cJSON_Delete(j);
}

int
main(void)
{
	if (fixture_zone())
		return 1;
	ge_lunar();
	written();
	errors();
	catalog();
	return done_testing();
}
