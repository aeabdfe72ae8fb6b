/*
 * hq — runs hq-COMMAND as git runs git-COMMAND: `hq query steps --by week`
 * is `hq-query steps --by week`. The commands are the real thing; hq only
 * finds one (beside hq itself, then on $PATH) and executes it in its own
 * place (execv, no shell). `hq` alone and `hq help` list the commands with
 * each one's summary; `hq help COMMAND` opens its manual. See hq(1).
 *
 * hq is not named hq-*: hq-agent offers every hq-* beside it to the model
 * as a tool, and hq is none.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hq/buf.h"
#include "hq/catalog.h"
#include "hq/config.h"
#include "hq/err.h"
#include "hq/opts.h"
#include "hq/proc.h"
#include "hq/queries.h"
#include "hq/term.h"

/* Bounds: commands listed, and how long a --summary may take. */
#define MAX_COMMANDS 256
#define SUMMARY_TIMEOUT 3.0

static void complete_operand(const struct hq_complete *c);
static void list_commands(FILE *fp);

static const struct hq_opt options[] = {
	{ 0, NULL, 0, NULL, NULL, NULL, NULL, 0 },
};

static const struct hq_cmd_info cmd = {
	.name = "hq",
	.synopsis = "COMMAND [ARG]...\n"
	    "       hq run [NAME [ARG]...]\n"
	    "       hq help [COMMAND | config]",
	.summary = "Run an hq command: 'hq query steps' is 'hq-query steps'; 'hq run NAME' "
	    "a saved query. Alone, list the commands.",
	.tool_description = "Runs another hq command; not offered to models as a tool.",
	.positional = "command",
	.positional_help = "the command and its arguments",
	.opts = options,
	.complete_operand = complete_operand,
	.help_more = list_commands,
	.options_first = 1,
};

struct command {
	char name[64];          /* "query" */
	char *path;             /* ".../hq-query" */
};

/* Names a command may have: hq-NAME with NAME of [a-z0-9_-], as files
 * on PATH are named; anything else is not looked for. */
static int
valid_name(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n >= sizeof ((struct command *)0)->name || name[0] == '-')
		return 0;
	return strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_-") == n;
}

/* The directories to look in, ':'-separated: hq's own, then $PATH. */
static char *
search_dirs(void)
{
	struct hq_buf b = {0};
	const char *path = getenv("PATH");
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);

	if (n > 0) {
		self[n] = '\0';
		if (strrchr(self, '/')) {
			*strrchr(self, '/') = '\0';
			hq_buf_printf(&b, "%s:", self);
		}
	}
	hq_buf_puts(&b, path ? path : "/usr/local/bin:/usr/bin:/bin");
	return hq_buf_steal(&b);
}

static int
executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* The path of hq-NAME, the first one found; NULL when there is none. */
static char *
find_command(const char *name)
{
	char *dirs = search_dirs(), *save = NULL, *found = NULL;
	struct hq_buf b = {0};

	if (valid_name(name))
		for (char *d = strtok_r(dirs, ":", &save); d && !found;
		    d = strtok_r(NULL, ":", &save)) {
			b.len = 0;
			hq_buf_printf(&b, "%s/hq-%s", *d ? d : ".", name);
			if (executable(b.data))
				found = hq_xstrdup(b.data);
		}
	hq_buf_free(&b);
	free(dirs);
	return found;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const struct command *)a)->name, ((const struct command *)b)->name);
}

/* Every hq-NAME in the directories, the first of each name, sorted. */
static size_t
find_commands(struct command *v)
{
	char *dirs = search_dirs(), *save = NULL;
	size_t n = 0;

	for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		DIR *dir = opendir(*d ? d : ".");
		struct dirent *de;

		while (dir && (de = readdir(dir)) && n < MAX_COMMANDS) {
			struct hq_buf b = {0};
			size_t i;

			if (strncmp(de->d_name, "hq-", 3) != 0 || !valid_name(de->d_name + 3))
				continue;
			for (i = 0; i < n && strcmp(v[i].name, de->d_name + 3); i++)
				;
			if (i < n)
				continue;
			hq_buf_printf(&b, "%s/%s", *d ? d : ".", de->d_name);
			if (!executable(b.data)) {
				hq_buf_free(&b);
				continue;
			}
			snprintf(v[n].name, sizeof v[n].name, "%s", de->d_name + 3);
			v[n++].path = hq_buf_steal(&b);
		}
		if (dir)
			closedir(dir);
	}
	free(dirs);
	qsort(v, n, sizeof *v, by_name);
	return n;
}

static void
free_commands(struct command *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].path);
}

/* Each command's one-line summary (its --summary, all run at once, each
 * for a few seconds at most), into sums[i]; "" for one that gives none. */
static void
summaries(const struct command *v, size_t n, char **sums)
{
	struct hq_proc *procs = hq_xcalloc(n ? n : 1, sizeof *procs);
	char **argvs = hq_xcalloc(3 * (n ? n : 1), sizeof *argvs);

	for (size_t i = 0; i < n; i++) {
		argvs[3 * i] = v[i].path;
		argvs[3 * i + 1] = "--summary";
		procs[i].argv = &argvs[3 * i];
	}
	hq_proc_run_all(procs, n, &(struct hq_proc_limits){ .max_running = 8,
	    .timeout = SUMMARY_TIMEOUT, .out_cap = 4096 });
	for (size_t i = 0; i < n; i++) {
		const char *out = procs[i].exit_status == 0 && procs[i].out ? procs[i].out : "";
		sums[i] = hq_xstrdup(out);
		sums[i][strcspn(sums[i], "\n")] = '\0';
		hq_proc_free(&procs[i]);
	}
	free(procs);
	free(argvs);
}

/* The commands, one line each with its summary, cut to the width: what
 * --help (and hq alone) ends with. */
static void
list_commands(FILE *fp)
{
	struct command v[MAX_COMMANDS];
	size_t n = find_commands(v), w = 4;
	int cols = isatty(fileno(fp)) ? hq_term_width(fileno(fp)) : 80;
	char **sums = hq_xcalloc(n ? n : 1, sizeof *sums), line[1024];

	summaries(v, n, sums);
	for (size_t i = 0; i < n; i++)
		if (strlen(v[i].name) > w)
			w = strlen(v[i].name);
	fputs(n ? "\ncommands (hq COMMAND --help, hq help COMMAND):\n" :
	    "\nNo hq-* commands found beside hq or on PATH.\n", fp);
	for (size_t i = 0; i < n; i++) {
		/* to the column before the last, as --help's text */
		size_t left = 2 + w + 2, room = (size_t)cols > left + 11 ? (size_t)cols - left - 1 : 10;
		hq_term_fit(line, sizeof line, sums[i], room);
		fprintf(fp, "  %-*s  %s\n", (int)w, v[i].name, line);
		free(sums[i]);
	}
	free(sums);
	free_commands(v, n);
}

/* "hq: 'qurey' is not an hq command (did you mean query?)", exit 2 */
static int
not_a_command(const char *name)
{
	struct command v[MAX_COMMANDS];
	const char *names[MAX_COMMANDS];
	size_t n = find_commands(v);
	const char *guess;
	char shown[64];

	for (size_t i = 0; i < n; i++)
		names[i] = v[i].name;
	guess = hq_catalog_suggest(name, names, n);
	hq_term_fit(shown, sizeof shown, name, 40);
	if (guess)
		hq_opts_usage_error(&cmd, "'%s' is not an hq command (did you mean %s?)",
		    shown, guess);
	else
		hq_opts_usage_error(&cmd, "'%s' is not an hq command ('hq' lists them)",
		    shown);
	free_commands(v, n);
	return 2;
}

/* Runs hq-NAME with args in hq's place; returns only when it cannot. */
static int
run_command(const char *name, int argc, char **argv)
{
	char *path = find_command(name);
	char **args;
	char argv0[80];

	if (!path)
		return not_a_command(name);
	args = hq_xcalloc((size_t)argc + 2, sizeof *args);
	snprintf(argv0, sizeof argv0, "hq-%s", name);
	args[0] = argv0;
	for (int i = 0; i < argc; i++)
		args[i + 1] = argv[i];
	fflush(NULL);
	execv(path, args);
	hq_warn("cannot run %s: %s", path, strerror(errno));
	free(args);
	free(path);
	return 2;
}

/* The config's saved queries into *q, *n: 0, or 2 (said, with FILE:LINE). */
static int
load_queries(struct hq_saved_query **q, size_t *n, int quiet)
{
	struct hq_err e;
	struct hq_config *cfg = hq_config_load(NULL, &e);
	int rc = 0;

	*q = NULL;
	*n = 0;
	if (!cfg) {
		if (!quiet)
			hq_warn("%s", e.msg);
		return 2;
	}
	if (hq_queries_load(cfg, q, n, &e)) {
		if (!quiet)
			hq_warn("%s (nothing was run)", e.msg);
		rc = 2;
	}
	hq_config_free(cfg);
	return rc;
}

/* hq run: the saved queries, a name and its line each. */
static int
list_queries(const struct hq_saved_query *q, size_t n)
{
	char path[4096];

	if (n == 0) {
		if (hq_config_path(path, sizeof path))
			snprintf(path, sizeof path, "~/.config/hq/config");
		hq_warn("no saved queries: write them under [queries] in %s "
		    "(hq help config)", path);
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		char line[1024];
		printf("%s", q[i].name);
		if (q[i].description[0]) {
			hq_term_fit(line, sizeof line, q[i].description, 76 -
			    strlen(q[i].name) > 20 ? 76 - strlen(q[i].name) : 20);
			printf("  %s", line);
		}
		hq_term_fit(line, sizeof line, q[i].line, 76);
		printf("\n    %s\n", line);
	}
	return 0;
}

/* hq run NAME [ARG]...: hq-COMMAND with the query's words, then the
 * ARGs, in hq's place (execv, no shell); returns only when it cannot. */
static int
run_saved(int argc, char **argv)
{
	struct hq_saved_query *q;
	const struct hq_saved_query *sq;
	size_t n;
	char **args, *path, argv0[80], shown[64];
	const char **names;
	int rc;

	if ((rc = load_queries(&q, &n, 0)))
		return rc;
	if (argc == 0) {
		rc = list_queries(q, n);
		hq_queries_free(q, n);
		return rc;
	}
	if (!(sq = hq_queries_find(q, n, argv[0]))) {
		names = hq_xcalloc(n + 1, sizeof *names);
		for (size_t i = 0; i < n; i++)
			names[i] = q[i].name;
		const char *guess = hq_catalog_suggest(argv[0], names, n);
		hq_term_fit(shown, sizeof shown, argv[0], 40);
		hq_opts_usage_error(&cmd, "no saved query '%s'%s%s%s ('hq run' lists "
		    "them)", shown, guess ? " (did you mean " : "", guess ? guess : "",
		    guess ? "?)" : "");
		free(names);
		hq_queries_free(q, n);
		return 2;
	}
	if (!(path = find_command(sq->command))) {
		hq_warn("%s: [queries]: %s runs hq-%s, which is not beside hq nor on "
		    "PATH (nothing was run)", sq->where, sq->name, sq->command);
		hq_queries_free(q, n);
		return 2;
	}
	args = hq_xcalloc(sq->nwords + (size_t)argc + 1, sizeof *args);
	snprintf(argv0, sizeof argv0, "hq-%s", sq->command);
	args[0] = argv0;
	for (size_t i = 0; i < sq->nwords; i++)
		args[1 + i] = sq->words[i];
	for (int i = 1; i < argc; i++)
		args[sq->nwords + (size_t)i] = argv[i];
	fflush(NULL);
	execv(path, args);
	hq_warn("cannot run %s: %s", path, strerror(errno));
	free(args);
	free(path);
	hq_queries_free(q, n);
	return 2;
}

/* The page in the checkout hq was built in, when it runs from its build
 * directory (BUILD/bin/hq beside man/): "/src/hq/build/bin/../../man/hq-query.1";
 * 0, or -1 when there is none. */
static int
checkout_page(const char *page, const char *section, char *buf, size_t n)
{
	char self[PATH_MAX];
	ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
	struct stat st;

	if (k <= 0)
		return -1;
	self[k] = '\0';
	if (strrchr(self, '/'))
		*strrchr(self, '/') = '\0';
	if ((size_t)snprintf(buf, n, "%s/../../man/%s.%s", self, page, section) >= n)
		return -1;
	return stat(buf, &st) == 0 && S_ISREG(st.st_mode) ? 0 : -1;
}

/* hq help NAME: the manual page hq-NAME (hq(1) for "hq"; the overview
 * hq(7), which holds the configuration, for "config", "hq.7" or "7"),
 * through man; where man has no such page installed, the page in the
 * checkout hq was built in (man -l); else (no man) the command's --help. */
static int
help(const char *name)
{
	int overview = strcmp(name, "config") == 0 || strcmp(name, "hq.7") == 0 ||
	    strcmp(name, "7") == 0;
	char page[80], local[PATH_MAX + 32], *path = NULL;
	char *section = overview ? "7" : "1";
	char *check[] = { "man", "-w", section, page, NULL };
	struct hq_proc man = { .argv = check };
	char *dirs = search_dirs(), *save = NULL, *manpath = NULL;
	struct hq_buf b = {0};

	if (!overview && strcmp(name, "hq") != 0 && !(path = find_command(name))) {
		free(dirs);
		return not_a_command(name);
	}
	snprintf(page, sizeof page, overview || strcmp(name, "hq") == 0 ? "hq" :
	    "hq-%s", name);
	/* man itself, from PATH (proc runs paths, not names) */
	for (char *d = strtok_r(dirs, ":", &save); d && !manpath; d = strtok_r(NULL, ":", &save)) {
		b.len = 0;
		hq_buf_printf(&b, "%s/man", *d ? d : ".");
		if (executable(b.data))
			manpath = hq_xstrdup(b.data);
	}
	hq_buf_free(&b);
	free(dirs);
	if (manpath) {
		check[0] = manpath;
		hq_proc_run_all(&man, 1, &(struct hq_proc_limits){ .timeout = 10,
		    .out_cap = 4096 });
		if (man.exit_status == 0) {
			hq_proc_free(&man);
			free(path);
			fflush(NULL);
			execv(manpath, (char *[]){ "man", section, page, NULL });
			hq_warn("cannot run %s: %s", manpath, strerror(errno));
			free(manpath);
			return 2;
		}
		hq_proc_free(&man);
		if (checkout_page(page, section, local, sizeof local) == 0) {
			free(path);
			fflush(NULL);
			execv(manpath, (char *[]){ "man", "-l", local, NULL });
			hq_warn("cannot run %s: %s", manpath, strerror(errno));
			free(manpath);
			return 2;
		}
		free(manpath);
	}
	if (!path) {
		hq_warn("no manual page for %s is installed; see 'hq --help'",
		    overview ? "hq(7)" : "hq");
		return 1;
	}
	fprintf(stderr, "hq: no manual page for %s is installed; here is its --help\n", page);
	free(path);
	return run_command(name, 1, (char *[]){ "--help", NULL });
}

/* hq run's completion: the saved queries' names, then, once one is
 * named, its command's completion of its words and the rest of the line. */
static void
complete_run(const struct hq_complete *c)
{
	struct hq_saved_query *q;
	const struct hq_saved_query *sq;
	size_t n;
	char **args, *path, argv0[80];
	int first = -1, k;

	if (load_queries(&q, &n, 1))
		return;
	if (c->noperands == 1) {
		for (size_t i = 0; i < n; i++)
			hq_complete_add(c, q[i].name, q[i].description[0] ?
			    q[i].description : q[i].line);
		hq_queries_free(q, n);
		return;
	}
	if (!(sq = hq_queries_find(q, n, c->operands[1])) ||
	    !(path = find_command(sq->command))) {
		hq_queries_free(q, n);
		return;
	}
	for (int i = 0; i < c->nargs; i++)
		if (c->args[i] == c->operands[1])
			first = i;
	args = hq_xcalloc(sq->nwords + (size_t)(c->nargs - first) + 3, sizeof *args);
	snprintf(argv0, sizeof argv0, "hq-%s", sq->command);
	args[0] = argv0;
	args[1] = "--complete-args";
	k = 2;
	for (size_t i = 0; i < sq->nwords; i++)
		args[k++] = sq->words[i];
	for (int i = first + 1; i <= c->nargs; i++)
		args[k++] = i < c->nargs ? c->args[i] : (char *)c->typed;
	fflush(NULL);
	execv(path, args);
	free(args);
	free(path);
	hq_queries_free(q, n);
}

/* The shell completion: the commands (and help), then, once one is
 * named, that command's own completion of the rest of the line. */
static void
complete_operand(const struct hq_complete *c)
{
	struct command v[MAX_COMMANDS];
	size_t n;
	char **sums, **args, *path, argv0[80];
	int first = -1;

	if (c->noperands == 0 || (c->noperands == 1 && strcmp(c->operands[0], "help") == 0)) {
		n = find_commands(v);
		sums = hq_xcalloc(n ? n : 1, sizeof *sums);
		summaries(v, n, sums);
		for (size_t i = 0; i < n; i++) {
			hq_complete_add(c, v[i].name, sums[i]);
			free(sums[i]);
		}
		if (c->noperands == 0) {
			hq_complete_add(c, "run", "a saved query ([queries] in the config)");
			hq_complete_add(c, "help", "a command's manual");
		} else
			hq_complete_add(c, "config", "the configuration, in hq(7)");
		free(sums);
		free_commands(v, n);
		return;
	}
	if (strcmp(c->operands[0], "run") == 0) {
		complete_run(c);
		return;
	}
	if (strcmp(c->operands[0], "help") == 0 || !(path = find_command(c->operands[0])))
		return;
	for (int i = 0; i < c->nargs; i++)
		if (c->args[i] == c->operands[0])
			first = i;
	args = hq_xcalloc((size_t)(c->nargs - first) + 3, sizeof *args);
	snprintf(argv0, sizeof argv0, "hq-%s", c->operands[0]);
	args[0] = argv0;
	args[1] = "--complete-args";
	for (int i = first + 1, k = 2; i <= c->nargs; i++, k++)
		args[k] = i < c->nargs ? c->args[i] : (char *)c->typed;
	fflush(NULL);
	execv(path, args);
	free(args);
	free(path);
}

int
main(int argc, char **argv)
{
	struct hq_opts p;
	int id, status = 2;

	hq_err_init(argv[0]);
	hq_opts_init(&p, &cmd, argc, argv);
	while ((id = hq_opts_parse(&p)) > 0)
		;
	if (id < 0)
		return hq_finish(p.status);
	argc -= p.optind;
	argv += p.optind;
	if (argc == 0) {
		/* like git: the help with the commands, and 1 since none ran */
		hq_opts_help(&cmd, stdout);
		status = 1;
	} else if (strcmp(argv[0], "help") == 0 && argc == 1) {
		hq_opts_help(&cmd, stdout);
		status = 0;
	} else if (strcmp(argv[0], "help") == 0 && argc == 2)
		status = help(argv[1]);
	else if (strcmp(argv[0], "help") == 0)
		hq_opts_usage_error(&cmd, "help takes one command");
	else if (strcmp(argv[0], "run") == 0)
		status = run_saved(argc - 1, argv + 1);
	else
		status = run_command(argv[0], argc - 1, argv + 1);
	return hq_finish(status);
}
