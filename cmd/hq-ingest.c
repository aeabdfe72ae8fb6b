/*
 * hq-ingest — Apple Health exports and JSON lines into the store, each
 * file whole or not at all, nothing twice.
 */
#include <locale.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hq/archive_cache.h"
#include "hq/athlete_load.h"
#include "hq/buf.h"
#include "hq/err.h"
#include "hq/cgmfile.h"
#include "hq/ingest.h"
#include "hq/opts.h"
#include "hq/plan.h"
#include "hq/planfile.h"
#include "hq/reader.h"
#include "hq/start.h"
#include "hq/store.h"
#include "hq/term.h"
#include "hq/time.h"
#include "hq/zone.h"

enum { OPT_DB = HQ_OPT_LONG, OPT_FORMAT, OPT_TZ, OPT_WAIT, OPT_DATE_ORDER,
    OPT_STRICT, OPT_PLAN };

static const struct hq_opt options[] = {
	{ 'q', "quiet", HQ_OPT_FLAG, NULL, "print nothing but errors (no progress, no warnings)", NULL, NULL, 1 },
	HQ_OPT_DB(OPT_DB),
	{ OPT_FORMAT, "format", HQ_OPT_ENUM, "F", "input format: auto (the default: sniffed from content), apple, fit, tcx, gpx, dexcom, libre, jsonl, labs, fhir or dexa", "auto|apple|fit|tcx|gpx|dexcom|libre|jsonl|labs|fhir|dexa", NULL, 1 },
	HQ_OPT_TZ(OPT_TZ, 1),
	{ OPT_DATE_ORDER, "date-order", HQ_OPT_ENUM, "ORDER", "LibreView dates no date in the file settles: dmy (day first) or mdy (default auto)", "auto|dmy|mdy",
	  "How to read a LibreView file's dates when none of them settles it (no day above 12): dmy or mdy. Only after hq-ingest said the dates are ambiguous.", 1 },
	{ OPT_STRICT, "strict", HQ_OPT_FLAG, NULL, "refuse a file that ends early (a FIT file whose device died) instead of importing its complete records", NULL, NULL, 1 },
	{ OPT_PLAN, "plan", HQ_OPT_FLAG, NULL, "the files are training plans (CSV or JSON lines: date, type, duration_min, load or if, title)", NULL,
	  "The files are training plans, not data: CSV under a header date,type,duration_min,load[,title] (or if instead of load: load = hours x if^2 x 100), or JSON lines with those keys; one workout a day. A newer plan replaces the planned days from its first day to its last. Read back with hq-report plan and hq-report load --to a future day.", 1 },
	{ OPT_WAIT, "wait", HQ_OPT_INT, "SECONDS", "how long to wait for another writer to finish (default 600)", "0..604800", NULL, 0 },
	{ 0, NULL, 0, NULL, NULL, NULL, NULL, 0 },
};

static const struct hq_cmd_info cmd = {
	.name = "hq-ingest",
	.synopsis = "[-q] [--db PATH] [--format F] [--tz ZONE] "
	    "[--date-order auto|dmy|mdy] [--strict] [--wait SECONDS] FILE... | "
	    "--plan FILE...",
	.summary = "Import Apple Health exports (export.zip, export.xml), "
	    "workout files from devices (FIT, TCX, GPX), CGM "
	    "files (Dexcom Clarity, LibreView CSV), lab results (CSV, JSON lines, "
	    "FHIR), DEXA scans (JSON, CSV) and JSON lines into the store; each "
	    "file whole or not at all, nothing twice.",
	.tool_description = "Import health data files into the hq store: an Apple "
	    "Health export.zip or export.xml (with its clinical records' lab "
	    "results), a FIT, TCX or GPX workout file from a device (Garmin, "
	    "Wahoo, Coros, Zwift...: workouts, heart rate, power, routes), "
	    "a Dexcom Clarity or LibreView CSV export of CGM glucose, "
	    "lab results (CSV date,test,value,unit,ref_low,ref_high; JSON lines; "
	    "FHIR Bundle or Observation), DEXA scans (JSON or CSV "
	    "date,field,value,unit) or JSON lines "
	    "{\"metric\",\"start\",\"end\",\"value\",\"unit\",\"source\"}. Safe to "
	    "re-run: what is already stored is skipped. Prints one JSON summary "
	    "per file (records, inserted, duplicates, skipped). With plan true "
	    "the files are training plans (CSV date,type,duration_min,load or "
	    "if,title; or JSON lines), a newer plan replacing the days it covers.",
	.positional = "files",
	.positional_help = "paths of the files to import ('-' for stdin)",
	.positional_required = 1,
	.writes = 1,
	.opts = options,
};

static int quiet, plans;
static long partial;        /* files kept in part (hq_ingest_partial) */
/* Nobody chose the zone (the machine's is taken): a device file stating
 * another local time is said once. */
static int zone_guessed, zone_said;
static long wait_seconds = 600;
/* In the order of --format's choices. */
static const char *opt_format = "auto";	/* a family of hq_reader_open() */

/* Progress and waiting messages go to a terminal only. */
static int show_progress;
static char progress_name[256];   /* the file, escaped for a terminal */
static double progress_t0;

/* One redraw of the progress line, in place: it fits the terminal less
 * its last column (a line that reaches it wraps on some terminals, and
 * every redraw would then scroll). What does not fit goes, least useful
 * first: the time left, the rate, the megabytes; the name is shortened to
 * the file's own name, then cut. */
static void
progress(void *arg, const struct hq_input *src, const struct hq_ingest_counts *c)
{
	double dt = hq_time_monotonic() - progress_t0, mb = (double)src->bytes / 1e6;
	size_t avail = (size_t)hq_term_width(STDERR_FILENO) - 1, tail = 0, rest;
	size_t inner = 0, keep = 4, namecols, basecols;
	char piece[4][48] = { "", "", "", "" }, name[512], bar[40];
	const char *shown = progress_name, *slash = strrchr(progress_name, '/');
	int pct = 0;

	(void)arg;
	if (src->size) {
		pct = (int)(100.0 * (double)src->bytes / (double)src->size);
		pct = pct < 0 ? 0 : pct > 100 ? 100 : pct;
		snprintf(piece[0], sizeof piece[0], " %3d%%", pct);
		snprintf(piece[1], sizeof piece[1], " %.1f/%.1f MB", mb,
		    (double)src->size / 1e6);
	} else
		snprintf(piece[1], sizeof piece[1], " %.1f MB", mb);
	snprintf(piece[2], sizeof piece[2], " %.0f records/s",
	    dt > 0 ? (double)c->records / dt : 0);
	if (src->size && src->bytes && src->bytes < src->size && dt > 0.5) {
		double left = dt * (double)(src->size - src->bytes) / (double)src->bytes;
		snprintf(piece[3], sizeof piece[3], " ETA %d:%02d", (int)left / 60,
		    (int)left % 60);
	}
	/* drop pieces until the file's own name (up to 16 columns of it) and
	 * a bar of ten fit */
	basecols = hq_term_cols(slash && slash[1] ? slash + 1 : progress_name);
	basecols = basecols < 16 ? basecols : 16;
	for (;;) {
		tail = 0;
		for (size_t i = 0; i < keep; i++)
			tail += strlen(piece[i]);
		if (keep == 1 || tail + basecols + 1 + (src->size ? 13 : 0) <= avail)
			break;
		keep--;
	}
	rest = avail > tail ? avail - tail : 0;
	namecols = hq_term_cols(shown);
	if (src->size) {
		inner = rest > namecols + 3 ? rest - namecols - 3 : 0;
		inner = inner < 10 ? 10 : inner > 30 ? 30 : inner;
		rest = rest > inner + 3 ? rest - inner - 3 : 0;
	}
	if (namecols > rest && slash && slash[1])
		shown = slash + 1;
	hq_term_fit(name, sizeof name, shown, rest);
	if (src->size && inner <= sizeof bar - 1) {
		size_t full = inner * (size_t)pct / 100;
		memset(bar, '#', full);
		memset(bar + full, ' ', inner - full);
		bar[inner] = '\0';
	}
	fprintf(stderr, "\r%s%s%s%s", name, src->size ? " [" : "", src->size ? bar : "",
	    src->size ? "]" : "");
	for (size_t i = 0; i < keep; i++)
		fputs(piece[i], stderr);
	fputs("\033[K", stderr);
	fflush(stderr);
}

static void
progress_done(void)
{
	if (show_progress)
		fputs("\r\033[K", stderr);
}

static void
warn_line(void *arg, const char *msg)
{
	long *n = arg;

	if (quiet)
		return;
	if (++*n <= 10) {
		progress_done();
		hq_warn("%s", msg);
	} else if (*n == 11)
		hq_warn("more bad records; the summary line counts them as skipped");
}

/* Another hq-ingest holds the write lock: wait for it, up to --wait. */
static double busy_t0;
static int
busy_handler(void *arg, int count)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 };

	(void)arg;
	if (count == 0) {
		busy_t0 = hq_time_monotonic();
		if (!quiet && isatty(2))
			fprintf(stderr, "%s: waiting for another hq-ingest to finish "
			    "(up to %lds)\n", hq_progname(), wait_seconds);
	}
	if (hq_time_monotonic() - busy_t0 >= (double)wait_seconds)
		return 0;
	nanosleep(&ts, NULL);
	return 1;
}

/*
 * The files are imported in batches: one transaction for the files read
 * in about BATCH_SECONDS, each file in a savepoint of its own, so a bad
 * file is still refused whole (and the others kept), while the work that
 * follows a commit (the rollups, the same activity, the catalog, SQLite's
 * checkpoint) is done once a batch instead of once a file. A quarter of a
 * second is about 20 rides of an hour; much longer batches outgrow
 * SQLite's page cache (16 MB), spill pages to the WAL before the commit
 * and were slower (HACKING.md). A file's summary line is printed when its
 * batch has committed: a line printed is a file in the store.
 */
#define BATCH_SECONDS 0.25

struct batch {
	struct hq_ingest_batch *b;
	double t0;
	struct hq_buf lines;        /* the summaries of the files kept */
	const char **kept;          /* their names */
	int nkept;
	sqlite3 *db;
};

static void
summary(struct hq_buf *out, const char *name, const char *format,
    const struct hq_ingest_counts *c, double secs)
{
	struct hq_buf b = { 0 };

	hq_buf_puts(&b, "{\"file\":");
	hq_buf_json_str(&b, name);
	hq_buf_puts(&b, ",\"format\":");
	hq_buf_json_str(&b, format);
	hq_buf_printf(&b, ",\"records\":%ld,\"inserted\":%ld,\"duplicates\":%ld,"
	    "\"skipped\":%ld,\"workouts\":%ld,\"workouts_inserted\":%ld,"
	    "\"correlations\":%ld,\"activity_summaries\":%ld,"
	    "\"clinical_records\":%ld,\"routes\":%ld,\"route_points\":%ld,"
	    "\"lab_results\":%ld,\"dexa_fields\":%ld,"
	    "\"control_chars\":%ld,\"units_unconverted\":%ld,\"seconds\":%.3f}\n",
	    c->records, c->inserted, c->duplicates, c->skipped, c->workouts,
	    c->workouts_inserted, c->correlations, c->summaries, c->clinical,
	    c->routes, c->route_points, c->lab_results, c->dexa_fields,
	    c->control_chars, c->units_unconverted, secs);
	hq_buf_puts(out, b.data);
	hq_buf_free(&b);
}

/* Commit the batch open (if any): the files kept in it are in the store,
 * their summaries printed; or none of them is, each said. The number of
 * files that failed so. */
static int
batch_end(struct batch *bt, struct hq_err *e)
{
	int failed = 0;

	if (!bt->b)
		return 0;
	if (!bt->nkept)        /* nothing kept: the store as it was */
		hq_ingest_batch_abort(bt->b);
	else if (hq_ingest_batch_commit(bt->b, e) == 0) {
		if (bt->lines.len)
			fputs(bt->lines.data, stdout);
		fflush(stdout);
		/* The WAL into the store once the lines are out (not inside
		 * the commit, where SQLite would: a kill -9 there would leave
		 * files in the store unprinted). */
		sqlite3_wal_checkpoint_v2(bt->db, NULL,
		    SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
	} else
		for (int i = 0; i < bt->nkept; i++, failed++)
			hq_warn("%s: %s (nothing from this file was imported)",
			    bt->kept[i], e->msg);
	bt->b = NULL;
	bt->nkept = 0;
	hq_buf_reset(&bt->lines);
	return failed;
}

/* Import one file in the batch bt (begun if none is open), in a savepoint
 * of its own. 0, or -1 with e set. */
static int
ingest_file(struct hq_store *store, struct batch *bt, const char *path,
    const struct hq_read_opts *ro, struct hq_err *e)
{
	const struct hq_reader *rd;
	struct hq_input in;
	struct hq_ingest *ig;
	struct hq_ingest_counts c;
	double t0 = hq_time_monotonic();
	long warnings = 0;
	char format[32];
	int rc;

	if (!(rd = hq_reader_open(&in, path, opt_format, e)))
		return -1;
	if (!bt->b && (bt->b = hq_ingest_batch_begin(store, e)))
		bt->t0 = t0;
	ig = bt->b ? hq_ingest_start_in(bt->b, path, rd->name,
	    in.size ? (int64_t)in.size : -1, e) : NULL;
	if (!ig) {
		hq_input_close(&in);
		return -1;
	}
	hq_ingest_set_warn(ig, warn_line, &warnings);
	if (show_progress) {
		hq_term_escape_to(progress_name, sizeof progress_name, path);
		progress_t0 = t0;
		hq_ingest_set_progress(ig, progress, NULL);
	}
	rc = rd->read(&in, ro, ig, e);
	/* Whatever the file, clinical records not read yet become lab
	 * results now (an export's own, or an older store's). */
	if (rc == 0)
		rc = hq_ingest_clinical_reports(ig, e);
	/* The whole file once at its final rate, however short the import
	 * was, before the line is cleared for the summary: 100% (a zip whose
	 * entries were read again counted its bytes from 0 again). */
	if (show_progress && rc == 0) {
		in.bytes = in.size ? in.size : in.bytes;
		progress(NULL, &in, hq_ingest_counts(ig));
	}
	progress_done();
	c = *hq_ingest_counts(ig);
	snprintf(format, sizeof format, "%s", hq_ingest_format(ig) ?
	    hq_ingest_format(ig) : rd->name);
	if (rc == 0)
		rc = hq_ingest_commit(ig, e);
	else
		hq_ingest_abort(ig);
	if (rc == 0 && zone_guessed && !zone_said && !quiet &&
	    c.offset_differs) {
		char note[2048];
		zone_said = 1;
		hq_zone_offset_note(path, c.stated_offset_min, c.zone_offset_min,
		    note, sizeof note);
		hq_warn_lines(note);
	}
	if (rc == 0) {
		partial += c.partial;
		summary(&bt->lines, path, format, &c,
		    hq_time_monotonic() - t0);
		bt->kept[bt->nkept++] = path;
	}
	hq_input_close(&in);
	return rc;
}

/* The files to import: at least one, and stdin at most once. */
static int
check_operands(int n, char **files)
{
	int nstdin = 0;

	if (n == 0) {
		hq_opts_usage_error(&cmd, "no files to import ('-' reads stdin)");
		return -1;
	}
	for (int i = 0; i < n; i++)
		nstdin += strcmp(files[i], "-") == 0;
	if (nstdin > 1) {
		hq_opts_usage_error(&cmd, "'-' (stdin) can be given only once");
		return -1;
	}
	return 0;
}

/* The options: the index of the first operand, or -1 with *status set
 * (0 after --help and the like, 2 after a usage error). */
static int
parse_cli(int argc, char **argv, const char **dbpath, const char **tz,
    struct hq_read_opts *ro, int *status)
{
	struct hq_opts p;
	int id;

	hq_opts_init(&p, &cmd, argc, argv);
	while ((id = hq_opts_parse(&p)) > 0)
		switch (id) {
		case 'q': quiet = 1; break;
		case OPT_DB: *dbpath = p.arg; break;
		case OPT_FORMAT: opt_format = p.arg; break;
		case OPT_TZ: *tz = p.arg; break;
		case OPT_WAIT: wait_seconds = p.num; break;
		case OPT_STRICT: ro->strict = 1; break;
		case OPT_PLAN: plans = 1; break;
		case OPT_DATE_ORDER:
			hq_cgmfile_parse_date_order(p.arg, &ro->date_order);
			break;
		}
	*status = p.status;
	return id < 0 ? -1 : p.optind;
}

/* Every file in batches (batch_end commits one): *ok files imported,
 * *failed not. */
static void
import_all(struct hq_store *store, struct batch *bt, int n, char **files,
    const struct hq_read_opts *ro, int *ok, int *failed)
{
	struct hq_err e;

	for (int i = 0; i < n; i++) {
		int end, f;
		/* stdin may wait long: the files before it committed first */
		if (strcmp(files[i], "-") == 0) {
			f = batch_end(bt, &e);
			*ok -= f;
			*failed += f;
		}
		/* After a file that failed too: an error may have ended the
		 * transaction (batch_end then says which files it took). */
		end = i + 1 == n || strcmp(files[i], "-") == 0;
		if (ingest_file(store, bt, files[i], ro, &e) == 0)
			(*ok)++;
		else {
			(*failed)++;
			end = 1;
			hq_warn("%s (nothing from this file was imported)", e.msg);
		}
		if (end || hq_time_monotonic() - bt->t0 >= BATCH_SECONDS) {
			f = batch_end(bt, &e);
			*ok -= f;
			*failed += f;
		}
	}
}

/* The training figures of the workouts imported (or whose kept figures
 * an import dropped) computed and kept now, in a transaction of their own
 * once the imports have committed, so that hq-report and hq-query read no
 * samples for them. Best effort: the import stands whatever happens here
 * (its lines, its status); what is not kept is computed at its first use.
 * Through a connection of its own (*store, the import's, closed first and
 * its memory given back), and a long workout's arrays mapped apart
 * (glibc's threshold had grown past them) so that they leave no holes: a
 * ride of 300,000 s (tests/cli/1013) peaks at 51 MB, 48 without the fill,
 * 58 on the import's connection, 158 on a new one without these. */
static void
keep_figures(struct hq_start *st)
{
	struct hq_err e;

	hq_store_close(st->store);
#ifdef __GLIBC__
	mallopt(M_MMAP_THRESHOLD, 256 * 1024);
	malloc_trim(0);
#endif
	/* A pruned store's connection reads through the archive (hybrid.h):
	 * a workout of a pruned month whose figures an import dropped (a
	 * late recording of it) is figured from its archived samples, which
	 * are fetched then, and only then. */
	if (!(st->store = hq_store_open(st->db, HQ_STORE_READONLY, &e)) ||
	    hq_archive_hybrid(hq_store_db(st->store), st->cfg, INT64_MIN,
	    INT64_MAX, 0, &st->hybrid, &e) < 0 ||
	    hq_athlete_keep_figures(st->store, &e) < 0) {
		if (!quiet)
			hq_warn("%s (computed at their first use instead)", e.msg);
	}
}

/* --plan: every file read and checked, then all written in one
 * transaction (a later file replaces the days it covers of an earlier
 * one), a JSON line each. 0, or 2 with nothing written. */
static int
import_plans(struct hq_start *st, int n, char **files)
{
	struct hq_plan_day **d = hq_xcalloc((size_t)n, sizeof *d);
	size_t *nd = hq_xcalloc((size_t)n, sizeof *nd);
	long *replaced = hq_xcalloc((size_t)n, sizeof *replaced);
	struct hq_store *store;
	struct hq_err e;
	int status = 2, i;

	for (i = 0; i < n; i++)
		if (hq_planfile_read(files[i], &d[i], &nd[i], &e)) {
			hq_warn("%s (nothing was imported)", e.msg);
			goto out;
		}
	if (hq_start_store(st, &status))
		goto out;
	store = st->store;
	sqlite3_busy_handler(hq_store_db(store), busy_handler, NULL);
	if (hq_store_begin(store, &e)) {
		hq_warn("%s", e.msg);
		goto out;
	}
	for (i = 0; i < n; i++)
		if (hq_plan_put(store, d[i], nd[i], &replaced[i], &e)) {
			hq_store_rollback(store);
			hq_warn("%s: %s (nothing was imported)", files[i], e.msg);
			goto out;
		}
	if (hq_store_commit(store, &e)) {
		hq_warn("%s (nothing was imported)", e.msg);
		goto out;
	}
	for (i = 0; i < n && !quiet; i++) {
		struct hq_buf b = { 0 };
		char a[16], z[16];
		hq_time_format_day(d[i][0].day, a, sizeof a);
		hq_time_format_day(d[i][nd[i] - 1].day, z, sizeof z);
		hq_buf_puts(&b, "{\"file\":");
		hq_buf_json_str(&b, files[i]);
		hq_buf_printf(&b, ",\"format\":\"plan\",\"days\":%zu,\"from\":\"%s\","
		    "\"to\":\"%s\",\"replaced\":%ld}\n", nd[i], a, z, replaced[i]);
		fputs(b.data, stdout);
		hq_buf_free(&b);
	}
	status = 0;
out:
	for (i = 0; i < n; i++)
		free(d[i]);
	free(d);
	free(nd);
	free(replaced);
	return status;
}

int
main(int argc, char **argv)
{
	struct hq_start st;
	struct hq_err e;
	int first, status = 2, ok = 0, failed = 0;
	struct hq_read_opts ro = { .date_order = HQ_DATES_AUTO };
	struct batch bt = { 0 };

	hq_err_init(argv[0]);
	hq_start_init(&st);
	st.write = 1;
	/* Zip entry names are UTF-8 (导出.xml); libarchive converts them to
	 * the locale's charset, so the locale must be able to hold them. */
	if (!setlocale(LC_CTYPE, "C.UTF-8"))
		setlocale(LC_CTYPE, "");
	if ((first = parse_cli(argc, argv, &st.db, &st.tz, &ro, &status)) < 0)
		goto done;
	status = 2;
	argc -= first;
	argv += first;
	st.quiet = quiet;
	if (check_operands(argc, argv))
		goto done;
	if (plans) {
		status = import_plans(&st, argc, argv);
		goto done;
	}
	/* The --format word given, for readers of archives (devicezip.h). */
	ro.family = strcmp(opt_format, "auto") != 0 ? opt_format : NULL;
	show_progress = !quiet && isatty(2);
	if (hq_start_write(&st))
		goto done;
	zone_guessed = st.zone.from == HQ_ZONE_SYSTEM;
	sqlite3_busy_handler(hq_store_db(st.store), busy_handler, NULL);
	/* New samples in a pruned month: their hours are totalled with the
	 * archived samples, read back into the cache (hq-archive(1)). */
	hq_store_set_archive(st.store, hq_archive_cache_months, st.cfg);
	/* Every id an import writes comes from the importer's own look-up or
	 * insert in the same transaction, so the foreign keys' parent look-ups
	 * (four B-tree searches per sample) only repeat what is known: -9.2%
	 * instructions on a 20 MB export (HACKING.md). Other commands keep
	 * them; tests check foreign_key_check stays empty after imports. */
	if (hq_store_exec(st.store, "PRAGMA foreign_keys = OFF;"
	    "PRAGMA wal_autocheckpoint = 0", &e)) {
		hq_warn("%s", e.msg);
		goto done;
	}
	bt.kept = hq_xcalloc((size_t)argc, sizeof *bt.kept);
	bt.db = hq_store_db(st.store);
	import_all(st.store, &bt, argc, argv, &ro, &ok, &failed);
	free(bt.kept);
	hq_buf_free(&bt.lines);
	/* A file kept in part (a FIT file that ends early) is a partial
	 * import, as a file that failed among others. */
	status = failed == 0 ? (partial ? 1 : 0) : ok > 0 ? 1 : 2;
	if (ok > 0)
		keep_figures(&st);
done:
	hq_start_end(&st);
	return hq_finish(status);
}
