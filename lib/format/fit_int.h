/* fit_int — what fit.c (the decoder) and fit_msg.c (values and messages)
 * share inside lib/format: each base type's size and invalid value, and
 * which fields a time or an accumulator takes. */
#ifndef HQ_FIT_INT_H
#define HQ_FIT_INT_H

#include <stdint.h>

#include "hq/fit.h"

struct hq_fit_base {
	uint8_t size;
	uint64_t invalid;
};

extern const struct hq_fit_base hq_fit_base[HQ_FIT_NTYPES];

/* A single uint32 (date_time, distance): what a time or an accumulator
 * takes, and nothing else. */
static inline int
hq_fit_is_u32(const struct hq_fit_field *f)
{
	return f && f->count == 1 && (f->type == HQ_FIT_UINT32 ||
	    f->type == HQ_FIT_UINT32Z);
}

#endif
