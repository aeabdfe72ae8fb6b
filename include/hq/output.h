/*
 * output — rows out, as JSON lines, a JSON array, CSV or an aligned table.
 *
 * A row is a flat object built field by field between hq_out_begin() and
 * hq_out_end(). With HQ_FMT_AUTO the format is a table when the stream is a
 * terminal and JSON lines otherwise. Tables are held until hq_out_free(),
 * which writes them (columns as wide as their widest cell); the other
 * formats stream, JSON written field by field as it comes, so a million
 * rows out hold one. Keys and string values are copied; the caller keeps
 * its own memory.
 */
#ifndef HQ_OUTPUT_H
#define HQ_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

enum hq_format { HQ_FMT_AUTO, HQ_FMT_JSONL, HQ_FMT_JSON, HQ_FMT_CSV, HQ_FMT_TABLE };

/* "jsonl", "json", "csv", "table" → 0; anything else → -1. */
int hq_output_parse_format(const char *s, enum hq_format *f);

struct hq_out;

struct hq_out *hq_out_new(FILE *fp, enum hq_format f);
enum hq_format hq_out_format(const struct hq_out *o);
void hq_out_begin(struct hq_out *o);
void hq_out_str(struct hq_out *o, const char *key, const char *val); /* NULL → null */
void hq_out_num(struct hq_out *o, const char *key, double v);        /* NaN → null */
void hq_out_int(struct hq_out *o, const char *key, int64_t v);
void hq_out_bool(struct hq_out *o, const char *key, int v);
void hq_out_null(struct hq_out *o, const char *key);
/* A value that is already JSON text (an object or array), copied as is. */
void hq_out_raw(struct hq_out *o, const char *key, const char *json);
/* An array of n strings: a JSON array in jsonl and json, the strings
 * joined by ", " in csv and tables. */
void hq_out_strv(struct hq_out *o, const char *key, const char *const *v,
    size_t n);
void hq_out_end(struct hq_out *o);
/* A table that holds exactly one row (a detail record) is written as two
 * columns, field and value, a line per field, instead of one wide line.
 * Other formats, and tables of several rows, are unchanged. */
void hq_out_keyvalue(struct hq_out *o);

/*
 * Tables fit a width (hq_out_width): a column may give way when the rows
 * are wider. hq_out_fit() says how, for a key. Columns with drop > 0 give
 * way in that order, lowest first, until the rest fits: one that has a
 * min_width is first cut towards it (a cut cell ends in "…"), and left out
 * only when that is not enough. Then columns with drop 0 and a min_width
 * are cut, the widest first. Numbers are never cut. right aligns a column
 * of text to the right, as numbers are ("1:05:20"). Other formats ignore
 * all of it: scripts see every field.
 */
struct hq_out_fit {
	int drop, min_width, right;
};
void hq_out_fit(struct hq_out *o, const char *key, struct hq_out_fit f);
/* The width a table is fitted to: the terminal's when the stream is one,
 * else $COLUMNS, else 80 (hq_term_width). hq_out_set_width() overrides it. */
int hq_out_width(const struct hq_out *o);
void hq_out_set_width(struct hq_out *o, int width);
/* Lines written above a table (a heading) and below it (a note on its
 * marks), as given, each with a newline, when hq_out_free() writes the
 * table. Other formats leave them out: scripts read fields. */
void hq_out_heading(struct hq_out *o, const char *line);
void hq_out_footnote(struct hq_out *o, const char *line);
/* Write what is held, free everything; 0, or -1 on a write error. */
int hq_out_free(struct hq_out *o);

/* A number as hq prints it in JSON: integers without a fraction, others
 * with up to 10 significant digits. */
void hq_format_number(double v, char *buf, size_t n);
/* A number as a person reads it in a table: up to four significant
 * digits, whole numbers from 1000 on, 0 under 0.0001 (never scientific
 * notation), "-" for NaN. sense.h rounds to a unit's sense. */
void hq_format_short(double v, char *buf, size_t n);

#endif
