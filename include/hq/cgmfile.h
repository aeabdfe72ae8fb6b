/*
 * cgmfile — glucose readings from the CSV files CGM portals export:
 * Dexcom Clarity and LibreView.
 *
 * A reader turns a file into readings (UTC instant, mg/dL, the sensor as
 * source, regular/scan/strip) and hands each to a callback; the readers of
 * hq-ingest's format table at the end hand them to an import. The files write local wall-clock times with no zone:
 * they are read in the zone of hq_time_set_zone(), and on a fall-back
 * night the repeated hour is resolved by the file's order (each reading
 * takes the occurrence nearer the reading before it).
 *
 * Dexcom Clarity: the header names the glucose unit (mg/dL or mmol/L, in
 * any language: the columns are taken by position, which the English and
 * German exports share), readings are the rows whose event type is EGV (EGW in
 * German) with a timestamp; metadata, alerts, calibrations, insulin and
 * carbs are skipped. "Low" ("Niedrig") is stored as 39 mg/dL and "High"
 * ("Hoch") as 401 mg/dL: Dexcom writes them for readings below 40 and above
 * 400, so 39 and 401 fall in the bands the readings were in (below 54,
 * above 250) and are never confused with a number the sensor wrote.
 *
 * LibreView: one or more preamble lines, then a header, then rows whose
 * columns are taken by position (Tidepool's reading of the format): device,
 * serial, timestamp, record type, historic glucose, scan glucose, ... strip
 * glucose (column 15). Record type 0 is the sensor's regular (historic)
 * reading, 1 a scan, 2 a strip; other types are skipped. Day-first and
 * month-first dates are decided from the whole file (a day above 12 or a
 * leading year settles it; a file no date settles is an error unless the
 * caller says which), so the file is read twice: a seekable input is
 * rewound, anything else is kept in memory up to HQ_CGMFILE_MAX_SPOOL
 * bytes. "LO"/"HI" (Libre's range is 40-500) are stored as 39 and 501.
 *
 * mmol/L converts with 18.016 (hq-ingest(1)). A malformed line fails the whole
 * file with name:line; nothing is emitted after it, and the caller's
 * transaction makes the import all or nothing.
 */
#ifndef HQ_CGMFILE_H
#define HQ_CGMFILE_H

#include <stddef.h>
#include <stdint.h>

#include "hq/csv.h"
#include "hq/err.h"
#include "hq/reader.h"

#define HQ_CGM_MMOL_FACTOR 18.016
#define HQ_CGMFILE_MAX_SPOOL (32u << 20)

enum hq_cgm_format { HQ_CGMFILE_NONE, HQ_CGMFILE_DEXCOM, HQ_CGMFILE_LIBRE };
enum hq_cgm_kind { HQ_CGM_REGULAR, HQ_CGM_SCAN, HQ_CGM_STRIP };

struct hq_cgm_reading {
	int64_t time;          /* UTC seconds */
	double mgdl;
	/* The sensor: "Dexcom G6 (SN 8XXXXX)", "FreeStyle LibreLink (SN
	 * ...)"; scans and strips get a source of their own ("FreeStyle
	 * LibreLink scan (SN ...)"), so they never pass for the sensor's
	 * regular readings. */
	const char *source;
	const char *unit;      /* as the file wrote it: "mg/dL" or "mmol/L" */
	enum hq_cgm_kind kind;
	int censored;          /* -1 Low, +1 High, 0 a number */
	long line;
};

/* Where the bytes come from. rewind is NULL (or fails) when the input
 * cannot be read twice. */
struct hq_cgmfile_input {
	const char *name;
	hq_csv_read_fn *read;
	void *arg;
	int (*rewind)(void *arg);
	size_t spool_max;      /* 0: HQ_CGMFILE_MAX_SPOOL */
};

/* 0 to go on, -1 (with e set) to stop the import. A glucose row without
 * a value comes with mgdl NaN. */
typedef int hq_cgmfile_emit_fn(void *arg, const struct hq_cgm_reading *r,
    struct hq_err *e);

struct hq_cgmfile_stats {
	long rows;       /* data rows read */
	long readings;   /* readings emitted */
	long skipped;    /* glucose rows with an empty value */
};

/* The format of a file from its first bytes (a whole record at least). */
enum hq_cgm_format hq_cgmfile_sniff(const unsigned char *p, size_t n);

/* Read the file; 0, or -1 with e set (name:line for a bad line). */
int hq_cgmfile_read(const struct hq_cgmfile_input *in, enum hq_cgm_format f,
    enum hq_date_order order, hq_cgmfile_emit_fn *emit, void *arg,
    struct hq_cgmfile_stats *st, struct hq_err *e);

/* "dmy"/"mdy"/"auto" → order; 0 or -1. */
int hq_cgmfile_parse_date_order(const char *s, enum hq_date_order *o);

/*
 * The readers of hq-ingest's format table (reader.h): each reading becomes
 * a blood_glucose sample in mg/dL (the unit the file wrote kept beside
 * it) whose source is the sensor; a glucose row without a value is
 * skipped with a warning; a malformed line fails the file. A LibreView
 * file is read twice: from the start again when it can seek, else kept
 * in memory (HQ_CGMFILE_MAX_SPOOL). The options' date_order is the
 * LibreView date order (hq-ingest --date-order).
 */
int hq_cgmfile_sniff_dexcom(const unsigned char *p, size_t n);
int hq_cgmfile_sniff_libre(const unsigned char *p, size_t n);
int hq_cgmfile_read_dexcom(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e);
int hq_cgmfile_read_libre(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e);

#endif
