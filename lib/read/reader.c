#include <string.h>

#include "hq/applehealth.h"
#include "hq/buf.h"
#include "hq/cgmfile.h"
#include "hq/jsonl.h"
#include "hq/reader.h"
#include "hq/reportfile.h"

/* The formats hq-ingest reads, most specific first (reader.h). */
static const struct hq_reader readers[] = {
	{ "apple-zip", "apple", "an Apple Health export (zip or XML)",
	  hq_applehealth_sniff_zip, hq_applehealth_read_zip },
	{ "apple-xml", "apple", "an Apple Health export (zip or XML)",
	  hq_applehealth_sniff_xml, hq_applehealth_read_xml },
	{ "dexcom-clarity", "dexcom", "a Dexcom Clarity CSV",
	  hq_cgmfile_sniff_dexcom, hq_cgmfile_read_dexcom },
	{ "libreview", "libre", "a LibreView CSV",
	  hq_cgmfile_sniff_libre, hq_cgmfile_read_libre },
	{ "fhir", "fhir", "FHIR lab results", hq_reportfile_sniff_fhir,
	  hq_reportfile_read_fhir },
	{ "dexa-json", "dexa", "DEXA scans (JSON or CSV)",
	  hq_reportfile_sniff_dexa_json, hq_reportfile_read_dexa_json },
	/* Above JSON lines, which claims any line that starts with '{'. */
	{ "labs-jsonl", "labs", "lab results (CSV or JSON lines)",
	  hq_reportfile_sniff_labs_jsonl, hq_reportfile_read_labs_jsonl },
	{ "jsonl", "jsonl", "JSON lines", hq_jsonl_sniff, hq_jsonl_read },
	{ "labs-csv", "labs", "lab results (CSV or JSON lines)",
	  hq_reportfile_sniff_labs_csv, hq_reportfile_read_labs_csv },
	{ "dexa-csv", "dexa", "DEXA scans (JSON or CSV)",
	  hq_reportfile_sniff_dexa_csv, hq_reportfile_read_dexa_csv },
};

#define NREADERS (sizeof readers / sizeof readers[0])

const struct hq_reader *
hq_reader_sniff(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < NREADERS; i++)
		if (readers[i].sniff(p, n))
			return &readers[i];
	return NULL;
}

/* The format for family: its first that claims the bytes, else its last.
 * NULL when no format has that family. */
static const struct hq_reader *
family_reader(const char *family, const unsigned char *p, size_t n)
{
	const struct hq_reader *last = NULL;

	for (size_t i = 0; i < NREADERS; i++) {
		if (strcmp(readers[i].family, family) != 0)
			continue;
		if (readers[i].sniff(p, n))
			return &readers[i];
		last = &readers[i];
	}
	return last;
}

/* "path: not an Apple Health export (zip or XML) nor JSON lines; ..." */
static void
unknown_format(const char *path, struct hq_err *e)
{
	struct hq_buf b = { 0 };

	for (size_t i = 0; i < NREADERS; i++) {
		size_t j = 0;
		while (j < i && strcmp(readers[i].what, readers[j].what) != 0)
			j++;
		if (j == i)   /* each kind of file named once */
			hq_buf_printf(&b, "%s%s", b.len ? " nor " : "", readers[i].what);
	}
	hq_err_set(e, "%s: not %s; use --format to say which it is", path,
	    b.data);
	hq_buf_free(&b);
}

const struct hq_reader *
hq_reader_open(struct hq_input *in, const char *path, const char *family,
    struct hq_err *e)
{
	const struct hq_reader *r;

	if (hq_input_open(in, path, e))
		return NULL;
	if (family && strcmp(family, "auto") != 0) {
		r = family_reader(family, in->pre, in->prelen);
		if (!r) {
			hq_err_set(e, "unknown format '%s'", family);
			goto fail;
		}
	} else
		r = hq_reader_sniff(in->pre, in->prelen);
	if (!r) {
		if (in->prelen == 0)
			hq_err_set(e, "%s: empty file", path);
		else
			unknown_format(path, e);
		goto fail;
	}
	return r;
fail:
	hq_input_close(in);
	return NULL;
}
