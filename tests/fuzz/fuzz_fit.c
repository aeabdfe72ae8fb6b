/*
 * fuzz_fit — mangled device files, from the decoder to the store. A FIT
 * file (lib/format/fit.c) is decoded whole, every field of every message
 * read through the getters and the message decoders; then fed again in
 * pieces (sizes taken from the input), which must give the same messages
 * and the same outcome; then, when it starts like a FIT header, decoded
 * once more with its header and file CRCs made right, so that mutations
 * reach past the first CRC (chained files, the end of the input after a
 * good file); and that copy is imported as hq-ingest imports a FIT file
 * (lib/read/fitfile.c, activity.c, the import writer) and committed, its
 * workouts' figures kept. A TCX or GPX seed's inputs are imported the same
 * way (lib/read/trackfile.c). Seeds of values no body or clock makes
 * (tests/cli/data/mkdevice.py) start the mutations at the bounds.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "hq/fit.h"
#include "hq/reader.h"

const char fuzz_hot[] = "\x00\x01\x02\x07\x0c\x0e\x0d\x14\x12\x13\x15"
    "\x20\x40\x60\x80\x84\x86\x88\x89\x8c\xa0\xe0\xfd\xfe\xff"
    "<>/\"=-.eE0123456789";
const char *const fuzz_words[] = {
	".FIT", "\x0e\x20", "\x0c\x10", "\x40\x00\x00\x14\x00",
	"\x40\x00\x01\x00\x14", "\x60\x00\x00\x14\x00\x01\x03\x01\x02\x01",
	"\xfd\x04\x86", "\x08\x03\x0d", "\x00\x00\x00\x00", "\xff\xff\xff\xff",
	"\xff\xff\xff\x7f", "\x00\x00\x00\x10", "\x80", "\x9f", "\xff",
	/* float64s: the largest, infinity, 2^63, -1e305, 2^63 thousandths
	 * (an elapsed time in ms), 1e308 */
	"\xff\xff\xff\xff\xff\xff\xef\x7f", "\x00\x00\x00\x00\x00\x00\xf0\x7f",
	"\x00\x00\x00\x00\x00\x00\xe0\x43", "\xba\xd9\x82\x6e\x51\x3a\x42\xff",
	"\xb6\x8f\xf3\xff\xff\x3f\x7f\x44", "\xa0\xc8\xeb\x85\xf3\xcc\xe1\x7f",
	/* TCX and GPX */
	"9.223372036e18", "1e305", "-1e305", "1e11", "-50", "0x10", "inf", "nan",
	"9999-12-31T23:59:59Z", "2126-02-06T06:28:14", "<TotalTimeSeconds>",
	"<Lap StartTime=\"", "<HeartRateBpm><Value>", "<Watts>", "<Cadence>",
	"<gpxtpx:hr>", "<power>", "<time>", "<ele>", "<!DOCTYPE gpx [", "]>",
	" a=\"1\"", "\xff\xfe", NULL
};

struct seen {
	long n;
	unsigned long long hash;
};

static void
mix(struct seen *s, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		s->hash ^= b[i];
		s->hash *= 1099511628211ULL;
	}
}

static int
each(void *arg, const struct hq_fit_msg *m, struct hq_err *e)
{
	struct seen *s = arg;
	union {
		struct hq_fit_file_id f;
		struct hq_fit_sport_msg sp;
		struct hq_fit_summary su;
		struct hq_fit_record r;
		struct hq_fit_event ev;
		struct hq_fit_device_info di;
		struct hq_fit_activity a;
	} u;
	char str[64];

	(void)e;
	s->n++;
	mix(s, &m->global, sizeof m->global);
	mix(s, &m->time, sizeof m->time);
	mix(s, &m->offset, sizeof m->offset);
	mix(s, &m->acc_distance, sizeof m->acc_distance);
	for (int i = 0; i < m->nfields; i++) {
		const struct hq_fit_field *f = &m->field[i];
		double v;
		int64_t iv;

		mix(s, f->raw, f->size);
		if (hq_fit_find(m, f->num) == NULL)
			abort();
		for (unsigned k = 0; k <= f->count; k++) {
			if (hq_fit_value(f, k, &v) && !isfinite(v))
				abort();
			hq_fit_int(f, k, &iv);
		}
		if (hq_fit_str(m, f->num, str, sizeof str) >= sizeof str)
			abort();
		hq_fit_num(m, f->num, 5, 500);
		hq_fit_time(m, f->num);
	}
	hq_fit_file_id(m, &u.f);
	hq_fit_sport(m, &u.sp);
	hq_fit_session(m, &u.su);
	hq_fit_lap(m, &u.su);
	if (hq_fit_record(m, &u.r) == 0 && (fabs(u.r.lat) > 90 ||
	    fabs(u.r.lon) > 180 || isinf(u.r.distance) || isinf(u.r.speed) ||
	    isinf(u.r.altitude)))
		abort();
	if (hq_fit_event(m, &u.ev) == 0)
		hq_fit_event_timer(&u.ev);
	hq_fit_device_info(m, &u.di);
	hq_fit_activity(m, &u.a);
	return 0;
}

/* The input in pieces of piece bytes (0: whole): rc, and s filled. */
static int
decode(const uint8_t *data, size_t size, size_t piece, struct seen *s,
    long long *at)
{
	struct hq_fit *d = hq_fit_new(each, s);
	struct hq_err e;
	size_t pos = 0;
	int rc = 0;

	memset(s, 0, sizeof *s);
	if (piece == 0)
		piece = size ? size : 1;
	while (rc == 0 && pos < size) {
		size_t n = size - pos < piece ? size - pos : piece;
		rc = hq_fit_feed(d, data + pos, n, &e);
		pos += n;
	}
	if (rc == 0)
		rc = hq_fit_end(d, &e);
	*at = hq_fit_error_offset(d);
	if ((rc == 0) != (*at < 0) || *at > (long long)size)
		abort();
	hq_fit_free(d);
	return rc;
}

/* The header CRC and the first file's CRC set right, where they lie
 * within the input. */
static void
fix_crcs(uint8_t *p, size_t size)
{
	uint64_t end;
	uint16_t crc;

	if (!hq_fit_sniff(p, size))
		return;
	if (p[0] == 14 && size >= 14) {
		crc = hq_fit_crc(0, p, 12);
		p[12] = (uint8_t)crc;
		p[13] = (uint8_t)(crc >> 8);
	}
	end = p[0] + ((uint64_t)p[4] | (uint64_t)p[5] << 8 |
	    (uint64_t)p[6] << 16 | (uint64_t)p[7] << 24);
	if (end + 2 <= size) {
		crc = hq_fit_crc(0, p, (size_t)end);
		p[end] = (uint8_t)crc;
		p[end + 1] = (uint8_t)(crc >> 8);
	}
}

/* One FIT input: decoded whole and in pieces (the same), then with its
 * CRCs made right, decoded and imported. */
static void
fit(const uint8_t *data, size_t size)
{
	struct seen whole, parts;
	long long at1, at2;
	size_t piece = size ? 1 + data[size / 2] % 61 : 1;
	int rc1, rc2;
	uint8_t *copy;

	rc1 = decode(data, size, 0, &whole, &at1);
	rc2 = decode(data, size, piece, &parts, &at2);
	if (rc1 != rc2 || at1 != at2 || whole.n != parts.n ||
	    whole.hash != parts.hash)
		abort();
	copy = hq_xmalloc(size ? size : 1);
	memcpy(copy, data, size);
	fix_crcs(copy, size);
	decode(copy, size, 0, &whole, &at1);
	fuzz_import(copy, size, "fit", 1, NULL);
	free(copy);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct hq_reader *r = NULL;

	/* A TCX or GPX seed's inputs are read as that (libFuzzer: as what
	 * they are sniffed as); anything else is FIT. */
	if (fuzz_seed)
		r = hq_reader_sniff(fuzz_seed, fuzz_seed_len < 65536 ?
		    fuzz_seed_len : 65536);
	else
		r = hq_reader_sniff(data, size < 65536 ? size : 65536);
	if (r && (strcmp(r->name, "tcx") == 0 || strcmp(r->name, "gpx") == 0))
		fuzz_import(data, size, r->family, 1, NULL);
	else
		fit(data, size);
	return 0;
}
