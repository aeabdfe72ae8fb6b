/* Unit tests for lib/base/catalog.c: names, aliases, identifiers, suggestions,
 * category values and units. */
#include "hq/catalog.h"
#include "tap.h"

static const char *
snake(const char *id)
{
	static char buf[128];

	hq_catalog_snake(id, buf, sizeof buf);
	return buf;
}

static const char *
name_of(const char *q)
{
	const struct hq_metric_info *m = hq_catalog_lookup(q);

	return m ? m->name : "(none)";
}

int
main(void)
{
	char name[64];
	int code;
	double v;

	is_str(snake("HKQuantityTypeIdentifierHeartRateVariabilitySDNN"), "heart_rate_variability_sdnn", "snake: SDNN");
	is_str(snake("HKQuantityTypeIdentifierVO2Max"), "vo2_max", "snake: VO2Max");
	is_str(snake("HKQuantityTypeIdentifierStepCount"), "step_count", "snake: StepCount");
	is_str(snake("HKDataTypeSleepDurationGoal"), "sleep_duration_goal", "snake: HKDataType prefix");
	is_str(snake("HKQuantityTypeIdentifierUVExposure"), "uv_exposure", "snake: UVExposure");
	is_str(snake("HKCategoryTypeIdentifierSleepAnalysis"), "sleep_analysis", "snake: category");
	is_str(snake("HKQuantityTypeIdentifierDietaryVitaminB12"), "dietary_vitamin_b12", "snake: B12");
	is_str(snake("HKWorkoutActivityTypeRunning"), "running", "snake: workout type");

	/* The aliases the issues name. */
	is_str(name_of("steps"), "step_count", "steps");
	is_str(name_of("heart_rate"), "heart_rate", "heart_rate");
	is_str(name_of("resting_heart_rate"), "resting_heart_rate", "resting_heart_rate");
	is_str(name_of("hrv"), "heart_rate_variability_sdnn", "hrv");
	is_str(name_of("exercise_time"), "apple_exercise_time", "exercise_time");
	is_str(name_of("active_energy"), "active_energy_burned", "active_energy");
	is_str(name_of("glucose"), "blood_glucose", "glucose");
	is_str(name_of("weight"), "body_mass", "weight");
	is_str(name_of("sleep"), "sleep", "sleep");
	is_str(name_of("vo2max"), "vo2_max", "vo2max");
	is_str(name_of("HKQuantityTypeIdentifierStepCount"), "step_count", "raw identifier");
	is_str(name_of("HeartRate"), "heart_rate", "CamelCase name");
	is_str(name_of("STEPS"), "step_count", "case-insensitive");
	is_str(name_of("sleep_deep"), "sleep_deep", "sleep stage metric");
	is_str(name_of("hart_rate"), "(none)", "typo is not a match");
	struct hq_catalog_suggestion sg, sg2;
	is_str(hq_catalog_suggest_known("hart_rate", &sg), "heart_rate", "did you mean heart_rate");
	is_str(hq_catalog_suggest_known("stpes", &sg), "steps", "did you mean steps");
	ok(hq_catalog_suggest_known("zzzzzzzzzzzz", &sg) == NULL, "no suggestion for noise");
	/* Every alias is a candidate, however many the catalog holds: the
	 * last entries' aliases too. */
	is_str(hq_catalog_suggest_known("deep_slep", &sg), "deep_sleep", "did you mean deep_sleep (an alias late in the table)");
	is_str(hq_catalog_suggest_known("in_bedd", &sg), "in_bed", "did you mean in_bed");
	/* Two suggestions held at once: each in its caller's struct. */
	const char *first = hq_catalog_suggest_known("hart_rate", &sg);
	const char *second = hq_catalog_suggest_known("stpes", &sg2);
	is_str(first, "heart_rate", "a first suggestion survives a second call");
	is_str(second, "steps", "which has its own");

	const struct hq_metric_info *m = hq_catalog_by_identifier("HKCategoryTypeIdentifierSleepAnalysis");
	is_str(m ? m->name : NULL, "sleep_analysis", "identifier → raw category entry first");
	is_int(hq_catalog_lookup("steps")->kind, HQ_KIND_CUMULATIVE, "steps are cumulative");
	is_int(hq_catalog_lookup("heart_rate")->kind, HQ_KIND_DISCRETE, "heart rate is discrete");
	is_int(hq_catalog_guess_kind("HKCategoryTypeIdentifierNew"), HQ_KIND_CATEGORY, "unknown category");

	/* Every name is unique and every alias resolves to its own entry. */
	int dup = 0;
	for (size_t i = 0; i < hq_catalog_count(); i++)
		for (size_t j = i + 1; j < hq_catalog_count(); j++)
			if (strcmp(hq_catalog_at(i)->name, hq_catalog_at(j)->name) == 0)
				dup++;
	is_int(dup, 0, "catalog names are unique");

	/* Category values. */
	hq_catalog_category("HKCategoryTypeIdentifierSleepAnalysis", "HKCategoryValueSleepAnalysisAsleep", name, sizeof name, &code);
	is_str(name, "asleep_unspecified", "legacy Asleep normalised");
	is_int(code, 1, "Asleep code 1");
	hq_catalog_category("HKCategoryTypeIdentifierSleepAnalysis", "HKCategoryValueSleepAnalysisAsleepREM", name, sizeof name, &code);
	is_str(name, "asleep_rem", "REM");
	is_int(code, 5, "REM code 5");
	hq_catalog_category("HKCategoryTypeIdentifierMenstrualFlow", "HKCategoryValueMenstrualFlowLight", name, sizeof name, &code);
	is_str(name, "light", "type prefix stripped from an unknown value");
	hq_catalog_category("HKCategoryTypeIdentifierLowHeartRateEvent", NULL, name, sizeof name, &code);
	is_str(name, "", "no value attribute");

	/* Category metrics are counted unless the catalog times them
	 * (hq-query(1)); the values that say "did not happen" count 0. */
	is_str(hq_catalog_category_unit("apple_stand_hour"), "h", "stand hours in h");
	is_str(hq_catalog_category_unit("mindful_session"), "min", "mindful minutes: timed");
	is_str(hq_catalog_category_unit("sleep_analysis"), "min", "raw sleep intervals: timed");
	for (size_t i = 0; i < hq_catalog_count(); i++) {
		const struct hq_metric_info *c = hq_catalog_at(i);
		if (c->kind != HQ_KIND_CATEGORY || !strcmp(c->name, "apple_stand_hour") ||
		    !strcmp(c->name, "mindful_session") || !strcmp(c->name, "sleep_analysis"))
			continue;
		is_str(hq_catalog_category_unit(c->name), "count", "%s: counted", c->name);
	}
	is_str(hq_catalog_category_unit("headache"), "count", "a category the catalog does not know: counted");
	const struct { const char *type, *value; double want; } values[] = {
		{ "HKCategoryTypeIdentifierAppleStandHour", "HKCategoryValueAppleStandHourStood", 1 },
		{ "HKCategoryTypeIdentifierAppleStandHour", "HKCategoryValueAppleStandHourIdle", 0 },
		{ "HKCategoryTypeIdentifierMenstrualFlow", "HKCategoryValueMenstrualFlowNone", 0 },
		{ "HKCategoryTypeIdentifierMenstrualFlow", "HKCategoryValueMenstrualFlowHeavy", 1 },
		{ "HKCategoryTypeIdentifierHeadache", "HKCategoryValueSeverityNotPresent", 0 },
		{ "HKCategoryTypeIdentifierHeadache", "HKCategoryValueSeverityMild", 1 },
		{ "HKCategoryTypeIdentifierAppetiteChanges", "HKCategoryValuePresenceNotPresent", 0 },
		{ "HKCategoryTypeIdentifierHighHeartRateEvent", NULL, 1 },
		{ "HKCategoryTypeIdentifierToothbrushingEvent", "HKCategoryValueNotApplicable", 1 },
	};
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
		hq_catalog_category(values[i].type, values[i].value, name, sizeof name, &code);
		is_dbl(hq_catalog_category_count(name), values[i].want, 0, "%s counts %g",
		    values[i].value ? values[i].value : "no value", values[i].want);
	}

	/* Units. */
	ok(hq_unit_convert(1, "mi", "km", &v) == 0, "mi → km");
	is_dbl(v, 1.609344, 1e-9, "1 mi = 1.609344 km");
	hq_unit_convert(154, "lb", "kg", &v);
	is_dbl(v, 69.853225, 1e-5, "154 lb in kg");
	hq_unit_convert(5.5, "mmol<180.1558800000541>/L", "mg/dL", &v);
	is_dbl(v, 99.0857, 1e-3, "Apple's mmol/L glucose → mg/dL");
	hq_unit_convert(98.6, "degF", "degC", &v);
	is_dbl(v, 37, 1e-9, "98.6 degF = 37 degC");
	hq_unit_convert(100, "Cal", "kcal", &v);
	is_dbl(v, 100, 1e-9, "Cal is kcal");
	hq_unit_convert(2, "hr", "min", &v);
	is_dbl(v, 120, 1e-9, "2 hr = 120 min");
	ok(hq_unit_convert(1, "mi", "kg", &v) != 0, "mi → kg refused");
	ok(hq_unit_convert(1, "furlong", "km", &v) != 0, "unknown unit refused");
	/* what a body makes: the writer's bounds (hq-ingest(1) LIMITS) */
	{
		double lo = 0, hi = 0;
		ok(hq_catalog_bounds(hq_catalog_lookup("hr"), &lo, &hi) &&
		    lo == 20 && hi == 300, "bounds: heart rate 20 to 300 count/min");
		ok(hq_catalog_bounds(hq_catalog_lookup("cycling_speed"), &lo, &hi) &&
		    lo == 0 && hi == 360, "bounds: cycling speed 0 to 360 km/hr");
		ok(!hq_catalog_bounds(hq_catalog_lookup("steps"), &lo, &hi),
		    "bounds: none for steps");
		ok(!hq_catalog_bounds(NULL, &lo, &hi), "bounds: none for no metric");
	}
	return done_testing();
}
