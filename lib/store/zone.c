#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/config.h"
#include "hq/err.h"
#include "hq/time.h"
#include "hq/zone.h"

/* The most recent zone the data records that this machine knows: 1 with
 * z filled, 0 when there is none, -1. */
static int
data_zone(struct hq_store *s, struct hq_zone_choice *z, struct hq_err *e)
{
	sqlite3_stmt *st;
	int rc, found = 0;

	if (hq_store_prepare(s, "SELECT zone, last FROM time_zone "
	    "ORDER BY last DESC, n DESC, zone", &st, e))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		if (!hq_time_zone_known(name) || strlen(name) >= sizeof z->name)
			continue;
		snprintf(z->name, sizeof z->name, "%s", name);
		z->data_last = sqlite3_column_int64(st, 1);
		found = 1;
		break;
	}
	if (!found && rc != SQLITE_DONE) {
		hq_err_set(e, "%s: reading the recorded time zones: %s",
		    hq_store_filename(s), sqlite3_errmsg(hq_store_db(s)));
		found = -1;
	}
	sqlite3_finalize(st);
	return found;
}

int
hq_zone_choose(const char *option, const struct hq_config *cfg,
    struct hq_store *s, struct hq_zone_choice *z, struct hq_err *e)
{
	static const char *const what[] = {
		[HQ_ZONE_OPTION] = "--tz", [HQ_ZONE_HQ_TZ] = "$HQ_TZ",
		[HQ_ZONE_TZ] = "$TZ",
	};
	const char *name = NULL, *section = "query";
	int rc;

	memset(z, 0, sizeof *z);
	if (option && *option) {
		z->from = HQ_ZONE_OPTION;
		name = option;
	} else if ((name = getenv("HQ_TZ")) && *name) {
		z->from = HQ_ZONE_HQ_TZ;
	} else if ((name = getenv("TZ")) && *name) {
		z->from = HQ_ZONE_TZ;
	} else if (((name = hq_config_get(cfg, "query", "tz")) && *name) ||
	    ((name = hq_config_get(cfg, section = "", "tz")) && *name)) {
		z->from = HQ_ZONE_CONFIG;
		hq_config_where(cfg, section, "tz", z->where, sizeof z->where);
	} else {
		name = NULL;
		rc = s ? data_zone(s, z, e) : 0;
		if (rc < 0)
			return -1;
		z->from = rc ? HQ_ZONE_DATA : HQ_ZONE_SYSTEM;
		if (rc)
			name = z->name;
	}
	if (name && !hq_time_zone_known(name)) {
		char shown[64];
		hq_time_zone_shown(shown, sizeof shown, name);
		if (z->from == HQ_ZONE_CONFIG)
			hq_err_set(e, "%s: unknown time zone '%s'; use an IANA name "
			    "such as Europe/Paris or America/New_York", z->where, shown);
		else
			hq_err_set(e, "unknown time zone '%s' (from %s); use an IANA "
			    "name such as Europe/Paris or America/New_York", shown,
			    what[z->from]);
		return -1;
	}
	if (name && name != z->name)
		snprintf(z->name, sizeof z->name, "%s", name);
	return hq_time_set_zone(name ? z->name : NULL, e);
}

/* The configuration's path as a person reads it (~ for $HOME). */
static void
config_shown(char *path, size_t n)
{
	const char *home = getenv("HOME");
	size_t hl = home ? strlen(home) : 0;

	if (hq_config_path(path, n))
		snprintf(path, n, "%s", "~/.config/hq/config");
	else if (hl > 1 && strncmp(path, home, hl) == 0 && path[hl] == '/') {
		memmove(path + 1, path + hl, strlen(path + hl) + 1);
		path[0] = '~';
	}
}

void
hq_zone_note(const struct hq_zone_choice *z, char *buf, size_t n)
{
	char path[512];

	if (z->from != HQ_ZONE_DATA) {
		snprintf(buf, n, "%s", "");
		return;
	}
	config_shown(path, sizeof path);
	snprintf(buf, n, "days are in %s, the zone your data records\n"
	    "(to choose one: --tz ZONE, or tz = ZONE in %s)", z->name, path);
}

void
hq_zone_offset_note(const char *file, int stated_min, int zone_min,
    char *buf, size_t n)
{
	char path[512];

	config_shown(path, sizeof path);
	snprintf(buf, n, "%s states its local time as UTC%c%02d:%02d;\n"
	    "days are counted in this system's zone (UTC%c%02d:%02d then);\n"
	    "to choose one: --tz ZONE, or tz = ZONE in %s", file,
	    stated_min < 0 ? '-' : '+', abs(stated_min) / 60,
	    abs(stated_min) % 60, zone_min < 0 ? '-' : '+', abs(zone_min) / 60,
	    abs(zone_min) % 60, path);
}
