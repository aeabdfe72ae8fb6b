#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/jsonin.h"

/* The line (from 1) of pos in buf. */
static long
hq_jsonin_line(const char *buf, const char *pos)
{
	long line = 1;

	for (const char *p = buf; p < pos; p++)
		if (*p == '\n')
			line++;
	return line;
}

size_t
hq_jsonin_scan(struct hq_jsonin_scan *s, const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = p[i];

		if (c == '\n')
			s->lines++;
		if (s->in_str) {
			if (s->esc)
				s->esc = 0;
			else if (c == '\\')
				s->esc = 1;
			else if (c == '"') {
				s->in_str = 0;
				if (s->depth == s->stop) {
					s->done = 1;
					return i + 1;
				}
			}
		} else if (c == '"') {
			s->in_str = 1;
		} else if (c == ',') {
			s->values++;
		} else if (c == '[' || c == '{') {
			s->values++;
			if (++s->depth > s->max) {
				s->deep = 1;
				return i + 1;
			}
		} else if ((c == ']' || c == '}') && s->depth > 0) {
			if (--s->depth == s->stop) {
				s->done = 1;
				return i + 1;
			}
		}
	}
	return n;
}

/* The first place where brackets nest deeper than max, or NULL. Strings
 * are skipped, escapes included; anything else is left to cJSON. */
static const char *
too_deep(const char *p, const char *end, int max)
{
	struct hq_jsonin_scan s = { .max = max, .stop = -1 };
	size_t k = hq_jsonin_scan(&s, p, (size_t)(end - p));

	return s.deep ? p + k - 1 : NULL;
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

/* ---- streams --------------------------------------------------------------
 *
 * The stream knows the structure of the top level only: a top-level
 * object is read member by member, each key and value captured as text
 * (hq_jsonin_scan finds where a bracketed value or a string ends; a
 * number or word ends at white space or punctuation) and parsed by cJSON
 * on its own, then added to the object; the elements of a split array are
 * captured and parsed one by one and handed on. Every other top-level
 * value is captured and parsed whole. Bounds hold while capturing, before
 * anything is parsed: the text of an element, of the rest of a value, and
 * the depth. White space is what cJSON skips (any byte up to ' '); at the
 * top level, as in hq_jsonin_each(), only the four of JSON may end the
 * file.
 */

enum state {
	TOP,            /* between top-level values */
	KEY_FIRST,      /* after '{': a key or '}' */
	KEY,            /* after ',': a key */
	COLON,
	VALUE,          /* after ':' */
	NEXT,           /* after a member: ',' or '}' */
	ELEM_FIRST,     /* after the '[' of a split array: an element or ']' */
	ELEM,           /* after ',' in it: an element */
	ELEM_NEXT,      /* after an element: ',' or ']' */
	CAPTURE,        /* inside a key or value: see what */
	FAILED
};

enum what { W_TOP, W_KEY, W_MEMBER, W_ELEMENT };

struct hq_jsonin_stream {
	const char *name;
	struct hq_jsonin_limits lim;
	int max_depth;
	const struct hq_jsonin_stream_cb *cb;
	void *arg;

	enum state st;
	long line;               /* of the next byte */
	size_t offset;           /* bytes fed (for the byte-order mark) */
	int bom;                 /* bytes of a byte-order mark seen */
	int odd_space;           /* top level: white space only cJSON skips */
	size_t space;            /* white space since the last token */
	long count;

	cJSON *obj;              /* the top-level object being read */
	long obj_line;
	size_t held;             /* its text so far, split elements aside */
	long held_values;        /* and its values */
	char *key;               /* the member being read */
	int top_array;           /* the split array is a top-level one */

	enum what what;          /* what is captured */
	int scalar;              /* a number or word, else a scan */
	struct hq_jsonin_scan scan;
	struct hq_buf cap;
	long cap_line;
};

struct hq_jsonin_stream *
hq_jsonin_stream_new(const char *name, const struct hq_jsonin_limits *lim,
    const struct hq_jsonin_stream_cb *cb, void *arg)
{
	struct hq_jsonin_stream *s = hq_xcalloc(1, sizeof *s);

	s->name = name;
	s->lim = *lim;
	s->max_depth = lim->depth > 0 ? lim->depth : HQ_JSONIN_MAX_DEPTH;
	s->cb = cb;
	s->arg = arg;
	s->line = 1;
	return s;
}

void
hq_jsonin_stream_free(struct hq_jsonin_stream *s)
{
	if (!s)
		return;
	cJSON_Delete(s->obj);
	free(s->key);
	hq_buf_free(&s->cap);
	free(s);
}

static int
fail(struct hq_jsonin_stream *s, long line, const char *why, struct hq_err *e)
{
	hq_err_set(e, "%s:%ld: %s", s->name, line, why);
	s->st = FAILED;
	return -1;
}

/* "16 MiB", or bytes when that is not a whole number of MiB. */
static void
size_words(char *buf, size_t n, size_t size)
{
	if (size >= (1u << 20) && size % (1u << 20) == 0)
		snprintf(buf, n, "%zu MiB", size >> 20);
	else
		snprintf(buf, n, "%zu bytes", size);
}

static int
is_space(char c)
{
	return (unsigned char)c <= ' ';
}

/* Punctuation that no value starts with. */
static int
is_stray(char c)
{
	return c == ',' || c == ':' || c == ']' || c == '}';
}

/* The one value in the captured text, or NULL with e set. */
static cJSON *
parse_one(struct hq_jsonin_stream *s, struct hq_err *e)
{
	const char *buf = s->cap.data, *end = buf + s->cap.len, *stop = NULL;
	cJSON *v = cJSON_ParseWithLengthOpts(buf, s->cap.len, &stop, 0);
	const char *at;

	if (v) {
		for (at = stop; at < end && is_space(*at); at++)
			;
		if (at == end)
			return v;
		cJSON_Delete(v);
	} else {
		at = cJSON_GetErrorPtr();
		if (!at || at < buf || at > end)
			at = buf;
	}
	fail(s, s->cap_line + hq_jsonin_line(buf, at) - 1, "not valid JSON", e);
	return NULL;
}

static void
capture(struct hq_jsonin_stream *s, enum what what, int depth, char c)
{
	s->what = what;
	s->scalar = c != '{' && c != '[' && c != '"';
	s->scan = (struct hq_jsonin_scan){ .depth = depth, .max = s->max_depth,
	    .stop = depth };
	hq_buf_reset(&s->cap);
	s->cap_line = s->line;
	s->st = CAPTURE;
}

static int
end_object(struct hq_jsonin_stream *s, struct hq_err *e)
{
	int rc = s->cb->value(s->arg, s->obj, s->obj_line, e);

	cJSON_Delete(s->obj);
	s->obj = NULL;
	if (rc < 0) {
		s->st = FAILED;
		return -1;
	}
	s->count++;
	s->st = TOP;
	return 0;
}

static int
add_member(struct hq_jsonin_stream *s, cJSON *v, struct hq_err *e)
{
	if (!cJSON_AddItemToObject(s->obj, s->key, v)) {
		cJSON_Delete(v);
		return fail(s, s->line, "out of memory", e);
	}
	free(s->key);
	s->key = NULL;
	s->st = NEXT;
	return 0;
}

/* What was captured, parsed and put where it goes. */
static int
captured(struct hq_jsonin_stream *s, struct hq_err *e)
{
	cJSON *v = parse_one(s, e);
	int rc = 0;

	if (!v)
		return -1;
	switch (s->what) {
	case W_TOP:
		rc = s->cb->value(s->arg, v, s->cap_line, e);
		s->count++;
		s->st = TOP;
		break;
	case W_KEY:
		s->key = hq_xstrdup(cJSON_GetStringValue(v));
		s->held += s->cap.len;
		s->st = COLON;
		break;
	case W_MEMBER:
		s->held += s->cap.len;
		s->held_values += 1 + s->scan.values;
		return add_member(s, v, e);
	case W_ELEMENT:
		rc = s->cb->element(s->arg, v, s->cap_line, e);
		s->st = ELEM_NEXT;
		break;
	}
	cJSON_Delete(v);
	if (rc < 0)
		s->st = FAILED;
	return rc < 0 ? -1 : 0;
}

/* Bytes p[0..n) of what is being captured: how many it took (the rest
 * follow it), or -1 with e set. */
static long
capture_bytes(struct hq_jsonin_stream *s, const char *p, size_t n,
    struct hq_err *e)
{
	size_t k = 0, max;
	long maxv;
	char why[96], size[32];
	const char *what;
	int done;

	if (s->scalar) {
		while (k < n && !is_space(p[k]) && !is_stray(p[k]) &&
		    p[k] != '[' && p[k] != '{' && p[k] != '"')
			k++;
		done = k < n;
	} else {
		s->scan.lines = 0;
		k = hq_jsonin_scan(&s->scan, p, n);
		s->line += s->scan.lines;
		if (s->scan.deep) {
			snprintf(why, sizeof why, "JSON nested deeper than %d levels",
			    s->max_depth);
			return fail(s, s->line, why, e);
		}
		done = s->scan.done;
	}
	if (s->what == W_ELEMENT) {
		max = s->lim.element_bytes;
		maxv = s->lim.element_values;
	} else if (s->what == W_TOP) {
		max = s->lim.value_bytes;
		maxv = s->lim.value_values;
	} else {
		max = s->held >= s->lim.value_bytes ? 0 :
		    s->lim.value_bytes - s->held;
		maxv = s->lim.value_values - s->held_values;
	}
	what = s->what != W_ELEMENT ? "JSON value" : s->cb->element_what ?
	    s->cb->element_what : "an array element";
	if (s->cap.len + k > max) {
		size_words(size, sizeof size, s->what == W_ELEMENT ?
		    s->lim.element_bytes : s->lim.value_bytes);
		snprintf(why, sizeof why, "%s larger than %s", what, size);
		return fail(s, s->cap_line, why, e);
	}
	if (1 + s->scan.values > maxv) {
		snprintf(why, sizeof why, "%s of more than %ld values", what,
		    s->what == W_ELEMENT ? s->lim.element_values :
		    s->lim.value_values);
		return fail(s, s->cap_line, why, e);
	}
	hq_buf_append(&s->cap, p, k);
	if (done && captured(s, e) < 0)
		return -1;
	return (long)k;
}

/* A structural byte c (not space, not inside a capture) in state s->st:
 * 1 when c is used, 0 when it is to be read again (a capture it opens, or
 * the state it led to), -1 with e set. */
static int
structural(struct hq_jsonin_stream *s, char c, struct hq_err *e)
{
	switch (s->st) {
	case TOP:
		s->odd_space = 0;
		if (c == '{') {
			if (!(s->obj = cJSON_CreateObject()))
				return fail(s, s->line, "out of memory", e);
			s->obj_line = s->line;
			s->held = 1;
			s->held_values = 1;
			s->st = KEY_FIRST;
			break;
		}
		if (c == '[' && s->cb->split_top) {
			s->top_array = 1;
			s->st = ELEM_FIRST;
			break;
		}
		if (is_stray(c))
			return fail(s, s->line, "not valid JSON", e);
		capture(s, W_TOP, 0, c);
		return 0;   /* c is the capture's first byte */
	case KEY_FIRST:
	case KEY:
		if (c == '}' && s->st == KEY_FIRST) {
			if (end_object(s, e) < 0)
				return -1;
			break;
		}
		if (c != '"')
			return fail(s, s->line, "not valid JSON", e);
		capture(s, W_KEY, 1, c);
		return 0;
	case COLON:
		if (c != ':')
			return fail(s, s->line, "not valid JSON", e);
		s->st = VALUE;
		break;
	case VALUE:
		if (is_stray(c))
			return fail(s, s->line, "not valid JSON", e);
		if (c == '[' && s->cb->split &&
		    s->cb->split(s->arg, s->obj, s->key)) {
			s->st = ELEM_FIRST;
			break;
		}
		capture(s, W_MEMBER, 1, c);
		return 0;
	case NEXT:
		if (c == ',')
			s->st = KEY;
		else if (c == '}') {
			if (end_object(s, e) < 0)
				return -1;
		} else
			return fail(s, s->line, "not valid JSON", e);
		break;
	case ELEM_FIRST:
	case ELEM:
		if (c == ']' && s->st == ELEM_FIRST && s->top_array) {
			s->top_array = 0;
			s->count++;
			s->st = TOP;
			break;
		}
		if (c == ']' && s->st == ELEM_FIRST) {
			cJSON *empty = cJSON_CreateArray();
			if (!empty)
				return fail(s, s->line, "out of memory", e);
			if (add_member(s, empty, e) < 0)
				return -1;
			break;
		}
		if (is_stray(c))
			return fail(s, s->line, "not valid JSON", e);
		capture(s, W_ELEMENT, s->top_array ? 1 : 2, c);
		return 0;
	case ELEM_NEXT:
		if (c == ',')
			s->st = ELEM;
		else if (c == ']')
			s->st = ELEM_FIRST;   /* closes it as an empty one */
		else
			return fail(s, s->line, "not valid JSON", e);
		if (c == ']')
			return 0;
		break;
	case CAPTURE:
	case FAILED:
		break;
	}
	return 1;
}

int
hq_jsonin_stream_feed(struct hq_jsonin_stream *s, const char *p, size_t n,
    struct hq_err *e)
{
	size_t i = 0;

	if (s->st == FAILED) {
		hq_err_set(e, "%s: read after an error", s->name);
		return -1;
	}
	while (i < n) {
		char c = p[i];
		long k;

		if (s->st == CAPTURE) {
			if ((k = capture_bytes(s, p + i, n - i, e)) < 0)
				return -1;
			i += (size_t)k;
			s->offset += (size_t)k;
			continue;
		}
		/* A byte-order mark opens the file only. */
		if (s->offset < 3 && s->bom == (int)s->offset &&
		    c == "\xEF\xBB\xBF"[s->offset]) {
			s->bom++;
			s->offset++;
			i++;
			continue;
		}
		if (s->bom > 0 && s->bom < 3)
			return fail(s, s->line, "not valid JSON", e);
		if (is_space(c)) {
			/* A run of white space is bounded as a value is, so
			 * that an endless one ends (a file of spaces, a pipe
			 * from /dev/zero). */
			if (++s->space > s->lim.value_bytes) {
				char why[64], size[32];
				size_words(size, sizeof size, s->lim.value_bytes);
				snprintf(why, sizeof why, "more than %s of white space",
				    size);
				return fail(s, s->line, why, e);
			}
			if (c == '\n')
				s->line++;
			else if (s->st == TOP && c != ' ' && c != '\t' && c != '\r')
				s->odd_space = 1;
			s->offset++;
			i++;
			continue;
		}
		s->space = 0;
		if ((k = structural(s, c, e)) < 0)
			return -1;
		if (k == 0)
			continue;
		s->offset++;
		i++;
	}
	return 0;
}

long
hq_jsonin_stream_end(struct hq_jsonin_stream *s, struct hq_err *e)
{
	if (s->st == FAILED) {
		hq_err_set(e, "%s: read after an error", s->name);
		return -1;
	}
	/* A number or word that ends the file ends there. */
	if (s->st == CAPTURE && s->scalar && s->what == W_TOP &&
	    captured(s, e) < 0)
		return -1;
	if (s->st != TOP)
		return fail(s, s->line, "not valid JSON: the file ends inside it", e);
	if (s->odd_space || (s->bom > 0 && s->bom < 3))
		return fail(s, s->line, "not valid JSON", e);
	return s->count;
}
