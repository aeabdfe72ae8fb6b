/*
 * privacy — what a model that is not on this machine sees of a tool's
 * output (hq-agent(1), PRIVACY): positions withheld, serial numbers
 * dropped, personal names replaced by placeholders ("Person 1",
 * "Organisation 1") that hq_privacy_restore turns back into the names.
 * Every other byte of a result is copied as it is: numbers stay exact.
 *
 * The placeholders are numbered in the order the names are first met in
 * the conversation, which is filtered whole, from its start, before each
 * request: a name keeps its placeholder for the run and, since a session
 * is the same conversation read back, for the session. The mapping lives
 * in memory only; it is never logged.
 *
 * Memory: a filter owns its names (hq_privacy_free); the strings returned
 * are malloc'd.
 */
#ifndef HQ_PRIVACY_H
#define HQ_PRIVACY_H

#include <stddef.h>

#include "hq/err.h"

struct hq_store;

/* what is withheld (or, for --share, let through) */
enum { HQ_PRIV_POSITIONS = 1, HQ_PRIV_NAMES = 2, HQ_PRIV_SERIALS = 4, HQ_PRIV_ALL = 7 };
enum { HQ_PRIV_NKINDS = 3 };

enum hq_privacy_mode { HQ_PRIVACY_REMOTE, HQ_PRIVACY_ALWAYS, HQ_PRIVACY_NEVER };

/* 1 when the base URL is on this machine: host localhost, an address in
 * 127.0.0.0/8 or ::1, or a Unix socket (unix: or http+unix:); else 0. */
int hq_privacy_url_is_local(const char *url);
/* "remote", "always" or "never"; 0, or -1 */
int hq_privacy_parse_mode(const char *s, enum hq_privacy_mode *m);
/* "positions,names,serials" (any of them, "all" or "none") into *share;
 * 0, or -1 with the word that is none of them in e */
int hq_privacy_parse_share(const char *s, unsigned *share, struct hq_err *e);
/* What is withheld: HQ_PRIV_* bits, 0 when nothing is. */
unsigned hq_privacy_withheld(enum hq_privacy_mode m, const char *base_url, unsigned share);
/* "positions", "names" or "serials" for kind 0..2 */
const char *hq_privacy_kind_name(int kind);

struct hq_privacy_name {
	char *real;
	int org;		/* an organisation's, not a person's */
	int num;		/* its placeholder's number, 0 until first met */
};

struct hq_privacy {
	unsigned withhold;	/* HQ_PRIV_* */
	struct hq_privacy_name *names;
	size_t n, cap;
	int persons, orgs;	/* placeholders handed out */
	size_t count[HQ_PRIV_NKINDS];	/* withheld by the last filtering */
};

void hq_privacy_init(struct hq_privacy *p, unsigned withhold);
void hq_privacy_free(struct hq_privacy *p);
/* A name to be replaced wherever it stands (2 bytes or more). */
void hq_privacy_add_name(struct hq_privacy *p, const char *name, size_t len, int org);
/* The names a source or device name holds: "Jane's Apple Watch" → Jane,
 * "NJR Apple Watch" → NJR. */
void hq_privacy_learn_source(struct hq_privacy *p, const char *s, size_t len);
/* The names the store holds: its sources' and devices', the export's Me,
 * the FHIR resources' patients, practitioners and organisations. */
int hq_privacy_learn_store(struct hq_privacy *p, struct hq_store *s, struct hq_err *e);
/* The names a text (a tool result, JSON or not) shows by where they stand:
 * name fields, possessives before a device, titles (Dr, Prof...). */
void hq_privacy_learn(struct hq_privacy *p, const char *text);
/* The text as the model may see it (malloc'd); adds to p->count. */
char *hq_privacy_filter(struct hq_privacy *p, const char *text);
/* The text with the placeholders given back their names; json: the text
 * is JSON and the names go in escaped. malloc'd. */
char *hq_privacy_restore(const struct hq_privacy *p, const char *text, int json);
/* How many bytes at the end of text could still become a placeholder
 * with more text after them (a stream is held back that much). */
size_t hq_privacy_pending(const char *text, size_t len);

/* What the question shows that should not leave: positions (a coordinate
 * pair, a street address) or serial numbers; a sentence naming them in
 * why, or 0 when there is none. */
int hq_privacy_check_question(const struct hq_privacy *p, const char *q, char *why,
    size_t n);

#endif
