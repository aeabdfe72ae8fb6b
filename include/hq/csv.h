/*
 * csv — records from a CSV byte stream, within bounds.
 *
 * Reads what spreadsheet programs and device portals write: an optional
 * UTF-8 byte order mark, fields separated by ',' or ';' (decided from the
 * first record unless the caller says), double-quoted fields with "" for a
 * quote and line breaks inside, CRLF, LF or CR line ends. Blank lines are
 * skipped. A record longer than HQ_CSV_MAX_RECORD bytes or with more than
 * HQ_CSV_MAX_FIELDS fields, a NUL byte, an unclosed quote or text after a
 * closing quote is an error naming name:line (the line the record starts
 * on), never a crash or unbounded memory.
 *
 * The bytes come from a read function (read(2)-like), so a file, a pipe or
 * memory can feed it. struct hq_csv is opaque: hq_csv_new() and
 * hq_csv_free(); the fields of the current record belong to it and change
 * on the next hq_csv_next().
 */
#ifndef HQ_CSV_H
#define HQ_CSV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hq/err.h"

#define HQ_CSV_MAX_RECORD 65536
#define HQ_CSV_MAX_FIELDS 512

/* Bytes read into buf (at most n), 0 at the end, -1 with errno set. */
typedef ssize_t hq_csv_read_fn(void *arg, void *buf, size_t n);

struct hq_csv;

/* sep is ',' or ';', or 0 to take whichever of the two the first record
 * holds more of outside quotes (',' on a tie). name is borrowed for
 * messages. */
struct hq_csv *hq_csv_new(const char *name, hq_csv_read_fn *read, void *arg,
    char sep);
void hq_csv_free(struct hq_csv *c);
/* The next non-blank record: 1, 0 at the end, -1 with e set. */
int hq_csv_next(struct hq_csv *c, struct hq_err *e);
size_t hq_csv_nfields(const struct hq_csv *c);
/* Field i of the current record, "" past the last one. */
const char *hq_csv_field(const struct hq_csv *c, size_t i);
/* The line the current record starts on (1-based). */
long hq_csv_line(const struct hq_csv *c);
/* Bytes consumed from the read function so far. */
uint64_t hq_csv_bytes(const struct hq_csv *c);

/*
 * One line split in place by the same splitter, in csvline.h's dialect:
 * the whole of line[0..len) is one record (its CR, LF and NUL bytes are
 * bytes), spaces and tabs around a field outside its quotes are dropped,
 * each field NUL-terminated in place (line[len] must be writable). The
 * number of fields, or -1 with err saying what (the caller words it).
 */
struct hq_csv_line_err {
	enum { HQ_CSV_UNCLOSED, HQ_CSV_AFTER_QUOTE, HQ_CSV_FIELDS } kind;
	int field;          /* 1-based: the field it happened in */
};
int hq_csv_split_line(char *line, size_t len, char sep, char **fields,
    size_t max, struct hq_csv_line_err *err);

/* read(2) on the descriptor *(int *)arg, retrying EINTR. */
ssize_t hq_csv_fd_read(void *arg, void *buf, size_t n);

/* A read function over memory, for sniffing and tests. */
struct hq_csv_mem {
	const unsigned char *p;
	size_t n, pos;
};
ssize_t hq_csv_mem_read(void *arg, void *buf, size_t n);

#endif
