/* privacy — tool results pseudonymised for a model elsewhere (privacy.h). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hq/buf.h"
#include "hq/privacy.h"

#include "privacy_int.h"

#define WITHHELD "withheld"
/* a JSON document nested deeper is filtered as text */
#define MAX_DEPTH 256

/* ---- the policy ---- */

int
hq_privacy_url_is_local(const char *url)
{
	char host[256];
	const char *h, *end;
	size_t n;

	if (!url)
		return 0;
	if (!strncasecmp(url, "unix:", 5) || !strncasecmp(url, "http+unix:", 10))
		return 1;
	if (!(h = strstr(url, "://")))
		return 0;
	h += 3;
	if ((end = strchr(h, '@')) && end < h + strcspn(h, "/?#"))
		h = end + 1;	/* user:password@ */
	if (*h == '[') {
		end = strchr(h, ']');
		if (!end)
			return 0;
		h++;
	} else
		end = h + strcspn(h, ":/?#");
	n = (size_t)(end - h);
	if (n == 0 || n >= sizeof host)
		return 0;
	memcpy(host, h, n);
	host[n] = '\0';
	if (!strcasecmp(host, "localhost") || !strcmp(host, "::1") ||
	    !strcasecmp(host, "0:0:0:0:0:0:0:1"))
		return 1;
	/* 127.0.0.0/8, written as four decimal numbers */
	{
		unsigned a, b, c, d;
		char tail;
		if (sscanf(host, "%u.%u.%u.%u%c", &a, &b, &c, &d, &tail) == 4 && a == 127 &&
		    b < 256 && c < 256 && d < 256)
			return 1;
	}
	return 0;
}

int
hq_privacy_parse_mode(const char *s, enum hq_privacy_mode *m)
{
	static const char *const names[] = { "remote", "always", "never" };

	for (int i = 0; s && i < 3; i++)
		if (!strcmp(s, names[i])) {
			*m = (enum hq_privacy_mode)i;
			return 0;
		}
	return -1;
}

const char *
hq_privacy_kind_name(int kind)
{
	static const char *const names[] = { "positions", "names", "serials" };
	return kind >= 0 && kind < HQ_PRIV_NKINDS ? names[kind] : "?";
}

int
hq_privacy_parse_share(const char *s, unsigned *share, struct hq_err *e)
{
	size_t n;

	while (s && *s) {
		n = strcspn(s, ", ");
		if (n == 0) {
			s++;
			continue;
		}
		if (n == 3 && !strncmp(s, "all", 3))
			*share |= HQ_PRIV_ALL;
		else if (!(n == 4 && !strncmp(s, "none", 4))) {
			int k;
			for (k = 0; k < HQ_PRIV_NKINDS; k++)
				if (strlen(hq_privacy_kind_name(k)) == n &&
				    !strncmp(s, hq_privacy_kind_name(k), n))
					break;
			if (k == HQ_PRIV_NKINDS) {
				hq_err_set(e, "cannot share '%.*s': say positions, names, serials, "
				    "all or none", (int)(n > 40 ? 40 : n), s);
				return -1;
			}
			*share |= 1u << k;
		}
		s += n;
	}
	return 0;
}

unsigned
hq_privacy_withheld(enum hq_privacy_mode m, const char *base_url, unsigned share)
{
	if (m == HQ_PRIVACY_NEVER ||
	    (m == HQ_PRIVACY_REMOTE && hq_privacy_url_is_local(base_url)))
		return 0;
	return HQ_PRIV_ALL & ~share;
}

/* ---- a JSON document, walked as text (numbers copied byte for byte) ---- */

enum { K_POS = 1, K_SERIAL, K_NAME, K_SOURCE, K_PERSON_CTX, K_ORG_CTX, K_NAME_CTX,
	K_DISPLAY };

/* what a key says its value is */
static int
key_kind(const char *key, size_t n)
{
	char tok[64], flat[64];
	size_t t = 0, f = 0;
	int pos = 0;

	if (!key || n == 0 || n >= sizeof flat)
		return 0;
	for (size_t i = 0; i <= n; i++) {
		unsigned char c = i < n ? (unsigned char)key[i] : 0;
		int split = !isalnum(c) || (i > 0 && isupper(c) && islower((unsigned char)key[i - 1]));
		if (split && t) {
			tok[t] = '\0';
			if (!strcmp(tok, "lat") || !strcmp(tok, "lon") || !strcmp(tok, "lng") ||
			    !strcmp(tok, "latitude") || !strcmp(tok, "longitude") ||
			    !strcmp(tok, "coordinates") || !strcmp(tok, "coords") ||
			    !strcmp(tok, "coordinate") || !strcmp(tok, "bbox") ||
			    !strcmp(tok, "geometry") || !strcmp(tok, "position") ||
			    !strcmp(tok, "positions") || !strcmp(tok, "location") ||
			    !strcmp(tok, "near") || !strcmp(tok, "place") || !strcmp(tok, "places") ||
			    !strcmp(tok, "address") || !strcmp(tok, "geo"))
				pos = 1;
			t = 0;
		}
		if (isalnum(c)) {
			if (t < sizeof tok - 1)
				tok[t++] = (char)tolower(c);
			flat[f++] = (char)tolower(c);
		}
	}
	flat[f] = '\0';
	if (pos)
		return K_POS;
	if (!strcmp(flat, "serial") || !strcmp(flat, "serialnumber") || !strcmp(flat, "sn") ||
	    !strcmp(flat, "serialno") || !strcmp(flat, "udi") ||
	    !strcmp(flat, "udideviceidentifier") || !strcmp(flat, "localidentifier") ||
	    !strcmp(flat, "deviceserial") || !strcmp(flat, "transmitterid"))
		return K_SERIAL;
	if (!strcmp(flat, "given") || !strcmp(flat, "family") || !strcmp(flat, "surname") ||
	    !strcmp(flat, "firstname") || !strcmp(flat, "lastname") ||
	    !strcmp(flat, "fullname") || !strcmp(flat, "givenname") ||
	    !strcmp(flat, "familyname") || !strcmp(flat, "patientname") ||
	    !strcmp(flat, "practitionername") || !strcmp(flat, "username") ||
	    !strcmp(flat, "owner") || !strcmp(flat, "ownername"))
		return K_NAME;
	if (!strcmp(flat, "organization") || !strcmp(flat, "organisation") ||
	    !strcmp(flat, "managingorganization") || !strcmp(flat, "custodian") ||
	    !strcmp(flat, "serviceprovider") || !strcmp(flat, "laboratory") ||
	    !strcmp(flat, "lab") || !strcmp(flat, "hospital") || !strcmp(flat, "clinic"))
		return K_ORG_CTX;
	if (!strcmp(flat, "source") || !strcmp(flat, "sources") ||
	    !strcmp(flat, "sourcename") || !strcmp(flat, "device") ||
	    !strcmp(flat, "devices") || !strcmp(flat, "devicename") ||
	    !strcmp(flat, "hrsource") || !strcmp(flat, "productname"))
		return K_SOURCE;
	if (!strcmp(flat, "patient") || !strcmp(flat, "subject") ||
	    !strcmp(flat, "practitioner") || !strcmp(flat, "performer") ||
	    !strcmp(flat, "author") || !strcmp(flat, "requester") ||
	    !strcmp(flat, "orderer") || !strcmp(flat, "recorder") ||
	    !strcmp(flat, "asserter") || !strcmp(flat, "participant") ||
	    !strcmp(flat, "clinician") || !strcmp(flat, "physician") ||
	    !strcmp(flat, "doctor") || !strcmp(flat, "attester") ||
	    !strcmp(flat, "informant") || !strcmp(flat, "me") || !strcmp(flat, "contact"))
		return K_PERSON_CTX;
	if (!strcmp(flat, "name"))
		return K_NAME_CTX;
	if (!strcmp(flat, "display") || !strcmp(flat, "text"))
		return K_DISPLAY;
	return 0;
}

struct jwalk {
	struct hq_privacy *p;
	const char *s;
	size_t n, at;
	int learn;		/* 1: learn names only; 0: write the filtered text */
	struct hq_buf *out;
	char *(*filter_str)(struct hq_privacy *, const char *, size_t);
};

static void
ws(struct jwalk *w)
{
	size_t st = w->at;
	while (w->at < w->n && strchr(" \t\r\n", w->s[w->at]))
		w->at++;
	if (!w->learn && w->at > st)
		hq_buf_append(w->out, w->s + st, w->at - st);
}

/* A JSON string at w->at, decoded into d; its end in w->at. 0, or -1. */
static int
jstring(struct jwalk *w, struct hq_buf *d)
{
	const char *s = w->s;
	size_t i = w->at + 1;

	if (w->at >= w->n || s[w->at] != '"')
		return -1;
	while (i < w->n && s[i] != '"') {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20)
			return -1;
		if (c != '\\') {
			hq_buf_putc(d, (char)c);
			i++;
			continue;
		}
		if (++i >= w->n)
			return -1;
		switch (s[i]) {
		case '"': case '\\': case '/': hq_buf_putc(d, s[i]); break;
		case 'b': hq_buf_putc(d, '\b'); break;
		case 'f': hq_buf_putc(d, '\f'); break;
		case 'n': hq_buf_putc(d, '\n'); break;
		case 'r': hq_buf_putc(d, '\r'); break;
		case 't': hq_buf_putc(d, '\t'); break;
		case 'u': {
			unsigned long u, lo;
			char hex[5] = {0};
			if (i + 4 >= w->n)
				return -1;
			memcpy(hex, s + i + 1, 4);
			if (strspn(hex, "0123456789abcdefABCDEF") != 4)
				return -1;
			u = strtoul(hex, NULL, 16);
			i += 4;
			if (u >= 0xd800 && u < 0xdc00 && i + 6 < w->n && s[i + 1] == '\\' &&
			    s[i + 2] == 'u') {
				memcpy(hex, s + i + 3, 4);
				if (strspn(hex, "0123456789abcdefABCDEF") == 4 &&
				    (lo = strtoul(hex, NULL, 16)) >= 0xdc00 && lo < 0xe000) {
					u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
					i += 6;
				}
			}
			if (u < 0x80)
				hq_buf_putc(d, (char)(u ? u : ' '));
			else if (u < 0x800) {
				hq_buf_putc(d, (char)(0xc0 | (u >> 6)));
				hq_buf_putc(d, (char)(0x80 | (u & 0x3f)));
			} else if (u < 0x10000) {
				hq_buf_putc(d, (char)(0xe0 | (u >> 12)));
				hq_buf_putc(d, (char)(0x80 | ((u >> 6) & 0x3f)));
				hq_buf_putc(d, (char)(0x80 | (u & 0x3f)));
			} else {
				hq_buf_putc(d, (char)(0xf0 | (u >> 18)));
				hq_buf_putc(d, (char)(0x80 | ((u >> 12) & 0x3f)));
				hq_buf_putc(d, (char)(0x80 | ((u >> 6) & 0x3f)));
				hq_buf_putc(d, (char)(0x80 | (u & 0x3f)));
			}
			break;
		}
		default:
			return -1;
		}
		i++;
	}
	if (i >= w->n)
		return -1;
	w->at = i + 1;
	if (!d->data)
		hq_buf_puts(d, "");
	return 0;
}

/* the value at w->at, skipped (validated); 0, or -1 */
static int jvalue(struct jwalk *w, int kind, int ctx, int depth, int skip);

/* one string value (or key, kind -1): learnt from, and written filtered */
static int
jstring_value(struct jwalk *w, int kind, int ctx, int skip)
{
	struct hq_buf d = {0};
	size_t st = w->at;
	char *f;
	int rc = jstring(w, &d);

	if (rc || skip) {
		hq_buf_free(&d);
		return rc;
	}
	if (w->learn) {
		int in_name = kind == K_NAME_CTX || kind == K_DISPLAY;
		if (kind == K_NAME || (ctx == K_PERSON_CTX && in_name) ||
		    (ctx == K_NAME_CTX && kind == K_DISPLAY))
			hq_privacy_add_name(w->p, d.data, d.len, 0);
		else if (kind == K_ORG_CTX || (ctx == K_ORG_CTX && in_name))
			hq_privacy_add_name(w->p, d.data, d.len, 1);
		else if (kind == K_SOURCE)
			hq_privacy_learn_source(w->p, d.data, d.len);
		else if (kind != -1)
			hq_privacy_learn_text(w->p, d.data, d.len, 0);
		hq_buf_free(&d);
		return 0;
	}
	f = kind == -1 ? NULL : w->filter_str(w->p, d.data, d.len);
	if (f && (strlen(f) != d.len || memcmp(f, d.data, d.len)))
		hq_buf_json_str(w->out, f);
	else
		hq_buf_append(w->out, w->s + st, w->at - st);
	free(f);
	hq_buf_free(&d);
	return 0;
}

static int
jcontainer(struct jwalk *w, int kind, int ctx, int depth, int skip)
{
	char close = w->s[w->at] == '{' ? '}' : ']';
	int obj = close == '}';

	if (depth > MAX_DEPTH)
		return -1;
	if (!w->learn && !skip)
		hq_buf_putc(w->out, w->s[w->at]);
	w->at++;
	/* what the members see above them */
	if (kind == K_PERSON_CTX || kind == K_ORG_CTX || (kind == K_NAME_CTX && !ctx))
		ctx = kind;
	if (!skip)
		ws(w);
	else
		while (w->at < w->n && strchr(" \t\r\n", w->s[w->at]))
			w->at++;
	if (w->at < w->n && w->s[w->at] == close) {
		if (!w->learn && !skip)
			hq_buf_putc(w->out, close);
		w->at++;
		return 0;
	}
	for (;;) {
		int k = kind;
		if (obj) {
			size_t ks = w->at;
			if (jstring_value(w, -1, ctx, skip))
				return -1;
			k = key_kind(w->s + ks + 1, w->at - ks - 2);
			if (!skip)
				ws(w);
			else
				while (w->at < w->n && strchr(" \t\r\n", w->s[w->at]))
					w->at++;
			if (w->at >= w->n || w->s[w->at] != ':')
				return -1;
			if (!w->learn && !skip)
				hq_buf_putc(w->out, ':');
			w->at++;
		}
		if (jvalue(w, k, ctx, depth + 1, skip))
			return -1;
		if (w->at >= w->n)
			return -1;
		if (w->s[w->at] == close) {
			if (!w->learn && !skip)
				hq_buf_putc(w->out, close);
			w->at++;
			return 0;
		}
		if (w->s[w->at] != ',')
			return -1;
		if (!w->learn && !skip)
			hq_buf_putc(w->out, ',');
		w->at++;
	}
}

static int
jvalue(struct jwalk *w, int kind, int ctx, int depth, int skip)
{
	size_t st;
	int withhold = !skip && ((kind == K_POS && (w->p->withhold & HQ_PRIV_POSITIONS)) ||
	    (kind == K_SERIAL && (w->p->withhold & HQ_PRIV_SERIALS)));

	if (!skip)
		ws(w);
	else
		while (w->at < w->n && strchr(" \t\r\n", w->s[w->at]))
			w->at++;
	if (w->at >= w->n)
		return -1;
	st = w->at;
	if (withhold) {
		if (jvalue(w, 0, ctx, depth, 1))
			return -1;
		/* null stays null: there was nothing to withhold */
		if (w->at - st == 4 && !memcmp(w->s + st, "null", 4)) {
			if (!w->learn)
				hq_buf_puts(w->out, "null");
		} else if (!w->learn) {
			hq_buf_puts(w->out, "\"" WITHHELD "\"");
			w->p->count[kind == K_POS ? 0 : 2]++;
		}
	} else if (w->s[w->at] == '{' || w->s[w->at] == '[') {
		if (jcontainer(w, kind, ctx, depth, skip))
			return -1;
	} else if (w->s[w->at] == '"') {
		if (jstring_value(w, kind, ctx, skip))
			return -1;
	} else {
		while (w->at < w->n && (isalnum((unsigned char)w->s[w->at]) ||
		    strchr("+-.", w->s[w->at])))
			w->at++;
		if (w->at == st)
			return -1;
		if (!w->learn && !skip)
			hq_buf_append(w->out, w->s + st, w->at - st);
	}
	if (!skip)
		ws(w);
	else
		while (w->at < w->n && strchr(" \t\r\n", w->s[w->at]))
			w->at++;
	return 0;
}

/* The text as JSON values one after another (JSON lines, a document):
 * walked; 0, or -1 when it is not JSON (out is then partly written). */
static int
walk_json(struct jwalk *w)
{
	if (!w->n || (w->s[strspn(w->s, " \t\r\n")] != '{' && w->s[strspn(w->s, " \t\r\n")] != '['))
		return -1;
	while (w->at < w->n) {
		if (jvalue(w, 0, 0, 0, 0))
			return -1;
	}
	return 0;
}

/* ---- free text ---- */

/* where a word ends: the text's end, a byte that is not a word's, or
 * punctuation outside ASCII (U+2000..U+206F: ’ – “ and spaces) */
static int
word_end(const char *s, size_t n)
{
	return n == 0 || !hq_privacy_word_byte((unsigned char)s[0]) ||
	    (n >= 2 && (unsigned char)s[0] == 0xe2 && ((unsigned char)s[1] == 0x80 ||
	    (unsigned char)s[1] == 0x81)) ||
	    (n >= 2 && (unsigned char)s[0] == 0xc2 && (unsigned char)s[1] == 0xa0);
}

/* a number at s with at least 3 decimals: its length, else 0 */
static size_t
coord_number(const char *s, size_t n)
{
	size_t i = 0, d = 0;

	if (i < n && (s[i] == '-' || s[i] == '+'))
		i++;
	size_t ip = i;
	while (i < n && isdigit((unsigned char)s[i]))
		i++;
	if (i == ip || i - ip > 3 || i >= n || s[i] != '.')
		return 0;
	i++;
	while (i < n && isdigit((unsigned char)s[i])) {
		i++;
		d++;
	}
	if (d < 3 || fabs(strtod(s, NULL)) > 180)
		return 0;
	return i;
}

/* a coordinate pair at s ("51.50740, -0.12780", "51.5074 -0.1278"):
 * its length, else 0 */
static size_t
coord_pair(const char *s, size_t n)
{
	size_t a = coord_number(s, n), i, b;

	if (!a)
		return 0;
	i = a;
	if (i < n && (s[i] == ',' || s[i] == ';' || s[i] == '/'))
		i++;
	while (i < n && s[i] == ' ')
		i++;
	if (i == a || !(b = coord_number(s + i, n - i)))
		return 0;
	return i + b;
}

/* a label of a position in text: lat="51.5", lon=-0.1, "latitude": 51.5 */
static size_t
position_label(const char *s, size_t n, size_t *vstart)
{
	size_t k = 0, i, v;

	while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '_'))
		k++;
	if (k == 0 || key_kind(s, k) != K_POS)
		return 0;
	i = k;
	if (i < n && (s[i] == '"' || s[i] == '\''))
		i++;
	while (i < n && s[i] == ' ')
		i++;
	if (i >= n || (s[i] != '=' && s[i] != ':'))
		return 0;
	i++;
	while (i < n && (s[i] == ' ' || s[i] == '"' || s[i] == '\''))
		i++;
	if (!(v = coord_number(s + i, n - i)))
		return 0;
	*vstart = i;
	return i + v;
}

static int
has_digit(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isdigit((unsigned char)s[i]))
			return 1;
	return 0;
}

/* serials in text: "(SN 3912345678)", "serial number: X1Y2", HKDevice's
 * address and identifiers */
static size_t
serial_label(const char *s, size_t n, size_t *vstart)
{
	static const char *const labels[] = { "SN ", "SN:", "SN#", "S/N ", "S/N:", "s/n ",
		"serial number: ", "serial number ", "Serial number: ", "Serial Number: ",
		"Serial number ", "serial: ", "Serial: ", "serial ", "Serial ",
		"serialNumber:", "HKDevice: ", "UDIDeviceIdentifier:", "localIdentifier:",
		"udiDeviceIdentifier:", NULL };
	size_t i, t;

	for (int l = 0; labels[l]; l++) {
		size_t ll = strlen(labels[l]);
		if (n <= ll || memcmp(s, labels[l], ll))
			continue;
		i = ll;
		while (i < n && s[i] == ' ')
			i++;
		t = i;
		while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '-'))
			i++;
		/* a serial has a digit and 4 characters or more */
		if (i - t < 4 || !has_digit(s + t, i - t))
			continue;
		*vstart = t;
		return i;
	}
	return 0;
}

/* the placeholder of name i, numbered when first met */
static void
placeholder(struct hq_privacy *p, size_t i, struct hq_buf *out)
{
	struct hq_privacy_name *nm = &p->names[i];

	if (!nm->num)
		nm->num = nm->org ? ++p->orgs : ++p->persons;
	hq_buf_printf(out, "%s %d", nm->org ? "Organisation" : "Person", nm->num);
}

/* the known name at s (at a word's start), its index; -1 when none */
static long
name_at(const struct hq_privacy *p, const char *s, size_t n)
{
	for (size_t i = 0; i < p->n; i++) {
		size_t l = strlen(p->names[i].real);
		if (l <= n && !strncasecmp(s, p->names[i].real, l) && word_end(s + l, n - l))
			return (long)i;
	}
	return -1;
}

/* One string (a JSON string's content, or a text) as the model may see it. */
static char *
filter_str(struct hq_privacy *p, const char *s, size_t n)
{
	struct hq_buf out = {0};
	size_t i = 0, len, v;
	long k;

	while (i < n) {
		int start = i == 0 || !hq_privacy_word_byte((unsigned char)s[i - 1]);
		if ((p->withhold & HQ_PRIV_SERIALS) && start &&
		    (len = serial_label(s + i, n - i, &v))) {
			hq_buf_append(&out, s + i, v);
			hq_buf_puts(&out, WITHHELD);
			p->count[2]++;
			i += len;
			continue;
		}
		if ((p->withhold & HQ_PRIV_POSITIONS) && start) {
			if ((len = position_label(s + i, n - i, &v))) {
				hq_buf_append(&out, s + i, v);
				hq_buf_puts(&out, WITHHELD);
				p->count[0]++;
				i += len;
				continue;
			}
			if ((len = coord_pair(s + i, n - i)) &&
			    (i + len == n || !isdigit((unsigned char)s[i + len]))) {
				hq_buf_puts(&out, "(position " WITHHELD ")");
				p->count[0]++;
				i += len;
				continue;
			}
		}
		if ((p->withhold & HQ_PRIV_NAMES) && start && hq_privacy_word_byte((unsigned char)s[i]) &&
		    (k = name_at(p, s + i, n - i)) >= 0) {
			placeholder(p, (size_t)k, &out);
			p->count[1]++;
			i += strlen(p->names[k].real);
			continue;
		}
		hq_buf_putc(&out, s[i++]);
	}
	if (!out.data)
		hq_buf_puts(&out, "");
	return hq_buf_steal(&out);
}

/* CSV whose header names a position column: those cells withheld. The
 * text, or NULL when it is not such CSV. */
static char *
filter_csv(struct hq_privacy *p, const char *s)
{
	const char *eol = strchr(s, '\n'), *c;
	unsigned long long cols = 0;
	struct hq_buf out = {0};
	size_t col = 0;

	if (!eol || !memchr(s, ',', (size_t)(eol - s)) || !(p->withhold & HQ_PRIV_POSITIONS))
		return NULL;
	for (c = s; c <= eol; c++) {
		size_t l = strcspn(c, ",\n");
		if (key_kind(c, l) == K_POS && col < 64)
			cols |= 1ull << col;
		col++;
		c += l;
	}
	if (!cols)
		return NULL;
	hq_buf_append(&out, s, (size_t)(eol - s + 1));
	col = 0;
	for (c = eol + 1; *c;) {
		size_t l = strcspn(c, ",\n");
		if (col < 64 && (cols >> col & 1) && l) {
			hq_buf_puts(&out, WITHHELD);
			p->count[0]++;
		} else
			hq_buf_append(&out, c, l);
		c += l;
		if (*c == ',') {
			hq_buf_putc(&out, ',');
			col++;
			c++;
		} else if (*c == '\n') {
			hq_buf_putc(&out, '\n');
			col = 0;
			c++;
		}
	}
	return hq_buf_steal(&out);
}

void
hq_privacy_learn(struct hq_privacy *p, const char *text)
{
	struct jwalk w = { p, text, text ? strlen(text) : 0, 0, 1, NULL, filter_str };

	if (!text || !(p->withhold & HQ_PRIV_NAMES))
		return;
	if (walk_json(&w))
		hq_privacy_learn_text(p, text, w.n, 0);
}

char *
hq_privacy_filter(struct hq_privacy *p, const char *text)
{
	struct hq_buf out = {0};
	struct jwalk w = { p, text, text ? strlen(text) : 0, 0, 0, &out, filter_str };
	size_t saved[HQ_PRIV_NKINDS];
	char *csv, *f;

	if (!text)
		return NULL;
	if (!p->withhold)
		return hq_xstrdup(text);
	memcpy(saved, p->count, sizeof saved);
	if (!walk_json(&w)) {
		if (!out.data)
			hq_buf_puts(&out, "");
		return hq_buf_steal(&out);
	}
	hq_buf_free(&out);
	memcpy(p->count, saved, sizeof saved);
	csv = filter_csv(p, text);
	f = filter_str(p, csv ? csv : text, strlen(csv ? csv : text));
	free(csv);
	return f;
}

/* "Person 12" / "Organisation 3" at s: its length and the name's index */
static size_t
placeholder_at(const struct hq_privacy *p, const char *s, long *idx)
{
	int org = !strncmp(s, "Organisation ", 13), num = 0;
	size_t i = org ? 13 : !strncmp(s, "Person ", 7) ? 7 : 0, d;

	if (!i)
		return 0;
	for (d = i; isdigit((unsigned char)s[d]) && d - i < 6; d++)
		num = num * 10 + (s[d] - '0');
	if (d == i || isdigit((unsigned char)s[d]))
		return 0;
	for (size_t k = 0; k < p->n; k++)
		if (p->names[k].num == num && p->names[k].org == org) {
			*idx = (long)k;
			return d;
		}
	return 0;
}

char *
hq_privacy_restore(const struct hq_privacy *p, const char *text, int json)
{
	struct hq_buf out = {0}, esc = {0};
	size_t len;
	long k;

	if (!text)
		return NULL;
	for (size_t i = 0; text[i];) {
		if ((i == 0 || !hq_privacy_word_byte((unsigned char)text[i - 1])) &&
		    (len = placeholder_at(p, text + i, &k))) {
			if (json) {
				hq_buf_reset(&esc);
				hq_buf_json_str(&esc, p->names[k].real);
				hq_buf_append(&out, esc.data + 1, esc.len - 2);
			} else
				hq_buf_puts(&out, p->names[k].real);
			i += len;
			continue;
		}
		hq_buf_putc(&out, text[i++]);
	}
	hq_buf_free(&esc);
	if (!out.data)
		hq_buf_puts(&out, "");
	return hq_buf_steal(&out);
}

size_t
hq_privacy_pending(const char *text, size_t len)
{
	static const char *const heads[] = { "Person ", "Organisation " };
	size_t best = 0;

	for (size_t back = 1; back <= 20 && back <= len; back++) {
		const char *t = text + len - back;
		if (len > back && hq_privacy_word_byte((unsigned char)t[-1]))
			continue;
		for (int h = 0; h < 2; h++) {
			size_t hl = strlen(heads[h]);
			size_t cmp = back < hl ? back : hl;
			if (strncmp(t, heads[h], cmp))
				continue;
			/* the head, then digits only */
			if (back <= hl || strspn(t + hl, "0123456789") == back - hl)
				best = back;
		}
	}
	return best;
}

/* ---- the question ---- */

/* a street address: a house number, words, a street word */
static int
street_at(const char *s, size_t n)
{
	static const char *const streets[] = { "street", "st", "road", "rd", "avenue",
		"ave", "lane", "ln", "drive", "boulevard", "blvd", "way", "court", "ct",
		"place", "square", "terrace", "crescent", "close", "gardens", "highway",
		"strasse", "straße", "rue", "calle", "via", NULL };
	size_t i = 0, w;

	while (i < n && isdigit((unsigned char)s[i]))
		i++;
	if (i == 0 || i > 5 || i >= n || s[i] != ' ')
		return 0;
	for (int words = 0; words < 4 && i < n && s[i] == ' '; words++) {
		i++;
		for (w = i; w < n && hq_privacy_word_byte((unsigned char)s[w]); w++)
			;
		for (int k = 0; streets[k]; k++)
			if (strlen(streets[k]) == w - i && !strncasecmp(s + i, streets[k], w - i) &&
			    words > 0)
				return 1;
		i = w;
	}
	return 0;
}

int
hq_privacy_check_question(const struct hq_privacy *p, const char *q, char *why, size_t n)
{
	size_t len = strlen(q), v;
	const char *what = NULL;

	for (size_t i = 0; i < len && !what; i++) {
		int start = i == 0 || !hq_privacy_word_byte((unsigned char)q[i - 1]);
		if (!start)
			continue;
		if ((p->withhold & HQ_PRIV_POSITIONS) && (coord_pair(q + i, len - i) ||
		    position_label(q + i, len - i, &v)))
			what = "a position (a coordinate pair)";
		else if ((p->withhold & HQ_PRIV_POSITIONS) && street_at(q + i, len - i))
			what = "what looks like a street address";
		else if ((p->withhold & HQ_PRIV_SERIALS) && serial_label(q + i, len - i, &v))
			what = "a serial number";
	}
	if (!what)
		return 0;
	snprintf(why, n, "the question holds %s, which would leave this machine", what);
	return 1;
}
