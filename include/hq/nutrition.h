/*
 * nutrition — hq-report nutrition: the food log.
 *
 * Days: per local day energy_kcal, protein_g, carbs_g, fat_g, fiber_g,
 * sugar_g, sodium_mg, water_ml, caffeine_mg (each the dietary metric's
 * daily sum as hq-query METRIC --by day gives it, hq_daily_load: sources
 * merged by the cumulative rule, so a meal two apps logged counts once)
 * and protein_pct, carbs_pct, fat_pct: the macro's energy at 4, 4 and 9
 * kcal per g as a share of the day's energy_kcal (of the three macros'
 * energy on a day with no energy logged). A day with none of these
 * metrics makes no row.
 *
 * Entries: each Food correlation (Apple's HKCorrelationTypeIdentifierFood)
 * that starts in the days, oldest first: time, food (its HKFoodType
 * metadata, else a member sample's), meal (HKFoodMeal/meal metadata when
 * written), source (the app) and the nutrients of its members, as logged:
 * a meal two apps logged is two entries.
 *
 * Returns 0; 1 when the days hold nothing (e says so); -1 with e.
 */
#ifndef HQ_NUTRITION_H
#define HQ_NUTRITION_H

#include <stdint.h>

#include "hq/daily.h"
#include "hq/err.h"
#include "hq/output.h"

/* The nutrients, in row order: the metric read, the row's key. */
enum { HQ_NUTR_ENERGY, HQ_NUTR_PROTEIN, HQ_NUTR_CARBS, HQ_NUTR_FAT,
	HQ_NUTR_FIBER, HQ_NUTR_SUGAR, HQ_NUTR_SODIUM, HQ_NUTR_WATER,
	HQ_NUTR_CAFFEINE, HQ_NUTR_N };
const char *hq_nutrition_metric(int i);
const char *hq_nutrition_key(int i);

/* Days [from_day, to_day], inclusive. */
int hq_nutrition_days_out(const struct hq_daily_store *ds, int64_t from_day,
    int64_t to_day, struct hq_out *o, struct hq_err *e);
/* The entries of days [from_day, to_day], each marked by whether the
 * days counted it (counted: yes, no, part): its nutrients merged as the
 * days merge them (merge.h, the settings' source priority), so an entry
 * two apps logged at one time counts once. */
int hq_nutrition_entries_out(const struct hq_daily_store *ds,
    int64_t from_day, int64_t to_day, struct hq_out *o, struct hq_err *e);

#endif
