/*
 * curl — libcurl opened when a command first uses it (hq-agent's models,
 * hq-archive's remotes), not when every command starts. Linked, libcurl
 * and the 30 libraries it needs (TLS, Kerberos, LDAP, ...) were mapped
 * and relocated by each start of hq-query, hq-report and hq-correlate:
 * 90 % of `hq-query --version`'s instructions (make bench, search).
 *
 * The program is not linked with -lcurl (Makefile): these functions, with
 * libcurl's own names and prototypes (<curl/curl.h>), are the ones
 * lib/agent/http.c and lib/archive/remote.c call, and each passes its
 * arguments to libcurl's (libcurl.so.4, else the GnuTLS or NSS build),
 * found by dlopen on the first call. Not linked against it, the program
 * exports none of these names, so the library's calls to its own
 * functions stay its own. When libcurl cannot
 * be opened, curl_easy_init() returns NULL (the callers say libcurl
 * cannot start) and curl_easy_strerror() says why.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#include <curl/curl.h>

/* curl.h (typecheck-gcc.h) wraps these two in macros that check the
 * argument's type; here they are defined */
#undef curl_easy_setopt
#undef curl_easy_getinfo

static struct {
	CURL *(*easy_init)(void);
	void (*easy_cleanup)(CURL *);
	void (*easy_reset)(CURL *);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	CURLcode (*easy_perform)(CURL *);
	const char *(*easy_strerror)(CURLcode);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void (*slist_free_all)(struct curl_slist *);
} fn;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char why[256] = "libcurl (libcurl.so.4) could not be opened";

#define FIND(h, field, name) \
	(*(void **)&fn.field = dlsym(h, name)) != NULL

/* Debian's libcurl4 (OpenSSL) is libcurl.so.4; a machine with only
 * libcurl3-gnutls or libcurl3-nss has the same library under another
 * name: the first that opens is used. */
static const char *const names[] = {
	"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl-nss.so.4",
};

static void *
open_any(void)
{
	size_t off = 0;

	off += (size_t)snprintf(why, sizeof why, "libcurl could not be opened:");
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
		const char *d;
		if (h)
			return h;
		d = dlerror();
		if (off < sizeof why)
			off += (size_t)snprintf(why + off, sizeof why - off, "%s %s",
			    i ? ";" : "", d ? d : names[i]);
	}
	return NULL;
}

static void
load(void)
{
	void *h = open_any();

	if (!h)
		return;
	loaded = FIND(h, easy_init, "curl_easy_init") &&
	    FIND(h, easy_cleanup, "curl_easy_cleanup") &&
	    FIND(h, easy_reset, "curl_easy_reset") &&
	    FIND(h, easy_setopt, "curl_easy_setopt") &&
	    FIND(h, easy_getinfo, "curl_easy_getinfo") &&
	    FIND(h, easy_perform, "curl_easy_perform") &&
	    FIND(h, easy_strerror, "curl_easy_strerror") &&
	    FIND(h, slist_append, "curl_slist_append") &&
	    FIND(h, slist_free_all, "curl_slist_free_all");
	if (!loaded)
		snprintf(why, sizeof why, "libcurl lacks a function hq "
		    "calls (too old?)");
}

static int
ready(void)
{
	pthread_once(&once, load);
	return loaded;
}

CURL *
curl_easy_init(void)
{
	return ready() ? fn.easy_init() : NULL;
}

/* A handle exists only when libcurl is loaded (curl_easy_init). */
void
curl_easy_cleanup(CURL *c)
{
	if (c && ready())
		fn.easy_cleanup(c);
}

void
curl_easy_reset(CURL *c)
{
	if (c && ready())
		fn.easy_reset(c);
}

/* An option's one argument, by its type: libcurl numbers each option
 * from the type's base (CURLOPTTYPE_LONG 0, OBJECTPOINT 10000,
 * FUNCTIONPOINT 20000, OFF_T 30000, BLOB 40000; curl.h). */
CURLcode
curl_easy_setopt(CURL *c, CURLoption opt, ...)
{
	va_list ap;
	CURLcode rc;

	if (!ready())
		return CURLE_FAILED_INIT;
	va_start(ap, opt);
	if (opt < CURLOPTTYPE_OBJECTPOINT)
		rc = fn.easy_setopt(c, opt, va_arg(ap, long));
	else if (opt < CURLOPTTYPE_FUNCTIONPOINT)
		rc = fn.easy_setopt(c, opt, va_arg(ap, void *));
	else if (opt < CURLOPTTYPE_OFF_T)
		rc = fn.easy_setopt(c, opt, va_arg(ap, void (*)(void)));
	else if (opt < CURLOPTTYPE_BLOB)
		rc = fn.easy_setopt(c, opt, va_arg(ap, curl_off_t));
	else
		rc = fn.easy_setopt(c, opt, va_arg(ap, void *));
	va_end(ap);
	return rc;
}

/* Every CURLINFO takes a pointer to where the answer goes. */
CURLcode
curl_easy_getinfo(CURL *c, CURLINFO info, ...)
{
	va_list ap;
	CURLcode rc;

	if (!ready())
		return CURLE_FAILED_INIT;
	va_start(ap, info);
	rc = fn.easy_getinfo(c, info, va_arg(ap, void *));
	va_end(ap);
	return rc;
}

CURLcode
curl_easy_perform(CURL *c)
{
	return ready() ? fn.easy_perform(c) : CURLE_FAILED_INIT;
}

const char *
curl_easy_strerror(CURLcode rc)
{
	return ready() ? fn.easy_strerror(rc) : why;
}

struct curl_slist *
curl_slist_append(struct curl_slist *l, const char *s)
{
	return ready() ? fn.slist_append(l, s) : NULL;
}

void
curl_slist_free_all(struct curl_slist *l)
{
	if (l && ready())
		fn.slist_free_all(l);
}
