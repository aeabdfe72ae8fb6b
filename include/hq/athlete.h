/*
 * athlete — the athlete's settings for hq-report(1)'s "Training: load,
 * zones, bests" and hq-query's workout figures: [athlete] and flags,
 * checked, each value's origin, the defaults from the store, the zone
 * edges. The engine over a workout's samples is athlete_load.h's, bests
 * and splits athlete_bests.h's, the rows athlete_out.h's.
 */
#ifndef HQ_ATHLETE_H
#define HQ_ATHLETE_H

#include <stddef.h>
#include <stdint.h>

#include "hq/config.h"
#include "hq/err.h"
#include "hq/store.h"

/* What a heart rate setting may be (bpm), and the samples max_hr's
 * estimate from the store is the highest of: a 60,000 a file once held is
 * no maximum. An ftp (W) past 0 is at least FTP_LO: a smaller one makes
 * every ride's TSS explode (1e-300 made it infinite). */
#define HQ_ATHLETE_HR_LO 25.0
#define HQ_ATHLETE_HR_HI 250.0
#define HQ_ATHLETE_FTP_LO 20.0
#define HQ_ATHLETE_FTP_HI 2500.0

/* ---- settings ---- */

enum hq_sex { HQ_SEX_UNKNOWN, HQ_SEX_MALE, HQ_SEX_FEMALE };

/* Where a value came from; NONE: nowhere (max_hr with no heart rate in any
 * workout and none set: then every heart-rate figure is null). */
enum hq_basis {
	HQ_BASIS_NONE, HQ_BASIS_DEFAULT, HQ_BASIS_STORE, HQ_BASIS_CONFIG,
	HQ_BASIS_FLAG,
};

enum hq_athlete_key {
	HQ_ATH_SEX, HQ_ATH_MAX_HR, HQ_ATH_REST_HR, HQ_ATH_LTHR, HQ_ATH_FTP,
	HQ_ATH_ZONES, HQ_ATH_NKEYS,
};

struct hq_athlete {
	enum hq_sex sex;
	double max_hr, rest_hr, lthr;   /* bpm; NAN: not known */
	double ftp;                     /* W; NAN: none (no if, no tss) */
	double zones[4];                /* bpm lower edges of zones 2-5; NAN: percentages */
	enum hq_basis basis[HQ_ATH_NKEYS];
	char where[HQ_ATH_NKEYS][96];   /* "FILE:LINE" or "--max-hr", for messages */
};

void hq_athlete_init(struct hq_athlete *a);
/* The [athlete] keys of c (sex, max_hr, rest_hr, lthr, ftp, zones), each
 * checked alone: -1 with e = "FILE:LINE: [athlete] max_hr = abc: why". */
int hq_athlete_config(struct hq_athlete *a, const struct hq_config *c,
    struct hq_err *e);
/* A command-line value for key (over the config): -1 with e =
 * "--ftp 0: why". flag is the option as typed, for the message. */
int hq_athlete_flag(struct hq_athlete *a, enum hq_athlete_key key,
    const char *flag, const char *value, struct hq_err *e);
/* What is still unset, from the store (s may be NULL: defaults only):
 * sex from Me, max_hr the highest heart-rate sample whose time is in
 * [start, end) of any workout, rest_hr the median of the resting heart
 * rate samples else 60, lthr = rest + 0.85 (max - rest), whose basis is
 * the less sure of max_hr's and rest_hr's. Then the values
 * together: max_hr > rest_hr, rest_hr < lthr < max_hr, zone edges rising;
 * -1 with e naming each value's origin when they do not hold. */
int hq_athlete_defaults(struct hq_athlete *a, struct hq_store *s,
    struct hq_err *e);
/* The settings as every command resolves them: [athlete] in c (c may be
 * NULL), then the flags (flags[k] the value typed for key k or NULL,
 * names[k] the option as typed, for messages, NULL: --max-hr...; flags
 * may be NULL), then
 * hq_athlete_defaults. -1 with e. */
int hq_athlete_resolve(struct hq_athlete *a, const struct hq_config *c,
    const char *const flags[HQ_ATH_NKEYS],
    const char *const names[HQ_ATH_NKEYS], struct hq_store *s,
    struct hq_err *e);
/* The rows' basis (hq-report(1)): the least certain origin of max_hr, rest_hr
 * and lthr, "default", "store" or "config" (a flag counts as config). */
const char *hq_athlete_basis_of(const struct hq_athlete *a);
/* "config", "flag", "store", "default" (NULL for NONE); "male", "female",
 * "unknown". */
const char *hq_athlete_basis_name(enum hq_basis b);
const char *hq_athlete_sex_name(enum hq_sex s);
/* The lower edges of zones 0..5 in bpm (lo[0] = 0; zone i holds
 * lo[i] <= hr < lo[i+1], zone 5 no upper end); NAN without max_hr. */
void hq_athlete_zone_edges(const struct hq_athlete *a, double lo[6]);
/* Banister's constants for the sex (men's for unknown). */
void hq_athlete_banister(enum hq_sex s, double *a, double *b);

#endif
