/*
 * search_parse — what hq-query search is asked (search.h): --in's kinds;
 * --near's point, or a [places] name checked; TEXT checked and rewritten
 * here with every word quoted, so that SQLite's FTS5 never sees a syntax
 * it could refuse: a malformed query is named by its word, never an SQL
 * error. search.c runs what these make.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/number.h"
#include "hq/search.h"

/* ---- --in ------------------------------------------------------------------ */

static const struct {
	const char *word, *kind;
	unsigned bit;
} kinds[] = {
	{ "workouts", "workout", HQ_SEARCH_WORKOUT },
	{ "labs", "lab", HQ_SEARCH_LAB },
	{ "records", "record", HQ_SEARCH_RECORD },
	{ "metrics", "metric", HQ_SEARCH_METRIC },
	{ "sources", "source", HQ_SEARCH_SOURCE },
};

#define NKINDS (sizeof kinds / sizeof kinds[0])

const char *
hq_search_kind_at(size_t i)
{
	return i < NKINDS ? kinds[i].word : NULL;
}

int
hq_search_parse_kinds(const char *list, unsigned *bits, struct hq_err *e)
{
	const char *p = list;

	*bits = 0;
	while (*p) {
		size_t n = strcspn(p, ","), i;
		for (i = 0; i < NKINDS; i++)
			if ((strlen(kinds[i].word) == n &&
			    !strncmp(p, kinds[i].word, n)) ||
			    (strlen(kinds[i].kind) == n && !strncmp(p, kinds[i].kind, n)))
				break;
		if (i == NKINDS) {
			hq_err_set(e, "--in '%.*s': use workouts, labs, records, "
			    "metrics or sources (comma-separated)", (int)(n > 64 ? 64 : n), p);
			return -1;
		}
		*bits |= kinds[i].bit;
		p += n;
		if (*p == ',')
			p++;
	}
	if (!*bits) {
		hq_err_set(e, "--in: name a kind: workouts, labs, records, metrics "
		    "or sources");
		return -1;
	}
	return 0;
}

/* ---- --near ---------------------------------------------------------------- */

/* "LAT,LON[,KM]": 0, or -1 saying what is wrong with it (what: how it
 * was given, for the message). */
static int
parse_point(const char *s, const char *what, struct hq_search *q,
    struct hq_err *e)
{
	double v[3] = { 0, 0, HQ_SEARCH_DEFAULT_KM };
	const char *p = s, *end;
	int n = 0;

	for (;;) {
		if (n == 3 || hq_opts_scan_number(p, &end, &v[n]) || (*end &&
		    *end != ',')) {
			hq_err_set(e, "%s '%.64s': write LAT,LON or LAT,LON,KM in "
			    "decimal degrees and kilometres (37.8199,-122.4783,0.5)",
			    what, s);
			return -1;
		}
		n++;
		if (!*end)
			break;
		p = end + 1;
	}
	if (n < 2) {
		hq_err_set(e, "%s '%.64s': write LAT,LON or LAT,LON,KM", what, s);
		return -1;
	}
	if (v[0] < -90 || v[0] > 90) {
		hq_err_set(e, "%s '%.64s': latitude %g is outside -90 to 90", what,
		    s, v[0]);
		return -1;
	}
	if (v[1] < -180 || v[1] > 180) {
		hq_err_set(e, "%s '%.64s': longitude %g is outside -180 to 180",
		    what, s, v[1]);
		return -1;
	}
	if (!(v[2] > 0) || v[2] > HQ_SEARCH_MAX_KM) {
		hq_err_set(e, "%s '%.64s': the radius %g km is not above 0 and "
		    "at most %g km", what, s, v[2], HQ_SEARCH_MAX_KM);
		return -1;
	}
	q->near = 1;
	q->lat = v[0];
	q->lon = v[1];
	q->km = v[2];
	return 0;
}

/* Whether s is written as a coordinate rather than a name. */
static int
looks_numeric(const char *s)
{
	return *s == '+' || *s == '-' || *s == '.' || isdigit((unsigned char)*s);
}

/* A place's name: a letter, then letters, digits, '_' and '-'. */
static int
good_name(const char *s)
{
	if (!isalpha((unsigned char)*s))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-')
			return 0;
	return 1;
}

/* A [places] line whose name is not one: file:line. */
static int
check_places(const struct hq_config *cfg, struct hq_err *e)
{
	const char *k;
	char where[600];

	for (size_t i = 0; cfg && (k = hq_config_key_at(cfg, "places", i)); i++)
		if (!good_name(k)) {
			if (hq_config_where(cfg, "places", k, where, sizeof where))
				snprintf(where, sizeof where, "the config");
			hq_err_set(e, "%s: [places] '%.64s': a place's name starts "
			    "with a letter and holds letters, digits, _ and - (%s)",
			    where, k, looks_numeric(k) ? "this one is a "
			    "coordinate, which --near takes as it is" : "rename it");
			return -1;
		}
	return 0;
}

int
hq_search_parse_near(const char *arg, const struct hq_config *cfg,
    struct hq_search *q, struct hq_err *e)
{
	const char *v = NULL;
	char where[600], what[700];

	if (check_places(cfg, e))
		return -1;
	/* a name holds no comma: "NaN,0" is a coordinate gone wrong */
	if (looks_numeric(arg) || strchr(arg, ','))
		return parse_point(arg, "--near", q, e);
	if (cfg)
		v = hq_config_get(cfg, "places", arg);
	if (!v) {
		hq_err_set(e, "--near '%.64s': no such place under [places] in the "
		    "config (give LAT,LON[,KM], or add a line such as 'home = "
		    "37.770,-122.420,0.5')", arg);
		return -1;
	}
	if (hq_config_where(cfg, "places", arg, where, sizeof where))
		snprintf(what, sizeof what, "[places] %s", arg);
	else
		snprintf(what, sizeof what, "%s: [places] %s", where, arg);
	return parse_point(v, what, q, e);
}

void
hq_search_places(const struct hq_config *cfg,
    void (*fn)(const char *name, const char *value, void *ctx), void *ctx)
{
	const char *k;

	for (size_t i = 0; cfg && (k = hq_config_key_at(cfg, "places", i)); i++)
		if (good_name(k))
			fn(k, hq_config_get(cfg, "places", k), ctx);
}

/* ---- TEXT ------------------------------------------------------------------ */

/* Whether the bytes [p, p+n) hold a letter or a digit (any non-ASCII
 * byte counts: FTS5's tokenizer knows the letters of every script). */
static int
has_word(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (isalnum((unsigned char)p[i]) || (unsigned char)p[i] >= 0x80)
			return 1;
	return 0;
}

static int
is_op(const char *p, size_t n, const char *op)
{
	return strlen(op) == n && !strncmp(p, op, n);
}

/* The words of [p, end) (end NULL: to the string's end), as blanks split
 * them. */
static int
count_words(const char *p, const char *end)
{
	int n = 0;

	for (const char *c = p; end ? c < end : *c != '\0'; c++)
		n += !isspace((unsigned char)*c) && (c == p ||
		    isspace((unsigned char)c[-1]));
	return n;
}

/* hq_search_compile's state: the FTS5 query so far, whether an operand
 * is wanted next, the open parentheses, the words and operands seen, the
 * last operator (for a message). */
struct compile {
	struct hq_buf b;
	const char *last_op;
	size_t last_n;
	int want, depth, words, operands;
};

/* An operand goes next: after another, AND between them. */
static void
operand(struct compile *c)
{
	if (!c->want)
		hq_buf_puts(&c->b, " AND");
}

/* "a phrase" at *p: 0 past it, or -1. */
static int
phrase(struct compile *c, const char **p, struct hq_err *e)
{
	const char *w = *p, *close = strchr(w + 1, '"');
	size_t n;

	if (!close) {
		hq_err_set(e, "'%.64s': the quote is not closed (a phrase is "
		    "\"two words\")", w);
		return -1;
	}
	n = (size_t)(close - w - 1);
	if (!has_word(w + 1, n)) {
		hq_err_set(e, "'%.*s': no word in the phrase",
		    (int)(n + 2 > 64 ? 64 : n + 2), w);
		return -1;
	}
	operand(c);
	hq_buf_printf(&c->b, " \"%.*s\"", (int)n, w + 1);
	c->words += count_words(w + 1, close);
	*p = close + 1;
	c->want = 0;
	c->operands++;
	return 0;
}

/* ( or ) at *p: 0 past it, or -1. */
static int
paren(struct compile *c, const char **p, struct hq_err *e)
{
	if (**p == '(') {
		operand(c);
		hq_buf_puts(&c->b, " (");
		c->depth++;
		c->want = 1;
		c->last_op = "(";
		c->last_n = 1;
	} else {
		if (!c->depth) {
			hq_err_set(e, "')': it closes no '('");
			return -1;
		}
		if (c->want) {
			hq_err_set(e, "'%.*s )': words must come before ')'",
			    (int)c->last_n, c->last_op);
			return -1;
		}
		hq_buf_puts(&c->b, " )");
		c->depth--;
	}
	++*p;
	return 0;
}

/* A bare word at *p: an operator, a word or a prefix*; 0 past it, or
 * -1. */
static int
bare(struct compile *c, const char **p, struct hq_err *e)
{
	const char *w = *p, *star;
	size_t n = strcspn(w, " \t\r\n\f\v\"()");
	int prefix;

	*p += n;
	if (is_op(w, n, "NEAR") && **p == '(') {
		hq_err_set(e, "'NEAR(': NEAR groups are not searched; give the "
		    "words, \"a phrase\", prefix*, AND, OR, NOT and ( )");
		return -1;
	}
	if (is_op(w, n, "AND") || is_op(w, n, "OR") || is_op(w, n, "NOT")) {
		if (c->want) {
			hq_err_set(e, "'%.*s': it needs words before it (coffee "
			    "%.*s tea)", (int)n, w, (int)n, w);
			return -1;
		}
		hq_buf_printf(&c->b, " %.*s", (int)n, w);
		c->want = 1;
		c->last_op = w;
		c->last_n = n;
		return 0;
	}
	star = memchr(w, '*', n);
	prefix = star == w + n - 1;
	if ((star && !prefix) || (prefix && !has_word(w, n - 1))) {
		hq_err_set(e, "'%.*s': '*' ends a word to find the words it "
		    "begins (run* finds running)", (int)(n > 64 ? 64 : n), w);
		return -1;
	}
	if (!has_word(w, n))
		return 0;   /* "?", "-": no word */
	operand(c);
	hq_buf_printf(&c->b, " \"%.*s\"%s", (int)(n - prefix), w, prefix ?
	    "*" : "");
	c->words++;
	c->want = 0;
	c->operands++;
	return 0;
}

/* The query as a whole: parentheses closed, a word, none dangling. */
static int
complete(const struct compile *c, const char *text, struct hq_err *e)
{
	if (c->depth) {
		hq_err_set(e, "'(': it is not closed");
		return -1;
	}
	if (!c->operands) {
		hq_err_set(e, "'%.64s': no word to search for", text);
		return -1;
	}
	if (c->want) {
		hq_err_set(e, "'%.*s': it needs words after it", (int)c->last_n,
		    c->last_op);
		return -1;
	}
	return 0;
}

int
hq_search_compile(const char *text, char **fts, struct hq_err *e)
{
	struct compile c = { .want = 1 };
	const char *p = text;
	size_t len = strlen(text);
	int words = count_words(text, NULL);

	*fts = NULL;
	if (words > HQ_SEARCH_MAX_WORDS) {
		hq_err_set(e, "the search has %d words; at most %d", words,
		    HQ_SEARCH_MAX_WORDS);
		return -1;
	}
	if (len > HQ_SEARCH_MAX_BYTES) {
		hq_err_set(e, "the search is %zu bytes long; at most %d", len,
		    HQ_SEARCH_MAX_BYTES);
		return -1;
	}
	while (*p) {
		int rc;

		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		rc = *p == '"' ? phrase(&c, &p, e) : *p == '(' || *p == ')' ?
		    paren(&c, &p, e) : bare(&c, &p, e);
		if (rc)
			goto fail;
		if (c.words > HQ_SEARCH_MAX_WORDS) {
			hq_err_set(e, "the search has %d words; at most %d",
			    c.words + count_words(p, NULL), HQ_SEARCH_MAX_WORDS);
			goto fail;
		}
	}
	if (complete(&c, text, e))
		goto fail;
	*fts = hq_buf_steal(&c.b);
	return 0;
fail:
	hq_buf_free(&c.b);
	return -1;
}
