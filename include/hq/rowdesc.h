/*
 * rowdesc — a row description: the columns a kind of result is written
 * as, in one static table, so that an engine hands over its result
 * structs and never calls hq_out_* field by field.
 *
 * A column names its key, what it takes from the struct (a field at an
 * offset, by type, or text a function makes of the whole struct), where
 * it shows (a table a person reads, the data formats scripts read —
 * jsonl, json, csv — or both) and how it gives way in a table that does
 * not fit (hq_out_fit). A table's column and a script's may share a key
 * with different contents: text "131 mg/dL" with .in = HQ_COL_TABLE
 * beside the number 131 with .in = HQ_COL_DATA.
 *
 *     #define LOAD(k, t, f) HQ_COL_AT(k, t, struct load_row, f)
 *     static const struct hq_col load_cols[] = {
 *         { LOAD("date", HQ_COL_DAY, day) },
 *         { LOAD("atl", HQ_COL_NUM, atl), .in = HQ_COL_DATA },
 *         { LOAD("atl", HQ_COL_SHORT, atl), .in = HQ_COL_TABLE },
 *         { HQ_COL_FN("note", load_note), .fit = { .min_width = 10 } },
 *         { .key = NULL },
 *     };
 *     hq_out_fit_cols(out, load_cols);
 *     ... for each result: hq_out_row(out, load_cols, &row);
 */
#ifndef HQ_ROWDESC_H
#define HQ_ROWDESC_H

#include <stddef.h>

#include "hq/output.h"

enum hq_col_type {
	HQ_COL_STR,      /* const char *; NULL → null */
	HQ_COL_STR0,     /* const char *; NULL or "" → null */
	HQ_COL_CHARS,    /* a char array in the struct */
	HQ_COL_NUM,      /* double; NaN → null */
	HQ_COL_SHORT,    /* double as a person reads it (hq_format_short) */
	HQ_COL_SENSE,    /* double to the sense of the unit .konst (sense.h:
	                  * "14,519", "64.9", "6 h 44 min"), for a table */
	HQ_COL_CHANGE,   /* the same with its sign: "+0.3", "-1,256" */
	HQ_COL_INT64,    /* int64_t */
	HQ_COL_LONG,     /* long */
	HQ_COL_BOOL,     /* int, true or false */
	HQ_COL_DAY,      /* int64_t, a local day's start, as YYYY-MM-DD */
	HQ_COL_DATE,     /* int64_t UTC seconds, as the local date */
	HQ_COL_TIME,     /* int64_t UTC seconds, as local ISO 8601 time */
	HQ_COL_CONST,    /* the string .konst, whatever the struct */
	HQ_COL_TEXT,     /* a string .text makes of the struct */
	HQ_COL_CALC,     /* a number .num makes of the struct; NaN → null */
	HQ_COL_PUT,      /* .put writes the cell itself (an array: hq_out_strv) */
};

/* Where a column shows. 0 is both. */
enum { HQ_COL_TABLE = 1, HQ_COL_DATA = 2 };

/* Text for a cell, made of the whole struct, into buf: 0, or -1 for a
 * null (JSON null, an empty cell). */
typedef int hq_col_text_fn(const void *row, char *buf, size_t n);
/* A number made of the whole struct (rounded, converted...). */
typedef double hq_col_num_fn(const void *row);
/* A cell hq_out_str and its kin cannot say in one value. */
typedef void hq_col_put_fn(struct hq_out *o, const char *key, const void *row);

struct hq_col {
	const char *key;            /* NULL ends a description */
	enum hq_col_type type;
	size_t off;                 /* offsetof the field in the struct */
	int in;                     /* HQ_COL_TABLE, HQ_COL_DATA, 0 both */
	struct hq_out_fit fit;      /* in a table */
	hq_col_text_fn *text;       /* HQ_COL_TEXT */
	hq_col_num_fn *num;         /* HQ_COL_CALC */
	const char *konst;          /* HQ_COL_CONST; the unit of HQ_COL_SENSE */
	hq_col_put_fn *put;         /* HQ_COL_PUT */
};

/* Shorthands for a column's first members: a field of struct s, text
 * made by fn, a number made by fn, a constant string, a cell fn writes. The rest (.in, .fit) follow by name. */
#define HQ_COL_AT(k, t, s, f) .key = (k), .type = (t), .off = offsetof(s, f)
#define HQ_COL_FN(k, fn) .key = (k), .type = HQ_COL_TEXT, .text = (fn)
#define HQ_COL_K(k, s) .key = (k), .type = HQ_COL_CONST, .konst = (s)
#define HQ_COL_N(k, fn) .key = (k), .type = HQ_COL_CALC, .num = (fn)
#define HQ_COL_P(k, fn) .key = (k), .type = HQ_COL_PUT, .put = (fn)

/* One row of the struct at row: the columns that show in o's format, in
 * the description's order. */
void hq_out_row(struct hq_out *o, const struct hq_col *cols, const void *row);
/* The same cells inside a row the caller began (hq_out_begin) and will end
 * after fields of its own. */
void hq_out_cells(struct hq_out *o, const struct hq_col *cols,
    const void *row);
/* The columns' fits (hq_out_fit) for those that show in a table. */
void hq_out_fit_cols(struct hq_out *o, const struct hq_col *cols);

#endif
