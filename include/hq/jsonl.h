/*
 * jsonl — the JSON-lines reader: one sample per line,
 *
 *     {"metric":"weight","start":"2024-12-01T07:30:00Z","value":80,"unit":"kg"}
 *
 * with "end", "source", "source_version", "device" and "text" optional
 * (hq-ingest(1) has the details), into an import (ingest.h). A script's
 * output is all right or it is a bug: a bad line, or one longer than
 * 1 MiB, fails the whole file with file:line, and nothing of it is
 * imported. Blank lines are passed over.
 *
 * Nothing here is owned by the caller except what it passes in.
 */
#ifndef HQ_JSONL_H
#define HQ_JSONL_H

#include "hq/err.h"
#include "hq/ingest.h"
#include "hq/reader.h"

/* Whether a file's first bytes are JSON lines (an object first). */
int hq_jsonl_sniff(const unsigned char *p, size_t n);
/* Import in: 0, or -1 with e set ("file:line: why", or a read or store
 * error); the caller says that nothing from the file was imported. */
int hq_jsonl_read(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e);

#endif
