#include <string.h>
#include <strings.h>

#include "hq/applehealth.h"
#include "hq/buf.h"
#include "hq/cgmfile.h"
#include "hq/devicezip.h"
#include "hq/fitfile.h"
#include "hq/jsonl.h"
#include "hq/reader.h"
#include "hq/reportfile.h"
#include "hq/trackfile.h"

/* The formats hq-ingest reads, most specific first (reader.h). */
static const struct hq_reader readers[] = {
	/* Above Apple's zip, which claims any zip: only a zip that shows
	 * device files and nothing of Apple's (devicezip.h). */
	{ "device-zip", "device", "a zip of FIT, TCX or GPX files",
	  hq_devicezip_sniff_zip, hq_devicezip_read_zip },
	{ "apple-zip", "apple", "an Apple Health export (zip or XML)",
	  hq_applehealth_sniff_zip, hq_applehealth_read_zip },
	/* Above Apple's XML, which claims any XML. */
	{ "fit", "fit", "a FIT activity file", hq_fitfile_sniff,
	  hq_fitfile_read },
	{ "tcx", "tcx", "a TCX activity file", hq_trackfile_sniff_tcx,
	  hq_trackfile_read_tcx },
	{ "gpx", "gpx", "a GPX track", hq_trackfile_sniff_gpx,
	  hq_trackfile_read_gpx },
	{ "gzip", "device", "a gzip of a FIT, TCX or GPX file",
	  hq_devicezip_sniff_gz, hq_devicezip_read_gz },
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

/* --format fit, tcx or gpx on a zip or a gzip: the device files' reader
 * of it, which reads the files inside as that format (the options'
 * family); else NULL. */
static const struct hq_reader *
device_archive(const char *family, const unsigned char *p, size_t n)
{
	const char *name = NULL;

	if (strcmp(family, "fit") != 0 && strcmp(family, "tcx") != 0 &&
	    strcmp(family, "gpx") != 0)
		return NULL;
	if (hq_devicezip_sniff_gz(p, n))
		name = "gzip";
	else if (n >= 4 && memcmp(p, "PK\3\4", 4) == 0)
		name = "device-zip";
	for (size_t i = 0; name && i < NREADERS; i++)
		if (strcmp(readers[i].name, name) == 0)
			return &readers[i];
	return NULL;
}

/* Whether path's name ends in ext (any case). */
static int
named(const char *path, const char *ext)
{
	size_t n = strlen(path), k = strlen(ext);

	return n > k && strcasecmp(path + n - k, ext) == 0;
}

/* "path: not an Apple Health export (zip or XML) nor JSON lines; ...";
 * a device file's name says what it should have been. */
static void
unknown_format(const char *path, struct hq_err *e)
{
	struct hq_buf b = { 0 };

	if (named(path, ".fit")) {
		hq_err_set(e, "%s: not a FIT file (byte 0)", path);
		return;
	}
	if (named(path, ".tcx") || named(path, ".gpx")) {
		hq_err_set(e, "%s: not a %s file (no <%s> element)", path,
		    named(path, ".tcx") ? "TCX" : "GPX", named(path, ".tcx") ?
		    "TrainingCenterDatabase" : "gpx");
		return;
	}

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
		r = device_archive(family, in->pre, in->prelen);
		if (!r)
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
