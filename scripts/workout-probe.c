/*
 * workout-probe — a test helper: lib/query/workout.c's list and detail on a
 * store as JSON lines, so CLI tests can check workouts ingested from real
 * exports without depending on hq-query. Not installed.
 *
 *     workout-probe [--db PATH] [--type T] [--from DATE] [--to DATE]
 *                   [--min-duration MIN] [--limit N] [--offset N]
 *     workout-probe [--db PATH] ID
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hq/err.h"
#include "hq/opts.h"
#include "hq/output.h"
#include "hq/store.h"
#include "hq/time.h"
#include "hq/workout.h"

static void
usage(FILE *fp)
{
	fputs("usage: workout-probe [--db PATH] [--type T] [--from DATE] [--to DATE]\n"
	    "                     [--min-duration MIN] [--limit N] [--offset N] [ID]\n", fp);
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "type", required_argument, NULL, 't' },
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 'T' },
		{ "min-duration", required_argument, NULL, 'm' },
		{ "limit", required_argument, NULL, 'l' },
		{ "offset", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct hq_workout_filter f = { 0 };
	struct hq_store *s = NULL;
	struct hq_out *out;
	struct hq_err e;
	const char *db = NULL;
	int64_t unused;
	long id = 0, got;
	int c, status;

	hq_err_init(argv[0]);
	if (hq_time_set_zone(NULL, &e) != 0)
		hq_die(2, "%s", e.msg);
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': db = optarg; break;
		case 't': f.type = optarg; break;
		case 'f':
			if (hq_time_parse_range(optarg, time(NULL), &f.from, &unused, &e) != 0)
				hq_die(2, "--from: %s", e.msg);
			break;
		case 'T':
			if (hq_time_parse_range(optarg, time(NULL), &unused, &f.to, &e) != 0)
				hq_die(2, "--to: %s", e.msg);
			break;
		case 'm':
			if (hq_opts_parse_double(optarg, &f.min_duration) != 0)
				hq_die(2, "--min-duration: not a number '%s'", optarg);
			break;
		case 'l':
			if (hq_opts_parse_long(optarg, 0, 1000000000, &f.limit) != 0)
				hq_die(2, "--limit: not a count '%s'", optarg);
			break;
		case 'o':
			if (hq_opts_parse_long(optarg, 0, 1000000000, &f.offset) != 0)
				hq_die(2, "--offset: not a count '%s'", optarg);
			break;
		case 'h':
			usage(stdout);
			return hq_finish(0);
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc && (optind + 1 != argc ||
	    hq_opts_parse_long(argv[optind], 1, 1L << 53, &id) != 0)) {
		usage(stderr);
		return 2;
	}
	if (!(s = hq_store_open(db, HQ_STORE_READONLY, &e)))
		hq_die(2, "%s", e.msg);
	out = hq_out_new(stdout, HQ_FMT_JSONL);
	got = id ? hq_workout_detail(s, id, out, &e) : hq_workout_list(s, &f, out, &e);
	status = got < 0 ? 2 : got == 0 ? 1 : 0;
	if (hq_out_free(out) != 0)
		status = 2;
	if (got < 0)
		hq_warn("%s", e.msg);
	hq_store_close(s);
	return hq_finish(status);
}
