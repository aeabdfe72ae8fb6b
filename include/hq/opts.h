/*
 * opts — one table per command describes its options; from it come the
 * option loop (hq_opts_parse), the --help text and the --tool-schema JSON
 * that hq-agent reads. The man page and the completion must agree with it
 * (a test checks), so the table is the one source of truth.
 *
 * hq_opts_parse owns what every command does the same way: --help (-h),
 * --version, --tool-schema, the hidden --complete OPTION that prints an
 * option's values for the shell completion, and the usage errors (a
 * missing value, an unknown option, a value outside the table's choices or
 * range), all worded alike:
 *
 *     hq-x: option '--model' needs a value
 *     usage: hq-x SYNOPSIS
 *     try 'hq-x --help'
 *
 * A command's main():
 *
 *     struct hq_opts p;
 *     int id;
 *
 *     hq_opts_init(&p, &cmd, argc, argv);
 *     while ((id = hq_opts_parse(&p)) > 0)
 *             switch (id) {
 *             case 'q': quiet = 1; break;
 *             case OPT_WAIT: wait_seconds = p.num; break;   (range checked)
 *             case OPT_FORMAT: format = p.choice; break;    (index in "a|b|c")
 *             }
 *     if (id < 0) {             (help printed, or a usage error)
 *             status = p.status;
 *             goto done;
 *     }
 *     ... operands are argv[p.optind] to argv[argc - 1] ...
 *
 * A command with subcommands runs hq_opts_init/hq_opts_parse again on
 * argv + k with the subcommand's table: the parser keeps no state between
 * runs. Nothing here allocates; all structures are static data owned by
 * the command, and struct hq_opts lives on the caller's stack.
 */
#ifndef HQ_OPTS_H
#define HQ_OPTS_H

#include <getopt.h>
#include <stdio.h>

enum hq_opt_type {
	HQ_OPT_FLAG,    /* no argument; boolean in the schema */
	HQ_OPT_STRING,
	HQ_OPT_INT,     /* a whole number (long) within .accept */
	HQ_OPT_NUMBER,  /* a finite number (double) within .accept */
	HQ_OPT_ENUM,    /* one of .accept ("a|b|c") */
	HQ_OPT_LIST,    /* may be repeated; array of strings in the schema */
};

/* Ids for long-only options start here; short options use their letter
 * ('h' is --help's). */
#define HQ_OPT_LONG 256

struct hq_opt {
	int id;                 /* what hq_opts_parse returns: 'q' or HQ_OPT_LONG + n */
	const char *name;       /* long name, without dashes */
	enum hq_opt_type type;
	const char *arg;        /* metavariable for --help: "DATE" */
	const char *help;       /* one line for --help */
	/*
	 * The values it accepts, checked by hq_opts_parse. HQ_OPT_ENUM: the
	 * choices, "hour|day|week". HQ_OPT_INT and HQ_OPT_NUMBER: a range,
	 * "1..1000" (both ends included), "0.." or "..9" (one end open), ">0"
	 * (above 0); NULL: any. Other types: NULL.
	 */
	const char *accept;
	const char *tool_help;  /* for the model; NULL: help is used */
	int tool;               /* exposed in --tool-schema */
};

/* The values an option takes that the table cannot list (workout types,
 * aggregations): what --complete OPTION prints. */
struct hq_opt_values {
	const char *name;                /* the option, without dashes */
	const char *(*at)(size_t i);     /* the i-th value, NULL past the end */
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
	const struct hq_opt_values *values; /* NULL, or ends with a NULL name */
};

/* Options in one table, the built-in ones (--help, --version,
 * --tool-schema, --complete) included. */
#define HQ_OPTS_MAX 64

struct hq_opts {
	const struct hq_cmd_info *cmd;
	int argc;
	char **argv;               /* reordered: operands end up last */
	FILE *out, *err;           /* stdout and stderr; tests set others */
	/* the option hq_opts_parse has just returned */
	const struct hq_opt *opt;  /* its table entry */
	char *arg;                 /* its value as given, in argv (as optarg); NULL for a flag */
	long num;                  /* HQ_OPT_INT: the value */
	double real;               /* HQ_OPT_INT and HQ_OPT_NUMBER: the value */
	int choice;                /* HQ_OPT_ENUM: the index in .accept */
	/* once it has returned 0: the first operand */
	int optind;
	/* once it has returned -1: 0 after --help, --version, --tool-schema
	 * or --complete, 2 after a usage error (already printed) */
	int status;
	/* private */
	int started, done;
	struct option longopts[HQ_OPTS_MAX + 1];
	char shortopts[2 * HQ_OPTS_MAX + 2];
};

void hq_opts_init(struct hq_opts *p, const struct hq_cmd_info *c, int argc,
    char **argv);
/*
 * The next option: its id (> 0), with p->opt and its checked value in
 * p->arg, p->num, p->real or p->choice; 0 when the options are done (the
 * operands start at p->argv[p->optind]); -1 when the command should exit
 * with p->status, everything said already. Options and operands may come
 * in any order; "--" ends the options.
 */
int hq_opts_parse(struct hq_opts *p);

/* "hq-x: message", the usage line and "try 'hq-x --help'", on stderr:
 * for the usage errors a command finds itself (no operands...). The
 * command exits 2. */
void hq_opts_usage_error(const struct hq_cmd_info *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

void hq_opts_help(const struct hq_cmd_info *c, FILE *fp);
void hq_opts_tool_schema(const struct hq_cmd_info *c, FILE *fp);
void hq_opts_version(const struct hq_cmd_info *c, FILE *fp);
/* The table entry for an id, or NULL. */
const struct hq_opt *hq_opts_find(const struct hq_cmd_info *c, int id);

/* Strict number parsing for option values: 0, or -1 when s is not wholly a
 * number within [min, max]. */
int hq_opts_parse_long(const char *s, long min, long max, long *out);
int hq_opts_parse_double(const char *s, double *out);

#endif
