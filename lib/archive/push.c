/*
 * push — the store's months against the archive (archive.h): push sends
 * the months whose segment changed (a pruned month's new rows merged
 * into its archived segment), prune checks every month against the
 * archive before it deletes their raw rows.
 */
#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "archive_int.h"
#include "hq/segment.h"
#include "hq/store.h"

/*
 * A month is built in memory up to MONTH_MEM bytes (no file to write and
 * read back to hash and seal it), past that in a scratch file. A push
 * builds and seals two months at once (struct builder) while it uploads
 * the one before, whose database is closed by then: two months in memory,
 * each at most MONTH_MEM and segment.c's 8 MiB of cache, so its memory
 * stays under 64 MB whatever the store's size.
 */
#define MONTH_MEM (12 << 20)

/* ---- the remote's objects, for the journal and the clean-up ---- */

struct names {
	char (*name)[64];
	int64_t *size;
	size_t n;
};

static int
add_name(const char *name, int64_t size, void *u)
{
	struct names *ns = u;

	if (strlen(name) >= 64)
		return 0;
	ns->name = hq_xrealloc(ns->name, (ns->n + 1) * sizeof *ns->name);
	ns->size = hq_xrealloc(ns->size, (ns->n + 1) * sizeof *ns->size);
	snprintf(ns->name[ns->n], 64, "%s", name);
	ns->size[ns->n++] = size;
	return 0;
}

static int64_t
name_size(const struct names *ns, const char *name)
{
	for (size_t i = 0; i < ns->n; i++)
		if (!strcmp(ns->name[i], name))
			return ns->size[i];
	return -1;
}

static int
is_segment_name(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return i == 32;
}

/* ---- push ---- */

static int
find_object(const struct hq_archive_manifest *m, const char *object)
{
	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->e[i].object, object))
			return 1;
	return 0;
}

static int
schema_of(sqlite3 *db)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

static const struct hq_archive_entry *
find_month(const struct hq_archive_entry *x, size_t n, int month, const char *plain)
{
	for (size_t i = 0; i < n; i++)
		if (x[i].month == month && (!plain || !strcmp(x[i].plain, plain)))
			return &x[i];
	return NULL;
}

/* The journal: what this push (or a killed one on the same manifest)
 * uploaded, so a rerun sends it no more. */
static void
journal_read(const char *path, int64_t base, struct hq_archive_manifest *j)
{
	FILE *f = fopen(path, "r");
	char line[512];
	long long b = -1;

	memset(j, 0, sizeof *j);
	if (!f)
		return;
	if (fgets(line, sizeof line, f) && sscanf(line, "base %lld", &b) == 1 && b == base)
		while (fgets(line, sizeof line, f)) {
			struct hq_archive_entry x;
			if (hq_archive_entry_parse(line, &x) == 0)
				hq_archive_entry_add(j, &x);
		}
	fclose(f);
}

static void
journal_add(const char *path, int64_t base, const struct hq_archive_entry *x)
{
	struct hq_buf b = {0};
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	struct stat st;

	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && st.st_size == 0)
		hq_buf_printf(&b, "base %lld\n", (long long)base);
	hq_archive_entry_print(&b, x);
	if (write(fd, b.data, b.len) == (ssize_t)b.len)
		fsync(fd);
	close(fd);
	hq_buf_free(&b);
}

/* Delete the segments no manifest names any more: months replaced, a
 * killed push's uploads. One writer at a time: a push from elsewhere
 * would lose what it uploaded before its manifest. */
static int
collect(struct hq_archive *a, const struct hq_archive_manifest *m,
    const struct names *objects, struct hq_archive_counts *c, struct hq_err *e)
{
	for (size_t k = 0; k < objects->n; k++)
		if (is_segment_name(objects->name[k]) &&
		    !find_object(m, objects->name[k])) {
			if (hq_remote_del(a->remote, objects->name[k], e))
				return -1;
			c->deleted++;
		}
	return 0;
}

/* ---- a month built ---- */

struct push;

/* What a push does with a month once built: its segment is the old
 * manifest's (KEPT), a killed push's upload (SENT), or sealed anew into
 * its scratch file (SEALED), to be uploaded in the months' order. */
enum fate { UNDECIDED, KEPT, SENT, SEALED };

struct month {
	int month;
	const char *store, *arc;      /* arc: the archived month merged in */
	char *path;                   /* its file, past MONTH_MEM */
	char *sealed;                 /* its sealed object, when SEALED */
	sqlite3 *db;                  /* else its database in memory */
	const unsigned char *data;
	int64_t size, rows;
	char plain[65];
	/* a push's month: the push (read, never written, by the thread)
	 * and whether the month is pruned (decided by the push itself) */
	const struct push *push;
	int pruned;
	enum fate fate;
	struct hq_archive_entry x;
	int rc;
	struct hq_err e;
};

static void
month_init(struct month *m, const char *store, int month, const char *arc,
    const char *scratch, int slot)
{
	char name[32];

	memset(m, 0, sizeof *m);
	m->store = store;
	m->month = month;
	m->arc = arc;
	snprintf(name, sizeof name, "segment%d.db", slot);
	m->path = hq_archive_path(scratch, name);
	snprintf(name, sizeof name, "segment%d.sealed", slot);
	m->sealed = hq_archive_path(scratch, name);
}

/* Build m and hash it (a thread's body: it touches m alone). */
static void *
month_build(void *u)
{
	struct month *m = u;

	m->rc = hq_segment_build_mem(m->store, m->month, m->arc, MONTH_MEM,
	    &m->db, &m->rows, &m->e);
	if (m->rc == 1)
		m->rc = hq_segment_build(m->store, m->month, m->arc, m->path,
		    &m->rows, &m->e);
	else if (m->rc == 0 && !(m->data = hq_segment_bytes(m->db, &m->size))) {
		hq_err_set(&m->e, "a segment in memory: no bytes");
		m->rc = -1;
	}
	if (m->rc == 0 && !m->db)
		m->rc = hq_seal_hash_file(m->path, m->plain, &m->e);
	else if (m->rc == 0)
		hq_seal_hash_mem(m->data, (size_t)m->size, m->plain);
	return NULL;
}

/* The month's database closed: what a push keeps of it is its file and
 * its sealed object. */
static void
month_close(struct month *m)
{
	sqlite3_close(m->db);
	m->db = NULL;
	m->data = NULL;
}

static void
month_free(struct month *m)
{
	month_close(m);
	if (m->path)
		unlink(m->path);
	if (m->sealed)
		unlink(m->sealed);
	free(m->path);
	free(m->sealed);
	m->path = m->sealed = NULL;
}

static FILE *
month_open(struct month *m, struct hq_err *e)
{
	FILE *f = m->db ? fmemopen((void *)m->data, (size_t)m->size, "rb")
	    : fopen(m->path, "rb");

	if (!f)
		hq_err_set(e, "%s: %s", m->db ? "a segment in memory" : m->path,
		    strerror(errno));
	return f;
}

/* Seal m into m->sealed, under a new random name, its entry m->x. */
static int
seal_segment(const struct hq_archive *a, struct month *m, struct hq_err *e)
{
	struct hq_archive_entry *x = &m->x;
	unsigned char rnd[16], hash[32];
	char ad[128];
	struct stat st;
	FILE *in;
	int rc = -1;

	memset(x, 0, sizeof *x);
	x->month = m->month;
	x->rows = m->rows;
	snprintf(x->plain, sizeof x->plain, "%s", m->plain);
	randombytes_buf(rnd, sizeof rnd);
	hq_seal_hex(rnd, sizeof rnd, x->object);
	hq_archive_ad(x, ad, sizeof ad);
	if ((in = month_open(m, e))) {
		if (hq_seal_file(a->key, ad, in, m->sealed, hash, e) == 0) {
			if (stat(m->sealed, &st) == 0) {
				x->size = st.st_size;
				hq_seal_hex(hash, 32, x->sealed);
				rc = 0;
			} else {
				hq_err_set(e, "%s: %s", m->sealed, strerror(errno));
			}
		}
		fclose(in);
	}
	return rc;
}

/* ---- push ---- */

struct push {
	struct hq_archive *a;
	const char *store, *scratch, *jpath;
	struct hq_archive_manifest old, next, journal;
	int have;                     /* old's: 0, or 2 (replayed: not used) */
	int64_t base;
	struct names objects;
	struct hq_archive_counts *c;
};

/* What becomes of m (built, hashed): the old manifest's object when it
 * holds these bytes, a killed push's upload of them, or m sealed now.
 * Reads p alone: a builder thread's, or the push's own. */
static void
month_decide(const struct push *p, struct month *m)
{
	const struct hq_archive_entry *same;

	if ((same = p->have == 0 ? find_month(p->old.e, p->old.n, m->month,
	    m->plain) : NULL) && name_size(&p->objects, same->object) == same->size) {
		m->x = *same;
		m->fate = KEPT;
	} else if ((same = find_month(p->journal.e, p->journal.n, m->month,
	    m->plain)) && name_size(&p->objects, same->object) == same->size) {
		m->x = *same;
		m->fate = SENT;
	} else {
		m->rc = seal_segment(p->a, m, &m->e);
		m->fate = SEALED;
	}
	month_close(m);
}

/* A push's month: built, hashed, and (not pruned, not empty) decided and
 * sealed — a builder thread's body. */
static void *
month_work(void *u)
{
	struct month *m = u;

	month_build(m);
	if (m->rc == 0 && !m->pruned && (m->rows > 0 || m->month == HQ_SEGMENT_DIMS))
		month_decide(m->push, m);
	return NULL;
}

/* m's entry into the next manifest, m uploaded if it was sealed. local:
 * what the store alone builds of a pruned month, hashed, or NULL. */
static int
place(struct push *p, struct month *m, const char *local, struct hq_err *e)
{
	struct hq_archive_entry x;

	if (m->fate == UNDECIDED)
		month_decide(p, m);
	if (m->rc) {
		*e = m->e;
		return -1;
	}
	x = m->x;
	snprintf(x.local, sizeof x.local, "%s", local ? local : "");
	if (m->fate == SEALED) {
		if (hq_remote_put(p->a->remote, x.object, m->sealed, NULL, e))
			return -1;
		unlink(m->sealed);
		journal_add(p->jpath, p->base, &x);
		p->c->bytes_sent += x.size;
	}
	if (m->fate == KEPT)
		p->c->kept++;
	else
		p->c->sent++;
	hq_archive_entry_add(&p->next, &x);
	p->c->segments++;
	p->c->rows += x.rows;
	p->c->bytes_total += x.size;
	return 0;
}

/*
 * A pruned month, m built from what the store still holds of it: the
 * archive's entry as it is while that is as at the last push; else (rows
 * imported into the month since the prune, or an archive pushed before
 * hq kept the store's part) the archived segment is fetched and the
 * store's rows merged into it, sent as the month's new segment.
 */
static int
push_pruned(struct push *p, struct month *m, struct hq_err *e)
{
	const struct hq_archive_entry *same;
	struct month merged;
	char *arc;
	int rc;

	if (!(same = p->have == 0 ? find_month(p->old.e, p->old.n, m->month,
	    NULL) : NULL)) {
		hq_err_set(e, "pruned from this store, and not in the archive's "
		    "manifest: restore the archive elsewhere before pushing over it");
		return -1;
	}
	if (!strcmp(same->local, m->plain)) {
		hq_archive_entry_add(&p->next, same);
		p->c->segments++;
		p->c->kept++;
		p->c->rows += same->rows;
		p->c->bytes_total += same->size;
		return 0;
	}
	arc = hq_archive_path(p->scratch, "merge.db");
	month_init(&merged, p->store, m->month, arc, p->scratch, 3);
	if ((rc = hq_archive_fetch(p->a, &p->old, (size_t)(same - p->old.e),
	    p->scratch, arc, e)) == 0) {
		month_build(&merged);
		if ((rc = merged.rc) != 0)
			*e = merged.e;
		else
			rc = place(p, &merged, m->plain, e);
	}
	month_free(&merged);
	unlink(arc);
	free(arc);
	return rc;
}

/*
 * The builders: each month built, hashed and sealed by a thread of its
 * own, two at once (the two cores busy: a month's build is 3/4 of its
 * CPU), while the push uploads the one before them in the months' order.
 * A third slot holds that one: its database closed, only its sealed file.
 */
#define SLOTS 3

struct builder {
	struct month m[SLOTS];
	struct hq_archive_job job[SLOTS];
};

static void
builder_start(struct builder *b, const struct push *p, int month, int pruned,
    int k)
{
	month_init(&b->m[k], p->store, month, NULL, p->scratch, k);
	b->m[k].push = p;
	b->m[k].pruned = pruned;
	hq_archive_job_start(&b->job[k], month_work, &b->m[k]);
}

static void
builder_free(struct builder *b)
{
	for (int k = 0; k < SLOTS; k++) {
		hq_archive_job_wait(&b->job[k]);
		month_free(&b->m[k]);
	}
}

/* Month j of months (-1: the dims) started in its slot. */
static void
builder_next(struct builder *b, const struct push *p, const int *months,
    int nm, const int *pruned, int npruned, int j)
{
	int month = j < 0 ? HQ_SEGMENT_DIMS : j < nm ? months[j] : 0;

	if (j < nm)
		builder_start(b, p, month, j >= 0 && npruned && bsearch(&month,
		    pruned, (size_t)npruned, sizeof *pruned, hq_segment_month_cmp),
		    (j + 1) % SLOTS);
}

/* Every month of the store (months, nm; the dims first) into p->next. */
static int
push_months(struct push *p, const int *months, int nm, const int *pruned,
    int npruned, struct hq_err *e)
{
	struct builder b;
	int j, rc = 0;

	memset(&b, 0, sizeof b);
	builder_next(&b, p, months, nm, pruned, npruned, -1);
	builder_next(&b, p, months, nm, pruned, npruned, 0);
	for (j = -1; j < nm && rc == 0; j++) {
		struct month *m = &b.m[(j + 1) % SLOTS];
		char name[16];

		hq_archive_job_wait(&b.job[(j + 1) % SLOTS]);
		/* the next but one starts now, or after a pruned month's
		 * merge (a build of its own): two builds at once at most */
		if (!m->pruned)
			builder_next(&b, p, months, nm, pruned, npruned, j + 2);
		hq_archive_progress(p->a, "month", j + 1, nm);
		if (m->rc) {
			*e = m->e;
			rc = -1;
		} else if (m->pruned) {
			month_close(m);
			if ((rc = push_pruned(p, m, e)) == 0)
				builder_next(&b, p, months, nm, pruned, npruned, j + 2);
		} else if (m->rows > 0 || m->month == HQ_SEGMENT_DIMS) {
			rc = place(p, m, NULL, e);
		}
		if (rc) {
			hq_segment_month_name(m->month, name, sizeof name);
			hq_err_prefix(e, "segment %s", name);
		}
		month_free(m);
	}
	builder_free(&b);
	hq_archive_progress_end(p->a);
	return rc;
}

int
hq_archive_push(struct hq_archive *a, const char *store, sqlite3 *db,
    const char *scratch, int all, struct hq_archive_counts *c, struct hq_err *e)
{
	struct push p = { .a = a, .store = store, .scratch = scratch, .c = c };
	struct hq_buf marks = {0};
	char *jpath = hq_archive_path(scratch, "journal");
	int *months = NULL, *pruned = NULL, nm, npruned = 0, i, rc = -1;
	size_t k;

	memset(c, 0, sizeof *c);
	p.jpath = jpath;
	/* over a replayed manifest, the store is the truth: a whole push,
	 * numbered past what this machine saw */
	if ((p.have = hq_archive_manifest_get(a, scratch, &p.old, e)) < 0)
		goto done;
	if (p.have == 2)
		p.base = p.old.generation;
	if (hq_segment_marks(db, &marks, e))
		goto done;
	if (hq_remote_list(a->remote, add_name, &p.objects, e))
		goto done;
	if (p.have == 0 && !all && p.old.marks && !strcmp(p.old.marks, marks.data)) {
		c->unchanged = 1;
		c->generation = p.old.generation;
		c->segments = (int)p.old.n;
		for (k = 0; k < p.old.n; k++)
			c->bytes_total += p.old.e[k].size, c->rows += p.old.e[k].rows;
		/* a push killed after its manifest left what it replaced */
		if (hq_archive_state_put(a->state, hq_remote_name(a->remote),
		    p.old.generation, e) == 0)
			rc = collect(a, &p.old, &p.objects, c, e);
		goto done;
	}
	if ((nm = hq_segment_months(db, &months, e)) < 0 ||
	    (npruned = hq_segment_pruned(db, &pruned, e)) < 0)
		goto done;
	/* a pruned month is the archive's and the store's together */
	if (npruned) {
		months = hq_xrealloc(months, (size_t)(nm + npruned) * sizeof *months);
		for (i = 0; i < npruned; i++)
			if (!bsearch(&pruned[i], months, (size_t)nm, sizeof *months,
			    hq_segment_month_cmp))
				months[nm++] = pruned[i];
		qsort(months, (size_t)nm, sizeof *months, hq_segment_month_cmp);
	}
	if (p.have == 0)
		p.base = p.old.generation;
	journal_read(jpath, p.base, &p.journal);
	p.next.generation = p.base + 1;
	p.next.created = (int64_t)time(NULL);
	p.next.schema = schema_of(db);
	p.next.marks = hq_buf_steal(&marks);
	if (push_months(&p, months, nm, pruned, npruned, e))
		goto done;
	/* the manifest last: until it is written the remote is the old one */
	if (hq_archive_manifest_put(a, &p.next, scratch, e) ||
	    hq_archive_state_put(a->state, hq_remote_name(a->remote),
	    p.next.generation, e))
		goto done;
	unlink(jpath);
	c->generation = p.next.generation;
	rc = collect(a, &p.next, &p.objects, c, e);
done:
	if (p.have == 0)
		hq_archive_manifest_free(&p.old);
	hq_archive_manifest_free(&p.next);
	hq_archive_manifest_free(&p.journal);
	hq_buf_free(&marks);
	free(p.objects.name);
	free(p.objects.size);
	free(months);
	free(pruned);
	free(jpath);
	return rc;
}

/* ---- prune ---------------------------------------------------------- */

/*
 * The months just pruned, noted in a new manifest: what the store still
 * holds of each, hashed, so a push knows them unchanged without fetching
 * them (else the first push after the prune fetches and merges each one,
 * push_pruned). The rows are gone already: a failure here costs that
 * push only, and is said.
 */
static int
note_pruned(struct hq_archive *a, const char *store, const char *scratch,
    struct hq_archive_manifest *m, const struct hq_archive_pruning *p,
    struct hq_err *e)
{
	for (size_t k = 0; k < m->n; k++) {
		struct month b;
		if (!bsearch(&m->e[k].month, p->month, (size_t)p->n, sizeof *p->month,
		    hq_segment_month_cmp))
			continue;
		month_init(&b, store, m->e[k].month, NULL, scratch, 0);
		month_build(&b);
		month_free(&b);
		if (b.rc) {
			*e = b.e;
			hq_err_prefix(e, "pruned, but the archive's manifest not noted");
			return -1;
		}
		memcpy(m->e[k].local, b.plain, sizeof b.plain);
	}
	m->generation++;
	m->created = (int64_t)time(NULL);
	if (hq_archive_manifest_put(a, m, scratch, e) ||
	    hq_archive_state_put(a->state, hq_remote_name(a->remote), m->generation, e)) {
		hq_err_prefix(e, "pruned, but the archive's manifest not noted");
		return -1;
	}
	return 0;
}

int
hq_archive_prune(struct hq_archive *a, const char *store, sqlite3 *db,
    const char *scratch, int before, int apply, struct hq_archive_pruning *p,
    struct hq_err *e)
{
	struct hq_archive_manifest m;
	char *got = hq_archive_path(scratch, "prune.db");
	char name[16];
	int *months = NULL, *pruned = NULL, nm, np, i, rc = -1, have, began = 0;

	memset(p, 0, sizeof *p);
	if ((have = hq_archive_manifest_get(a, scratch, &m, e)) == 1)
		hq_err_set(e, "nothing pushed to %s yet: push first",
		    hq_remote_name(a->remote));
	if (have) {
		free(got);
		return -1;
	}
	/* the store held still from the check to the delete: no import
	 * can add to a month between */
	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
		hq_err_set(e, "%s: %s", store, sqlite3_errmsg(db));
		goto done;
	}
	began = 1;
	if ((nm = hq_segment_months(db, &months, e)) < 0 ||
	    (np = hq_segment_pruned(db, &pruned, e)) < 0)
		goto done;
	p->month = hq_xcalloc((size_t)nm + 1, sizeof *p->month);
	for (i = 0; i < nm && months[i] < before; i++) {
		const struct hq_archive_entry *x;
		struct month b;
		size_t k;

		if (np && bsearch(&months[i], pruned, (size_t)np, sizeof *pruned,
		    hq_segment_month_cmp))
			continue;
		hq_segment_month_name(months[i], name, sizeof name);
		hq_archive_progress(a, "checking month", i + 1, nm);
		month_init(&b, store, months[i], NULL, scratch, 0);
		month_build(&b);
		month_free(&b);
		if (b.rc) {
			*e = b.e;
			hq_err_prefix(e, "month %s", name);
			goto done;
		}
		if (b.rows == 0)
			continue;       /* a month between others, empty */
		if (!(x = find_month(m.e, m.n, months[i], NULL))) {
			hq_err_set(e, "month %s is not in the archive: push first; "
			    "nothing was pruned", name);
			goto done;
		}
		if (strcmp(b.plain, x->plain)) {
			hq_err_set(e, "month %s changed since the last push: push "
			    "first; nothing was pruned", name);
			goto done;
		}
		/* the remote's copy read back whole: this key opens it and it
		 * is the month the manifest names */
		k = (size_t)(x - m.e);
		if (hq_archive_fetch(a, &m, k, scratch, got, e)) {
			char why[sizeof e->msg];
			snprintf(why, sizeof why, "%s", e->msg);
			hq_err_set(e, "%.900s; nothing was pruned", why);
			goto done;
		}
		unlink(got);
		p->month[p->n++] = months[i];
	}
	hq_archive_progress_end(a);
	for (i = 0; apply && i < p->n; i++) {
		int64_t rows;

		if (hq_segment_prune(db, p->month[i], &rows, e))
			goto done;
		p->rows += rows;
	}
	if (sqlite3_exec(db, apply ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL) != SQLITE_OK) {
		hq_err_set(e, "%s: %s", store, sqlite3_errmsg(db));
		goto done;
	}
	began = 0;
	p->already = np;
	if (apply && p->n && note_pruned(a, store, scratch, &m, p, e))
		goto done;
	rc = 0;
done:
	hq_archive_progress_end(a);
	if (began)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	if (rc)
		hq_archive_pruning_free(p);
	hq_archive_manifest_free(&m);
	unlink(got);
	free(got);
	free(months);
	free(pruned);
	return rc;
}

void
hq_archive_pruning_free(struct hq_archive_pruning *p)
{
	free(p->month);
	memset(p, 0, sizeof *p);
}
