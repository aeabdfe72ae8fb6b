/*
 * input — a file to import as a stream of bytes, and which format it is.
 *
 * hq_input_open() opens a path ("-" is stdin), reads its first bytes and
 * sniffs its format from them; the format's reader then reads every byte
 * through hq_input_read(), those first ones again. A reader that walks an
 * archive reads each entry as an input of its own (hq_input_entry()); a
 * reader of lines reads them through struct hq_input_lines, which bounds
 * their length and counts them for messages.
 *
 * The formats are one table in input.c, a line each:
 *
 *     { "jsonl", "jsonl", "JSON lines", hq_jsonl_sniff, hq_jsonl_read },
 *
 * the format's name (stored with the import, printed in the summary), the
 * --format word that chooses it, what it is (for the error on a file that
 * is no format hq knows), a sniff function that says whether the first
 * bytes are this format's, and the reader, which hands the records to the
 * writer (ingest.h) and reports skipped records and warnings through it.
 * Sniffing takes the first format of the table that claims the bytes, so
 * specific formats stand above general ones: JSON lines claims anything
 * that starts with '{', and a FHIR bundle or DEXA JSON goes above it.
 *
 * A new format is therefore one reader file (lib/x.c, include/hq/x.h with
 * its sniff and read functions) and one line in that table; its --format
 * word also goes into hq-ingest's option table and man page.
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
struct hq_ingest;
struct hq_input_format;

struct hq_input {
	int fd;                      /* -1: none (an archive entry) */
	struct archive *ar;          /* an entry: the archive it is read from */
	const char *name;            /* for messages: the path, "-", zip:entry */
	const unsigned char *pre;    /* bytes already read, served first */
	size_t prelen, prepos;
	uint64_t bytes;              /* consumed so far (for progress) */
	uint64_t size;               /* total when known, else 0 */
	const struct hq_input_format *format;   /* what hq_input_open found */
	const char *family;          /* the --format word forced, or NULL */
	int err;                     /* errno of the last failed read */
	int close_fd;                /* hq_input_close() closes fd */
	unsigned char *prebuf;       /* the first bytes, when open read them */
};

/* Open path ("-": stdin) and sniff its format: family is a --format word
 * or NULL/"auto" for the first format that claims the first bytes; with a
 * family, the first of its formats that claims them, else its last one.
 * 0, or -1 with e set (cannot open, a directory, empty, no known format),
 * and then nothing to close. */
int hq_input_open(struct hq_input *in, const char *path, const char *family,
    struct hq_err *e);
void hq_input_close(struct hq_input *in);

/* Back to the first byte, when the descriptor can seek (a file, not a
 * pipe): 0, or -1 with errno set. The first bytes are then read again
 * from the descriptor, which a library reading it directly needs. */
int hq_input_rewind(struct hq_input *in);

/* The current entry of ar as an input named name (borrowed). */
void hq_input_entry(struct hq_input *in, struct archive *ar, const char *name);

/* read(2) over the first bytes then the descriptor or entry, retrying
 * EINTR: bytes read, 0 at the end, -1 (hq_input_strerror() says why). */
ssize_t hq_input_read(struct hq_input *in, void *buf, size_t n);
const char *hq_input_strerror(const struct hq_input *in);

/* Import the whole input with its format's reader: 0, or -1 with e set
 * (naming file:line where there is one). */
int hq_input_import(struct hq_input *in, struct hq_ingest *ig,
    struct hq_err *e);

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

/* --- the format table --------------------------------------------- */

/* 1 when the first n bytes of a file are this format's (n may be short
 * of the whole file, and 0). */
typedef int hq_input_sniff_fn(const unsigned char *p, size_t n);
typedef int hq_input_read_fn(struct hq_ingest *ig, struct hq_input *in,
    struct hq_err *e);

struct hq_input_format {
	const char *name;            /* "apple-zip" */
	const char *family;          /* the --format word: "apple" */
	const char *what;            /* "an Apple Health export (zip or XML)" */
	hq_input_sniff_fn *sniff;
	hq_input_read_fn *read;
};

/* The format the first n bytes p of a file are in, or NULL. */
const struct hq_input_format *hq_input_sniff(const unsigned char *p, size_t n);

/* For sniff functions: where the content starts, past a UTF-8 byte order
 * mark and white space. */
size_t hq_input_skip_space(const unsigned char *p, size_t n);

#endif
