/*
 * zone — which zone local days are in, and why.
 *
 * In order: --tz, $HQ_TZ, $TZ, `tz` in the configuration ([query], else
 * top level), the zone the data records (the HKTimeZone of the most recent
 * sample or workout that has one: the store's time_zone table, kept by
 * hq-ingest), else the machine's. A server or container is usually UTC
 * while the person's data is not, so the data's own zone comes before the
 * machine's; a command says so on a terminal (hq_zone_note), because
 * nobody asked for it.
 *
 * hq_zone_choose() sets the zone (time.h) and fills a caller-owned struct;
 * nothing is allocated.
 */
#ifndef HQ_ZONE_H
#define HQ_ZONE_H

#include <stddef.h>
#include <stdint.h>

#include "hq/config.h"
#include "hq/err.h"
#include "hq/store.h"

enum hq_zone_from {
	HQ_ZONE_OPTION,   /* --tz */
	HQ_ZONE_HQ_TZ,    /* $HQ_TZ */
	HQ_ZONE_TZ,       /* $TZ */
	HQ_ZONE_CONFIG,   /* tz in the configuration */
	HQ_ZONE_DATA,     /* the store's most recent HKTimeZone */
	HQ_ZONE_SYSTEM,   /* none of these: the machine's */
};

struct hq_zone_choice {
	enum hq_zone_from from;
	char name[256];         /* "America/Los_Angeles"; "" for the system's */
	char where[512];        /* HQ_ZONE_CONFIG: "FILE:LINE" */
	int64_t data_last;      /* HQ_ZONE_DATA: the latest start recording it */
};

/* Choose and set the zone. option is --tz (NULL: not given); cfg and s may
 * be NULL (no configuration, no store). A zone named by the option, the
 * environment or the configuration that this machine does not know is an
 * error naming where it came from; a recorded zone it does not know is
 * passed over. 0, or -1 with e set. */
int hq_zone_choose(const char *option, const struct hq_config *cfg,
    struct hq_store *s, struct hq_zone_choice *z, struct hq_err *e);

/* For a person, when the data chose (HQ_ZONE_DATA): which zone, why, and
 * how to choose another, in two lines (a '\n' between); "" otherwise. */
void hq_zone_note(const struct hq_zone_choice *z, char *buf, size_t n);

/* For a person, when the machine's zone was taken (HQ_ZONE_SYSTEM) while a
 * device file states its local time otherwise (hq-ingest): which, and how
 * to choose, in three lines. */
void hq_zone_offset_note(const char *file, int stated_min, int zone_min,
    char *buf, size_t n);

#endif
