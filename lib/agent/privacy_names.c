/* privacy_names — the names a model elsewhere must not see (privacy.h):
 * learned from where they stand in text, from sources' and devices'
 * names, and from the store; kept longest first. privacy.c replaces
 * them. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hq/buf.h"
#include "hq/privacy.h"
#include "hq/store.h"

#include "privacy_int.h"

/* ---- names ---- */

void
hq_privacy_init(struct hq_privacy *p, unsigned withhold)
{
	memset(p, 0, sizeof *p);
	p->withhold = withhold;
}

void
hq_privacy_free(struct hq_privacy *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->names[i].real);
	free(p->names);
	memset(p, 0, sizeof *p);
}

/* a title before a name ("Dr.", "Prof"): its length with the space after */
static size_t
title_len(const char *s, size_t n)
{
	static const char *const t[] = { "Dr", "Doctor", "Prof", "Professor", "Mr", "Mrs",
		"Ms", "Miss", "Mx", "Nurse", "Sir", "Dame", NULL };

	for (int i = 0; t[i]; i++) {
		size_t l = strlen(t[i]);
		if (n < l || strncmp(s, t[i], l))
			continue;
		if (l < n && s[l] == '.')
			l++;
		if (l == n)
			return l;
		if (s[l] == ' ')
			return l + 1;
	}
	return 0;
}

/* a capital letter, or the first byte of a letter outside ASCII */
static int
capital(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || c >= 0xc0;
}

void
hq_privacy_add_name(struct hq_privacy *p, const char *name, size_t len, int org)
{
	size_t i, at;
	int letters = 0;

	while (len && (name[len - 1] == ' ' || name[len - 1] == ','))
		len--;
	while (len && *name == ' ') {
		name++;
		len--;
	}
	while ((i = title_len(name, len))) {
		name += i;
		len -= i;
	}
	for (i = 0; i < len; i++)
		letters += isalpha((unsigned char)name[i]) || (unsigned char)name[i] >= 0x80;
	if (len < 2 || letters < 2 || len > 200)
		return;
	for (i = 0; i < p->n; i++)
		if (strlen(p->names[i].real) == len && !strncasecmp(p->names[i].real, name, len))
			return;
	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 16;
		p->names = hq_xrealloc(p->names, p->cap * sizeof *p->names);
	}
	/* longest first: "Jane Doe" is replaced before "Jane" */
	for (at = 0; at < p->n && strlen(p->names[at].real) >= len; at++)
		;
	memmove(p->names + at + 1, p->names + at, (p->n - at) * sizeof *p->names);
	p->names[at].real = hq_xmalloc(len + 1);
	memcpy(p->names[at].real, name, len);
	p->names[at].real[len] = '\0';
	p->names[at].org = org;
	p->names[at].num = 0;
	p->n++;
}

/* The words a device is named by, after its owner's name. */
static int
device_word(const char *s, size_t n)
{
	static const char *const words[] = { "apple watch", "watch", "iphone", "ipad",
		"ipod", "mac", "airpods", "pixel", "galaxy", "fitbit", "garmin", "oura",
		"whoop", "polar", "withings", "scale", "phone", "band", "ring", "forerunner",
		"fenix", "wahoo", "edge", "dexcom", "libre", "coros", "suunto", "android",
		NULL };

	for (int i = 0; words[i]; i++) {
		size_t w = strlen(words[i]);
		if (n >= w && !strncasecmp(s, words[i], w) && (n == w || !hq_privacy_word_byte((unsigned char)s[w])))
			return 1;
	}
	return 0;
}

/* The capitalised words (at most 3) that end at s + end: their start, or
 * end when there are none. */
static size_t
words_before(const char *s, size_t end)
{
	size_t at = end, w = 0, i;

	while (w < 3) {
		i = at;
		while (i > 0 && (hq_privacy_word_byte((unsigned char)s[i - 1]) || s[i - 1] == '-' ||
		    s[i - 1] == '.'))
			i--;
		if (i == at || !capital((unsigned char)s[i]))
			break;
		at = i;
		w++;
		if (at == 0 || s[at - 1] != ' ')
			break;
		at--;
		if (at == 0 || !hq_privacy_word_byte((unsigned char)s[at - 1])) {
			at++;
			break;
		}
	}
	while (at < end && s[at] == ' ')
		at++;
	return at;
}

/* The capitalised words (at most 3) from s: their length. */
static size_t
words_after(const char *s, size_t n)
{
	size_t at = 0, i, last = 0;

	for (int w = 0; w < 3 && at < n && capital((unsigned char)s[at]); w++) {
		i = at;
		while (i < n && (hq_privacy_word_byte((unsigned char)s[i]) || s[i] == '-'))
			i++;
		/* an initial: "J." */
		if (i < n && s[i] == '.' && i - at == 1)
			i++;
		last = i;
		if (i >= n || s[i] != ' ')
			break;
		at = i + 1;
	}
	return last;
}

/* "'s " or "’s " at s: its length, else 0 */
static size_t
possessive(const char *s, size_t n)
{
	if (n >= 2 && s[0] == '\'' && s[1] == 's' && (n == 2 || !hq_privacy_word_byte((unsigned char)s[2])))
		return 2;
	if (n >= 4 && !memcmp(s, "\xe2\x80\x99s", 4) && (n == 4 || !hq_privacy_word_byte((unsigned char)s[4])))
		return 4;
	return 0;
}

/* privacy_int.h */
void
hq_privacy_learn_text(struct hq_privacy *p, const char *s, size_t n, int source)
{
	static const char *const titles[] = { "Dr. ", "Dr ", "Doctor ", "Prof. ", "Prof ",
		"Professor ", "Mr. ", "Mr ", "Mrs. ", "Mrs ", "Ms. ", "Ms ", "Miss ", "Mx ",
		"Nurse ", "Patient: ", "Practitioner: ", "Physician: ",
		"Clinician: ", "Doctor: ", "Attending: ", "Provider: ", "Ordered by ",
		"ordered by ", "Signed by ", "signed by ", "Reviewed by ", "reviewed by ",
		"Performed by ", "performed by ", "Collected by ", "collected by ",
		NULL };
	static const char *const degrees[] = { ", MD", ", M.D.", ", RN", ", DO",
		", PhD", ", NP", ", PA-C", NULL };
	size_t k, start, len;

	for (size_t i = 0; i < n; i++) {
		if ((k = possessive(s + i, n - i)) && i > 0 && hq_privacy_word_byte((unsigned char)s[i - 1])) {
			start = words_before(s, i);
			if (start < i && (source || (i + k + 1 < n &&
			    device_word(s + i + k + 1, n - i - k - 1))))
				hq_privacy_add_name(p, s + start, i - start, 0);
		}
		if (i == 0 || !hq_privacy_word_byte((unsigned char)s[i - 1]))
			for (int t = 0; titles[t]; t++) {
				size_t tl = strlen(titles[t]);
				if (n - i > tl && !memcmp(s + i, titles[t], tl) &&
				    (len = words_after(s + i + tl, n - i - tl)))
					hq_privacy_add_name(p, s + i + tl, len, 0);
			}
		for (int d = 0; degrees[d]; d++) {
			size_t dl = strlen(degrees[d]);
			if (n - i >= dl && !memcmp(s + i, degrees[d], dl) &&
			    (i + dl == n || !hq_privacy_word_byte((unsigned char)s[i + dl])) &&
			    (start = words_before(s, i)) < i)
				hq_privacy_add_name(p, s + start, i - start, 0);
		}
	}
}

void
hq_privacy_learn_source(struct hq_privacy *p, const char *s, size_t n)
{
	size_t i = 0;

	hq_privacy_learn_text(p, s, n, 1);
	/* initials before a device: "NJR Apple Watch" */
	while (i < n && isupper((unsigned char)s[i]))
		i++;
	if (i >= 2 && i <= 4 && i < n && s[i] == ' ' && device_word(s + i + 1, n - i - 1))
		hq_privacy_add_name(p, s, i, 0);
	/* "iPhone de Jean", "Watch von Anna" */
	for (i = 0; i + 5 < n; i++) {
		static const char *const ofs[] = { " de ", " von ", " di ", " van ", " da ",
			" of ", NULL };
		for (int o = 0; ofs[o]; o++) {
			size_t ol = strlen(ofs[o]);
			size_t len;
			if (n - i > ol && !memcmp(s + i, ofs[o], ol) && device_word(s, i) &&
			    (len = words_after(s + i + ol, n - i - ol)))
				hq_privacy_add_name(p, s + i + ol, len, 0);
		}
	}
}

/* ---- the store's names ---- */

static int
each_row(struct hq_store *s, const char *sql, void (*fn)(struct hq_privacy *,
    const char *, size_t), struct hq_privacy *p, struct hq_err *e)
{
	sqlite3_stmt *q;
	int rc;

	if (sqlite3_prepare_v2(hq_store_db(s), sql, -1, &q, NULL) != SQLITE_OK) {
		hq_err_set(e, "reading the names to withhold: %s", sqlite3_errmsg(hq_store_db(s)));
		return -1;
	}
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(q, 0);
		if (t)
			fn(p, t, (size_t)sqlite3_column_bytes(q, 0));
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE) {
		hq_err_set(e, "reading the names to withhold: %s", sqlite3_errmsg(hq_store_db(s)));
		return -1;
	}
	return 0;
}

static void
learn_person(struct hq_privacy *p, const char *s, size_t n)
{
	hq_privacy_add_name(p, s, n, 0);
}

static void
learn_org(struct hq_privacy *p, const char *s, size_t n)
{
	hq_privacy_add_name(p, s, n, 1);
}

/* a HKDevice description: the name: part is a source's */
static void
learn_device(struct hq_privacy *p, const char *s, size_t n)
{
	const char *nm = strstr(s, "name:");

	(void)n;
	if (nm)
		hq_privacy_learn_source(p, nm + 5, strcspn(nm + 5, ",>"));
	else
		hq_privacy_learn_source(p, s, n);
}

/* a FHIR resource: its names by where they stand; an Organization's name */
static void
learn_resource(struct hq_privacy *p, const char *s, size_t n)
{
	cJSON *j = cJSON_ParseWithLength(s, n);
	const char *type = cJSON_IsObject(j) ? cJSON_GetStringValue(
	    cJSON_GetObjectItemCaseSensitive(j, "resourceType")) : NULL;
	const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(j, "name"));
	int person = type && (!strcmp(type, "Patient") || !strcmp(type, "Practitioner") ||
	    !strcmp(type, "RelatedPerson"));

	if (type && name && !strcmp(type, "Organization"))
		hq_privacy_add_name(p, name, strlen(name), 1);
	cJSON_Delete(j);
	if (person) {
		/* a Patient's "name" is a person's: read it as under "patient" */
		struct hq_buf b = {0};
		hq_buf_puts(&b, "{\"patient\":");
		hq_buf_append(&b, s, n);
		hq_buf_putc(&b, '}');
		hq_privacy_learn(p, b.data);
		hq_buf_free(&b);
	} else {
		char *t = hq_xmalloc(n + 1);
		memcpy(t, s, n);
		t[n] = '\0';
		hq_privacy_learn(p, t);
		free(t);
	}
}

int
hq_privacy_learn_store(struct hq_privacy *p, struct hq_store *s, struct hq_err *e)
{
	if (!(p->withhold & HQ_PRIV_NAMES))
		return 0;
	if (each_row(s, "SELECT name FROM source", hq_privacy_learn_source, p, e) ||
	    each_row(s, "SELECT descr FROM device", learn_device, p, e) ||
	    each_row(s, "SELECT value FROM me WHERE key LIKE '%name%'", learn_person, p, e) ||
	    /* the health system a clinical record came from */
	    each_row(s, "SELECT DISTINCT s.name FROM clinical_record c JOIN source s "
	    "ON s.id = c.source_id", learn_org, p, e) ||
	    each_row(s, "SELECT resource FROM clinical_record WHERE resource IS NOT NULL "
	    "AND length(resource) < 4000000", learn_resource, p, e))
		return -1;
	return 0;
}
