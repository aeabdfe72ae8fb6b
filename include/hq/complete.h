/*
 * complete — what the shell completion offers from the store: metric names
 * with their aliases, the --when and --where names, sources, workouts, lab
 * tests, and hq-agent's sessions, runs and models. Each function is a completer for
 * a struct hq_opt_values or hq_cmd_info.complete_operand (opts.h): it opens
 * the store the command line names (--db, else $HQ_DB and the default)
 * read-only, adds its candidates, and closes it. Without a store it offers
 * what needs none (every name in the catalog) or nothing; it never prints
 * an error, as the shell would show it in the middle of the line. Nothing
 * is kept between calls.
 */
#ifndef HQ_COMPLETE_H
#define HQ_COMPLETE_H

#include "hq/opts.h"

/* Metric names and their aliases (steps, glucose, sleep), with their
 * descriptions: those in the store, or the whole catalog when it has none. */
void hq_complete_metrics(const struct hq_complete *c);
/* --when's METRIC.AGG: a metric name and a dot, then after the dot the
 * aggregations. */
void hq_complete_when(const struct hq_complete *c);
/* --where's names: value, n and the aggregations. */
void hq_complete_where(const struct hq_complete *c);
/* The source names in the store. */
void hq_complete_sources(const struct hq_complete *c);
/* Workout ids, newest first, each with its date, type, duration and
 * distance. */
void hq_complete_workouts(const struct hq_complete *c);
/* The lab tests in the store (hq-report latest labs TEST). */
void hq_complete_lab_tests(const struct hq_complete *c);
/* hq-agent: session names (runs, last used), run ids (their question),
 * the models used before, and the providers' base URLs. */
void hq_complete_sessions(const struct hq_complete *c);
void hq_complete_runs(const struct hq_complete *c);
void hq_complete_models(const struct hq_complete *c);
void hq_complete_base_urls(const struct hq_complete *c);

#endif
