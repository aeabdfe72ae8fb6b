/* Unit tests for lib/render/rowdesc.c (a row description written through
 * output.c) and output.c's heading and footnote around a table. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/output.h"
#include "hq/rowdesc.h"
#include "tap.h"

struct thing {
	const char *name, *note;
	double v;
	int64_t day;
	long n;
	int flag;
};

static int
label(const void *row, char *buf, size_t n)
{
	const struct thing *t = row;

	if (isnan(t->v))
		return -1;
	snprintf(buf, n, "%s=%g", t->name, t->v);
	return 0;
}

static void
pair(struct hq_out *o, const char *key, const void *row)
{
	const struct thing *t = row;
	const char *v[] = { t->name, "x" };

	hq_out_strv(o, key, v, 2);
}

#define TH(k, ty, f) HQ_COL_AT(k, ty, struct thing, f)
static const struct hq_col cols[] = {
	{ TH("name", HQ_COL_STR, name) },
	{ TH("note", HQ_COL_STR0, note), .in = HQ_COL_DATA },
	{ TH("v", HQ_COL_NUM, v), .in = HQ_COL_DATA },
	{ TH("v", HQ_COL_SHORT, v), .in = HQ_COL_TABLE },
	{ HQ_COL_FN("label", label) },
	{ TH("day", HQ_COL_DAY, day) },
	{ TH("n", HQ_COL_LONG, n) },
	{ TH("flag", HQ_COL_BOOL, flag), .in = HQ_COL_DATA },
	{ HQ_COL_K("unit", "kg") },
	{ HQ_COL_P("pair", pair), .in = HQ_COL_DATA },
	{ .key = NULL },
};

static char *
render(enum hq_format f, int notes)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&text, &len);
	struct hq_out *o = hq_out_new(fp, f);
	struct thing a = { "a", "", 1234.5678, 0, 3, 1 };
	struct thing b = { "b", "hi", NAN, 19723, 12, 0 };

	hq_out_set_width(o, 80);
	hq_out_fit_cols(o, cols);
	if (notes) {
		hq_out_heading(o, "Heading");
		hq_out_footnote(o, "~ a note\n  on two lines");
	}
	hq_out_row(o, cols, &a);
	hq_out_row(o, cols, &b);
	hq_out_free(o);
	fclose(fp);
	return text;
}

int
main(void)
{
	char *s;

	s = render(HQ_FMT_JSONL, 1);
	is_str(s, "{\"name\":\"a\",\"note\":null,\"v\":1234.5678,\"label\":\"a=1234.57\","
	    "\"day\":\"1970-01-01\",\"n\":3,\"flag\":true,\"unit\":\"kg\",\"pair\":[\"a\",\"x\"]}\n"
	    "{\"name\":\"b\",\"note\":\"hi\",\"v\":null,\"label\":null,"
	    "\"day\":\"2024-01-01\",\"n\":12,\"flag\":false,\"unit\":\"kg\",\"pair\":[\"b\",\"x\"]}\n",
	    "jsonl: the data columns by type, in order; no heading nor footnote");
	free(s);
	s = render(HQ_FMT_CSV, 1);
	is_str(s, "name,note,v,label,day,n,flag,unit,pair\n"
	    "a,,1234.5678,a=1234.57,1970-01-01,3,true,kg,\"a, x\"\n"
	    "b,hi,,,2024-01-01,12,false,kg,\"b, x\"\n",
	    "csv: the same columns");
	free(s);
	s = render(HQ_FMT_TABLE, 1);
	is_str(s, "Heading\n"
	    "name  v     label      day          n  unit\n"
	    "a     1235  a=1234.57  1970-01-01   3  kg\n"
	    "b     -     -          2024-01-01  12  kg\n"
	    "~ a note\n  on two lines\n",
	    "table: the table columns (SHORT is text: left; a null: -), the "
	    "heading above and the footnote below");
	free(s);
	s = render(HQ_FMT_TABLE, 0);
	like(s, "^name ", "table without notes starts with the header");
	free(s);
	{
		/* a name may be 1024 bytes (HQ_INGEST_MAX_NAME): a text cell
		 * holds it whole */
		static char name[1025], want[1100];
		struct thing t = { name, "", 1, 0, 0, 0 };
		char *text = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&text, &len);
		struct hq_out *o = hq_out_new(fp, HQ_FMT_CSV);
		memset(name, 'n', 1024);
		hq_out_row(o, cols, &t);
		hq_out_free(o);
		fclose(fp);
		snprintf(want, sizeof want, ",%s=1,", name);
		ok(strstr(text, want) != NULL, "a 1024-byte name whole in a text cell");
		free(text);
	}
	return done_testing();
}
