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

void
hq_fitfile_source(int manufacturer, int product, const char *product_name,
    long long serial, char *buf, size_t n)
{
	char maker[64] = "", prod[96] = "", sn[32] = "", pname[64];
	const char *name;

	/* Not UTF-8 (Latin-1, or cut by its field): repaired, so that the
	 * source, and everything the file holds, can be stored. */
	if (product_name) {
		hq_utf8_repair(product_name, pname, sizeof pname);
		product_name = pname;
	}
	if ((name = hq_fit_maker_name(manufacturer)))
		snprintf(maker, sizeof maker, "%s", name);
	else
		snprintf(maker, sizeof maker, "FIT manufacturer %d", manufacturer);
	if (product_name && *product_name)   /* "COROS PACE 2": not twice */
		snprintf(prod, sizeof prod, " %s", strncasecmp(product_name,
		    maker, strlen(maker)) == 0 && product_name[strlen(maker)] == ' '
		    ? product_name + strlen(maker) + 1 : product_name);
	else if ((name = hq_fit_product_name(manufacturer, product)))
		snprintf(prod, sizeof prod, " %s", name);
	else if (product > 0)
		snprintf(prod, sizeof prod, " product %d", product);
	if (serial >= 0)
		snprintf(sn, sizeof sn, " (SN %lld)", serial);
	snprintf(buf, n, "%s%s%s", maker, prod, sn);
}

struct fitread {
	struct hq_ingest *ig;
	struct hq_input *in;
	struct hq_act *act;        /* the recording of this device's files */
	int file;                  /* the file of the chain being read */
	int have_id;
	char src[256], dev[512];   /* the device, from the last file_id */
	long no_time;              /* records without a time */
	int sport;                 /* the sport message's, else a lap's */
	/* hr messages expanded (hr_beats): the anchor, the last beat */
	double anchor_t, anchor_ev, beat_t, beat_hr;
	long hr_bad;               /* hr messages that could not be read */
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

/* The end of a session or lap: start + elapsed, but not past its own
 * timestamp when that comes after its start (fenix 2's first leg gives
 * an elapsed time 45 minutes longer than its span: it counted from an
 * earlier start); many devices stamp it later, when it was saved, and
 * some at its start (Forerunner 965). INT64_MIN when neither says. */
static int64_t
summary_end(const struct hq_fit_summary *s, double elapsed)
{
	int64_t end = isnan(elapsed) ? INT64_MIN : hq_act_end(s->start_time,
	    elapsed);

	if (s->time != HQ_FIT_NO_TIME && s->time > s->start_time &&
	    (end == INT64_MIN || s->time < end))
		end = s->time;
	return end;
}

static int
on_session(struct fitread *f, const struct hq_fit_msg *m, struct hq_err *e)
{
	struct hq_fit_summary s;
	double elapsed;
	int64_t end;
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
	    : s.total_timer_time;
	if ((end = summary_end(&s, elapsed)) == INT64_MIN)
		end = s.start_time;
	sub = s.sub_sport > 0 ? hq_fit_sub_sport_name(s.sub_sport) : NULL;
	return hq_act_session(f->act, &(struct hq_act_session){
	    .sport = sport_of(s.sport, s.sub_sport), .sub_sport = sub,
	    .indoor = indoor_of(s.sub_sport),
	    .virtual_route = s.sub_sport == 58,
	    .start = s.start_time, .end = end,
	    .laps_given = s.first_lap_index >= 0 && s.num_laps >= 0,
	    .first_lap = s.first_lap_index, .num_laps = s.num_laps,
	    .duration = !isnan(s.total_timer_time) ? s.total_timer_time
	    : !isnan(elapsed) ? elapsed : (double)(end - s.start_time),
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
	/* heart_rate present but invalid (0xFF): -1 for activity.h */
	if (isnan(r.heart_rate) && hq_fit_find(m, 3))
		r.heart_rate = -1;
	cad = r.cadence;
	if (!isnan(cad) && !isnan(r.fractional_cadence))
		cad += r.fractional_cadence;
	return hq_act_point(f->act, &(struct hq_act_point){
	    .time = r.time, .lat = r.lat, .lon = r.lon, .ele = r.altitude,
	    .hr = r.heart_rate, .power = r.power, .cadence = cad,
	    .speed = r.speed, .distance = r.distance }, e);
}

/* One expanded beat, and before it the last one carried forward every
 * 250 ms across the gap, up to 5 s (the SDK's expandHeartRates). */
static void
beat(struct fitread *f, double t, double bpm)
{
	if (!isnan(f->beat_t)) {
		double gap = fabs(t - f->beat_t) * 1000;
		for (int step = 1; gap > 250 && step <= 20; step++) {
			hq_act_beat(f->act, f->beat_t + 0.25 * step, f->beat_hr);
			gap -= 250;
		}
	}
	hq_act_beat(f->act, t, bpm);
	f->beat_t = t;
	f->beat_hr = bpm;
}

/* An hr message's beats, at the times Garmin's SDK gives them
 * (expandHeartRates): an anchor (a timestamp and one event time), then
 * event times relative to it, with the 32-bit rollover of 1/1024 s. A
 * message the SDK refuses (no anchor yet, an anchor of several events,
 * as many rates as event times, an event before the anchor's) is
 * skipped and counted. */
static void
hr_beats(struct fitread *f, const struct hq_fit_msg *m)
{
	struct hq_fit_hr hr;
	int64_t bpm;

	if (hq_fit_hr(m, &hr) != 0)
		return;
	if (hr.time != HQ_FIT_NO_TIME) {
		if (hr.nevent != 1 || hq_fit_time_relative(hr.time)) {
			f->hr_bad++;
			return;
		}
		f->anchor_t = (double)hr.time +
		    (isnan(hr.fractional) ? 0 : hr.fractional);
		f->anchor_ev = hr.event[0] / 1024.0;
	}
	if (isnan(f->anchor_t) || !hr.bpm || hr.bpm->count != hr.nevent) {
		f->hr_bad++;
		return;
	}
	for (int i = 0; i < hr.nevent; i++) {
		double ev = hr.event[i] / 1024.0;
		if (ev < f->anchor_ev) {
			if (f->anchor_ev - ev <= 0x400000) {
				f->hr_bad++;
				return;
			}
			ev += 0x400000;
		}
		if (hq_fit_int(hr.bpm, (unsigned)i, &bpm))
			beat(f, f->anchor_t + (ev - f->anchor_ev), (double)bpm);
	}
}

static int
on_message(void *arg, const struct hq_fit_msg *m, struct hq_err *e)
{
	struct fitread *f = arg;
	int rc;

	/* The next file of a chain: its own file_id (until then the last
	 * file's device holds). */
	if (m->file != f->file) {
		f->file = m->file;
		f->have_id = 0;
	}
	switch (m->global) {
	case HQ_FIT_FILE_ID: {
		struct hq_fit_file_id id;
		char src[sizeof f->src];
		if (f->have_id || hq_fit_file_id(m, &id) != 0)
			return 0;
		f->have_id = 1;
		hq_fitfile_source(id.manufacturer, id.product, id.product_name,
		    (long long)id.serial, src, sizeof src);
		/* A file of another device (two recordings chained: SN 1234,
		 * then SN 5678) is a recording of its own: what came before is
		 * written as the first one's. One device's chain (a multisport
		 * file, its strap's hr messages at the end) stays one, so
		 * that its beats reach every leg's records. */
		if (*f->src && strcmp(src, f->src) != 0) {
			if (hq_act_finish(f->act, e))
				return -1;
			hq_act_free(f->act);
			if (!(f->act = hq_act_new(f->ig, f->in, e)))
				return -1;
			f->sport = -1;
			f->anchor_t = f->beat_t = NAN;
		}
		snprintf(f->src, sizeof f->src, "%s", src);
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
		if (f->sport < 0 && s.sport >= 0)
			f->sport = s.sport;
		return hq_act_lap(f->act, s.start_time,
		    summary_end(&s, s.total_elapsed_time), s.total_elapsed_time,
		    e);
	}
	case HQ_FIT_SPORT: {
		struct hq_fit_sport_msg sp;
		if (hq_fit_sport(m, &sp) == 0 && sp.sport >= 0)
			f->sport = sp.sport;
		return 0;
	}
	case HQ_FIT_HR:
		hr_beats(f, m);
		return 0;
	case HQ_FIT_ACTIVITY: {     /* its local time (Zwift writes 0) */
		struct hq_fit_activity ac;
		int64_t d;
		if (hq_fit_activity(m, &ac) == 0 && ac.time != HQ_FIT_NO_TIME &&
		    ac.local_timestamp != HQ_FIT_NO_TIME &&
		    !hq_fit_time_relative(ac.local_timestamp) &&
		    !hq_fit_time_relative(ac.time) &&
		    (d = ac.local_timestamp - ac.time) > -16 * 3600 &&
		    d < 16 * 3600)
			hq_act_local_offset(f->act, ac.time,
			    (int)((d + (d < 0 ? -30 : 30)) / 60));
		return 0;
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
	struct fitread f = { .ig = ig, .in = in, .sport = -1,
	    .anchor_t = NAN, .beat_t = NAN };
	struct hq_fit *d = NULL;
	unsigned char buf[65536];
	ssize_t n;
	int rc = -1, partial = 0, failed = 0;
	struct hq_err fe = { 0 };

	if (!(f.act = hq_act_new(ig, in, e)))
		return -1;
	d = hq_fit_new(on_message, &f);
	while ((n = hq_input_read(in, buf, sizeof buf)) > 0) {
		if (hq_fit_feed(d, buf, (size_t)n, &fe) != 0)
			break;
		hq_ingest_tick(ig, in);
	}
	/* A file that merely ends early (a watch whose battery died): its
	 * whole records, marked partial, unless --strict. */
	if (n == 0 && hq_fit_end(d, &fe) != 0) {
		if (hq_fit_truncated(d) && !o->strict) {
			partial = 1;
			hq_act_partial(f.act, sport_of(f.sport, -1));
		} else
			failed = 1;
	}
	if (n < 0)
		hq_err_set(e, "%s: %s", in->name, hq_input_strerror(in));
	else if (n > 0 || failed)
		hq_err_set(e, "%s: %s", in->name, fe.msg);
	else if (hq_act_finish(f.act, e) == 0) {
		if (f.no_time)
			hq_ingest_skip_n(ig, f.no_time, "%s: %ld records without "
			    "a time (skipped)", in->name, f.no_time);
		if (f.hr_bad)
			hq_ingest_warn(ig, "%s: %ld hr messages that give no beat "
			    "times (skipped)", in->name, f.hr_bad);
		if (partial) {
			hq_ingest_warn(ig, "%s: %s: its complete records were "
			    "imported, marked partial (--strict refuses a file "
			    "that ends early)", in->name, fe.msg);
			hq_ingest_partial(ig);
		}
		rc = 0;
	}
	hq_fit_free(d);
	hq_act_free(f.act);
	return rc;
}
