/*
 * dexa — DEXA body-composition scans: the fields hq-ingest(1) names, with their
 * aliases and canonical units, and the readers of hq's DEXA JSON and CSV.
 *
 * A field is whole-body (fat_mass, vat_mass, total_body_fat_pct, ...) or
 * regional, `<region>_<field>` (trunk_fat_mass, left_arm_lean_mass). Units
 * written in a file are converted on the way in: pounds and grams to the
 * field's kg or g, in³ to cm³, in² to cm². An unknown field, a unit that
 * does not fit the field, a value below zero in a field that cannot be
 * (all but t_score and z_score), more than HQ_DEXA_MAX_SCANS scans in a
 * file, or a scan the sink refuses (the import writer: a value past its
 * bound after conversion, a date in the future) is an error naming
 * file:line.
 *
 * A reader hands each scan to a callback as a struct hq_dexa_scan it owns;
 * the callback copies what it keeps. Field names and units in it point to
 * the static catalog.
 */
#ifndef HQ_DEXA_H
#define HQ_DEXA_H

#include <stddef.h>
#include <stdint.h>

#include "hq/err.h"

struct hq_dexa_field {
	const char *name;        /* canonical: "vat_mass" */
	const char *unit;        /* canonical: "g"; "" for unitless */
	const char *aliases;     /* space-separated */
	const char *description;
};

/* How many fields (whole-body, then the regional ones that combine with
 * a region) and regions there are. */
size_t hq_dexa_field_count(void);
size_t hq_dexa_region_count(void);

/* Every canonical field name, whole-body then regional (trunk_fat_mass),
 * for completion: NULL past the end. */
const char *hq_dexa_name_at(size_t i);

/* The canonical name of a field as written (an alias, a regional name, or
 * a field with a region: "fat_mass" + "trunk") into buf, with its unit
 * (static). 0, or -1 with e saying why (with a suggestion). */
int hq_dexa_field_name(const char *field, const char *region, char *buf,
    size_t n, const char **unit, struct hq_err *e);
/* Whether name is a canonical field name (whole-body or regional). */
int hq_dexa_field_known(const char *name, const char **unit);

#define HQ_DEXA_MAX_FIELDS 128
/* Scans in one file, JSON or CSV: a person has a few a year; 256 is a
 * scan a quarter for 64 years. */
#define HQ_DEXA_MAX_SCANS 256

struct hq_dexa_value {
	char field[48];
	double value;            /* in unit */
	const char *unit;        /* canonical, static */
};

struct hq_dexa_scan {
	char date[11];           /* local date, YYYY-MM-DD */
	int64_t time;            /* UTC; local midnight for a bare date */
	char source[128];
	long line;               /* where the scan starts in its file */
	size_t n;
	struct hq_dexa_value v[HQ_DEXA_MAX_FIELDS];
};

typedef int hq_dexa_emit_fn(void *arg, const struct hq_dexa_scan *s,
    struct hq_err *e);

struct hq_dexa_sink {
	const char *file;        /* for messages */
	const char *source;      /* when the file names none; may be NULL */
	hq_dexa_emit_fn *emit;
	void *arg;
	long read;               /* scans handed to emit */
};

/* JSON: {"kind":"dexa","date","source","fields":{...},"regions":{...}},
 * or an array of them. A field's value is a number in the canonical unit
 * or {"value":1.1,"unit":"lb"}. */
struct cJSON;
int hq_dexa_json(struct hq_dexa_sink *sink, const struct cJSON *v, long line,
    struct hq_err *e);
int hq_dexa_json_sniff(const struct cJSON *v);
/* The same read from a stream fed the file in pieces (jsonin.h): a
 * top-level array's scans parsed one at a time, so memory is bounded by
 * lim, not by the file. sink and lim are borrowed. */
struct hq_jsonin_stream;
struct hq_jsonin_limits;
struct hq_jsonin_stream *hq_dexa_stream(struct hq_dexa_sink *sink,
    const struct hq_jsonin_limits *lim);

/* CSV: date,field,value,unit[,region][,source]; rows of one date (and
 * source) make a scan, emitted by hq_dexa_csv_finish() in the order their
 * first rows came. */
struct hq_dexa_csv;
struct hq_dexa_csv *hq_dexa_csv_new(struct hq_dexa_sink *sink);
int hq_dexa_csv_line(struct hq_dexa_csv *c, char *line, size_t len,
    long lineno, struct hq_err *e);
int hq_dexa_csv_finish(struct hq_dexa_csv *c, struct hq_err *e);
void hq_dexa_csv_free(struct hq_dexa_csv *c);
int hq_dexa_csv_sniff(const char *line, size_t len);

#endif
