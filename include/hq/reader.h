/*
 * reader — the readers of hq-ingest behind one contract, and the table
 * that registers them (lib/read/reader.c).
 *
 * A reader gets its input (input.h: the bytes from the first, whatever
 * sniffing read), its options (struct hq_read_opts: what the command line
 * says about how to read files; a reader keeps no global) and the writer
 * (ingest.h), to which it hands the records and through which it reports
 * skipped records and warnings. It returns 0, or -1 with e set (naming
 * file:line where there is one); the caller then aborts the import, so
 * that nothing of the file is stored.
 *
 * The formats are one table in reader.c, a row each:
 *
 *     { "jsonl", "jsonl", "JSON lines", hq_jsonl_sniff, hq_jsonl_read },
 *
 * the format's name (stored with the import, printed in the summary), the
 * --format word that chooses it, what it is (for the error on a file that
 * is no format hq knows), a sniff function that says whether the first
 * bytes are this format's, and the reader. Sniffing takes the first
 * format of the table that claims the bytes, so specific formats stand
 * above general ones: JSON lines claims anything that starts with '{', and
 * a FHIR bundle or DEXA JSON goes above it.
 *
 * A new format is therefore one reader file (lib/read/x.c, include/hq/x.h
 * with its sniff and read functions) and one row in that table; its
 * --format word also goes into hq-ingest's option table and man page.
 */
#ifndef HQ_READER_H
#define HQ_READER_H

#include <stddef.h>

#include "hq/err.h"
#include "hq/ingest.h"
#include "hq/input.h"

/* LibreView dates no date in the file settles (hq-ingest --date-order). */
enum hq_date_order { HQ_DATES_AUTO, HQ_DATES_DMY, HQ_DATES_MDY };

/* How to read the files; { 0 } reads them as hq-ingest does by default. */
struct hq_read_opts {
	enum hq_date_order date_order;
	/* The --format word given (NULL: sniffed): a reader of archives
	 * (devicezip.h) reads the files inside as that format. */
	const char *family;
	/* --strict: a file read in part (a FIT file that ends early) is
	 * refused whole instead. */
	int strict;
};

/* 1 when the first n bytes of a file are this format's (n may be short
 * of the whole file, and 0). */
typedef int hq_reader_sniff_fn(const unsigned char *p, size_t n);
/* Import the whole input: 0, or -1 with e set. */
typedef int hq_reader_read_fn(struct hq_input *in, const struct hq_read_opts *o,
    struct hq_ingest *ig, struct hq_err *e);

struct hq_reader {
	const char *name;            /* "apple-zip" */
	const char *family;          /* the --format word: "apple" */
	const char *what;            /* "an Apple Health export (zip or XML)" */
	hq_reader_sniff_fn *sniff;
	hq_reader_read_fn *read;
};

/* The format the first n bytes p of a file are in, or NULL. */
const struct hq_reader *hq_reader_sniff(const unsigned char *p, size_t n);

/* Open path ("-": stdin) as an input (hq_input_open) and choose its
 * reader: family is a --format word or NULL/"auto" for the first format
 * that claims the first bytes; with a family, the first of its formats
 * that claims them, else its last one. The reader, or NULL with e set
 * (cannot open, a directory, empty, no known format, an unknown family),
 * and then nothing to close; else hq_input_close(in) when done. */
const struct hq_reader *hq_reader_open(struct hq_input *in, const char *path,
    const char *family, struct hq_err *e);

#endif
