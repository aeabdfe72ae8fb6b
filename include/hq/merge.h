/*
 * merge — one series out of overlapping sources, for cumulative metrics.
 *
 * An iPhone and an Apple Watch both count the same steps. Sources are
 * ranked (hq_merge_priority); walking the ranks from the top, each sample
 * counts only for the part of its interval that no higher-ranked sample
 * covers, pro rata by time (a uniform rate within the sample). Samples of
 * the same rank never cancel each other.
 *
 * The priority comes from the configuration (`[query] source_priority =
 * Apple Watch, iPhone`, matched case-insensitively as substrings of the
 * source name, first match wins) and otherwise from the device class:
 * Watch > iPhone > everything else. Ties are broken by source name so that
 * two sources never both count for the same time.
 *
 * struct hq_priority is caller-owned; hq_merge_priority_free() frees the
 * strings it copied.
 */
#ifndef HQ_MERGE_H
#define HQ_MERGE_H

#include <stddef.h>
#include <stdint.h>

struct hq_priority {
	char **names;   /* configured order; may be empty */
	size_t n;
};

/* "Apple Watch, iPhone" → priority. NULL or "" gives the default. */
void hq_merge_priority_parse(struct hq_priority *p, const char *list);
void hq_merge_priority_free(struct hq_priority *p);
/* A source's class: lower ranks first. device may be NULL. */
int hq_merge_source_class(const struct hq_priority *p, const char *source,
    const char *device);

/* Whether a source's class can depend on the device a sample names (not
 * when the source is listed or says "watch"): 1 or 0. */
int hq_merge_device_matters(const struct hq_priority *p, const char *source);

/* The rank of a sample of source (the order-th source by name) from
 * device: its class first, then the source name, so that two sources never
 * tie. p may be NULL (the default). */
uint64_t hq_merge_rank(const struct hq_priority *p, const char *source,
    const char *device, size_t order);

struct hq_merge_sample {
	int64_t start, end;    /* UTC seconds; end >= start */
	double value;
	uint64_t rank;         /* lower wins */
};

/* The part of a sample that counts. */
struct hq_piece {
	int64_t start, end;
	double value;          /* pro-rata share of the sample's value */
	size_t sample;         /* index into the input */
};

/* The pieces of in[0..n) that count, sorted by start. *out is malloc'd
 * (free() it). Zero-length samples count whole unless a higher-ranked
 * sample covers their instant or a higher-ranked zero-length sample has
 * the same one (two apps logging one meal at one time). */
void hq_merge_cumulative(const struct hq_merge_sample *in, size_t n,
    struct hq_piece **out, size_t *nout);

#endif
