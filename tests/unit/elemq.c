/* Unit tests for lib/format/elemq.c: every element arrives once, in order, with
 * its attributes intact (none to more than HQ_ELEMQ_MAX_ATTRS, values
 * empty to larger than a block), on a thread and without; a taker that
 * says stop stops the parse within the queue's size; the parse's result
 * comes back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/elemq.h"
#include "tap.h"

#define NELEM 12000
#define HUGE_AT 777               /* this element has a 300 kB value */
#define HUGE_LEN (300 * 1024)

struct gen {
	int n;                        /* elements to put */
	int put, refused;             /* put so far; put() said stop */
	char *huge;
};

static int
nattrs_of(int i)
{
	return i % 53;                /* 0 .. 52: past HQ_ELEMQ_MAX_ATTRS too */
}

static void
name_of(int i, char *buf, size_t n)
{
	snprintf(buf, n, "el%d", i);
}

static void
attr_of(int i, int k, char *name, char *val, size_t n)
{
	snprintf(name, n, "a%d", k);
	if (k == 0)
		val[0] = '\0';            /* an empty value */
	else
		snprintf(val, n, "%d.%d%.*s", i, k, (i + k) % 40,
		    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
}

static int
parse(void *arg, struct hq_elemq *q)
{
	struct gen *g = arg;
	char names[64][16], vals[64][64], name[32];
	const unsigned char *sax[5 * 64];

	for (int i = 0; i < g->n; i++) {
		int na = nattrs_of(i);
		for (int k = 0; k < na; k++) {
			attr_of(i, k, names[k], vals[k], sizeof vals[k]);
			const char *v = i == HUGE_AT && k == 1 ? g->huge : vals[k];
			sax[5 * k] = (const unsigned char *)names[k];
			sax[5 * k + 1] = sax[5 * k + 2] = NULL;
			sax[5 * k + 3] = (const unsigned char *)v;
			sax[5 * k + 4] = (const unsigned char *)v + strlen(v);
		}
		name_of(i, name, sizeof name);
		g->put++;
		if (hq_elemq_put(q, name, i % 7, i + 1, na, sax, (uint64_t)i * 10)) {
			g->refused = 1;
			return 7;
		}
	}
	return 3;
}

struct take {
	int next;                     /* the index expected next */
	int bad;                      /* first mismatch, -1 none */
	int stop_at;                  /* say stop at this one, -1 never */
	const char *huge;
};

static int
check(void *arg, const struct hq_elem *el)
{
	struct take *t = arg;
	int i = t->next++;
	char name[32], an[64], av[64];
	int na = nattrs_of(i) > HQ_ELEMQ_MAX_ATTRS ? HQ_ELEMQ_MAX_ATTRS :
	    nattrs_of(i);

	name_of(i, name, sizeof name);
	int good = strcmp(el->name, name) == 0 && el->depth == i % 7 &&
	    el->line == i + 1 && el->bytes == (uint64_t)i * 10 &&
	    el->nattrs == na;
	for (int k = 0; good && k < na; k++) {
		attr_of(i, k, an, av, sizeof av);
		const char *v = i == HUGE_AT && k == 1 ? t->huge : av;
		good = strcmp(el->attr[2 * k], an) == 0 &&
		    strcmp(el->attr[2 * k + 1], v) == 0;
	}
	if (!good && t->bad < 0)
		t->bad = i;
	return i == t->stop_at ? -1 : 0;
}

static void
one_run(int threaded, int stop_at)
{
	char *huge = malloc(HUGE_LEN + 1);
	memset(huge, 'h', HUGE_LEN);
	huge[HUGE_LEN] = '\0';
	struct gen g = { .n = NELEM, .huge = huge };
	struct take t = { .bad = -1, .stop_at = stop_at, .huge = huge };
	int prc = -99;
	const char *how = threaded ? "on a thread" : "inline";

	int rc = hq_elemq_run(parse, &g, check, &t, threaded, &prc);
	if (stop_at < 0) {
		is_int(rc, 0, "%s: the run succeeds", how);
		is_int(prc, 3, "%s: the parse's result comes back", how);
		is_int(t.next, NELEM, "%s: every element arrives", how);
		is_int(g.refused, 0, "%s: put() never says stop", how);
	} else {
		is_int(rc, -1, "%s: a taker that says stop fails the run", how);
		/* Unless it had put its last element already. */
		ok(prc == 7 || (g.put == NELEM && prc == 3),
		    "%s: the parse was told to stop (%d)", how, prc);
		is_int(t.next, stop_at + 1, "%s: nothing after the stop", how);
		/* At most the whole queue is parsed past the stop. */
		ok(g.put - (stop_at + 1) <= HQ_ELEMQ_BLOCKS * HQ_ELEMQ_BLOCK / 8,
		    "%s: the parse stops soon after (%d elements on)", how,
		    g.put - (stop_at + 1));
	}
	is_int(t.bad, -1, "%s: names, depths, lines, attributes intact", how);
	free(huge);
}

static int
empty_parse(void *arg, struct hq_elemq *q)
{
	(void)arg, (void)q;
	return 0;
}

int
main(void)
{
	one_run(1, -1);
	one_run(0, -1);
	one_run(1, 5);
	one_run(0, 5);
	one_run(1, NELEM / 2);
	one_run(1, NELEM - 1);
	{
		struct take t = { .bad = -1, .stop_at = -1 };
		int prc = -1;
		is_int(hq_elemq_run(empty_parse, NULL, check, &t, 1, &prc), 0,
		    "no elements: the run succeeds");
		is_int(t.next, 0, "no elements: the taker is never called");
	}
	return done_testing();
}
