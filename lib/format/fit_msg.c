/* FIT messages read back (include/hq/fit.h): a field's value by its base
 * type, with its scale and offset; the messages an importer reads into
 * their structs; sport names. fit.c decodes the stream. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "hq/fit.h"

#include "fit_int.h"

/* ---- values ---------------------------------------------------------- */

/* Raw bits of value i of f (which has count > i). */
static uint64_t
bits(const struct hq_fit_field *f, unsigned i)
{
	unsigned sz = hq_fit_base[f->type].size;
	const unsigned char *p = f->raw + (size_t)i * sz;
	uint64_t v = 0;

	for (unsigned k = 0; k < sz; k++)
		v |= (uint64_t)p[f->big_endian ? sz - 1 - k : k] << (8 * k);
	return v;
}

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
	inv = hq_fit_base[f->type].invalid;
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

		if (b == hq_fit_base[f->type].invalid)
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

/* Field num's first value as an integer, or absent. */
static int64_t
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

	if (!hq_fit_is_u32(f) || !hq_fit_int(f, 0, &v))
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
