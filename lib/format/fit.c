/* FIT decoded as a stream: see include/hq/fit.h for what is read, what
 * fails and what is skipped. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/fit.h"

#include "fit_int.h"

/* The largest data message held: 255 fields of 255 bytes. Developer
 * fields are skipped, never held. */
#define MAX_MESG (255 * 255)

/* Each base type's size and its invalid value (fit_int.h). */
const struct hq_fit_base hq_fit_base[HQ_FIT_NTYPES] = {
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
		unsigned sz = hq_fit_base[df->type[i]].size;

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

	if (hq_fit_is_u32(f = hq_fit_find(&m, 253)) && hq_fit_int(f, 0, &t)) {
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

		if (hq_fit_is_u32(f = hq_fit_find(&m, 5)) && hq_fit_int(f, 0, &v)) {
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
