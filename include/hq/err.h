/*
 * err — error reporting.
 *
 * Library functions report failure by filling a caller-owned struct hq_err
 * and returning -1 (or NULL); they never print. Commands print with
 * hq_warn()/hq_die(), which prefix the program name set by hq_err_init()
 * and show control characters escaped (utf8.h): a message may echo a
 * file's content or a name, and must not act on the terminal.
 */
#ifndef HQ_ERR_H
#define HQ_ERR_H

#include <stdarg.h>

struct hq_err {
	char msg[1024];
};

void hq_err_set(struct hq_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Prefix the message already in e with "prefix: ". */
void hq_err_prefix(struct hq_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* For commands: program name for messages, SIGPIPE default, locale "C". */
void hq_err_init(const char *argv0);
const char *hq_progname(void);
void hq_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* text of several lines ('\n' between), each a hq_warn(); text is cut
 * in place. */
void hq_warn_lines(char *text);
_Noreturn void hq_die(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Flush and close stdout; on failure print why and return 2, else status. */
int hq_finish(int status);

#endif
