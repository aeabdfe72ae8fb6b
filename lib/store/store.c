/*
 * The store (store.h): its file found or made (0600, WAL, busy timeout),
 * opened read-only or for writing, migrated; transactions and savepoints;
 * statements run with `struct hq_bind`; samples added one or many to a
 * statement, and found by their natural key. Its interned names are
 * names.c's (what the two share is store_int.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/store.h"
#include "hq/utf8.h"

#include "store_int.h"

int
hq_store_path(const char *dbpath, char *buf, size_t n, struct hq_err *e)
{
	const char *env = getenv("HQ_DB"), *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	int len;

	if (dbpath && *dbpath)
		len = snprintf(buf, n, "%s", dbpath);
	else if (env && *env)
		len = snprintf(buf, n, "%s", env);
	else if (xdg && *xdg)
		len = snprintf(buf, n, "%s/hq/hq.db", xdg);
	else if (home && *home)
		len = snprintf(buf, n, "%s/.local/share/hq/hq.db", home);
	else {
		hq_err_set(e, "no store: set --db, HQ_DB or HOME");
		return -1;
	}
	if (len < 0 || (size_t)len >= n) {
		hq_err_set(e, "store path too long");
		return -1;
	}
	return 0;
}

/* mkdir -p for the directories above path, each 0700 when new. */
static int
make_parents(const char *path, struct hq_err *e)
{
	char dir[4096];
	size_t len = strlen(path);

	if (len >= sizeof dir)
		return 0;
	memcpy(dir, path, len + 1);
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
			hq_err_set(e, "cannot create directory %s: %s", dir,
			    strerror(errno));
			return -1;
		}
		*p = '/';
	}
	return 0;
}

int
hq_store_sql_err(struct hq_store *s, struct hq_err *e, const char *what)
{
	hq_err_set(e, "%s: %s: %s", s->path, what, sqlite3_errmsg(s->db));
	return -1;
}

int
hq_store_exec(struct hq_store *s, const char *sql, struct hq_err *e)
{
	char *msg = NULL;

	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		hq_err_set(e, "%s: %s", s->path, msg ? msg : sqlite3_errmsg(s->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

int
hq_store_prepare(struct hq_store *s, const char *sql, sqlite3_stmt **st,
    struct hq_err *e)
{
	if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK) {
		*st = NULL;
		return hq_store_sql_err(s, e, "preparing a statement");
	}
	return 0;
}

int
hq_store_schema_version(struct hq_store *s)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int
migrate(struct hq_store *s, struct hq_err *e)
{
	int v = hq_store_schema_version(s);

	if (v < 0)
		return hq_store_sql_err(s, e, "reading the schema version");
	if (v > hq_store_latest_version()) {
		hq_err_set(e, "%s: schema version %d is newer than this hq "
		    "understands (%d); upgrade hq", s->path, v,
		    hq_store_latest_version());
		return -1;
	}
	if (v == hq_store_latest_version())
		return 0;
	if (s->readonly) {
		hq_err_set(e, "%s: schema version %d is out of date; run "
		    "hq-ingest once to upgrade it", s->path, v);
		return -1;
	}
	if (hq_store_begin(s, e))
		return -1;
	/* Another process may have migrated while we waited for the lock. */
	v = hq_store_schema_version(s);
	for (; v < hq_store_latest_version(); v++) {
		char pragma[64];
		if (hq_store_exec(s, hq_store_migration(v), e))
			goto fail;
		snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", v + 1);
		if (hq_store_exec(s, pragma, e))
			goto fail;
		/* 13 made search's tables; its index of the rows is
		 * built here (search_index.c, schema.c's SEARCH_FILL) */
		if (v + 1 == 13 && hq_store_search_refresh(s->db, e))
			goto fail;
	}
	return hq_store_commit(s, e);
fail:
	hq_err_prefix(e, "migrating to schema version %d", v + 1);
	hq_store_rollback(s);
	return -1;
}

void
hq_store_uri(const char *path, const char *query, struct hq_buf *b)
{
	hq_buf_puts(b, path[0] == '/' ? "file://" : "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/-._~", *p))
			hq_buf_putc(b, (char)*p);
		else
			hq_buf_printf(b, "%%%02X", *p);
	hq_buf_printf(b, "?%s", query);
}

/* Open s->path for reading and read its schema: 0, or an SQLite error
 * code with s->db open (or NULL) for the message. */
static int
open_probe(struct hq_store *s, const char *name, int flags)
{
	int rc = sqlite3_open_v2(name, &s->db, flags, NULL);

	/* The probe waits as every statement does: another process opening
	 * the store at the same moment (hq-query | hq-correlate -) may hold
	 * its -shm while it recovers the WAL index. */
	if (rc == SQLITE_OK) {
		sqlite3_busy_timeout(s->db, 10000);
		rc = sqlite3_exec(s->db, "SELECT count(*) FROM sqlite_master", NULL,
		    NULL, NULL);
	}
	return rc;
}

/*
 * A store for reading only (queries) is opened read-only. A WAL store
 * needs its -wal and -shm files, which SQLite creates on first open and
 * deletes at the last close: in a read-only directory or on a read-only
 * mount (a backup, a snapshot) it cannot, and the store is then opened
 * immutable (sqlite.org/wal.html, "Read-Only Databases"). That is safe
 * when there is no -wal file, or an empty one: everything is in the
 * store, and no writer can change it where none can create a -wal file.
 * A -wal file with content in such a place is refused: reading the store
 * without it would show an older state.
 */
static int
open_readonly(struct hq_store *s, struct hq_err *e)
{
	char wal[sizeof s->path + 8], msg[512];
	struct hq_buf uri = {0};
	struct stat st;
	int rc = open_probe(s, s->path, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX);

	if (rc == SQLITE_OK)
		return 0;
	snprintf(msg, sizeof msg, "%s", s->db ? sqlite3_errmsg(s->db) :
	    "out of memory");
	sqlite3_close(s->db);
	s->db = NULL;
	if ((rc & 0xff) != SQLITE_CANTOPEN && (rc & 0xff) != SQLITE_READONLY)
		goto fail;
	snprintf(wal, sizeof wal, "%s-wal", s->path);
	if (stat(wal, &st) == 0 && st.st_size > 0) {
		hq_err_set(e, "cannot read %s here: its -wal file holds changes, "
		    "and SQLite needs a writable directory (or the -shm file) to "
		    "read them; copy the store with its -wal file somewhere "
		    "writable", s->path);
		return -1;
	}
	hq_store_uri(s->path, "immutable=1", &uri);
	rc = open_probe(s, uri.data, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI |
	    SQLITE_OPEN_NOMUTEX);
	hq_buf_free(&uri);
	if (rc == SQLITE_OK)
		return 0;
	sqlite3_close(s->db);
	s->db = NULL;
fail:
	hq_err_set(e, "cannot open %s: %s", s->path, msg);
	return -1;
}

/*
 * WAL on. A store hq made is in WAL already (create_store) and this costs
 * nothing; one made by an older hq, or by hand, may not be, and switching
 * needs the store to itself for a moment: while another process writes
 * to it SQLite gives up at once (waiting could deadlock), so wait here,
 * as long as the busy timeout would.
 */
static int
set_wal(struct hq_store *s, struct hq_err *e)
{
	struct timespec pause = { 0, 20 * 1000 * 1000 };

	for (int tries = 0;; tries++) {
		int rc = sqlite3_exec(s->db, "PRAGMA journal_mode = WAL", NULL, NULL,
		    NULL);
		if (rc == SQLITE_OK)
			return 0;
		if ((rc & 0xff) != SQLITE_BUSY || tries >= 500)
			return hq_store_sql_err(s, e, "turning on WAL");
		nanosleep(&pause, NULL);
	}
}

/* Remove what building a store at tmp may have left. */
static void
remove_tmp(const char *tmp)
{
	static const char *const ext[] = { "", "-wal", "-shm", "-journal" };
	char name[sizeof ((struct hq_store *)0)->path + 32];

	for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		snprintf(name, sizeof name, "%s%s", tmp, ext[i]);
		unlink(name);
	}
}

/* Give tmp the name path unless path exists: 0 (linked, or path was there
 * already: another process made it first), or -1 with errno. */
static int
link_new(const char *tmp, const char *path)
{
	struct stat st;

	if (link(tmp, path) == 0 || errno == EEXIST)
		return 0;
	/* A file system without hard links: rename, never over a store. */
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0 ||
	    errno == EEXIST)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	if (stat(path, &st) == 0)
		return 0;
	return rename(tmp, path);
}

/*
 * A new store is built whole under a temporary name beside it (0600, WAL,
 * every migration) and then linked to its name. A failure on the way (a
 * full disk) leaves nothing behind, and of two processes creating the
 * same store at once (two crons on a new machine) one links its store and
 * the other finds that one there and uses it: nobody ever opens, or
 * switches to WAL, a store another process is still making. Health data:
 * the file is 0600 before SQLite sees it, and its -wal and -shm files get
 * the same mode.
 */
static int
create_store(struct hq_store *s, struct hq_err *e)
{
	char tmp[sizeof s->path + 16];
	int fd, rc = -1;

	if (snprintf(tmp, sizeof tmp, "%s.new-XXXXXX", s->path) >= (int)sizeof tmp ||
	    (fd = mkostemp(tmp, O_CLOEXEC)) < 0) {
		hq_err_set(e, "cannot create %s: %s", s->path, strerror(errno));
		return -1;
	}
	close(fd);
	if (sqlite3_open_v2(tmp, &s->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		hq_err_set(e, "cannot create %s: %s", s->path,
		    s->db ? sqlite3_errmsg(s->db) : "out of memory");
		goto out;
	}
	sqlite3_extended_result_codes(s->db, 1);
	/* The schema goes in with a rollback journal, so that every byte of
	 * it is in the file itself; WAL is switched on last, and the -wal
	 * file it makes stays empty. */
	if (migrate(s, e) || hq_store_exec(s, "PRAGMA journal_mode = WAL", e)) {
		hq_err_prefix(e, "cannot create the store");
		goto out;
	}
	if (sqlite3_close(s->db) != SQLITE_OK) {
		hq_err_set(e, "cannot create %s: %s", s->path, sqlite3_errmsg(s->db));
		goto out;
	}
	s->db = NULL;
	if (link_new(tmp, s->path)) {
		hq_err_set(e, "cannot create %s: %s", s->path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (s->db)
		sqlite3_close(s->db);
	s->db = NULL;
	remove_tmp(tmp);
	return rc;
}

static void
hq_store_set_busy_timeout(struct hq_store *s, int ms)
{
	sqlite3_busy_timeout(s->db, ms);
}

struct hq_store *
hq_store_open(const char *dbpath, int flags, struct hq_err *e)
{
	struct hq_store *s = hq_xcalloc(1, sizeof *s);
	struct stat st;

	hq_store_names_init(s);
	if (hq_store_path(dbpath, s->path, sizeof s->path, e))
		goto fail;
	s->readonly = (flags & HQ_STORE_READONLY) != 0;
	if (stat(s->path, &st) != 0) {
		if (!(flags & HQ_STORE_CREATE) || s->readonly) {
			hq_err_set(e, "no store at %s: import data first with "
			    "hq-ingest, or point --db/HQ_DB at a store", s->path);
			goto fail;
		}
		if (make_parents(s->path, e) || create_store(s, e))
			goto fail;
	}
	if (s->readonly) {
		if (open_readonly(s, e))
			goto fail;
	} else if (sqlite3_open_v2(s->path, &s->db, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		hq_err_set(e, "cannot open %s: %s", s->path,
		    s->db ? sqlite3_errmsg(s->db) : "out of memory");
		goto fail;
	}
	sqlite3_extended_result_codes(s->db, 1);
	hq_store_set_busy_timeout(s, 10000);
	if (!s->readonly && (set_wal(s, e) ||
	    hq_store_exec(s, "PRAGMA synchronous = NORMAL;", e)))
		goto fail;
	if (hq_store_exec(s, "PRAGMA foreign_keys = ON;"
	    "PRAGMA cache_size = -16384;"
	    "PRAGMA temp_store = MEMORY;", e))
		goto fail;
	if (migrate(s, e))
		goto fail;
	return s;
fail:
	hq_store_close(s);
	return NULL;
}

void
hq_store_close(struct hq_store *s)
{
	if (!s)
		return;
	sqlite3_finalize(s->ins_sample);
	sqlite3_finalize(s->ins_samples);
	sqlite3_finalize(s->find_sample);
	hq_store_names_forget(s);
	if (s->db)
		sqlite3_close(s->db);
	free(s);
}

void
hq_store_set_archive(struct hq_store *s, hq_store_archive_fn *fn, void *arg)
{
	s->archive = fn;
	s->archive_arg = arg;
}

sqlite3 *
hq_store_db(struct hq_store *s)
{
	return s->db;
}

const char *
hq_store_filename(const struct hq_store *s)
{
	return s->path;
}

void
hq_store_month_bounds(int month, int64_t *a, int64_t *b)
{
	struct tm ta = { .tm_year = month / 12 - 1900, .tm_mon = month % 12, .tm_mday = 1 };
	struct tm tb = { .tm_year = (month + 1) / 12 - 1900, .tm_mon = (month + 1) % 12,
	    .tm_mday = 1 };

	*a = timegm(&ta);
	*b = timegm(&tb);
}

void
hq_store_month_name(int month, char *buf, size_t n)
{
	snprintf(buf, n, "%04d-%02d", month / 12, month % 12 + 1);
}

void
hq_store_month_list(struct hq_buf *out, const int *m, int n)
{
	char a[16], b[16];

	for (int i = 0; i < n;) {
		int j = i;
		while (j + 1 < n && m[j + 1] == m[j] + 1)
			j++;
		hq_store_month_name(m[i], a, sizeof a);
		hq_store_month_name(m[j], b, sizeof b);
		if (out->len)
			hq_buf_puts(out, ", ");
		if (j > i)
			hq_buf_printf(out, "%s..%s", a, b);
		else
			hq_buf_puts(out, a);
		i = j + 1;
	}
}

int
hq_store_has_table(struct hq_store *s, const char *schema, const char *table)
{
	return sqlite3_table_column_metadata(s->db, schema, table, NULL, NULL,
	    NULL, NULL, NULL, NULL) == SQLITE_OK;
}

int
hq_store_pruned_summed(struct hq_store *s, struct hq_err *e)
{
	sqlite3_stmt *st;
	int rc, v;

	if (!hq_store_has_table(s, "main", HQ_STORE_PRUNED_METRIC) ||
	    !hq_store_has_table(s, "main", HQ_STORE_PRUNED_ROUTE))
		return 0;
	if (hq_store_prepare(s, "SELECT EXISTS (SELECT 1 FROM main."
	    HQ_STORE_PRUNED ") AND NOT EXISTS (SELECT 1 FROM main."
	    HQ_STORE_PRUNED " AS p WHERE NOT EXISTS (SELECT 1 FROM main."
	    HQ_STORE_PRUNED_METRIC " AS m WHERE m.month = p.month))", &st, e))
		return -1;
	rc = sqlite3_step(st);
	v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return hq_store_sql_err(s, e, "reading the pruned months");
	return v;
}

int
hq_store_begin(struct hq_store *s, struct hq_err *e)
{
	int rc = sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);

	if (rc == SQLITE_OK)
		return 0;
	if ((rc & 0xff) == SQLITE_BUSY) {
		hq_err_set(e, "%s is locked by another writer (another hq-ingest?) "
		    "and stayed locked; try again when it has finished", s->path);
		return -1;
	}
	return hq_store_sql_err(s, e, "starting a transaction");
}

int
hq_store_commit(struct hq_store *s, struct hq_err *e)
{
	if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		hq_store_sql_err(s, e, "committing");
		hq_store_rollback(s);
		return -1;
	}
	return 0;
}

void
hq_store_rollback(struct hq_store *s)
{
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	/* Interned ids created inside the transaction are gone too. */
	hq_store_names_forget(s);
}

static int
savepoint(struct hq_store *s, const char *sql, const char *what,
    struct hq_err *e)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return hq_store_sql_err(s, e, what);
	return 0;
}

static void
savepoint_undo(struct hq_store *s, const char *sql)
{
	sqlite3_exec(s->db, sql, NULL, NULL, NULL);
	/* Interned ids created since are gone too. */
	hq_store_names_forget(s);
}

int
hq_store_savepoint(struct hq_store *s, struct hq_err *e)
{
	return savepoint(s, "SAVEPOINT hq_part", "starting a savepoint", e);
}

int
hq_store_savepoint_keep(struct hq_store *s, struct hq_err *e)
{
	return savepoint(s, "RELEASE hq_part", "releasing a savepoint", e);
}

void
hq_store_savepoint_undo(struct hq_store *s)
{
	savepoint_undo(s, "ROLLBACK TO hq_part; RELEASE hq_part");
}

int
hq_store_file_savepoint(struct hq_store *s, struct hq_err *e)
{
	return savepoint(s, "SAVEPOINT hq_file", "starting a savepoint", e);
}

int
hq_store_file_savepoint_keep(struct hq_store *s, struct hq_err *e)
{
	return savepoint(s, "RELEASE hq_file", "releasing a savepoint", e);
}

void
hq_store_file_savepoint_undo(struct hq_store *s)
{
	/* ROLLBACK TO cancels the savepoints made inside it too. */
	savepoint_undo(s, "ROLLBACK TO hq_file; RELEASE hq_file");
}

void
hq_store_bind(sqlite3_stmt *st, const struct hq_bind *v)
{
	int i, n = sqlite3_bind_parameter_count(st);

	for (i = 1; v->kind != HQ_BIND_END; v++, i++) {
		enum hq_bind_kind k = v->kind;
		if ((k == HQ_BIND_OPT_INT && !v->i) ||
		    (k == HQ_BIND_OPT_REAL && isnan(v->d)) ||
		    (k == HQ_BIND_OPT_TEXT && !v->s))
			sqlite3_bind_null(st, i);
		else if (k == HQ_BIND_INT || k == HQ_BIND_OPT_INT)
			sqlite3_bind_int64(st, i, v->i);
		else if (k == HQ_BIND_REAL || k == HQ_BIND_OPT_REAL)
			sqlite3_bind_double(st, i, v->d);
		else
			sqlite3_bind_text(st, i, v->s ? v->s : "", -1, SQLITE_STATIC);
	}
	/* Every parameter is bound each time: none keeps a value (or a
	 * pointer to text) from the statement's last use. */
	for (; i <= n; i++)
		sqlite3_bind_null(st, i);
}

int
hq_store_run(struct hq_store *s, sqlite3_stmt *st, const struct hq_bind *v,
    const char *what, struct hq_err *e)
{
	int rc;

	/* What a writer stores is UTF-8, whatever its reader (utf8.h). */
	for (const struct hq_bind *b = v; b->kind != HQ_BIND_END; b++)
		if ((b->kind == HQ_BIND_TEXT || b->kind == HQ_BIND_OPT_TEXT) &&
		    b->s && !hq_utf8_valid(b->s, strlen(b->s))) {
			hq_err_set(e, "%s: text that is not UTF-8", what);
			return -1;
		}
	hq_store_bind(st, v);
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return hq_store_sql_err(s, e, what);
	return 0;
}

/* The same for a query of one integer: the value, 0 when no row, -1. */
static int64_t
hq_store_query_id(struct hq_store *s, sqlite3_stmt *st,
    const struct hq_bind *v, const char *what, struct hq_err *e)
{
	int64_t id = 0;
	int rc;

	hq_store_bind(st, v);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return hq_store_sql_err(s, e, what);
	return id;
}

int64_t
hq_store_newest_export(struct hq_store *s, struct hq_err *e)
{
	sqlite3_stmt *st;
	int64_t t;

	if (hq_store_prepare(s, "SELECT coalesce(max(export_date), 0) FROM import",
	    &st, e))
		return -1;
	t = hq_store_query_id(s, st, (struct hq_bind[]){ HQ_END },
	    "reading the export date", e);
	sqlite3_finalize(st);
	return t;
}

sqlite3_stmt *
hq_store_stmt(struct hq_store *s, const struct hq_store_sql *q,
    sqlite3_stmt **st, struct hq_err *e)
{
	if (!*st && hq_store_prepare(s, q->sql, st, e))
		return NULL;
	return *st;
}

int
hq_store_run_sql(struct hq_store *s, const struct hq_store_sql *q,
    sqlite3_stmt **st, const struct hq_bind *v, struct hq_err *e)
{
	return hq_store_stmt(s, q, st, e) ? hq_store_run(s, *st, v, q->what, e) : -1;
}

int64_t
hq_store_query_sql(struct hq_store *s, const struct hq_store_sql *q,
    sqlite3_stmt **st, const struct hq_bind *v, struct hq_err *e)
{
	return hq_store_stmt(s, q, st, e) ?
	    hq_store_query_id(s, *st, v, q->what, e) : -1;
}

void
hq_store_finalize(sqlite3_stmt **st, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		sqlite3_finalize(st[i]);
		st[i] = NULL;
	}
}

/* The natural key (HACKING.md), bound first by both statements below. */
#define SAMPLE_KEY(m) HQ_INT((m)->metric_id), HQ_INT((m)->source_id), \
	HQ_INT((m)->start), HQ_INT((m)->end), HQ_REAL((m)->value), \
	HQ_TEXT((m)->text)

#define INSERT_SAMPLE "INSERT OR IGNORE INTO sample(metric_id, source_id, " \
	"start, end, value, text, unit, device_id, source_version, created, " \
	"offset_min, import_id) VALUES "
#define SAMPLE_VALUES "(?,?,?,?,?,?,?,?,?,?,?,?)"
#define SAMPLE_COLUMNS 12

static int
utf8_or_null(const char *s)
{
	return !s || hq_utf8_valid(s, strlen(s));
}

/* A sample's values bound from parameter first on: 0, or -1 with e set
 * (text that is not UTF-8: what a writer stores is UTF-8, as
 * hq_store_run() checks). */
static int
bind_sample(sqlite3_stmt *st, int first, const struct hq_sample *m,
    struct hq_err *e)
{
	int i = first;

	if (!utf8_or_null(m->text) || !utf8_or_null(m->unit) ||
	    !utf8_or_null(m->source_version)) {
		hq_err_set(e, "adding a sample: text that is not UTF-8");
		return -1;
	}

	sqlite3_bind_int64(st, i++, m->metric_id);
	sqlite3_bind_int64(st, i++, m->source_id);
	sqlite3_bind_int64(st, i++, m->start);
	sqlite3_bind_int64(st, i++, m->end);
	sqlite3_bind_double(st, i++, m->value);
	sqlite3_bind_text(st, i++, m->text ? m->text : "", -1, SQLITE_STATIC);
	if (m->unit)
		sqlite3_bind_text(st, i++, m->unit, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i++);
	if (m->device_id)
		sqlite3_bind_int64(st, i++, m->device_id);
	else
		sqlite3_bind_null(st, i++);
	if (m->source_version)
		sqlite3_bind_text(st, i++, m->source_version, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, i++);
	if (m->created)
		sqlite3_bind_int64(st, i++, m->created);
	else
		sqlite3_bind_null(st, i++);
	sqlite3_bind_int64(st, i++, m->offset_min);
	if (m->import_id)
		sqlite3_bind_int64(st, i, m->import_id);
	else
		sqlite3_bind_null(st, i);
	return 0;
}

/* Statement st (n samples' values bound): the rows inserted, or -1. */
static int
insert_samples(struct hq_store *s, sqlite3_stmt *st, struct hq_err *e)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	/* No statement keeps a pointer to the caller's text. */
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE)
		return hq_store_sql_err(s, e, "adding a sample");
	return sqlite3_changes(s->db);
}

int
hq_store_add_sample(struct hq_store *s, const struct hq_sample *m,
    struct hq_err *e)
{
	int n;

	if (!s->ins_sample && hq_store_prepare(s, INSERT_SAMPLE SAMPLE_VALUES,
	    &s->ins_sample, e))
		return -1;
	if (bind_sample(s->ins_sample, 1, m, e)) {
		sqlite3_clear_bindings(s->ins_sample);
		return -1;
	}
	n = insert_samples(s, s->ins_sample, e);
	return n < 0 ? -1 : n > 0;
}

int
hq_store_add_samples(struct hq_store *s, const struct hq_sample *m, size_t n,
    struct hq_err *e)
{
	int inserted = 0, k;

	if (!s->ins_samples && n >= HQ_STORE_SAMPLES_AT_ONCE) {
		struct hq_buf sql = { 0 };
		hq_buf_puts(&sql, INSERT_SAMPLE SAMPLE_VALUES);
		for (int i = 1; i < HQ_STORE_SAMPLES_AT_ONCE; i++)
			hq_buf_puts(&sql, "," SAMPLE_VALUES);
		k = hq_store_prepare(s, sql.data, &s->ins_samples, e);
		hq_buf_free(&sql);
		if (k)
			return -1;
	}
	for (; n >= HQ_STORE_SAMPLES_AT_ONCE; n -= HQ_STORE_SAMPLES_AT_ONCE) {
		for (int i = 0; i < HQ_STORE_SAMPLES_AT_ONCE; i++)
			if (bind_sample(s->ins_samples, 1 + i * SAMPLE_COLUMNS, m++,
			    e)) {
				sqlite3_clear_bindings(s->ins_samples);
				return -1;
			}
		if ((k = insert_samples(s, s->ins_samples, e)) < 0)
			return -1;
		inserted += k;
	}
	for (; n > 0; n--) {
		if ((k = hq_store_add_sample(s, m++, e)) < 0)
			return -1;
		inserted += k;
	}
	return inserted;
}

int64_t
hq_store_find_sample(struct hq_store *s, const struct hq_sample *m,
    struct hq_err *e)
{
	if (!s->find_sample && hq_store_prepare(s, "SELECT id FROM sample WHERE "
	    "metric_id = ?1 AND start = ?3 AND source_id = ?2 AND end = ?4 AND "
	    "value = ?5 AND text = ?6", &s->find_sample, e))
		return -1;
	return hq_store_query_id(s, s->find_sample,
	    (struct hq_bind[]){ SAMPLE_KEY(m), HQ_END }, "looking up a sample", e);
}

int64_t
hq_store_last_id(struct hq_store *s)
{
	return sqlite3_last_insert_rowid(s->db);
}
