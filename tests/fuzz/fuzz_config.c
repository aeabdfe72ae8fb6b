/*
 * fuzz_config — mangled configuration files (lib/base/config.c, hq-agent's
 * ~/.config/hq/config): loaded from a file as hq-agent loads it, a few
 * keys looked up, freed; the zone of `tz` checked (lib/base/time.c: an
 * IANA name under the zoneinfo, never a path, right/ or posix/), and set
 * when it is known, as hq_zone_choose() does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "hq/config.h"
#include "hq/time.h"

const char fuzz_hot[] = "[]=#;\"' \t\n\r\v\f\\";
const char *const fuzz_words[] = {
	"[llm]", "[query]", "[", "]", "=", " = ", "provider", "model",
	"base_url", "\"", "'", "#", ";", "\n", "\r\n", "\xEF\xBB\xBF",
	"tz", "tz = ", "Europe/Paris", "UTC", "right/", "posix/", "/etc/passwd",
	":/etc/localtime", "..", "/", "+", "leapseconds", NULL
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hq_config *c;
	struct hq_err e;
	char path[64];
	int fd;

	fd = fuzz_as_file(data, size, path, sizeof path);
	if ((c = hq_config_load(path, &e))) {
		hq_config_get(c, "llm", "provider");
		hq_config_get(c, "query", "source_priority");
		const char *tz = hq_config_get(c, "query", "tz");
		if (!tz)
			tz = hq_config_get(c, "", "tz");
		if (tz && *tz) {
			int known = hq_time_zone_known(tz);
			char shown[64];
			hq_time_zone_shown(shown, sizeof shown, tz);
			if (hq_time_set_zone(tz, &e) != (known ? 0 : -1) ||
			    (known && (!strncmp(tz, "right/", 6) || !strncmp(tz, "posix/", 6) ||
			    strstr(tz, "..") || (tz[0] == '/' && strcmp(tz, "/etc/localtime")))))
				abort();
			hq_time_set_zone("UTC", &e);
		}
		for (size_t i = 0; hq_config_warning(c, i); i++)
			;
		hq_config_free(c);
	}
	close(fd);
	return 0;
}
