/*
 * nutrition — hq-report nutrition (nutrition.h): the dietary metrics'
 * daily sums side by side, and the Food correlations one by one.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/merge.h"
#include "hq/nutrition.h"
#include "hq/rowdesc.h"
#include "hq/select.h"
#include "hq/time.h"

static const struct {
	const char *metric, *key, *hk;     /* hk: after HKQuantityTypeIdentifier */
} nutrients[HQ_NUTR_N] = {
	{ "dietary_energy_consumed", "energy_kcal", "DietaryEnergyConsumed" },
	{ "dietary_protein", "protein_g", "DietaryProtein" },
	{ "dietary_carbohydrates", "carbs_g", "DietaryCarbohydrates" },
	{ "dietary_fat_total", "fat_g", "DietaryFatTotal" },
	{ "dietary_fiber", "fiber_g", "DietaryFiber" },
	{ "dietary_sugar", "sugar_g", "DietarySugar" },
	{ "dietary_sodium", "sodium_mg", "DietarySodium" },
	{ "dietary_water", "water_ml", "DietaryWater" },
	{ "dietary_caffeine", "caffeine_mg", "DietaryCaffeine" },
};

const char *
hq_nutrition_metric(int i)
{
	return i >= 0 && i < HQ_NUTR_N ? nutrients[i].metric : NULL;
}

const char *
hq_nutrition_key(int i)
{
	return i >= 0 && i < HQ_NUTR_N ? nutrients[i].key : NULL;
}

/* A day's or an entry's nutrients, NaN where none was logged. */
struct nutr_row {
	int64_t day, time;
	const char *food, *meal, *source;
	const char *counted;           /* an entry's: yes, no, part */
	double v[HQ_NUTR_N];
	double pct[3];                 /* protein, carbs, fat */
};

#define NR(k, t, f) HQ_COL_AT(k, t, struct nutr_row, f)
/* The nutrients: a number for scripts, short for people; the minor ones
 * give way first in a narrow table. */
#define NUTR(k, i, dr) \
	{ NR(k, HQ_COL_NUM, v[i]), .in = HQ_COL_DATA }, \
	{ NR(k, HQ_COL_SHORT, v[i]), .in = HQ_COL_TABLE, .fit = { .drop = (dr) } }
#define NUTRIENTS \
	NUTR("protein_g", HQ_NUTR_PROTEIN, 0), \
	NUTR("carbs_g", HQ_NUTR_CARBS, 0), \
	NUTR("fat_g", HQ_NUTR_FAT, 0), \
	NUTR("fiber_g", HQ_NUTR_FIBER, 1), \
	NUTR("sugar_g", HQ_NUTR_SUGAR, 1), \
	NUTR("sodium_mg", HQ_NUTR_SODIUM, 1), \
	NUTR("water_ml", HQ_NUTR_WATER, 1), \
	NUTR("caffeine_mg", HQ_NUTR_CAFFEINE, 1)

/* A table heads the shares protein% (its width is the table's). */
static const struct hq_col day_cols[] = {
	{ NR("date", HQ_COL_DAY, day) },
	NUTR("energy_kcal", HQ_NUTR_ENERGY, 0),
	NUTRIENTS,
	{ NR("protein_pct", HQ_COL_NUM, pct[0]), .in = HQ_COL_DATA },
	{ NR("protein%", HQ_COL_SHORT, pct[0]), .in = HQ_COL_TABLE },
	{ NR("carbs_pct", HQ_COL_NUM, pct[1]), .in = HQ_COL_DATA },
	{ NR("carbs%", HQ_COL_SHORT, pct[1]), .in = HQ_COL_TABLE },
	{ NR("fat_pct", HQ_COL_NUM, pct[2]), .in = HQ_COL_DATA },
	{ NR("fat%", HQ_COL_SHORT, pct[2]), .in = HQ_COL_TABLE },
	{ .key = NULL },
};

/* A table's time: the local month, day and minute, "10-27 07:36" (its
 * heading says the year when the rows are of one; JSON has it all). */
static int
time_text(const void *row, char *buf, size_t n)
{
	char iso[40];

	hq_time_format_local(((const struct nutr_row *)row)->time, iso, sizeof iso);
	snprintf(buf, n, "%.5s %.5s", iso + 5, iso + 11);
	return 0;
}

static const struct hq_col entry_cols[] = {
	{ NR("time", HQ_COL_TIME, time), .in = HQ_COL_DATA },
	{ HQ_COL_FN("time", time_text), .in = HQ_COL_TABLE },
	{ NR("food", HQ_COL_STR, food), .fit = { .min_width = 14 } },
	{ NR("meal", HQ_COL_STR0, meal), .fit = { .drop = 1 } },
	{ NR("energy_kcal", HQ_COL_NUM, v[HQ_NUTR_ENERGY]), .in = HQ_COL_DATA },
	{ NR("kcal", HQ_COL_SHORT, v[HQ_NUTR_ENERGY]), .in = HQ_COL_TABLE },
	NUTRIENTS,
	{ NR("source", HQ_COL_STR, source), .fit = { .min_width = 8 } },
	{ NR("counted", HQ_COL_STR, counted) },
	{ .key = NULL },
};

/* The macros' shares of the energy (nutrition.h). */
static void
shares(struct nutr_row *r)
{
	static const double kcal_per_g[3] = { 4, 4, 9 };
	double kcal[3], energy = r->v[HQ_NUTR_ENERGY], macros = 0;
	int any = 0;

	for (int i = 0; i < 3; i++) {
		double g = r->v[HQ_NUTR_PROTEIN + i];
		kcal[i] = isnan(g) ? NAN : g * kcal_per_g[i];
		if (!isnan(g))
			macros += kcal[i], any = 1;
	}
	if (isnan(energy) || energy <= 0)
		energy = macros;
	for (int i = 0; i < 3; i++)
		r->pct[i] = !any || energy <= 0 || isnan(kcal[i]) ? NAN :
		    round(kcal[i] / energy * 1000) / 10;
}

static void
no_food(int64_t from_day, int64_t to_day, struct hq_err *e)
{
	char range[96];

	hq_time_range_text(hq_time_day_start(from_day),
	    hq_time_day_start(to_day + 1), range, sizeof range);
	hq_err_set(e, "no food logged%s (Apple Health's dietary records: "
	    "energy, protein, carbohydrates, fat...)", range);
}

int
hq_nutrition_days_out(const struct hq_daily_store *ds, int64_t from_day,
    int64_t to_day, struct hq_out *o, struct hq_err *e)
{
	struct hq_daily d[HQ_NUTR_N];
	struct hq_daily_span span = { from_day, to_day };
	size_t at[HQ_NUTR_N] = { 0 };
	long rows = 0;
	int i, loaded;

	memset(d, 0, sizeof d);
	for (loaded = 0; loaded < HQ_NUTR_N; loaded++)
		if (hq_daily_load(ds, nutrients[loaded].metric, span, 0, 0,
		    &d[loaded], e))
			goto fail;
	hq_out_fit_cols(o, day_cols);
	for (;;) {
		struct nutr_row r = { .day = INT64_MAX };
		for (i = 0; i < HQ_NUTR_N; i++)
			if (at[i] < d[i].n && d[i].days[at[i]] < r.day)
				r.day = d[i].days[at[i]];
		if (r.day == INT64_MAX)
			break;
		for (i = 0; i < HQ_NUTR_N; i++) {
			r.v[i] = NAN;
			if (at[i] < d[i].n && d[i].days[at[i]] == r.day)
				r.v[i] = d[i].v[at[i]++];
		}
		shares(&r);
		hq_out_row(o, day_cols, &r);
		rows++;
	}
	for (i = 0; i < HQ_NUTR_N; i++)
		hq_daily_free(&d[i]);
	if (rows == 0) {
		no_food(from_day, to_day, e);
		return 1;
	}
	return 0;
fail:
	for (i = 0; i < loaded; i++)
		hq_daily_free(&d[i]);
	return -1;
}

/* An entry table's heading: the year of the days when it is one. */
static void
entries_heading(struct hq_out *o, int64_t from_day, int64_t to_day)
{
	char a[16], b[16], line[64];

	hq_time_format_day(from_day, a, sizeof a);
	hq_time_format_day(to_day, b, sizeof b);
	if (strncmp(a, b, 4) == 0) {
		snprintf(line, sizeof line, "Food logged in %.4s (local times)", a);
		hq_out_heading(o, line);
	}
}

/* The entries: one SELECT of the correlations, one of each's members. */
#define HK_FOOD "HKCorrelationTypeIdentifierFood"
#define HK_Q "HKQuantityTypeIdentifier"

static const char entries_sql[] =
    "SELECT c.id, c.start, src.name,"
    " coalesce((SELECT value FROM correlation_meta WHERE correlation_id = c.id"
    "   AND key = 'HKFoodType'),"
    "  (SELECT sm.value FROM correlation_member cm JOIN sample_meta sm"
    "   ON sm.sample_id = cm.sample_id WHERE cm.correlation_id = c.id"
    "   AND sm.key = 'HKFoodType' ORDER BY cm.sample_id LIMIT 1)),"
    " (SELECT value FROM correlation_meta WHERE correlation_id = c.id"
    "   AND key IN ('HKFoodMeal', 'meal', 'Meal') ORDER BY key LIMIT 1)"
    " FROM correlation c JOIN metric m ON m.id = c.metric_id"
    " JOIN source src ON src.id = c.source_id"
    " WHERE m.identifier = '" HK_FOOD "' AND c.start >= ?1 AND c.start < ?2"
    " ORDER BY c.start, c.id";
static const char members_sql[] =
    "SELECT m.identifier, s.value, s.id FROM correlation_member cm"
    " JOIN sample s ON s.id = cm.sample_id JOIN metric m ON m.id = s.metric_id"
    " WHERE cm.correlation_id = ?1";
/* A nutrient's samples the days merge: those that can reach [?2, ?3). */
static const char merge_sql[] =
    "SELECT s.id, s.start, s.end, s.value, s.source_id, s.device_id"
    " FROM sample s JOIN metric m ON m.id = s.metric_id WHERE m.identifier"
    " = ?1 AND s.start >= ?2 AND s.start < ?3 AND s.end >= ?4";

static const char *
col_text(sqlite3_stmt *st, int i)
{
	return (const char *)sqlite3_column_text(st, i);
}

/* The ids of the samples that count, sorted. */
struct counted {
	int64_t *id;
	size_t n, cap;
};

static int
cmp_id(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The samples of the nutrients in [lo, hi) that count in the days: each
 * nutrient's samples merged as hq_daily_load merges them (merge.h: ranks
 * by the settings' source priority; an instant at a higher-ranked
 * instant's time is covered), so the entries are marked by the rule the
 * days follow, not a second one.
 */
static int
counted_load(const struct hq_daily_store *ds, int64_t lo, int64_t hi,
    struct counted *c, struct hq_err *e)
{
	const struct hq_priority *prio = ds->settings ?
	    &ds->settings->priority : NULL;
	struct hq_merge_sample *ms = NULL;
	int64_t *ids = NULL;
	size_t n = 0, cap = 0;
	sqlite3_stmt *st = NULL;
	int rc = -1, step;

	if (hq_store_prepare(ds->s, merge_sql, &st, e))
		return -1;
	for (int i = 0; i < HQ_NUTR_N; i++) {
		char ident[96];
		struct hq_piece *pc = NULL;
		size_t npc = 0;

		snprintf(ident, sizeof ident, "HKQuantityTypeIdentifier%s",
		    nutrients[i].hk);
		sqlite3_reset(st);
		sqlite3_bind_text(st, 1, ident, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(st, 2, lo - HQ_CUMULATIVE_MAX_SPAN);
		sqlite3_bind_int64(st, 3, hi);
		sqlite3_bind_int64(st, 4, lo);
		n = 0;
		while ((step = sqlite3_step(st)) == SQLITE_ROW) {
			int64_t src = sqlite3_column_int64(st, 4);
			int64_t dev = sqlite3_column_int64(st, 5);
			ssize_t order = hq_store_source_order(ds->s, src);
			if (n == cap) {
				cap = cap ? 2 * cap : 256;
				ms = hq_xrealloc(ms, cap * sizeof *ms);
				ids = hq_xrealloc(ids, cap * sizeof *ids);
			}
			ids[n] = sqlite3_column_int64(st, 0);
			ms[n++] = (struct hq_merge_sample){ sqlite3_column_int64(st, 1),
			    sqlite3_column_int64(st, 2), sqlite3_column_double(st, 3),
			    hq_merge_rank(prio, hq_store_source_name(ds->s, src),
			    dev ? hq_store_device_name(ds->s, dev) : NULL,
			    order < 0 ? 0 : (size_t)order) };
		}
		if (step != SQLITE_DONE) {
			hq_err_set(e, "reading the food log: %s",
			    sqlite3_errmsg(hq_store_db(ds->s)));
			goto done;
		}
		hq_merge_cumulative(ms, n, &pc, &npc);
		for (size_t k = 0; k < npc; k++) {
			if (c->n == c->cap)
				c->id = hq_xrealloc(c->id, (c->cap = c->cap ? 2 *
				    c->cap : 256) * sizeof *c->id);
			c->id[c->n++] = ids[pc[k].sample];
		}
		free(pc);
	}
	qsort(c->id, c->n, sizeof *c->id, cmp_id);
	rc = 0;
done:
	sqlite3_finalize(st);
	free(ms);
	free(ids);
	return rc;
}

/* An entry's nutrients from its members (two of one kind: their sum),
 * and whether the days counted them: all, none or some. */
static int
entry_members(sqlite3_stmt *mem, int64_t id, const struct counted *c,
    struct nutr_row *r)
{
	int rc, in = 0, out = 0;

	for (int i = 0; i < HQ_NUTR_N; i++)
		r->v[i] = NAN;
	sqlite3_reset(mem);
	sqlite3_bind_int64(mem, 1, id);
	while ((rc = sqlite3_step(mem)) == SQLITE_ROW) {
		const char *ident = col_text(mem, 0);
		int64_t sid = sqlite3_column_int64(mem, 2);
		if (!ident || strncmp(ident, HK_Q, strlen(HK_Q)) != 0)
			continue;
		for (int i = 0; i < HQ_NUTR_N; i++)
			if (strcmp(ident + strlen(HK_Q), nutrients[i].hk) == 0) {
				r->v[i] = (isnan(r->v[i]) ? 0 : r->v[i]) +
				    sqlite3_column_double(mem, 1);
				if (bsearch(&sid, c->id, c->n, sizeof *c->id, cmp_id))
					in++;
				else
					out++;
			}
	}
	r->counted = out == 0 ? "yes" : in == 0 ? "no" : "part";
	return rc == SQLITE_DONE ? 0 : -1;
}

int
hq_nutrition_entries_out(const struct hq_daily_store *ds, int64_t from_day,
    int64_t to_day, struct hq_out *o, struct hq_err *e)
{
	struct hq_store *s = ds->s;
	sqlite3_stmt *st = NULL, *mem = NULL;
	struct counted c = {0};
	long rows = 0;
	int rc;

	if (counted_load(ds, hq_time_day_start(from_day),
	    hq_time_day_start(to_day + 1), &c, e))
		return -1;
	if (hq_store_prepare(s, entries_sql, &st, e) ||
	    hq_store_prepare(s, members_sql, &mem, e)) {
		sqlite3_finalize(st);
		free(c.id);
		return -1;
	}
	sqlite3_bind_int64(st, 1, hq_time_day_start(from_day));
	sqlite3_bind_int64(st, 2, hq_time_day_start(to_day + 1));
	hq_out_fit_cols(o, entry_cols);
	entries_heading(o, from_day, to_day);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct nutr_row r = {
			.time = sqlite3_column_int64(st, 1),
			.source = col_text(st, 2), .food = col_text(st, 3),
			.meal = col_text(st, 4),
		};
		if (entry_members(mem, sqlite3_column_int64(st, 0), &c, &r)) {
			rc = SQLITE_ERROR;
			break;
		}
		hq_out_row(o, entry_cols, &r);
		rows++;
	}
	if (rc != SQLITE_DONE)
		hq_err_set(e, "reading the food log: %s",
		    sqlite3_errmsg(hq_store_db(s)));
	sqlite3_finalize(st);
	sqlite3_finalize(mem);
	free(c.id);
	if (rc != SQLITE_DONE)
		return -1;
	if (rows == 0) {
		no_food(from_day, to_day, e);
		return 1;
	}
	return 0;
}
