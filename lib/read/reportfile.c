#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "hq/buf.h"
#include "hq/csvline.h"
#include "hq/dexa.h"
#include "hq/fhir.h"
#include "hq/jsonin.h"
#include "hq/labs.h"
#include "hq/reportfile.h"
#include "hq/utf8.h"

/* DEXA JSON is streamed too (a 16 MB file read whole took 162 MB): a
 * top-level array's scans one at a time, a scan (an element, or a
 * top-level object) at most 1 MiB and 64 Ki values; a scan is a few KB,
 * at most HQ_DEXA_MAX_FIELDS fields, and a file at most HQ_DEXA_MAX_SCANS
 * scans. */
static const struct hq_jsonin_limits dexa_limits = {
	.element_bytes = 1u << 20, .element_values = 64L << 10,
	.value_bytes = 1u << 20, .value_values = 64L << 10,
};

/* A FHIR Bundle's entries are read one at a time (a Bundle of decades of
 * results is a few megabytes, 20,000 Observations 7.4 MB, but nothing
 * bounds their number). An entry is one resource: an Observation a few KB
 * and some 60 values, a DiagnosticReport with its Observations contained
 * tens of KB; at most 4 MiB and 128 Ki values (cJSON: some 30 MB at
 * worst). What else a FHIR file holds is read whole, as before: at most
 * 16 MiB per top-level value, and 512 Ki values (a 16 MB Bundle whose
 * resourceType follows its entries has some 450 Ki). */
static const struct hq_jsonin_limits fhir_limits = {
	.element_bytes = 4u << 20, .element_values = 128L << 10,
	.value_bytes = 16u << 20, .value_values = 512L << 10,
};

/* ---- sniffing ------------------------------------------------------------ */

/* The first line after a byte-order mark and blank lines: its length. */
static size_t
first_line(const unsigned char *p, size_t n, const unsigned char **line)
{
	size_t i = hq_input_skip_space(p, n), k = i;

	while (k < n && p[k] != '\n')
		k++;
	*line = p + i;
	return k < n ? k - i : 0;   /* a line not whole in n bytes is none */
}

/* The string value of the first "key" in the text, into buf: a look at
 * the start of a JSON document too large to parse for a sniff. */
static int
first_value(const unsigned char *p, size_t n, const char *key, char *buf,
    size_t bn)
{
	char pat[32];
	size_t k = (size_t)snprintf(pat, sizeof pat, "\"%s\"", key), i, j;
	const unsigned char *at = memmem(p, n, pat, k);

	if (!at)
		return 0;
	i = (size_t)(at - p) + k;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
		i++;
	if (i >= n || p[i++] != ':')
		return 0;
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
		i++;
	if (i >= n || p[i++] != '"')
		return 0;
	for (j = 0; i < n && p[i] != '"' && j + 1 < bn; i++, j++)
		buf[j] = (char)p[i];
	buf[j] = '\0';
	return i < n && p[i] == '"';
}

int
hq_reportfile_sniff_labs_csv(const unsigned char *p, size_t n)
{
	const unsigned char *line;
	size_t len = first_line(p, n, &line);

	return len && hq_labs_csv_sniff((const char *)line, len);
}

int
hq_reportfile_sniff_dexa_csv(const unsigned char *p, size_t n)
{
	const unsigned char *line;
	size_t len = first_line(p, n, &line);

	return len && hq_dexa_csv_sniff((const char *)line, len);
}

int
hq_reportfile_sniff_labs_jsonl(const unsigned char *p, size_t n)
{
	const unsigned char *line;
	size_t len = first_line(p, n, &line);
	cJSON *o;
	int yes;

	if (!len || line[0] != '{')
		return 0;
	o = cJSON_ParseWithLength((const char *)line, len);
	yes = hq_labs_json_sniff(o);
	cJSON_Delete(o);
	return yes;
}

int
hq_reportfile_sniff_fhir(const unsigned char *p, size_t n)
{
	size_t i = hq_input_skip_space(p, n);
	char type[32];

	return i < n && p[i] == '{' &&
	    first_value(p + i, n - i, "resourceType", type, sizeof type) &&
	    (strcmp(type, "Bundle") == 0 || strcmp(type, "Observation") == 0 ||
	    strcmp(type, "DiagnosticReport") == 0);
}

int
hq_reportfile_sniff_dexa_json(const unsigned char *p, size_t n)
{
	size_t i = hq_input_skip_space(p, n);
	char kind[16];

	return i < n && (p[i] == '{' || p[i] == '[') &&
	    first_value(p + i, n - i, "kind", kind, sizeof kind) &&
	    strcmp(kind, "dexa") == 0;
}

/* ---- reading ------------------------------------------------------------- */

/* A result or scan the writer refuses (2) fails the file, as a store
 * error does. */
static int
add_lab(void *arg, const struct hq_lab_result *r, struct hq_err *e)
{
	int rc = hq_ingest_lab_result(arg, r, 0, e);

	return rc < 0 || rc == 2 ? -1 : 0;
}

static int
add_scan(void *arg, const struct hq_dexa_scan *s, struct hq_err *e)
{
	int rc = hq_ingest_dexa_scan(arg, s, e);

	return rc < 0 || rc == 2 ? -1 : 0;
}

/* A file that failed: its message says where (hq-ingest adds that nothing
 * of it went in: the import is rolled back). */
static int
rejected(const struct hq_err *why, struct hq_err *e)
{
	hq_err_set(e, "%s", why->msg);
	return -1;
}

/* Every line of in to fn (blank lines too: the readers pass them over),
 * within HQ_CSVLINE_MAX_LINE bytes. */
typedef int line_fn(void *arg, char *line, size_t len, long lineno,
    struct hq_err *e);

static int
each_line(struct hq_ingest *ig, struct hq_input *in, line_fn *fn, void *arg,
    struct hq_err *e)
{
	struct hq_input_lines l;
	struct hq_err le;
	int rc;

	hq_input_lines_start(&l, in, HQ_CSVLINE_MAX_LINE);
	while ((rc = hq_input_lines_next(&l, e)) > 0) {
		if (l.too_long) {
			hq_err_set(&le, "%s:%ld: line longer than %d bytes", in->name,
			    l.lineno, HQ_CSVLINE_MAX_LINE);
			rc = -1;
		} else {
			rc = fn(arg, l.line.data, l.line.len, l.lineno, &le);
			/* The writer's own refusals (text that is not UTF-8) do
			 * not know the line: they get it here. */
			if (rc < 0 && strncmp(le.msg, in->name, strlen(in->name)) != 0)
				hq_err_prefix(&le, "%s:%ld", in->name, l.lineno);
		}
		if (rc < 0) {
			rejected(&le, e);
			break;
		}
		hq_ingest_tick(ig, in);
	}
	hq_input_lines_end(&l);
	return rc < 0 ? -1 : 0;
}

static int
labs_csv_line(void *arg, char *line, size_t len, long lineno, struct hq_err *e)
{
	return hq_labs_csv_line(arg, line, len, lineno, e);
}

int
hq_reportfile_read_labs_csv(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e)
{
	(void)o;
	struct hq_lab_sink sink = { .file = in->name, .emit = add_lab, .arg = ig };
	struct hq_labs_csv *c = hq_labs_csv_new(&sink);
	int rc = each_line(ig, in, labs_csv_line, c, e);

	hq_labs_csv_free(c);
	return rc;
}

static int
labs_json_line(void *arg, char *line, size_t len, long lineno,
    struct hq_err *e)
{
	struct hq_lab_sink *sink = arg;
	const char *p = line;
	cJSON *o;
	int rc;

	while (*p == ' ' || *p == '\t' || *p == '\r')
		p++;
	if (!*p)
		return 0;
	if (!(o = cJSON_ParseWithLength(p, len - (size_t)(p - line)))) {
		hq_err_set(e, "%s:%ld: not valid JSON", sink->file, lineno);
		return -1;
	}
	rc = hq_labs_json(sink, o, lineno, e);
	cJSON_Delete(o);
	return rc;
}

int
hq_reportfile_read_labs_jsonl(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e)
{
	(void)o;
	struct hq_lab_sink sink = { .file = in->name, .emit = add_lab, .arg = ig };

	return each_line(ig, in, labs_json_line, &sink, e);
}

static int
dexa_csv_line(void *arg, char *line, size_t len, long lineno, struct hq_err *e)
{
	return hq_dexa_csv_line(arg, line, len, lineno, e);
}

int
hq_reportfile_read_dexa_csv(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e)
{
	(void)o;
	struct hq_dexa_sink sink = { .file = in->name, .emit = add_scan, .arg = ig };
	struct hq_dexa_csv *c = hq_dexa_csv_new(&sink);
	struct hq_err fe;
	int rc = each_line(ig, in, dexa_csv_line, c, e);

	if (rc == 0 && hq_dexa_csv_finish(c, &fe))
		rc = rejected(&fe, e);
	hq_dexa_csv_free(c);
	return rc;
}

/* Every byte of in to the stream s, each piece first through the rule of
 * text readers (no NUL byte): 0, or -1 with e set. */
static int
feed_stream(struct hq_input *in, struct hq_jsonin_stream *s, struct hq_err *e)
{
	struct hq_err je;
	char chunk[65536];
	long line = 1;
	ssize_t n;

	while ((n = hq_input_read(in, chunk, sizeof chunk)) > 0) {
		if (hq_text_check(chunk, (size_t)n, in->name, &line, e))
			return -1;
		if (hq_jsonin_stream_feed(s, chunk, (size_t)n, &je) < 0)
			return rejected(&je, e);
	}
	if (n < 0) {
		hq_err_set(e, "%s: %s", in->name, hq_input_strerror(in));
		return -1;
	}
	if (hq_jsonin_stream_end(s, &je) < 0)
		return rejected(&je, e);
	return 0;
}

/* A FHIR result, and the progress line redrawn as results go in. */
struct fhir_file {
	struct hq_ingest *ig;
	struct hq_input *in;
};

static int
add_fhir_lab(void *arg, const struct hq_lab_result *r, struct hq_err *e)
{
	struct fhir_file *f = arg;

	hq_ingest_tick(f->ig, f->in);
	return add_lab(f->ig, r, e);
}

int
hq_reportfile_read_fhir(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e)
{
	(void)o;
	struct fhir_file f = { ig, in };
	struct hq_lab_sink sink = { .file = in->name, .emit = add_fhir_lab,
	    .arg = &f };
	struct hq_jsonin_stream *s = hq_fhir_stream(&sink, &fhir_limits);
	int rc = feed_stream(in, s, e);

	hq_jsonin_stream_free(s);

	/* What a FHIR file holds that is no lab result (vital signs, gram
	 * stains without a value) is said once, not per resource. */
	if (rc == 0 && sink.skipped)
		hq_ingest_warn(ig, "%s: %ld resources are not lab results with a "
		    "value and a date (skipped)", in->name, sink.skipped);
	return rc;
}

int
hq_reportfile_read_dexa_json(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e)
{
	(void)o;
	struct hq_dexa_sink sink = { .file = in->name, .emit = add_scan, .arg = ig };
	struct hq_jsonin_stream *s = hq_dexa_stream(&sink, &dexa_limits);
	int rc = feed_stream(in, s, e);

	hq_jsonin_stream_free(s);
	return rc;
}
