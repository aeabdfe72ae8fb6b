/*
 * config — ~/.config/hq/config ($XDG_CONFIG_HOME/hq/config, or $HQ_CONFIG).
 *
 *     [llm]
 *     provider = anthropic
 *     model = claude-sonnet-4-5
 *     [query]
 *     source_priority = Apple Watch, iPhone
 *     tz = Europe/Paris
 *     [athlete]
 *     max_hr = 188
 *
 * '#' and ';' start comments. A missing file is an empty configuration
 * (said, as a warning, when $HQ_CONFIG named it). A key set twice in a
 * section is warned about at its second line; the later value counts.
 * A line holds at most HQ_CONFIG_MAX_LINE bytes (no NUL) and a file at most
 * HQ_CONFIG_MAX_KEYS keys: past either, an error naming file:line.
 * Keys before the first section are in section "" (top level).
 *
 * The keys hq reads are listed once, in config.c (known[]): a key or a
 * section not listed there is kept but warned about (a misspelt key does
 * nothing, so it must not do nothing silently). A command that reads a new
 * key adds it to that list. [goals] holds keys of the user's choosing
 * (metric names: steps = 10000/day), which lib/analyze/goals.c checks;
 * [queries] too (saved queries, lib/base/queries.c).
 *
 * Strings returned are owned by the config and live until hq_config_free().
 */
#ifndef HQ_CONFIG_H
#define HQ_CONFIG_H

#include <stddef.h>

#include "hq/err.h"

#define HQ_CONFIG_MAX_LINE 4096
#define HQ_CONFIG_MAX_LINE_S "4096"
#define HQ_CONFIG_MAX_KEYS 1000
#define HQ_CONFIG_MAX_KEYS_S "1000"
/* A key's comment (hq_config_comment) keeps the lines that start before
 * this many bytes. */
#define HQ_CONFIG_MAX_COMMENT 1024

struct hq_config;

int hq_config_path(char *buf, size_t n);
/* path NULL: the default path. NULL on a malformed file (e names file:line). */
struct hq_config *hq_config_load(const char *path, struct hq_err *e);
const char *hq_config_get(const struct hq_config *c, const char *section,
    const char *key);
/* Where a key was set, "FILE:LINE", into buf; 0, or -1 when it was not. */
int hq_config_where(const struct hq_config *c, const char *section,
    const char *key, char *buf, size_t n);
/* The '#' comment lines right above a key (no blank line between), their
 * text after '#' joined by spaces; NULL when there are none. */
const char *hq_config_comment(const struct hq_config *c, const char *section,
    const char *key);
/* The i-th key of a section, in the order of the file (a key set twice
 * where it was first set; its value the later one), NULL past the last. */
const char *hq_config_key_at(const struct hq_config *c, const char *section,
    size_t i);
/* The i-th warning about the file ("FILE:LINE: unknown key 'modle' under
 * [llm] (did you mean model?)"), NULL past the last: for the command to
 * print. */
const char *hq_config_warning(const struct hq_config *c, size_t i);
void hq_config_free(struct hq_config *c);

#endif
