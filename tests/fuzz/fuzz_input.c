/*
 * fuzz_input — mangled files of every format hq-ingest reads, through the
 * path it reads them by: hq_reader_open() (sniffing, or the format a
 * --format word chooses), hq_ingest_start(), the reader, then the
 * clinical records' step (hq_ingest_clinical_reports); each import is
 * rolled back, so the store (a temporary file) stays small.
 *
 * The format: -f WORD (a --format word: apple, dexcom, libre, fhir, dexa,
 * labs, jsonl) for every input; else, in the deterministic engine, the
 * format hq-ingest would sniff from the unmutated seed file, so that a
 * mangled copy still reaches its reader when the mangling broke what
 * sniffing looks at; under libFuzzer, sniffing itself. Every input is also
 * sniffed by the whole format table.
 *
 * A file read as FHIR or DEXA JSON is also read twice more, outside the
 * store: whole (hq_jsonin_each, as before both were streamed) and
 * streamed in small pieces whose size the input chooses; the two must
 * agree on whether it reads and on what it gives, or the target aborts.
 * DEXA's unit conversions, negatives and scan bound run on both paths
 * (the seeds include files in lb, g, in³ and in², tests/cli/data/dexa).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "hq/dexa.h"
#include "hq/fhir.h"
#include "hq/reader.h"
#include "hq/store.h"

/* XML, zip, CSV, JSON and the numbers and dates in them. */
const char fuzz_hot[] = "<>/\"'=&;![]?- \n\r\t\v\x01PK\x03\x04,;{}:.\\";
const char *const fuzz_words[] = {
	"\"", "\"\"", ",", ";", "\t", "\r\n", "\n", "{", "}", "[", "]", "null",
	"true", "-1", "0", "1e308", "-1e309", "NaN", "nan", "inf",
	"99999999999999999999", "2024-02-30", "2024-07-01T25:61:61Z",
	"12/31/2024 23:59", "31.12.2024 23:59", "+14:00", "\xEF\xBB\xBF",
	"\xC3\x28", "\xF0\x9F\x98", "\\u0000", "\\ud800", "&#0;", "&amp;",
	"<![CDATA[", "]]>", "<!ENTITY x \"", "<Record ", "/>", "\"resourceType\"",
	"\"valueQuantity\"", "\"entry\"", "\"value\"", "mg/dL", "mmol/L",
	"Low", "High", "EGV", "Timestamp", "Glucose Value", "\"kind\":\"dexa\"",
	"lb", "g", "in3", "in\xc2\xb2", "\"unit\":\"lb\"", "-50", "1.7e308",
	"t_score", "vat_mass", "9999-12-31",
	/* device files: TCX, GPX, FIT and gzip */
	"<Trackpoint>", "</Trackpoint>", "<Time>", "<HeartRateBpm><Value>",
	"<Lap StartTime=\"", "<Creator", "<trkpt lat=\"", " lon=\"", "<ele>",
	"<gpxtpx:hr>", "<gpxtpx:cad>", "<power>", "<time>", ".FIT",
	"\x1f\x8b\x08", "\xff\xff\xff\xff", NULL
};

static int
count(void *arg, const struct hq_lab_result *r, struct hq_err *e)
{
	(void)r, (void)e;
	(*(long *)arg)++;
	return 0;
}

static int
whole_doc(void *arg, const cJSON *v, long line, struct hq_err *e)
{
	return hq_fhir_read(arg, v, line, e);
}

/* Read one input whole and again fed to a stream in pieces of `chunk`
 * bytes; *okw and *oks say whether each read it. Frees the stream. */
static void
whole_and_streamed(const uint8_t *data, size_t size, size_t chunk,
    int (*whole)(void *, const cJSON *, long, struct hq_err *), void *arg,
    struct hq_jsonin_stream *st, int *okw, int *oks)
{
	struct hq_err e;

	*okw = hq_jsonin_each((const char *)data, size, "f", 0, whole, arg,
	    &e) >= 0;
	*oks = 1;
	for (size_t off = 0; *oks && off < size; off += chunk)
		*oks = hq_jsonin_stream_feed(st, (const char *)data + off,
		    size - off < chunk ? size - off : chunk, &e) == 0;
	if (*oks)
		*oks = hq_jsonin_stream_end(st, &e) >= 0;
	hq_jsonin_stream_free(st);
}

/* No bound but the stream's own per-element ones. */
static const struct hq_jsonin_limits wide = { .element_bytes = 16 << 20,
    .value_bytes = 16 << 20, .element_values = 1L << 30,
    .value_values = 1L << 30 };

/* Whole and streamed, the same results (or both an error). */
static void
fhir_agrees(const uint8_t *data, size_t size)
{
	long nw = 0, ns = 0;
	struct hq_lab_sink w = { .file = "f", .emit = count, .arg = &nw };
	struct hq_lab_sink s = { .file = "f", .emit = count, .arg = &ns };
	size_t chunk = size ? 1 + data[size / 2] % 61 : 1;
	int okw, oks;

	whole_and_streamed(data, size, chunk, whole_doc, &w,
	    hq_fhir_stream(&s, &wide), &okw, &oks);
	if (okw != oks || (okw && (nw != ns || w.skipped != s.skipped))) {
		fprintf(stderr, "fuzz_input: FHIR whole %s (%ld results, %ld "
		    "skipped), streamed in %zu-byte pieces %s (%ld, %ld)\n",
		    okw ? "reads" : "fails", nw, w.skipped, chunk,
		    oks ? "reads" : "fails", ns, s.skipped);
		abort();
	}
}

static int
count_scan(void *arg, const struct hq_dexa_scan *sc, struct hq_err *e)
{
	(void)e;
	*(long *)arg += (long)sc->n;
	return 0;
}

static int
whole_dexa(void *arg, const cJSON *v, long line, struct hq_err *e)
{
	return hq_dexa_json(arg, v, line, e);
}

/* DEXA JSON whole and streamed: the same fields (or both an error). */
static void
dexa_agrees(const uint8_t *data, size_t size)
{
	long nw = 0, ns = 0;
	struct hq_dexa_sink w = { .file = "f", .emit = count_scan, .arg = &nw };
	struct hq_dexa_sink s = { .file = "f", .emit = count_scan, .arg = &ns };
	size_t chunk = size ? 1 + data[size / 3] % 61 : 1;
	int okw, oks;

	whole_and_streamed(data, size, chunk, whole_dexa, &w,
	    hq_dexa_stream(&s, &wide), &okw, &oks);
	if (okw != oks || (okw && (nw != ns || w.read != s.read))) {
		fprintf(stderr, "fuzz_input: DEXA whole %s (%ld scans, %ld "
		    "fields), streamed in %zu-byte pieces %s (%ld, %ld)\n",
		    okw ? "reads" : "fails", w.read, nw, chunk,
		    oks ? "reads" : "fails", s.read, ns);
		abort();
	}
}

/* What the input's format compares on the input itself. */
static void
agrees(const char *format, const uint8_t *data, size_t size)
{
	if (strcmp(format, "fhir") == 0)
		fhir_agrees(data, size);
	else if (strcmp(format, "dexa-json") == 0)
		dexa_agrees(data, size);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *family = fuzz_word();

	hq_reader_sniff(data, size < 65536 ? size : 65536);
	if (!family && fuzz_seed) {
		const struct hq_reader *f = hq_reader_sniff(fuzz_seed,
		    fuzz_seed_len < 65536 ? fuzz_seed_len : 65536);
		family = f ? f->family : NULL;
	}
	fuzz_import(data, size, family, 0, agrees);
	return 0;
}
