/*
 * gen-fit: writes FIT activity files of 1 Hz rides, for `make bench` and
 * the tests.  Never installed.
 *
 *     gen-fit [-s SEED] [-r RECORDS] [-n FILES] [-d SECONDS] [-c]
 *             [-t START] [-m SERIAL] -o PATH
 *
 * Each file is a valid FIT activity (header and file CRCs right): file_id
 * (a Garmin Edge 810), a timer start event, RECORDS records a second apart
 * (heart rate, power, cadence, position, altitude, distance, speed), a
 * timer stop, a lap and a session (cycling, road).  With -n FILES, PATH is a
 * directory and gets ride-0001.fit ... one ride every SECONDS (default
 * 86400 * 365 / FILES); with -c the FILES rides are chained into the one
 * file PATH, as a device may write them.  The first ride starts at START
 * (Unix seconds, default 2024-01-01T08:00:00Z); SERIAL is the device's
 * serial number (default 3880000001).  Deterministic for SEED.
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hq/fit.h"

static const char *prog = "gen-fit";

static void
die(const char *m, const char *arg)
{
	fprintf(stderr, "%s: %s%s%s\n", prog, m, arg ? ": " : "",
	    arg ? arg : "");
	exit(1);
}

/* A file is built in memory: a ride of 4 hours is 360 KB. */
struct buf {
	unsigned char *p;
	size_t n, cap;
};

static void
put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2;
		if (!(b->p = realloc(b->p, b->cap)))
			die("out of memory", NULL);
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void u8(struct buf *b, unsigned v) { unsigned char c = v; put(b, &c, 1); }
static void u16(struct buf *b, unsigned v) { u8(b, v & 0xff); u8(b, v >> 8); }
static void
u32(struct buf *b, uint32_t v)
{
	u16(b, v & 0xffff);
	u16(b, v >> 16);
}

/* A definition: local type, global number, fields as (num, size, type). */
static void
define(struct buf *b, unsigned local, unsigned global, const unsigned char *f,
    unsigned nf)
{
	u8(b, 0x40 | local);
	u8(b, 0);
	u8(b, 0);   /* little-endian */
	u16(b, global);
	u8(b, nf);
	put(b, f, 3 * nf);
}

static uint64_t rng;
static uint32_t serial = 3880000001u;

static unsigned
rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

enum { FILE_ID, EVENT, RECORD, LAP, SESSION };

static void
ride(struct buf *b, uint32_t t0, long records)
{
	static const unsigned char
	    fid[] = { 0, 1, 0x00, 1, 2, 0x84, 2, 2, 0x84, 3, 4, 0x8c, 4, 4, 0x86 },
	    ev[] = { 253, 4, 0x86, 0, 1, 0x00, 1, 1, 0x00 },
	    rec[] = { 253, 4, 0x86, 0, 4, 0x85, 1, 4, 0x85, 2, 2, 0x84,
		3, 1, 0x02, 4, 1, 0x02, 5, 4, 0x86, 6, 2, 0x84, 7, 2, 0x84 },
	    sum[] = { 253, 4, 0x86, 2, 4, 0x86, 7, 4, 0x86, 8, 4, 0x86,
		9, 4, 0x86, 5, 1, 0x00, 6, 1, 0x00 };
	size_t start = b->n;
	uint32_t t = t0 - HQ_FIT_EPOCH, dist = 0;
	int32_t lat = 557000000, lon = 150000000;   /* semicircles */
	int hr = 120, pw = 180, alt = 2500 + 500 * 5;
	uint16_t crc;

	/* header: size 14, protocol 2.0, profile 21.32, data size, .FIT, CRC */
	u8(b, 14);
	u8(b, 0x20);
	u16(b, 2132);
	u32(b, 0);   /* the data size, set below */
	put(b, ".FIT", 4);
	u16(b, 0);
	define(b, FILE_ID, 0, fid, 5);
	u8(b, FILE_ID);
	u8(b, 4);
	u16(b, 1);
	u16(b, 1567);
	u32(b, serial);
	u32(b, t);
	define(b, EVENT, 21, ev, 3);
	u8(b, EVENT);
	u32(b, t);
	u8(b, 0);
	u8(b, 0);   /* timer start */
	define(b, RECORD, 20, rec, 9);
	for (long i = 0; i < records; i++) {
		unsigned speed = 7000 + rnd(2000);   /* mm/s */
		hr += hr < 100 ? 2 : hr > 175 ? -2 : (int)rnd(5) - 2;
		pw += pw < 80 ? 10 : pw > 400 ? -10 : (int)rnd(21) - 10;
		alt += (int)rnd(3) - 1;
		/* out and back every 2 hours: never past the pole */
		lat += (i / 3600 % 2 ? -1 : 1) * (int32_t)(700 + rnd(200));
		lon += (i / 3600 % 2 ? -1 : 1) * (int32_t)(300 + rnd(200));
		dist += speed / 10;                  /* cm in a second */
		u8(b, RECORD);
		u32(b, t + (uint32_t)i);
		u32(b, (uint32_t)lat);
		u32(b, (uint32_t)lon);
		u16(b, (unsigned)alt);
		u8(b, (unsigned)hr);
		u8(b, 80 + rnd(20));
		u32(b, dist);
		u16(b, speed);
		u16(b, (unsigned)pw);
	}
	u8(b, EVENT);
	u32(b, t + (uint32_t)records - 1);
	u8(b, 0);
	u8(b, 4);   /* timer stop all */
	define(b, LAP, 19, sum, 5);
	u8(b, LAP);
	u32(b, t + (uint32_t)records - 1);
	u32(b, t);
	u32(b, (uint32_t)records * 1000);
	u32(b, (uint32_t)records * 1000);
	u32(b, dist);
	define(b, SESSION, 18, sum, 7);
	u8(b, SESSION);
	u32(b, t + (uint32_t)records - 1);
	u32(b, t);
	u32(b, (uint32_t)records * 1000);
	u32(b, (uint32_t)records * 1000);
	u32(b, dist);
	u8(b, 2);   /* cycling */
	u8(b, 7);   /* road */
	/* the data size and both CRCs */
	uint32_t size = (uint32_t)(b->n - start - 14);
	for (int k = 0; k < 4; k++)
		b->p[start + 4 + k] = (unsigned char)(size >> (8 * k));
	crc = hq_fit_crc(0, b->p + start, 12);
	b->p[start + 12] = crc & 0xff;
	b->p[start + 13] = crc >> 8;
	u16(b, hq_fit_crc(0, b->p + start, b->n - start));
}

static void
save(const char *path, const struct buf *b, const char *mode)
{
	FILE *f = fopen(path, mode);

	if (!f || fwrite(b->p, 1, b->n, f) != b->n || fclose(f) != 0)
		die(strerror(errno), path);
}

static long
number(const char *s, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < 1 || v > max)
		die("not a number in range", s);
	return v;
}

int
main(int argc, char **argv)
{
	long seed = 1, records = 3750, files = 0, every = 0;
	int chain = 0, opt;
	const char *out = NULL;
	struct buf b = { 0 };
	uint32_t t0 = 1704096000;   /* 2024-01-01T08:00:00Z */

	while ((opt = getopt(argc, argv, "s:r:n:d:co:t:m:")) != -1) {
		switch (opt) {
		case 's': seed = number(optarg, 1L << 30); break;
		case 'r': records = number(optarg, 1L << 24); break;
		case 'n': files = number(optarg, 100000); break;
		case 'd': every = number(optarg, 1L << 24); break;
		case 'c': chain = 1; break;
		case 'o': out = optarg; break;
		case 't': t0 = (uint32_t)number(optarg, 4000000000L); break;
		case 'm': serial = (uint32_t)number(optarg, 4000000000L); break;
		default: goto usage;
		}
	}
	if (!out || optind != argc)
		goto usage;
	rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)seed;
	if (!files) {
		ride(&b, t0, records);
		save(out, &b, "wb");
	} else {
		if (!every)
			every = 86400L * 365 / files;
		if (every < records)
			die("-d: rides would overlap", NULL);
		if (!chain && mkdir(out, 0777) != 0 && errno != EEXIST)
			die(strerror(errno), out);
		for (long i = 0; i < files; i++) {
			char path[4096];
			b.n = 0;
			ride(&b, t0 + (uint32_t)(i * every), records);
			if (chain)   /* one ride in memory at a time */
				save(out, &b, i ? "ab" : "wb");
			else {
				snprintf(path, sizeof path, "%s/ride-%04ld.fit",
				    out, i + 1);
				save(path, &b, "wb");
			}
		}
	}
	free(b.p);
	return 0;
usage:
	fprintf(stderr, "usage: %s [-s SEED] [-r RECORDS] [-n FILES] "
	    "[-d SECONDS] [-c] [-t START] [-m SERIAL] -o PATH\n", prog);
	return 2;
}
