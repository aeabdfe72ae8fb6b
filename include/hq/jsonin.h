/*
 * jsonin — JSON documents read from files, with bounds and line numbers.
 *
 * A file holds one JSON value or several one after another (JSON lines, or
 * values concatenated). hq_jsonin_each() checks the nesting depth before
 * cJSON sees the text (so no input can recurse deeply), parses each value
 * and hands it to a callback with the line it starts on; a syntax error
 * names file:line. The values are owned by jsonin and freed after the
 * callback returns.
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

/* The line (from 1) of pos in buf. */
long hq_jsonin_line(const char *buf, const char *pos);

#endif
