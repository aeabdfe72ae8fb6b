/*
 * config — ~/.config/hq/config ($XDG_CONFIG_HOME/hq/config, or $HQ_CONFIG).
 *
 *     [llm]
 *     provider = anthropic
 *     model = claude-sonnet-4-5
 *     [query]
 *     source_priority = Apple Watch, iPhone
 *
 * '#' and ';' start comments. A missing file is an empty configuration.
 * A line holds at most HQ_CONFIG_MAX_LINE bytes (no NUL) and a file at most
 * HQ_CONFIG_MAX_KEYS keys: past either, an error naming file:line.
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

struct hq_config;

int hq_config_path(char *buf, size_t n);
/* path NULL: the default path. NULL on a malformed file (e names file:line). */
struct hq_config *hq_config_load(const char *path, struct hq_err *e);
const char *hq_config_get(const struct hq_config *c, const char *section,
    const char *key);
void hq_config_free(struct hq_config *c);

#endif
