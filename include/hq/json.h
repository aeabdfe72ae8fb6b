/*
 * json — small helpers over cJSON for the modules that read and write
 * JSON documents (tool schemas, model requests and replies, the agent's
 * log): typed field lookups that take a missing object or field in their
 * stride, compact printing into a buffer, and the cleaning strict servers
 * want of a JSON Schema.
 *
 * Memory: lookups borrow from the object they are given; a cJSON value
 * returned is the caller's (cJSON_Delete).
 */
#ifndef HQ_JSON_H
#define HQ_JSON_H

#include <cjson/cJSON.h>

#include "hq/buf.h"

/* obj[key] when it is a string, else NULL (also when obj is NULL). */
const char *hq_json_str(const cJSON *obj, const char *key);
/* obj[key] when it is a number, else dflt. */
long hq_json_long(const cJSON *obj, const char *key, long dflt);
/* obj[key] into *v when it is a finite number: 0, else -1. */
int hq_json_num(const cJSON *obj, const char *key, double *v);
/* A new empty object at the end of array (NULL when cJSON cannot make one). */
cJSON *hq_json_add_object(cJSON *array);
/* Appends v printed compactly; -1 when cJSON cannot print it. */
int hq_json_append(struct hq_buf *b, const cJSON *v);
/* text parsed, when it is a JSON object; else an empty object. */
cJSON *hq_json_object(const char *text);
/* A copy of a JSON Schema without its x-* keys (at any depth), which
 * strict servers reject. NULL when cJSON cannot copy it. */
cJSON *hq_json_schema_clean(const cJSON *schema);

#endif
