/*
 * fuzz_apple — feeds mangled Apple Health exports (XML or zip) to the
 * reader. LLVMFuzzerTestOneInput for libFuzzer; without it (the default
 * build) a main() that mutates the files it is given deterministically for
 * -n iterations, so that every CI run fuzzes under ASan+UBSan:
 *
 *     fuzz_apple [-n ITERATIONS] [-s SEED] FILE...
 *
 * Every import is rolled back: the store (a temporary file) stays small.
 * A crash, a sanitizer report or a leak is the failure; errors are not.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "hq/applehealth.h"
#include "hq/buf.h"
#include "hq/ingest.h"
#include "hq/store.h"

static struct hq_store *store;
static char store_path[64];

static void
cleanup(void)
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

static int
setup(void)
{
	struct hq_err e;
	int fd;

	if (store)
		return 0;
	snprintf(store_path, sizeof store_path, "/tmp/hq-fuzz.XXXXXX");
	if ((fd = mkstemp(store_path)) < 0)
		return -1;
	close(fd);
	unlink(store_path);
	store = hq_store_open(store_path, HQ_STORE_CREATE, &e);
	if (!store) {
		fprintf(stderr, "fuzz_apple: %s\n", e.msg);
		return -1;
	}
	atexit(cleanup);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hq_input src = { .fd = -1, .name = "fuzz" };
	struct hq_ingest *ig;
	struct hq_err e;
	int zip = size >= 4 && memcmp(data, "PK\3\4", 4) == 0;

	if (setup())
		abort();
	/* A seekable descriptor, as a file would be. */
	src.fd = memfd_create("fuzz", 0);
	if (src.fd < 0)
		abort();
	for (size_t off = 0; off < size;) {
		ssize_t n = write(src.fd, data + off, size - off);
		if (n <= 0)
			abort();
		off += (size_t)n;
	}
	lseek(src.fd, 0, SEEK_SET);
	src.size = size;
	ig = hq_ingest_start(store, "fuzz", zip ? "apple-zip" : "apple-xml",
	    (int64_t)size, &e);
	if (!ig)
		abort();
	if (zip)
		hq_applehealth_read_zip(ig, &src, &e);
	else
		hq_applehealth_read_xml(ig, &src, &e);
	hq_ingest_abort(ig);
	close(src.fd);
	return 0;
}

#ifndef FUZZING_ENGINE
static uint64_t rng;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Characters that matter to XML, zip and the filter. */
static const char hot[] = "<>/\"'=&;![]?- \n\v\x01PK\x03\x04";

static void
mutate(struct hq_buf *b)
{
	int edits = 1 + (int)(next() % 8);

	for (int i = 0; i < edits && b->len; i++) {
		size_t at = (size_t)(next() % b->len);
		switch (next() % 6) {
		case 0:   /* flip a bit */
			b->data[at] ^= (char)(1u << (next() % 8));
			break;
		case 1:   /* a significant character */
			b->data[at] = hot[next() % (sizeof hot - 1)];
			break;
		case 2:   /* cut the end off */
			b->len = at;
			break;
		case 3: { /* delete a span */
			size_t n = (size_t)(next() % 64);
			if (at + n > b->len)
				n = b->len - at;
			memmove(b->data + at, b->data + at + n, b->len - at - n);
			b->len -= n;
			break;
		}
		case 4: { /* duplicate a span */
			size_t n = (size_t)(next() % 256), from = (size_t)(next() % b->len);
			if (from + n > b->len)
				n = b->len - from;
			char *tmp = hq_xmalloc(n ? n : 1);
			memcpy(tmp, b->data + from, n);
			hq_buf_append(b, tmp, n);   /* grow, then shift into place */
			memmove(b->data + at + n, b->data + at, b->len - n - at);
			memcpy(b->data + at, tmp, n);
			free(tmp);
			break;
		}
		default:  /* a number becomes something else */
			if (b->data[at] >= '0' && b->data[at] <= '9')
				b->data[at] = "9-.eE+x"[next() % 7];
		}
	}
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
	fclose(fp);
	return 0;
}

int
main(int argc, char **argv)
{
	long iterations = 1000, seed = 1;
	int c, nfiles;
	struct hq_buf *files, work = { 0 };

	while ((c = getopt(argc, argv, "n:s:")) != -1) {
		switch (c) {
		case 'n': iterations = strtol(optarg, NULL, 10); break;
		case 's': seed = strtol(optarg, NULL, 10); break;
		default:
			fprintf(stderr, "usage: fuzz_apple [-n ITERATIONS] [-s SEED] FILE...\n");
			return 2;
		}
	}
	nfiles = argc - optind;
	if (nfiles < 1 || iterations < 0) {
		fprintf(stderr, "usage: fuzz_apple [-n ITERATIONS] [-s SEED] FILE...\n");
		return 2;
	}
	files = hq_xcalloc((size_t)nfiles, sizeof *files);
	for (int i = 0; i < nfiles; i++)
		if (slurp(argv[optind + i], &files[i])) {
			fprintf(stderr, "fuzz_apple: %s: %s\n", argv[optind + i],
			    strerror(errno));
			return 2;
		}
	rng = 0x9E3779B97F4A7C15ull ^ (uint64_t)seed;
	for (long it = 0; it < iterations; it++) {
		struct hq_buf *f = &files[it % nfiles];
		hq_buf_reset(&work);
		hq_buf_append(&work, f->data, f->len);
		/* The unmutated file first, then mangled copies. */
		if (it >= nfiles)
			mutate(&work);
		LLVMFuzzerTestOneInput((const uint8_t *)work.data, work.len);
	}
	printf("fuzz_apple: %ld iterations over %d files, seed %ld\n",
	    iterations, nfiles, seed);
	for (int i = 0; i < nfiles; i++)
		hq_buf_free(&files[i]);
	free(files);
	hq_buf_free(&work);
	return 0;
}
#endif
