/*
 * fuzz_archive — hq-archive's settings parsers (lib/archive): a mangled
 * file read as the configuration's [archive] section and as the S3
 * credentials file (hq_archive_conf_load: cache_size, addressing, the
 * access_key and secret_key lines), and as the remote's clear
 * `hq-archive` object (hq_archive_params_get, over a file:// remote).
 * Checked: an error never holds the secret key's value; a passphrase
 * cost the object asks stays within hq's bounds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "hq/archive.h"
#include "hq/archive_conf.h"
#include "hq/config.h"
#include "hq/remote.h"
#include "hq/seal.h"

const char fuzz_hot[] = "[]=#;\"' \t\n\r\\0123456789abcdefKMG";
const char *const fuzz_words[] = {
	"[archive]", "remote", "cache_size", "cache", "addressing", "path",
	"virtual", "access_key", "secret_key", " = ", "=", "\n", "#",
	"hq-archive 1\n", "check ", "kdf argon2id13 ", " 50331648 ",
	"18446744073709551615", "9223372036854775807K", "1G", "512M", "-1",
	"0x10", "file:///", "s3://", NULL
};

/* The value of the file's last secret_key line, trimmed as the parser
 * trims it, into v (empty: none). */
static void
secret_of(const uint8_t *data, size_t size, char *v, size_t n)
{
	char *text = malloc(size + 1), *line, *save;

	v[0] = 0;
	memcpy(text, data, size);
	text[size] = 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '='), *k = line, *x;
		if (!eq || *k == '#')
			continue;
		while (*k == ' ' || *k == '\t')
			k++;
		if (strncmp(k, "secret_key", 10))
			continue;
		for (x = eq + 1; *x == ' ' || *x == '\t'; x++)
			;
		x[strcspn(x, " \t\r\n")] = 0;
		snprintf(v, n, "%s", x);
	}
	free(text);
}

/* The words of the settings' own errors (lib/archive/archive_conf.c): a
 * "secret" the mutations made of them ("et_key", "ess_key") is said by
 * the message itself, not leaked. */
static const char own_words[] =
    "not access_key nor secret_key\n"
    "[archive] addressing is path or virtual, not '\n"
    "[archive] cache_size is bytes (or 512M, 2G), not '\n"
    "others may read these credentials: chmod 600\n"
    "holds no archive: run hq-archive init first";

/* Whether the error msg says the secret: it holds the value, and the
 * value is neither the message's own words or the file's name nor
 * written elsewhere in the file (an addressing value that equals it is
 * quoted as the addressing value). */
static int
leaks(const char *msg, const char *secret, const uint8_t *data, size_t size,
    const char *path)
{
	size_t n = strlen(secret), seen = 0;
	const uint8_t *p = data, *q;

	if (n < 4 || !strstr(msg, secret) || strstr(own_words, secret) ||
	    strstr(path, secret))
		return 0;
	while ((q = memmem(p, size - (size_t)(p - data), secret, n))) {
		seen++;
		p = q + 1;
	}
	return seen == 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct hq_archive_conf s = { .addressing = -1 };
	struct hq_archive_params p;
	struct hq_remote_conf rc = {0};
	struct hq_remote *r;
	struct hq_config *cfg;
	struct hq_err e = {{0}};
	char path[64], dir[] = "/tmp/hq-fuzz-archive.XXXXXX", obj[128], url[160];
	char secret[600];
	int fd;

	unsetenv("HQ_ARCHIVE_ACCESS_KEY");
	unsetenv("HQ_ARCHIVE_SECRET_KEY");
	fd = fuzz_as_file(data, size, path, sizeof path);
	chmod(path, 0600);
	cfg = hq_config_load(path, &e);
	s.credentials = path;
	secret_of(data, size, secret, sizeof secret);
	if (hq_archive_conf_load(&s, cfg, &e)) {
		if (leaks(e.msg, secret, data, size, path))
			abort();        /* a secret said in an error */
	} else if (s.cache_max < 0 || strlen(s.access) >= sizeof s.access ||
	    strlen(s.secret) >= sizeof s.secret) {
		abort();
	}
	hq_config_free(cfg);
	close(fd);

	/* the clear object on a file:// remote */
	if (mkdtemp(dir)) {
		FILE *f;
		snprintf(obj, sizeof obj, "%s/hq-archive", dir);
		if ((f = fopen(obj, "wb"))) {
			fwrite(data, 1, size, f);
			fclose(f);
		}
		snprintf(url, sizeof url, "file://%s", dir);
		rc.url = url;
		if ((r = hq_remote_open(&rc, &e))) {
			if (hq_archive_params_get(r, &p, &e) == 0 && p.have_kdf &&
			    (p.ops < 1 || p.ops > HQ_SEAL_KDF_OPS_MAX ||
			    p.mem > HQ_SEAL_KDF_MEM_MAX))
				abort();
			hq_remote_free(r);
		}
		unlink(obj);
		rmdir(dir);
	}
	return 0;
}
