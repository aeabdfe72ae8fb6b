/* FIT decoded as a stream: see include/hq/fit.h for what is read, what
 * fails and what is skipped. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/fit.h"

/* The largest data message held: 255 fields of 255 bytes. Developer
 * fields are skipped, never held. */
#define MAX_MESG (255 * 255)

static const struct {
	uint8_t size;
	uint64_t invalid;
} types[HQ_FIT_NTYPES] = {
	[HQ_FIT_ENUM] = { 1, 0xFF },
	[HQ_FIT_SINT8] = { 1, 0x7F },
	[HQ_FIT_UINT8] = { 1, 0xFF },
	[HQ_FIT_SINT16] = { 2, 0x7FFF },
	[HQ_FIT_UINT16] = { 2, 0xFFFF },
	[HQ_FIT_SINT32] = { 4, 0x7FFFFFFF },
	[HQ_FIT_UINT32] = { 4, 0xFFFFFFFF },
	[HQ_FIT_STRING] = { 1, 0 },
	[HQ_FIT_FLOAT32] = { 4, 0xFFFFFFFF },
	[HQ_FIT_FLOAT64] = { 8, UINT64_MAX },
	[HQ_FIT_UINT8Z] = { 1, 0 },
	[HQ_FIT_UINT16Z] = { 2, 0 },
	[HQ_FIT_UINT32Z] = { 4, 0 },
	[HQ_FIT_BYTE] = { 1, 0xFF },
	[HQ_FIT_SINT64] = { 8, INT64_MAX },
	[HQ_FIT_UINT64] = { 8, UINT64_MAX },
	[HQ_FIT_UINT64Z] = { 8, 0 },
};

struct def {
	int defined;
	uint8_t big_endian;
	uint16_t global;
	uint8_t nfields, ndev;
	uint8_t num[255], size[255], type[255];
	unsigned size_all;         /* bytes of the fields held */
	unsigned dev_size;         /* bytes of developer fields, skipped */
};

/* Where the decoder is: what the bytes being gathered are. */
enum state {
	S_HEADER,          /* a file header: 12 bytes, then 2 more for 14 */
	S_RECORD,          /* a record header byte */
	S_DEF,             /* a definition's 5 fixed bytes */
	S_DEF_FIELDS,      /* its fields */
	S_DEF_NDEV,        /* its developer field count */
	S_DEV_FIELDS,      /* its developer fields */
	S_DATA,            /* a data message's fields, then dev bytes skipped */
	S_CRC,             /* the file CRC */
	S_FAILED,
};

struct hq_fit {
	hq_fit_fn *fn;
	void *arg;
	enum state state;
	long long off;             /* bytes consumed */
	long long err_off;
	struct hq_err err;         /* the error, sticky */
	uint16_t crc;              /* of the file so far */
	uint16_t crc_data;         /* of its header and data */
	int files;
	struct hq_fit_header hdr;
	long long data_end;        /* offset of the file CRC */

	/* the unit being gathered: want bytes into buf, then skip more */
	size_t have, want;
	unsigned skip;
	long long unit_off;        /* where the unit (record) started */
	uint8_t rec;               /* the record header */
	int local;                 /* the definition being read / used */
	struct def pending;        /* a definition being read */

	struct def defs[16];
	int have_time;
	uint32_t last_time;        /* raw, for compressed headers */
	int have_acc;
	uint32_t acc_value, acc_last;   /* record distance, 1/16 m */
	/* hr (132): event_timestamp accumulated in 1/1024 s, across chained
	 * files as the SDK's decoder keeps it; the message's values. */
	int have_hr_acc;
	uint32_t hr_acc_value, hr_acc_last;
	uint32_t hr_event[64];
	int truncated;             /* the input ended inside a file */

	struct hq_fit_field fields[255];
	uint8_t at[256];
	unsigned char buf[MAX_MESG];
};

/* ---- CRC ---------------------------------------------------------------- */

static const uint16_t crc_table[16] = {
	0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401,
	0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400,
};

uint16_t
hq_fit_crc(uint16_t crc, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		uint16_t t = crc_table[crc & 0xF];
		crc = (crc >> 4) & 0x0FFF;
		crc = crc ^ t ^ crc_table[b[i] & 0xF];
		t = crc_table[crc & 0xF];
		crc = (crc >> 4) & 0x0FFF;
		crc = crc ^ t ^ crc_table[(b[i] >> 4) & 0xF];
	}
	return crc;
}

/* ---- the decoder --------------------------------------------------------- */

static void
gather(struct hq_fit *d, enum state s, size_t want)
{
	d->state = s;
	d->have = 0;
	d->want = want;
}

/* Before a file header: the input's first, or one chained after a CRC. */
static void
start_file(struct hq_fit *d)
{
	gather(d, S_HEADER, 12);
	d->crc = 0;
	d->unit_off = d->off;
}

struct hq_fit *
hq_fit_new(hq_fit_fn *fn, void *arg)
{
	struct hq_fit *d = hq_xcalloc(1, sizeof *d);

	d->fn = fn;
	d->arg = arg;
	d->err_off = -1;
	start_file(d);
	return d;
}

void
hq_fit_free(struct hq_fit *d)
{
	free(d);
}

long long
hq_fit_offset(const struct hq_fit *d)
{
	return d->off;
}

long long
hq_fit_error_offset(const struct hq_fit *d)
{
	return d->err_off;
}

int
hq_fit_files(const struct hq_fit *d)
{
	return d->files;
}

int
hq_fit_truncated(const struct hq_fit *d)
{
	return d->truncated;
}

const struct hq_fit_header *
hq_fit_header(const struct hq_fit *d)
{
	return d->files ? &d->hdr : NULL;
}

static int __attribute__((format(printf, 3, 4)))
fail(struct hq_fit *d, long long at, const char *fmt, ...)
{
	char why[sizeof d->err.msg];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	hq_err_set(&d->err, "byte %lld: %s", at, why);
	d->err_off = at;
	d->state = S_FAILED;
	return -1;
}

static uint16_t
le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t
le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

int
hq_fit_sniff(const unsigned char *p, size_t n)
{
	return n >= 12 && (p[0] == 12 || p[0] == 14) &&
	    memcmp(p + 8, ".FIT", 4) == 0;
}

/* At a record boundary: the next record, or the CRC at the data's end. */
static void
next_record(struct hq_fit *d)
{
	if (d->off >= d->data_end) {
		d->crc_data = d->crc;
		gather(d, S_CRC, 2);
	} else {
		gather(d, S_RECORD, 1);
	}
}

static int
header(struct hq_fit *d)
{
	const unsigned char *b = d->buf;
	struct hq_fit_header *h = &d->hdr;

	if ((b[0] != 12 && b[0] != 14) || memcmp(b + 8, ".FIT", 4) != 0)
		return fail(d, d->unit_off, "not a FIT file header");
	if (b[0] == 14 && d->want == 12) {
		d->want = 14;      /* its CRC still to come */
		return 0;
	}
	memset(h, 0, sizeof *h);
	h->offset = d->unit_off;
	h->size = b[0];
	h->protocol = b[1];
	h->profile = le16(b + 2);
	if (h->profile > 2199) {
		h->profile_major = h->profile / 1000;
		h->profile_minor = h->profile % 1000;
	} else {
		h->profile_major = h->profile / 100;
		h->profile_minor = h->profile % 100;
	}
	h->data_size = le32(b + 4);
	if (h->size == 14) {
		h->crc = le16(b + 12);
		if (h->crc != 0 && h->crc != hq_fit_crc(0, b, 12))
			return fail(d, d->unit_off + 12,
			    "header CRC mismatch (stored 0x%04X, computed "
			    "0x%04X)", h->crc, hq_fit_crc(0, b, 12));
	}
	d->files++;
	d->data_end = d->unit_off + h->size + (long long)h->data_size;
	memset(d->defs, 0, sizeof d->defs);
	d->have_time = 0;
	d->have_acc = 0;
	next_record(d);
	return 0;
}

/* A record header byte: a definition, or a data message of a local type
 * defined before. */
static int
record(struct hq_fit *d)
{
	uint8_t h = d->buf[0];
	const struct def *df;

	d->unit_off = d->off - 1;
	d->rec = h;
	if (!(h & 0x80) && (h & 0x40)) {
		d->local = h & 0x0F;
		memset(&d->pending, 0, sizeof d->pending);
		gather(d, S_DEF, 5);
		return 0;
	}
	d->local = h & 0x80 ? (h >> 5) & 0x03 : h & 0x0F;
	df = &d->defs[d->local];
	if (!df->defined)
		return fail(d, d->unit_off, "local message type %d has no "
		    "definition", d->local);
	gather(d, S_DATA, df->size_all);
	d->skip = df->dev_size;
	return 0;
}

static int
def_done(struct hq_fit *d)
{
	d->pending.defined = 1;
	d->defs[d->local] = d->pending;
	next_record(d);
	return 0;
}

static int
def_fixed(struct hq_fit *d)
{
	const unsigned char *b = d->buf;
	struct def *p = &d->pending;

	if (b[1] > 1)
		return fail(d, d->off - 4, "architecture %u is neither 0 "
		    "(little-endian) nor 1 (big-endian)", b[1]);
	p->big_endian = b[1];
	p->global = p->big_endian ? (uint16_t)(b[2] << 8 | b[3]) : le16(b + 2);
	p->nfields = b[4];
	if (p->nfields) {
		gather(d, S_DEF_FIELDS, p->nfields * 3u);
		return 0;
	}
	if (d->rec & 0x20) {
		gather(d, S_DEF_NDEV, 1);
		return 0;
	}
	return def_done(d);
}

static int
def_fields(struct hq_fit *d)
{
	struct def *p = &d->pending;
	long long at = d->off - (long long)d->want;

	for (unsigned i = 0; i < p->nfields; i++) {
		const unsigned char *f = d->buf + 3 * i;
		unsigned t = f[2] & 0x1F;

		if (t >= HQ_FIT_NTYPES)
			return fail(d, at + 3 * i + 2, "base type 0x%02X of "
			    "field %u of message %u is not a FIT type", f[2],
			    f[0], p->global);
		p->num[i] = f[0];
		p->size[i] = f[1];
		p->type[i] = (uint8_t)t;
		p->size_all += f[1];
	}
	if (d->rec & 0x20) {
		gather(d, S_DEF_NDEV, 1);
		return 0;
	}
	return def_done(d);
}

static int
def_ndev(struct hq_fit *d)
{
	d->pending.ndev = d->buf[0];
	if (!d->pending.ndev)
		return def_done(d);
	gather(d, S_DEV_FIELDS, d->pending.ndev * 3u);
	return 0;
}

static int
def_dev(struct hq_fit *d)
{
	for (unsigned i = 0; i < d->pending.ndev; i++)
		d->pending.dev_size += d->buf[3 * i + 1];
	return def_done(d);
}

/* Raw bits of value i of f (which has count > i). */
static uint64_t
bits(const struct hq_fit_field *f, unsigned i)
{
	unsigned sz = types[f->type].size;
	const unsigned char *p = f->raw + (size_t)i * sz;
	uint64_t v = 0;

	for (unsigned k = 0; k < sz; k++)
		v |= (uint64_t)p[f->big_endian ? sz - 1 - k : k] << (8 * k);
	return v;
}

/* A single uint32 (date_time, distance): what a time or an accumulator
 * takes, and nothing else. */
static int
is_u32(const struct hq_fit_field *f)
{
	return f && f->count == 1 && (f->type == HQ_FIT_UINT32 ||
	    f->type == HQ_FIT_UINT32Z);
}

/* The SDK's accumulation: the difference of the low bits added, so a
 * rollover carries. */
static uint32_t
accumulate(struct hq_fit *d, uint32_t value, unsigned nbits)
{
	uint32_t mask = (1u << nbits) - 1;

	if (!d->have_acc) {
		d->have_acc = 1;
		d->acc_value = d->acc_last = value;
	}
	d->acc_value += (value - d->acc_last) & mask;
	d->acc_last = value;
	return d->acc_value;
}

/* An hr message's event_timestamp values as Garmin's SDK reads them:
 * a full field (9, uint32 array) as written, each value restarting the
 * accumulator; event_timestamp_12 (10, bytes) as up to ten 12-bit
 * values, least significant bits first, each accumulated (a rollover
 * carries). Raw, in 1/1024 s. */
static void
hr_events(struct hq_fit *d, struct hq_fit_msg *m)
{
	const struct hq_fit_field *f = hq_fit_find(m, 9);
	int64_t v;
	int n = 0;

	if (f && (f->type == HQ_FIT_UINT32 || f->type == HQ_FIT_UINT32Z))
		for (unsigned i = 0; i < f->count && n < 63; i++)
			if (hq_fit_int(f, i, &v)) {
				d->have_hr_acc = 1;
				d->hr_acc_value = d->hr_acc_last = (uint32_t)v;
				d->hr_event[n++] = (uint32_t)v;
			}
	f = hq_fit_find(m, 10);
	if (f && f->type == HQ_FIT_BYTE && hq_fit_int(f, 0, &v)) {
		n = 0;
		for (unsigned bit = 0; n < 10 && bit + 12 <= 8u * f->size;
		    bit += 12) {
			uint32_t raw = 0;
			for (unsigned k = 0; k < 12; k++)
				raw |= (uint32_t)(f->raw[(bit + k) / 8] >>
				    ((bit + k) % 8) & 1) << k;
			if (!d->have_hr_acc) {
				d->have_hr_acc = 1;
				d->hr_acc_value = d->hr_acc_last = raw;
			}
			d->hr_acc_value += (raw - d->hr_acc_last) & 0xFFF;
			d->hr_acc_last = raw;
			d->hr_event[n++] = d->hr_acc_value;
		}
	}
	m->hr_event = d->hr_event;
	m->hr_nevent = n;
}

static int
data(struct hq_fit *d)
{
	const struct def *df = &d->defs[d->local];
	struct hq_fit_msg m;
	const struct hq_fit_field *f;
	size_t pos = 0;
	int64_t t;

	memset(&m, 0, sizeof m);
	memset(d->at, 0, sizeof d->at);
	for (unsigned i = 0; i < df->nfields; i++) {
		struct hq_fit_field *fl = &d->fields[i];
		unsigned sz = types[df->type[i]].size;

		fl->num = df->num[i];
		fl->type = df->type[i];
		fl->size = df->size[i];
		fl->big_endian = df->big_endian;
		fl->raw = d->buf + pos;
		fl->count = (uint8_t)(fl->type == HQ_FIT_STRING ?
		    fl->size > 0 : fl->size % sz ? 0 : fl->size / sz);
		pos += fl->size;
		d->at[fl->num] = (uint8_t)(i + 1);
	}
	m.global = df->global;
	m.local = (uint8_t)d->local;
	m.compressed = (d->rec & 0x80) != 0;
	m.file = d->files - 1;
	m.offset = d->unit_off;
	m.nfields = df->nfields;
	m.field = d->fields;
	m.ndev = df->ndev;
	m.dev_bytes = df->dev_size;
	m.at = d->at;
	m.time = HQ_FIT_NO_TIME;
	m.acc_distance = -1;

	if (is_u32(f = hq_fit_find(&m, 253)) && hq_fit_int(f, 0, &t)) {
		d->last_time = (uint32_t)t;
		d->have_time = 1;
		m.time = t + HQ_FIT_EPOCH;
	} else if (m.compressed && d->have_time) {
		uint32_t off5 = d->rec & 0x1F;
		uint32_t t5 = (d->last_time & ~0x1Fu) + off5;

		if (off5 < (d->last_time & 0x1F))
			t5 += 32;
		d->last_time = t5;
		m.time = (int64_t)t5 + HQ_FIT_EPOCH;
	}

	if (m.global == HQ_FIT_HR)
		hr_events(d, &m);
	if (m.global == HQ_FIT_RECORD) {
		int64_t v;

		if (is_u32(f = hq_fit_find(&m, 5)) && hq_fit_int(f, 0, &v)) {
			/* a full distance seeds the accumulator, in the
			 * component's units (1/16 m) */
			d->have_acc = 1;
			d->acc_value = d->acc_last = (uint32_t)(v * 16 / 100);
		}
		if ((f = hq_fit_find(&m, 8)) && f->size == 3 &&
		    f->type == HQ_FIT_BYTE && hq_fit_int(f, 0, &v)) {
			uint32_t raw = (uint32_t)(f->raw[1] >> 4 | f->raw[2] << 4);
			m.acc_distance = accumulate(d, raw, 12);
		}
	}
	if (d->fn && d->fn(d->arg, &m, &d->err) != 0) {
		d->err_off = d->unit_off;
		d->state = S_FAILED;
		return -1;
	}
	next_record(d);
	return 0;
}

/* The stored CRC against the one computed over header and data. */
static int
file_crc(struct hq_fit *d)
{
	uint16_t stored = le16(d->buf);

	if (stored != d->crc_data)
		return fail(d, d->data_end, "file CRC mismatch (stored 0x%04X, "
		    "computed 0x%04X)", stored, d->crc_data);
	start_file(d);
	return 0;
}

/* The unit in buf is complete: act on it. A record is read whole before
 * it is checked against the data size, so that an input that ends inside
 * it is "truncated", as the SDK and fitdecode say of such a file. */
static int
step(struct hq_fit *d)
{
	if (d->state != S_HEADER && d->state != S_CRC && d->off > d->data_end)
		return fail(d, d->unit_off, "a %s runs past the end of the "
		    "data (%u bytes from byte %lld)", d->state == S_DATA ?
		    "data message" : "definition", d->hdr.data_size,
		    d->hdr.offset + d->hdr.size);
	switch (d->state) {
	case S_HEADER:
		return header(d);
	case S_RECORD:
		return record(d);
	case S_DEF:
		return def_fixed(d);
	case S_DEF_FIELDS:
		return def_fields(d);
	case S_DEF_NDEV:
		return def_ndev(d);
	case S_DEV_FIELDS:
		return def_dev(d);
	case S_DATA:
		return data(d);
	case S_CRC:
		return file_crc(d);
	case S_FAILED:
		break;
	}
	return -1;
}

int
hq_fit_feed(struct hq_fit *d, const void *p, size_t n, struct hq_err *e)
{
	const unsigned char *b = p;

	for (;;) {
		while (d->state != S_FAILED && d->have == d->want &&
		    d->skip == 0)
			if (step(d) != 0)
				break;
		if (d->state == S_FAILED) {
			*e = d->err;
			return -1;
		}
		if (n == 0)
			return 0;
		size_t k;
		if (d->have < d->want) {
			k = d->want - d->have < n ? d->want - d->have : n;
			memcpy(d->buf + d->have, b, k);
			d->have += k;
		} else {
			k = d->skip < n ? d->skip : n;
			d->skip -= (unsigned)k;
		}
		d->crc = hq_fit_crc(d->crc, b, k);
		d->off += (long long)k;
		b += k;
		n -= k;
	}
}

int
hq_fit_end(struct hq_fit *d, struct hq_err *e)
{
	static const char *const inside[] = {
		[S_HEADER] = "a file header",
		[S_RECORD] = "a record header",
		[S_DEF] = "a definition",
		[S_DEF_FIELDS] = "a definition",
		[S_DEV_FIELDS] = "a definition",
		[S_DEF_NDEV] = "a definition",
		[S_DATA] = "a data message",
		[S_CRC] = "the file CRC",
	};

	if (d->state == S_FAILED) {
		*e = d->err;
		return -1;
	}
	if (d->state == S_HEADER && d->have == 0 && d->files > 0)
		return 0;
	d->truncated = d->files > 0;
	if (d->off == 0)
		fail(d, 0, "empty, not a FIT file");
	else if (d->state == S_CRC && d->have == 0)
		fail(d, d->off, "the input ends where the file CRC should be");
	else
		fail(d, d->off, "the input ends inside %s (truncated)",
		    inside[d->state]);
	*e = d->err;
	return -1;
}

/* ---- values ---------------------------------------------------------- */

const struct hq_fit_field *
hq_fit_find(const struct hq_fit_msg *m, unsigned num)
{
	return num < 256 && m->at[num] ? &m->field[m->at[num] - 1] : NULL;
}

int
hq_fit_int(const struct hq_fit_field *f, unsigned i, int64_t *v)
{
	uint64_t b, inv;

	if (!f || i >= f->count || f->type == HQ_FIT_STRING)
		return 0;
	if (f->type == HQ_FIT_BYTE) {
		/* bytes are invalid only all together */
		unsigned k = 0;
		while (k < f->size && f->raw[k] == 0xFF)
			k++;
		if (k == f->size)
			return 0;
	}
	b = bits(f, i);
	inv = types[f->type].invalid;
	if (f->type != HQ_FIT_BYTE && b == inv)
		return 0;
	switch (f->type) {
	case HQ_FIT_SINT8:
		*v = (int8_t)b;
		break;
	case HQ_FIT_SINT16:
		*v = (int16_t)b;
		break;
	case HQ_FIT_SINT32:
		*v = (int32_t)b;
		break;
	case HQ_FIT_FLOAT32: {
		uint32_t u = (uint32_t)b;
		float x;
		memcpy(&x, &u, sizeof x);
		if (!isfinite(x) || fabsf(x) >= 9.2e18f)
			return 0;
		*v = (int64_t)x;
		break;
	}
	case HQ_FIT_FLOAT64: {
		double x;
		memcpy(&x, &b, sizeof x);
		if (!isfinite(x) || fabs(x) >= 9.2e18)
			return 0;
		*v = (int64_t)x;
		break;
	}
	default:
		memcpy(v, &b, sizeof *v);   /* sint64 as is, uint64 bits */
		break;
	}
	return 1;
}

int
hq_fit_value(const struct hq_fit_field *f, unsigned i, double *v)
{
	int64_t n;

	if (f && i < f->count && (f->type == HQ_FIT_FLOAT32 ||
	    f->type == HQ_FIT_FLOAT64)) {
		uint64_t b = bits(f, i);
		double x;

		if (b == types[f->type].invalid)
			return 0;
		if (f->type == HQ_FIT_FLOAT32) {
			uint32_t u = (uint32_t)b;
			float y;
			memcpy(&y, &u, sizeof y);
			x = y;
		} else {
			memcpy(&x, &b, sizeof x);
		}
		if (!isfinite(x))
			return 0;
		*v = x;
		return 1;
	}
	if (!hq_fit_int(f, i, &n))
		return 0;
	*v = f->type == HQ_FIT_UINT64 || f->type == HQ_FIT_UINT64Z ?
	    (double)(uint64_t)n : (double)n;
	return 1;
}

double
hq_fit_num(const struct hq_fit_msg *m, unsigned num, double scale,
    double offset)
{
	double v;

	if (!hq_fit_value(hq_fit_find(m, num), 0, &v))
		return NAN;
	return v / scale - offset;
}

int64_t
hq_fit_get(const struct hq_fit_msg *m, unsigned num, int64_t absent)
{
	int64_t v;

	return hq_fit_int(hq_fit_find(m, num), 0, &v) ? v : absent;
}

int64_t
hq_fit_time(const struct hq_fit_msg *m, unsigned num)
{
	const struct hq_fit_field *f = hq_fit_find(m, num);
	int64_t v;

	if (!is_u32(f) || !hq_fit_int(f, 0, &v))
		return HQ_FIT_NO_TIME;
	return v + HQ_FIT_EPOCH;
}

size_t
hq_fit_str(const struct hq_fit_msg *m, unsigned num, char *buf, size_t n)
{
	const struct hq_fit_field *f = hq_fit_find(m, num);
	size_t len = 0;

	if (n == 0)
		return 0;
	if (f && f->type == HQ_FIT_STRING) {
		const unsigned char *z = memchr(f->raw, 0, f->size);
		len = z ? (size_t)(z - f->raw) : f->size;
		if (len > n - 1)
			len = n - 1;
		memcpy(buf, f->raw, len);
	}
	buf[len] = '\0';
	return len;
}

int
hq_fit_time_relative(int64_t t)
{
	return t != HQ_FIT_NO_TIME && t - HQ_FIT_EPOCH < HQ_FIT_RELATIVE_MAX;
}

double
hq_fit_degrees(int64_t semicircles)
{
	return (double)semicircles * (180.0 / 2147483648.0);
}

/* ---- messages ----------------------------------------------------------- */

static int
as_int(const struct hq_fit_msg *m, unsigned num)
{
	int64_t v = hq_fit_get(m, num, -1);

	return v >= 0 && v <= INT32_MAX ? (int)v : -1;
}

/* A latitude (max 90) or longitude (max 180) in degrees, NAN when absent
 * or out of range. */
static double
degrees(const struct hq_fit_msg *m, unsigned num, double max)
{
	int64_t v;
	double deg;

	if (!hq_fit_int(hq_fit_find(m, num), 0, &v))
		return NAN;
	deg = hq_fit_degrees(v);
	return fabs(deg) <= max ? deg : NAN;
}

/* The enhanced field when written, else the 16-bit one (both with the
 * same scale and offset). */
static double
enhanced(const struct hq_fit_msg *m, unsigned num, unsigned num16,
    double scale, double offset)
{
	double v = hq_fit_num(m, num, scale, offset);

	return isnan(v) ? hq_fit_num(m, num16, scale, offset) : v;
}

int
hq_fit_file_id(const struct hq_fit_msg *m, struct hq_fit_file_id *f)
{
	if (m->global != HQ_FIT_FILE_ID)
		return -1;
	f->type = as_int(m, 0);
	f->manufacturer = as_int(m, 1);
	f->product = as_int(m, 2);
	f->serial = hq_fit_get(m, 3, -1);
	f->time_created = hq_fit_time(m, 4);
	hq_fit_str(m, 8, f->product_name, sizeof f->product_name);
	return 0;
}

int
hq_fit_sport(const struct hq_fit_msg *m, struct hq_fit_sport_msg *s)
{
	if (m->global != HQ_FIT_SPORT)
		return -1;
	s->sport = as_int(m, 0);
	s->sub_sport = as_int(m, 1);
	hq_fit_str(m, 3, s->name, sizeof s->name);
	return 0;
}

/* Field numbers of a summary in session (18) and lap (19). */
struct summary_fields {
	uint8_t sport, sub_sport, calories, avg_speed, max_speed,
	    enh_avg_speed, enh_max_speed, avg_hr, max_hr, avg_cad, max_cad,
	    avg_power, max_power, ascent, descent;
};

static const struct summary_fields session_fields = {
	5, 6, 11, 14, 15, 124, 125, 16, 17, 18, 19, 20, 21, 22, 23
};
static const struct summary_fields lap_fields = {
	25, 39, 11, 13, 14, 110, 111, 15, 16, 17, 18, 19, 20, 21, 22
};

static void
summary(const struct hq_fit_msg *m, const struct summary_fields *n,
    struct hq_fit_summary *s)
{
	s->time = hq_fit_time(m, 253);
	s->start_time = hq_fit_time(m, 2);
	s->message_index = as_int(m, 254);
	s->event = as_int(m, 0);
	s->event_type = as_int(m, 1);
	s->sport = as_int(m, n->sport);
	s->sub_sport = as_int(m, n->sub_sport);
	s->total_elapsed_time = hq_fit_num(m, 7, 1000, 0);
	s->total_timer_time = hq_fit_num(m, 8, 1000, 0);
	s->total_distance = hq_fit_num(m, 9, 100, 0);
	s->total_calories = hq_fit_num(m, n->calories, 1, 0);
	s->avg_speed = enhanced(m, n->enh_avg_speed, n->avg_speed, 1000, 0);
	s->max_speed = enhanced(m, n->enh_max_speed, n->max_speed, 1000, 0);
	s->avg_heart_rate = hq_fit_num(m, n->avg_hr, 1, 0);
	s->max_heart_rate = hq_fit_num(m, n->max_hr, 1, 0);
	s->avg_cadence = hq_fit_num(m, n->avg_cad, 1, 0);
	s->max_cadence = hq_fit_num(m, n->max_cad, 1, 0);
	s->avg_power = hq_fit_num(m, n->avg_power, 1, 0);
	s->max_power = hq_fit_num(m, n->max_power, 1, 0);
	s->total_ascent = hq_fit_num(m, n->ascent, 1, 0);
	s->total_descent = hq_fit_num(m, n->descent, 1, 0);
	s->start_lat = degrees(m, 3, 90);
	s->start_lon = degrees(m, 4, 180);
	s->first_lap_index = s->num_laps = s->lap_trigger = -1;
	s->end_lat = s->end_lon = NAN;
}

int
hq_fit_session(const struct hq_fit_msg *m, struct hq_fit_summary *s)
{
	if (m->global != HQ_FIT_SESSION)
		return -1;
	summary(m, &session_fields, s);
	s->first_lap_index = as_int(m, 25);
	s->num_laps = as_int(m, 26);
	return 0;
}

int
hq_fit_lap(const struct hq_fit_msg *m, struct hq_fit_summary *s)
{
	if (m->global != HQ_FIT_LAP)
		return -1;
	summary(m, &lap_fields, s);
	s->lap_trigger = as_int(m, 24);
	s->end_lat = degrees(m, 5, 90);
	s->end_lon = degrees(m, 6, 180);
	return 0;
}

int
hq_fit_record(const struct hq_fit_msg *m, struct hq_fit_record *r)
{
	const struct hq_fit_field *csd;
	int64_t v;

	if (m->global != HQ_FIT_RECORD)
		return -1;
	r->time = m->time;
	r->lat = degrees(m, 0, 90);
	r->lon = degrees(m, 1, 180);
	r->altitude = enhanced(m, 78, 2, 5, 500);
	r->heart_rate = hq_fit_num(m, 3, 1, 0);
	r->cadence = hq_fit_num(m, 4, 1, 0);
	r->fractional_cadence = hq_fit_num(m, 53, 128, 0);
	r->distance = hq_fit_num(m, 5, 100, 0);
	r->speed = enhanced(m, 73, 6, 1000, 0);
	r->power = hq_fit_num(m, 7, 1, 0);
	r->temperature = hq_fit_num(m, 13, 1, 0);
	/* compressed_speed_distance: speed 12 bits in 1/100 m/s, distance
	 * 12 bits in 1/16 m accumulated (msg->acc_distance) */
	csd = hq_fit_find(m, 8);
	if (csd && csd->size == 3 && hq_fit_int(csd, 0, &v)) {
		if (isnan(r->speed))
			r->speed = (csd->raw[0] | (csd->raw[1] & 0x0F) << 8) /
			    100.0;
		if (isnan(r->distance) && m->acc_distance >= 0)
			r->distance = m->acc_distance / 16.0;
	}
	return 0;
}

int
hq_fit_hr(const struct hq_fit_msg *m, struct hq_fit_hr *hr)
{
	double v;

	if (m->global != HQ_FIT_HR)
		return -1;
	hr->time = hq_fit_time(m, 253);
	hr->fractional = hq_fit_num(m, 0, 32768, 0);
	if (isnan(hr->fractional) && hq_fit_value(hq_fit_find(m, 1), 0, &v))
		hr->fractional = v / 256;     /* time256, its component */
	hr->bpm = hq_fit_find(m, 6);
	hr->nevent = m->hr_nevent;
	hr->event = m->hr_event;
	return 0;
}

int
hq_fit_event(const struct hq_fit_msg *m, struct hq_fit_event *ev)
{
	if (m->global != HQ_FIT_EVENT)
		return -1;
	ev->time = m->time;
	ev->event = as_int(m, 0);
	ev->event_type = as_int(m, 1);
	ev->event_group = as_int(m, 4);
	ev->data = hq_fit_get(m, 3, hq_fit_get(m, 2, -1));
	ev->timer_trigger = ev->event == HQ_FIT_EVENT_TIMER && ev->data >= 0 &&
	    ev->data <= 255 ? (int)ev->data : -1;
	return 0;
}

int
hq_fit_event_timer(const struct hq_fit_event *ev)
{
	if (ev->event != HQ_FIT_EVENT_TIMER)
		return 0;
	switch (ev->event_type) {
	case HQ_FIT_START:
		return 2;
	case HQ_FIT_STOP:
	case HQ_FIT_STOP_ALL:
	case HQ_FIT_STOP_DISABLE:
	case HQ_FIT_STOP_DISABLE_ALL:
		return 1;
	}
	return 0;
}

int
hq_fit_device_info(const struct hq_fit_msg *m, struct hq_fit_device_info *di)
{
	if (m->global != HQ_FIT_DEVICE_INFO)
		return -1;
	di->time = m->time;
	di->device_index = as_int(m, 0);
	di->device_type = as_int(m, 1);
	di->manufacturer = as_int(m, 2);
	di->serial = hq_fit_get(m, 3, -1);
	di->product = as_int(m, 4);
	di->software_version = hq_fit_num(m, 5, 100, 0);
	di->source_type = as_int(m, 25);
	hq_fit_str(m, 27, di->product_name, sizeof di->product_name);
	hq_fit_str(m, 19, di->descriptor, sizeof di->descriptor);
	return 0;
}

int
hq_fit_activity(const struct hq_fit_msg *m, struct hq_fit_activity *a)
{
	if (m->global != HQ_FIT_ACTIVITY)
		return -1;
	a->time = m->time;
	a->local_timestamp = hq_fit_time(m, 5);
	a->total_timer_time = hq_fit_num(m, 0, 1000, 0);
	a->num_sessions = as_int(m, 1);
	a->type = as_int(m, 2);
	a->event = as_int(m, 3);
	a->event_type = as_int(m, 4);
	return 0;
}

/* ---- names ---------------------------------------------------------------- */

struct name {
	int value;
	const char *name;
};

static const char *
lookup(const struct name *t, size_t n, int value)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].value == value)
			return t[i].name;
	return NULL;
}

#define LOOKUP(t, v) lookup((t), sizeof (t) / sizeof (t)[0], (v))

const char *
hq_fit_sport_name(int sport)
{
	static const struct name t[] = {
		{ 0, "generic" }, { 1, "running" }, { 2, "cycling" },
		{ 3, "transition" }, { 4, "fitness_equipment" },
		{ 5, "swimming" }, { 10, "training" }, { 11, "walking" },
		{ 15, "rowing" }, { 17, "hiking" }, { 18, "multisport" },
		{ 21, "e_biking" },
	};
	return LOOKUP(t, sport);
}

const char *
hq_fit_sub_sport_name(int sub_sport)
{
	static const struct name t[] = {
		{ 0, "generic" }, { 1, "treadmill" }, { 2, "street" },
		{ 3, "trail" }, { 4, "track" }, { 5, "spin" },
		{ 6, "indoor_cycling" }, { 7, "road" }, { 8, "mountain" },
		{ 9, "downhill" }, { 14, "indoor_rowing" },
		{ 17, "lap_swimming" }, { 18, "open_water" },
		{ 27, "indoor_walking" }, { 45, "indoor_running" },
		{ 48, "commuting" }, { 58, "virtual_activity" },
	};
	return LOOKUP(t, sub_sport);
}
