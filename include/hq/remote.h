/*
 * remote — where hq-archive keeps its objects: a directory (file:///DIR)
 * or an S3-compatible bucket (s3://BUCKET[/PREFIX]) through libcurl's
 * Signature V4, path-style or virtual-host addressing.
 *
 * Objects have flat names ([A-Za-z0-9._-], no slash) under the remote's
 * prefix. A put is whole or absent (S3 PUT; a directory: a temporary
 * file renamed). Requests that fail for a reason that may pass (HTTP 408,
 * 429, 5xx; a refused, dropped or cut connection; a stall) are tried
 * again, up to 4 times in all, after 0.5, 1, 2 s or what Retry-After asks
 * (at most 60 s); then the error says what failed and how often.
 *
 * Secrets: the access and secret keys are held here and given to libcurl
 * alone; no message, and no -v line (the trace FILE: method, object name,
 * status, time), ever holds them. An S3 error body is reduced to its
 * <Code>: servers echo the access key and the string signed.
 */
#ifndef HQ_REMOTE_H
#define HQ_REMOTE_H

#include <stdint.h>
#include <stdio.h>

#include "hq/err.h"

struct hq_remote_conf {
	const char *url;        /* s3://BUCKET[/PREFIX] or file:///DIR */
	const char *endpoint;   /* https://host[:port]; NULL: AWS's for the region */
	const char *region;     /* NULL: us-east-1 */
	int virtual_host;       /* 1: BUCKET.host; 0: host/BUCKET; -1: AWS: 1, else 0 */
	const char *access_key, *secret_key;
	FILE *trace;            /* -v: one line a request; NULL: none */
};

struct hq_remote;

/* NULL with e set (a malformed URL, missing credentials for s3). The
 * conf's strings are copied. */
struct hq_remote *hq_remote_open(const struct hq_remote_conf *c,
    struct hq_err *e);
void hq_remote_free(struct hq_remote *r);
/* What to show people: "s3://bucket/prefix" or "file:///dir". */
const char *hq_remote_name(const struct hq_remote *r);

/* Put the file at path as object name; sha256 (64 hex) is its SHA-256,
 * signed with the request, or NULL: UNSIGNED-PAYLOAD (what hq-archive
 * sends is sealed, and checked by its hash in the manifest when read).
 * 0 or -1. */
int hq_remote_put(struct hq_remote *r, const char *name, const char *path,
    const char *sha256, struct hq_err *e);
/* Get object name into path (0600; removed on failure), at most max
 * bytes: 0, 1 when there is no such object, -1. */
int hq_remote_get(struct hq_remote *r, const char *name, const char *path,
    int64_t max, struct hq_err *e);
/* 0 (also when it was not there) or -1. */
int hq_remote_del(struct hq_remote *r, const char *name, struct hq_err *e);
/* Each object's name and size, to each(name, size, u), which returns 0 to
 * go on. 0 or -1. */
int hq_remote_list(struct hq_remote *r,
    int (*each)(const char *name, int64_t size, void *u), void *u,
    struct hq_err *e);

#endif
