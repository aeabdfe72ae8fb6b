/*
 * catalog — what hq knows about each metric.
 *
 * A metric has a snake_case name derived from its HealthKit identifier
 * (HKQuantityTypeIdentifierHeartRateVariabilitySDNN → heart_rate_variability_sdnn),
 * short aliases (hrv), a kind that decides how it aggregates, and the
 * canonical unit its values are stored in. The table is static; every
 * pointer returned is borrowed and lives for the whole program.
 */
#ifndef HQ_CATALOG_H
#define HQ_CATALOG_H

#include <stddef.h>

/* The longest span of a cumulative sample (steps, energy, distance): the
 * writer refuses a longer one (ingest.h), its amount is spread over every
 * 15-minute slot it covers (rollup.h), and a series and the merged rollups
 * look this far back for samples reaching into their range (query.c,
 * rollup.c). Daily totals are the longest any app writes. */
#define HQ_CUMULATIVE_MAX_SPAN (7 * 86400)

/* Heart rate's identifier, the metric a workout's heart rate and the
 * athlete's figures are read from (hq_store_metric_id). */
#define HQ_HEART_RATE_ID "HKQuantityTypeIdentifierHeartRate"
/* Resting heart rate's (the athlete's default rest_hr: the median of
 * every one) and sleep analysis' (the nights): metrics of a few samples a
 * day that answers over a store's whole time read; hq-archive prune
 * leaves them in the store. */
#define HQ_RESTING_HR_ID "HKQuantityTypeIdentifierRestingHeartRate"
#define HQ_SLEEP_ID "HKCategoryTypeIdentifierSleepAnalysis"

enum hq_kind {
	HQ_KIND_CUMULATIVE, /* counts and amounts over an interval: summed */
	HQ_KIND_DISCRETE,   /* a measurement at an instant: averaged */
	HQ_KIND_CATEGORY,   /* an enumerated state over an interval */
	HQ_KIND_SLEEP,      /* per-night durations derived from sleep analysis */
};

struct hq_metric_info {
	const char *name;        /* snake_case, unique */
	const char *identifier;  /* HealthKit identifier stored in the store */
	enum hq_kind kind;
	const char *unit;        /* canonical unit; NULL for categories */
	const char *aliases;     /* space-separated, may be "" */
	const char *description; /* one line, for --list and tool schemas */
};

size_t hq_catalog_count(void);
const struct hq_metric_info *hq_catalog_at(size_t i);
/* By name, alias or identifier (case-insensitive); NULL if not known. */
const struct hq_metric_info *hq_catalog_lookup(const char *name);
const struct hq_metric_info *hq_catalog_by_identifier(const char *identifier);
const char *hq_catalog_kind_name(enum hq_kind k);
/* The values a body makes of m, in its canonical unit (heart rate 20 to
 * 300 count/min; power, cadence, speed): 1 with *lo and *hi, or 0 when
 * the catalog bounds m by nothing but the writer's own bounds (ingest.h).
 * The writer skips a value outside; the reports' estimates leave one out. */
int hq_catalog_bounds(const struct hq_metric_info *m, double *lo, double *hi);
/* Whether name is one of the space-separated words of list
 * (case-insensitive): the alias lists of metrics and workout types. */
int hq_catalog_word_in(const char *list, const char *name);

/* snake_case name of any identifier, known or not:
 * HKQuantityTypeIdentifierVO2Max → vo2_max, HKDataTypeSleepDurationGoal →
 * sleep_duration_goal. */
void hq_catalog_snake(const char *identifier, char *buf, size_t n);
/* The kind of an identifier the table does not know, from its prefix. */
enum hq_kind hq_catalog_guess_kind(const char *identifier);

/* The closest of candidates to name (edit distance ≤ a third of its
 * length, at least 2), or NULL. */
const char *hq_catalog_suggest(const char *name, const char *const *candidates,
    size_t n);
/* The same, built up one candidate at a time, so that words of an alias
 * list ("run jog") can be candidates without being copied out first:
 * start, add words, then pick (NULL when none is close enough). The pick
 * lives in the struct. */
struct hq_catalog_suggestion {
	const char *name;
	size_t best;
	char pick[64];
};
void hq_catalog_suggest_start(struct hq_catalog_suggestion *s, const char *name);
void hq_catalog_suggest_word(struct hq_catalog_suggestion *s, const char *word,
    size_t len);
/* Every word of a space-separated list at least min_len bytes long. */
void hq_catalog_suggest_words(struct hq_catalog_suggestion *s, const char *list,
    size_t min_len);
const char *hq_catalog_suggest_pick(const struct hq_catalog_suggestion *s);
/* The closest catalog name or alias to name, or NULL; the pick lives in
 * s, the caller's. */
const char *hq_catalog_suggest_known(const char *name,
    struct hq_catalog_suggestion *s);

/* A category value as written (HKCategoryValueSleepAnalysisAsleepCore) for
 * a type identifier, normalised to a snake name ("asleep_core") and a code
 * (HealthKit's raw value where known, else 0). The legacy sleep "Asleep"
 * becomes asleep_unspecified. */
void hq_catalog_category(const char *type, const char *value, char *name,
    size_t n, int *code);

/* What a category metric's rows measure (hq-query(1): category samples are
 * counted, not timed, unless the catalog says otherwise). The unit of its
 * rows: "min" when the catalog times it (mindful minutes; the raw sleep
 * analysis intervals, whose nights are the sleep metrics) — a sample is its
 * minutes —, else each sample counts as one, in "h" for stand hours and
 * "count" for every other category, known or not. */
const char *hq_catalog_category_unit(const char *metric);
/* What a category sample of a counted metric adds to its rows: 1, or 0 for
 * a value that says the thing did not happen — a stand hour's idle,
 * menstrual flow's none, a symptom's not_present (value is the stored
 * name, hq_catalog_category()). A timed metric's sample adds its minutes. */
double hq_catalog_category_count(const char *value);

/* Convert v from unit `from` to unit `to`. 0 on success, -1 when hq does not
 * know how (then *out = v). Equal units always succeed. */
int hq_unit_convert(double v, const char *from, const char *to, double *out);

/* The workout types HealthKit defines (HKWorkoutActivityType...), with
 * their snake_case names and the short names people type: for the writer
 * (the catalog table), queries and completion. Named hq_workout_type_*
 * as when they were in lib/query/workout.c. */
/* "running" → "HKWorkoutActivityTypeRunning", by catalog of known types,
 * case-insensitive, accepting the raw name; short aliases (run, walk,
 * ride/bike, swim, hike, strength, hiit). Any "HKWorkoutActivityType..."
 * name is returned as is (name itself: a type newer than the table). NULL
 * when unknown; then the caller's suggest[0..n) (may be NULL) gets the
 * closest known name or alias, "" when none is close. */
const char *hq_workout_type_identifier(const char *name, char *suggest,
    size_t n);
/* The i-th known type's name ("running"), NULL past the end: for
 * completion and help text. */
const char *hq_workout_type_at(size_t i);
/* "HKWorkoutActivityTypeTraditionalStrengthTraining" → "traditional_strength_training" */
void hq_workout_type_name(const char *identifier, char *buf, size_t n);

#endif
