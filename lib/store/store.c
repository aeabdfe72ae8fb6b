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

/*
 * The interned names of one table (metric, source or device), both ways:
 * name → id for interning (a partial list, filled as names are looked
 * up), id → name for readers (the whole table, loaded once, in name order,
 * with by_id to find an id by binary search). Interning a name the list
 * lacks appends it, and the list is no longer whole: the next reverse
 * look-up loads it again. A rollback empties it (hq_store_rollback).
 */
struct names {
	const char *table, *column;
	char **name;
	int64_t *id;
	size_t n, cap, last;
	int whole;
	size_t *by_id;            /* whole: indexes of name[] in id order */
	/* Metrics: every identifier and its snake-case name, in strcasecmp
	 * order then id (hq_store_metric_find); built from a whole table. */
	struct spelling { char *key; int64_t id; } *spell;
	size_t nspell;
};

struct hq_store {
	sqlite3 *db;
	char path[4096];
	int readonly;
	sqlite3_stmt *ins_sample, *ins_samples, *find_sample;
	struct names metrics, sources, devices;
};

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

static int
sql_err(struct hq_store *s, struct hq_err *e, const char *what)
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
		return sql_err(s, e, "preparing a statement");
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
		return sql_err(s, e, "reading the schema version");
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
		/* 13 built search's index of the rows; the metrics and
		 * sources go in from C (search_index.c) */
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
			return sql_err(s, e, "turning on WAL");
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

struct hq_store *
hq_store_open(const char *dbpath, int flags, struct hq_err *e)
{
	struct hq_store *s = hq_xcalloc(1, sizeof *s);
	struct stat st;

	s->metrics = (struct names){ .table = "metric", .column = "identifier" };
	s->sources = (struct names){ .table = "source", .column = "name" };
	s->devices = (struct names){ .table = "device", .column = "descr" };
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

/* Empty the list (it keeps its table). */
static void
spell_free(struct names *c)
{
	for (size_t i = 0; i < c->nspell; i++)
		free(c->spell[i].key);
	free(c->spell);
	c->spell = NULL;
	c->nspell = 0;
}

static void
names_free(struct names *c)
{
	spell_free(c);
	for (size_t i = 0; i < c->n; i++)
		free(c->name[i]);
	free(c->name);
	free(c->id);
	free(c->by_id);
	*c = (struct names){ .table = c->table, .column = c->column };
}

void
hq_store_close(struct hq_store *s)
{
	if (!s)
		return;
	sqlite3_finalize(s->ins_sample);
	sqlite3_finalize(s->ins_samples);
	sqlite3_finalize(s->find_sample);
	names_free(&s->metrics);
	names_free(&s->sources);
	names_free(&s->devices);
	if (s->db)
		sqlite3_close(s->db);
	free(s);
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
hq_store_set_busy_timeout(struct hq_store *s, int ms)
{
	sqlite3_busy_timeout(s->db, ms);
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
	return sql_err(s, e, "starting a transaction");
}

int
hq_store_commit(struct hq_store *s, struct hq_err *e)
{
	if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		sql_err(s, e, "committing");
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
	names_free(&s->metrics);
	names_free(&s->sources);
	names_free(&s->devices);
}

static int
savepoint(struct hq_store *s, const char *sql, const char *what,
    struct hq_err *e)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sql_err(s, e, what);
	return 0;
}

static void
savepoint_undo(struct hq_store *s, const char *sql)
{
	sqlite3_exec(s->db, sql, NULL, NULL, NULL);
	/* Interned ids created since are gone too. */
	names_free(&s->metrics);
	names_free(&s->sources);
	names_free(&s->devices);
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
		return sql_err(s, e, what);
	return 0;
}

int64_t
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
		return sql_err(s, e, what);
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

static int64_t
names_find(struct names *c, const char *name)
{
	if (c->n && strcmp(c->name[c->last], name) == 0)
		return c->id[c->last];
	if (c->whole) {
		/* A whole table is in name order (names_load). */
		size_t lo = 0, hi = c->n;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			int d = strcmp(c->name[mid], name);
			if (d == 0) {
				c->last = mid;
				return c->id[mid];
			}
			if (d < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		return 0;
	}
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->name[i], name) == 0) {
			c->last = i;
			return c->id[i];
		}
	return 0;
}

static void
names_add(struct names *c, const char *name, int64_t id)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->name = hq_xrealloc(c->name, c->cap * sizeof *c->name);
		c->id = hq_xrealloc(c->id, c->cap * sizeof *c->id);
	}
	c->name[c->n] = hq_xstrdup(name);
	c->id[c->n] = id;
	c->last = c->n++;
	c->whole = 0;
	spell_free(c);
}

/* Look a name up in c's table, inserting it when create is set. */
static int64_t
intern(struct hq_store *s, struct names *c, const char *name, int create,
    struct hq_err *e)
{
	char sql[256];
	sqlite3_stmt *st;
	int64_t id = names_find(c, name);

	if (id)
		return id;
	snprintf(sql, sizeof sql, "SELECT id FROM %s WHERE %s = ?", c->table,
	    c->column);
	if (hq_store_prepare(s, sql, &st, e))
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (!id && create) {
		if (!hq_utf8_valid(name, strlen(name))) {
			hq_err_set(e, "adding a %s name: text that is not UTF-8",
			    c->table);
			return -1;
		}
		snprintf(sql, sizeof sql, "INSERT INTO %s(%s) VALUES (?)", c->table,
		    c->column);
		if (hq_store_prepare(s, sql, &st, e))
			return -1;
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		if (sqlite3_step(st) != SQLITE_DONE) {
			sqlite3_finalize(st);
			return sql_err(s, e, "adding a name");
		}
		sqlite3_finalize(st);
		id = sqlite3_last_insert_rowid(s->db);
	}
	if (id)
		names_add(c, name, id);
	return id;
}

int64_t
hq_store_metric_id(struct hq_store *s, const char *identifier, int create,
    struct hq_err *e)
{
	return intern(s, &s->metrics, identifier, create, e);
}

int64_t
hq_store_source_id(struct hq_store *s, const char *name, int create,
    struct hq_err *e)
{
	return intern(s, &s->sources, name, create, e);
}

int64_t
hq_store_device_id(struct hq_store *s, const char *descr, struct hq_err *e)
{
	return intern(s, &s->devices, descr, 1, e);
}

static const struct names *by_id_base;

static int
cmp_by_id(const void *a, const void *b)
{
	int64_t x = by_id_base->id[*(const size_t *)a];
	int64_t y = by_id_base->id[*(const size_t *)b];

	return (x > y) - (x < y);
}

/* The whole table into c, in name order (SQLite's BINARY collation, which
 * is strcmp's order). 0 or -1. */
static int
names_load(struct hq_store *s, struct names *c, struct hq_err *e)
{
	char sql[256];
	sqlite3_stmt *st;
	int rc;

	if (c->whole)
		return 0;
	snprintf(sql, sizeof sql, "SELECT id, %s FROM %s ORDER BY %s", c->column,
	    c->table, c->column);
	if (hq_store_prepare(s, sql, &st, e))
		return -1;
	names_free(c);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		names_add(c, (const char *)sqlite3_column_text(st, 1),
		    sqlite3_column_int64(st, 0));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		names_free(c);
		return sql_err(s, e, "reading names");
	}
	c->by_id = hq_xmalloc((c->n + 1) * sizeof *c->by_id);
	for (size_t i = 0; i < c->n; i++)
		c->by_id[i] = i;
	by_id_base = c;
	qsort(c->by_id, c->n, sizeof *c->by_id, cmp_by_id);
	c->whole = 1;
	return 0;
}

int
hq_store_load_names(struct hq_store *s, struct hq_err *e)
{
	if (names_load(s, &s->metrics, e) || names_load(s, &s->sources, e) ||
	    names_load(s, &s->devices, e))
		return -1;
	return 0;
}

/* The place of id in c's name order, or -1 (unknown, or not loadable). */
static ssize_t
names_index(struct hq_store *s, struct names *c, int64_t id)
{
	struct hq_err e;
	size_t lo = 0, hi;

	if (!c->whole && names_load(s, c, &e))
		return -1;
	if (c->n && c->id[c->last] == id)
		return (ssize_t)c->last;
	for (hi = c->n; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;
		int64_t x = c->id[c->by_id[mid]];
		if (x == id) {
			c->last = c->by_id[mid];
			return (ssize_t)c->last;
		}
		if (x < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static const char *
name_of(struct hq_store *s, struct names *c, int64_t id)
{
	ssize_t i = names_index(s, c, id);

	return i < 0 ? NULL : c->name[i];
}

const char *
hq_store_metric_name(struct hq_store *s, int64_t id)
{
	return name_of(s, &s->metrics, id);
}

static int
cmp_spelling(const void *a, const void *b)
{
	const struct spelling *x = a, *y = b;
	int d = strcasecmp(x->key, y->key);

	return d ? d : (x->id > y->id) - (x->id < y->id);
}

int64_t
hq_store_metric_find(struct hq_store *s, const char *name, struct hq_err *e)
{
	struct names *c = &s->metrics;
	size_t lo = 0, hi;

	if (names_load(s, c, e))
		return -1;
	if (!c->spell && c->n) {
		char snake[256];
		c->spell = hq_xmalloc(2 * c->n * sizeof *c->spell);
		for (size_t i = 0; i < c->n; i++) {
			hq_catalog_snake(c->name[i], snake, sizeof snake);
			c->spell[c->nspell++] = (struct spelling){
			    hq_xstrdup(c->name[i]), c->id[i] };
			c->spell[c->nspell++] = (struct spelling){
			    hq_xstrdup(snake), c->id[i] };
		}
		qsort(c->spell, c->nspell, sizeof *c->spell, cmp_spelling);
	}
	/* The first of the run of equal keys: the lowest id. */
	for (hi = c->nspell; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcasecmp(c->spell[mid].key, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->nspell && strcasecmp(c->spell[lo].key, name) == 0)
		return c->spell[lo].id;
	return 0;
}

const char *
hq_store_source_name(struct hq_store *s, int64_t id)
{
	return name_of(s, &s->sources, id);
}

const char *
hq_store_device_name(struct hq_store *s, int64_t id)
{
	return name_of(s, &s->devices, id);
}

ssize_t
hq_store_source_order(struct hq_store *s, int64_t id)
{
	return names_index(s, &s->sources, id);
}

const char *const *
hq_store_source_names(struct hq_store *s, size_t *n)
{
	struct hq_err e;

	if (names_load(s, &s->sources, &e)) {
		*n = 0;
		return NULL;
	}
	*n = s->sources.n;
	return (const char *const *)s->sources.name;
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
		return sql_err(s, e, "adding a sample");
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
