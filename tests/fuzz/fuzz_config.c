/*
 * fuzz_config — mangled configuration files (lib/base/config.c, hq-agent's
 * ~/.config/hq/config): loaded from a file as hq-agent loads it, a few
 * keys looked up, freed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz.h"
#include "hq/config.h"

const char fuzz_hot[] = "[]=#;\"' \t\n\r\v\f\\";
const char *const fuzz_words[] = {
	"[llm]", "[query]", "[", "]", "=", " = ", "provider", "model",
	"base_url", "\"", "'", "#", ";", "\n", "\r\n", "\xEF\xBB\xBF", NULL
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
		for (size_t i = 0; hq_config_warning(c, i); i++)
			;
		hq_config_free(c);
	}
	close(fd);
	return 0;
}
