/*
 * The Apple Health reader's files (applehealth_int.h): a zip's entries
 * (libarchive, never extracted), or the files beside an export.xml; GPX
 * routes and FHIR resources read and linked to what the XML referenced.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>
#include <cjson/cJSON.h>
#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>

#include "hq/applehealth.h"
#include "hq/applehealth_int.h"
#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/elemq.h"
#include "hq/time.h"
#include "hq/utf8.h"
/* ------------------------------------------------------------------ */
/* Side files in the zip: GPX routes, FHIR resources                    */

enum gpx_field { G_NONE, G_ELE, G_TIME, G_SPEED, G_COURSE, G_HACC, G_VACC };

/* The point read so far goes to every route of the file. */
static int
gpx_flush(struct ah *a)
{
	if (!a->have_point)
		return 0;
	a->have_point = 0;
	if (a->pt.time) {
		if (!a->first_time || a->pt.time < a->first_time)
			a->first_time = a->pt.time;
		if (a->pt.time > a->last_time)
			a->last_time = a->pt.time;
	}
	for (int i = 0; i < a->nroutes; i++)
		if (hq_ingest_route_point(a->ig, a->route_ids[i], a->point_no,
		    &a->pt, a->e))
			return hq_ah_failed_here(a, a->e);
	a->point_no++;
	return 0;
}

static void
gpx_error(void *arg, xmlErrorPtr err)
{
	struct ah *a = arg;

	hq_ah_keep_error(&a->px, err);
}

static void
gpx_fail(struct ah *a)
{
	a->failed = 1;
	xmlStopParser(a->px.ctxt);
}

static void
start_gpx(void *arg, const xmlChar *localname, const xmlChar *prefix,
    const xmlChar *uri, int nns, const xmlChar **ns, int nattrs, int ndefaulted,
    const xmlChar **attrs)
{
	struct ah *a = arg;
	const char *name = (const char *)localname;

	(void)prefix, (void)uri, (void)nns, (void)ns, (void)ndefaulted;
	a->line = xmlSAX2GetLineNumber(a->px.ctxt);
	a->field = G_NONE;
	a->textlen = 0;
	if (a->failed)
		return;
	if (strcmp(name, "trkpt") == 0) {
		if (gpx_flush(a)) {
			gpx_fail(a);
			return;
		}
		a->pt = (struct hq_route_point){
		    .lat = hq_ah_sax_num(attrs, nattrs, "lat"),
		    .lon = hq_ah_sax_num(attrs, nattrs, "lon"), .ele = NAN, .h_acc = NAN,
		    .v_acc = NAN, .course = NAN, .speed = NAN };
		a->have_point = !isnan(a->pt.lat) && !isnan(a->pt.lon);
	} else if (strcmp(name, "ele") == 0)
		a->field = G_ELE;
	else if (strcmp(name, "time") == 0)
		a->field = G_TIME;
	else if (strcmp(name, "speed") == 0)
		a->field = G_SPEED;
	else if (strcmp(name, "course") == 0)
		a->field = G_COURSE;
	else if (strcmp(name, "hAcc") == 0)
		a->field = G_HACC;
	else if (strcmp(name, "vAcc") == 0)
		a->field = G_VACC;
}

static void
chars_gpx(void *arg, const xmlChar *ch, int len)
{
	struct ah *a = arg;

	if (a->field == G_NONE || len <= 0)
		return;
	size_t n = (size_t)len;
	if (a->textlen + n >= sizeof a->text)
		n = sizeof a->text - 1 - a->textlen;
	memcpy(a->text + a->textlen, ch, n);
	a->textlen += n;
}

static void
end_gpx(void *arg, const xmlChar *localname, const xmlChar *prefix,
    const xmlChar *uri)
{
	struct ah *a = arg;
	char *end;
	double v;

	(void)prefix, (void)uri;
	a->line = xmlSAX2GetLineNumber(a->px.ctxt);
	if (a->failed)
		return;
	if (a->field != G_NONE && a->have_point) {
		a->text[a->textlen] = '\0';
		if (a->field == G_TIME) {
			if (hq_time_parse(a->text, &a->pt.time))
				a->pt.time = 0;
		} else {
			v = strtod(a->text, &end);
			if (end != a->text && isfinite(v)) {
				switch (a->field) {
				case G_ELE: a->pt.ele = v; break;
				case G_SPEED: a->pt.speed = v; break;
				case G_COURSE: a->pt.course = v; break;
				case G_HACC: a->pt.h_acc = v; break;
				case G_VACC: a->pt.v_acc = v; break;
				default: break;
				}
			}
		}
	}
	a->field = G_NONE;
	a->textlen = 0;
	if (strcmp((const char *)localname, "trkpt") == 0 && gpx_flush(a))
		gpx_fail(a);
}

/* A GPX file for the routes ids[]: its track points become route points. */
static int
parse_gpx(struct ah *a, const int64_t *ids, int nids, struct hq_err *e)
{
	xmlSAXHandler sax;
	int rc;

	memset(&sax, 0, sizeof sax);
	sax.startElementNs = start_gpx;
	sax.endElementNs = end_gpx;
	sax.characters = chars_gpx;
	a->route_ids = ids;
	a->nroutes = nids;
	a->have_point = a->point_no = 0;
	a->first_time = a->last_time = 0;
	a->field = G_NONE;
	a->textlen = 0;
	a->e = e;
	a->failed = 0;
	sax.serror = gpx_error;
	rc = hq_ah_run_parser(&a->px, &sax, a);
	rc = hq_ah_parse_status(a, a->failed, rc, e);
	for (int i = 0; rc == 0 && i < nids; i++)
		if (hq_ingest_route_span(a->ig, ids[i], a->first_time,
		    a->last_time, e))
			rc = hq_ah_failed_where(a, e, 0);
	return rc;
}

/* The whole entry (a FHIR resource, small) into b. */
static int
read_entry(struct ah *a, struct hq_buf *b, struct hq_err *e)
{
	for (;;) {
		if (a->px.rd.rpos < a->px.rd.rlen) {
			hq_buf_append(b, a->px.rd.raw + a->px.rd.rpos, a->px.rd.rlen - a->px.rd.rpos);
			a->px.rd.rpos = a->px.rd.rlen;
		}
		if (b->len > MAX_SIDE_FILE) {
			hq_err_set(e, "%s: larger than %d MB", a->name,
			    MAX_SIDE_FILE >> 20);
			return -1;
		}
		int k = hq_ah_reader_fill(&a->px.rd);
		if (k < 0) {
			hq_err_set(e, "%s: %s", a->name, a->px.rd.ioerrmsg);
			return -1;
		}
		if (k == 0)
			return 0;
	}
}


static int
side_clinical(struct ah *a, const char *ref, struct hq_err *e)
{
	struct hq_buf b = { 0 };
	int rc = read_entry(a, &b, e);

	if (rc == 0 && b.len) {
		cJSON *j = cJSON_ParseWithLength(b.data, b.len);
		if (!j)
			hq_ah_warn_at(a, "not valid JSON (FHIR resource not attached)");
		else if (!hq_utf8_valid(b.data, b.len))
			hq_ah_warn_at(a, "not UTF-8 (FHIR resource not attached)");
		else if (hq_ingest_clinical_resource(a->ig, ref, b.data, e) < 0)
			rc = hq_ah_failed_where(a, e, 0);
		cJSON_Delete(j);
	}
	hq_buf_free(&b);
	return rc;
}

/* The path the XML uses for a zip entry: "apple_health_export/workout-
 * routes/x.gpx" → "/workout-routes/x.gpx". NULL when not a side file. */
static const char *
side_ref(const char *entry, char *buf, size_t n, int *kind)
{
	const char *p;
	size_t len = strlen(entry);

	if ((p = strstr(entry, "workout-routes/")) && len > 4 &&
	    strcasecmp(entry + len - 4, ".gpx") == 0)
		*kind = 1;
	else if ((p = strstr(entry, "clinical-records/")) && len > 5 &&
	    strcasecmp(entry + len - 5, ".json") == 0)
		*kind = 2;
	else
		return NULL;
	snprintf(buf, n, "/%s", p);
	return buf;
}

static int
side_file(struct ah *a, const char *ref, int kind, struct hq_err *e)
{
	int64_t ids[MAX_ROUTES_PER_FILE];
	int n;

	if (kind == 2)
		return side_clinical(a, ref, e);
	n = hq_ingest_routes_for_file(a->ig, ref, ids, MAX_ROUTES_PER_FILE, e);
	if (n < 0)
		return hq_ah_failed_where(a, e, 0);
	if (n == 0)
		return 0;   /* a route of a known workout, or none */
	return parse_gpx(a, ids, n, e);
}

/* ------------------------------------------------------------------ */
/* Side files beside an export.xml (an unzipped export)                 */

/*
 * What the zip reader does with its entries, done with the files under
 * workout-routes/ and clinical-records/ in the XML's directory: each is
 * named by its path there ("/workout-routes/x.gpx", the form of the XML's
 * FileReference and resourceFilePath) and read for the routes and records
 * that name it. A path in the XML is only ever compared with those names,
 * never opened: one that holds "..", or names a file elsewhere on the disk,
 * matches nothing, as in a zip. Symbolic links are followed only to files
 * inside the directory (the resolved path is checked); linked directories
 * are not entered.
 */
#define BESIDE_DEPTH 8

struct beside {
	char root[PATH_MAX];         /* the XML's directory, resolved ("" for /) */
	char **ref;                  /* "/workout-routes/x.gpx", ... */
	size_t n, cap;
};

static void
beside_walk(struct beside *b, const char *rel, int depth)
{
	char dir[PATH_MAX], path[PATH_MAX], ref[PATH_MAX];
	struct dirent *d;
	struct stat st;
	DIR *dp;
	int kind;

	if ((size_t)snprintf(dir, sizeof dir, "%s%s", b->root, rel) >= sizeof dir
	    || !(dp = opendir(dir)))
		return;
	while ((d = readdir(dp))) {
		if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0 ||
		    (size_t)snprintf(path, sizeof path, "%s/%s", rel, d->d_name) >=
		    sizeof path)
			continue;
		if ((size_t)snprintf(dir, sizeof dir, "%s%s", b->root, path) >=
		    sizeof dir || lstat(dir, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (depth < BESIDE_DEPTH)
				beside_walk(b, path, depth + 1);
		} else if ((S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)) &&
		    side_ref(path + 1, ref, sizeof ref, &kind) &&
		    strcmp(ref, path) == 0) {
			if (b->n == b->cap) {
				b->cap = b->cap ? 2 * b->cap : 64;
				b->ref = hq_xrealloc(b->ref, b->cap * sizeof *b->ref);
			}
			b->ref[b->n++] = hq_xstrdup(path);
		}
	}
	closedir(dp);
}

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* One side file: 0 (read, or not a file inside the directory), -1. */
static int
beside_file(struct ah *a, const struct beside *b, const char *ref,
    struct hq_err *e)
{
	char path[PATH_MAX], real[PATH_MAX], canon[PATH_MAX];
	size_t rootlen = strlen(b->root);
	struct hq_input in;
	struct stat st;
	int kind, fd, rc;

	snprintf(path, sizeof path, "%s%s", b->root, ref);
	if (!realpath(path, real) || strncmp(real, b->root, rootlen) != 0 ||
	    real[rootlen] != '/')
		return 0;
	fd = open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	in = (struct hq_input){ .fd = fd, .name = path, .close_fd = 1,
	    .size = (uint64_t)st.st_size };
	a->name = path;
	hq_ah_reader_start(&a->px.rd, &in);
	side_ref(ref + 1, canon, sizeof canon, &kind);
	rc = side_file(a, ref, kind, e);
	hq_input_close(&in);
	return rc;
}

/* The side files beside the XML at xml (not stdin: it has no directory). */
int
hq_ah_import_beside(struct ah *a, const char *xml, struct hq_err *e)
{
	struct beside *b = hq_xcalloc(1, sizeof *b);
	const char *slash = strrchr(xml, '/');
	char dir[PATH_MAX];
	int rc = 0;

	if (slash == xml)
		snprintf(dir, sizeof dir, "/");
	else if (slash)
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - xml), xml);
	else
		snprintf(dir, sizeof dir, ".");
	if (realpath(dir, b->root)) {
		if (strcmp(b->root, "/") == 0)
			b->root[0] = '\0';   /* paths are root + "/x" */
		beside_walk(b, "/workout-routes", 1);
		beside_walk(b, "/clinical-records", 1);
	}
	if (b->n)
		qsort(b->ref, b->n, sizeof *b->ref, cmp_str);
	for (size_t i = 0; i < b->n; i++) {
		if (rc == 0)
			rc = beside_file(a, b, b->ref[i], e);
		free(b->ref[i]);
	}
	free(b->ref);
	free(b);
	a->name = xml;
	return rc;
}

/* ------------------------------------------------------------------ */
/* Zip                                                                  */

static int
is_junk_entry(const char *name)
{
	const char *base = strrchr(name, '/');

	base = base ? base + 1 : name;
	return strncmp(name, "__MACOSX/", 9) == 0 || strncmp(base, "._", 2) == 0;
}

/* Does an entry start like Apple's main XML? Looks at its first bytes,
 * which stay in a->px.rd for the parser. */
static int
looks_like_export(struct ah *a)
{
	return hq_ah_names_health_data(a->px.rd.raw, a->px.rd.rlen < 4096 ? a->px.rd.rlen : 4096);
}

static ssize_t
zip_read_cb(struct archive *ar, void *arg, const void **buf)
{
	static unsigned char block[RAW_SIZE];
	struct hq_input *src = arg;
	ssize_t n = hq_input_read(src, block, sizeof block);

	if (n < 0)
		archive_set_error(ar, src->err, "%s", hq_input_strerror(src));
	*buf = block;
	return n;
}

static struct archive *
zip_open(struct hq_input *src, int seekable, struct hq_err *e)
{
	struct archive *ar = archive_read_new();

	if (!ar) {
		hq_err_set(e, "out of memory");
		return NULL;
	}
	archive_read_support_format_zip(ar);
	int rc = seekable ? archive_read_open_fd(ar, src->fd, RAW_SIZE)
	    : archive_read_open(ar, src, NULL, zip_read_cb, NULL);
	if (rc != ARCHIVE_OK) {
		hq_err_set(e, "%s: not a readable zip: %s", src->name,
		    archive_error_string(ar) ? archive_error_string(ar) : "?");
		archive_read_free(ar);
		return NULL;
	}
	return ar;
}

/*
 * Walk the archive. Pass 1 (main_index < 0): parse every export XML (a
 * zip may hold two: both are imported), and the side files that follow
 * the first; *main_index is the last XML's place and *early the number of
 * side files before it. Pass 2: the side files before main_index again,
 * for the XMLs that came after them (linking is idempotent: only routes
 * without points and records without their resource are filled).
 */
static int
zip_pass(struct ah *a, const char *zipname, int *main_index, int *early,
    struct hq_err *e)
{
	struct archive_entry *ent;
	char name[1024], ref[1024];
	int idx = 0, rc, pass2 = *main_index >= 0, found = pass2, nside = 0;

	while ((rc = archive_read_next_header(a->ar, &ent)) == ARCHIVE_OK ||
	    rc == ARCHIVE_WARN) {
		const char *path = archive_entry_pathname_utf8(ent);
		int kind = 0;

		if (!path)
			path = archive_entry_pathname(ent);
		if (!path)
			path = "?";
		idx++;
		if (pass2 && idx >= *main_index)
			break;
		if (archive_entry_filetype(ent) != AE_IFREG || is_junk_entry(path))
			continue;
		snprintf(name, sizeof name, "%s:%s", zipname, path);
		a->name = name;
		hq_input_entry(&a->entry, a->ar, name);
		hq_ah_reader_start(&a->px.rd, &a->entry);
		const char *r = side_ref(path, ref, sizeof ref, &kind);
		if (r) {
			nside++;
			/* Before any XML there is nothing to link it to yet. */
			if (found && side_file(a, r, kind, e))
				return -1;
			continue;
		}
		if (pass2)
			continue;
		if (hq_ah_reader_fill(&a->px.rd) < 0) {
			hq_err_set(e, "%s: %s", name, a->px.rd.ioerrmsg);
			return -1;
		}
		if (!looks_like_export(a))
			continue;
		found = 1;
		*main_index = idx;
		*early = nside;
		if (hq_ah_parse_export(a, e))
			return -1;
	}
	if (rc != ARCHIVE_EOF && !(pass2 && rc == ARCHIVE_OK)) {
		hq_err_set(e, "%s: damaged or truncated zip: %s", zipname,
		    archive_error_string(a->ar) ? archive_error_string(a->ar) : "?");
		return -1;
	}
	if (!found) {
		hq_err_set(e, "%s: no Apple Health export XML in this zip (no entry "
		    "starts with <HealthData)", zipname);
		return -1;
	}
	return 0;
}

int
hq_ah_import_zip(struct ah *a, struct hq_err *e)
{
	struct hq_input *src = a->src;
	int seekable = hq_input_rewind(src) == 0;
	int main_index = -1, early = 0, rc;
	const char *zipname = src->name;

	a->ar = zip_open(src, seekable, e);
	if (!a->ar)
		return -1;
	rc = zip_pass(a, zipname, &main_index, &early, e);
	archive_read_free(a->ar);
	a->ar = NULL;
	if (rc || !early)
		return rc;
	if (!seekable) {
		char msg[256];
		snprintf(msg, sizeof msg, "%d route/clinical files come before an "
		    "export XML in this zip and cannot be read from a pipe; give "
		    "the zip as a file to import them", early);
		a->name = zipname;
		hq_ah_warn_at(a, msg);
		return 0;
	}
	/* Second pass: the side files that came before the XML. */
	if (hq_input_rewind(src)) {
		hq_err_set(e, "%s: %s", zipname, strerror(errno));
		return -1;
	}
	a->ar = zip_open(src, 1, e);
	if (!a->ar)
		return -1;
	rc = zip_pass(a, zipname, &main_index, &early, e);
	archive_read_free(a->ar);
	a->ar = NULL;
	return rc;
}
