/*
 * search — hq-query search: words over the workouts, lab results,
 * clinical records (the store's FTS5 index, search_text), hq's metrics
 * and the store's sources, and places: the workouts whose route passes
 * within a radius of a point (the store's R*Tree of route segments,
 * route_box, then the route's points, streamed). Migration 13 and every
 * import keep the indexes (hq_store_search_fill).
 */
#ifndef HQ_SEARCH_H
#define HQ_SEARCH_H

#include <stdint.h>

#include "hq/config.h"
#include "hq/err.h"
#include "hq/output.h"
#include "hq/store.h"

/* The kinds --in takes, as bits. */
enum {
	HQ_SEARCH_WORKOUT = 1, HQ_SEARCH_LAB = 2, HQ_SEARCH_RECORD = 4,
	HQ_SEARCH_METRIC = 8, HQ_SEARCH_SOURCE = 16, HQ_SEARCH_ALL = 31,
};

/* Bounds of what is typed: the words of TEXT, its bytes, --near's radius
 * in km (the default 1), the rows of find. */
#define HQ_SEARCH_MAX_WORDS 64
#define HQ_SEARCH_MAX_BYTES 1024
#define HQ_SEARCH_MAX_KM 1000.0
#define HQ_SEARCH_DEFAULT_KM 1.0
#define HQ_SEARCH_FIND_ROWS 5
/* The sphere the distances are on: the Earth's mean radius, metres. */
#define HQ_SEARCH_EARTH_R 6371008.8

struct hq_search {
	const char *text;      /* TEXT as typed; NULL: none (--near alone) */
	unsigned kinds;        /* HQ_SEARCH_* bits; 0: every kind */
	int near;              /* lat, lon, km hold a place */
	double lat, lon, km;
	int64_t from, to;      /* [from, to), UTC seconds; INT64_MIN/MAX: open */
	const char *type;      /* workouts of this type only (an identifier) */
	int find;              /* the few best (BM25) instead of every match */
	long limit, offset;    /* 0: no limit */
};

/* --in's words ("workouts,labs") to bits: 0, or -1 naming the word. */
int hq_search_parse_kinds(const char *list, unsigned *kinds, struct hq_err *e);
/* The i-th word --in takes, NULL past the end (completion). */
const char *hq_search_kind_at(size_t i);

/* --near's value: "LAT,LON[,KM]" or a name under [places] in cfg (may be
 * NULL), whose value is LAT,LON[,KM]: 0, or -1 with what is wrong (a
 * number out of range, a name not known, a place whose name looks like a
 * coordinate: file:line). */
int hq_search_parse_near(const char *arg, const struct hq_config *cfg,
    struct hq_search *q, struct hq_err *e);
/* The names under [places], for completion: each to fn with its value. */
void hq_search_places(const struct hq_config *cfg,
    void (*fn)(const char *name, const char *value, void *ctx), void *ctx);

/* TEXT checked and rewritten as an FTS5 query whose every word is quoted
 * (words, "a phrase", prefix*, AND, OR, NOT, ( )): 0 with *fts (to free),
 * or -1 with the word at fault in e. */
int hq_search_compile(const char *text, char **fts, struct hq_err *e);

/* The matches written to out (newest first, or the best first with
 * find): the rows written, or -1. count: only their number, in *n. */
long hq_search_run(struct hq_store *s, const struct hq_search *q,
    struct hq_out *out, struct hq_err *e);
long hq_search_count(struct hq_store *s, const struct hq_search *q,
    struct hq_err *e);

#endif
