/*
 * fit-probe — a test helper: a FIT file streamed through lib/format/fit.c in
 * pieces of 64 KiB (or -p BYTES), as an importer reads it, and a summary
 * on one line: messages, records, chained files, the error with its byte,
 * and the process's peak RSS in KiB (to show that memory does not grow
 * with the file). Not installed.
 *
 *     fit-probe [-p BYTES] FILE
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "hq/err.h"
#include "hq/fit.h"

struct count {
	long messages, records;
};

static int
count(void *arg, const struct hq_fit_msg *m, struct hq_err *e)
{
	struct count *c = arg;

	(void)e;
	c->messages++;
	c->records += m->global == HQ_FIT_RECORD;
	return 0;
}

int
main(int argc, char **argv)
{
	static unsigned char buf[1 << 16];
	struct count c = { 0, 0 };
	struct hq_fit *d;
	struct hq_err e;
	struct rusage ru;
	size_t piece = sizeof buf;
	ssize_t n;
	int fd, rc = 0, opt;
	char *end;

	hq_err_init(argv[0]);
	while ((opt = getopt(argc, argv, "p:")) != -1) {
		if (opt != 'p')
			goto usage;
		errno = 0;
		unsigned long v = strtoul(optarg, &end, 10);
		if (errno || *end || v == 0 || v > sizeof buf)
			hq_die(2, "-p: 1 to %zu bytes", sizeof buf);
		piece = v;
	}
	if (optind != argc - 1)
		goto usage;
	if ((fd = open(argv[optind], O_RDONLY)) < 0)
		hq_die(1, "%s: %s", argv[optind], strerror(errno));
	d = hq_fit_new(count, &c);
	while (rc == 0 && (n = read(fd, buf, piece)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			hq_die(1, "%s: %s", argv[optind], strerror(errno));
		}
		rc = hq_fit_feed(d, buf, (size_t)n, &e);
	}
	if (rc == 0)
		rc = hq_fit_end(d, &e);
	getrusage(RUSAGE_SELF, &ru);
	printf("messages=%ld records=%ld files=%d error_at=%lld rss_kb=%ld\n",
	    c.messages, c.records, hq_fit_files(d), hq_fit_error_offset(d),
	    ru.ru_maxrss);
	if (rc)
		hq_warn("%s: %s", argv[optind], e.msg);
	hq_fit_free(d);
	close(fd);
	return rc ? 1 : 0;
usage:
	fputs("usage: fit-probe [-p BYTES] FILE\n", stderr);
	return 2;
}
