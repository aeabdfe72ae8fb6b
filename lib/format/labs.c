#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/csvline.h"
#include "hq/labs.h"
#include "hq/time.h"

/*
 * The catalog. Codes are LOINC's, each one seen consistently in two or
 * more independent public files ("the reference": the table
 * tests/unit/labs.c holds the catalog to) unless a comment says otherwise;
 * hq-report(1) (Labs) gives the groups of ldl, hba1c and glucose. Molar
 * masses are derived from the conversion factors hq-report(1) gives
 * (Units) so that they reproduce them exactly:
 * cholesterol mg/dL ÷ 38.67 = mmol/L is 386.7 g/mol, creatinine mg/dL ×
 * 88.4 = µmol/L is 1e4/88.4 g/mol, and so on.
 */
#define CODES(...) ((const struct hq_lab_code[]){ __VA_ARGS__, { 0 } })
#define NOX NULL, 0, 0     /* no unit with a factor of its own */

static const struct hq_lab_test tests[] = {
	/* lipids */
	{ "total_cholesterol", "cholesterol chol tc total_chol cholesterol_total",
	  "total cholesterol", "mg/dL", "mg/dL mmol/L", 386.7,
	  CODES({ "2093-3", "mg/dL", "" }, { "14647-2", "mmol/L", "" }), NOX },
	{ "hdl", "hdl_c hdl_cholesterol hdl_chol cholesterol_hdl cholesterol_in_hdl",
	  "HDL cholesterol", "mg/dL", "mg/dL mmol/L", 386.7,
	  CODES({ "2085-9", "mg/dL", "" }, { "14646-4", "mmol/L", "" }), NOX },
	{ "ldl", "ldl_c ldl_cholesterol ldl_chol cholesterol_ldl cholesterol_in_ldl",
	  "LDL cholesterol", "mg/dL", "mg/dL mmol/L", 386.7,
	  CODES({ "2089-1", "mg/dL", "" },
	      { "13457-7", "mg/dL", "calculated" },
	      /* 18262-6: seen in one file only, not in the reference; HL7's ValueSet
	       * lipid-ldl-codes (LOINC 2.80 expansion) lists it as
	       * "Cholesterol in LDL [Mass/volume] ... by Direct assay". */
	      { "18262-6", "mg/dL", "direct" },
	      { "22748-8", "mmol/L", "" }), NOX },
	{ "triglycerides", "tg trig trigs triglyceride",
	  "triglycerides", "mg/dL", "mg/dL mmol/L", 885.7,
	  CODES({ "2571-8", "mg/dL", "" }, { "14927-8", "mmol/L", "" }), NOX },
	{ "non_hdl", "non_hdl_c non_hdl_cholesterol nonhdl cholesterol_non_hdl",
	  "non-HDL cholesterol", "mg/dL", "mg/dL mmol/L", 386.7,
	  CODES({ "43396-1", "mg/dL", "" }), NOX },
	{ "apob", "apo_b apolipoprotein_b apolipoprotein_b100 apob100",
	  "apolipoprotein B", "mg/dL", "mg/dL g/L", 0,
	  CODES({ "1884-6", "mg/dL", "" }), NOX },
	{ "apoa1", "apo_a1 apolipoprotein_a1 apolipoprotein_a_i",
	  "apolipoprotein A-I", "mg/dL", "mg/dL g/L", 0,
	  CODES({ "1869-7", "mg/dL", "" }), NOX },
	/* No fixed conversion between mg/dL and nmol/L (isoform-dependent):
	 * no molar mass, two codes. */
	{ "lpa", "lp_a lipoprotein_a lipoprotein_little_a",
	  "lipoprotein(a)", "mg/dL", "mg/dL nmol/L", 0,
	  CODES({ "10835-7", "mg/dL", "" }, { "43583-4", "nmol/L", "" }), NOX },
	/* glucose metabolism */
	{ "hba1c", "a1c hemoglobin_a1c haemoglobin_a1c hgba1c hb_a1c "
	  "glycated_hemoglobin glycohemoglobin",
	  "HbA1c", "%", "% mmol/mol", 0,
	  CODES({ "4548-4", "%", "" },
	      /* 17856-6: hq-report(1)'s group; not in the reference's table.
	       * HL7 IPS and vulcan-rwd examples name it "Hemoglobin
	       * A1c/Hemoglobin.total in Blood by HPLC". */
	      { "17856-6", "%", "HPLC" },
	      { "59261-8", "mmol/mol", "" }),
	  "mmol/mol", 10.93, -23.5 },
	{ "glucose", "glu glucose_fasting fasting_glucose glucose_serum "
	  "serum_glucose plasma_glucose blood_sugar",
	  "glucose", "mg/dL", "mg/dL mmol/L", 180.16,
	  CODES({ "2345-7", "mg/dL", "" }, { "1558-6", "mg/dL", "fasting" },
	      { "2339-0", "mg/dL", "" }, { "14749-6", "mmol/L", "" },
	      /* 15074-8: not in the reference's table; the FHIR R4 example
	       * observation-example-f001-glucose (a fixture) and HL7's
	       * ObservationDefinition example: "Glucose [Moles/volume] in
	       * Blood". */
	      { "15074-8", "mmol/L", "" }), NOX },
	{ "insulin", "fasting_insulin", "insulin", "uIU/mL", "uIU/mL pmol/L", 0,
	  CODES({ "20448-7", "uIU/mL", "" }), "pmol/L", 6.945, 0 },
	/* kidney, electrolytes (mEq/L = mmol/L for these monovalent ions) */
	{ "sodium", "na", "sodium", "mmol/L", "mmol/L mEq/L", 0,
	  CODES({ "2951-2", "mmol/L", "" }), "mEq/L", 1, 0 },
	{ "potassium", "k", "potassium", "mmol/L", "mmol/L mEq/L", 0,
	  CODES({ "2823-3", "mmol/L", "" }), "mEq/L", 1, 0 },
	{ "chloride", "cl", "chloride", "mmol/L", "mmol/L mEq/L", 0,
	  CODES({ "2075-0", "mmol/L", "" }), "mEq/L", 1, 0 },
	{ "co2", "bicarbonate hco3 carbon_dioxide total_co2 bicarb",
	  "carbon dioxide (bicarbonate)", "mmol/L", "mmol/L mEq/L", 0,
	  CODES({ "2028-9", "mmol/L", "" }), "mEq/L", 1, 0 },
	/* BUN mmol/L means urea: mg/dL × 0.357 (the usual factor; no file
	 * checked it). */
	{ "bun", "urea_nitrogen blood_urea_nitrogen urea_nitrogen_bun",
	  "urea nitrogen", "mg/dL", "mg/dL mmol/L", 10 / 0.357,
	  CODES({ "3094-0", "mg/dL", "" }), NOX },
	{ "creatinine", "creat", "creatinine", "mg/dL", "mg/dL umol/L", 1e4 / 88.4,
	  CODES({ "2160-0", "mg/dL", "" }, { "14682-9", "umol/L", "" }), NOX },
	{ "egfr", "gfr estimated_gfr egfr_ckd_epi", "estimated GFR",
	  "mL/min/1.73m2", "mL/min/1.73m2", 0,
	  CODES({ "33914-3", "mL/min/1.73m2", "MDRD" },
	      { "62238-1", "mL/min/1.73m2", "CKD-EPI" },
	      { "98979-8", "mL/min/1.73m2", "CKD-EPI 2021" }), NOX },
	{ "calcium", "ca", "calcium", "mg/dL", "mg/dL mmol/L", 10 / 0.2495,
	  CODES({ "17861-6", "mg/dL", "" }), NOX },
	{ "total_protein", "protein protein_total", "total protein",
	  "g/dL", "g/dL g/L", 0, CODES({ "2885-2", "g/dL", "" }), NOX },
	{ "albumin", "alb", "albumin", "g/dL", "g/dL g/L", 0,
	  CODES({ "1751-7", "g/dL", "" }), NOX },
	{ "bilirubin", "total_bilirubin bilirubin_total tbil bili",
	  "total bilirubin", "mg/dL", "mg/dL umol/L", 1e4 / 17.1,
	  CODES({ "1975-2", "mg/dL", "" }), NOX },
	{ "alp", "alkaline_phosphatase alk_phos", "alkaline phosphatase",
	  "U/L", "U/L", 0, CODES({ "6768-6", "U/L", "" }), NOX },
	{ "alt", "alanine_aminotransferase sgpt", "ALT", "U/L", "U/L", 0,
	  CODES({ "1742-6", "U/L", "" }), NOX },
	{ "ast", "aspartate_aminotransferase sgot", "AST", "U/L", "U/L", 0,
	  CODES({ "1920-8", "U/L", "" }), NOX },
	{ "ggt", "gamma_gt gamma_glutamyltransferase", "GGT", "U/L", "U/L", 0,
	  CODES({ "2324-2", "U/L", "" }), NOX },
	{ "uric_acid", "urate", "uric acid", "mg/dL", "mg/dL umol/L", 1e4 / 59.48,
	  CODES({ "3084-1", "mg/dL", "" }, { "14933-6", "umol/L", "" }), NOX },
	/* blood count */
	{ "wbc", "white_blood_cells leukocytes white_cell_count", "white blood cells",
	  "10*3/uL", "10*3/uL 10*9/L", 0, CODES({ "6690-2", "10*3/uL", "" }), NOX },
	{ "rbc", "red_blood_cells erythrocytes red_cell_count", "red blood cells",
	  "10*6/uL", "10*6/uL 10*12/L", 0, CODES({ "789-8", "10*6/uL", "" }), NOX },
	{ "hemoglobin", "hgb hb haemoglobin", "hemoglobin", "g/dL",
	  "g/dL g/L mmol/L", 1e4 / 0.6206,
	  CODES({ "718-7", "g/dL", "" }, { "59260-0", "mmol/L", "" }), NOX },
	{ "hematocrit", "hct haematocrit", "hematocrit", "%", "% L/L", 0,
	  CODES({ "4544-3", "%", "" }), "L/L", 0.01, 0 },
	{ "platelets", "plt platelet_count thrombocytes", "platelets",
	  "10*3/uL", "10*3/uL 10*9/L", 0, CODES({ "777-3", "10*3/uL", "" }), NOX },
	{ "mcv", "mean_corpuscular_volume", "mean corpuscular volume", "fL", "fL", 0,
	  CODES({ "787-2", "fL", "" }), NOX },
	{ "mch", "mean_corpuscular_hemoglobin", "mean corpuscular hemoglobin",
	  "pg", "pg", 0, CODES({ "785-6", "pg", "" }), NOX },
	{ "mchc", "", "mean corpuscular hemoglobin concentration", "g/dL",
	  "g/dL g/L", 0, CODES({ "786-4", "g/dL", "" }), NOX },
	{ "rdw", "red_cell_distribution_width", "red cell distribution width",
	  "%", "%", 0, CODES({ "788-0", "%", "" }), NOX },
	{ "mpv", "mean_platelet_volume", "mean platelet volume", "fL", "fL", 0,
	  CODES({ "32623-1", "fL", "" }), NOX },
	{ "neutrophils", "neutrophils_absolute absolute_neutrophils anc",
	  "neutrophils (absolute)", "10*3/uL", "10*3/uL 10*9/L", 0,
	  CODES({ "751-8", "10*3/uL", "" }), NOX },
	{ "neutrophils_pct", "neutrophils_percent", "neutrophils (%)", "%", "%", 0,
	  CODES({ "770-8", "%", "" }), NOX },
	{ "lymphocytes", "lymphocytes_absolute absolute_lymphocytes",
	  "lymphocytes (absolute)", "10*3/uL", "10*3/uL 10*9/L", 0,
	  CODES({ "731-0", "10*3/uL", "" }), NOX },
	{ "lymphocytes_pct", "lymphocytes_percent", "lymphocytes (%)", "%", "%", 0,
	  CODES({ "736-9", "%", "" }), NOX },
	/* thyroid */
	{ "tsh", "thyrotropin thyroid_stimulating_hormone", "TSH",
	  "uIU/mL", "uIU/mL mIU/L", 0, CODES({ "3016-3", "uIU/mL", "" }), NOX },
	{ "free_t4", "ft4 free_thyroxine t4_free", "free T4", "ng/dL", "ng/dL", 0,
	  CODES({ "3024-7", "ng/dL", "" }), NOX },
	{ "free_t3", "ft3 free_triiodothyronine t3_free", "free T3", "pg/mL",
	  "pg/mL", 0, CODES({ "3051-0", "pg/mL", "" }), NOX },
	{ "total_t4", "t4 thyroxine t4_total", "total T4", "ug/dL", "ug/dL", 0,
	  CODES({ "3026-2", "ug/dL", "" }), NOX },
	{ "total_t3", "t3 triiodothyronine t3_total", "total T3", "ng/dL",
	  "ng/dL", 0, CODES({ "3053-6", "ng/dL", "" }), NOX },
	{ "tpo_ab", "tpo anti_tpo thyroid_peroxidase_antibodies",
	  "thyroid peroxidase antibodies", "IU/mL", "IU/mL", 0,
	  CODES({ "8099-4", "IU/mL", "" }), NOX },
	/* vitamins, iron */
	{ "vitamin_d", "vit_d vitamin_d_total vitamin_d_25_oh vitamin_d_25_hydroxy "
	  "25_oh_vitamin_d 25_hydroxyvitamin_d 25_oh_d calcidiol",
	  "25-OH vitamin D (D2+D3)", "ng/mL", "ng/mL nmol/L", 1e3 / 2.496,
	  CODES({ "62292-8", "ng/mL", "" }), NOX },
	{ "vitamin_d3", "vit_d3 25_oh_vitamin_d3 vitamin_d3_25_oh",
	  "25-OH vitamin D3", "ng/mL", "ng/mL nmol/L", 1e3 / 2.496,
	  CODES({ "1989-3", "ng/mL", "" }, { "14635-7", "nmol/L", "" }), NOX },
	{ "vitamin_b12", "b12 vit_b12 cobalamin", "vitamin B12", "pg/mL",
	  "pg/mL pmol/L", 1e3 / 0.738,
	  CODES({ "2132-9", "pg/mL", "" }, { "16695-9", "pmol/L", "" }), NOX },
	{ "folate", "folic_acid", "folate", "ng/mL", "ng/mL nmol/L", 1e3 / 2.266,
	  CODES({ "2284-8", "ng/mL", "" }), NOX },
	{ "ferritin", "", "ferritin", "ng/mL", "ng/mL ug/L", 0,
	  CODES({ "2276-4", "ng/mL", "" }), NOX },
	{ "iron", "fe serum_iron", "iron", "ug/dL", "ug/dL umol/L", 10 / 0.179,
	  CODES({ "2498-4", "ug/dL", "" }), NOX },
	{ "tibc", "total_iron_binding_capacity", "total iron-binding capacity",
	  "ug/dL", "ug/dL umol/L", 10 / 0.179, CODES({ "2500-7", "ug/dL", "" }), NOX },
	/* inflammation, hormones. CRP and hs-CRP are one group, so that a
	 * trend shows where the method changed instead of two half-trends. */
	{ "crp", "c_reactive_protein hs_crp hscrp crp_hs high_sensitivity_crp",
	  "C-reactive protein", "mg/L", "mg/L mg/dL", 0,
	  CODES({ "1988-5", "mg/L", "standard" }, { "30522-7", "mg/L", "hs" }), NOX },
	{ "homocysteine", "hcy", "homocysteine", "umol/L", "umol/L", 0,
	  CODES({ "13965-9", "umol/L", "" }), NOX },
	{ "testosterone", "total_testosterone testosterone_total",
	  "testosterone (total)", "ng/dL", "ng/dL nmol/L", 10 / 0.0347,
	  CODES({ "2986-8", "ng/dL", "" }), NOX },
	{ "cortisol", "", "cortisol", "ug/dL", "ug/dL nmol/L", 1e4 / 27.59,
	  CODES({ "2143-6", "ug/dL", "" }), NOX },
	{ "psa", "prostate_specific_antigen", "PSA", "ng/mL", "ng/mL", 0,
	  CODES({ "2857-1", "ng/mL", "" }), NOX },
};

#define NTESTS (sizeof tests / sizeof tests[0])

/* Names for a method written into a test's name in a file without codes
 * ("LDL (direct)", "hs-CRP", "Glucose, fasting"): the name picks the code
 * when the unit is the code's own. */
static const struct { const char *name, *loinc; } method_names[] = {
	{ "ldl_calc", "13457-7" }, { "ldl_calculated", "13457-7" },
	{ "ldl_c_calculated", "13457-7" }, { "ldl_cholesterol_calculated", "13457-7" },
	{ "ldl_direct", "18262-6" }, { "ldl_c_direct", "18262-6" },
	{ "ldl_cholesterol_direct", "18262-6" }, { "direct_ldl", "18262-6" },
	{ "hs_crp", "30522-7" }, { "hscrp", "30522-7" }, { "crp_hs", "30522-7" },
	{ "high_sensitivity_crp", "30522-7" },
	{ "glucose_fasting", "1558-6" }, { "fasting_glucose", "1558-6" },
};

size_t
hq_labs_count(void)
{
	return NTESTS;
}

const struct hq_lab_test *
hq_labs_at(size_t i)
{
	return i < NTESTS ? &tests[i] : NULL;
}

const struct hq_lab_test *
hq_labs_by_loinc(const char *loinc, const struct hq_lab_code **code)
{
	for (size_t i = 0; i < NTESTS; i++)
		for (const struct hq_lab_code *c = tests[i].codes; c->loinc; c++)
			if (strcmp(c->loinc, loinc) == 0) {
				if (code)
					*code = c;
				return &tests[i];
			}
	return NULL;
}

void
hq_labs_snake(const char *name, char *buf, size_t n)
{
	size_t k = 0;
	int gap = 0;

	if (n == 0)
		return;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
		if (isalnum(*p) || *p >= 0x80) {
			size_t need = gap && k ? 2 : 1;
			/* Never cut a UTF-8 sequence: stop before a lead byte
			 * whose sequence would not fit. */
			if (k + need >= n)
				break;
			if (gap && k)
				buf[k++] = '_';
			gap = 0;
			buf[k++] = *p < 0x80 ? (char)tolower(*p) : (char)*p;
		} else {
			gap = 1;
		}
	}
	while (k && ((unsigned char)buf[k - 1] & 0xC0) == 0xC0)
		k--;    /* a lead byte left without its continuation */
	buf[k] = '\0';
}

/* A name (snake_case already) as a test and maybe a code. */
static const struct hq_lab_test *
find_name(const char *key, const struct hq_lab_code **code)
{
	*code = NULL;
	for (size_t i = 0; i < sizeof method_names / sizeof method_names[0]; i++)
		if (strcmp(key, method_names[i].name) == 0)
			return hq_labs_by_loinc(method_names[i].loinc, code);
	for (size_t i = 0; i < NTESTS; i++)
		if (strcmp(key, tests[i].name) == 0 ||
		    hq_catalog_word_in(tests[i].aliases, key))
			return &tests[i];
	return NULL;
}

const struct hq_lab_test *
hq_labs_lookup(const char *name)
{
	const struct hq_lab_test *t = hq_labs_by_loinc(name, NULL);
	const struct hq_lab_code *code;
	char key[128];

	if (t)
		return t;
	hq_labs_snake(name, key, sizeof key);
	return find_name(key, &code);
}

const char *
hq_labs_suggest(const char *name, char *buf, size_t n)
{
	struct hq_catalog_suggestion s;
	char key[128];

	hq_labs_snake(name, key, sizeof key);
	hq_catalog_suggest_start(&s, key);
	for (size_t i = 0; i < NTESTS; i++) {
		hq_catalog_suggest_word(&s, tests[i].name, strlen(tests[i].name));
		hq_catalog_suggest_words(&s, tests[i].aliases, 3);
	}
	if (!hq_catalog_suggest_pick(&s) || n == 0)
		return NULL;
	snprintf(buf, n, "%s", s.pick);
	return buf;
}

/* ------------------------------------------------------------------ */
/* Units                                                                */

/* Units of one dimension convert by scale alone (mg/dL to g/L, 10*3/uL
 * to 10*9/L); mass and molar concentrations only through a test's molar
 * mass; a unit of kind OWN converts to nothing but itself. */
enum dim { OWN, MASS, MOLAR, IU, COUNT };

static const struct unit {
	const char *name;       /* hq's spelling */
	enum dim dim;
	double scale;           /* in g/L, mol/L, IU/L or per litre */
	const char *spellings;  /* others, lower case, space-separated */
} units[] = {
	{ "g/L", MASS, 1, "gm/l" },
	{ "g/dL", MASS, 10, "gm/dl" },
	{ "mg/mL", MASS, 1, "" },
	{ "mg/dL", MASS, 1e-2, "mg%" },
	{ "mg/L", MASS, 1e-3, "" },
	{ "ug/mL", MASS, 1e-3, "mcg/ml" },
	{ "ug/dL", MASS, 1e-5, "mcg/dl" },
	{ "ug/L", MASS, 1e-6, "mcg/l" },
	{ "ng/mL", MASS, 1e-6, "" },
	{ "ng/dL", MASS, 1e-8, "" },
	{ "ng/L", MASS, 1e-9, "" },
	{ "pg/mL", MASS, 1e-9, "" },
	{ "mol/L", MOLAR, 1, "" },
	{ "mmol/L", MOLAR, 1e-3, "" },
	{ "umol/L", MOLAR, 1e-6, "mcmol/l" },
	{ "nmol/L", MOLAR, 1e-9, "" },
	{ "pmol/L", MOLAR, 1e-12, "" },
	{ "U/L", IU, 1, "units/l" },
	{ "IU/L", IU, 1, "[iu]/l" },
	{ "IU/mL", IU, 1e3, "[iu]/ml" },
	{ "mIU/L", IU, 1e-3, "m[iu]/l" },
	{ "mIU/mL", IU, 1, "m[iu]/ml" },
	{ "uIU/mL", IU, 1e-3, "u[iu]/ml mciu/ml" },
	{ "10*3/uL", COUNT, 1e9, "10^3/ul x10e3/ul 10e3/ul x10^3/ul x10*3/ul "
	  "k/ul thou/ul thou/mm3 10*3/mm3 1000/ul" },
	{ "10*9/L", COUNT, 1e9, "10^9/l x10e9/l 10e9/l x10^9/l x10*9/l" },
	{ "10*6/uL", COUNT, 1e12, "10^6/ul x10e6/ul 10e6/ul x10^6/ul x10*6/ul "
	  "m/ul mill/ul mil/ul 10*6/mm3" },
	{ "10*12/L", COUNT, 1e12, "10^12/l x10e12/l 10e12/l x10^12/l x10*12/l" },
	{ "/uL", COUNT, 1e6, "cells/ul /mm3 cells/mm3" },
	{ "%", OWN, 1, "percent pct" },
	{ "mmol/mol", OWN, 1, "" },
	{ "mEq/L", OWN, 1, "meq/l" },
	{ "L/L", OWN, 1, "" },
	{ "fL", OWN, 1, "" },
	{ "pg", OWN, 1, "" },
	{ "mL/min/1.73m2", OWN, 1, "ml/min/{1.73_m2} ml/min/1.73_m2 "
	  "ml/min/1.73m^2 ml/min/1.73m\xc2\xb2" },
};

#define NUNITS (sizeof units / sizeof units[0])

const char *
hq_labs_unit_at(size_t i)
{
	return i < NUNITS ? units[i].name : NULL;
}

static const struct unit *
unit_info(const char *name)
{
	for (size_t i = 0; i < NUNITS; i++)
		if (strcmp(units[i].name, name) == 0)
			return &units[i];
	return NULL;
}

void
hq_labs_unit_normalise(const char *unit, char *buf, size_t n)
{
	char low[64];
	size_t k = 0;
	const char *p = unit, *end;

	if (n == 0)
		return;
	while (*p == ' ' || *p == '\t')
		p++;
	end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	/* Lower case, micro sign (U+00B5) and Greek mu (U+03BC) as 'u', and
	 * spaces dropped ("mL/min/1.73 m2"). */
	for (const char *q = p; q < end && k + 1 < sizeof low; q++) {
		unsigned char c = (unsigned char)*q;
		if ((c == 0xC2 && (unsigned char)q[1] == 0xB5) ||
		    (c == 0xCE && (unsigned char)q[1] == 0xBC)) {
			low[k++] = 'u';
			q++;
		} else if (c != ' ') {
			low[k++] = (char)tolower(c);
		}
	}
	low[k] = '\0';
	for (size_t i = 0; i < NUNITS && (size_t)(end - p) < sizeof low; i++) {
		if (strcasecmp(units[i].name, low) == 0 ||
		    hq_catalog_word_in(units[i].spellings, low)) {
			snprintf(buf, n, "%s", units[i].name);
			return;
		}
	}
	snprintf(buf, n, "%.*s", (int)(end - p), p);
}

/* value in unit u of test t = canonical * m + c, or -1. */
static int
affine(const struct hq_lab_test *t, const char *u, double *m, double *c)
{
	const struct unit *ui, *ci;

	*c = 0;
	if (strcmp(u, t->unit) == 0) {
		*m = 1;
		return 0;
	}
	if (t->extra_unit && strcmp(u, t->extra_unit) == 0) {
		*m = t->extra_factor;
		*c = t->extra_offset;
		return 0;
	}
	ui = unit_info(u);
	ci = unit_info(t->unit);
	if (!ui || !ci || ui->dim == OWN || ci->dim == OWN)
		return -1;
	if (ui->dim == ci->dim)
		*m = ci->scale / ui->scale;
	else if (t->molar_mass > 0 && ui->dim == MOLAR && ci->dim == MASS)
		*m = ci->scale / (ui->scale * t->molar_mass);
	else if (t->molar_mass > 0 && ui->dim == MASS && ci->dim == MOLAR)
		*m = ci->scale * t->molar_mass / ui->scale;
	else
		return -1;
	return 0;
}

int
hq_labs_convert(const struct hq_lab_test *t, double v, const char *from,
    const char *to, double *out)
{
	struct hq_lab_test bare = { .unit = from };
	double m1, c1, m2, c2;

	*out = v;
	if (strcmp(from, to) == 0)
		return 0;
	if (!t)
		t = &bare;
	if (affine(t, from, &m1, &c1) || affine(t, to, &m2, &c2))
		return -1;
	*out = ((v - c1) / m1) * m2 + c2;
	return 0;
}

const char *
hq_labs_code_for_unit(const struct hq_lab_test *t, const char *unit)
{
	const char *any = NULL;

	for (const struct hq_lab_code *c = t->codes; c->loinc; c++) {
		if (strcmp(c->unit, unit) != 0)
			continue;
		if (!c->method[0])
			return c->loinc;
		if (!any)
			any = c->loinc;
	}
	return any;
}

const char *
hq_labs_method(const char *loinc)
{
	const struct hq_lab_code *c = NULL;

	return hq_labs_by_loinc(loinc, &c) && c ? c->method : "";
}

/* ------------------------------------------------------------------ */
/* Results                                                              */

void
hq_labs_result_init(struct hq_lab_result *r)
{
	memset(r, 0, sizeof *r);
	r->value = r->ref_low = r->ref_high = NAN;
}

/* LOINC codes end in a check digit (mod 10, as Luhn): 2093-3. */
int
hq_labs_loinc_valid(const char *s)
{
	size_t n = strlen(s);
	int sum = 0, dbl = 1;

	if (n < 3 || n > 9 || s[n - 2] != '-' || !isdigit((unsigned char)s[n - 1]))
		return 0;
	for (size_t i = n - 2; i-- > 0;) {
		int d = s[i] - '0';
		if (!isdigit((unsigned char)s[i]))
			return 0;
		if (dbl && (d *= 2) > 9)
			d -= 9;
		sum += d;
		dbl = !dbl;
	}
	return (10 - sum % 10) % 10 == s[n - 1] - '0';
}

void
hq_labs_resolve(struct hq_lab_result *r)
{
	const struct hq_lab_test *t = NULL;
	const struct hq_lab_code *code = NULL;
	char key[sizeof r->test];

	if (r->loinc[0])
		t = hq_labs_by_loinc(r->loinc, &code);
	if (!t) {
		hq_labs_snake(r->name, key, sizeof key);
		t = find_name(key, &code);
		if (t && !r->loinc[0]) {
			const char *lc = code ? code->loinc :
			    hq_labs_code_for_unit(t, r->unit);
			/* A method code from the name only when the unit is
			 * the code's own. */
			if (code && strcmp(code->unit, r->unit) != 0)
				lc = hq_labs_code_for_unit(t, r->unit);
			if (lc)
				snprintf(r->loinc, sizeof r->loinc, "%s", lc);
		}
		if (!t)
			snprintf(r->test, sizeof r->test, "%s",
			    key[0] ? key : r->loinc);
	}
	if (t)
		snprintf(r->test, sizeof r->test, "%s", t->name);
}

int
hq_labs_supersedes(const char *status)
{
	return strcmp(status, "amended") == 0 || strcmp(status, "corrected") == 0;
}

const char *
hq_labs_flag(double value, double low, double high, const char *lab_flag)
{
	int has_low = !isnan(low), has_high = !isnan(high);

	if (isnan(value) || (!has_low && !has_high)) {
		if (lab_flag && (strcmp(lab_flag, "H") == 0 ||
		    strcmp(lab_flag, "L") == 0 || strcmp(lab_flag, "N") == 0))
			return lab_flag[0] == 'H' ? "H" : lab_flag[0] == 'L' ? "L" : "N";
		return "";
	}
	if (has_low && has_high && low > high)
		return "";
	if (has_high && value > high)
		return "H";
	if (has_low && value < low)
		return "L";
	return "N";
}

const char *
hq_labs_lab_flag(const char *s)
{
	static const struct { const char *in, *flag; } map[] = {
		{ "h", "H" }, { "hh", "H" }, { "hu", "H" }, { ">", "H" },
		{ "high", "H" }, { "critical high", "H" }, { "above high normal", "H" },
		{ "l", "L" }, { "ll", "L" }, { "lu", "L" }, { "<", "L" },
		{ "low", "L" }, { "critical low", "L" }, { "below low normal", "L" },
		{ "n", "N" }, { "normal", "N" },
		{ "a", "A" }, { "aa", "A" }, { "abnormal", "A" },
	};
	char low[32];
	size_t k = 0;

	while (*s == ' ')
		s++;
	for (; *s && k + 1 < sizeof low; s++)
		low[k++] = *s == '_' ? ' ' : (char)tolower((unsigned char)*s);
	while (k && low[k - 1] == ' ')
		k--;
	low[k] = '\0';
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (strcmp(low, map[i].in) == 0)
			return map[i].flag;
	return "";
}

size_t
hq_labs_comparator(const char *s, char cmp[3])
{
	static const struct { const char *in, *out; } ops[] = {
		{ "<=", "<=" }, { ">=", ">=" }, { "\xe2\x89\xa4", "<=" },
		{ "\xe2\x89\xa5", ">=" }, { "<", "<" }, { ">", ">" },
	};

	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		size_t n = strlen(ops[i].in);
		if (strncmp(s, ops[i].in, n) == 0) {
			snprintf(cmp, 3, "%s", ops[i].out);
			return n;
		}
	}
	cmp[0] = '\0';
	return 0;
}

void
hq_labs_copy_text(char *dst, size_t n, const char *s)
{
	size_t len;

	while (*s == ' ' || *s == '\t')
		s++;
	len = strlen(s);
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (len >= n) {
		len = n - 1;
		while (len && ((unsigned char)s[len] & 0xC0) == 0x80)
			len--;   /* not inside a UTF-8 sequence */
	}
	memcpy(dst, s, len);
	dst[len] = '\0';
}

int
hq_labs_parse_value(const char *s, struct hq_lab_result *r)
{
	char cmp[3];
	size_t k;
	double v;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s)
		return -1;
	k = hq_labs_comparator(s, cmp);
	if (hq_csvline_number(s + k + strspn(s + k, " "), &v) == 0) {
		r->value = v;
		memcpy(r->comparator, cmp, sizeof r->comparator);
		r->text[0] = '\0';
	} else {
		r->value = NAN;
		r->comparator[0] = '\0';
		hq_labs_copy_text(r->text, sizeof r->text, s);
	}
	return 0;
}

/* A number at the start of s (no sign: ranges are written "3.5-5.0"):
 * its length, 0 when none. */
static size_t
leading_number(const char *s, double *v)
{
	size_t n = 0;
	char buf[64];

	while (isdigit((unsigned char)s[n]) || s[n] == '.')
		n++;
	if (n == 0 || n >= sizeof buf)
		return 0;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return hq_csvline_number(buf, v) == 0 ? n : 0;
}

int
hq_labs_parse_range(const char *s, double *low, double *high)
{
	char cmp[3];
	double a, b;
	size_t k;

	*low = *high = NAN;
	s += strspn(s, " ");
	if ((k = hq_labs_comparator(s, cmp))) {
		s += k;
		s += strspn(s, " ");
		if (!(k = leading_number(s, &a)) || s[k + strspn(s + k, " ")])
			return -1;
		if (cmp[0] == '<')
			*high = a;
		else
			*low = a;
		return 0;
	}
	if (!(k = leading_number(s, &a)))
		return -1;
	s += k;
	s += strspn(s, " ");
	if (*s == '-')
		s++;
	else if (strncmp(s, "\xe2\x80\x93", 3) == 0)   /* en dash */
		s += 3;
	else if (strncasecmp(s, "to", 2) == 0)
		s += 2;
	else
		return -1;
	s += strspn(s, " ");
	if (!(k = leading_number(s, &b)) || s[k + strspn(s + k, " ")])
		return -1;
	*low = a;
	*high = b;
	return 0;
}

int
hq_labs_parse_date(const char *s, struct hq_lab_result *r)
{
	char buf[64];
	size_t n;

	s += strspn(s, " ");
	n = strlen(s);
	while (n && s[n - 1] == ' ')
		n--;
	if (n >= sizeof buf - 6)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (n == 4)
		memcpy(buf + 4, "-01-01", 7);
	else if (n == 7)
		memcpy(buf + 7, "-01", 4);
	if (hq_time_parse(buf, &r->time))
		return -1;
	r->has_time = n > 10;
	hq_time_format_date(r->time, r->date, sizeof r->date);
	return 0;
}
