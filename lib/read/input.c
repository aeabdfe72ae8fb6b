#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>

#include "hq/applehealth.h"
#include "hq/cgmfile.h"
#include "hq/devicezip.h"
#include "hq/fitfile.h"
#include "hq/ingest.h"
#include "hq/input.h"
#include "hq/jsonl.h"
#include "hq/reportfile.h"
#include "hq/trackfile.h"
#include "hq/utf8.h"

/* The formats hq-ingest reads, most specific first (input.h). */
static const struct hq_input_format formats[] = {
	/* Above Apple's zip, which claims any zip: only a zip that shows
	 * device files and nothing of Apple's (devicezip.h). */
	{ "device-zip", "device", "a zip of FIT, TCX or GPX files",
	  hq_devicezip_sniff_zip, hq_devicezip_read_zip },
	{ "apple-zip", "apple", "an Apple Health export (zip or XML)",
	  hq_applehealth_sniff_zip, hq_applehealth_read_zip },
	/* Above Apple's XML, which claims any XML. */
	{ "fit", "fit", "a FIT activity file", hq_fitfile_sniff,
	  hq_fitfile_read },
	{ "tcx", "tcx", "a TCX activity file", hq_trackfile_sniff_tcx,
	  hq_trackfile_read_tcx },
	{ "gpx", "gpx", "a GPX track", hq_trackfile_sniff_gpx,
	  hq_trackfile_read_gpx },
	{ "gzip", "device", "a gzip of a FIT, TCX or GPX file",
	  hq_devicezip_sniff_gz, hq_devicezip_read_gz },
	{ "apple-xml", "apple", "an Apple Health export (zip or XML)",
	  hq_applehealth_sniff_xml, hq_applehealth_read_xml },
	{ "dexcom-clarity", "dexcom", "a Dexcom Clarity CSV",
	  hq_cgmfile_sniff_dexcom, hq_cgmfile_read_dexcom },
	{ "libreview", "libre", "a LibreView CSV",
	  hq_cgmfile_sniff_libre, hq_cgmfile_read_libre },
	{ "fhir", "fhir", "FHIR lab results", hq_reportfile_sniff_fhir,
	  hq_reportfile_read_fhir },
	{ "dexa-json", "dexa", "DEXA scans (JSON or CSV)",
	  hq_reportfile_sniff_dexa_json, hq_reportfile_read_dexa_json },
	/* Above JSON lines, which claims any line that starts with '{'. */
	{ "labs-jsonl", "labs", "lab results (CSV or JSON lines)",
	  hq_reportfile_sniff_labs_jsonl, hq_reportfile_read_labs_jsonl },
	{ "jsonl", "jsonl", "JSON lines", hq_jsonl_sniff, hq_jsonl_read },
	{ "labs-csv", "labs", "lab results (CSV or JSON lines)",
	  hq_reportfile_sniff_labs_csv, hq_reportfile_read_labs_csv },
	{ "dexa-csv", "dexa", "DEXA scans (JSON or CSV)",
	  hq_reportfile_sniff_dexa_csv, hq_reportfile_read_dexa_csv },
};

#define NFORMATS (sizeof formats / sizeof formats[0])

/* How much of a file sniffing sees. */
#define SNIFF_SIZE 65536

size_t
hq_input_skip_space(const unsigned char *p, size_t n)
{
	size_t i = 0;

	if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
		i = 3;
	while (i < n && isspace(p[i]))
		i++;
	return i;
}

const struct hq_input_format *
hq_input_sniff(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < NFORMATS; i++)
		if (formats[i].sniff(p, n))
			return &formats[i];
	return NULL;
}

/* The format for family: its first that claims the bytes, else its last.
 * NULL when no format has that family. */
static const struct hq_input_format *
family_format(const char *family, const unsigned char *p, size_t n)
{
	const struct hq_input_format *last = NULL;

	for (size_t i = 0; i < NFORMATS; i++) {
		if (strcmp(formats[i].family, family) != 0)
			continue;
		if (formats[i].sniff(p, n))
			return &formats[i];
		last = &formats[i];
	}
	return last;
}

/* --format fit, tcx or gpx on a zip or a gzip: the device files' reader
 * of it, which reads the files inside as that format; else NULL. */
static const struct hq_input_format *
device_archive(const char *family, const unsigned char *p, size_t n)
{
	const char *name = NULL;

	if (strcmp(family, "fit") != 0 && strcmp(family, "tcx") != 0 &&
	    strcmp(family, "gpx") != 0)
		return NULL;
	if (hq_devicezip_sniff_gz(p, n))
		name = "gzip";
	else if (n >= 4 && memcmp(p, "PK\3\4", 4) == 0)
		name = "device-zip";
	for (size_t i = 0; name && i < NFORMATS; i++)
		if (strcmp(formats[i].name, name) == 0)
			return &formats[i];
	return NULL;
}

/* "path: not an Apple Health export (zip or XML) nor JSON lines; ..." */
static void
unknown_format(const char *path, struct hq_err *e)
{
	struct hq_buf b = { 0 };

	for (size_t i = 0; i < NFORMATS; i++) {
		size_t j = 0;
		while (j < i && strcmp(formats[i].what, formats[j].what) != 0)
			j++;
		if (j == i)   /* each kind of file named once */
			hq_buf_printf(&b, "%s%s", b.len ? " nor " : "", formats[i].what);
	}
	hq_err_set(e, "%s: not %s; use --format to say which it is", path,
	    b.data);
	hq_buf_free(&b);
}

/* The first bytes, up to SNIFF_SIZE (fewer only at the end). 0 or -1. */
static int
read_prefix(struct hq_input *in, struct hq_err *e)
{
	ssize_t n;

	in->prebuf = hq_xmalloc(SNIFF_SIZE);
	in->pre = in->prebuf;
	while (in->prelen < SNIFF_SIZE) {
		do
			n = read(in->fd, in->prebuf + in->prelen,
			    SNIFF_SIZE - in->prelen);
		while (n < 0 && errno == EINTR);
		if (n < 0) {
			hq_err_set(e, "%s: %s", in->name, strerror(errno));
			return -1;
		}
		if (n == 0)
			break;
		in->prelen += (size_t)n;
	}
	return 0;
}

int
hq_input_open(struct hq_input *in, const char *path, const char *family,
    struct hq_err *e)
{
	struct stat st;

	*in = (struct hq_input){ .fd = -1, .name = path };
	if (strcmp(path, "-") == 0)
		in->fd = 0;
	else if ((in->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		hq_err_set(e, "cannot open %s: %s", path, strerror(errno));
		return -1;
	} else
		in->close_fd = 1;
	if (fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode))
		in->size = (uint64_t)st.st_size;
	else if (in->fd != 0 && S_ISDIR(st.st_mode)) {
		hq_err_set(e, "%s is a directory: give the export.zip or export.xml "
		    "inside it", path);
		goto fail;
	}
	if (read_prefix(in, e))
		goto fail;
	if (family && strcmp(family, "auto") != 0) {
		in->family = family;
		in->format = device_archive(family, in->pre, in->prelen);
		if (!in->format)
			in->format = family_format(family, in->pre, in->prelen);
		if (!in->format) {
			hq_err_set(e, "unknown format '%s'", family);
			goto fail;
		}
	} else
		in->format = hq_input_sniff(in->pre, in->prelen);
	if (!in->format) {
		if (in->prelen == 0)
			hq_err_set(e, "%s: empty file", path);
		else
			unknown_format(path, e);
		goto fail;
	}
	return 0;
fail:
	hq_input_close(in);
	return -1;
}

void
hq_input_close(struct hq_input *in)
{
	if (in->close_fd)
		close(in->fd);
	free(in->prebuf);
	*in = (struct hq_input){ .fd = -1 };
}

int
hq_input_rewind(struct hq_input *in)
{
	if (in->fd < 0) {
		errno = ESPIPE;
		return -1;
	}
	if (lseek(in->fd, 0, SEEK_SET) != 0)
		return -1;
	in->prelen = in->prepos = 0;
	in->bytes = 0;
	return 0;
}

void
hq_input_entry(struct hq_input *in, struct archive *ar, const char *name)
{
	*in = (struct hq_input){ .fd = -1, .ar = ar, .name = name };
}

ssize_t
hq_input_read(struct hq_input *in, void *buf, size_t n)
{
	ssize_t r;

	if (in->prepos < in->prelen) {
		size_t k = in->prelen - in->prepos;
		if (k > n)
			k = n;
		memcpy(buf, in->pre + in->prepos, k);
		in->prepos += k;
		in->bytes += k;
		return (ssize_t)k;
	}
	if (in->ar)
		r = archive_read_data(in->ar, buf, n);
	else
		do
			r = read(in->fd, buf, n);
		while (r < 0 && errno == EINTR);
	if (r < 0)
		in->err = in->ar ? 0 : errno;
	else
		in->bytes += (uint64_t)r;
	return r < 0 ? -1 : r;
}

const char *
hq_input_strerror(const struct hq_input *in)
{
	if (in->ar)
		return archive_error_string(in->ar) ? archive_error_string(in->ar)
		    : "cannot read the zip entry";
	return strerror(in->err);
}

int
hq_input_import(struct hq_input *in, struct hq_ingest *ig, struct hq_err *e)
{
	if (in->format->read(ig, in, e))
		return -1;
	/* Whatever the file, clinical records not read yet become lab
	 * results now (an export's own, or an older store's). */
	return hq_ingest_clinical_reports(ig, e);
}

void
hq_input_lines_start(struct hq_input_lines *l, struct hq_input *in,
    size_t max)
{
	l->in = in;
	l->max = max;
	l->lineno = 0;
	l->line = (struct hq_buf){ 0 };
	l->too_long = l->eof = l->stopped = 0;
	l->pos = l->len = 0;
}

int
hq_input_lines_next(struct hq_input_lines *l, struct hq_err *e)
{
	hq_buf_reset(&l->line);
	hq_buf_append(&l->line, "", 0);   /* data is a string even when empty */
	l->too_long = 0;
	if (l->stopped)
		return 0;
	for (;;) {
		if (l->pos == l->len) {
			if (l->eof) {
				/* A last line without its newline. */
				if (!l->line.len)
					return 0;
				l->lineno++;
				return 1;
			}
			ssize_t n = hq_input_read(l->in, l->buf, sizeof l->buf);
			if (n < 0) {
				hq_err_set(e, "%s: %s", l->in->name,
				    hq_input_strerror(l->in));
				return -1;
			}
			l->eof = n == 0;
			l->pos = 0;
			l->len = (size_t)n;
			continue;
		}
		char *nl = memchr(l->buf + l->pos, '\n', l->len - l->pos);
		size_t k = nl ? (size_t)(nl - (l->buf + l->pos)) : l->len - l->pos;
		long at = l->lineno + 1;
		if (l->line.len + k > l->max) {
			/* Past the bound: said now, not at a newline that may
			 * never come (/dev/zero); the lines end here. */
			l->too_long = 1;
			l->stopped = 1;
			hq_buf_reset(&l->line);
			hq_buf_append(&l->line, "", 0);
			l->lineno++;
			return 1;
		}
		if (hq_text_check(l->buf + l->pos, k, l->in->name, &at, e))
			return -1;
		hq_buf_append(&l->line, l->buf + l->pos, k);
		l->pos += k + (nl ? 1 : 0);
		if (nl) {
			l->lineno++;
			return 1;
		}
	}
}

void
hq_input_lines_end(struct hq_input_lines *l)
{
	hq_buf_free(&l->line);
}
