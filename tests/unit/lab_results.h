/*
 * lab_results.h — the lab results a reader emits, kept for the checks of
 * the unit tests of labs and fhir (header-only): got[0..ngot-1].
 */
#ifndef HQ_TEST_LAB_RESULTS_H
#define HQ_TEST_LAB_RESULTS_H

#include "hq/labs.h"

static struct hq_lab_result got[64];
static int ngot;

static int
keep(void *arg, const struct hq_lab_result *r, struct hq_err *e)
{
	(void)arg, (void)e;
	if (ngot < 64)
		got[ngot++] = *r;
	return 0;
}

#endif
