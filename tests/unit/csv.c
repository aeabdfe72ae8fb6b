/* Unit tests for lib/format/csv.c: what spreadsheets and portals write (BOM,
 * quotes, line breaks in quotes, CRLF, ';'), and every bound. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/csv.h"
#include "tap.h"

static struct hq_csv_mem mem;

static struct hq_csv *
open_str(const char *s, size_t n, char sep)
{
	mem.p = (const unsigned char *)s;
	mem.n = n;
	mem.pos = 0;
	return hq_csv_new("t.csv", hq_csv_mem_read, &mem, sep);
}

/* The records of s as "a|b|c/d|e/" (fields joined by |, records ended by
 * /), or the error message. */
static const char *
records(const char *s, size_t n, char sep)
{
	static char out[4096];
	struct hq_csv *c = open_str(s, n, sep);
	struct hq_err e;
	size_t k = 0;
	int r;

	out[0] = '\0';
	while ((r = hq_csv_next(c, &e)) == 1) {
		for (size_t i = 0; i < hq_csv_nfields(c); i++)
			k += (size_t)snprintf(out + k, sizeof out - k, "%s%s",
			    i ? "|" : "", hq_csv_field(c, i));
		k += (size_t)snprintf(out + k, sizeof out - k, "@%ld/", hq_csv_line(c));
	}
	if (r < 0)
		snprintf(out, sizeof out, "%s", e.msg);
	hq_csv_free(c);
	return out;
}

#define REC(s, sep) records((s), sizeof(s) - 1, (sep))

int
main(void)
{
	struct hq_csv *c;
	struct hq_err e;
	struct hq_buf b = { 0 };

	is_str(REC("a,b,c\n1,2,3\n", 0), "a|b|c@1/1|2|3@2/", "plain");
	is_str(REC("\xEF\xBB\xBF\"Index\",x\r\n1,2\r\n", 0), "Index|x@1/1|2@2/",
	    "BOM dropped, quoted header, CRLF");
	is_str(REC("a,\"b,c\",\"say \"\"hi\"\"\"\n", 0), "a|b,c|say \"hi\"@1/",
	    "separator and doubled quotes inside quotes");
	is_str(REC("a,\"two\nlines\",c\nnext,1,2\n", 0),
	    "a|two\nlines|c@1/next|1|2@3/", "a line break inside quotes; lines counted");
	is_str(REC("a;b;c\n5,8;x;\"y;z\"\n", 0), "a|b|c@1/5,8|x|y;z@2/",
	    "';' chosen from the first line; decimal comma kept");
	is_str(REC("a;b,c;d\n", ','), "a;b|c;d@1/", "the separator the caller gives");
	is_str(REC("\n\r\na,b\n\n\nc,d", 0), "a|b@3/c|d@6/",
	    "blank lines skipped; a last line without a line end");
	is_str(REC("a,b\rc,d\r", 0), "a|b@1/c|d@2/", "CR alone ends a line");
	is_str(REC("a,,\n,\n", 0), "a||@1/|@2/", "empty fields");
	is_str(REC("", 0), "", "empty input: no records");
	is_str(REC("a,\"b\nc,d\n", 0), "t.csv:1: quoted field not closed",
	    "an unclosed quote names the line it opened on");
	is_str(REC("a,b\nx,\"q\"z,1\n", 0),
	    "t.csv:2: text after a closing quote (a quote inside a quoted field must be doubled)",
	    "text after a closing quote");
	is_str(records("a,b\nc\0d\n", 8, 0), "t.csv:2: NUL byte: not a text file",
	    "a NUL byte");
	is_str(REC("a,b\"c\n", 0), "a|b\"c@1/", "a quote inside an unquoted field is kept");

	/* Bounds: a record of exactly the maximum, one byte more, too many
	 * fields; the error names the line. */
	hq_buf_puts(&b, "h\n");
	for (int i = 0; i < HQ_CSV_MAX_RECORD; i++)
		hq_buf_putc(&b, 'x');
	hq_buf_puts(&b, "\n");
	c = open_str(b.data, b.len, ',');
	ok(hq_csv_next(c, &e) == 1 && hq_csv_next(c, &e) == 1 &&
	    strlen(hq_csv_field(c, 0)) == HQ_CSV_MAX_RECORD, "a line of the maximum length");
	hq_csv_free(c);
	hq_buf_reset(&b);
	hq_buf_puts(&b, "h\nok\n");
	for (int i = 0; i <= HQ_CSV_MAX_RECORD; i++)
		hq_buf_putc(&b, i % 2 ? ',' : 'x');
	hq_buf_puts(&b, "\n");
	is_str(records(b.data, b.len, ','), "t.csv:3: more than 512 fields", "too many fields");
	hq_buf_reset(&b);
	hq_buf_puts(&b, "h\nok\n\"");
	for (int i = 0; i < 3 * HQ_CSV_MAX_RECORD; i++)
		hq_buf_putc(&b, i % 100 ? 'x' : '\n');
	hq_buf_puts(&b, "\"\n");
	is_str(records(b.data, b.len, ','), "t.csv:3: line longer than 65536 bytes",
	    "an endless quoted field stops at the bound, naming where it began");

	/* Past the last field: "". */
	c = open_str("a,b\n", 4, 0);
	hq_csv_next(c, &e);
	is_str(hq_csv_field(c, 7), "", "a missing field reads as empty");
	is_int(hq_csv_bytes(c), 4, "bytes consumed");
	hq_csv_free(c);
	hq_buf_free(&b);
	return done_testing();
}
