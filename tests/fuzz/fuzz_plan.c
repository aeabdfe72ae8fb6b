/*
 * fuzz_plan — mangled training plans (lib/read/planfile.c, hq-ingest
 * --plan): read from a file as the command reads it; what is accepted
 * holds to the rules (days ascending and each once, within the years,
 * minutes, load and if in their bounds, the title without control
 * characters), else abort().
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "hq/planfile.h"
#include "hq/time.h"

const char fuzz_hot[] = ",{}\":\n\r -.0123456789e";
const char *const fuzz_words[] = {
	"date", "type", "duration_min", "load", "if", "title", ",", "\"",
	"{", "}", ":", "\n", "\r\n", "\xEF\xBB\xBF", "2026-11-23", "1900-01-01",
	"3000-12-31", "2026-02-29", "2024-02-29", "running", "cycling",
	"runing", "HKWorkoutActivityTypeRunning", "1e400", "-5", "0", "1000",
	"1000.5", "2.0", "nan", "inf", "null", "\"\\u0001\"", "\\u0000", NULL
};

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hq_plan_day *d;
	struct hq_err e;
	char path[64];
	size_t n;
	int fd;

	fd = fuzz_as_file(data, size, path, sizeof path);
	if (hq_planfile_read(path, &d, &n, &e) == 0) {
		int64_t lo = hq_time_days_from_civil(HQ_PLAN_FIRST_YEAR, 1, 1);
		int64_t hi = hq_time_days_from_civil(HQ_PLAN_LAST_YEAR, 12, 31);
		if (n == 0 || n > HQ_PLAN_MAX_DAYS)
			abort();
		for (size_t i = 0; i < n; i++) {
			if (d[i].day < lo || d[i].day > hi ||
			    (i && d[i].day <= d[i - 1].day) ||
			    !(d[i].minutes > 0 && d[i].minutes <= HQ_PLAN_MAX_MIN) ||
			    !(d[i].load >= 0 && isfinite(d[i].load)) ||
			    (isnan(d[i].if_) && d[i].load > HQ_PLAN_MAX_LOAD) ||
			    (!isnan(d[i].if_) && !(d[i].if_ > 0 &&
			    d[i].if_ <= HQ_PLAN_MAX_IF)) ||
			    strncmp(d[i].type, "HKWorkoutActivityType", 21))
				abort();
			for (const unsigned char *q = (const unsigned char *)d[i].title;
			    *q; q++)
				if (*q < 0x20 || *q == 0x7f)
					abort();
		}
		free(d);
	}
	close(fd);
	return 0;
}
