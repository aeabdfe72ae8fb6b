/*
 * alert_out — `hq-report alerts` (hq-report(1), alerts): alert.h's
 * rules over the store, the rows written.
 *
 * Over local days [from, to]: each baseline rule's metric (resting heart
 * rate, HRV, sleep) as hq-query --by day gives its days (daily.h's
 * hq_daily_load: dedup, nights keyed by the morning they end, a night
 * still going on left out), read from the 28 days before from, so that
 * the first day has its baseline; every lab result (hq-report trend
 * labs' rows, each test's) whose collection falls on a local day of the
 * range and is flagged H or L; the CGM metrics of the range (hq-report
 * cgm's engine) against the consensus targets, dated to; the watched
 * measures and the newest import gone quiet (alert.h's stale), dated to.
 * Rows oldest first; on one day, baselines, then labs, then CGM, then
 * the stale.
 */
#ifndef HQ_ALERT_OUT_H
#define HQ_ALERT_OUT_H

#include <stdint.h>

#include "hq/alert.h"
#include "hq/err.h"
#include "hq/output.h"
#include "hq/select.h"
#include "hq/store.h"

/* The alerts over days [from, to] (inclusive), sorted, to fn (NULL: the
 * count only); a's strings live until fn returns. The number of alerts,
 * or -1 with e set. */
long hq_alerts_each(struct hq_store *s, const struct hq_select *settings,
    int64_t from, int64_t to, int64_t now, hq_alert_fn *fn, void *arg,
    struct hq_err *e);
/* The alerts over days [from, to] (inclusive) into o (nothing when o is
 * NULL: the count only). settings: the [query] settings; now: the clock
 * (hq_time_now()), which ends a range reaching past it. The number of
 * alerts, or -1 with e set. */
long hq_alerts_report_out(struct hq_store *s, const struct hq_select *settings,
    int64_t from, int64_t to, int64_t now, struct hq_out *o,
    struct hq_err *e);

#endif
