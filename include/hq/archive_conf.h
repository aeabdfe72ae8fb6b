/*
 * archive_conf — where hq-archive's settings come from, written once for
 * hq-archive and for the commands that read pruned months back (the
 * hybrid read, hybrid.h): the [archive] section of the configuration
 * (remote, endpoint, region, addressing, key, credentials, cache,
 * cache_size) under what a command's options gave, the defaults beside
 * it (~/.config/hq/archive.key, archive.credentials, ~/.cache/hq/archive,
 * 1 GiB), and the S3 keys: $HQ_ARCHIVE_ACCESS_KEY and
 * $HQ_ARCHIVE_SECRET_KEY, else the credentials file (mode 0600, lines
 * access_key = ... and secret_key = ...). A secret is never said: a bad
 * line of that file is named by its number only.
 */
#ifndef HQ_ARCHIVE_CONF_H
#define HQ_ARCHIVE_CONF_H

#include <stdio.h>

#include "hq/archive.h"
#include "hq/config.h"
#include "hq/err.h"
#include "hq/remote.h"

/* The cache of months read back, when no setting says: 1 GiB. */
#define HQ_ARCHIVE_CACHE_DEFAULT (1LL << 30)

struct hq_archive_conf {
	/* given by options before hq_archive_conf_load (NULL, -1: not) */
	const char *remote, *endpoint, *region, *key, *credentials;
	int addressing;               /* -1 default, 0 path, 1 virtual */
	/* filled by hq_archive_conf_load */
	const char *state;            /* the generations seen, beside the key */
	const char *cache;            /* the directory of months read back */
	long long cache_max;          /* its bound, bytes */
	char keybuf[4096], credbuf[4096], statebuf[4200], cachebuf[4096];
	char access[256], secret[256];
};

/* Every field not given from cfg's [archive] and the defaults, and the S3
 * keys: 0, or -1 (e says why: a bad addressing or cache_size, credentials
 * others may read, a bad line). */
int hq_archive_conf_load(struct hq_archive_conf *s, const struct hq_config *cfg,
    struct hq_err *e);

/* The remote the settings name (trace: a line per request, or NULL); the
 * secret key is wiped from s either way. NULL when none is set or it
 * cannot open (e says which). */
struct hq_remote *hq_archive_conf_remote(struct hq_archive_conf *s, FILE *trace,
    struct hq_err *e);

/* The key file's key into a->key, checked against the archive's (the
 * clear object): 0, or -1 (no archive: "run hq-archive init first"; a
 * wrong key said as such). */
int hq_archive_key(struct hq_archive *a, const char *keyfile, struct hq_err *e);

/* A directory and its parents made (0700): 0, or -1. */
int hq_archive_mkdir(const char *path, struct hq_err *e);

#endif
