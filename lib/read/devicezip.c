#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <archive.h>
#include <archive_entry.h>
#include <zlib.h>

#include "hq/buf.h"
#include "hq/devicezip.h"
#include "hq/fitfile.h"
#include "hq/ingest.h"
#include "hq/input.h"
#include "hq/trackfile.h"

/* What a file's reader sniffs: its first bytes. */
#define PREFIX 65536

static int
ends_with(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && strncasecmp(s + n - k, suffix, k) == 0;
}

static int
device_name(const char *s, size_t n)
{
	static const char *const ext[] = { ".fit", ".tcx", ".gpx", ".fit.gz",
	    ".tcx.gz", ".gpx.gz", ".zip" };

	for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
		if (ends_with(s, n, ext[i]))
			return 1;
	return 0;
}

static int
apple_name(const char *s, size_t n)
{
	static const char *const part[] = { "apple_health_export",
	    "export.xml", "export_cda.xml", "workout-routes/",
	    "electrocardiograms/", "clinical-records/" };

	for (size_t i = 0; i < sizeof part / sizeof part[0]; i++) {
		size_t k = strlen(part[i]);
		for (size_t j = 0; j + k <= n; j++)
			if (memcmp(s + j, part[i], k) == 0)
				return 1;
	}
	return 0;
}

int
hq_devicezip_sniff_zip(const unsigned char *p, size_t n)
{
	int device = 0;
	size_t i = 0;

	if (n < 30 || memcmp(p, "PK\3\4", 4) != 0)
		return 0;
	/* The local file headers in sight: their names. */
	while (i + 30 <= n) {
		if (memcmp(p + i, "PK\3\4", 4) != 0) {
			i++;
			continue;
		}
		size_t len = (size_t)p[i + 26] | (size_t)p[i + 27] << 8;
		if (i + 30 + len > n)
			break;
		const char *name = (const char *)p + i + 30;
		if (apple_name(name, len))
			return 0;
		device |= device_name(name, len);
		i += 30 + len;
	}
	return device;
}

int
hq_devicezip_sniff_gz(const unsigned char *p, size_t n)
{
	return n >= 3 && p[0] == 0x1F && p[1] == 0x8B && p[2] == 8;
}

struct dz {
	struct hq_ingest *ig;
	const struct hq_read_opts *o;   /* for the files inside */
	const char *family;        /* forced by --format, or NULL */
	long read, other, failed;
	int zips;                  /* zips open: the one given, the ones in it */
	const struct hq_input *top;     /* the file given */
	uint64_t unpacked;         /* bytes unpacked from it, every layer */
	int over;                  /* past the bound: the whole file fails */
	hq_reader_read_fn *used;   /* the reader of the last file read */
};

/* Zips inside zips: Garmin Connect's export holds its uploaded files as
 * zips (DI-Connect-Uploaded-Files/UploadedFiles_0-_Part1.zip). The zip
 * given and one level inside it are read; deeper ones are skipped. */
#define MAX_ZIPS 2

/*
 * What a file may unpack to: past UNPACK_FLOOR bytes in all (every entry,
 * every layer), at most UNPACK_RATIO times the bytes of it read so far.
 * Device files pack 2 (FIT) to 15 times (TCX, GPX); deflate reaches 1032,
 * and a gzip inside a zip its square: 265 bytes of nested gzips made
 * 1 GiB. Past the bound the file is refused, having cost what a file of
 * 100 times its size costs.
 */
#define UNPACK_FLOOR ((uint64_t)16 << 20)
#define UNPACK_RATIO 100

static int
unpack_bound(struct dz *z, size_t n, const char **why)
{
	z->unpacked += n;
	if (z->unpacked <= UNPACK_FLOOR ||
	    z->unpacked <= UNPACK_RATIO * z->top->bytes)
		return 0;
	*why = "unpacks to more than 100 times its size (past 16 MiB): "
	    "not read (see LIMITS in hq-ingest(1))";
	z->over = 1;
	return -1;
}

static int read_zip(struct dz *z, struct hq_input *in, struct hq_err *e);

static hq_reader_read_fn *
reader_for(const char *family, const unsigned char *p, size_t n)
{
	if (family)
		return strcmp(family, "fit") == 0 ? hq_fitfile_read
		    : strcmp(family, "tcx") == 0 ? hq_trackfile_read_tcx
		    : hq_trackfile_read_gpx;
	if (hq_fitfile_sniff(p, n))
		return hq_fitfile_read;
	if (hq_trackfile_sniff_tcx(p, n))
		return hq_trackfile_read_tcx;
	if (hq_trackfile_sniff_gpx(p, n))
		return hq_trackfile_read_gpx;
	return NULL;
}

/* The first bytes of in read and served again: 0, or -1 with e set. */
static int
prefix(struct hq_input *in, unsigned char *buf, struct hq_err *e)
{
	size_t len = 0;
	ssize_t r = 0;

	while (len < PREFIX && (r = hq_input_read(in, buf + len,
	    PREFIX - len)) > 0)
		len += (size_t)r;
	if (r < 0) {
		hq_err_set(e, "%s: %s", in->name, hq_input_strerror(in));
		return -1;
	}
	in->pre = buf;
	in->prelen = len;
	in->prepos = 0;
	return 0;
}

struct gzsrc {
	struct hq_input *src;
	unsigned char block[65536];
};

static ssize_t
gz_read_cb(struct archive *ar, void *arg, const void **buf)
{
	struct gzsrc *g = arg;
	ssize_t n = hq_input_read(g->src, g->block, sizeof g->block);

	if (n < 0)
		archive_set_error(ar, g->src->err ? g->src->err : EIO, "%s",
		    hq_input_strerror(g->src));
	*buf = g->block;
	return n;
}

static int read_file(struct dz *z, struct hq_input *in, int depth,
    struct hq_err *e);

/*
 * A gzip's members, decompressed by zlib as they are read, each one's
 * CRC-32 and length checked against its trailer as gzip -t does (zlib
 * fails the read that reaches a wrong one). One layer only: what it
 * holds is sniffed, and a gzip inside is refused (read_file).
 */
struct gunzip {
	struct dz *z;
	struct hq_input *src;
	z_stream zs;
	int end;                   /* the last member read to its trailer */
	char msg[128];
	unsigned char block[65536];
};

/* More of the source into the block: 1, 0 at its end, -1 (why set). */
static int
gunzip_fill(struct gunzip *g, const char **why)
{
	ssize_t r = hq_input_read(g->src, g->block, sizeof g->block);

	if (r < 0) {
		snprintf(g->msg, sizeof g->msg, "%s", hq_input_strerror(g->src));
		*why = g->msg;
		return -1;
	}
	g->zs.next_in = g->block;
	g->zs.avail_in = (uInt)r;
	return r > 0;
}

/* The rest of the source is zeros: 0, or -1 (why set). */
static int
gunzip_zeros(struct gunzip *g, const char **why)
{
	int rc;

	do {
		for (uInt i = 0; i < g->zs.avail_in; i++)
			if (g->zs.next_in[i]) {
				*why = "a damaged gzip: bytes after its end";
				return -1;
			}
	} while ((rc = gunzip_fill(g, why)) > 0);
	return rc;
}

static ssize_t
gunzip_read(void *arg, void *buf, size_t n, const char **why)
{
	struct gunzip *g = arg;
	size_t got;
	int rc;

	if (n > (size_t)1 << 30)
		n = (size_t)1 << 30;
	g->zs.next_out = buf;
	g->zs.avail_out = (uInt)n;
	while (!g->end && g->zs.avail_out == n) {
		if (!g->zs.avail_in && (rc = gunzip_fill(g, why)) <= 0) {
			if (rc == 0)
				*why = "a truncated gzip (its data ends early)";
			return -1;
		}
		rc = inflate(&g->zs, Z_NO_FLUSH);
		if (rc == Z_STREAM_END) {
			/* Another member may follow (gzip reads them as one
			 * file), or zeros (a tape's padding, which gzip -t
			 * ignores too); anything else after a trailer is
			 * damage. */
			if (!g->zs.avail_in && (rc = gunzip_fill(g, why)) < 0)
				return -1;
			if (g->zs.avail_in && g->zs.next_in[0] == 0x1F)
				inflateReset(&g->zs);
			else if (gunzip_zeros(g, why))
				return -1;
			else
				g->end = 1;
		} else if (rc != Z_OK && !(rc == Z_BUF_ERROR && !g->zs.avail_in)) {
			const char *m = g->zs.msg ? g->zs.msg : "not deflate data";
			snprintf(g->msg, sizeof g->msg, "a damaged gzip: %s",
			    strstr(m, "data check") ? "the CRC-32 in its trailer "
			    "does not match its data" : strstr(m, "length check") ?
			    "the length in its trailer does not match its data" : m);
			*why = g->msg;
			return -1;
		}
	}
	got = n - g->zs.avail_out;
	return unpack_bound(g->z, got, why) ? -1 : (ssize_t)got;
}

/* src is gzip: its members, decompressed as they are read, and read to
 * their end whatever the file inside's reader left, so that every
 * trailer is checked. */
static int
read_gunzip(struct dz *z, struct hq_input *src, int depth, struct hq_err *e)
{
	struct gunzip *g = hq_xcalloc(1, sizeof *g);
	struct hq_input inner;
	unsigned char rest[4096];
	ssize_t r;
	int rc;

	g->z = z;
	g->src = src;
	/* 16 + 15: a gzip header and trailer around a 32 KiB window */
	if (inflateInit2(&g->zs, 16 + 15) != Z_OK) {
		hq_err_set(e, "%s: cannot start zlib", src->name);
		free(g);
		return -1;
	}
	hq_input_stream(&inner, gunzip_read, g, src->name);
	rc = read_file(z, &inner, depth + 1, e);
	while (rc == 0 && (r = hq_input_read(&inner, rest, sizeof rest)) != 0)
		if (r < 0) {
			hq_err_set(e, "%s: %s", src->name, hq_input_strerror(&inner));
			rc = -1;
		}
	inflateEnd(&g->zs);
	free(g);
	return rc;
}

/* A zip's entry, counted against the bound. */
struct entry {
	struct dz *z;
	struct archive *ar;
};

static ssize_t
entry_read(void *arg, void *buf, size_t n, const char **why)
{
	struct entry *en = arg;
	ssize_t r = archive_read_data(en->ar, buf, n);

	if (r < 0) {
		*why = archive_error_string(en->ar) ? archive_error_string(en->ar)
		    : "cannot read the zip entry";
		return -1;
	}
	return unpack_bound(en->z, (size_t)r, why) ? -1 : r;
}

/* One file: 0 read, 1 no device file (nothing done), -1 (e set). */
static int
read_file(struct dz *z, struct hq_input *in, int depth, struct hq_err *e)
{
	unsigned char *buf = hq_xmalloc(PREFIX);
	hq_reader_read_fn *fn;
	int rc = -1;

	if (prefix(in, buf, e))
		goto out;
	if (hq_devicezip_sniff_gz(in->pre, in->prelen)) {
		if (depth > 0)
			hq_err_set(e, "%s: a gzip inside a gzip: one layer of "
			    "compression is read, never more (see LIMITS in "
			    "hq-ingest(1))", in->name);
		else
			rc = read_gunzip(z, in, depth, e);
	} else if (depth == 0 && in->prelen >= 4 &&
	    memcmp(in->pre, "PK\3\4", 4) == 0) {
		if (z->zips >= MAX_ZIPS) {
			hq_ingest_warn(z->ig, "%s: a zip inside a zip inside a zip "
			    "(skipped: %d levels are read)", in->name, MAX_ZIPS);
			rc = 1;
		} else
			rc = read_zip(z, in, e);
	} else if (!(fn = reader_for(z->family, in->pre, in->prelen)))
		rc = 1;
	else if ((rc = fn(in, z->o, z->ig, e)) == 0) {
		z->read++;
		z->used = fn;
	}
out:
	free(buf);
	return rc;
}

int
hq_devicezip_read_gz(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e)
{
	struct dz z = { .ig = ig, .o = o, .family = o->family, .top = in };
	int rc = read_gunzip(&z, in, 0, e);

	if (rc == 1)
		hq_err_set(e, "%s: the gzip holds no FIT, TCX or GPX file; use "
		    "--format to say which it is", in->name);
	if (rc == 0)    /* the summary says what it held: "gpx.gz" */
		hq_ingest_set_format(ig, z.used == hq_fitfile_read ? "fit.gz"
		    : z.used == hq_trackfile_read_tcx ? "tcx.gz" : "gpx.gz");
	return rc == 0 ? 0 : -1;
}

static int
junk(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return strncmp(path, "__MACOSX/", 9) == 0 || strncmp(base, "._", 2) == 0;
}

/* The entries of the zip in, each a part of the import that may fail
 * alone (a zip inside read the same way, its entries parts of its part).
 * 0, or -1 with e set (the zip itself cannot be read). */
static int
read_zip(struct dz *z, struct hq_input *in, struct hq_err *e)
{
	struct archive *ar = archive_read_new();
	struct gzsrc *g = hq_xmalloc(sizeof *g);
	struct archive_entry *ent;
	int rc, status = -1;

	g->src = in;
	if (!ar) {
		hq_err_set(e, "out of memory");
		free(g);
		return -1;
	}
	z->zips++;
	archive_read_support_format_zip(ar);
	if (archive_read_open(ar, g, NULL, gz_read_cb, NULL) != ARCHIVE_OK) {
		hq_err_set(e, "%s: not a readable zip: %s", in->name,
		    archive_error_string(ar) ? archive_error_string(ar) : "?");
		goto out;
	}
	while ((rc = archive_read_next_header(ar, &ent)) == ARCHIVE_OK ||
	    rc == ARCHIVE_WARN) {
		const char *path = archive_entry_pathname_utf8(ent);
		struct hq_input entry;
		struct entry en = { z, ar };
		struct hq_err fe = { 0 };
		char name[1024];
		int r;

		if (!path)
			path = archive_entry_pathname(ent);
		if (!path)
			path = "?";
		if (archive_entry_filetype(ent) != AE_IFREG || junk(path))
			continue;
		snprintf(name, sizeof name, "%s:%s", in->name, path);
		hq_input_stream(&entry, entry_read, &en, name);
		if (hq_ingest_part_begin(z->ig, e))
			goto out;
		r = read_file(z, &entry, 0, &fe);
		if (r >= 0) {
			if (hq_ingest_part_keep(z->ig, e))
				goto out;
			z->other += r;
			continue;
		}
		/* A bomb is the zip's: past the bound, nothing more is read. */
		if (z->over) {
			hq_err_set(e, "%s", fe.msg);
			goto out;
		}
		/* This file alone: taken back, said, the others kept. */
		hq_ingest_part_undo(z->ig);
		z->failed++;
		hq_ingest_warn(z->ig, "%s (skipped: nothing from this file was "
		    "imported)", fe.msg);
	}
	if (rc != ARCHIVE_EOF) {
		hq_err_set(e, "%s: damaged or truncated zip: %s", in->name,
		    archive_error_string(ar) ? archive_error_string(ar) : "?");
		goto out;
	}
	status = 0;
out:
	z->zips--;
	archive_read_free(ar);
	free(g);
	return status;
}

int
hq_devicezip_read_zip(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e)
{
	struct dz z = { .ig = ig, .o = o, .family = o->family, .top = in };

	if (read_zip(&z, in, e))
		return -1;
	if (!z.read && !z.failed) {
		hq_err_set(e, "%s: no FIT, TCX or GPX file in this zip", in->name);
		return -1;
	}
	if (z.other)
		hq_ingest_warn(ig, "%s: %ld files that are no FIT, TCX or GPX file "
		    "(skipped)", in->name, z.other);
	return 0;
}
