#include <math.h>
#include <stdint.h>
#include <string.h>

#include "hq/rowdesc.h"
#include "hq/sense.h"
#include "hq/time.h"

static int
shows(const struct hq_out *o, const struct hq_col *c)
{
	int where = hq_out_format(o) == HQ_FMT_TABLE ? HQ_COL_TABLE : HQ_COL_DATA;

	return !c->in || (c->in & where);
}

static void
cell(struct hq_out *o, const struct hq_col *c, const void *row)
{
	const char *p = (const char *)row + c->off;
	char buf[2048];       /* a name may be 1024 bytes (HQ_INGEST_MAX_NAME) */

	switch (c->type) {
	case HQ_COL_STR:
		hq_out_str(o, c->key, *(const char *const *)(const void *)p);
		break;
	case HQ_COL_STR0: {
		const char *s = *(const char *const *)(const void *)p;
		hq_out_str(o, c->key, s && *s ? s : NULL);
		break;
	}
	case HQ_COL_CHARS:
		hq_out_str(o, c->key, p);
		break;
	case HQ_COL_NUM:
		hq_out_num(o, c->key, *(const double *)(const void *)p);
		break;
	case HQ_COL_SHORT:      /* as every table cut it: 32 bytes */
		hq_format_short(*(const double *)(const void *)p, buf, 32);
		hq_out_str(o, c->key, buf);
		break;
	case HQ_COL_SENSE:
	case HQ_COL_CHANGE:
		hq_sense_value(*(const double *)(const void *)p, c->konst,
		    c->type == HQ_COL_CHANGE ? HQ_SENSE_SIGN : 0, buf, 64);
		hq_out_str(o, c->key, buf);
		break;
	case HQ_COL_INT64:
		hq_out_int(o, c->key, *(const int64_t *)(const void *)p);
		break;
	case HQ_COL_LONG:
		hq_out_int(o, c->key, *(const long *)(const void *)p);
		break;
	case HQ_COL_BOOL:
		hq_out_bool(o, c->key, *(const int *)(const void *)p);
		break;
	case HQ_COL_DAY:
		hq_time_format_day(*(const int64_t *)(const void *)p, buf, 16);
		hq_out_str(o, c->key, buf);
		break;
	case HQ_COL_DATE:
		hq_time_format_date(*(const int64_t *)(const void *)p, buf, 40);
		hq_out_str(o, c->key, buf);
		break;
	case HQ_COL_TIME:
		hq_time_format_local(*(const int64_t *)(const void *)p, buf, 40);
		hq_out_str(o, c->key, buf);
		break;
	case HQ_COL_CONST:
		hq_out_str(o, c->key, c->konst);
		break;
	case HQ_COL_TEXT:
		buf[0] = '\0';
		hq_out_str(o, c->key, c->text(row, buf, sizeof buf) ? NULL : buf);
		break;
	case HQ_COL_CALC:
		hq_out_num(o, c->key, c->num(row));
		break;
	case HQ_COL_PUT:
		c->put(o, c->key, row);
		break;
	}
}

void
hq_out_cells(struct hq_out *o, const struct hq_col *cols, const void *row)
{
	for (const struct hq_col *c = cols; c->key; c++)
		if (shows(o, c))
			cell(o, c, row);
}

void
hq_out_row(struct hq_out *o, const struct hq_col *cols, const void *row)
{
	hq_out_begin(o);
	hq_out_cells(o, cols, row);
	hq_out_end(o);
}

void
hq_out_fit_cols(struct hq_out *o, const struct hq_col *cols)
{
	for (const struct hq_col *c = cols; c->key; c++)
		if ((c->in == 0 || (c->in & HQ_COL_TABLE)) &&
		    (c->fit.drop || c->fit.min_width || c->fit.right))
			hq_out_fit(o, c->key, c->fit);
}
