/* The Apple Health reader's byte filter, format sniffing, device names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/applehealth.h"
#include "hq/buf.h"
#include "hq/ingest.h"
#include "hq/reader.h"
#include "tap.h"

/* The name of the format the first n bytes of p are sniffed as. */
static const char *
sniffed(const char *p, size_t n)
{
	const struct hq_reader *f = hq_reader_sniff((const unsigned char *)p, n);

	return f ? f->name : "unknown";
}

/* Run the filter over s in chunks of `chunk` bytes; returns malloc'd output. */
static char *
filter(const char *s, size_t chunk, struct hq_xml_filter *f)
{
	size_t n = strlen(s), o = 0;
	char *out = malloc(n + 64);

	hq_xml_filter_init(f);
	for (size_t i = 0; i < n; i += chunk) {
		size_t k = n - i < chunk ? n - i : chunk;
		o += hq_xml_filter_run(f, (const unsigned char *)s + i, k,
		    (unsigned char *)out + o);
	}
	out[o] = '\0';
	return out;
}

int
main(void)
{
	struct hq_xml_filter f;
	const char *doc =
	    "<?xml version=\"1.0\"?>\n"
	    "<!DOCTYPE HealthData [\n"
	    "<!-- HealthKit Export Version: 12 -->\n"
	    "<!ATTLIST VisionPrescription\n  brand CDATA #IMPLIED\n"
	    "  device CDATA #IMPLIED\n> >\n"
	    "]>\n"
	    "<HealthData locale=\"en_US\">\n"
	    "<Record value=\"a\vb\x01\"/>\n"
	    "</HealthData>\n";
	/* The DTD ends at "]>": the stray "> >" of iOS 16 inside it goes
	 * too, and only its newlines are left, so line numbers still hold. */
	const char *want = "<?xml version=\"1.0\"?>\n"
	    "\n\n\n\n\n\n\n"
	    "<HealthData locale=\"en_US\">\n"
	    "<Record value=\"ab\"/>\n"
	    "</HealthData>\n";
	char *out;

	for (size_t chunk = 1; chunk <= 4096; chunk = chunk < 16 ? chunk + 1 : chunk * 4) {
		out = filter(doc, chunk, &f);
		if (chunk == 1 || chunk == 4096) {
			is_str(out, want, "DTD dropped, lines kept, controls gone (chunks of %zu)", chunk);
			is_int(f.dropped_ctrl, 2, "two control characters counted (chunks of %zu)", chunk);
			is_str(f.version, "12", "export version read from the DTD (chunks of %zu)", chunk);
		} else if (strcmp(out, want) != 0)
			ok(0, "same output in chunks of %zu", chunk);
		free(out);
	}

	out = filter("<HealthData a=\"1\"><!DOCTYPE x></HealthData>", 3, &f);
	is_str(out, "<HealthData a=\"1\"><!DOCTYPE x></HealthData>",
	    "after the root element nothing is dropped");
	free(out);
	out = filter("<?xml version=\"1.0\"?>\n<!-- HealthKit Export Version: 3 -->\n"
	    "<!DOCTYPE HealthData>\n<HealthData/>", 7, &f);
	is_str(out, "<?xml version=\"1.0\"?>\n<!-- HealthKit Export Version: 3 -->\n"
	    "\n<HealthData/>", "a DOCTYPE without internal subset is dropped, comments kept");
	is_str(f.version, "3", "version from a comment outside the DTD");
	free(out);
	out = filter("<!-- <!DOC --><HealthData/>", 1, &f);
	is_str(out, "<!-- <!DOC --><HealthData/>", "a partial <!DOC is given back");
	free(out);
	out = filter("\t\r\n<a/>", 1, &f);
	is_str(out, "\t\r\n<a/>", "tab, CR and LF are kept");
	is_int(f.dropped_ctrl, 0, "and not counted");
	free(out);

	/* Bounds on tags, before libxml2 buffers them. */
	{
		size_t big = HQ_XML_MAX_TAG + 100;
		char *doc2 = malloc(big + 64), *o2 = malloc(big + 128);
		struct hq_xml_filter g;
		size_t n = (size_t)snprintf(doc2, 64, "<HealthData>\n\n<Record sourceName=\"");
		memset(doc2 + n, 'A', big - n);
		doc2[big] = '\0';
		hq_xml_filter_init(&g);
		size_t o = 0;
		for (size_t i = 0; i < big; i += 4096)
			o += hq_xml_filter_run(&g, (const unsigned char *)doc2 + i,
			    big - i < 4096 ? big - i : 4096, (unsigned char *)o2 + o);
		is_int(g.over, 1, "a tag longer than %ld bytes is stopped", HQ_XML_MAX_TAG);
		is_int(g.over_line, 3, "at the line it starts on");
		ok(o < (size_t)HQ_XML_MAX_TAG + 64, "and no further byte is passed on");
		free(doc2);
		free(o2);
	}
	{
		struct hq_buf b = {0};
		hq_buf_puts(&b, "<HealthData>\n<R");
		for (int i = 0; i <= HQ_XML_MAX_ATTRS; i++)
			hq_buf_printf(&b, " a%d='1'", i);
		hq_buf_puts(&b, "/>");
		out = filter(b.data, 1000, &f);
		is_int(f.over, 2, "more than %d attributes are stopped", HQ_XML_MAX_ATTRS);
		is_int(f.over_line, 2, "at the line of their tag");
		free(out);
		hq_buf_free(&b);
	}
	out = filter("<HealthData>\n<!-- don't \"quote\" -->\n<a v='x > y' w=\"it's\">t > u</a>\n</HealthData>", 3, &f);
	is_int(f.over, 0, "quotes in a comment, '>' in a value or text: no bound passed");
	is_str(out, "<HealthData>\n<!-- don't \"quote\" -->\n<a v='x > y' w=\"it's\">t > u</a>\n</HealthData>",
	    "and the text is unchanged");
	is_int(f.line, 4, "lines are counted");
	free(out);

	/* Sniffing. */
	is_str(sniffed("PK\3\4rest", 8), "apple-zip", "zip by magic");
	is_str(sniffed("\xEF\xBB\xBF {\"a\":1}", 11), "jsonl", "JSON after a BOM");
	is_str(sniffed("<?xml?>\n<HealthData>", 20), "apple-xml", "XML with HealthData");
	is_str(sniffed("<?xml?>\n<kml>", 13), "unknown", "other XML is not Apple's");
	is_str(sniffed("<?xml?>\n<gpx>", 13), "gpx", "GPX is a track (trackfile.c)");
	is_str(sniffed("<TrainingCenterDatabase xmlns=\"x\">", 34), "tcx",
	    "TCX by its root");
	is_str(sniffed("hello", 5), "unknown", "text is unknown");
	is_str(sniffed("", 0), "unknown", "empty is unknown");

	/* Device strings lose the per-record pointer. */
	char dev[256];
	hq_ingest_clean_device("<<HKDevice: 0x282a45810>, name:Apple Watch, manufacturer:Apple, "
	    "model:Watch, hardware:Watch2,4, software:4.3.1>", dev, sizeof dev);
	is_str(dev, "name:Apple Watch, manufacturer:Apple, model:Watch, hardware:Watch2,4, software:4.3.1",
	    "device pointer dropped");
	hq_ingest_clean_device("<<HKDevice: 0x1>, name:iPhone>", dev, sizeof dev);
	char dev2[256];
	hq_ingest_clean_device("<<HKDevice: 0x2ffff>, name:iPhone>", dev2, sizeof dev2);
	is_str(dev, dev2, "two pointers, one device");
	hq_ingest_clean_device("Withings scale", dev, sizeof dev);
	is_str(dev, "Withings scale", "a plain device name is kept");
	hq_ingest_clean_device("<<HKDevice: 0x1>, name:iPhone>", dev, 5);
	is_str(dev, "name", "truncated to the buffer");
	return done_testing();
}
