#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/csvline.h"
#include "hq/dexa.h"
#include "hq/json.h"
#include "hq/jsonin.h"
#include "hq/labs.h"
#include "hq/time.h"

#define KG "kg"
#define G "g"
#define PCT "%"
#define CM3 "cm\xc2\xb3"
#define CM2 "cm\xc2\xb2"
#define KGM2 "kg/m\xc2\xb2"
#define GCM2 "g/cm\xc2\xb2"

/* The names and units hq-ingest(1) gives (DEXA SCANS). The first NWHOLE are whole-body fields; the
 * rest combine with a region ("trunk" + "fat_mass" = trunk_fat_mass). */
static const struct hq_dexa_field fields[] = {
	{ "total_body_fat_pct", PCT, "body_fat_percent body_fat_pct body_fat "
	  "total_fat_pct tissue_fat_pct percent_body_fat pbf fat_pct "
	  "total_body_percent_fat", "total body % fat as the scanner prints it" },
	{ "fat_mass", KG, "total_fat_mass body_fat_mass fat", "fat mass" },
	{ "lean_mass", KG, "total_lean_mass lean lean_tissue_mass lean_soft_tissue",
	  "lean mass" },
	{ "bmc", KG, "bone_mineral_content total_bmc bone_mass", "bone mineral content" },
	{ "total_mass", KG, "total_body_mass mass scan_mass", "total mass on the scanner" },
	{ "vat_mass", G, "visceral_fat_mass visceral_fat vat est_vat_mass "
	  "visceral_adipose_tissue_mass", "visceral adipose tissue mass" },
	{ "vat_volume", CM3, "visceral_fat_volume est_vat_volume", "visceral fat volume" },
	{ "vat_area", CM2, "visceral_fat_area est_vat_area", "visceral fat area" },
	{ "android_fat_pct", PCT, "android_percent_fat android_pct", "android % fat" },
	{ "gynoid_fat_pct", PCT, "gynoid_percent_fat gynoid_pct", "gynoid % fat" },
	{ "ag_ratio", "", "android_gynoid_ratio a_g_ratio a_g android_gynoid",
	  "android/gynoid fat ratio" },
	{ "almi", KGM2, "appendicular_lean_mass_index alm_index limb_lmi",
	  "appendicular lean mass / height²" },
	{ "ffmi", KGM2, "fat_free_mass_index", "(lean + BMC) / height²" },
	{ "bmd_total", GCM2, "bmd total_bmd total_body_bmd bone_mineral_density",
	  "total-body bone mineral density" },
	{ "t_score", "", "bmd_t_score t", "total-body BMD T-score" },
	{ "z_score", "", "bmd_z_score z", "total-body BMD Z-score" },
	{ "fmi", KGM2, "fat_mass_index", "fat mass / height²" },
	{ "lmi", KGM2, "lean_mass_index total_lmi", "lean mass / height²" },
	{ "sat_mass", G, "subcutaneous_fat_mass est_sat_mass", "subcutaneous fat mass" },
	/* regional */
	{ "fat_mass", KG, "fat", "fat mass" },
	{ "lean_mass", KG, "lean", "lean mass" },
	{ "bmc", KG, "bone_mineral_content bone_mass", "bone mineral content" },
	{ "total_mass", KG, "mass total", "total mass" },
	{ "fat_pct", PCT, "percent_fat pct_fat fat_percent tissue_fat_pct", "% fat" },
};

#define NFIELDS (sizeof fields / sizeof fields[0])
#define NWHOLE 19

static const struct { const char *name, *aliases; } regions[] = {
	{ "left_arm", "l_arm arm_left larm" },
	{ "right_arm", "r_arm arm_right rarm" },
	{ "left_leg", "l_leg leg_left lleg" },
	{ "right_leg", "r_leg leg_right rleg" },
	{ "arms", "both_arms" },
	{ "legs", "both_legs" },
	{ "trunk", "torso" },
	{ "head", "" },
	{ "android", "" },
	{ "gynoid", "" },
};

#define NREGIONS (sizeof regions / sizeof regions[0])

size_t
hq_dexa_field_count(void)
{
	return NFIELDS;
}

size_t
hq_dexa_region_count(void)
{
	return NREGIONS;
}

const char *
hq_dexa_name_at(size_t i)
{
	/* The regional names are made once: a table, not a per-call buffer. */
	static char regional[NREGIONS][NFIELDS - NWHOLE][48];
	size_t nr = NFIELDS - NWHOLE;
	char *name;

	if (i < NWHOLE)
		return fields[i].name;
	i -= NWHOLE;
	if (i >= NREGIONS * nr)
		return NULL;
	name = regional[i / nr][i % nr];
	if (!name[0])
		snprintf(name, 48, "%s_%s", regions[i / nr].name,
		    fields[NWHOLE + i % nr].name);
	return name;
}

static const struct hq_dexa_field *
find_field(const char *key, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (strcmp(key, fields[i].name) == 0 ||
		    hq_catalog_word_in(fields[i].aliases, key))
			return &fields[i];
	return NULL;
}

static const char *
find_region(const char *key)
{
	for (size_t i = 0; i < NREGIONS; i++)
		if (strcmp(key, regions[i].name) == 0 ||
		    hq_catalog_word_in(regions[i].aliases, key))
			return regions[i].name;
	return NULL;
}

/* "trunk_fat_mass", "l_arm_lean": a region's name or alias, '_', and a
 * regional field. */
static const struct hq_dexa_field *
split_regional(const char *key, const char **region)
{
	for (size_t i = 0; i < NREGIONS; i++) {
		const char *words[8] = { regions[i].name };
		size_t nw = 1;
		const char *p = regions[i].aliases;
		char alias[8][16];
		while (*p && nw < 8) {
			size_t len = strcspn(p, " ");
			if (len < sizeof alias[0]) {
				memcpy(alias[nw], p, len);
				alias[nw][len] = '\0';
				words[nw] = alias[nw];
				nw++;
			}
			p += len + (p[len] == ' ');
		}
		for (size_t w = 0; w < nw; w++) {
			size_t len = strlen(words[w]);
			if (strncmp(key, words[w], len) == 0 && key[len] == '_') {
				const struct hq_dexa_field *f =
				    find_field(key + len + 1, NWHOLE, NFIELDS);
				if (f) {
					*region = regions[i].name;
					return f;
				}
			}
		}
	}
	return NULL;
}

static void
suggest(const char *key, struct hq_err *e, const char *what)
{
	struct hq_catalog_suggestion s;
	char full[96];

	hq_catalog_suggest_start(&s, key);
	for (size_t i = 0; i < NWHOLE; i++) {
		hq_catalog_suggest_word(&s, fields[i].name, strlen(fields[i].name));
		hq_catalog_suggest_words(&s, fields[i].aliases, 4);
	}
	for (size_t r = 0; r < NREGIONS; r++)
		for (size_t i = NWHOLE; i < NFIELDS; i++) {
			int k = snprintf(full, sizeof full, "%s_%s",
			    regions[r].name, fields[i].name);
			hq_catalog_suggest_word(&s, full, (size_t)k);
		}
	if (hq_catalog_suggest_pick(&s))
		hq_err_set(e, "unknown DEXA %s '%.60s' (did you mean %s?)", what,
		    key, s.pick);
	else
		hq_err_set(e, "unknown DEXA %s '%.60s' (hq-ingest(1) lists the "
		    "names)", what, key);
}

int
hq_dexa_field_name(const char *field, const char *region, char *buf, size_t n,
    const char **unit, struct hq_err *e)
{
	char key[96], rkey[64];
	const struct hq_dexa_field *f = NULL;
	const char *reg = NULL;

	hq_labs_snake(field, key, sizeof key);
	hq_labs_snake(region ? region : "", rkey, sizeof rkey);
	if (!key[0]) {
		hq_err_set(e, "no field name");
		return -1;
	}
	if (rkey[0] && strcmp(rkey, "total") && strcmp(rkey, "whole_body")) {
		if (!(reg = find_region(rkey))) {
			hq_err_set(e, "unknown DEXA region '%.40s' (regions: "
			    "left_arm, right_arm, left_leg, right_leg, arms, "
			    "legs, trunk, head, android, gynoid)", rkey);
			return -1;
		}
		if (!(f = find_field(key, NWHOLE, NFIELDS))) {
			hq_err_set(e, "field '%.40s' has no regional form (a "
			    "region takes fat_mass, lean_mass, bmc, total_mass, "
			    "fat_pct)", key);
			return -1;
		}
	} else if (!(f = find_field(key, 0, NWHOLE)) &&
	    !(f = split_regional(key, &reg))) {
		suggest(key, e, "field");
		return -1;
	}
	if (reg)
		snprintf(buf, n, "%s_%s", reg, f->name);
	else
		snprintf(buf, n, "%s", f->name);
	*unit = f->unit;
	return 0;
}

int
hq_dexa_field_known(const char *name, const char **unit)
{
	const struct hq_dexa_field *f = NULL;
	const char *reg;

	for (size_t i = 0; i < NWHOLE && !f; i++)
		if (strcmp(name, fields[i].name) == 0)
			f = &fields[i];
	if (!f && (f = split_regional(name, &reg))) {
		char full[96];
		snprintf(full, sizeof full, "%s_%s", reg, f->name);
		if (strcmp(full, name) != 0)
			f = NULL;   /* an alias, not the canonical name */
	}
	if (f && unit)
		*unit = f->unit;
	return f != NULL;
}

/* Units as written, lower case, to the canonical unit and a factor. */
static const struct {
	const char *spellings, *canon;
	double factor;
} unit_map[] = {
	{ "kg kgs kilogram kilograms", KG, 1 },
	{ "g gm gram grams", KG, 1e-3 },
	{ "lb lbs pound pounds", KG, 0.45359237 },
	{ "kg kgs kilogram kilograms", G, 1e3 },
	{ "g gm gram grams", G, 1 },
	{ "lb lbs pound pounds", G, 453.59237 },
	{ "cm3 cm\xc2\xb3 cc ml", CM3, 1 },
	{ "in3 in\xc2\xb3 cu_in cubic_inches", CM3, 16.387064 },
	{ "cm2 cm\xc2\xb2", CM2, 1 },
	{ "in2 in\xc2\xb2 sq_in square_inches", CM2, 6.4516 },
	{ "% percent pct", PCT, 1 },
	{ "kg/m2 kg/m\xc2\xb2 kg/m^2", KGM2, 1 },
	{ "g/cm2 g/cm\xc2\xb2 g/cm^2", GCM2, 1 },
	{ "ratio sd", "", 1 },
};

/* Convert v written in unit (may be "" or NULL: the canonical unit) to the
 * canonical unit canon. 0, or -1 with e naming the units that fit. */
static int
hq_dexa_convert(double v, const char *unit, const char *canon, double *out,
    struct hq_err *e)
{
	char low[32];
	size_t k = 0;

	*out = v;
	if (!unit)
		unit = "";
	unit += strspn(unit, " ");
	for (; unit[k] && k + 1 < sizeof low; k++)
		low[k] = unit[k] == ' ' ? '_' : (char)((unit[k] >= 'A' &&
		    unit[k] <= 'Z') ? unit[k] + 32 : unit[k]);
	while (k && low[k - 1] == '_')
		k--;
	low[k] = '\0';
	if (!low[0])
		return 0;   /* no unit: the canonical one */
	for (size_t i = 0; i < sizeof unit_map / sizeof unit_map[0]; i++)
		if (strcmp(unit_map[i].canon, canon) == 0 &&
		    hq_catalog_word_in(unit_map[i].spellings, low)) {
			*out = v * unit_map[i].factor;
			return 0;
		}
	if (!canon[0])
		hq_err_set(e, "unit '%.20s' for a field without a unit", unit);
	else if (strcmp(canon, KG) == 0 || strcmp(canon, G) == 0)
		hq_err_set(e, "unit '%.20s' is not kg, g or lb", unit);
	else if (strcmp(canon, CM3) == 0)
		hq_err_set(e, "unit '%.20s' is not cm³ or in³", unit);
	else if (strcmp(canon, CM2) == 0)
		hq_err_set(e, "unit '%.20s' is not cm² or in²", unit);
	else
		hq_err_set(e, "unit '%.20s' is not %s", unit, canon);
	return -1;
}

/* ------------------------------------------------------------------ */
/* Scans                                                                */

static int
scan_date(struct hq_dexa_scan *s, const char *date, struct hq_err *e)
{
	if (!date || hq_time_parse(date, &s->time)) {
		hq_err_set(e, "date '%.40s' is not a date (2024-03-01 or an ISO "
		    "8601 date-time)", date ? date : "");
		return -1;
	}
	hq_time_format_date(s->time, s->date, sizeof s->date);
	return 0;
}

static void
scan_source(struct hq_dexa_scan *s, const char *src, const struct hq_dexa_sink *k)
{
	if (!src || !*src)
		src = k->source ? k->source : "";
	snprintf(s->source, sizeof s->source, "%s", src);
}

/* Whether the canonical field name may be below zero: a T- or Z-score
 * (standard deviations from a mean), not a mass, percentage, volume,
 * area, ratio or index. */
static int
field_negative(const char *name)
{
	return strcmp(name, "t_score") == 0 || strcmp(name, "z_score") == 0;
}

/* A scan to the sink, counted (at most HQ_DEXA_MAX_SCANS a file); what
 * the sink refuses (the import writer's checks) named file:line. */
static int
emit_scan(struct hq_dexa_sink *sink, const struct hq_dexa_scan *s,
    struct hq_err *e)
{
	if (sink->read == HQ_DEXA_MAX_SCANS) {
		hq_err_set(e, "%s:%ld: more than %d scans in one file", sink->file,
		    s->line, HQ_DEXA_MAX_SCANS);
		return -1;
	}
	sink->read++;
	if (sink->emit(sink->arg, s, e) == 0)
		return 0;
	if (strncmp(e->msg, sink->file, strlen(sink->file)) != 0)
		hq_err_prefix(e, "%s:%ld", sink->file, s->line);
	return -1;
}

/* Add a field as written: name, region, value, unit. */
static int
scan_add(struct hq_dexa_scan *s, const char *field, const char *region,
    double v, const char *unit, struct hq_err *e)
{
	char name[48];
	const char *canon;
	double cv;

	if (hq_dexa_field_name(field, region, name, sizeof name, &canon, e))
		return -1;
	if (hq_dexa_convert(v, unit, canon, &cv, e)) {
		hq_err_prefix(e, "%s", name);
		return -1;
	}
	if (cv < 0 && !field_negative(name)) {
		hq_err_set(e, "%s %g is negative (only t_score and z_score can "
		    "be)", name, v);
		return -1;
	}
	for (size_t i = 0; i < s->n; i++) {
		if (strcmp(s->v[i].field, name) != 0)
			continue;
		if (fabs(s->v[i].value - cv) <= 1e-9 * fmax(1, fabs(cv)))
			return 0;
		hq_err_set(e, "%s given twice for %s with different values",
		    name, s->date);
		return -1;
	}
	if (s->n == HQ_DEXA_MAX_FIELDS) {
		hq_err_set(e, "more than %d fields in one scan", HQ_DEXA_MAX_FIELDS);
		return -1;
	}
	snprintf(s->v[s->n].field, sizeof s->v[s->n].field, "%s", name);
	s->v[s->n].value = cv;
	s->v[s->n].unit = canon;
	s->n++;
	return 0;
}

/* ------------------------------------------------------------------ */
/* JSON                                                                 */

static int
json_field(struct hq_dexa_scan *s, const cJSON *f, const char *region,
    struct hq_err *e)
{
	const char *unit = NULL;
	double v;

	if (cJSON_IsNull(f))
		return 0;
	if (cJSON_IsObject(f)) {
		if (hq_json_num(f, "value", &v)) {
			hq_err_set(e, "%s: \"value\" is not a number", f->string);
			return -1;
		}
		unit = hq_json_str(f, "unit");
	} else if (cJSON_IsNumber(f) && isfinite(f->valuedouble)) {
		v = f->valuedouble;
	} else {
		hq_err_set(e, "%s: neither a number nor {\"value\",\"unit\"}",
		    f->string);
		return -1;
	}
	return scan_add(s, f->string, region, v, unit, e);
}

static int
json_scan(struct hq_dexa_sink *sink, const cJSON *o, long line,
    struct hq_err *e)
{
	struct hq_dexa_scan *s = hq_xcalloc(1, sizeof *s);
	const char *kind = hq_json_str(o, "kind");
	const cJSON *f, *reg, *fs = cJSON_GetObjectItemCaseSensitive(o, "fields");
	const cJSON *rs = cJSON_GetObjectItemCaseSensitive(o, "regions");
	struct hq_err fe;
	int rc = -1;

	s->line = line;
	if (!cJSON_IsObject(o) || (kind && strcmp(kind, "dexa") != 0)) {
		hq_err_set(&fe, "not a DEXA scan (an object with \"kind\":\"dexa\")");
		goto out;
	}
	if (scan_date(s, hq_json_str(o, "date"), &fe))
		goto out;
	scan_source(s, hq_json_str(o, "source"), sink);
	if ((fs && !cJSON_IsObject(fs)) || (rs && !cJSON_IsObject(rs))) {
		hq_err_set(&fe, "\"fields\" and \"regions\" must be objects");
		goto out;
	}
	cJSON_ArrayForEach(f, fs)
		if (json_field(s, f, NULL, &fe))
			goto out;
	cJSON_ArrayForEach(reg, rs) {
		if (!cJSON_IsObject(reg)) {
			hq_err_set(&fe, "region %s is not an object", reg->string);
			goto out;
		}
		cJSON_ArrayForEach(f, reg)
			if (json_field(s, f, reg->string, &fe))
				goto out;
	}
	if (s->n == 0) {
		hq_err_set(&fe, "a scan of %s without fields", s->date);
		goto out;
	}
	rc = emit_scan(sink, s, e);
	free(s);
	return rc;
out:
	hq_err_set(e, "%s:%ld: %s", sink->file, line, fe.msg);
	free(s);
	return rc;
}

int
hq_dexa_json_sniff(const cJSON *v)
{
	const char *kind;

	if (cJSON_IsArray(v))
		v = cJSON_GetArrayItem(v, 0);
	kind = hq_json_str(v, "kind");
	return kind && strcmp(kind, "dexa") == 0;
}

int
hq_dexa_json(struct hq_dexa_sink *sink, const cJSON *v, long line,
    struct hq_err *e)
{
	const cJSON *one;

	if (!cJSON_IsArray(v))
		return json_scan(sink, v, line, e);
	cJSON_ArrayForEach(one, v)
		if (json_scan(sink, one, line, e))
			return -1;
	return 0;
}

/* A file of scans streamed: a top-level array's scans parsed one at a
 * time, a top-level object (a scan) member by member. */
static int
stream_scan(void *arg, const cJSON *v, long line, struct hq_err *e)
{
	return json_scan(arg, v, line, e);
}

static const struct hq_jsonin_stream_cb stream_cb = {
	.element = stream_scan,
	.value = stream_scan,
	.element_what = "a DEXA scan",
	.split_top = 1,
};

struct hq_jsonin_stream *
hq_dexa_stream(struct hq_dexa_sink *sink, const struct hq_jsonin_limits *lim)
{
	return hq_jsonin_stream_new(sink->file, lim, &stream_cb, sink);
}

/* ------------------------------------------------------------------ */
/* CSV                                                                  */

enum { D_DATE, D_FIELD, D_VALUE, D_UNIT, D_REGION, D_SOURCE };
static const char *const col_names[] = { "date", "field", "value", "unit",
	"region", "source", NULL };

struct hq_dexa_csv {
	struct hq_dexa_sink *sink;
	struct hq_csvline_table t;
	struct hq_dexa_scan **scans;
	size_t nscans;
};

struct hq_dexa_csv *
hq_dexa_csv_new(struct hq_dexa_sink *sink)
{
	struct hq_dexa_csv *c = hq_xcalloc(1, sizeof *c);

	c->sink = sink;
	c->t.names = col_names;
	c->t.nrequired = D_UNIT + 1;
	return c;
}

void
hq_dexa_csv_free(struct hq_dexa_csv *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nscans; i++)
		free(c->scans[i]);
	free(c->scans);
	free(c);
}

/* The scan of a date and source, new when there is none yet. */
static struct hq_dexa_scan *
csv_scan(struct hq_dexa_csv *c, const char *date, const char *source,
    long lineno, struct hq_err *e)
{
	struct hq_dexa_scan probe, *s;

	if (scan_date(&probe, date, e))
		return NULL;
	scan_source(&probe, source, c->sink);
	for (size_t i = 0; i < c->nscans; i++) {
		s = c->scans[i];
		if (strcmp(s->date, probe.date) == 0 &&
		    strcmp(s->source, probe.source) == 0)
			return s;
	}
	if (c->nscans == HQ_DEXA_MAX_SCANS) {
		hq_err_set(e, "more than %d scans in one file", HQ_DEXA_MAX_SCANS);
		return NULL;
	}
	s = hq_xcalloc(1, sizeof *s);
	memcpy(s->date, probe.date, sizeof s->date);
	memcpy(s->source, probe.source, sizeof s->source);
	s->time = probe.time;
	s->line = lineno;
	c->scans = hq_xrealloc(c->scans, (c->nscans + 1) * sizeof *c->scans);
	c->scans[c->nscans++] = s;
	return s;
}

int
hq_dexa_csv_line(struct hq_dexa_csv *c, char *line, size_t len, long lineno,
    struct hq_err *e)
{
	const struct hq_csvline_table *t = &c->t;
	const char *value, *field;
	struct hq_dexa_scan *s;
	struct hq_err fe;
	double v;
	int rc = hq_csvline_table_line(&c->t, line, len, &fe);

	if (rc <= 0) {
		if (rc < 0)
			hq_err_set(e, "%s:%ld: %s", c->sink->file, lineno, fe.msg);
		return rc;
	}
	value = hq_csvline_table_get(t, D_VALUE);
	field = hq_csvline_table_get(t, D_FIELD);
	if (!value || hq_csvline_number(value, &v)) {
		hq_err_set(&fe, "value '%.20s' is not a number", value ? value : "");
		goto bad;
	}
	if (!(s = csv_scan(c, hq_csvline_table_get(t, D_DATE),
	    hq_csvline_table_get(t, D_SOURCE), lineno, &fe)) ||
	    scan_add(s, field ? field : "", hq_csvline_table_get(t, D_REGION), v,
	    hq_csvline_table_get(t, D_UNIT), &fe))
		goto bad;
	return 0;
bad:
	hq_err_set(e, "%s:%ld: %s", c->sink->file, lineno, fe.msg);
	return -1;
}

int
hq_dexa_csv_finish(struct hq_dexa_csv *c, struct hq_err *e)
{
	if (!c->t.ncols) {
		hq_err_set(e, "%s: empty (no header)", c->sink->file);
		return -1;
	}
	for (size_t i = 0; i < c->nscans; i++)
		if (emit_scan(c->sink, c->scans[i], e))
			return -1;
	return 0;
}

int
hq_dexa_csv_sniff(const char *line, size_t len)
{
	static const char *const names[] = { "date", "field", "value", "unit", NULL };

	return hq_csvline_header_has(line, len, names);
}
