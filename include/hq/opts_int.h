/*
 * opts_int — what the option loop (opts.c) and the shell completion
 * (opts_complete.c) share; internal to lib/base (scripts/layers.pl).
 */
#ifndef HQ_OPTS_INT_H
#define HQ_OPTS_INT_H

#include <stddef.h>

#include "hq/opts.h"

/* The i-th long option, the command's then the built-in ones; NULL past
 * the end. */
const struct hq_opt *hq_opts_at(const struct hq_cmd_info *c, size_t i);

/* The length of a subcommand's verb, its first word. */
size_t hq_opts_verb_len(const struct hq_subcmd *s);
/* The subcommand the words name (the first match in the table, as typed:
 * "trend labs ldl" is trend labs, "trend steps" trend), *used its words;
 * NULL when none. */
const struct hq_subcmd *hq_opts_find_subcmd(const struct hq_cmd_info *c,
    int n, char *const *words, int *used);
/* Whether option o, or its choice (NULL: the option itself), goes with
 * sub (NULL: none typed yet, every one goes): hq_cmd_info.opt_subs. */
int hq_opts_goes_with(const struct hq_cmd_info *c, const struct hq_opt *o,
    const char *choice, const struct hq_subcmd *sub);

/* An option's values as candidates (--complete OPTION: c->plain), after
 * the head of typed that is kept. */
void hq_opts_complete_value(struct hq_complete *c, const struct hq_opt *o,
    const char *typed, size_t head);

#endif
