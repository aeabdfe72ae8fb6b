/*
 * opts — one table per command describes its options; from it come the
 * getopt_long table, the --help text and the --tool-schema JSON that
 * hq-agent reads. The man page and the completion must agree with it (a
 * test checks), so the table is the one source of truth.
 *
 * All structures are static data owned by the command.
 */
#ifndef HQ_OPTS_H
#define HQ_OPTS_H

#include <getopt.h>
#include <stdio.h>

enum hq_opt_type {
	HQ_OPT_FLAG,    /* no argument; boolean in the schema */
	HQ_OPT_STRING,
	HQ_OPT_INT,
	HQ_OPT_NUMBER,
	HQ_OPT_ENUM,    /* one of .choices ("a|b|c") */
	HQ_OPT_LIST,    /* may be repeated; array of strings in the schema */
};

/* Ids for long-only options start here; short options use their letter. */
#define HQ_OPT_LONG 256

struct hq_opt {
	int id;                 /* getopt_long's val: 'q' or HQ_OPT_LONG + n */
	const char *name;       /* long name, without dashes */
	enum hq_opt_type type;
	const char *arg;        /* metavariable for --help: "DATE" */
	const char *help;       /* one line for --help */
	const char *choices;    /* HQ_OPT_ENUM: "hour|day|week" */
	const char *tool_help;  /* for the model; NULL: help is used */
	int tool;               /* exposed in --tool-schema */
};

struct hq_cmd_info {
	const char *name;          /* "hq-query" */
	const char *synopsis;      /* "METRIC... [OPTION]..." */
	const char *summary;       /* one line for --help */
	const char *tool_description;
	const char *positional;    /* schema name of the operands: "metrics" */
	const char *positional_help;
	int positional_required;
	int writes;                /* changes the store: hq-agent asks first */
	const struct hq_opt *opts; /* ends with an entry whose name is NULL */
};

/* The getopt_long table (malloc'd, free() it) and short option string. */
struct option *hq_opts_longopts(const struct hq_cmd_info *c, char *shortopts,
    size_t n);
void hq_opts_help(const struct hq_cmd_info *c, FILE *fp);
/* "hq-x: message", the usage line and a pointer to --help, on stderr. */
void hq_opts_usage_error(const struct hq_cmd_info *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void hq_opts_tool_schema(const struct hq_cmd_info *c, FILE *fp);
void hq_opts_version(const struct hq_cmd_info *c, FILE *fp);
/* The table entry for a getopt_long val, or NULL. */
const struct hq_opt *hq_opts_find(const struct hq_cmd_info *c, int id);

/* Strict number parsing for option values: 0, or -1 when s is not wholly a
 * number within [min, max]. */
int hq_opts_parse_long(const char *s, long min, long max, long *out);
int hq_opts_parse_double(const char *s, double *out);

#endif
