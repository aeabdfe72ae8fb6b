/*
 * queries — saved queries: the config's [queries], one a line,
 *
 *     [queries]
 *     # my long runs, newest first
 *     long_runs = hq-query workouts --type running --where 'distance_km>=15'
 *
 * NAME = an hq command line, the '#' lines right above it its
 * description. `hq run NAME [ARG]...` runs it (hq(1)); hq-agent offers
 * each as a tool of its own. The line is split into words as a shell
 * would split a simple command, and then executed directly, never by a
 * shell (hq_words_split in queries.c: the rule, in hq(7) [queries]).
 *
 * A line is refused, with the config's FILE:LINE, when: its name is not
 * 1 to 64 letters, digits, _ or -, or begins with hq_ or hq- (the
 * commands' own tools are named so); its words do not split (a quote not
 * closed, a character a shell would act on: ; | & < > ( ) $ ` and the
 * like, unquoted); it names no hq command (its first word is not hq-NAME
 * or hq NAME; a path, another program); or it runs hq run (a query runs
 * a command, never another query nor itself) or hq help.
 *
 * Memory: hq_queries_load's array owns its strings (hq_queries_free).
 */
#ifndef HQ_QUERIES_H
#define HQ_QUERIES_H

#include <stddef.h>

#include "hq/config.h"
#include "hq/err.h"

#define HQ_QUERY_MAX_NAME 64
#define HQ_QUERY_MAX_WORDS 256

struct hq_saved_query {
	char *name;            /* long_runs */
	char *description;     /* the comment above it; "" when none */
	char *line;            /* the value as written */
	char *where;           /* "FILE:LINE" */
	char command[HQ_QUERY_MAX_NAME + 1];   /* "query": hq-query */
	char **words;          /* the words after the command, NULL-terminated */
	size_t nwords;
};

/* The saved queries of cfg in the file's order: 0, or -1 with e naming
 * FILE:LINE of the first line refused (and none kept). */
int hq_queries_load(const struct hq_config *cfg, struct hq_saved_query **out,
    size_t *n, struct hq_err *e);
const struct hq_saved_query *hq_queries_find(const struct hq_saved_query *q,
    size_t n, const char *name);
void hq_queries_free(struct hq_saved_query *q, size_t n);

#endif
