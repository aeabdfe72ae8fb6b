/*
 * jsonin — JSON documents read from files, with bounds and line numbers.
 *
 * A file holds one JSON value or several one after another (JSON lines, or
 * values concatenated). hq_jsonin_each() checks the nesting depth before
 * cJSON sees the text (so no input can recurse deeply), parses each value
 * and hands it to a callback with the line it starts on; a syntax error
 * names file:line. The values are owned by jsonin and freed after the
 * callback returns.
 *
 * A file too large to hold whole is fed to a stream in pieces of any size
 * (hq_jsonin_stream_*): its top-level values are read one at a time, and
 * an array that is a member of a top-level object, or a top-level array,
 * can be split, each element parsed and handed on alone, so that memory
 * is bounded by the largest element rather than by the file (a FHIR
 * Bundle's entries, a file of DEXA scans).
 * The stream owns what it parses; callbacks borrow it.
 */
#ifndef HQ_JSONIN_H
#define HQ_JSONIN_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "hq/err.h"

#define HQ_JSONIN_MAX_DEPTH 64

/* Return 0 to go on, -1 (with e set) to stop. */
typedef int hq_jsonin_fn(void *arg, const cJSON *value, long line,
    struct hq_err *e);

/* Every value in buf (len bytes; a UTF-8 byte-order mark is skipped) to fn.
 * name is the file for messages. Nesting deeper than max_depth (0: the
 * default) is an error naming the line. Returns the number of values, or
 * -1 with e set ("name:line: why"). */
long hq_jsonin_each(const char *buf, size_t len, const char *name,
    int max_depth, hq_jsonin_fn *fn, void *arg, struct hq_err *e);

/*
 * Brackets and strings of JSON text, fed in pieces: what both the depth
 * check and the stream use to know where a value ends. Start with depth
 * (the brackets already open), max (deepest allowed) and stop (the depth
 * at which a closed bracket or string ends the scan; -1: never).
 */
struct hq_jsonin_scan {
	int depth, max, stop;
	int in_str, esc;
	int deep;                 /* set: a bracket opened past max */
	int done;                 /* set: back at depth stop */
	long lines;               /* newlines seen */
	long values;              /* commas and opening brackets seen */
};

/* Scan up to n bytes of p: the number scanned, fewer when the scan is
 * done (the closing byte included) or too deep (the offending bracket
 * included). */
size_t hq_jsonin_scan(struct hq_jsonin_scan *s, const char *p, size_t n);

/* ---- streams ------------------------------------------------------------ */

struct hq_jsonin_stream_cb {
	/* Whether the array that is member key of the top-level object obj
	 * (its members so far) is split. Split, its elements go to element()
	 * and it stands in obj as an empty array. */
	int (*split)(void *arg, const cJSON *obj, const char *key);
	/* An element of a split array, and the line it starts on. */
	hq_jsonin_fn *element;
	/* Each top-level value, whole but for the elements split off. */
	hq_jsonin_fn *value;
	/* What an element is, for messages ("a Bundle entry"). */
	const char *element_what;
	/* Set: a top-level array is split too, its elements to element()
	 * (a file of DEXA scans); value() never sees it. */
	int split_top;
};

struct hq_jsonin_stream;

/* What a stream holds at once: an element split off, and all the rest of
 * a top-level value, each as bytes of JSON text and as values (counted
 * as the commas and opening brackets in them, and the value itself).
 * cJSON's tree costs some 100 bytes a value, whatever the text: the
 * count bounds memory where bytes cannot (4 MiB of "0," are 2 Mi values,
 * 200 MB of tree). depth: nesting throughout (0: HQ_JSONIN_MAX_DEPTH).
 * A run of white space between values is bounded by value_bytes too. */
struct hq_jsonin_limits {
	size_t element_bytes, value_bytes;
	long element_values, value_values;
	int depth;
};

/* A stream of the file name (for messages) to cb. name, lim and cb are
 * borrowed. */
struct hq_jsonin_stream *hq_jsonin_stream_new(const char *name,
    const struct hq_jsonin_limits *lim,
    const struct hq_jsonin_stream_cb *cb, void *arg);

/* The next n bytes of the file: 0, or -1 with e set ("name:line: why";
 * a callback's error as it set it). After an error the stream takes no
 * more. */
int hq_jsonin_stream_feed(struct hq_jsonin_stream *s, const char *p, size_t n,
    struct hq_err *e);

/* The end of the file: the number of top-level values, or -1 with e set
 * (the file ends inside a value). */
long hq_jsonin_stream_end(struct hq_jsonin_stream *s, struct hq_err *e);

void hq_jsonin_stream_free(struct hq_jsonin_stream *s);

#endif
