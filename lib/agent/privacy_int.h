/* privacy_int — what privacy.c (filtering, restoring, the question) and
 * privacy_names.c (the names learned) share inside lib/agent. */
#ifndef HQ_PRIVACY_INT_H
#define HQ_PRIVACY_INT_H

#include <ctype.h>
#include <stddef.h>

#include "hq/privacy.h"

/* A byte of a word: a letter or digit, or any byte outside ASCII. */
static inline int
hq_privacy_word_byte(unsigned char c)
{
	return isalnum(c) || c >= 0x80;
}

/* In free text (a source's name when source): names before a possessive
 * and a device, after a title or a label, before a degree. */
void hq_privacy_learn_text(struct hq_privacy *p, const char *s, size_t n, int source);

#endif
