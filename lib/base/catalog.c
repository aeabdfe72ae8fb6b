#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hq/catalog.h"

#define Q(x) "HKQuantityTypeIdentifier" x
#define C(x) "HKCategoryTypeIdentifier" x
#define CUM HQ_KIND_CUMULATIVE
#define DIS HQ_KIND_DISCRETE
#define CAT HQ_KIND_CATEGORY

static const struct hq_metric_info metrics[] = {
	/* activity */
	{ "step_count", Q("StepCount"), CUM, "count", "steps", "steps taken" },
	{ "distance_walking_running", Q("DistanceWalkingRunning"), CUM, "km", "distance walking_distance", "distance walked or run" },
	{ "distance_cycling", Q("DistanceCycling"), CUM, "km", "cycling_distance", "distance cycled" },
	{ "distance_swimming", Q("DistanceSwimming"), CUM, "m", "swimming_distance", "distance swum" },
	{ "distance_wheelchair", Q("DistanceWheelchair"), CUM, "km", "", "distance by wheelchair" },
	{ "distance_downhill_snow_sports", Q("DistanceDownhillSnowSports"), CUM, "km", "", "downhill snow sports distance" },
	{ "flights_climbed", Q("FlightsClimbed"), CUM, "count", "flights stairs", "flights of stairs climbed" },
	{ "active_energy_burned", Q("ActiveEnergyBurned"), CUM, "kcal", "active_energy active_calories move", "active energy burned" },
	{ "basal_energy_burned", Q("BasalEnergyBurned"), CUM, "kcal", "basal_energy resting_energy", "resting (basal) energy burned" },
	{ "apple_exercise_time", Q("AppleExerciseTime"), CUM, "min", "exercise_time exercise exercise_minutes", "Apple exercise minutes" },
	{ "apple_stand_time", Q("AppleStandTime"), CUM, "min", "stand_time", "minutes standing" },
	{ "apple_move_time", Q("AppleMoveTime"), CUM, "min", "move_time", "Apple move minutes" },
	{ "push_count", Q("PushCount"), CUM, "count", "", "wheelchair pushes" },
	{ "swimming_stroke_count", Q("SwimmingStrokeCount"), CUM, "count", "swim_strokes", "swimming strokes" },
	{ "time_in_daylight", Q("TimeInDaylight"), CUM, "min", "daylight", "minutes in daylight" },
	{ "number_of_times_fallen", Q("NumberOfTimesFallen"), CUM, "count", "falls", "falls detected" },
	{ "physical_effort", Q("PhysicalEffort"), DIS, "kcal/hr·kg", "effort", "physical effort (METs)" },
	/* heart */
	{ "heart_rate", Q("HeartRate"), DIS, "count/min", "hr pulse bpm", "heart rate" },
	{ "resting_heart_rate", Q("RestingHeartRate"), DIS, "count/min", "rhr resting_hr", "resting heart rate" },
	{ "walking_heart_rate_average", Q("WalkingHeartRateAverage"), DIS, "count/min", "walking_hr", "walking heart rate average" },
	{ "heart_rate_variability_sdnn", Q("HeartRateVariabilitySDNN"), DIS, "ms", "hrv sdnn", "heart rate variability (SDNN)" },
	{ "heart_rate_recovery_one_minute", Q("HeartRateRecoveryOneMinute"), DIS, "count/min", "hr_recovery", "heart rate recovery after one minute" },
	{ "atrial_fibrillation_burden", Q("AtrialFibrillationBurden"), DIS, "%", "afib_burden", "atrial fibrillation burden" },
	{ "vo2_max", Q("VO2Max"), DIS, "mL/min·kg", "vo2max cardio_fitness", "VO2 max (cardio fitness)" },
	{ "oxygen_saturation", Q("OxygenSaturation"), DIS, "%", "spo2 blood_oxygen", "blood oxygen saturation" },
	{ "respiratory_rate", Q("RespiratoryRate"), DIS, "count/min", "breathing_rate", "respiratory rate" },
	{ "peripheral_perfusion_index", Q("PeripheralPerfusionIndex"), DIS, "%", "", "peripheral perfusion index" },
	{ "blood_pressure_systolic", Q("BloodPressureSystolic"), DIS, "mmHg", "systolic", "systolic blood pressure" },
	{ "blood_pressure_diastolic", Q("BloodPressureDiastolic"), DIS, "mmHg", "diastolic", "diastolic blood pressure" },
	/* body */
	{ "body_mass", Q("BodyMass"), DIS, "kg", "weight", "body weight" },
	{ "lean_body_mass", Q("LeanBodyMass"), DIS, "kg", "lean_mass", "lean body mass" },
	{ "body_mass_index", Q("BodyMassIndex"), DIS, "count", "bmi", "body mass index" },
	{ "body_fat_percentage", Q("BodyFatPercentage"), DIS, "%", "body_fat", "body fat percentage" },
	{ "height", Q("Height"), DIS, "cm", "", "height" },
	{ "waist_circumference", Q("WaistCircumference"), DIS, "cm", "waist", "waist circumference" },
	{ "body_temperature", Q("BodyTemperature"), DIS, "degC", "temperature", "body temperature" },
	{ "apple_sleeping_wrist_temperature", Q("AppleSleepingWristTemperature"), DIS, "degC", "wrist_temperature", "wrist temperature during sleep" },
	{ "basal_body_temperature", Q("BasalBodyTemperature"), DIS, "degC", "", "basal body temperature" },
	/* metabolic */
	{ "blood_glucose", Q("BloodGlucose"), DIS, "mg/dL", "glucose bg", "blood glucose" },
	{ "insulin_delivery", Q("InsulinDelivery"), CUM, "IU", "insulin", "insulin delivered" },
	{ "blood_alcohol_content", Q("BloodAlcoholContent"), DIS, "%", "bac", "blood alcohol content" },
	{ "number_of_alcoholic_beverages", Q("NumberOfAlcoholicBeverages"), CUM, "count", "drinks", "alcoholic drinks" },
	{ "electrodermal_activity", Q("ElectrodermalActivity"), DIS, "mcS", "", "electrodermal activity" },
	{ "inhaler_usage", Q("InhalerUsage"), CUM, "count", "", "inhaler uses" },
	{ "uv_exposure", Q("UVExposure"), DIS, "count", "uv", "UV index exposure" },
	/* mobility */
	{ "walking_speed", Q("WalkingSpeed"), DIS, "km/hr", "", "walking speed" },
	{ "walking_step_length", Q("WalkingStepLength"), DIS, "cm", "step_length", "walking step length" },
	{ "walking_asymmetry_percentage", Q("WalkingAsymmetryPercentage"), DIS, "%", "walking_asymmetry", "walking asymmetry" },
	{ "walking_double_support_percentage", Q("WalkingDoubleSupportPercentage"), DIS, "%", "double_support", "double support time" },
	{ "apple_walking_steadiness", Q("AppleWalkingSteadiness"), DIS, "%", "steadiness", "walking steadiness" },
	{ "six_minute_walk_test_distance", Q("SixMinuteWalkTestDistance"), DIS, "m", "six_minute_walk", "six-minute walk distance" },
	{ "stair_ascent_speed", Q("StairAscentSpeed"), DIS, "m/s", "", "stair ascent speed" },
	{ "stair_descent_speed", Q("StairDescentSpeed"), DIS, "m/s", "", "stair descent speed" },
	/* running and cycling */
	{ "running_power", Q("RunningPower"), DIS, "W", "", "running power" },
	{ "running_speed", Q("RunningSpeed"), DIS, "km/hr", "", "running speed" },
	{ "running_stride_length", Q("RunningStrideLength"), DIS, "m", "stride_length", "running stride length" },
	{ "running_vertical_oscillation", Q("RunningVerticalOscillation"), DIS, "cm", "vertical_oscillation", "running vertical oscillation" },
	{ "running_ground_contact_time", Q("RunningGroundContactTime"), DIS, "ms", "ground_contact_time", "running ground contact time" },
	{ "cycling_speed", Q("CyclingSpeed"), DIS, "km/hr", "", "cycling speed" },
	{ "cycling_power", Q("CyclingPower"), DIS, "W", "", "cycling power" },
	{ "cycling_cadence", Q("CyclingCadence"), DIS, "count/min", "cadence", "cycling cadence" },
	{ "cycling_functional_threshold_power", Q("CyclingFunctionalThresholdPower"), DIS, "W", "ftp", "cycling functional threshold power" },
	/* hearing */
	{ "environmental_audio_exposure", Q("EnvironmentalAudioExposure"), DIS, "dBASPL", "noise", "environmental sound level" },
	{ "headphone_audio_exposure", Q("HeadphoneAudioExposure"), DIS, "dBASPL", "headphone_audio", "headphone sound level" },
	{ "environmental_sound_reduction", Q("EnvironmentalSoundReduction"), DIS, "dBASPL", "", "sound reduction" },
	/* nutrition */
	{ "dietary_energy_consumed", Q("DietaryEnergyConsumed"), CUM, "kcal", "calories_eaten food_energy", "food energy eaten" },
	{ "dietary_carbohydrates", Q("DietaryCarbohydrates"), CUM, "g", "carbs carbohydrates", "carbohydrates eaten" },
	{ "dietary_protein", Q("DietaryProtein"), CUM, "g", "protein", "protein eaten" },
	{ "dietary_fat_total", Q("DietaryFatTotal"), CUM, "g", "fat", "fat eaten" },
	{ "dietary_fat_saturated", Q("DietaryFatSaturated"), CUM, "g", "saturated_fat", "saturated fat eaten" },
	{ "dietary_sugar", Q("DietarySugar"), CUM, "g", "sugar", "sugar eaten" },
	{ "dietary_fiber", Q("DietaryFiber"), CUM, "g", "fiber", "fibre eaten" },
	{ "dietary_sodium", Q("DietarySodium"), CUM, "mg", "sodium", "sodium eaten" },
	{ "dietary_cholesterol", Q("DietaryCholesterol"), CUM, "mg", "", "cholesterol eaten" },
	{ "dietary_caffeine", Q("DietaryCaffeine"), CUM, "mg", "caffeine", "caffeine" },
	{ "dietary_water", Q("DietaryWater"), CUM, "mL", "water", "water drunk" },
	/* categories */
	{ "sleep_analysis", C("SleepAnalysis"), CAT, NULL, "sleep_samples", "raw sleep analysis samples (stages, in bed)" },
	{ "apple_stand_hour", C("AppleStandHour"), CAT, NULL, "stand_hour", "hours with a stand" },
	{ "mindful_session", C("MindfulSession"), CAT, NULL, "mindfulness meditation", "mindful minutes" },
	{ "high_heart_rate_event", C("HighHeartRateEvent"), CAT, NULL, "", "high heart rate notifications" },
	{ "low_heart_rate_event", C("LowHeartRateEvent"), CAT, NULL, "", "low heart rate notifications" },
	{ "irregular_heart_rhythm_event", C("IrregularHeartRhythmEvent"), CAT, NULL, "afib_event", "irregular rhythm notifications" },
	{ "audio_exposure_event", C("AudioExposureEvent"), CAT, NULL, "", "loud environment notifications" },
	{ "headphone_audio_exposure_event", C("HeadphoneAudioExposureEvent"), CAT, NULL, "", "loud headphone notifications" },
	{ "toothbrushing_event", C("ToothbrushingEvent"), CAT, NULL, "toothbrushing", "toothbrushing" },
	{ "handwashing_event", C("HandwashingEvent"), CAT, NULL, "handwashing", "handwashing" },
	{ "menstrual_flow", C("MenstrualFlow"), CAT, NULL, "period", "menstrual flow" },
	{ "sleep_apnea_event", C("SleepApneaEvent"), CAT, NULL, "breathing_disturbances", "sleep apnea notifications" },
	/* per-night sleep, derived from sleep_analysis by hq-query */
	{ "sleep", C("SleepAnalysis"), HQ_KIND_SLEEP, "h", "sleep_asleep asleep sleep_total", "time asleep per night (core+deep+REM+unspecified)" },
	{ "sleep_in_bed", C("SleepAnalysis"), HQ_KIND_SLEEP, "h", "in_bed inbed", "time in bed per night" },
	{ "sleep_core", C("SleepAnalysis"), HQ_KIND_SLEEP, "h", "core_sleep", "core (light) sleep per night" },
	{ "sleep_deep", C("SleepAnalysis"), HQ_KIND_SLEEP, "h", "deep_sleep", "deep sleep per night" },
	{ "sleep_rem", C("SleepAnalysis"), HQ_KIND_SLEEP, "h", "rem_sleep rem", "REM sleep per night" },
	{ "sleep_awake", C("SleepAnalysis"), HQ_KIND_SLEEP, "h", "awake", "time awake during the night" },
	{ "sleep_unspecified", C("SleepAnalysis"), HQ_KIND_SLEEP, "h", "", "asleep without a stage per night" },
};

#define NMETRICS (sizeof metrics / sizeof metrics[0])

size_t
hq_catalog_count(void)
{
	return NMETRICS;
}

const struct hq_metric_info *
hq_catalog_at(size_t i)
{
	return i < NMETRICS ? &metrics[i] : NULL;
}

/* The next word of a space-separated list, and its length: NULL at the
 * end. *list moves past it. */
static const char *
next_word(const char **list, size_t *len)
{
	const char *w = *list, *sp;

	if (!*w)
		return NULL;
	sp = strchr(w, ' ');
	*len = sp ? (size_t)(sp - w) : strlen(w);
	*list = sp ? sp + 1 : w + *len;
	return w;
}

int
hq_catalog_word_in(const char *aliases, const char *name)
{
	size_t n = strlen(name), len;

	for (const char *w; (w = next_word(&aliases, &len));)
		if (len == n && strncasecmp(w, name, n) == 0)
			return 1;
	return 0;
}

const struct hq_metric_info *
hq_catalog_by_identifier(const char *identifier)
{
	/* The first entry with an identifier is its raw form (sleep_analysis
	 * before the derived per-night sleep metrics). */
	for (size_t i = 0; i < NMETRICS; i++)
		if (strcmp(metrics[i].identifier, identifier) == 0)
			return &metrics[i];
	return NULL;
}

/* What a body makes, in the canonical unit: the lowest heart rate
 * recorded in a person is 26, the highest under 300 (a newborn's is below
 * 230); a track sprinter peaks near 2,500 W, a cyclist's legs turn at most
 * about 250 times a minute; the fastest bicycle, paced, made 296 km/h, the
 * fastest runner 44.7. Device files' errors (60,000 bpm, -50 W) fall far
 * outside. */
static const struct { const char *name; double lo, hi; } bounds[] = {
	{ "heart_rate", 20, 300 },
	{ "resting_heart_rate", 20, 300 },
	{ "walking_heart_rate_average", 20, 300 },
	{ "cycling_power", 0, 3000 },
	{ "running_power", 0, 3000 },
	{ "cycling_cadence", 0, 300 },
	{ "cycling_speed", 0, 360 },
	{ "running_speed", 0, 100 },
};

int
hq_catalog_bounds(const struct hq_metric_info *m, double *lo, double *hi)
{
	for (size_t i = 0; m && i < sizeof bounds / sizeof bounds[0]; i++)
		if (strcmp(bounds[i].name, m->name) == 0) {
			*lo = bounds[i].lo;
			*hi = bounds[i].hi;
			return 1;
		}
	return 0;
}

const struct hq_metric_info *
hq_catalog_lookup(const char *name)
{
	char snake[256];

	for (size_t i = 0; i < NMETRICS; i++)
		if (strcasecmp(metrics[i].name, name) == 0)
			return &metrics[i];
	for (size_t i = 0; i < NMETRICS; i++)
		if (hq_catalog_word_in(metrics[i].aliases, name))
			return &metrics[i];
	for (size_t i = 0; i < NMETRICS; i++)
		if (strcasecmp(metrics[i].identifier, name) == 0)
			return &metrics[i];
	/* "HeartRate", "heart-rate": the same name spelled another way. */
	hq_catalog_snake(name, snake, sizeof snake);
	for (char *p = snake; *p; p++)
		if (*p == '-')
			*p = '_';
	if (strcasecmp(snake, name) != 0)
		for (size_t i = 0; i < NMETRICS; i++)
			if (strcmp(metrics[i].name, snake) == 0)
				return &metrics[i];
	return NULL;
}

const char *
hq_catalog_kind_name(enum hq_kind k)
{
	switch (k) {
	case HQ_KIND_CUMULATIVE: return "cumulative";
	case HQ_KIND_DISCRETE: return "discrete";
	case HQ_KIND_CATEGORY: return "category";
	case HQ_KIND_SLEEP: return "sleep";
	}
	return "?";
}

static const char *const prefixes[] = {
	"HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier",
	"HKCorrelationTypeIdentifier", "HKDataTypeIdentifier", "HKDataType",
	"HKWorkoutActivityType", "HKCategoryValue",
};

void
hq_catalog_snake(const char *id, char *buf, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
		size_t pl = strlen(prefixes[i]);
		if (strncmp(id, prefixes[i], pl) == 0 && id[pl]) {
			id += pl;
			break;
		}
	}
	if (n == 0)
		return;
	for (size_t i = 0; id[i] && o + 2 < n; i++) {
		unsigned char c = (unsigned char)id[i];
		unsigned char prev = i ? (unsigned char)id[i - 1] : 0;
		unsigned char next = (unsigned char)id[i + 1];
		if (isupper(c) && i > 0 &&
		    (islower(prev) || isdigit(prev) ||
		     (isupper(prev) && islower(next))) && buf[o - 1] != '_')
			buf[o++] = '_';
		buf[o++] = (char)tolower(c);
	}
	buf[o] = '\0';
}

enum hq_kind
hq_catalog_guess_kind(const char *identifier)
{
	if (strncmp(identifier, "HKCategoryTypeIdentifier", 24) == 0)
		return HQ_KIND_CATEGORY;
	return HQ_KIND_DISCRETE;
}

static size_t
edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[128];

	if (lb >= 127 || la >= 127)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = tolower((unsigned char)a[i - 1]) !=
			    tolower((unsigned char)b[j - 1]);
			size_t best = diag + cost;
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* How far a suggestion may be from what was typed. */
static size_t
suggest_limit(const char *name)
{
	size_t limit = strlen(name) / 3;

	return limit < 2 ? 2 : limit;
}

const char *
hq_catalog_suggest(const char *name, const char *const *cand, size_t n)
{
	size_t best = (size_t)-1;
	const char *pick = NULL;

	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(name, cand[i]);
		if (d < best) {
			best = d;
			pick = cand[i];
		}
	}
	return best <= suggest_limit(name) ? pick : NULL;
}

void
hq_catalog_suggest_start(struct hq_catalog_suggestion *s, const char *name)
{
	s->name = name;
	s->best = (size_t)-1;
	s->pick[0] = '\0';
}

void
hq_catalog_suggest_word(struct hq_catalog_suggestion *s, const char *word,
    size_t len)
{
	char w[sizeof s->pick];
	size_t d;

	if (len >= sizeof w)
		return;
	memcpy(w, word, len);
	w[len] = '\0';
	d = edit_distance(s->name, w);
	if (d < s->best) {
		s->best = d;
		memcpy(s->pick, w, len + 1);
	}
}

void
hq_catalog_suggest_words(struct hq_catalog_suggestion *s, const char *list,
    size_t min_len)
{
	size_t len;

	for (const char *w; (w = next_word(&list, &len));)
		if (len >= min_len)
			hq_catalog_suggest_word(s, w, len);
}

const char *
hq_catalog_suggest_pick(const struct hq_catalog_suggestion *s)
{
	return s->best <= suggest_limit(s->name) ? s->pick : NULL;
}

const char *
hq_catalog_suggest_known(const char *name, struct hq_catalog_suggestion *s)
{
	hq_catalog_suggest_start(s, name);
	for (size_t i = 0; i < NMETRICS; i++) {
		hq_catalog_suggest_word(s, metrics[i].name, strlen(metrics[i].name));
		hq_catalog_suggest_words(s, metrics[i].aliases, 4);
	}
	return hq_catalog_suggest_pick(s);
}

void
hq_catalog_category(const char *type, const char *value, char *name, size_t n,
    int *code)
{
	static const struct { const char *value; const char *name; int code; } known[] = {
		{ "HKCategoryValueSleepAnalysisInBed", "in_bed", 0 },
		{ "HKCategoryValueSleepAnalysisAsleep", "asleep_unspecified", 1 },
		{ "HKCategoryValueSleepAnalysisAsleepUnspecified", "asleep_unspecified", 1 },
		{ "HKCategoryValueSleepAnalysisAwake", "awake", 2 },
		{ "HKCategoryValueSleepAnalysisAsleepCore", "asleep_core", 3 },
		{ "HKCategoryValueSleepAnalysisAsleepDeep", "asleep_deep", 4 },
		{ "HKCategoryValueSleepAnalysisAsleepREM", "asleep_rem", 5 },
		{ "HKCategoryValueAppleStandHourStood", "stood", 0 },
		{ "HKCategoryValueAppleStandHourIdle", "idle", 1 },
		{ "HKCategoryValueNotApplicable", "not_applicable", 0 },
	};
	char typesnake[128], snake[256];

	*code = 0;
	if (!value || !*value) {
		snprintf(name, n, "%s", "");
		return;
	}
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (strcmp(value, known[i].value) == 0) {
			snprintf(name, n, "%s", known[i].name);
			*code = known[i].code;
			return;
		}
	/* HKCategoryValue<TypeName><Value> → value; else the snake form. */
	hq_catalog_snake(value, snake, sizeof snake);
	hq_catalog_snake(type ? type : "", typesnake, sizeof typesnake);
	size_t tl = strlen(typesnake);
	if (tl && strncmp(snake, typesnake, tl) == 0 && snake[tl] == '_')
		snprintf(name, n, "%s", snake + tl + 1);
	else
		snprintf(name, n, "%s", snake);
	/* Plain numbers (some third-party apps) keep their value. */
	char *end;
	long v = strtol(value, &end, 10);
	if (*end == '\0' && end != value && v >= -1000000 && v <= 1000000)
		*code = (int)v;
}

/* The category metrics whose rows are not a count of samples in "count"
 * (hq-query(1): counted unless the catalog says otherwise; HACKING.md says
 * why each is here). "min": timed, a sample is its minutes. */
static const struct { const char *metric, *unit; } category_units[] = {
	{ "apple_stand_hour", "h" },      /* hours stood: one an hour */
	{ "mindful_session", "min" },     /* Apple's own measure: minutes */
	{ "sleep_analysis", "min" },      /* raw intervals; nights are `sleep` */
};

const char *
hq_catalog_category_unit(const char *metric)
{
	for (size_t i = 0; i < sizeof category_units / sizeof category_units[0]; i++)
		if (strcmp(metric, category_units[i].metric) == 0)
			return category_units[i].unit;
	return "count";
}

double
hq_catalog_category_count(const char *value)
{
	static const char *const absent[] = { "idle", "none", "not_present" };
	size_t len = strlen(value);

	/* not_present ends the names of symptoms' severities and presences
	 * (severity_not_present, presence_not_present). */
	for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++) {
		size_t al = strlen(absent[i]);
		if (len >= al && strcmp(value + len - al, absent[i]) == 0 &&
		    (len == al || value[len - al - 1] == '_'))
			return 0;
	}
	return 1;
}

struct unit_factor {
	const char *unit;
	const char *base;   /* the unit this one converts to */
	double factor;      /* value_in_base = value * factor */
};

/* Linear units, each expressed in a base unit. Temperatures are special. */
static const struct unit_factor units[] = {
	{ "km", "m", 1000 }, { "m", "m", 1 }, { "cm", "m", 0.01 },
	{ "mm", "m", 0.001 }, { "mi", "m", 1609.344 }, { "ft", "m", 0.3048 },
	{ "in", "m", 0.0254 }, { "yd", "m", 0.9144 },
	{ "kg", "g", 1000 }, { "g", "g", 1 }, { "mg", "g", 0.001 },
	{ "mcg", "g", 1e-6 }, { "lb", "g", 453.59237 }, { "oz", "g", 28.349523125 },
	{ "st", "g", 6350.29318 },
	{ "kcal", "kcal", 1 }, { "Cal", "kcal", 1 }, { "cal", "kcal", 0.001 },
	{ "kJ", "kcal", 1 / 4.184 }, { "J", "kcal", 1 / 4184.0 },
	{ "min", "s", 60 }, { "s", "s", 1 }, { "ms", "s", 0.001 },
	{ "hr", "s", 3600 }, { "h", "s", 3600 }, { "d", "s", 86400 },
	{ "L", "L", 1 }, { "mL", "L", 0.001 }, { "dL", "L", 0.1 },
	{ "fl_oz_us", "L", 0.0295735295625 }, { "cup_us", "L", 0.2365882365 },
	{ "km/hr", "m/s", 1 / 3.6 }, { "m/s", "m/s", 1 }, { "mi/hr", "m/s", 0.44704 },
	{ "count/min", "count/min", 1 }, { "count/s", "count/min", 60 },
	{ "mmHg", "mmHg", 1 }, { "cmAq", "mmHg", 0.73555912 },
	{ "count", "count", 1 }, { "%", "%", 1 }, { "W", "W", 1 },
	{ "IU", "IU", 1 }, { "dBASPL", "dBASPL", 1 }, { "mcS", "mcS", 1 },
	{ "mL/min·kg", "mL/min·kg", 1 }, { "kcal/hr·kg", "kcal/hr·kg", 1 },
	{ "mg/dL", "mg/dL", 1 },
};

static const struct unit_factor *
find_unit(const char *u)
{
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (strcmp(units[i].unit, u) == 0)
			return &units[i];
	return NULL;
}

static int
is_mmol_glucose(const char *u)
{
	/* Apple writes "mmol<180.1558800000541>/L": the molar mass inside. */
	return strcmp(u, "mmol/L") == 0 || strncmp(u, "mmol<180.15", 11) == 0;
}

int
hq_unit_convert(double v, const char *from, const char *to, double *out)
{
	const struct unit_factor *f, *t;

	*out = v;
	if (!from || !to || strcmp(from, to) == 0)
		return 0;
	if (strcmp(to, "mg/dL") == 0 && is_mmol_glucose(from)) {
		*out = v * 18.01559;
		return 0;
	}
	if (is_mmol_glucose(to) && strcmp(from, "mg/dL") == 0) {
		*out = v / 18.01559;
		return 0;
	}
	if (strcmp(from, "degF") == 0 && strcmp(to, "degC") == 0) {
		*out = (v - 32) * 5 / 9;
		return 0;
	}
	if (strcmp(from, "degC") == 0 && strcmp(to, "degF") == 0) {
		*out = v * 9 / 5 + 32;
		return 0;
	}
	f = find_unit(from);
	t = find_unit(to);
	if (!f || !t || strcmp(f->base, t->base) != 0)
		return -1;
	*out = v * f->factor / t->factor;
	return 0;
}

/* ---- workout types ---------------------------------------------- */

#define W(x) "HKWorkoutActivityType" x

/*
 * The activity types HealthKit defines, with the snake_case name
 * hq_catalog_snake() gives each and the short names people type.
 */
static const struct workout_type {
	const char *identifier, *name, *aliases;
} types[] = {
	{ W("Running"), "running", "run jog jogging" },
	{ W("Walking"), "walking", "walk" },
	{ W("Cycling"), "cycling", "ride bike biking cycle" },
	{ W("Swimming"), "swimming", "swim" },
	{ W("Hiking"), "hiking", "hike" },
	{ W("Yoga"), "yoga", "" },
	{ W("TraditionalStrengthTraining"), "traditional_strength_training", "strength weights lifting" },
	{ W("FunctionalStrengthTraining"), "functional_strength_training", "functional" },
	{ W("HighIntensityIntervalTraining"), "high_intensity_interval_training", "hiit intervals" },
	{ W("Rowing"), "rowing", "row" },
	{ W("Elliptical"), "elliptical", "" },
	{ W("StairClimbing"), "stair_climbing", "stairmaster" },
	{ W("Stairs"), "stairs", "" },
	{ W("CoreTraining"), "core_training", "core" },
	{ W("Flexibility"), "flexibility", "stretching stretch" },
	{ W("Pilates"), "pilates", "" },
	{ W("Dance"), "dance", "" },
	{ W("CardioDance"), "cardio_dance", "" },
	{ W("SocialDance"), "social_dance", "" },
	{ W("Barre"), "barre", "" },
	{ W("MixedCardio"), "mixed_cardio", "cardio" },
	{ W("MixedMetabolicCardioTraining"), "mixed_metabolic_cardio_training", "" },
	{ W("CrossTraining"), "cross_training", "crossfit" },
	{ W("JumpRope"), "jump_rope", "" },
	{ W("Kickboxing"), "kickboxing", "" },
	{ W("Boxing"), "boxing", "" },
	{ W("MartialArts"), "martial_arts", "" },
	{ W("TaiChi"), "tai_chi", "" },
	{ W("MindAndBody"), "mind_and_body", "" },
	{ W("Cooldown"), "cooldown", "" },
	{ W("PreparationAndRecovery"), "preparation_and_recovery", "recovery" },
	{ W("StepTraining"), "step_training", "" },
	{ W("Climbing"), "climbing", "climb bouldering" },
	{ W("Tennis"), "tennis", "" },
	{ W("TableTennis"), "table_tennis", "ping_pong" },
	{ W("Badminton"), "badminton", "" },
	{ W("Squash"), "squash", "" },
	{ W("Racquetball"), "racquetball", "" },
	{ W("Pickleball"), "pickleball", "" },
	{ W("Golf"), "golf", "" },
	{ W("Soccer"), "soccer", "football" },
	{ W("AmericanFootball"), "american_football", "" },
	{ W("AustralianFootball"), "australian_football", "" },
	{ W("Basketball"), "basketball", "" },
	{ W("Baseball"), "baseball", "" },
	{ W("Softball"), "softball", "" },
	{ W("Volleyball"), "volleyball", "" },
	{ W("Handball"), "handball", "" },
	{ W("Hockey"), "hockey", "" },
	{ W("Lacrosse"), "lacrosse", "" },
	{ W("Rugby"), "rugby", "" },
	{ W("Cricket"), "cricket", "" },
	{ W("DiscSports"), "disc_sports", "frisbee" },
	{ W("CrossCountrySkiing"), "cross_country_skiing", "xc_ski" },
	{ W("DownhillSkiing"), "downhill_skiing", "ski skiing" },
	{ W("Snowboarding"), "snowboarding", "snowboard" },
	{ W("SnowSports"), "snow_sports", "" },
	{ W("SkatingSports"), "skating_sports", "skating" },
	{ W("Curling"), "curling", "" },
	{ W("PaddleSports"), "paddle_sports", "kayak paddle sup" },
	{ W("Sailing"), "sailing", "" },
	{ W("SurfingSports"), "surfing_sports", "surf surfing" },
	{ W("WaterFitness"), "water_fitness", "" },
	{ W("WaterPolo"), "water_polo", "" },
	{ W("WaterSports"), "water_sports", "" },
	{ W("UnderwaterDiving"), "underwater_diving", "diving" },
	{ W("SwimBikeRun"), "swim_bike_run", "triathlon multisport" },
	{ W("Transition"), "transition", "" },
	{ W("HandCycling"), "hand_cycling", "handbike" },
	{ W("WheelchairWalkPace"), "wheelchair_walk_pace", "" },
	{ W("WheelchairRunPace"), "wheelchair_run_pace", "" },
	{ W("Archery"), "archery", "" },
	{ W("Bowling"), "bowling", "" },
	{ W("Fencing"), "fencing", "" },
	{ W("Fishing"), "fishing", "" },
	{ W("Hunting"), "hunting", "" },
	{ W("EquestrianSports"), "equestrian_sports", "riding_horse" },
	{ W("Gymnastics"), "gymnastics", "" },
	{ W("TrackAndField"), "track_and_field", "" },
	{ W("Wrestling"), "wrestling", "" },
	{ W("DanceInspiredTraining"), "dance_inspired_training", "" },
	{ W("Play"), "play", "" },
	{ W("FitnessGaming"), "fitness_gaming", "" },
	{ W("Other"), "other", "" },
};

#define NTYPES (sizeof types / sizeof types[0])

const char *
hq_workout_type_identifier(const char *name, char *suggest, size_t n)
{
	struct hq_catalog_suggestion sug;
	const char *pick;
	char snake[128];

	if (suggest && n)
		suggest[0] = '\0';
	hq_catalog_snake(name, snake, sizeof snake);
	for (char *p = snake; *p; p++)
		if (*p == '-' || *p == ' ')
			*p = '_';
	for (size_t i = 0; i < NTYPES; i++)
		if (strcasecmp(name, types[i].identifier) == 0 ||
		    strcasecmp(name, types[i].name) == 0 ||
		    strcmp(snake, types[i].name) == 0 ||
		    hq_catalog_word_in(types[i].aliases, name) ||
		    hq_catalog_word_in(types[i].aliases, snake))
			return types[i].identifier;
	/* A type newer than this table, written the way the export writes it. */
	if (strncmp(name, W(""), sizeof W("") - 1) == 0 && name[sizeof W("") - 1])
		return name;
	if (!suggest || !n)
		return NULL;
	hq_catalog_suggest_start(&sug, snake);
	for (size_t i = 0; i < NTYPES; i++) {
		hq_catalog_suggest_word(&sug, types[i].name, strlen(types[i].name));
		hq_catalog_suggest_words(&sug, types[i].aliases, 3);
	}
	if ((pick = hq_catalog_suggest_pick(&sug)))
		snprintf(suggest, n, "%s", pick);
	return NULL;
}

const char *
hq_workout_type_at(size_t i)
{
	return i < NTYPES ? types[i].name : NULL;
}

void
hq_workout_type_name(const char *identifier, char *buf, size_t n)
{
	for (size_t i = 0; i < NTYPES; i++)
		if (strcmp(identifier, types[i].identifier) == 0) {
			snprintf(buf, n, "%s", types[i].name);
			return;
		}
	hq_catalog_snake(identifier, buf, n);
}
