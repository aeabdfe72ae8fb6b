/*
 * archive — push, fetch and restore over a remote (archive.h), with the
 * objects sealed by seal.c and the months cut by segment.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "archive_int.h"
#include "hq/archive.h"
#include "hq/buf.h"
#include "hq/segment.h"
#include "hq/store.h"

#define PARAMS "hq-archive"
#define MANIFEST "manifest"
#define MANIFEST_AD "hq-archive/1 manifest"
#define MANIFEST_MAX (16 << 20)
#define PARAMS_MAX 4096

char *
hq_archive_path(const char *dir, const char *name)
{
	struct hq_buf b = {0};

	hq_buf_printf(&b, "%s/%s", dir, name);
	return hq_buf_steal(&b);
}

void
hq_archive_ad(const struct hq_archive_entry *x, char *ad, size_t n)
{
	char month[16];

	hq_segment_month_name(x->month, month, sizeof month);
	snprintf(ad, n, "hq-archive/1 segment %s %s", month, x->object);
}

static int
read_small(const char *path, char *buf, size_t n, struct hq_err *e)
{
	FILE *f = fopen(path, "rb");
	size_t k;

	if (!f) {
		hq_err_set(e, "%s: %s", path, strerror(errno));
		return -1;
	}
	k = fread(buf, 1, n - 1, f);
	buf[k] = 0;
	fclose(f);
	return 0;
}

/* ---- the clear parameters ---- */

int
hq_archive_params_get(struct hq_remote *r, struct hq_archive_params *p,
    struct hq_err *e)
{
	char tmpl[] = "/tmp/hq-archive-params.XXXXXX", text[PARAMS_MAX], hex[80];
	char *line, *save;
	int fd = mkstemp(tmpl), rc, format = 0;
	size_t n;

	memset(p, 0, sizeof *p);
	if (fd < 0) {
		hq_err_set(e, "a temporary file: %s", strerror(errno));
		return -1;
	}
	close(fd);
	rc = hq_remote_get(r, PARAMS, tmpl, PARAMS_MAX, e);
	if (rc == 0)
		rc = read_small(tmpl, text, sizeof text, e);
	unlink(tmpl);
	if (rc)
		return rc;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "hq-archive %d", &format) == 1)
			continue;
		if (sscanf(line, "check %79s", hex) == 1 &&
		    sodium_hex2bin(p->check, HQ_SEAL_CHECK, hex, strlen(hex), NULL, &n,
		    NULL) == 0 && n == HQ_SEAL_CHECK)
			continue;
		if (sscanf(line, "kdf argon2id13 %llu %zu %79s", &p->ops, &p->mem, hex) == 3 &&
		    sodium_hex2bin(p->salt, HQ_SEAL_SALT, hex, strlen(hex), NULL, &n,
		    NULL) == 0 && n == HQ_SEAL_SALT) {
			p->have_kdf = 1;
			continue;
		}
	}
	if (format != 1) {
		hq_err_set(e, "%s: the remote's %s object is not one this hq "
		    "reads (format %d)", hq_remote_name(r), PARAMS, format);
		return -1;
	}
	/* the object is in clear: a cost past these would have Argon2id
	 * take hours or all the memory */
	if (p->have_kdf && (p->ops < 1 || p->ops > HQ_SEAL_KDF_OPS_MAX ||
	    p->mem < 8192 || p->mem > HQ_SEAL_KDF_MEM_MAX)) {
		hq_err_set(e, "%s: the remote's %s object asks a passphrase cost "
		    "past hq's bounds (%llu passes, %zu bytes): not one this hq "
		    "made", hq_remote_name(r), PARAMS, p->ops, p->mem);
		p->have_kdf = 0;
		return -1;
	}
	return 0;
}

int
hq_archive_params_put(struct hq_remote *r, const struct hq_archive_params *p,
    const char *scratch, struct hq_err *e)
{
	char *path = hq_archive_path(scratch, PARAMS), hex[80];
	FILE *f = fopen(path, "w");
	int rc = -1;

	if (!f) {
		hq_err_set(e, "%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	hq_seal_hex(p->check, HQ_SEAL_CHECK, hex);
	fprintf(f, "hq-archive 1\ncheck %s\n", hex);
	if (p->have_kdf) {
		hq_seal_hex(p->salt, HQ_SEAL_SALT, hex);
		fprintf(f, "kdf argon2id13 %llu %zu %s\n", p->ops, p->mem, hex);
	}
	if (fclose(f)) {
		hq_err_set(e, "%s: %s", path, strerror(errno));
		goto done;
	}
	rc = hq_remote_put(r, PARAMS, path, NULL, e);
done:
	unlink(path);
	free(path);
	return rc;
}

int
hq_archive_check_key(const struct hq_archive_params *p,
    const unsigned char key[HQ_SEAL_KEY], struct hq_err *e)
{
	unsigned char check[HQ_SEAL_CHECK];

	hq_seal_key_check(key, check);
	if (sodium_memcmp(check, p->check, HQ_SEAL_CHECK) == 0)
		return 0;
	hq_err_set(e, p->have_kdf ? "wrong passphrase, or wrong key: it is not "
	    "the one this archive was made with" : "wrong key: it is not the one "
	    "this archive was made with");
	return -1;
}

/* ---- the generations this machine saw: "GENERATION REMOTE" lines ---- */

static int64_t
state_get(const char *state, const char *remote)
{
	FILE *f = state ? fopen(state, "r") : NULL;
	char line[4200];
	int64_t gen = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof line, f)) {
		long long g;
		int at = 0;
		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, "%lld %n", &g, &at) == 1 && at &&
		    !strcmp(line + at, remote))
			gen = g;
	}
	fclose(f);
	return gen;
}

int
hq_archive_state_put(const char *state, const char *remote, int64_t gen, struct hq_err *e)
{
	struct hq_buf tmp = {0}, keep = {0};
	FILE *f;
	char line[4200];
	int fd, rc = -1;

	if (!state)
		return 0;
	if ((f = fopen(state, "r"))) {
		while (fgets(line, sizeof line, f)) {
			char *sp = strchr(line, ' ');
			line[strcspn(line, "\n")] = 0;
			if (sp && strcmp(sp + 1, remote))
				hq_buf_printf(&keep, "%s\n", line);
		}
		fclose(f);
	}
	hq_buf_printf(&keep, "%lld %s\n", (long long)gen, remote);
	hq_buf_printf(&tmp, "%s.tmp", state);
	fd = open(tmp.data, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, keep.data, keep.len) != (ssize_t)keep.len ||
	    fsync(fd) || close(fd) || rename(tmp.data, state)) {
		hq_err_set(e, "%s: %s", state, strerror(errno));
		if (fd >= 0)
			close(fd);
		unlink(tmp.data);
	} else {
		rc = 0;
	}
	hq_buf_free(&tmp);
	hq_buf_free(&keep);
	return rc;
}

/* ---- the manifest ---- */

void
hq_archive_manifest_free(struct hq_archive_manifest *m)
{
	free(m->marks);
	free(m->e);
	memset(m, 0, sizeof *m);
}

int
hq_archive_entry_parse(const char *line, struct hq_archive_entry *x)
{
	char month[16];
	long long rows, size;
	int n;

	/* the 7th field, a pruned month's local hash, is newer than the
	 * format: an older hq reads the line and leaves it */
	memset(x, 0, sizeof *x);
	n = sscanf(line, "segment %15s %32s %lld %lld %64s %64s %64s", month,
	    x->object, &rows, &size, x->sealed, x->plain, x->local);
	if (n < 6 || strlen(x->object) != 32 || strlen(x->sealed) != 64 ||
	    strlen(x->plain) != 64 || rows < 0 || size < 0 ||
	    (n == 7 && strlen(x->local) != 64))
		return -1;
	x->month = strcmp(month, "dims") ? hq_segment_month_parse(month) : HQ_SEGMENT_DIMS;
	if (x->month == -1 && strcmp(month, "dims"))
		return -1;
	x->rows = rows;
	x->size = size;
	return 0;
}

void
hq_archive_entry_print(struct hq_buf *b, const struct hq_archive_entry *x)
{
	char month[16];

	hq_segment_month_name(x->month, month, sizeof month);
	hq_buf_printf(b, "segment %s %s %lld %lld %s %s%s%s\n", month, x->object,
	    (long long)x->rows, (long long)x->size, x->sealed, x->plain,
	    *x->local ? " " : "", x->local);
}

void
hq_archive_entry_add(struct hq_archive_manifest *m, const struct hq_archive_entry *x)
{
	m->e = hq_xrealloc(m->e, (m->n + 1) * sizeof *m->e);
	m->e[m->n++] = *x;
}

static int
parse_manifest(char *text, struct hq_archive_manifest *m)
{
	char *line, *save;
	int format = 0;

	memset(m, 0, sizeof *m);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		long long v;
		struct hq_archive_entry x;

		if (sscanf(line, "hq-archive-manifest %d", &format) == 1)
			continue;
		if (sscanf(line, "generation %lld", &v) == 1)
			m->generation = v;
		else if (sscanf(line, "created %lld", &v) == 1)
			m->created = v;
		else if (sscanf(line, "schema %lld", &v) == 1)
			m->schema = (int)v;
		else if (!strncmp(line, "marks ", 6))
			m->marks = hq_xstrdup(line + 6), (void)0;
		else if (hq_archive_entry_parse(line, &x) == 0)
			hq_archive_entry_add(m, &x);
		else
			return -1;
	}
	return format == 1 && m->generation > 0 ? 0 : -1;
}

int
hq_archive_manifest_get(struct hq_archive *a, const char *scratch,
    struct hq_archive_manifest *m, struct hq_err *e)
{
	char *path = hq_archive_path(scratch, "manifest.sealed");
	char *text = NULL;
	size_t len = 0;
	FILE *in = NULL, *out = NULL;
	int64_t seen;
	int rc;

	memset(m, 0, sizeof *m);
	rc = hq_remote_get(a->remote, MANIFEST, path, MANIFEST_MAX, e);
	if (rc)
		goto done;
	rc = -1;
	if (!(in = fopen(path, "rb")) || !(out = open_memstream(&text, &len))) {
		hq_err_set(e, "%s: %s", path, strerror(errno));
		goto done;
	}
	if (hq_seal_open_stream(a->key, MANIFEST_AD, in, out, MANIFEST_MAX, e)) {
		hq_err_prefix(e, "the manifest");
		goto done;
	}
	fclose(out);
	out = NULL;
	if (parse_manifest(text, m)) {
		hq_archive_manifest_free(m);
		hq_err_set(e, "the manifest: not one this hq reads");
		goto done;
	}
	seen = state_get(a->state, hq_remote_name(a->remote));
	if (m->generation < seen) {
		hq_err_set(e, "the manifest is generation %lld, older than generation "
		    "%lld this machine saw: an old manifest was put back (replayed "
		    "or rolled back); nothing was read", (long long)m->generation,
		    (long long)seen);
		hq_archive_manifest_free(m);
		m->generation = seen;
		rc = 2;
		goto done;
	}
	rc = 0;
done:
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	if (text) {
		sodium_memzero(text, len);
		free(text);
	}
	unlink(path);
	free(path);
	return rc;
}

int
hq_archive_manifest_put(struct hq_archive *a, const struct hq_archive_manifest *m,
    const char *scratch, struct hq_err *e)
{
	struct hq_buf b = {0};
	char *path = hq_archive_path(scratch, "manifest.new");
	unsigned char hash[32];
	FILE *in, *out;
	size_t i;
	int rc = -1;

	hq_buf_printf(&b, "hq-archive-manifest 1\ngeneration %lld\ncreated %lld\n"
	    "schema %d\nmarks %s\n", (long long)m->generation, (long long)m->created,
	    m->schema, m->marks ? m->marks : "");
	for (i = 0; i < m->n; i++)
		hq_archive_entry_print(&b, &m->e[i]);
	in = fmemopen(b.data, b.len, "rb");
	out = fopen(path, "wb");
	if (!in || !out) {
		hq_err_set(e, "%s: %s", path, strerror(errno));
	} else if (hq_seal_stream(a->key, MANIFEST_AD, in, out, hash, e) == 0) {
		if (fclose(out)) {
			hq_err_set(e, "%s: %s", path, strerror(errno));
		} else {
			rc = hq_remote_put(a->remote, MANIFEST, path, NULL, e);
		}
		out = NULL;
	}
	if (in)
		fclose(in);
	if (out)
		fclose(out);
	unlink(path);
	free(path);
	sodium_memzero(b.data, b.len);
	hq_buf_free(&b);
	return rc;
}

void
hq_archive_job_start(struct hq_archive_job *j, void *(*fn)(void *), void *arg)
{
	j->running = pthread_create(&j->t, NULL, fn, arg) == 0;
	if (!j->running)
		fn(arg);
}

void
hq_archive_job_wait(struct hq_archive_job *j)
{
	if (j->running)
		pthread_join(j->t, NULL);
	j->running = 0;
}

void
hq_archive_progress(struct hq_archive *a, const char *what, int i, int n)
{
	if (a->progress)
		fprintf(a->progress, "\rhq-archive: %s %d/%d ", what, i, n);
}

void
hq_archive_progress_end(struct hq_archive *a)
{
	if (a->progress)
		fprintf(a->progress, "\r%40s\r", "");
}

/* ---- fetch and restore ---- */

int
hq_archive_fetch(struct hq_archive *a, const struct hq_archive_manifest *m,
    size_t i, const char *scratch, const char *path, struct hq_err *e)
{
	const struct hq_archive_entry *x = &m->e[i];
	char *sealed = hq_archive_path(scratch, "fetch.sealed"), sha[65], ad[128], month[16];
	struct stat st;
	int rc = -1, got;
	size_t k;

	hq_segment_month_name(x->month, month, sizeof month);
	got = hq_remote_get(a->remote, x->object, sealed, x->size + 1, e);
	if (got == 1) {
		hq_err_set(e, "segment %s: its object %s is missing from the remote",
		    month, x->object);
		goto done;
	}
	if (got < 0) {
		if (strstr(e->msg, "larger than"))
			hq_err_set(e, "segment %s: damaged (longer than the %lld bytes "
			    "pushed)", month, (long long)x->size);
		else
			hq_err_prefix(e, "segment %s", month);
		goto done;
	}
	if (stat(sealed, &st) || hq_seal_hash_file(sealed, sha, e)) {
		hq_err_prefix(e, "segment %s", month);
		goto done;
	}
	if (strcmp(sha, x->sealed)) {
		for (k = 0; k < m->n; k++)
			if (k != i && !strcmp(sha, m->e[k].sealed)) {
				char other[16];
				hq_segment_month_name(m->e[k].month, other, sizeof other);
				hq_err_set(e, "segment %s: its object holds month %s's "
				    "segment (swapped)", month, other);
				goto done;
			}
		if (st.st_size < x->size)
			hq_err_set(e, "segment %s: truncated (%lld of the %lld bytes "
			    "pushed)", month, (long long)st.st_size, (long long)x->size);
		else
			hq_err_set(e, "segment %s: damaged or altered (its bytes are "
			    "not those pushed)", month);
		goto done;
	}
	hq_archive_ad(x, ad, sizeof ad);
	if (hq_seal_open_file(a->key, ad, sealed, path, e)) {
		hq_err_prefix(e, "segment %s", month);
		goto done;
	}
	if (hq_seal_hash_file(path, sha, e) || strcmp(sha, x->plain)) {
		unlink(path);
		hq_err_set(e, "segment %s: not the segment the manifest names", month);
		goto done;
	}
	rc = 0;
done:
	unlink(sealed);
	free(sealed);
	return rc;
}

static void
remove_store_files(const char *path)
{
	static const char *const ext[] = { "", "-wal", "-shm", "-journal" };
	struct hq_buf b = {0};

	for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		hq_buf_reset(&b);
		hq_buf_printf(&b, "%s%s", path, ext[i]);
		unlink(b.data);
	}
	hq_buf_free(&b);
}

/* A new store at the archive's schema version: the migrations up to it,
 * with no journal (the file is renamed into place only when complete). */
static int
restore_create_schema(sqlite3 *db, int schema)
{
	char pv[64];
	int v;

	if (sqlite3_exec(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF",
	    NULL, NULL, NULL) != SQLITE_OK)
		return -1;
	for (v = 0; v < schema; v++)
		if (sqlite3_exec(db, hq_store_migration(v), NULL, NULL, NULL) != SQLITE_OK)
			return -1;
	snprintf(pv, sizeof pv, "PRAGMA user_version = %d", schema);
	if (sqlite3_exec(db, pv, NULL, NULL, NULL) != SQLITE_OK)
		return -1;
	return 0;
}

/*
 * The indexes of the months' tables (sample_key above all) dropped before
 * the merge and built once after it, from the rows in place: kept up row
 * by row they cost more than building them whole. Their CREATE statements
 * into *create, run by restore_indexes; a duplicate a damaged archive let
 * in fails there, as it failed an INSERT before.
 */
static int
restore_defer_indexes(sqlite3 *db, struct hq_buf *create)
{
	struct hq_buf drop = {0};
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "SELECT name, tbl_name, sql FROM sqlite_schema "
	    "WHERE type = 'index' AND sql IS NOT NULL ORDER BY rowid", -1, &st,
	    NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		char *q;
		if (!hq_segment_merged_by_rows((const char *)sqlite3_column_text(st, 1)))
			continue;
		hq_buf_printf(create, "%s;\n", (const char *)sqlite3_column_text(st, 2));
		q = sqlite3_mprintf("DROP INDEX \"%w\";\n", sqlite3_column_text(st, 0));
		hq_buf_printf(&drop, "%s", q);
		sqlite3_free(q);
	}
	sqlite3_finalize(st);
	rc = rc != SQLITE_DONE || (drop.data && sqlite3_exec(db, drop.data, NULL,
	    NULL, NULL) != SQLITE_OK) ? -1 : 0;
	hq_buf_free(&drop);
	return rc;
}

static int
restore_indexes(sqlite3 *db, const struct hq_buf *create, const char *path,
    struct hq_err *e)
{
	if (create->data && sqlite3_exec(db, create->data, NULL, NULL, NULL) !=
	    SQLITE_OK) {
		hq_err_set(e, "%s: the archive's rows: %s", path, sqlite3_errmsg(db));
		return -1;
	}
	return 0;
}

/* A segment fetched on a thread of its own while the one before it is
 * merged: the fetch (the download, its hash, the opening, the
 * decompression) is a tenth of a restore's work, off its critical path. */
struct ahead {
	struct hq_archive *a;
	const struct hq_archive_manifest *m;
	size_t i;
	const char *scratch;
	char *path;
	struct hq_err e;
	int rc;
	struct hq_archive_job job;
};

static void *
ahead_run(void *p)
{
	struct ahead *x = p;

	x->rc = hq_archive_fetch(x->a, x->m, x->i, x->scratch, x->path, &x->e);
	return NULL;
}

static void
ahead_start(struct ahead *x, size_t i)
{
	x->i = i;
	hq_archive_job_start(&x->job, ahead_run, x);
}

static int
ahead_wait(struct ahead *x, struct hq_err *e)
{
	hq_archive_job_wait(&x->job);
	if (x->rc && e)
		*e = x->e;
	return x->rc;
}

/* Fetches each segment of the manifest into the scratch directory and
 * merges it into db (named dbpath in errors), counting into c: the dims
 * first, the months' rows name them. */
static int
restore_merge_segments(struct hq_archive *a, const struct hq_archive_manifest *m,
    const char *scratch, sqlite3 *db, const char *dbpath,
    struct hq_archive_counts *c, struct hq_err *e)
{
	struct ahead x[2] = { { .a = a, .m = m, .scratch = scratch },
		{ .a = a, .m = m, .scratch = scratch } };
	size_t *order = hq_xmalloc((m->n + 1) * sizeof *order), n = 0, j;
	int rc = 0;

	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < m->n; i++)
			if ((m->e[i].month == HQ_SEGMENT_DIMS) == (pass == 0))
				order[n++] = i;
	x[0].path = hq_archive_path(scratch, "segment.db");
	x[1].path = hq_archive_path(scratch, "segment-next.db");
	if (n)
		ahead_start(&x[0], order[0]);
	for (j = 0; j < n && rc == 0; j++) {
		struct ahead *now = &x[j % 2];
		const struct hq_archive_entry *y = &m->e[order[j]];
		char month[16];
		if ((rc = ahead_wait(now, e)))
			break;
		if (j + 1 < n)
			ahead_start(&x[(j + 1) % 2], order[j + 1]);
		hq_archive_progress(a, "segment", (int)c->segments + 1, (int)m->n);
		rc = hq_segment_merge(db, now->path, e);
		unlink(now->path);
		if (rc) {
			hq_segment_month_name(y->month, month, sizeof month);
			hq_err_prefix(e, "segment %s: %s", month, dbpath);
			break;
		}
		c->segments++;
		c->rows += y->rows;
		c->bytes_total += y->size;
	}
	for (int k = 0; k < 2; k++) {
		ahead_wait(&x[k], NULL);
		unlink(x[k].path);
		free(x[k].path);
	}
	free(order);
	return rc ? -1 : 0;
}

int
hq_archive_restore(struct hq_archive *a, const char *path, const char *scratch,
    struct hq_archive_counts *c, struct hq_err *e)
{
	struct hq_archive_manifest m;
	struct hq_buf tmp = {0}, create = {0};
	sqlite3 *db = NULL;
	struct hq_store *s;
	struct stat st;
	mode_t old;
	int rc = -1, v;

	memset(c, 0, sizeof *c);
	if (stat(path, &st) == 0) {
		hq_err_set(e, "%s exists: restore makes a new store (give --db "
		    "another path, or move it away)", path);
		return -1;
	}
	if ((v = hq_archive_manifest_get(a, scratch, &m, e)) != 0) {
		if (v == 1)
			hq_err_set(e, "%s has no manifest: nothing was pushed to it",
			    hq_remote_name(a->remote));
		return -1;
	}
	if (m.schema > hq_store_latest_version() || m.schema < 1) {
		hq_err_set(e, "the archive's store is of schema version %d, newer "
		    "than this hq understands (%d); upgrade hq", m.schema,
		    hq_store_latest_version());
		goto done;
	}
	hq_buf_printf(&tmp, "%s.restore", path);
	remove_store_files(tmp.data);
	old = umask(077);
	v = sqlite3_open_v2(tmp.data, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	umask(old);
	if (v != SQLITE_OK) {
		hq_err_set(e, "%s: %s", tmp.data, db ? sqlite3_errmsg(db) : "cannot open");
		goto done;
	}
	/* the archive's schema, then its rows, then the migrations since */
	if (restore_create_schema(db, m.schema) || restore_defer_indexes(db, &create))
		goto sql_failed;
	if (restore_merge_segments(a, &m, scratch, db, tmp.data, c, e))
		goto done;
	hq_archive_progress_end(a);
	if (restore_indexes(db, &create, tmp.data, e))
		goto done;
	/* search's indexes are in no segment (segment.c): built from the
	 * rows (an older archive's store gets them from migration 13) */
	if (m.schema > 12 && hq_store_search_refresh(db, e))
		goto done;
	if (sqlite3_close(db) != SQLITE_OK)
		goto sql_failed;
	db = NULL;
	/* the store's own open: migrations past the archive's, WAL, 0600 */
	if (!(s = hq_store_open(tmp.data, 0, e)))
		goto done;
	hq_store_close(s);
	if (renameat2(AT_FDCWD, tmp.data, AT_FDCWD, path, RENAME_NOREPLACE)) {
		hq_err_set(e, "%s: %s", path, strerror(errno));
		goto done;
	}
	c->generation = m.generation;
	rc = 0;
	goto done;
sql_failed:
	hq_err_set(e, "%s: %s", tmp.data, db ? sqlite3_errmsg(db) : "cannot close");
done:
	hq_archive_progress_end(a);
	if (db)
		sqlite3_close(db);
	if (rc && tmp.data)
		remove_store_files(tmp.data);
	hq_buf_free(&tmp);
	hq_buf_free(&create);
	hq_archive_manifest_free(&m);
	return rc;
}

void
hq_archive_done(struct hq_archive *a)
{
	sodium_memzero(a->key, sizeof a->key);
}
