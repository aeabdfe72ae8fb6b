#include <string.h>

#include "hq/jsonin.h"

long
hq_jsonin_line(const char *buf, const char *pos)
{
	long line = 1;

	for (const char *p = buf; p < pos; p++)
		if (*p == '\n')
			line++;
	return line;
}

/* The first place where brackets nest deeper than max, or NULL. Strings
 * are skipped, escapes included; anything else is left to cJSON. */
static const char *
too_deep(const char *p, const char *end, int max)
{
	int depth = 0;

	for (; p < end; p++) {
		if (*p == '"') {
			for (p++; p < end && *p != '"'; p++)
				if (*p == '\\' && p + 1 < end)
					p++;
		} else if (*p == '[' || *p == '{') {
			if (++depth > max)
				return p;
		} else if ((*p == ']' || *p == '}') && depth > 0) {
			depth--;
		}
	}
	return NULL;
}

static const char *
skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

long
hq_jsonin_each(const char *buf, size_t len, const char *name, int max_depth,
    hq_jsonin_fn *fn, void *arg, struct hq_err *e)
{
	const char *p = buf, *end = buf + len, *deep, *lpos = buf;
	long count = 0, line = 1;

	if (max_depth <= 0)
		max_depth = HQ_JSONIN_MAX_DEPTH;
	if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
		p += 3;
	if ((deep = too_deep(p, end, max_depth))) {
		hq_err_set(e, "%s:%ld: JSON nested deeper than %d levels", name,
		    hq_jsonin_line(buf, deep), max_depth);
		return -1;
	}
	for (p = skip_space(p, end); p < end; p = skip_space(p, end)) {
		const char *stop = NULL;
		cJSON *v = cJSON_ParseWithLengthOpts(p, (size_t)(end - p), &stop, 0);
		int rc;

		/* Lines counted from the last value on, not from the start. */
		line += hq_jsonin_line(lpos, p) - 1;
		lpos = p;
		if (!v) {
			const char *at = cJSON_GetErrorPtr();
			if (!at || at < p || at > end)
				at = p;
			hq_err_set(e, "%s:%ld: not valid JSON", name,
			    hq_jsonin_line(buf, at));
			return -1;
		}
		rc = fn(arg, v, line, e);
		cJSON_Delete(v);
		if (rc < 0)
			return -1;
		count++;
		p = stop;
	}
	return count;
}
