/* --where on the workouts' numeric fields (query_int.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/expr.h"
#include "hq/query_int.h"

struct hq_workout_where {
	struct hq_expr **x;
	size_t n;
	size_t **field;          /* per expression, per reference: fields' index */
};

void
hq_workout_where_free(struct hq_workout_where *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->n; i++) {
		hq_expr_free(w->x[i]);
		free(w->field[i]);
	}
	free(w->x);
	free(w->field);
	free(w);
}

/* "--where 'x>1': unknown field 'x' for workouts: use a, b, c" */
static void
unknown(const char *src, const struct hq_expr_ref *r, const char *const *fields,
    size_t nfields, struct hq_err *e)
{
	struct hq_buf b = {0};

	for (size_t i = 0; i < nfields; i++)
		hq_buf_printf(&b, "%s%s", i ? ", " : "", fields[i]);
	if (r->metric)
		hq_err_set(e, "--where '%s': '%s.%s': workouts filter on their own "
		    "fields: %s", src, r->metric, r->field, b.data);
	else if (r->lag)
		hq_err_set(e, "--where '%s': '%s[%d]': no day offsets on workouts; "
		    "fields: %s", src, r->field, r->lag, b.data);
	else
		hq_err_set(e, "--where '%s': unknown field '%s' for workouts: use "
		    "%s", src, r->field, b.data);
	hq_buf_free(&b);
}

struct hq_workout_where *
hq_workout_where_new(const char *const *srcs, size_t n,
    const char *const *fields, size_t nfields, struct hq_err *e)
{
	struct hq_workout_where *w = hq_xcalloc(1, sizeof *w);

	w->x = hq_xcalloc(n ? n : 1, sizeof *w->x);
	w->field = hq_xcalloc(n ? n : 1, sizeof *w->field);
	for (size_t i = 0; i < n; i++) {
		size_t nr;

		if (!(w->x[i] = hq_expr_parse(srcs[i], e))) {
			hq_err_prefix(e, "--where '%s'", srcs[i]);
			hq_workout_where_free(w);
			return NULL;
		}
		w->n++;
		nr = hq_expr_nrefs(w->x[i]);
		w->field[i] = hq_xcalloc(nr ? nr : 1, sizeof **w->field);
		for (size_t k = 0; k < nr; k++) {
			const struct hq_expr_ref *r = hq_expr_ref(w->x[i], k);
			size_t f = nfields;
			if (!r->metric && !r->lag)
				for (f = 0; f < nfields; f++)
					if (strcmp(fields[f], r->field) == 0)
						break;
			if (f == nfields) {
				unknown(srcs[i], r, fields, nfields, e);
				hq_workout_where_free(w);
				return NULL;
			}
			w->field[i][k] = f;
		}
	}
	return w;
}

struct lookup {
	const size_t *field;
	const double *vals;
};

static int
value(void *ctx, size_t ref, double *v)
{
	const struct lookup *l = ctx;

	*v = l->vals[l->field[ref]];
	return isnan(*v) ? -1 : 0;
}

int
hq_workout_where_holds(const struct hq_workout_where *w, const double *vals)
{
	for (size_t i = 0; w && i < w->n; i++) {
		struct lookup l = { w->field[i], vals };
		if (!hq_expr_eval(w->x[i], value, &l))
			return 0;
	}
	return 1;
}
