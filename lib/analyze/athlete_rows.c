/* The athlete's figures beside the workout rows (athlete_rows.h). */
#include <math.h>
#include <stdlib.h>

#include "hq/athlete_load.h"
#include "hq/athlete_rows.h"
#include "hq/buf.h"

enum {
	K_TRIMP, K_HRSS, K_EDWARDS, K_NP, K_IF, K_TSS, K_LOAD, K_HR_MIN,
	K_HR_COV, K_Z0, K_Z5 = K_Z0 + 5, K_GAIN, K_N,
};

static const char *const keys[K_N] = {
	"trimp", "hrss", "edwards", "np", "if", "tss", "load", "hr_minutes",
	"hr_coverage_pct", "z0_min", "z1_min", "z2_min", "z3_min", "z4_min",
	"z5_min", "elevation_gain_m",
};

struct hq_athlete_rows {
	struct hq_athlete_reader *r;
	struct hq_athlete a;
	struct hq_workout_more more;
};

static int
fill(void *arg, int64_t id, double *v, struct hq_err *e)
{
	struct hq_athlete_rows *k = arg;
	struct hq_athlete_figures f;
	int rc = hq_athlete_figures_id(k->r, &k->a, id, NULL, &f, e);

	if (rc <= 0)
		return rc;
	v[K_TRIMP] = f.trimp;
	v[K_HRSS] = f.hrss;
	v[K_EDWARDS] = f.edwards;
	v[K_NP] = f.np;
	v[K_IF] = f.if_;
	v[K_TSS] = f.tss;
	v[K_LOAD] = f.load;
	v[K_HR_MIN] = f.hr_minutes;
	v[K_HR_COV] = f.hr_coverage_pct;
	for (int z = 0; z < 6; z++)
		v[K_Z0 + z] = f.z_min[z];
	v[K_GAIN] = f.elevation_gain_m;
	return 0;
}

static void
tail(void *arg, struct hq_out *out)
{
	const struct hq_athlete *a = &((struct hq_athlete_rows *)arg)->a;

	hq_out_num(out, "athlete_max_hr", a->max_hr);
	hq_out_num(out, "athlete_rest_hr", a->rest_hr);
	hq_out_num(out, "athlete_lthr", a->lthr);
	hq_out_num(out, "athlete_ftp", a->ftp);
	hq_out_str(out, "athlete_sex", hq_athlete_sex_name(a->sex));
	hq_out_str(out, "athlete_basis", hq_athlete_basis_of(a));
}

struct hq_athlete_rows *
hq_athlete_rows_new(struct hq_store *s, const struct hq_config *c,
    const struct hq_athlete_flags *fl, struct hq_err *e)
{
	struct hq_athlete_rows *k = hq_xcalloc(1, sizeof *k);
	const char *flag[HQ_ATH_NKEYS] = { 0 };

	if (fl) {
		flag[HQ_ATH_MAX_HR] = fl->max_hr;
		flag[HQ_ATH_REST_HR] = fl->rest_hr;
		flag[HQ_ATH_LTHR] = fl->lthr;
		flag[HQ_ATH_FTP] = fl->ftp;
	}
	if (hq_athlete_resolve(&k->a, c, flag, NULL, s, e) ||
	    !(k->r = hq_athlete_reader_new(s, e)))
		goto fail;
	k->more = (struct hq_workout_more){ .keys = keys, .n = K_N,
	    .table_key = "load", .fill = fill, .tail = tail, .arg = k };
	return k;
fail:
	free(k);
	return NULL;
}

const struct hq_workout_more *
hq_athlete_rows_more(struct hq_athlete_rows *k)
{
	return &k->more;
}

void
hq_athlete_rows_free(struct hq_athlete_rows *k)
{
	if (!k)
		return;
	hq_athlete_reader_free(k->r);
	free(k);
}

const char *
hq_athlete_rows_key_at(size_t i)
{
	return i < K_N ? keys[i] : NULL;
}
