/*
 * applehealth_int — what the Apple Health reader's two files share
 * (lib/read/applehealth.c: the readers' entry points, the export's XML
 * through the byte filter and its elements; applehealth_zip.c: a zip's
 * entries and the files beside an export.xml, GPX routes and FHIR
 * resources), as curl's vtls_int.h. Only lib/read includes it
 * (layers.pl).
 */
#ifndef HQ_APPLEHEALTH_INT_H
#define HQ_APPLEHEALTH_INT_H

#include <stddef.h>
#include <stdint.h>

#include <archive.h>
#include <libxml/parser.h>

#include "hq/elemq.h"
#include "hq/err.h"
#include "hq/ingest.h"
#include "hq/input.h"
#include "hq/xmlfilter.h"

#define RAW_SIZE (256 * 1024)
#define OUT_SIZE (64 * 1024)
#define MAX_DEPTH 16
#define MAX_ROUTES_PER_FILE 16
#define MAX_SIDE_FILE (16 << 20)

/* What the parser reads from: the file, or the current zip entry. */
struct reader {
	struct hq_input *in;
	unsigned char *raw;          /* raw_store: bytes read, not yet filtered */
	unsigned char raw_store[RAW_SIZE];
	unsigned char out[OUT_SIZE];   /* filtered, not yet given to libxml2 */
	size_t opos, olen;
	size_t rpos, rlen;
	int eof, ioerr;
	char ioerrmsg[256];
	struct hq_xml_filter filt;
};

/* A parse: what libxml2 reads and what it reported. During an export's
 * parse this is the parsing thread's alone (elemq.h); the writer's state
 * is the rest of struct ah. */
struct xparse {
	struct reader rd;
	xmlParserCtxtPtr ctxt;
	struct hq_elemq *q;
	struct hq_input *src;        /* for progress: the file read */
	struct archive *ar;          /* and the zip it is, or NULL */
	int depth;                   /* of the next element to start */
	char err[768];               /* libxml2's first error */
	int errline;
	int lastline;                /* where the parse ended */
};

enum ctx_kind { C_NONE, C_RECORD, C_CORRELATION, C_WORKOUT, C_ACTIVITY,
	C_ROUTE, C_HRV, C_OTHER };

struct ah {
	struct hq_ingest *ig;
	struct hq_input *src;        /* the file */
	struct archive *ar;          /* the file as a zip */
	struct hq_input entry;       /* the zip entry being read */
	const char *name;            /* for messages */
	struct xparse px;
	struct hq_err *e;            /* the error of a failed callback */
	int line;                    /* of the element being read */
	int skip_depth;              /* children of this depth skipped; -1 */
	int failed;
	const struct hq_elem *el;    /* the element being read (its copy,
	                                elemq.h), whose attributes attr() reads */
	struct hq_input prog;        /* the file, as progress shows it */
	/* GPX */
	const int64_t *route_ids;
	int nroutes, have_point, point_no;
	struct hq_route_point pt;
	int64_t first_time, last_time;
	int field;
	char text[128];
	size_t textlen;
	/* the element open at each depth, and what it made */
	enum ctx_kind kind[MAX_DEPTH];
	int64_t sample_id, corr_id, workout_id, route_id;
	int corr_new, beat_seq, point_seq;
	char activity_uuid[64];
	int in_activity;
	int seen_root;
	long ticks;
};

/* applehealth.c's, for applehealth_zip.c, and the other way round
 * (hq_ah_import_zip, hq_ah_import_beside). */
int hq_ah_failed_here(struct ah *a, struct hq_err *e);
int hq_ah_failed_where(struct ah *a, struct hq_err *e, int with_line);
void hq_ah_keep_error(struct xparse *px, xmlErrorPtr err);
int hq_ah_names_health_data(const unsigned char *p, size_t n);
int hq_ah_parse_export(struct ah *a, struct hq_err *e);
int hq_ah_parse_status(struct ah *a, int failed, int rc, struct hq_err *e);
int hq_ah_reader_fill(struct reader *r);
void hq_ah_reader_start(struct reader *r, struct hq_input *in);
int hq_ah_run_parser(struct xparse *px, xmlSAXHandler *sax, void *user);
double hq_ah_sax_num(const xmlChar **attrs, int nattrs, const char *name);
void hq_ah_warn_at(struct ah *a, const char *what);
int hq_ah_import_zip(struct ah *a, struct hq_err *e);
int hq_ah_import_beside(struct ah *a, const char *xml, struct hq_err *e);

#endif
