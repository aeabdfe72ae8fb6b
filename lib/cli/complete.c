#include <stdlib.h>
#include <string.h>

#include "hq/agent_log.h"
#include "hq/athlete_rows.h"
#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/complete.h"
#include "hq/document_read.h"
#include "hq/llm.h"
#include "hq/query.h"
#include "hq/stats.h"
#include "hq/store.h"
#include "hq/time.h"
#include "hq/workout.h"

/* The most candidates one completer offers: past it the shell's list is
 * no help to anyone. */
#define MAX_CANDIDATES 5000

/* The store the line names, read-only, and its zone; NULL when there is
 * none. */
static struct hq_store *
open_store(const struct hq_complete *c)
{
	struct hq_err e;

	if (hq_time_set_zone(hq_complete_arg(c, "tz"), &e))
		hq_time_set_zone("UTC", &e);
	return hq_store_open(hq_complete_arg(c, "db"), HQ_STORE_READONLY, &e);
}

/* Names to offer, sorted and without repeats. */
struct name {
	char name[96];
	char descr[160];
};
struct names {
	struct name *v;
	size_t n, cap;
};

static void
names_add(struct names *ns, const char *name, size_t len, const char *descr)
{
	struct name *x;

	if (ns->n == MAX_CANDIDATES || len >= sizeof x->name)
		return;
	if (ns->n == ns->cap) {
		ns->cap = ns->cap ? ns->cap * 2 : 64;
		ns->v = hq_xrealloc(ns->v, ns->cap * sizeof *ns->v);
	}
	x = &ns->v[ns->n++];
	memcpy(x->name, name, len);
	x->name[len] = '\0';
	snprintf(x->descr, sizeof x->descr, "%s", descr ? descr : "");
}

/* A metric's name and each of its aliases. */
static void
add_metric(struct names *ns, const char *name)
{
	const struct hq_metric_info *m = hq_catalog_lookup(name);
	char descr[160];

	if (!m) {
		names_add(ns, name, strlen(name), NULL);
		return;
	}
	names_add(ns, m->name, strlen(m->name), m->description);
	snprintf(descr, sizeof descr, "%s: %s", m->name, m->description);
	for (const char *a = m->aliases; *a; ) {
		size_t len = strcspn(a, " ");
		if (len)
			names_add(ns, a, len, descr);
		a += len + (a[len] == ' ');
	}
}

static void
add_metric_cb(const char *name, void *ctx)
{
	add_metric(ctx, name);
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const struct name *)a)->name, ((const struct name *)b)->name);
}

/* The metrics in the store (the catalog's when there are none). */
static void
metric_names(const struct hq_complete *c, struct names *ns)
{
	struct hq_store *s = open_store(c);
	struct hq_err e;

	if (s)
		hq_query_metric_names(s, add_metric_cb, ns, &e);
	hq_store_close(s);
	if (ns->n == 0)
		for (size_t i = 0; i < hq_catalog_count(); i++)
			add_metric(ns, hq_catalog_at(i)->name);
	if (ns->n)
		qsort(ns->v, ns->n, sizeof *ns->v, by_name);
}

static void
offer(const struct hq_complete *c, const struct names *ns, const char *suffix)
{
	char buf[128];

	for (size_t i = 0; i < ns->n; i++) {
		if (i && strcmp(ns->v[i].name, ns->v[i - 1].name) == 0)
			continue;
		snprintf(buf, sizeof buf, "%s%s", ns->v[i].name, suffix);
		hq_complete_add(c, buf, ns->v[i].descr);
	}
}

void
hq_complete_metrics(const struct hq_complete *c)
{
	struct names ns = {0};

	metric_names(c, &ns);
	offer(c, &ns, "");
	free(ns.v);
}

static void
add_aggs(const struct hq_complete *c)
{
	for (size_t i = 0; hq_stats_agg_at(i); i++)
		hq_complete_add(c, hq_stats_agg_at(i), NULL);
}

void
hq_complete_when(const struct hq_complete *c)
{
	const char *dot = strchr(c->word, '.');
	struct names ns = {0};

	if (dot) {
		/* METRIC. is kept: the aggregations after it */
		struct hq_complete d = *c;
		d.head += (size_t)(dot + 1 - c->word);
		d.word = dot + 1;
		add_aggs(&d);
		return;
	}
	metric_names(c, &ns);
	offer(c, &ns, ".");
	free(ns.v);
}

void
hq_complete_where(const struct hq_complete *c)
{
	/* hq-query workouts: the rows' numeric fields and figures. */
	if (c->noperands && strcmp(c->operands[0], "workouts") == 0) {
		for (size_t i = 0; hq_workout_field_at(i); i++)
			hq_complete_add(c, hq_workout_field_at(i), NULL);
		for (size_t i = 0; hq_athlete_rows_key_at(i); i++)
			hq_complete_add(c, hq_athlete_rows_key_at(i), NULL);
		return;
	}
	hq_complete_add(c, "value", "a sample's value, or the first aggregation's");
	hq_complete_add(c, "n", "the samples in a bucket");
	add_aggs(c);
}

void
hq_complete_sources(const struct hq_complete *c)
{
	struct hq_store *s = open_store(c);
	const char *const *v;
	size_t n = 0;

	if (!s)
		return;
	v = hq_store_source_names(s, &n);
	for (size_t i = 0; i < n && i < MAX_CANDIDATES; i++)
		hq_complete_add(c, v[i], NULL);
	hq_store_close(s);
}

void
hq_complete_workouts(const struct hq_complete *c)
{
	struct hq_store *s = open_store(c);
	sqlite3_stmt *st;
	struct hq_err e;

	if (!s)
		return;
	if (hq_store_prepare(s, "SELECT id, start, activity_type, duration, distance"
	    " FROM workout ORDER BY start DESC, id DESC LIMIT ?", &st, &e) == 0) {
		sqlite3_bind_int(st, 1, MAX_CANDIDATES);
		while (sqlite3_step(st) == SQLITE_ROW) {
			char id[24], date[16], type[64], descr[160];
			const char *t = (const char *)sqlite3_column_text(st, 2);
			int k;

			snprintf(id, sizeof id, "%lld", (long long)sqlite3_column_int64(st, 0));
			hq_time_format_date(sqlite3_column_int64(st, 1), date, sizeof date);
			hq_workout_type_name(t ? t : "", type, sizeof type);
			k = snprintf(descr, sizeof descr, "%s %s", date, type);
			if (sqlite3_column_type(st, 3) != SQLITE_NULL && k > 0 && (size_t)k < sizeof descr)
				k += snprintf(descr + k, sizeof descr - (size_t)k, " %.0f min",
				    sqlite3_column_double(st, 3) / 60);
			if (sqlite3_column_type(st, 4) != SQLITE_NULL && k > 0 && (size_t)k < sizeof descr)
				snprintf(descr + k, sizeof descr - (size_t)k, " %.1f km",
				    sqlite3_column_double(st, 4) / 1000);
			hq_complete_add(c, id, descr);
		}
		sqlite3_finalize(st);
	}
	hq_store_close(s);
}

static void
add_session(void *ctx, const char *name, int runs, int64_t last)
{
	char date[16], descr[64];

	hq_time_format_date(last, date, sizeof date);
	snprintf(descr, sizeof descr, "%d run%s, last %s", runs, runs == 1 ? "" : "s", date);
	hq_complete_add(ctx, name, descr);
}

void
hq_complete_sessions(const struct hq_complete *c)
{
	struct hq_store *s = open_store(c);
	struct hq_err e;

	if (s)
		hq_agent_log_sessions(s, MAX_CANDIDATES, add_session, (void *)c, &e);
	hq_store_close(s);
}

static int
add_run(void *ctx, const struct hq_agent_log_entry *r)
{
	char id[24], descr[160], date[16];

	snprintf(id, sizeof id, "%lld", (long long)r->id);
	hq_time_format_date(r->started, date, sizeof date);
	snprintf(descr, sizeof descr, "%s %s", date, r->question ? r->question : "");
	hq_complete_add(ctx, id, descr);
	return 0;
}

void
hq_complete_runs(const struct hq_complete *c)
{
	struct hq_store *s = open_store(c);
	struct hq_err e;

	if (s)
		hq_agent_log_runs(s, 0, 500, add_run, (void *)c, &e);
	hq_store_close(s);
}

static void
add_model(void *ctx, const char *provider, const char *model)
{
	hq_complete_add(ctx, model, provider);
}

void
hq_complete_models(const struct hq_complete *c)
{
	struct hq_store *s = open_store(c);
	struct hq_err e;

	if (s)
		hq_agent_log_models(s, 100, add_model, (void *)c, &e);
	hq_store_close(s);
}

void
hq_complete_base_urls(const struct hq_complete *c)
{
	const char *p = HQ_LLM_PROVIDERS;
	char name[32];

	while (*p) {
		size_t n = strcspn(p, "|");
		const char *url;
		snprintf(name, sizeof name, "%.*s", (int)n, p);
		if ((url = hq_llm_default_base_url(name, 0)))
			hq_complete_add(c, url, name);
		if ((url = hq_llm_default_base_url(name, 1)) &&
		    strcmp(url, hq_llm_default_base_url(name, 0)) != 0)
			hq_complete_add(c, url, name);
		p += n + (p[n] == '|');
	}
	hq_complete_add(c, "http://127.0.0.1:8080/v1", "llama.cpp server (openai)");
}

static int
add_test(void *ctx, const char *name)
{
	hq_complete_add(ctx, name, NULL);
	return 0;
}

void
hq_complete_lab_tests(const struct hq_complete *c)
{
	struct hq_store *s = open_store(c);
	struct hq_err e;

	if (s)
		hq_report_lab_tests(s, add_test, (void *)c, &e);
	hq_store_close(s);
}
