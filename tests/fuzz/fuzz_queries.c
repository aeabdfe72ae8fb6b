/*
 * fuzz_queries — mangled [queries] sections (lib/base/queries.c): a
 * config file loaded, its saved queries split into words and checked;
 * every query kept names an hq command, has no more words than the
 * bound, and its words hold no byte a shell would act on unless the line
 * quoted it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "fuzz.h"
#include "hq/config.h"
#include "hq/queries.h"

const char fuzz_hot[] = "[]=#;\"'\\ \t\n$`|&<>()*?~{}!";
const char *const fuzz_words[] = {
	"[queries]", "\n", " = ", "hq-query", "hq", " run ", "query", "'", "\"",
	"\\", "$(", "`", ";", "#", "hq_x", "x", "--where", "'a>=1'", "\"a \\\" b\"",
	"''", NULL
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hq_config *c;
	struct hq_saved_query *q;
	struct hq_err e;
	char path[64];
	size_t n;
	int fd;

	fd = fuzz_as_file(data, size, path, sizeof path);
	if ((c = hq_config_load(path, &e))) {
		if (hq_queries_load(c, &q, &n, &e) == 0) {
			for (size_t i = 0; i < n; i++) {
				if (!q[i].command[0] || strcmp(q[i].command, "run") == 0 ||
				    q[i].nwords > HQ_QUERY_MAX_WORDS || q[i].words[q[i].nwords] ||
				    strncasecmp(q[i].name, "hq_", 3) == 0 ||
				    strncasecmp(q[i].name, "hq-", 3) == 0)
					abort();
				hq_queries_find(q, n, q[i].name);
			}
			hq_queries_free(q, n);
		}
		hq_config_free(c);
	}
	close(fd);
	return 0;
}
