#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hq/buf.h"
#include "hq/elemq.h"

/* An element in a block: this header, the lengths of its strings (its
 * name, then each attribute's name and value), then the strings, each
 * NUL-terminated; the whole padded to a multiple of 8. */
struct ev {
	uint32_t size;
	int32_t depth, line, nattrs;
	uint64_t bytes;
};

#define NSTR (1 + 2 * HQ_ELEMQ_MAX_ATTRS)

struct hq_elemq {
	int threaded;
	hq_elemq_parse_fn *parse;
	void *parse_arg;
	int parse_rc;
	hq_elem_fn *fn;
	void *fn_arg;
	/* the parse's */
	int cur;                    /* the block being filled */
	int stopped;                /* told to stop: put() refuses */
	/* shared, under mu: block[head] .. block[head + count - 1] are full
	 * and the taker's; the others are the parse's */
	pthread_mutex_t mu;
	pthread_cond_t can_put, can_take;
	int head, count, done, stop;
	int pwaiting, twaiting;     /* a side is asleep */
	struct hq_buf block[HQ_ELEMQ_BLOCKS];
	/* the taker's */
	const char *attrv[2 * HQ_ELEMQ_MAX_ATTRS];
};

/* fn on every element of b, in order: 0, or -1 when fn says stop. */
static int
deliver(struct hq_elemq *q, const struct hq_buf *b)
{
	size_t off = 0;

	while (off + sizeof(struct ev) <= b->len) {
		struct ev h;
		uint32_t len[NSTR];
		const char *p = b->data + off;
		int nstr;

		memcpy(&h, p, sizeof h);
		nstr = 1 + 2 * h.nattrs;
		memcpy(len, p + sizeof h, (size_t)nstr * sizeof len[0]);
		p += sizeof h + (size_t)nstr * sizeof len[0];
		struct hq_elem el = { .name = p, .depth = h.depth, .line = h.line,
		    .nattrs = h.nattrs, .attr = q->attrv, .bytes = h.bytes };
		p += len[0] + 1;
		for (int i = 1; i < nstr; i++) {
			q->attrv[i - 1] = p;
			p += len[i] + 1;
		}
		off += h.size;
		if (q->fn(q->fn_arg, &el) < 0)
			return -1;
	}
	return 0;
}

/* A used block back to empty; one grown for a huge element is let go. */
static void
recycle(struct hq_buf *b)
{
	if (b->cap > 4 * HQ_ELEMQ_BLOCK)
		hq_buf_free(b);
	else
		hq_buf_reset(b);
}

/* The block being filled to the taker. When every block is full, wait
 * until half are free again: each side sleeps and wakes the other once
 * per half a queue, not once per block (a wake-up is dear, above all on
 * a virtual machine). */
static int
publish(struct hq_elemq *q)
{
	int rc;

	pthread_mutex_lock(&q->mu);
	q->count++;
	if (q->twaiting && q->count >= HQ_ELEMQ_BLOCKS / 2)
		pthread_cond_signal(&q->can_take);
	q->cur = (q->cur + 1) % HQ_ELEMQ_BLOCKS;
	if (q->count == HQ_ELEMQ_BLOCKS) {
		q->pwaiting = 1;
		while (q->count > HQ_ELEMQ_BLOCKS / 2 && !q->stop)
			pthread_cond_wait(&q->can_put, &q->mu);
		q->pwaiting = 0;
	}
	rc = q->stop ? -1 : 0;
	pthread_mutex_unlock(&q->mu);
	if (rc)
		q->stopped = 1;
	return rc;
}

int
hq_elemq_put(struct hq_elemq *q, const char *name, int depth, int line,
    int nattrs, const unsigned char **sax_attrs, uint64_t bytes)
{
	static const char pad[8];
	struct hq_buf *b = &q->block[q->cur];   /* inline: always 0 */
	size_t start = b->len, lens;
	uint32_t len[NSTR];
	struct ev h = { 0 };

	if (q->stopped)
		return -1;
	if (nattrs > HQ_ELEMQ_MAX_ATTRS)
		nattrs = HQ_ELEMQ_MAX_ATTRS;
	if (nattrs < 0)
		nattrs = 0;
	lens = (size_t)(1 + 2 * nattrs) * sizeof len[0];
	hq_buf_append(b, &h, sizeof h);
	hq_buf_append(b, len, lens);    /* filled in below */
	if (!name)
		name = "";
	len[0] = (uint32_t)strlen(name);
	hq_buf_append(b, name, len[0] + 1);
	for (int i = 0; i < nattrs; i++) {
		const char *an = (const char *)sax_attrs[5 * i];
		const char *v = (const char *)sax_attrs[5 * i + 3];
		const char *end = (const char *)sax_attrs[5 * i + 4];
		size_t vlen = v && end >= v ? (size_t)(end - v) : 0;
		if (!an)
			an = "";
		len[1 + 2 * i] = (uint32_t)strlen(an);
		hq_buf_append(b, an, len[1 + 2 * i] + 1);
		len[2 + 2 * i] = (uint32_t)vlen;
		hq_buf_append(b, vlen ? v : "", vlen);
		hq_buf_putc(b, '\0');
	}
	if ((b->len - start) % 8)
		hq_buf_append(b, pad, 8 - (b->len - start) % 8);
	h.size = (uint32_t)(b->len - start);
	h.depth = depth;
	h.line = line;
	h.nattrs = nattrs;
	h.bytes = bytes;
	memcpy(b->data + start, &h, sizeof h);
	memcpy(b->data + start + sizeof h, len, lens);
	if (!q->threaded) {
		int rc = deliver(q, b);
		recycle(b);
		if (rc)
			q->stopped = 1;
		return rc;
	}
	return b->len >= HQ_ELEMQ_BLOCK ? publish(q) : 0;
}

static void *
parse_thread(void *arg)
{
	struct hq_elemq *q = arg;

	q->parse_rc = q->parse(q->parse_arg, q);
	pthread_mutex_lock(&q->mu);
	if (!q->stop && q->block[q->cur].len)
		q->count++;
	q->done = 1;
	pthread_cond_signal(&q->can_take);
	pthread_mutex_unlock(&q->mu);
	return NULL;
}

/* The taker's loop: 0 at the end of the parse, -1 when fn stopped it. */
static int
take(struct hq_elemq *q)
{
	for (;;) {
		pthread_mutex_lock(&q->mu);
		if (q->count == 0 && !q->done) {
			q->twaiting = 1;
			while (q->count < HQ_ELEMQ_BLOCKS / 2 && !q->done)
				pthread_cond_wait(&q->can_take, &q->mu);
			q->twaiting = 0;
		}
		if (q->count == 0) {
			pthread_mutex_unlock(&q->mu);
			return 0;
		}
		struct hq_buf *b = &q->block[q->head];
		pthread_mutex_unlock(&q->mu);
		int rc = deliver(q, b);
		recycle(b);
		pthread_mutex_lock(&q->mu);
		q->head = (q->head + 1) % HQ_ELEMQ_BLOCKS;
		q->count--;
		if (rc)
			q->stop = 1;
		if (rc || (q->pwaiting && q->count <= HQ_ELEMQ_BLOCKS / 2))
			pthread_cond_signal(&q->can_put);
		pthread_mutex_unlock(&q->mu);
		if (rc)
			return -1;
	}
}

int
hq_elemq_run(hq_elemq_parse_fn *parse, void *parse_arg, hq_elem_fn *fn,
    void *fn_arg, int threaded, int *parse_rc)
{
	struct hq_elemq *q = hq_xcalloc(1, sizeof *q);
	pthread_t t;
	int rc = 0;

	q->parse = parse;
	q->parse_arg = parse_arg;
	q->fn = fn;
	q->fn_arg = fn_arg;
	if (threaded) {
		sigset_t all, old;
		pthread_mutex_init(&q->mu, NULL);
		pthread_cond_init(&q->can_put, NULL);
		pthread_cond_init(&q->can_take, NULL);
		q->threaded = 1;
		/* Signals stay the calling thread's, as without the thread. */
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		if (pthread_create(&t, NULL, parse_thread, q) != 0)
			q->threaded = 0;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (q->threaded) {
			rc = take(q);
			pthread_join(t, NULL);
		}
		pthread_cond_destroy(&q->can_take);
		pthread_cond_destroy(&q->can_put);
		pthread_mutex_destroy(&q->mu);
	}
	if (!q->threaded) {
		q->parse_rc = parse(parse_arg, q);
		rc = q->stopped ? -1 : 0;
	}
	*parse_rc = q->parse_rc;
	for (int i = 0; i < HQ_ELEMQ_BLOCKS; i++)
		hq_buf_free(&q->block[i]);
	free(q);
	return rc;
}

int
hq_elemq_threaded(void)
{
	const char *v = getenv("HQ_THREADS");

	if (v && strcmp(v, "0") == 0)
		return 0;
	return sysconf(_SC_NPROCESSORS_ONLN) > 1;
}
