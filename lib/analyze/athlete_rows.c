/* The athlete's figures beside the workout rows (athlete_rows.h). */
#include <math.h>
#include <stdlib.h>

#include "hq/athlete.h"
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

/* Least sure first. */
static int
sureness(enum hq_basis b)
{
	return b == HQ_BASIS_DEFAULT ? 1 : b == HQ_BASIS_STORE ? 2 :
	    b == HQ_BASIS_CONFIG ? 3 : b == HQ_BASIS_FLAG ? 4 : 0;
}

static void
tail(void *arg, struct hq_out *out)
{
	const struct hq_athlete *a = &((struct hq_athlete_rows *)arg)->a;
	enum hq_basis least = HQ_BASIS_NONE;
	static const enum hq_athlete_key hr[] = {
		HQ_ATH_MAX_HR, HQ_ATH_REST_HR, HQ_ATH_LTHR,
	};

	for (size_t i = 0; i < sizeof hr / sizeof hr[0]; i++)
		if (a->basis[hr[i]] != HQ_BASIS_NONE && (least == HQ_BASIS_NONE ||
		    sureness(a->basis[hr[i]]) < sureness(least)))
			least = a->basis[hr[i]];
	hq_out_num(out, "athlete_max_hr", a->max_hr);
	hq_out_num(out, "athlete_rest_hr", a->rest_hr);
	hq_out_num(out, "athlete_lthr", a->lthr);
	hq_out_num(out, "athlete_ftp", a->ftp);
	hq_out_str(out, "athlete_sex", hq_athlete_sex_name(a->sex));
	hq_out_str(out, "athlete_basis", hq_athlete_basis_name(least));
}

struct hq_athlete_rows *
hq_athlete_rows_new(struct hq_store *s, const struct hq_config *c,
    const struct hq_athlete_flags *fl, struct hq_err *e)
{
	struct hq_athlete_rows *k = hq_xcalloc(1, sizeof *k);
	const struct { enum hq_athlete_key key; const char *flag, *v; } f[] = {
		{ HQ_ATH_MAX_HR, "--max-hr", fl ? fl->max_hr : NULL },
		{ HQ_ATH_REST_HR, "--rest-hr", fl ? fl->rest_hr : NULL },
		{ HQ_ATH_LTHR, "--lthr", fl ? fl->lthr : NULL },
		{ HQ_ATH_FTP, "--ftp", fl ? fl->ftp : NULL },
	};

	hq_athlete_init(&k->a);
	if (c && hq_athlete_config(&k->a, c, e))
		goto fail;
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
		if (f[i].v && hq_athlete_flag(&k->a, f[i].key, f[i].flag, f[i].v, e))
			goto fail;
	if (hq_athlete_defaults(&k->a, s, e) ||
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
