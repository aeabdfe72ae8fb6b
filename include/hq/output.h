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
void hq_out_end(struct hq_out *o);
/* A table that holds exactly one row (a detail record) is written as two
 * columns, field and value, a line per field, instead of one wide line.
 * Other formats, and tables of several rows, are unchanged. */
void hq_out_keyvalue(struct hq_out *o);
/* Rows written so far. */
long hq_out_rows(const struct hq_out *o);
/* Write what is held, free everything; 0, or -1 on a write error. */
int hq_out_free(struct hq_out *o);

/* A number as hq prints it in JSON: integers without a fraction, others
 * with up to 10 significant digits. */
void hq_format_number(double v, char *buf, size_t n);
/* A number as a person reads it in a table: up to four significant
 * digits, whole numbers from 1000 on, "-" for NaN. */
void hq_format_short(double v, char *buf, size_t n);
/* Free text cut to width characters (UTF-8) with an ellipsis, so that a
 * table of names from files fits 80 columns. */
void hq_out_cut(const char *s, char *buf, size_t n, size_t width);

#endif
