/*
 * input — a file to import as a stream of bytes.
 *
 * hq_input_open() opens a path ("-" is stdin) and reads its first bytes,
 * which sniffing looks at (reader.h); a reader then reads every byte
 * through hq_input_read(), those first ones again. A reader that walks an
 * archive reads each entry as an input of its own (hq_input_entry()), or
 * through a function of its own that unpacks it (hq_input_stream(): a
 * gzip's member, a zip's entry under a bound); a reader of lines reads them through struct hq_input_lines, which bounds
 * their length and counts them for messages.
 *
 * Which format the bytes are in, and the reader that reads them, is the
 * registry's (reader.h); this layer only reads: the first bytes kept for
 * sniffing, bounded lines, a whole small file. hq_input_skip_space() is
 * for the readers' sniff functions.
 *
 * struct hq_input belongs to the caller; hq_input_close() frees what
 * hq_input_open() took (the descriptor, the buffer of first bytes).
 */
#ifndef HQ_INPUT_H
#define HQ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hq/buf.h"
#include "hq/err.h"

struct archive;

/* A stream's bytes (hq_input_stream): like read(2), -1 with *why set to
 * what went wrong (text that lives as long as arg). */
typedef ssize_t hq_input_fn(void *arg, void *buf, size_t n, const char **why);

struct hq_input {
	int fd;                      /* -1: none (an archive entry) */
	struct archive *ar;          /* an entry: the archive it is read from */
	const char *name;            /* for messages: the path, "-", zip:entry */
	const unsigned char *pre;    /* bytes already read, served first */
	size_t prelen, prepos;
	uint64_t bytes;              /* consumed so far (for progress) */
	uint64_t size;               /* total when known, else 0 */
	int err;                     /* errno of the last failed read */
	int close_fd;                /* hq_input_close() closes fd */
	unsigned char *prebuf;       /* the first bytes, when open read them */
	hq_input_fn *fn;             /* a stream: read through fn(arg) */
	void *arg;
	const char *why;             /* what fn said when it failed */
};

/* Open path ("-": stdin) and read its first bytes (up to 64 KiB, fewer
 * only at the end: in->pre, in->prelen). 0, or -1 with e set (cannot
 * open, a directory, a read error), and then nothing to close. */
int hq_input_open(struct hq_input *in, const char *path, struct hq_err *e);
void hq_input_close(struct hq_input *in);

/* Back to the first byte, when the descriptor can seek (a file, not a
 * pipe): 0, or -1 with errno set. The first bytes are then read again
 * from the descriptor, which a library reading it directly needs. */
int hq_input_rewind(struct hq_input *in);

/* The current entry of ar as an input named name (borrowed). */
void hq_input_entry(struct hq_input *in, struct archive *ar, const char *name);
/* The bytes fn(arg) gives as an input named name (borrowed). */
void hq_input_stream(struct hq_input *in, hq_input_fn *fn, void *arg,
    const char *name);

/* read(2) over the first bytes then the descriptor or entry, retrying
 * EINTR: bytes read, 0 at the end, -1 (hq_input_strerror() says why). */
ssize_t hq_input_read(struct hq_input *in, void *buf, size_t n);
const char *hq_input_strerror(const struct hq_input *in);

/*
 * Lines of an input: start, then next until it returns 0 (the end) or -1
 * (a read error, or a NUL byte: hq_text_check's rule; e set), then end. A
 * line comes without its newline in l->line (NUL-terminated); lineno is
 * its number. A line longer than max comes back empty with too_long set
 * as soon as max bytes of it are read, never waiting for a newline that
 * may not come (/dev/zero), and the lines end there (next returns 0): the
 * reader says what that means (every reader fails the file).
 */
struct hq_input_lines {
	struct hq_input *in;
	size_t max;
	long lineno;
	struct hq_buf line;
	int too_long;
	int stopped;                 /* a line was too long: no more */
	int eof;
	size_t pos, len;
	char buf[65536];
};
void hq_input_lines_start(struct hq_input_lines *l, struct hq_input *in,
    size_t max);
int hq_input_lines_next(struct hq_input_lines *l, struct hq_err *e);
void hq_input_lines_end(struct hq_input_lines *l);

/* For sniff functions: where the content starts, past a UTF-8 byte order
 * mark and white space. */
size_t hq_input_skip_space(const unsigned char *p, size_t n);

#endif
