/*
 * proc — run commands (an argv, never a shell string) concurrently, at
 * most a set number at once (the others wait their turn), each with a
 * timeout and a cap on the output kept. hq-agent runs its tools through
 * it. stdin is /dev/null; stdout is captured up to the cap (cut at a line
 * end, the rest counted but dropped); stderr up to 4 KiB.
 *
 * Memory: argv is borrowed; out and err are owned by the hq_proc and
 * released by hq_proc_free().
 */
#ifndef HQ_PROC_H
#define HQ_PROC_H

#include <stddef.h>
#include <sys/types.h>

struct hq_proc {
	char *const *argv;	/* argv[0] is a path; borrowed */
	/* results */
	int exit_status;	/* exit code, or -1 when it did not exit */
	int term_signal;	/* signal that ended it, or 0 */
	int timed_out;
	int spawn_errno;	/* non-zero: it could not be started */
	int not_run;		/* the deadline passed before its turn */
	char *out;		/* kept stdout, NUL-terminated */
	size_t out_len;
	size_t out_total;	/* bytes written, kept or not */
	size_t out_lines;	/* lines written, kept or not */
	size_t kept_lines;	/* lines in out */
	char *err;		/* first 4 KiB of stderr, NUL-terminated */
	size_t err_len;
	double seconds;
	/* private */
	pid_t pid;
	int fd_out, fd_err;
	int reaped;
	int cut;
	double started;
};

struct hq_proc_limits {
	size_t max_running;	/* at most this many at once, in order; 0: all */
	double timeout;		/* seconds from a command's start; 0: none */
	double deadline;	/* hq_time_monotonic() past which none starts and
				 * those running are stopped; 0: none */
	size_t out_cap;		/* bytes of stdout kept */
};

/* Runs every proc, at most lim->max_running at once, and waits for all
 * of them; kills those still running at their timeout or the deadline
 * (and their process groups): they are timed_out. */
void hq_proc_run_all(struct hq_proc *procs, size_t n, const struct hq_proc_limits *lim);

void hq_proc_free(struct hq_proc *p);

#endif
