/*
 * svgdoc.h — for the SVG unit tests (header-only): render a chart into
 * `svg_text`, parse it with libxml2 into `svg_doc`, and ask XPath questions
 * of it (the SVG namespace is "s").
 *
 * HQ_SVG_KEEP=dir keeps each chart given a name there, to look at
 * (rsvg-convert).
 */
#ifndef HQ_SVGDOC_H
#define HQ_SVGDOC_H

#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *svg_text;
static xmlDocPtr svg_doc;

/* Render a chart with draw (hq_svg_write and the like, through an adapter)
 * and parse it; 0 when well-formed. */
static int __attribute__((unused))
svg_render(int (*draw)(FILE *, const void *), const void *chart,
    const char *keep_as)
{
	size_t len = 0;
	FILE *fp;
	const char *dir = getenv("HQ_SVG_KEEP");

	free(svg_text);
	svg_text = NULL;
	if (svg_doc)
		xmlFreeDoc(svg_doc);
	svg_doc = NULL;
	fp = open_memstream(&svg_text, &len);
	if (draw(fp, chart) != 0)
		return -1;
	fclose(fp);
	if (dir && keep_as) {
		char path[512];
		snprintf(path, sizeof path, "%s/%s.svg", dir, keep_as);
		FILE *out = fopen(path, "w");
		if (out) {
			fputs(svg_text, out);
			fclose(out);
		}
	}
	svg_doc = xmlReadMemory(svg_text, (int)len, "chart.svg", NULL,
	    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	return svg_doc ? 0 : -1;
}

static xmlXPathObjectPtr __attribute__((unused))
xpath(const char *expr)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(svg_doc);
	xmlXPathObjectPtr r;

	xmlXPathRegisterNs(ctx, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
	r = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	xmlXPathFreeContext(ctx);
	return r;
}

static int __attribute__((unused))
count(const char *expr)
{
	xmlXPathObjectPtr r = xpath(expr);
	int n = r && r->nodesetval ? r->nodesetval->nodeNr : 0;

	xmlXPathFreeObject(r);
	return n;
}

/* No "nan" or "inf" printed as a number ("dominant" is fine). */
static int __attribute__((unused))
no_nan(void)
{
	static const char *const bad[] = { "nan", "inf", "NaN", "Inf" };

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		for (const char *p = strstr(svg_text, bad[i]); p; p = strstr(p + 1, bad[i]))
			if (p == svg_text || !((p[-1] >= 'a' && p[-1] <= 'z') ||
			    (p[-1] >= 'A' && p[-1] <= 'Z')))
				return 0;
	return 1;
}

static void __attribute__((unused))
svg_done(void)
{
	free(svg_text);
	xmlFreeDoc(svg_doc);
	xmlCleanupParser();
}

#endif
