#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/err.h"
#include "hq/term.h"

static const char *progname = "hq";

static void hq_err_vset(struct hq_err *e, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
static void
hq_err_vset(struct hq_err *e, const char *fmt, va_list ap)
{
	if (e)
		vsnprintf(e->msg, sizeof e->msg, fmt, ap);
}

void
hq_err_set(struct hq_err *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	hq_err_vset(e, fmt, ap);
	va_end(ap);
}

void
hq_err_prefix(struct hq_err *e, const char *fmt, ...)
{
	char head[512], old[sizeof e->msg], out[sizeof head + sizeof old + 2];
	va_list ap;

	if (!e)
		return;
	va_start(ap, fmt);
	vsnprintf(head, sizeof head, fmt, ap);
	va_end(ap);
	memcpy(old, e->msg, sizeof old);
	snprintf(out, sizeof out, "%s: %s", head, old);
	memcpy(e->msg, out, sizeof e->msg - 1);
	e->msg[sizeof e->msg - 1] = '\0';
}

void
hq_err_init(const char *argv0)
{
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;

	if (argv0)
		progname = slash ? slash + 1 : argv0;
	/* `hq-query ... | head` must end quietly. */
	signal(SIGPIPE, SIG_DFL);
}

const char *
hq_progname(void)
{
	return progname;
}

/* A message often echoes a file's content or a name from it: shown with
 * control characters escaped (term.h), it cannot act on the terminal. */
static void
vwarn(const char *fmt, va_list ap)
{
	char msg[4096];
	struct hq_buf b = {0};

	vsnprintf(msg, sizeof msg, fmt, ap);
	hq_term_escape(&b, msg, strlen(msg), 0);
	fprintf(stderr, "%s: %s\n", progname, b.data);
	hq_buf_free(&b);
}

void
hq_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
}

void
hq_die(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwarn(fmt, ap);
	va_end(ap);
	exit(status);
}

int
hq_finish(int status)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		if (errno == EPIPE)
			return status;
		fprintf(stderr, "%s: write error on standard output: %s\n",
		    progname, strerror(errno));
		return 2;
	}
	return status;
}

void
hq_warn_lines(char *text)
{
	for (char *line = text, *nl; line && *line; line = nl) {
		if ((nl = strchr(line, '\n')))
			*nl++ = '\0';
		hq_warn("%s", line);
	}
}
