/*
 * hq-archive — the store off the machine, encrypted, and back: init,
 * push, list, verify, restore (lib/archive/archive.c does the work; this
 * file reads the settings, the key and the credentials, and prints).
 */
#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "hq/archive.h"
#include "hq/archive_conf.h"
#include "hq/buf.h"
#include "hq/err.h"
#include "hq/opts.h"
#include "hq/remote.h"
#include "hq/seal.h"
#include "hq/segment.h"
#include "hq/start.h"
#include "hq/store.h"
#include "hq/term.h"
#include "hq/time.h"

enum {
	OPT_DB = HQ_OPT_LONG, OPT_REMOTE, OPT_ENDPOINT, OPT_REGION,
	OPT_ADDRESSING, OPT_KEY, OPT_CREDENTIALS, OPT_PASSPHRASE, OPT_ALL,
	OPT_FORMAT, OPT_KEEP, OPT_BEFORE, OPT_YES,
};

static const struct hq_opt options[] = {
	{ OPT_REMOTE, "remote", HQ_OPT_STRING, "URL", "s3://BUCKET[/PREFIX] or file:///DIR (default: [archive] remote)",
	  NULL, NULL, 0 },
	{ OPT_ENDPOINT, "endpoint", HQ_OPT_STRING, "URL", "the S3 server, https://HOST[:PORT] (default: [archive] endpoint, else AWS)",
	  NULL, NULL, 0 },
	{ OPT_REGION, "region", HQ_OPT_STRING, "REGION", "the S3 region (default: [archive] region, else us-east-1)",
	  NULL, NULL, 0 },
	{ OPT_ADDRESSING, "addressing", HQ_OPT_ENUM, "STYLE", "S3 URLs: path (HOST/BUCKET) or virtual (BUCKET.HOST)",
	  "path|virtual", NULL, 0 },
	{ OPT_KEY, "key", HQ_OPT_STRING, "FILE", "the archive key (default: [archive] key, else ~/.config/hq/archive.key)",
	  NULL, NULL, 0 },
	{ OPT_CREDENTIALS, "credentials", HQ_OPT_STRING, "FILE", "S3 keys, a 0600 file (default: ~/.config/hq/archive.credentials)",
	  NULL, NULL, 0 },
	{ OPT_PASSPHRASE, "passphrase", HQ_OPT_FLAG, NULL, "init, restore: the key from a passphrase (asked, or stdin's first line)",
	  NULL, NULL, 0 },
	{ OPT_ALL, "all", HQ_OPT_FLAG, NULL, "push: rebuild every month, even when the store looks unchanged",
	  NULL, NULL, 0 },
	{ OPT_KEEP, "keep", HQ_OPT_STRING, "SPAN", "prune: keep the raw rows of the last SPAN (1y, 18m) of months",
	  NULL, NULL, 0 },
	{ OPT_BEFORE, "before", HQ_OPT_STRING, "MONTH", "prune: the raw rows of the months before MONTH (YYYY-MM)",
	  NULL, NULL, 0 },
	{ OPT_YES, "yes", HQ_OPT_FLAG, NULL, "prune: delete; without it, only say what would go",
	  NULL, NULL, 0 },
	HQ_OPT_FORMAT(OPT_FORMAT, "list, verify: jsonl or table; default: table on a terminal, else jsonl",
	  "jsonl|table"),
	{ 'q', "quiet", HQ_OPT_FLAG, NULL, "print nothing but errors (for cron)", NULL, NULL, 0 },
	{ 'v', "verbose", HQ_OPT_FLAG, NULL, "a line per request on stderr (never a key)", NULL, NULL, 0 },
	HQ_OPT_DB(OPT_DB),
	{ 0, NULL, 0, NULL, NULL, NULL, NULL, 0 },
};

static const char *const subcommands[] = { "init", "push", "list", "verify",
	"restore", "prune", NULL };

static void
complete_operand(const struct hq_complete *c)
{
	if (c->operands == 0)
		for (int i = 0; subcommands[i]; i++)
			hq_complete_add(c, subcommands[i], NULL);
}

static void
help_more(FILE *fp)
{
	fputs("\nsubcommands:\n"
	    "  init     make the archive key (or derive it from a passphrase)\n"
	    "  push     send the months changed since the last push\n"
	    "  list     the months in the archive\n"
	    "  verify   fetch and check every month, and compare with the store\n"
	    "  restore  a new store from the archive (--db PATH)\n"
	    "  prune    delete old months' raw rows that the archive holds\n"
	    "           (--keep SPAN or --before MONTH; --yes to delete); queries\n"
	    "           read them back from the archive (hq-archive(1))\n"
	    "\nsettings: ~/.config/hq/config under [archive]: remote, endpoint,\n"
	    "region, addressing, key, credentials. S3 keys from\n"
	    "HQ_ARCHIVE_ACCESS_KEY and HQ_ARCHIVE_SECRET_KEY, else the\n"
	    "credentials file (access_key = ..., secret_key = ..., mode 0600).\n", fp);
}

static const struct hq_cmd_info cmd = {
	.name = "hq-archive",
	.synopsis = "init|push|list|verify|restore|prune [OPTION]...",
	.summary = "The store off the machine, encrypted, and back: monthly segments "
	    "sealed with a key only you hold, sent to S3-compatible storage or a "
	    "directory; only changed months; a whole store restored from them.",
	.tool_description = "The user's encrypted off-machine archive of the health "
	    "store. Use [\"list\"] to see which months are archived: rows month "
	    "(YYYY-MM, or dims for the tables not by month), rows, bytes. Use "
	    "[\"verify\"] to fetch and check every month against the store; both "
	    "only read. [\"push\"] sends the months changed since the last push "
	    "(it writes to the remote: the user is asked first).",
	.positional = "args",
	.positional_help = "The subcommand: [\"list\"], [\"push\"] or [\"verify\"].",
	.positional_required = 1,
	.writes = 1,
	.reads = "list verify",
	.opts = options,
	.complete_operand = complete_operand,
	.help_more = help_more,
};

struct settings {
	const char *dbpath;
	struct hq_archive_conf c;
	int passphrase, all, quiet, verbose, table;
};

/* A passphrase: asked on the terminal (twice when making one), else the
 * first line of stdin. */
static int
read_passphrase(char *buf, size_t n, int twice, struct hq_err *e)
{
	FILE *tty = isatty(0) ? fopen("/dev/tty", "r+") : NULL;
	struct termios old, quiet;
	char again[1024];
	int rc = -1;

	if (!tty) {
		if (!fgets(buf, (int)n, stdin)) {
			hq_err_set(e, "no passphrase on stdin");
			return -1;
		}
		buf[strcspn(buf, "\r\n")] = 0;
		goto check;
	}
	tcgetattr(fileno(tty), &old);
	quiet = old;
	quiet.c_lflag &= ~(tcflag_t)ECHO;
	tcsetattr(fileno(tty), TCSAFLUSH, &quiet);
	fputs("passphrase: ", tty);
	fflush(tty);
	if (!fgets(buf, (int)n, tty))
		buf[0] = 0;
	buf[strcspn(buf, "\r\n")] = 0;
	fputc('\n', tty);
	if (twice) {
		fputs("the same again: ", tty);
		fflush(tty);
		if (!fgets(again, sizeof again, tty))
			again[0] = 0;
		again[strcspn(again, "\r\n")] = 0;
		fputc('\n', tty);
		if (strcmp(buf, again)) {
			hq_err_set(e, "the two passphrases differ");
			goto done;
		}
	}
check:
	if (strlen(buf) < 8) {
		hq_err_set(e, "a passphrase of at least 8 characters, please");
		goto done;
	}
	rc = 0;
done:
	if (tty) {
		tcsetattr(fileno(tty), TCSAFLUSH, &old);
		fclose(tty);
	}
	sodium_memzero(again, sizeof again);
	return rc;
}

static int
key_from_passphrase(const struct hq_archive_params *p, int twice,
    unsigned char key[HQ_SEAL_KEY], struct hq_err *e)
{
	char pass[1024];
	int rc;

	if (read_passphrase(pass, sizeof pass, twice, e))
		return -1;
	rc = hq_seal_key_derive(pass, p->salt, p->ops, p->mem, key, e);
	sodium_memzero(pass, sizeof pass);
	return rc;
}

static int
make_parent(const char *file, struct hq_err *e)
{
	char *copy = hq_xstrdup(file), *slash = strrchr(copy, '/');
	int rc = 0;

	if (slash && slash != copy) {
		*slash = 0;
		rc = hq_archive_mkdir(copy, e);
	}
	free(copy);
	return rc;
}

/* The scratch directory beside path (0700), locked: one hq-archive at a
 * time per store. Its fd (held until exit), or -1. */
static int
scratch_open(const char *path, char *dir, size_t n, struct hq_err *e)
{
	char lock[4300];
	int fd;

	snprintf(dir, n, "%s.archive-tmp", path);
	if (hq_archive_mkdir(dir, e))
		return -1;
	snprintf(lock, sizeof lock, "%s/lock", dir);
	if ((fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) < 0) {
		hq_err_set(e, "%s: %s", lock, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		hq_err_set(e, "another hq-archive is at work on %s", path);
		close(fd);
		return -1;
	}
	return fd;
}

static void
print_counts(const char *what, const struct hq_archive_counts *c, double secs)
{
	printf("{\"%s\":true,\"generation\":%lld,\"segments\":%d,\"sent\":%d,"
	    "\"kept\":%d,\"deleted\":%d,\"bytes_sent\":%lld,\"bytes\":%lld,"
	    "\"rows\":%lld,\"unchanged\":%s,\"seconds\":%.3f}\n", what,
	    (long long)c->generation, c->segments, c->sent, c->kept, c->deleted,
	    (long long)c->bytes_sent, (long long)c->bytes_total, (long long)c->rows,
	    c->unchanged ? "true" : "false", secs);
}

static int
do_init(struct settings *s, struct hq_archive *a, const char *scratch,
    struct hq_err *e)
{
	struct hq_archive_params p = {0};
	struct stat st;
	int have = hq_archive_params_get(a->remote, &p, e), have_key;

	if (have < 0)
		return -1;
	have_key = stat(s->c.key, &st) == 0;
	if (have == 0) {
		/* joining an archive made elsewhere */
		if (have_key) {
			if (hq_seal_key_load(s->c.key, a->key, e) ||
			    hq_archive_check_key(&p, a->key, e))
				return -1;
		} else if (s->passphrase && p.have_kdf) {
			if (key_from_passphrase(&p, 0, a->key, e) ||
			    hq_archive_check_key(&p, a->key, e) ||
			    make_parent(s->c.key, e) || hq_seal_key_save(s->c.key, a->key, e))
				return -1;
		} else {
			hq_err_set(e, "%s already holds an archive: copy its key to %s, "
			    "or give --passphrase if a passphrase made it",
			    hq_remote_name(a->remote), s->c.key);
			return -1;
		}
		if (!s->quiet)
			fprintf(stderr, "hq-archive: %s is this archive's key\n", s->c.key);
		return 0;
	}
	if (have_key && s->passphrase) {
		hq_err_set(e, "%s exists: a passphrase would make another key "
		    "(move it away first)", s->c.key);
		return -1;
	}
	if (have_key) {
		if (hq_seal_key_load(s->c.key, a->key, e))
			return -1;
	} else if (s->passphrase) {
		p.have_kdf = 1;
		p.ops = HQ_SEAL_KDF_OPS;
		p.mem = HQ_SEAL_KDF_MEM;
		randombytes_buf(p.salt, sizeof p.salt);
		if (key_from_passphrase(&p, 1, a->key, e))
			return -1;
	} else {
		hq_seal_key_new(a->key);
	}
	hq_seal_key_check(a->key, p.check);
	if (!have_key && (make_parent(s->c.key, e) || hq_seal_key_save(s->c.key, a->key, e)))
		return -1;
	if (hq_archive_params_put(a->remote, &p, scratch, e))
		return -1;
	if (!s->quiet)
		fprintf(stderr, "hq-archive: the key is in %s%s.\n"
		    "Without it%s nothing in the archive can be read back: keep a "
		    "copy somewhere safe, off this machine.\n", s->c.key,
		    p.have_kdf ? ", made from your passphrase" : "",
		    p.have_kdf ? " or the passphrase" : "");
	return 0;
}

/* The key for a command that reads or writes the archive: the key file,
 * else (restore --passphrase) the passphrase, then saved. */
static int
load_key(struct settings *s, struct hq_archive *a, struct hq_err *e)
{
	struct hq_archive_params p;
	struct stat st;
	int have;

	if (!s->passphrase || stat(s->c.key, &st) == 0)
		return hq_archive_key(a, s->c.key, e);
	if ((have = hq_archive_params_get(a->remote, &p, e)) == 1)
		hq_err_set(e, "%s holds no archive: run hq-archive init first",
		    hq_remote_name(a->remote));
	if (have)
		return -1;
	if (!p.have_kdf) {
		hq_err_set(e, "this archive's key is a key file, not a "
		    "passphrase: copy it to %s", s->c.key);
		return -1;
	}
	if (key_from_passphrase(&p, 0, a->key, e) ||
	    hq_archive_check_key(&p, a->key, e) ||
	    make_parent(s->c.key, e) || hq_seal_key_save(s->c.key, a->key, e))
		return -1;
	return 0;
}

static void
print_segment(const struct settings *s, const struct hq_archive_entry *x,
    const char *status)
{
	char month[16];

	hq_segment_month_name(x->month, month, sizeof month);
	if (s->table)
		printf("%-8s %10lld %12lld%s%s\n", month, (long long)x->rows,
		    (long long)x->size, status ? "  " : "", status ? status : "");
	else if (status)
		printf("{\"month\":\"%s\",\"rows\":%lld,\"bytes\":%lld,\"status\":\"%s\"}\n",
		    month, (long long)x->rows, (long long)x->size, status);
	else
		printf("{\"month\":\"%s\",\"rows\":%lld,\"bytes\":%lld}\n", month,
		    (long long)x->rows, (long long)x->size);
}

static int
do_list(struct settings *s, struct hq_archive *a, const char *scratch,
    struct hq_err *e)
{
	struct hq_archive_manifest m;
	int rc = hq_archive_manifest_get(a, scratch, &m, e);

	if (rc == 1) {
		hq_err_set(e, "nothing pushed to %s yet", hq_remote_name(a->remote));
		return -1;
	}
	if (rc)
		return -1;
	if (s->table)
		printf("%-8s %10s %12s\n", "month", "rows", "bytes");
	for (size_t i = 0; i < m.n; i++)
		print_segment(s, &m.e[i], NULL);
	hq_archive_manifest_free(&m);
	return 0;
}

static int
do_verify(struct settings *s, struct hq_archive *a, const char *scratch,
    const char *store, struct hq_err *e)
{
	struct hq_archive_manifest m;
	char *seg = NULL, *local = NULL;
	struct hq_buf b = {0};
	struct stat st;
	int rc = hq_archive_manifest_get(a, scratch, &m, e), bad = 0;

	if (rc == 1) {
		hq_err_set(e, "nothing pushed to %s yet", hq_remote_name(a->remote));
		return -1;
	}
	if (rc)
		return -1;
	hq_buf_printf(&b, "%s/verify.db", scratch);
	seg = hq_buf_steal(&b);
	hq_buf_printf(&b, "%s/local.db", scratch);
	local = hq_buf_steal(&b);
	if (s->table)
		printf("%-8s %10s %12s  %s\n", "month", "rows", "bytes", "status");
	for (size_t i = 0; i < m.n; i++) {
		const struct hq_archive_entry *x = &m.e[i];
		const char *status = "ok";
		char lsha[65];
		int64_t rows;
		struct hq_err le;

		if (hq_archive_fetch(a, &m, i, scratch, seg, e)) {
			hq_warn("%s", e->msg);
			bad++;
			continue;
		}
		unlink(seg);
		if (stat(store, &st) != 0)
			status = "ok, no local store";
		else if (hq_segment_build(store, x->month, NULL, local, &rows, &le) ||
		    hq_seal_hash_file(local, lsha, &le))
			status = "ok, local store unreadable";
		else if (!strcmp(lsha, x->local))
			status = "ok, pruned from the local store";
		else if (strcmp(lsha, x->plain))
			status = rows == 0 ? "ok, not in the local store"
			    : "ok, the local store differs (push)";
		unlink(local);
		print_segment(s, x, status);
	}
	free(seg);
	free(local);
	if (bad)
		hq_err_set(e, "%d of %zu segments failed verification", bad, m.n);
	hq_archive_manifest_free(&m);
	return bad ? -1 : 0;
}

/* The first month kept: --before MONTH, or --keep SPAN back from this
 * month (1y: this month and the twelve before it stay); -1 after a usage
 * error. */
static int
prune_cut(const char *keep, const char *before)
{
	char unit = 0, end;
	int n = 0, month;
	time_t t;
	struct tm tm;

	if (!keep == !before) {
		hq_opts_usage_error(&cmd, "prune takes --keep SPAN or --before MONTH");
		return -1;
	}
	if (before) {
		if ((month = hq_segment_month_parse(before)) < 0)
			hq_opts_usage_error(&cmd, "--before takes a month, YYYY-MM, not "
			    "'%.40s'", before);
		return month;
	}
	if (sscanf(keep, "%d%c%c", &n, &unit, &end) != 2 || n < 1 || n > 1000 ||
	    (unit != 'y' && unit != 'm')) {
		hq_opts_usage_error(&cmd, "--keep takes a span, 1y or 18m (1 to 1000), "
		    "not '%.40s'", keep);
		return -1;
	}
	t = (time_t)hq_time_now();
	gmtime_r(&t, &tm);
	return (tm.tm_year + 1900) * 12 + tm.tm_mon - n * (unit == 'y' ? 12 : 1);
}

static int
do_prune(struct settings *s, struct hq_archive *a, const char *scratch, int cut,
    int yes, struct hq_err *e)
{
	struct hq_store *st = hq_store_open(s->dbpath, 0, e);
	struct hq_archive_pruning p;
	struct hq_buf names = {0};
	struct stat sb;
	long long size0 = 0, size1 = 0;
	char first[16];
	int rc = -1;

	if (!st)
		return -1;
	if (stat(hq_store_filename(st), &sb) == 0)
		size0 = sb.st_size;
	hq_segment_month_name(cut, first, sizeof first);
	if (hq_archive_prune(a, hq_store_filename(st), hq_store_db(st), scratch, cut,
	    yes, &p, e))
		goto done;
	/* the space back: VACUUM is one transaction, whole or not at all;
	 * its copy of the store in a temporary file, not in memory (the
	 * store's temp_store: 163 MB of a 10-year store's prune) */
	if (yes && p.n && hq_store_exec(st, "PRAGMA temp_store = FILE; VACUUM; "
	    "PRAGMA wal_checkpoint(TRUNCATE)", e))
		goto done_p;
	if (stat(hq_store_filename(st), &sb) == 0)
		size1 = sb.st_size;
	hq_store_month_list(&names, p.month, p.n);
	if (!s->quiet) {
		printf("{\"prune\":%s,\"before\":\"%s\",\"months\":%d,"
		    "\"already\":%d,\"rows\":%lld,\"bytes_before\":%lld,"
		    "\"bytes_after\":%lld}\n", yes ? "true" : "false", first, p.n,
		    p.already, (long long)p.rows, size0, size1);
		if (!p.n)
			fprintf(stderr, "hq-archive: no month before %s to prune\n", first);
		else if (yes)
			fprintf(stderr, "hq-archive: pruned %s: their raw samples and "
			    "route points are now only in the archive\n", names.data);
		else
			fprintf(stderr, "hq-archive: would prune %s (each checked "
			    "against the archive); nothing deleted: add --yes\n",
			    names.data);
	}
	rc = 0;
done_p:
	hq_archive_pruning_free(&p);
done:
	hq_buf_free(&names);
	hq_store_close(st);
	return rc;
}

/* What main's options chose beyond the settings: prune's --keep, --before
 * and --yes, list's and verify's --format (-1: not given). */
struct choices {
	const char *keep, *before;
	int yes, format;
};

/* The options, into s and ch; > 0 when they were read, < 0 when the run
 * ends there (--help, a usage error: p->status). */
static int
parse_options(struct hq_opts *p, struct settings *s, struct choices *ch)
{
	int id;

	while ((id = hq_opts_parse(p)) > 0)
		switch (id) {
		case 'q': s->quiet = 1; break;
		case 'v': s->verbose = 1; break;
		case OPT_DB: s->dbpath = p->arg; break;
		case OPT_REMOTE: s->c.remote = p->arg; break;
		case OPT_ENDPOINT: s->c.endpoint = p->arg; break;
		case OPT_REGION: s->c.region = p->arg; break;
		case OPT_ADDRESSING: s->c.addressing = p->choice; break;
		case OPT_KEY: s->c.key = p->arg; break;
		case OPT_CREDENTIALS: s->c.credentials = p->arg; break;
		case OPT_PASSPHRASE: s->passphrase = 1; break;
		case OPT_ALL: s->all = 1; break;
		case OPT_FORMAT: ch->format = p->choice; break;
		case OPT_KEEP: ch->keep = p->arg; break;
		case OPT_BEFORE: ch->before = p->arg; break;
		case OPT_YES: ch->yes = 1; break;
		}
	return id;
}

/* 0 when each option given goes with sub, else -1 after a usage error
 * naming the first that does not. */
static int
options_fit(const char *sub, const struct settings *s, const struct choices *ch)
{
	if ((s->passphrase && strcmp(sub, "init") && strcmp(sub, "restore")) ||
	    (s->all && strcmp(sub, "push")) ||
	    (ch->format >= 0 && strcmp(sub, "list") && strcmp(sub, "verify"))) {
		hq_opts_usage_error(&cmd, "%s does not go with %s", s->passphrase &&
		    strcmp(sub, "init") && strcmp(sub, "restore") ? "--passphrase" :
		    s->all && strcmp(sub, "push") ? "--all" : "--format", sub);
		return -1;
	}
	if ((ch->keep || ch->before || ch->yes) && strcmp(sub, "prune")) {
		hq_opts_usage_error(&cmd, "%s does not go with %s", ch->keep ?
		    "--keep" : ch->before ? "--before" : "--yes", sub);
		return -1;
	}
	return 0;
}

/* The subcommand the operand names, alone and with options that go with
 * it (prune's first month kept in *cut); NULL after a usage error. */
static const char *
subcommand_of(const struct hq_opts *p, int argc, const struct settings *s,
    const struct choices *ch, int *cut)
{
	const char *sub;
	int id;

	if (p->optind >= argc) {
		hq_opts_usage_error(&cmd, "no subcommand (init, push, list, verify, "
		    "restore or prune)");
		return NULL;
	}
	sub = p->argv[p->optind];
	for (id = 0; subcommands[id] && strcmp(subcommands[id], sub); id++)
		;
	if (!subcommands[id]) {
		hq_opts_usage_error(&cmd, "unknown subcommand '%.100s' (init, push, "
		    "list, verify, restore or prune)", sub);
		return NULL;
	}
	if (p->optind + 1 < argc) {
		hq_opts_usage_error(&cmd, "%s takes no operand ('%.100s')", sub,
		    p->argv[p->optind + 1]);
		return NULL;
	}
	if (options_fit(sub, s, ch))
		return NULL;
	if (!strcmp(sub, "prune") && (*cut = prune_cut(ch->keep, ch->before)) < 0)
		return NULL;
	return sub;
}

/* The archive made ready: sodium, the configuration, the remote (into
 * *remote, for the caller to free), the store's path and its scratch
 * directory, locked. The lock's descriptor, or < 0 after saying why. */
static int
open_archive(struct settings *s, struct hq_start *start, struct hq_archive *a,
    struct hq_remote **remote, char *store, size_t nstore, char *scratch,
    size_t nscratch)
{
	struct hq_err e;
	int lock;

	if (hq_seal_init(&e)) {
		hq_warn("%s", e.msg);
		return -1;
	}
	if (hq_start_config(start))
		return -1;
	if (hq_archive_conf_load(&s->c, start->cfg, &e) ||
	    !(*remote = hq_archive_conf_remote(&s->c, s->verbose ? stderr : NULL,
	    &e))) {
		hq_warn("%s", e.msg);
		return -1;
	}
	a->remote = *remote;
	a->state = s->c.state;
	a->progress = !s->quiet && isatty(2) ? stderr : NULL;
	if (hq_store_path(s->dbpath, store, nstore, &e) ||
	    make_parent(store, &e) ||
	    (lock = scratch_open(store, scratch, nscratch, &e)) < 0) {
		hq_warn("%s", e.msg);
		return -1;
	}
	return lock;
}

/* push: the store's months sealed and sent; the counts said unless -q. */
static int
do_push(struct settings *s, struct hq_archive *a, const char *scratch,
    double t0, struct hq_err *e)
{
	struct hq_archive_counts counts;
	struct hq_store *st = hq_store_open(s->dbpath, HQ_STORE_READONLY, e);
	int rc = -1;

	if (st) {
		rc = hq_archive_push(a, hq_store_filename(st), hq_store_db(st),
		    scratch, s->all, &counts, e);
		hq_store_close(st);
	}
	if (rc == 0 && !s->quiet)
		print_counts("push", &counts, hq_time_monotonic() - t0);
	return rc;
}

/* restore: the store rebuilt from the archive; the counts said unless -q. */
static int
do_restore(struct settings *s, struct hq_archive *a, const char *store,
    const char *scratch, double t0, struct hq_err *e)
{
	struct hq_archive_counts counts;
	int rc = hq_archive_restore(a, store, scratch, &counts, e);

	if (rc == 0 && !s->quiet)
		print_counts("restore", &counts, hq_time_monotonic() - t0);
	return rc;
}

/* The subcommand run (each but init with the key loaded first); 0, or -1
 * with e set. */
static int
run_subcommand(const char *sub, struct settings *s, struct hq_archive *a,
    const char *store, const char *scratch, int cut, int yes, double t0,
    struct hq_err *e)
{
	int rc;

	if (!strcmp(sub, "init"))
		return do_init(s, a, scratch, e);
	if ((rc = load_key(s, a, e)) != 0)
		return rc;
	if (!strcmp(sub, "push"))
		return do_push(s, a, scratch, t0, e);
	if (!strcmp(sub, "list"))
		return do_list(s, a, scratch, e);
	if (!strcmp(sub, "verify"))
		return do_verify(s, a, scratch, store, e);
	if (!strcmp(sub, "prune"))
		return do_prune(s, a, scratch, cut, yes, e);
	return do_restore(s, a, store, scratch, t0, e);
}

/* The scratch directory's lock let go and the directory removed (when
 * empty). */
static void
release_scratch(int lock, const char *scratch)
{
	char path[4400];

	snprintf(path, sizeof path, "%s/lock", scratch);
	unlink(path);
	rmdir(scratch);
	close(lock);
}

int
main(int argc, char **argv)
{
	struct settings s = { .c.addressing = -1 };
	struct choices ch = { .format = -1 };
	int cut = -1;
	struct hq_start start;
	struct hq_remote *remote = NULL;
	struct hq_archive a = {0};
	struct hq_opts p;
	struct hq_err e;
	char store[4096], scratch[4200];
	const char *sub;
	int status = 2, lock = -1;
	double t0 = hq_time_monotonic();

	hq_err_init(argv[0]);
	hq_start_init(&start);
	hq_opts_init(&p, &cmd, argc, argv);
	if (parse_options(&p, &s, &ch) < 0) {
		status = p.status;
		goto done;
	}
	if (!(sub = subcommand_of(&p, argc, &s, &ch, &cut)))
		goto done;
	s.table = ch.format >= 0 ? ch.format == 1 : isatty(1);
	status = 1;
	start.quiet = s.quiet;
	if ((lock = open_archive(&s, &start, &a, &remote, store, sizeof store,
	    scratch, sizeof scratch)) < 0)
		goto done;
	if (run_subcommand(sub, &s, &a, store, scratch, cut, ch.yes, t0, &e)) {
		hq_warn("%s", e.msg);
		goto done;
	}
	status = 0;
done:
	if (lock >= 0)
		release_scratch(lock, scratch);
	hq_archive_done(&a);
	hq_remote_free(remote);
	hq_start_end(&start);
	return hq_finish(status);
}
