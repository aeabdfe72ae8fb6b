/*
 * archive_conf — hq-archive's settings, from options, the configuration and the
 * environment (archive_conf.h).
 */
#include <errno.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hq/archive_conf.h"
#include "hq/buf.h"
#include "hq/seal.h"

static const char *
setting(const char *given, const struct hq_config *cfg, const char *key)
{
	const char *v = given ? given : cfg ? hq_config_get(cfg, "archive", key) : NULL;

	return v && *v ? v : NULL;
}

static void
base_dir(char *buf, size_t n, const char *xdg_var, const char *dot)
{
	const char *xdg = getenv(xdg_var), *home = getenv("HOME");

	if (xdg && *xdg)
		snprintf(buf, n, "%s/hq", xdg);
	else
		snprintf(buf, n, "%s/%s/hq", home && *home ? home : ".", dot);
}

/* "1073741824", "512M", "2G", "64K": bytes, or -1. */
static long long
parse_size(const char *s)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || end == s || v < 0)
		return -1;
	switch (*end) {
	case 'K': case 'k': v = v > (1LL << 53) ? -1 : v << 10; end++; break;
	case 'M': case 'm': v = v > (1LL << 43) ? -1 : v << 20; end++; break;
	case 'G': case 'g': v = v > (1LL << 33) ? -1 : v << 30; end++; break;
	}
	return *end ? -1 : v;
}

/* The S3 keys: the environment, else the credentials file (0600). */
static int
load_credentials(struct hq_archive_conf *s, struct hq_err *e)
{
	const char *ak = getenv("HQ_ARCHIVE_ACCESS_KEY"), *sk = getenv("HQ_ARCHIVE_SECRET_KEY");
	char line[600];
	struct stat st;
	FILE *f;
	long n = 0;

	if (ak && *ak && sk && *sk) {
		snprintf(s->access, sizeof s->access, "%s", ak);
		snprintf(s->secret, sizeof s->secret, "%s", sk);
		return 0;
	}
	if (!(f = fopen(s->credentials, "r")))
		return 0;   /* the remote says what is missing, if it needs it */
	if (fstat(fileno(f), &st) || (st.st_mode & 077)) {
		hq_err_set(e, "%s: others may read these credentials: chmod 600 %s",
		    s->credentials, s->credentials);
		fclose(f);
		return -1;
	}
	while (fgets(line, sizeof line, f)) {
		char *k = line, *v = strchr(line, '='), *end;
		n++;
		if (*k == '#' || *k == '\n' || !v)
			continue;
		*v++ = 0;
		while (*k == ' ' || *k == '\t')
			k++;
		for (end = k + strlen(k); end > k && (end[-1] == ' ' || end[-1] == '\t'); )
			*--end = 0;
		while (*v == ' ' || *v == '\t')
			v++;
		v[strcspn(v, " \t\r\n")] = 0;
		if (!strcmp(k, "access_key"))
			snprintf(s->access, sizeof s->access, "%s", v);
		else if (!strcmp(k, "secret_key"))
			snprintf(s->secret, sizeof s->secret, "%s", v);
		else {
			/* the line may hold a secret: its number only */
			hq_err_set(e, "%s:%ld: not access_key nor secret_key",
			    s->credentials, n);
			sodium_memzero(line, sizeof line);
			fclose(f);
			return -1;
		}
	}
	sodium_memzero(line, sizeof line);
	fclose(f);
	return 0;
}

int
hq_archive_conf_load(struct hq_archive_conf *s, const struct hq_config *cfg,
    struct hq_err *e)
{
	char dir[3000];
	const char *w;

	s->remote = setting(s->remote, cfg, "remote");
	s->endpoint = setting(s->endpoint, cfg, "endpoint");
	s->region = setting(s->region, cfg, "region");
	if (s->addressing < 0 && (w = setting(NULL, cfg, "addressing"))) {
		if (strcmp(w, "path") && strcmp(w, "virtual")) {
			hq_err_set(e, "[archive] addressing is path or virtual, not '%.100s'", w);
			return -1;
		}
		s->addressing = !strcmp(w, "virtual");
	}
	base_dir(dir, sizeof dir, "XDG_CONFIG_HOME", ".config");
	if (!(s->key = setting(s->key, cfg, "key"))) {
		snprintf(s->keybuf, sizeof s->keybuf, "%s/archive.key", dir);
		s->key = s->keybuf;
	}
	if (!(s->credentials = setting(s->credentials, cfg, "credentials"))) {
		snprintf(s->credbuf, sizeof s->credbuf, "%s/archive.credentials", dir);
		s->credentials = s->credbuf;
	}
	snprintf(s->statebuf, sizeof s->statebuf, "%s.state", s->key);
	s->state = s->statebuf;
	if (!(s->cache = setting(NULL, cfg, "cache"))) {
		base_dir(dir, sizeof dir, "XDG_CACHE_HOME", ".cache");
		snprintf(s->cachebuf, sizeof s->cachebuf, "%s/archive", dir);
		s->cache = s->cachebuf;
	}
	s->cache_max = HQ_ARCHIVE_CACHE_DEFAULT;
	if ((w = setting(NULL, cfg, "cache_size")) && (s->cache_max = parse_size(w)) < 0) {
		hq_err_set(e, "[archive] cache_size is bytes (or 512M, 2G), not '%.100s'", w);
		return -1;
	}
	return load_credentials(s, e);
}

struct hq_remote *
hq_archive_conf_remote(struct hq_archive_conf *s, FILE *trace, struct hq_err *e)
{
	struct hq_remote_conf rc = {
		.url = s->remote, .endpoint = s->endpoint, .region = s->region,
		.virtual_host = s->addressing, .access_key = s->access,
		.secret_key = s->secret, .trace = trace,
	};
	struct hq_remote *r = hq_remote_open(&rc, e);

	sodium_memzero(s->secret, sizeof s->secret);
	return r;
}

int
hq_archive_key(struct hq_archive *a, const char *keyfile, struct hq_err *e)
{
	struct hq_archive_params p;
	int have = hq_archive_params_get(a->remote, &p, e);

	if (have == 1)
		hq_err_set(e, "%s holds no archive: run hq-archive init first",
		    hq_remote_name(a->remote));
	if (have)
		return -1;
	if (hq_seal_key_load(keyfile, a->key, e))
		return -1;
	return hq_archive_check_key(&p, a->key, e);
}

int
hq_archive_mkdir(const char *path, struct hq_err *e)
{
	char *copy = hq_xstrdup(path), *p;

	for (p = copy + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			mkdir(copy, 0700);
			*p = '/';
		}
	free(copy);
	if (mkdir(path, 0700) && errno != EEXIST) {
		hq_err_set(e, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
