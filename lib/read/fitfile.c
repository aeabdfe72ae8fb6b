#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "hq/activity.h"
#include "hq/fit.h"
#include "hq/fitfile.h"
#include "hq/ingest.h"
#include "hq/input.h"
#include "hq/utf8.h"

int
hq_fitfile_sniff(const unsigned char *p, size_t n)
{
	return hq_fit_sniff(p, n);
}

/* Manufacturers as people write them. */
static const struct { int id; const char *name; } makers[] = {
	{ 1, "Garmin" }, { 6, "SRM" }, { 15, "Dynastream" }, { 23, "Suunto" },
	{ 32, "Wahoo" }, { 70, "Sigma" }, { 95, "Stryd" }, { 123, "Polar" },
	{ 255, "Development" }, { 260, "Zwift" }, { 265, "Strava" },
	{ 294, "Coros" },
};

/* Garmin's product numbers of the devices in the fixtures (FIT SDK
 * profile, garmin_product); others are named by number. */
static const struct { int id; const char *name; } garmin[] = {
	{ 1036, "Edge 500" }, { 1169, "Edge 800" }, { 1436, "Forerunner 70" },
	{ 1567, "Edge 810" }, { 1765, "Forerunner 920XT" },
	{ 1967, "fenix 2" }, { 2697, "fenix 5" }, { 4315, "Forerunner 965" },
};

void
hq_fitfile_source(int manufacturer, int product, const char *product_name,
    long long serial, char *buf, size_t n)
{
	char maker[64] = "", prod[96] = "", sn[32] = "", name[64];

	/* Not UTF-8 (Latin-1, or cut by its field): repaired, so that the
	 * source, and everything the file holds, can be stored. */
	if (product_name) {
		hq_utf8_repair(product_name, name, sizeof name);
		product_name = name;
	}
	for (size_t i = 0; i < sizeof makers / sizeof makers[0]; i++)
		if (makers[i].id == manufacturer)
			snprintf(maker, sizeof maker, "%s", makers[i].name);
	if (!*maker)
		snprintf(maker, sizeof maker, "FIT manufacturer %d", manufacturer);
	if (product_name && *product_name)   /* "COROS PACE 2": not twice */
		snprintf(prod, sizeof prod, " %s", strncasecmp(product_name,
		    maker, strlen(maker)) == 0 && product_name[strlen(maker)] == ' '
		    ? product_name + strlen(maker) + 1 : product_name);
	else if (product > 0) {
		/* Garmin's numbers serve Dynastream (13, 15) and Tacx (89). */
		if (manufacturer == 1 || manufacturer == 13 ||
		    manufacturer == 15 || manufacturer == 89)
			for (size_t i = 0; i < sizeof garmin / sizeof garmin[0]; i++)
				if (garmin[i].id == product)
					snprintf(prod, sizeof prod, " %s",
					    garmin[i].name);
		if (!*prod)
			snprintf(prod, sizeof prod, " product %d", product);
	}
	if (serial >= 0)
		snprintf(sn, sizeof sn, " (SN %lld)", serial);
	snprintf(buf, n, "%s%s%s", maker, prod, sn);
}

struct fitread {
	struct hq_ingest *ig;
	struct hq_input *in;
	struct hq_act *act;        /* the recording of the file in the chain */
	int file;                  /* that file */
	int have_id;
	char src[256], dev[512];   /* the device, from the last file_id */
	long no_time;              /* records without a time */
};

static enum hq_act_sport
sport_of(int sport, int sub)
{
	switch (sport) {
	case 1: return HQ_ACT_RUNNING;
	case 2: case 21: return HQ_ACT_CYCLING;      /* e_biking too */
	case 3: return HQ_ACT_TRANSITION;
	case 5: return HQ_ACT_SWIMMING;
	case 11: return HQ_ACT_WALKING;
	case 15: return HQ_ACT_ROWING;
	case 17: return HQ_ACT_HIKING;
	case 4:   /* fitness equipment: by what it is */
		switch (sub) {
		case 1: case 45: return HQ_ACT_RUNNING;
		case 5: case 6: return HQ_ACT_CYCLING;
		case 14: return HQ_ACT_ROWING;
		case 27: return HQ_ACT_WALKING;
		}
		return HQ_ACT_OTHER;
	default: return HQ_ACT_OTHER;
	}
}

/* 1 indoor, 0 outdoor, -1 the sub-sport does not say. */
static int
indoor_of(int sub)
{
	switch (sub) {
	case 1: case 5: case 6: case 14: case 27: case 45: case 58:
		return 1;
	case 2: case 3: case 4: case 7: case 8: case 9: case 18: case 48:
		return 0;
	default:
		return -1;
	}
}

/* A message's time: 0 to read it; 1 to skip it (more than a day after
 * the import: hq_act_future); -1 with e set, failing the file, when the
 * time is device-relative. */
static int
check_time(const struct fitread *f, const struct hq_fit_msg *m, int64_t t,
    struct hq_err *e)
{
	char where[32];

	if (t == HQ_FIT_NO_TIME)
		return 0;
	if (hq_fit_time_relative(t)) {
		hq_err_set(e, "byte %lld: device-relative time %lld (seconds since "
		    "the device was switched on, not a date): the file does not "
		    "say when it was recorded; not imported", m->offset,
		    (long long)(t - HQ_FIT_EPOCH));
		return -1;
	}
	snprintf(where, sizeof where, "byte %lld", m->offset);
	return hq_act_future(f->act, t, where);
}

static int
on_session(struct fitread *f, const struct hq_fit_msg *m, struct hq_err *e)
{
	struct hq_fit_summary s;
	double elapsed;
	const char *sub;
	int rc;

	if (hq_fit_session(m, &s) != 0)
		return 0;
	if ((rc = check_time(f, m, s.start_time, e)) != 0)
		return rc < 0 ? -1 : 0;
	if (s.start_time == HQ_FIT_NO_TIME) {
		hq_ingest_warn(f->ig, "%s: byte %lld: session without a start "
		    "time (skipped)", f->in->name, m->offset);
		return 0;
	}
	elapsed = !isnan(s.total_elapsed_time) ? s.total_elapsed_time
	    : !isnan(s.total_timer_time) ? s.total_timer_time
	    : s.time != HQ_FIT_NO_TIME && s.time > s.start_time
	    ? (double)(s.time - s.start_time) : 0;
	sub = s.sub_sport > 0 ? hq_fit_sub_sport_name(s.sub_sport) : NULL;
	return hq_act_session(f->act, &(struct hq_act_session){
	    .sport = sport_of(s.sport, s.sub_sport), .sub_sport = sub,
	    .indoor = indoor_of(s.sub_sport),
	    .virtual_route = s.sub_sport == 58,
	    .start = s.start_time, .end = hq_act_end(s.start_time, elapsed),
	    .duration = !isnan(s.total_timer_time) ? s.total_timer_time
	    : elapsed,
	    .distance = s.total_distance, .energy = s.total_calories,
	    .ascent = s.total_ascent,
	    .avg_hr = s.avg_heart_rate > 0 ? s.avg_heart_rate : NAN,
	    .max_hr = s.max_heart_rate > 0 ? s.max_heart_rate : NAN,
	    .avg_power = s.avg_power, .max_power = s.max_power }, e);
}

static int
on_record(struct fitread *f, const struct hq_fit_msg *m, struct hq_err *e)
{
	struct hq_fit_record r;
	double cad;
	int rc;

	if (hq_fit_record(m, &r) != 0)
		return 0;
	if (r.time == HQ_FIT_NO_TIME) {
		f->no_time++;
		return 0;
	}
	if ((rc = check_time(f, m, r.time, e)) != 0)
		return rc < 0 ? -1 : 0;
	/* heart_rate present but invalid (0xFF) */
	if (isnan(r.heart_rate) && hq_fit_find(m, 3))
		hq_act_invalid_hr(f->act);
	cad = r.cadence;
	if (!isnan(cad) && !isnan(r.fractional_cadence))
		cad += r.fractional_cadence;
	return hq_act_point(f->act, &(struct hq_act_point){
	    .time = r.time, .lat = r.lat, .lon = r.lon, .ele = r.altitude,
	    .hr = r.heart_rate, .power = r.power, .cadence = cad,
	    .speed = r.speed, .distance = r.distance }, e);
}

static int
on_message(void *arg, const struct hq_fit_msg *m, struct hq_err *e)
{
	struct fitread *f = arg;
	int rc;

	/* The next file of a chain is a recording of its own, with its own
	 * device (its file_id; until then the last one's). */
	if (m->file != f->file) {
		if (hq_act_finish(f->act, e))
			return -1;
		hq_act_free(f->act);
		if (!(f->act = hq_act_new(f->ig, f->in, e)))
			return -1;
		if (*f->src)
			hq_act_source(f->act, f->src, f->dev);
		f->file = m->file;
		f->have_id = 0;
	}
	switch (m->global) {
	case HQ_FIT_FILE_ID: {
		struct hq_fit_file_id id;
		if (f->have_id || hq_fit_file_id(m, &id) != 0)
			return 0;
		f->have_id = 1;
		hq_fitfile_source(id.manufacturer, id.product, id.product_name,
		    (long long)id.serial, f->src, sizeof f->src);
		snprintf(f->dev, sizeof f->dev, "name:%s, manufacturer:%s, "
		    "product:%d", f->src, hq_fit_manufacturer_name(id.manufacturer)
		    ? hq_fit_manufacturer_name(id.manufacturer) : "unknown",
		    id.product);
		hq_act_source(f->act, f->src, f->dev);
		return 0;
	}
	case HQ_FIT_SESSION:
		return on_session(f, m, e);
	case HQ_FIT_LAP: {
		struct hq_fit_summary s;
		if (hq_fit_lap(m, &s) != 0 || s.start_time == HQ_FIT_NO_TIME)
			return 0;
		if ((rc = check_time(f, m, s.start_time, e)) != 0)
			return rc < 0 ? -1 : 0;
		return hq_act_lap(f->act, s.start_time, s.total_elapsed_time, e);
	}
	case HQ_FIT_RECORD:
		return on_record(f, m, e);
	case HQ_FIT_EVENT: {
		struct hq_fit_event ev;
		int k;
		if (hq_fit_event(m, &ev) != 0 || ev.time == HQ_FIT_NO_TIME ||
		    (k = hq_fit_event_timer(&ev)) == 0)
			return 0;
		if ((rc = check_time(f, m, ev.time, e)) != 0)
			return rc < 0 ? -1 : 0;
		return hq_act_timer(f->act, ev.time, k == 1, e);
	}
	default:
		return 0;
	}
}

int
hq_fitfile_read(struct hq_input *in,
    const struct hq_read_opts *o, struct hq_ingest *ig, struct hq_err *e)
{
	struct fitread f = { .ig = ig, .in = in };
	struct hq_fit *d = NULL;
	unsigned char buf[65536];
	ssize_t n;
	int rc = -1;
	struct hq_err fe = { 0 };

	(void)o;
	if (!(f.act = hq_act_new(ig, in, e)))
		return -1;
	d = hq_fit_new(on_message, &f);
	while ((n = hq_input_read(in, buf, sizeof buf)) > 0) {
		if (hq_fit_feed(d, buf, (size_t)n, &fe) != 0)
			break;
		hq_ingest_tick(ig, in);
	}
	if (n < 0)
		hq_err_set(e, "%s: %s", in->name, hq_input_strerror(in));
	else if (n > 0 || hq_fit_end(d, &fe) != 0)
		hq_err_set(e, "%s: %s", in->name, fe.msg);
	else if (hq_act_finish(f.act, e) == 0) {
		if (f.no_time)
			hq_ingest_skip_n(ig, f.no_time, "%s: %ld records without "
			    "a time (skipped)", in->name, f.no_time);
		rc = 0;
	}
	hq_fit_free(d);
	hq_act_free(f.act);
	return rc;
}
