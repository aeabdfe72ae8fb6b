/* Unit tests for lib/base/input.c and lib/read/reader.c: opening and sniffing a
 * file, --format families, a reader's options (no global), the errors
 * for files of no known format, rewinding, and bounded lines across
 * reads. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hq/ingest.h"
#include "hq/input.h"
#include "hq/reader.h"
#include "hq/store.h"
#include "hq/utf8.h"
#include "tap.h"

static char dir[] = "/tmp/hq-unit-input.XXXXXX";

/* A file in dir holding n bytes of s; its path. */
static const char *
file_of(const char *name, const char *s, size_t n)
{
	static char path[8][300];
	static int k;
	char *p = path[k++ % 8];
	FILE *fp;

	snprintf(p, sizeof path[0], "%s/%s", dir, name);
	fp = fopen(p, "wb");
	if (!fp || fwrite(s, 1, n, fp) != n || fclose(fp))
		exit(1);
	return p;
}

/* The format hq_reader_open gives path under family, or its error. */
static const char *
opened(const char *path, const char *family, char *buf, size_t n)
{
	const struct hq_reader *r;
	struct hq_input in;
	struct hq_err e;

	if (!(r = hq_reader_open(&in, path, family, &e))) {
		snprintf(buf, n, "error: %s", e.msg);
		return buf;
	}
	snprintf(buf, n, "%s", r->name);
	hq_input_close(&in);
	return buf;
}

int
main(void)
{
	char buf[1200];
	struct hq_input in;
	struct hq_err e;

	if (!mkdtemp(dir))
		return 1;
	const char *json = file_of("a.jsonl", "\n  {\"metric\":\"steps\"}\n", 22);
	const char *zip = file_of("a.zip", "PK\3\4rest of a zip", 18);
	const char *xml = file_of("a.xml", "<?xml version=\"1.0\"?>\n<HealthData/>\n", 37);
	const char *text = file_of("a.txt", "hello\n", 6);
	const char *empty = file_of("empty", "", 0);

	is_str(opened(json, NULL, buf, sizeof buf), "jsonl", "JSON lines sniffed");
	is_str(opened(zip, "auto", buf, sizeof buf), "apple-zip", "a zip sniffed");
	is_str(opened(xml, NULL, buf, sizeof buf), "apple-xml", "Apple's XML sniffed");
	is_str(opened(json, "apple", buf, sizeof buf), "apple-xml",
	    "--format apple: the XML reader for what is not a zip");
	is_str(opened(zip, "apple", buf, sizeof buf), "apple-zip",
	    "--format apple: the zip reader for a zip");
	is_str(opened(text, "jsonl", buf, sizeof buf), "jsonl",
	    "--format jsonl forces JSON lines");
	ok(strstr(opened(text, NULL, buf, sizeof buf), "a.txt: not a zip of "
	    "FIT, TCX or GPX files nor an Apple Health "
	    "export (zip or XML) nor a FIT activity file nor a TCX activity "
	    "file nor a GPX track nor a gzip of a FIT, TCX or GPX file nor "
	    "a Dexcom Clarity CSV nor a LibreView CSV nor "
	    "FHIR lab results nor DEXA scans (JSON or CSV) nor lab results (CSV or "
	    "JSON lines) nor JSON lines; use --format") != NULL,
	    "no known format: the formats of the table are named (%s)", buf);
	ok(strstr(opened(empty, NULL, buf, sizeof buf), "empty: empty file") != NULL,
	    "an empty file says so");
	ok(strstr(opened(dir, NULL, buf, sizeof buf), "is a directory") != NULL,
	    "a directory says so");
	ok(strstr(opened("/nonexistent/x", NULL, buf, sizeof buf),
	    "cannot open /nonexistent/x") != NULL, "a missing file is named");
	ok(strstr(opened(json, "csv", buf, sizeof buf), "unknown format 'csv'") != NULL,
	    "an unknown family is refused");

	/* Every byte comes through read, the sniffed ones first; a file
	 * can start again. */
	if (hq_input_open(&in, xml, &e) == 0) {
		char got[64];
		ssize_t n = hq_input_read(&in, got, 10);
		is_int(n, 10, "the first bytes again");
		ok(memcmp(got, "<?xml vers", 10) == 0, "from the start");
		n = hq_input_read(&in, got, sizeof got);
		is_int(n, 27, "then the rest");
		is_int(hq_input_read(&in, got, sizeof got), 0, "then the end");
		is_int((long long)in.bytes, 37, "bytes counted");
		is_int((long long)in.size, 37, "the size of a file is known");
		ok(hq_input_rewind(&in) == 0, "a file rewinds");
		is_int(in.bytes, 0, "to the first byte");
		is_int(hq_input_read(&in, got, 5), 5, "and reads again");
		ok(memcmp(got, "<?xml", 5) == 0, "from the descriptor");
		hq_input_close(&in);
	} else
		ok(0, "open: %s", e.msg);

	/* Lines: longer than a read, too long, blank, and a last line
	 * without its newline. */
	size_t big = 200000;
	char *s = malloc(big + 64);
	size_t o = 0;
	o += (size_t)snprintf(s + o, 64, "first\r\n\n");
	memset(s + o, 'x', 70000);       /* one line across two reads */
	o += 70000;
	s[o++] = '\n';
	memset(s + o, 'y', 100000);      /* longer than max */
	o += 100000;
	s[o++] = '\n';
	o += (size_t)snprintf(s + o, 64, "last");
	const char *lines = file_of("lines", s, o);
	free(s);
	if (hq_input_open(&in, lines, &e) == 0) {
		struct hq_input_lines *l = malloc(sizeof *l);
		hq_input_lines_start(l, &in, 80000);
		is_int(hq_input_lines_next(l, &e), 1, "line 1");
		is_str(l->line.data, "first\r", "without its newline, CR kept");
		is_int(hq_input_lines_next(l, &e), 1, "line 2");
		is_str(l->line.data, "", "a blank line is empty");
		is_int(hq_input_lines_next(l, &e), 1, "line 3");
		is_int((long long)l->line.len, 70000, "whole across reads");
		ok(!l->too_long, "within the bound");
		is_int(hq_input_lines_next(l, &e), 1, "line 4");
		ok(l->too_long && l->line.len == 0, "past the bound: empty, too_long");
		is_int(l->lineno, 4, "numbered");
		ok(in.bytes < 8 + 70001 + 80000 + sizeof l->buf,
		    "said once the bound is passed, not at the line's end (%llu "
		    "bytes read)", (unsigned long long)in.bytes);
		is_int(hq_input_lines_next(l, &e), 0, "then the lines end");
		is_int(hq_input_lines_next(l, &e), 0, "and stay ended");
		hq_input_lines_end(l);
		free(l);
		hq_input_close(&in);
	} else
		ok(0, "open: %s", e.msg);

	/* A reader's options are its own, not a global: one LibreView file
	 * whose dates settle nothing, read twice in one process, day first
	 * then month first, gives two readings each on different days. */
	static const char libre[] = "Device,Serial Number,Device Timestamp,"
	    "Record Type,Historic Glucose mg/dL,Scan Glucose mg/dL,a,b,c,d,e,f,"
	    "g,h,i\n"
	    "FreeStyle LibreLink,x,03-01-2024 10:00,0,100,,,,,,,,,,\n"
	    "FreeStyle LibreLink,x,04-01-2024 10:15,0,110,,,,,,,,,,\n";
	const char *amb = file_of("amb.csv", libre, sizeof libre - 1);
	snprintf(buf, sizeof buf, "%s/t.db", dir);
	struct hq_store *st = hq_store_open(buf, HQ_STORE_CREATE, &e);
	const struct hq_read_opts order[2] = { { .date_order = HQ_DATES_DMY },
	    { .date_order = HQ_DATES_MDY } };
	long inserted = 0;
	for (int i = 0; st && i < 2; i++) {
		const struct hq_reader *r = hq_reader_open(&in, amb, "libre", &e);
		struct hq_ingest *ig = r ? hq_ingest_start(st, amb, r->name, -1, &e)
		    : NULL;
		if (ig && r->read(&in, &order[i], ig, &e) == 0) {
			inserted += hq_ingest_counts(ig)->inserted;
			hq_ingest_commit(ig, &e);
		} else if (ig)
			hq_ingest_abort(ig);
		if (r)
			hq_input_close(&in);
	}
	is_int(inserted, 4, "dmy then mdy in one process: four readings, "
	    "none taken for the other's");
	if (inserted != 4)
		printf("# %s\n", e.msg);
	hq_store_close(st);

	/* The rule of every text reader: a NUL byte is refused at its line. */
	const char *nul = file_of("nul", "one\ntwo\nth\0ree\n", 15);
	if (hq_input_open(&in, nul, &e) == 0) {
		struct hq_input_lines *l = malloc(sizeof *l);
		hq_input_lines_start(l, &in, 80000);
		is_int(hq_input_lines_next(l, &e), 1, "line 1");
		is_int(hq_input_lines_next(l, &e), 1, "line 2");
		is_int(hq_input_lines_next(l, &e), -1, "line 3 holds a NUL byte");
		like(e.msg, "/nul:3: NUL byte: not a text file$", "refused at its line");
		hq_input_lines_end(l);
		free(l);
		hq_input_close(&in);
	} else
		ok(0, "open: %s", e.msg);
	long line = 5;
	ok(hq_text_check("a\nb\n", 4, "f", &line, &e) == 0 && line == 7,
	    "text: lines counted past its newlines");
	ok(hq_text_check("a\nb\0\n", 5, "f", &line, &e) < 0 &&
	    strcmp(e.msg, "f:8: NUL byte: not a text file") == 0, "a NUL: %s", e.msg);

	const char *names[] = { "a.jsonl", "a.zip", "a.xml", "a.txt", "empty",
	    "lines", "amb.csv", "t.db", "t.db-wal", "t.db-shm", "nul" };
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(buf, sizeof buf, "%s/%s", dir, names[i]);
		unlink(buf);
	}
	rmdir(dir);
	return done_testing();
}
