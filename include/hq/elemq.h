/*
 * elemq — an XML parse on one thread, its elements used on another.
 *
 * Ingest of an Apple Health export is two jobs of about equal size: the
 * XML parse (reading, the byte filter, libxml2) and the writer (SQLite).
 * hq_elemq_run() runs the parse on a thread of its own and hands each
 * start-element, copied with its attributes, to fn on the calling thread,
 * in document order, through a bounded queue (HQ_ELEMQ_BLOCKS blocks of
 * about HQ_ELEMQ_BLOCK bytes; a block grows only to hold one element).
 * The writer therefore sees exactly what a single-threaded SAX callback
 * would have seen, and keeps its own state on its own thread: SQLite, the
 * ids it returns and the store's transaction never cross threads.
 *
 * The parse calls hq_elemq_put() from its start-element callback; a -1
 * from it means fn failed, and the parse should stop (xmlStopParser).
 * Without a thread (threaded 0, or a thread that cannot be started) the
 * parse runs on the calling thread and put() calls fn directly: the same
 * elements, through the same copy.
 */
#ifndef HQ_ELEMQ_H
#define HQ_ELEMQ_H

#include <stdint.h>

#define HQ_ELEMQ_MAX_ATTRS 48         /* more are dropped, as before */
#define HQ_ELEMQ_BLOCK (64 * 1024)
#define HQ_ELEMQ_BLOCKS 16

struct hq_elem {
	const char *name;
	int depth;                  /* the root is 0 */
	int line;                   /* where the parser saw it */
	int nattrs;
	const char *const *attr;    /* attr[2i] a name, attr[2i + 1] its value */
	uint64_t bytes;             /* input read by then (for progress) */
};

struct hq_elemq;

/* fn: 0 to go on, < 0 to stop the parse. */
typedef int hq_elem_fn(void *arg, const struct hq_elem *el);
/* The parse: calls hq_elemq_put() per element; its return value is given
 * back by hq_elemq_run() in *parse_rc. */
typedef int hq_elemq_parse_fn(void *arg, struct hq_elemq *q);

/* Run parse (on a thread when threaded) and fn on each element. Returns
 * 0, or -1 when fn stopped the parse; *parse_rc gets parse's result. The
 * parse's own state is the caller's again when this returns. */
int hq_elemq_run(hq_elemq_parse_fn *parse, void *parse_arg, hq_elem_fn *fn,
    void *fn_arg, int threaded, int *parse_rc);

/* One element, with SAX2's attributes (five pointers each: local name,
 * prefix, URI, value, end of value). 0, or -1: stop parsing. */
int hq_elemq_put(struct hq_elemq *q, const char *name, int depth, int line,
    int nattrs, const unsigned char **sax_attrs, uint64_t bytes);

/* Whether hq_elemq_run() uses a thread by default: not when HQ_THREADS=0
 * is in the environment (to compare or debug), nor on one CPU. */
int hq_elemq_threaded(void);

#endif
