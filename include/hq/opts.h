/*
 * opts — one table per command describes its options; from it come the
 * option loop (hq_opts_parse), the --help text and the --tool-schema JSON
 * that hq-agent reads. The man page and the completion must agree with it
 * (a test checks), so the table is the one source of truth.
 *
 * hq_opts_parse owns what every command does the same way: --help (-h),
 * --version, --tool-schema, the hidden --complete OPTION and
 * --complete-args WORD... for the shell completion (below), the hidden
 * --summary (the summary line, for hq's list of commands), and the usage
 * errors (a
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

#include "hq/number.h"

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

/*
 * A command with subcommands (hq_cmd_info.subcmds): the ones an option
 * goes with, by name, '|' between ("cgm|trend labs"), or an enum's
 * choice that goes with fewer than the option does (choice "svg": the
 * reports that draw). Beside the option table rather than in its entries,
 * whose every other command would have to spell the fields out. An option
 * not listed goes with every subcommand. hq_opts_subcmd refuses the
 * others ("--unit does not go with 'cgm'", "--format svg does not go with
 * 'list'"), and the completion offers, after a subcommand, only its own.
 */
struct hq_opt_subs {
	const char *name;       /* the option, without dashes */
	const char *choice;     /* NULL: the option itself */
	const char *subs;
};

/* A subcommand: the words that name it ("latest labs", "cgm") and the
 * operands after them. A name of two words is a verb and a kind: the
 * completion offers the verbs, then the kinds of the verb typed. */
struct hq_subcmd {
	const char *name;
	const char *usage;      /* "latest labs [TEST...]" */
	int min, max;           /* operands after the name; max -1: any */
};

/*
 * The shell completion (completions/, hq(7)) asks the command itself:
 *
 *     hq-x --complete-args WORD...
 *
 * with the words typed after the command name, the last one (perhaps "")
 * being completed. It prints what may stand there, one a line, "VALUE" or
 * "VALUE<tab>DESCRIPTION", in the order to show; or the one line ":files"
 * when the shell should complete a file name. The shells filter by what is
 * typed. Options come from the table, with their help as description;
 * an option's value from the table's choices, its values list, its
 * completer or its metavariable (PATH, FILE: files; ZONE: IANA zones; DATE: the date forms
 * of hq_time_parse_range); operands from cmd->complete_operand, or files
 * when the operands are "files". "--complete-args" must be the first
 * argument. --complete OPTION prints an option's values alone (no
 * descriptions), as it did before.
 *
 * A completer gets a struct hq_complete and calls hq_complete_add for each
 * value; the values printed start with the head, what is kept of the word
 * ("avg," in --agg avg,m; "--by=" in --by=w).
 */
/* The word completed is at most HQ_COMPLETE_MAX_WORD bytes: a longer one
 * gets no candidates (each candidate repeats the word's head, so a 50,000
 * byte --when on a store of 1,000 metrics would answer 50 MB). */
#define HQ_COMPLETE_MAX_WORD 1024

struct hq_complete {
	const struct hq_cmd_info *cmd;
	FILE *out;
	char **args;            /* the words before the one completed */
	int nargs;
	char **operands;        /* the operands among them, in order */
	int noperands;
	const struct hq_opt *opt; /* the option whose value is completed; NULL: an operand */
	const char *typed;      /* the word as typed */
	size_t head;            /* bytes of typed kept before every value */
	const char *word;       /* typed + head: the part being completed */
	int plain;              /* values only, no descriptions (--complete OPTION) */
};

/* One candidate: head + value, and a description (may be NULL; control
 * characters and tabs in it become spaces). A value with a tab, a line
 * end or another control character cannot be typed back and is left out. */
void hq_complete_add(const struct hq_complete *c, const char *value,
    const char *descr);
/* The value given to option name (long name, or its short letter) earlier
 * on the line, the last one when repeated ("" for a flag that is there);
 * NULL when none: a completer reads --db and --tz from it. */
const char *hq_complete_arg(const struct hq_complete *c, const char *name);

/* The values an option takes that the table cannot list (workout types,
 * aggregations): what --complete OPTION prints. */
struct hq_opt_values {
	const char *name;                /* the option, without dashes */
	const char *(*at)(size_t i);     /* the i-th value, NULL past the end */
};

/* Values no list can hold (names in the store): a completer. */
struct hq_opt_completer {
	const char *name;                /* the option, without dashes */
	void (*complete)(const struct hq_complete *c);
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
	/* For a command that writes: the subcommands (its first operand)
	 * that only read, space-separated ("list verify"); hq-agent asks
	 * before the others only. NULL: every call writes. */
	const char *reads;
	const struct hq_opt *opts; /* ends with an entry whose name is NULL */
	const struct hq_opt_values *values; /* NULL, or ends with a NULL name */
	const struct hq_opt_completer *completers; /* NULL, or ends with a NULL name */
	/* The options whose value is a list or an expression, "agg when":
	 * the completion completes its last name ([A-Za-z0-9_.] after the
	 * last other character: "avg,m", "steps.sum>=1 and g") and keeps
	 * what is before it. */
	const char *split;
	/* Completes an operand (see struct hq_complete); NULL: files when
	 * positional is "files", else nothing. */
	void (*complete_operand)(const struct hq_complete *c);
	/* The subcommands (hq_opts_subcmd), ending with a NULL name; NULL:
	 * none. The completion offers their words before complete_operand's
	 * values, and after them only the options (and choices) that go with
	 * the one typed. */
	const struct hq_subcmd *subcmds;
	/* The options (and choices) that go with some subcommands only,
	 * ending with a NULL name; NULL: every option goes with every one. */
	const struct hq_opt_subs *opt_subs;
	/* What a subcommand is called in messages ("no such report 'x y'");
	 * NULL: "subcommand". */
	const char *subcmd_noun;
	/* Writes more of --help after the options (subcommands); NULL: none. */
	void (*help_more)(FILE *fp);
	/* Options end at the first operand, which with all that follows is
	 * left to the command (hq: the rest is the subcommand's). */
	int options_first;
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
	/* the command's options given (by index in cmd->opts), and the
	 * choice of an HQ_OPT_ENUM given last; for hq_opts_subcmd */
	unsigned char given[HQ_OPTS_MAX];
	int given_choice[HQ_OPTS_MAX];
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

/* "hq-x: message" and "try 'hq-x --help'", on stderr: for the usage
 * errors a command finds itself (no operands...). The command exits 2. */
void hq_opts_usage_error(const struct hq_cmd_info *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Once hq_opts_parse has returned 0, for a command with subcommands: the
 * one the operands name (p->argv[p->optind]...), checked: its index in
 * p->cmd->subcmds, *used the words that name it; or -1 after a usage
 * error: no subcommand, an unknown one (the nearest said, else the
 * list), too few or too many operands ("usage: hq-x SUB..."), an option
 * given that does not go with it ("--unit does not go with 'cgm'", an
 * enum's choice: "--format svg does not go with 'list'").
 */
int hq_opts_subcmd(struct hq_opts *p, int *used);

void hq_opts_help(const struct hq_cmd_info *c, FILE *fp);
void hq_opts_tool_schema(const struct hq_cmd_info *c, FILE *fp);

/* What --complete-args prints for the words argv[0..argc) (the last one
 * completed): for a command that completes a subcommand's words with the
 * subcommand's table. */
void hq_opts_complete(const struct hq_cmd_info *c, int argc, char **argv,
    FILE *out);

/*
 * The options the commands share, written once: a command's table lists
 * HQ_OPT_DB(OPT_DB), HQ_OPT_TZ(OPT_TZ, 1)... with its own ids. --db and
 * --tz read the same in every command (their words are opts.c's: --tz is
 * the one zone of hq_zone_choose, whatever the command does with it);
 * --from and --to take a DATE (completed as the date forms) and say in
 * the command's words what the range is of; --format is the command's
 * choices of output (hq-ingest's --format, an input format, is its own).
 */
extern const char hq_opt_db_help[], hq_opt_tz_help[], hq_opt_tz_tool_help[],
    hq_opt_offline_help[];
#define HQ_OPT_DB(id) \
	{ (id), "db", HQ_OPT_STRING, "PATH", hq_opt_db_help, NULL, NULL, 0 }
/* --offline: a pruned store's old months are left out (and named), not
 * read back from the archive (hq-archive(1)). */
#define HQ_OPT_OFFLINE(id) \
	{ (id), "offline", HQ_OPT_FLAG, NULL, hq_opt_offline_help, NULL, NULL, 0 }
#define HQ_OPT_TZ(id, tool) { (id), "tz", HQ_OPT_STRING, "ZONE", \
	hq_opt_tz_help, NULL, hq_opt_tz_tool_help, (tool) }
#define HQ_OPT_FROM(id, help, tool_help) \
	{ (id), "from", HQ_OPT_STRING, "DATE", (help), NULL, (tool_help), 1 }
#define HQ_OPT_TO(id, help, tool_help) \
	{ (id), "to", HQ_OPT_STRING, "DATE", (help), NULL, (tool_help), 1 }
#define HQ_OPT_FORMAT(id, help, choices) \
	{ (id), "format", HQ_OPT_ENUM, "FMT", (help), (choices), NULL, 0 }

#endif
