/*
 * mutate — the deterministic engine of the fuzz targets (fuzz.h): the
 * mutator, the store the targets import into, and, unless libFuzzer is the
 * engine (FUZZING_ENGINE), a main() that feeds a target mutated copies of
 * its seed files.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "fuzz.h"
#include "hq/athlete_load.h"
#include "hq/ingest.h"
#include "hq/reader.h"
#include "hq/store.h"

const unsigned char *fuzz_seed;
size_t fuzz_seed_len;
static const char *word;

const char *
fuzz_word(void)
{
	return word ? word : getenv("HQ_FUZZ_FORMAT");
}

static uint64_t
next(uint64_t *rng)
{
	*rng ^= *rng << 13;
	*rng ^= *rng >> 7;
	*rng ^= *rng << 17;
	return *rng;
}

/* n bytes p inserted at at. */
static void
insert(struct hq_buf *b, size_t at, const char *p, size_t n)
{
	char *tmp = hq_xmalloc(n ? n : 1);

	memcpy(tmp, p, n);   /* p may point into b, which may move */
	hq_buf_append(b, tmp, n);   /* grow, then shift into place */
	memmove(b->data + at + n, b->data + at, b->len - n - at);
	memcpy(b->data + at, tmp, n);
	free(tmp);
}

void
fuzz_mutate(struct hq_buf *b, uint64_t *rng)
{
	int edits = 1 + (int)(next(rng) % 8);
	size_t nhot = strlen(fuzz_hot), nwords = 0;

	while (fuzz_words[nwords])
		nwords++;
	for (int i = 0; i < edits && b->len; i++) {
		size_t at = (size_t)(next(rng) % b->len);
		switch (next(rng) % 8) {
		case 0:   /* flip a bit */
			b->data[at] ^= (char)(1u << (next(rng) % 8));
			break;
		case 1:   /* a significant character */
			if (nhot)
				b->data[at] = fuzz_hot[next(rng) % nhot];
			break;
		case 2:   /* cut the end off */
			b->len = at;
			break;
		case 3: { /* delete a span */
			size_t n = (size_t)(next(rng) % 64);
			if (at + n > b->len)
				n = b->len - at;
			memmove(b->data + at, b->data + at + n, b->len - at - n);
			b->len -= n;
			break;
		}
		case 4: { /* duplicate a span */
			size_t n = (size_t)(next(rng) % 256);
			size_t from = (size_t)(next(rng) % b->len);
			if (from + n > b->len)
				n = b->len - from;
			insert(b, at, b->data + from, n);
			break;
		}
		case 5:   /* a word of the format */
			if (nwords) {
				const char *w = fuzz_words[next(rng) % nwords];
				insert(b, at, w, strlen(w));
			}
			break;
		case 6: { /* a run of one byte: long fields, deep nesting */
			size_t n = (size_t)(next(rng) % 4096);
			char c = next(rng) % 2 && nhot ? fuzz_hot[next(rng) % nhot]
			    : b->data[at];
			char *run = hq_xmalloc(n ? n : 1);
			memset(run, c, n);
			insert(b, at, run, n);
			free(run);
			break;
		}
		default:  /* a number becomes something else */
			if (b->data[at] >= '0' && b->data[at] <= '9')
				b->data[at] = "9-.eE+x0"[next(rng) % 8];
		}
	}
	hq_buf_append(b, "", 0);   /* data stays allocated when len is 0 */
}

int
fuzz_as_file(const uint8_t *data, size_t size, char *path, size_t n)
{
	int fd = memfd_create("fuzz", 0);

	if (fd < 0)
		abort();
	for (size_t off = 0; off < size;) {
		ssize_t k = write(fd, data + off, size - off);
		if (k <= 0)
			abort();
		off += (size_t)k;
	}
	snprintf(path, n, "/proc/self/fd/%d", fd);
	return fd;
}

static struct hq_store *store;
static char store_path[64];
static int commits;

static void
store_remove(void)
{
	char p[80];

	hq_store_close(store);
	store = NULL;
	unlink(store_path);
	snprintf(p, sizeof p, "%s-wal", store_path);
	unlink(p);
	snprintf(p, sizeof p, "%s-shm", store_path);
	unlink(p);
}

static void
store_make(void)
{
	static int registered;
	struct hq_err e;
	int fd;

	/* In memory where there is a tmpfs: a commit's fsync costs nothing. */
	snprintf(store_path, sizeof store_path, "%s/hq-fuzz.XXXXXX",
	    access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	if ((fd = mkstemp(store_path)) < 0)
		abort();
	close(fd);
	unlink(store_path);
	if (!(store = hq_store_open(store_path, HQ_STORE_CREATE, &e))) {
		fprintf(stderr, "fuzz: %s\n", e.msg);
		abort();
	}
	if (!registered++)
		atexit(store_remove);
	commits = 0;
}

static void
quiet(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
}

void
fuzz_import(const uint8_t *data, size_t size, const char *family,
    int commit, void (*check)(const char *format, const uint8_t *data,
    size_t size))
{
	const struct hq_reader *r;
	struct hq_input in;
	struct hq_ingest *ig;
	struct hq_err e;
	char path[64];
	int fd;

	if (store && commits >= FUZZ_COMMITS)
		store_remove();
	if (!store)
		store_make();
	/* A file, as hq-ingest opens it: seekable, with a size. */
	fd = fuzz_as_file(data, size, path, sizeof path);
	if ((r = hq_reader_open(&in, path, family, &e))) {
		ig = hq_ingest_start(store, path, r->name,
		    in.size ? (int64_t)in.size : -1, &e);
		if (!ig)
			abort();
		hq_ingest_set_warn(ig, quiet, NULL);
		if (check)
			check(r->name, data, size);
		struct hq_read_opts o = { .family = family &&
		    strcmp(family, "auto") != 0 ? family : NULL };
		if (r->read(&in, &o, ig, &e) == 0 &&
		    hq_ingest_clinical_reports(ig, &e) == 0 && commit) {
			/* and what hq-ingest does then: the figures kept */
			commits++;
			if (hq_ingest_commit(ig, &e) == 0)
				hq_athlete_keep_figures(store, &e);
		} else
			hq_ingest_abort(ig);
		hq_input_close(&in);
	}
	close(fd);
}

#ifndef FUZZING_ENGINE
static const char *prog = "fuzz";

static void
usage(void)
{
	fprintf(stderr, "usage: %s [-n ITERATIONS] [-s SEED] [-f WORD] [-m MB] "
	    "[-t SECONDS] [-o FILE] FILE...\n", prog);
	exit(2);
}

static void
on_alarm(int sig)
{
	static const char msg[] = ": an input ran past the time limit (a hang?)\n";

	(void)sig;
	(void)!write(2, prog, strlen(prog));
	(void)!write(2, msg, sizeof msg - 1);
	abort();
}

static int
slurp(const char *path, struct hq_buf *b)
{
	FILE *fp = fopen(path, "rb");
	char chunk[65536];
	size_t n;

	if (!fp)
		return -1;
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		hq_buf_append(b, chunk, n);
	hq_buf_append(b, "", 0);
	fclose(fp);
	return 0;
}

static int
dump(const char *path, const struct hq_buf *b)
{
	FILE *fp = fopen(path, "wb");

	if (!fp)
		return -1;
	fwrite(b->data, 1, b->len, fp);
	return fclose(fp);
}

static long
number(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0)
		usage();
	return v;
}

int
main(int argc, char **argv)
{
	long iterations = 1000, seed = 1, max_mb = 2048, secs = 20;
	const char *out = NULL;
	int c, nfiles;
	struct hq_buf *files, work = { 0 };
	struct rusage ru;
	uint64_t rng;

	if (argv[0] && strrchr(argv[0], '/'))
		prog = strrchr(argv[0], '/') + 1;
	else if (argv[0])
		prog = argv[0];
	while ((c = getopt(argc, argv, "f:m:n:o:s:t:")) != -1) {
		switch (c) {
		case 'f': word = optarg; break;
		case 'm': max_mb = number(optarg); break;
		case 'n': iterations = number(optarg); break;
		case 'o': out = optarg; break;
		case 's': seed = number(optarg); break;
		case 't': secs = number(optarg); break;
		default: usage();
		}
	}
	nfiles = argc - optind;
	if (nfiles < 1)
		usage();
	files = hq_xcalloc((size_t)nfiles, sizeof *files);
	for (int i = 0; i < nfiles; i++)
		if (slurp(argv[optind + i], &files[i])) {
			fprintf(stderr, "%s: %s: %s\n", prog, argv[optind + i],
			    strerror(errno));
			return 2;
		}
	signal(SIGALRM, on_alarm);
	rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)seed;
	for (long it = 0; it < iterations; it++) {
		struct hq_buf *f = &files[it % nfiles];
		hq_buf_reset(&work);
		hq_buf_append(&work, f->data, f->len);
		/* The unmutated file first, then mangled copies. */
		if (it >= nfiles)
			fuzz_mutate(&work, &rng);
		if (out && dump(out, &work)) {
			fprintf(stderr, "%s: %s: %s\n", prog, out, strerror(errno));
			return 2;
		}
		fuzz_seed = (const unsigned char *)f->data;
		fuzz_seed_len = f->len;
		alarm((unsigned)secs);
		LLVMFuzzerTestOneInput((const uint8_t *)work.data, work.len);
		alarm(0);
		if (getrusage(RUSAGE_SELF, &ru) == 0 && ru.ru_maxrss / 1024 > max_mb) {
			fprintf(stderr, "%s: iteration %ld (seed %ld, file %s): peak "
			    "RSS %ld MB, past %ld MB\n", prog, it, seed,
			    argv[optind + it % nfiles], ru.ru_maxrss / 1024, max_mb);
			return 1;
		}
	}
	printf("%s: %ld iterations over %d files, seed %ld\n", prog, iterations,
	    nfiles, seed);
	for (int i = 0; i < nfiles; i++)
		hq_buf_free(&files[i]);
	free(files);
	hq_buf_free(&work);
	return 0;
}
#endif
