/* proc — argv execution, a few at a time, with timeouts and output caps. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hq/buf.h"
#include "hq/proc.h"
#include "hq/time.h"

extern char **environ;

#define ERR_CAP 4096
#define MAX_GROUPS 64

/* The tools run in process groups of their own (so that a timeout kills
 * whatever they started), which keeps the terminal's ^C from reaching
 * them: while they run, a fatal signal to us is passed on to them. The
 * groups running are in groups[]; the signals are blocked while it
 * changes. */
static volatile sig_atomic_t ngroups;
static volatile pid_t groups[MAX_GROUPS];
static const int fatal[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
static struct sigaction saved[sizeof fatal / sizeof fatal[0]];

static void
pass_on(int sig)
{
	for (sig_atomic_t i = 0; i < ngroups; i++)
		kill(-groups[i], SIGKILL);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
guard(int on)
{
	for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
		if (on) {
			struct sigaction sa = { .sa_handler = pass_on };
			sigemptyset(&sa.sa_mask);
			sigaction(fatal[i], &sa, &saved[i]);
		} else {
			sigaction(fatal[i], &saved[i], NULL);
		}
	}
	if (!on)
		ngroups = 0;
}

/* pid's group joins (on) or leaves the groups a fatal signal kills */
static void
track(pid_t pid, int on)
{
	sigset_t block, old;

	sigemptyset(&block);
	for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
		sigaddset(&block, fatal[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (on && ngroups < MAX_GROUPS)
		groups[ngroups++] = pid;
	for (sig_atomic_t i = 0; !on && i < ngroups; i++)
		if (groups[i] == pid) {
			groups[i] = groups[--ngroups];
			break;
		}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static int
spawn(struct hq_proc *p)
{
	int out[2], err[2];
	/* posix_spawn reports a failed exec only where the C library can
	 * share memory with the child (not under valgrind, where the child
	 * just exits 127): check the program first, so a missing tool is
	 * always an error of its own. */
	if (access(p->argv[0], X_OK) != 0)
		return errno;
	if (pipe2(out, O_CLOEXEC))
		return errno;
	if (pipe2(err, O_CLOEXEC)) {
		int e = errno;
		close(out[0]);
		close(out[1]);
		return e;
	}
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_adddup2(&fa, err[1], 2);
	/* its own process group, so a timeout kills its children too */
	posix_spawnattr_setpgroup(&at, 0);
	sigset_t def;
	sigemptyset(&def);
	sigaddset(&def, SIGPIPE);
	posix_spawnattr_setsigdefault(&at, &def);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
	int rc = posix_spawn(&p->pid, p->argv[0], &fa, &at, p->argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(out[1]);
	close(err[1]);
	if (rc) {
		close(out[0]);
		close(err[0]);
		return rc;
	}
	p->fd_out = out[0];
	p->fd_err = err[0];
	return 0;
}

/* Appends what of src fits below cap bytes to *buf; how much that was. */
static size_t
keep(char **buf, size_t *len, size_t cap, const char *src, size_t n)
{
	size_t room = cap > *len ? cap - *len : 0, take = n < room ? n : room;

	if (take) {
		*buf = hq_xrealloc(*buf, *len + take + 1);
		memcpy(*buf + *len, src, take);
		*len += take;
		(*buf)[*len] = '\0';
	}
	return take;
}

static void
take_out(struct hq_proc *p, const char *buf, size_t n, size_t cap)
{
	for (size_t i = 0; i < n; i++)
		if (buf[i] == '\n')
			p->out_lines++;
	p->out_total += n;
	if (!p->cut && keep(&p->out, &p->out_len, cap, buf, n) < n)
		p->cut = 1;
}

static void
drain(struct hq_proc *p, int *fd, int is_out, size_t cap)
{
	char buf[65536];
	ssize_t r = read(*fd, buf, sizeof buf);
	if (r < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (r <= 0) {
		close(*fd);
		*fd = -1;
		return;
	}
	if (is_out)
		take_out(p, buf, (size_t)r, cap);
	else
		keep(&p->err, &p->err_len, ERR_CAP, buf, (size_t)r);
}

static void
reap(struct hq_proc *p, int flags)
{
	int st;
	pid_t r;
	do
		r = waitpid(p->pid, &st, flags);
	while (r < 0 && errno == EINTR);
	if (r != p->pid)
		return;
	p->reaped = 1;
	p->seconds = hq_time_monotonic() - p->started;
	if (WIFEXITED(st))
		p->exit_status = WEXITSTATUS(st);
	else if (WIFSIGNALED(st))
		p->term_signal = WTERMSIG(st);
}

/* keep whole lines only: a cut row would be invalid JSON */
static void
finish_out(struct hq_proc *p)
{
	if (p->cut && p->out_len) {
		size_t n = p->out_len;
		while (n && p->out[n - 1] != '\n')
			n--;
		p->out_len = n;
		p->out[n] = '\0';
	}
	if (!p->out)
		p->out = hq_xstrdup("");
	if (!p->err)
		p->err = hq_xstrdup("");
	for (size_t i = 0; i < p->out_len; i++)
		if (p->out[i] == '\n')
			p->kept_lines++;
	if (!p->cut && p->out_len && p->out[p->out_len - 1] != '\n') {
		p->out_lines++;	/* a last line without newline is a row too */
		p->kept_lines++;
	}
}

/* starts p, or marks it done: not started in time, or not startable */
static void
start(struct hq_proc *p, const struct hq_proc_limits *lim, double now)
{
	p->started = now;
	if (lim->deadline > 0 && now >= lim->deadline) {
		p->not_run = p->reaped = 1;
		return;
	}
	if ((p->spawn_errno = spawn(p)))
		p->reaped = 1;
	else
		track(p->pid, 1);
}

/* when p must be stopped: its timeout or the deadline, whichever comes
 * first; 0 for never */
static double
stop_time(const struct hq_proc *p, const struct hq_proc_limits *lim)
{
	double t = lim->timeout > 0 ? p->started + lim->timeout : 0;

	if (lim->deadline > 0 && (t == 0 || lim->deadline < t))
		t = lim->deadline;
	return t;
}

void
hq_proc_run_all(struct hq_proc *procs, size_t n, const struct hq_proc_limits *lim)
{
	size_t max = lim->max_running && lim->max_running < n ? lim->max_running : n;
	size_t next = 0;
	struct pollfd *pfd = hq_xcalloc(max * 2 + 1, sizeof *pfd);

	for (size_t i = 0; i < n; i++) {
		procs[i].exit_status = -1;
		procs[i].fd_out = procs[i].fd_err = -1;
	}
	guard(1);
	for (;;) {
		size_t np = 0, running = 0;
		double t = hq_time_monotonic(), wait = 1e9;
		int freed = 0;	/* a place in the pool: look again at once */
		for (size_t i = 0; i < next; i++)
			running += !procs[i].reaped;
		/* the pool: the next in line start as others end */
		while (next < n && running < max) {
			start(&procs[next], lim, t);
			running += !procs[next++].reaped;
		}
		if (!running && next == n)
			break;
		for (size_t i = 0; i < next; i++) {
			struct hq_proc *p = &procs[i];
			if (p->reaped)
				continue;
			double stop = stop_time(p, lim), left = stop - t;
			if (stop > 0 && left <= 0 && !p->timed_out) {
				p->timed_out = 1;
				kill(-p->pid, SIGKILL);
				kill(p->pid, SIGKILL);
			}
			if (stop > 0 && left > 0 && left < wait)
				wait = left;
			if (p->fd_out >= 0)
				pfd[np++] = (struct pollfd){ .fd = p->fd_out, .events = POLLIN };
			if (p->fd_err >= 0)
				pfd[np++] = (struct pollfd){ .fd = p->fd_err, .events = POLLIN };
			if (p->fd_out < 0 && p->fd_err < 0) {
				reap(p, p->timed_out ? 0 : WNOHANG);
				if (p->reaped) {
					track(p->pid, 0);
					freed = 1;
				} else if (wait > 0.0005)
					wait = 0.0005;	/* output closed: it exits soon */
			}
		}
		if (freed && next < n)
			continue;
		if (np == 0) {
			struct timespec ts = { 0, wait < 0.0005 ? (long)(wait * 1e9) : 500000L };
			nanosleep(&ts, NULL);
			continue;
		}
		int ms = wait >= 1e8 ? -1 : (int)(wait * 1000) + 1;
		int r = poll(pfd, (nfds_t)np, ms);
		if (r < 0 && errno != EINTR)
			break;
		for (size_t k = 0; r > 0 && k < np; k++) {
			if (!pfd[k].revents)
				continue;
			for (size_t i = 0; i < next; i++) {
				if (procs[i].fd_out == pfd[k].fd)
					drain(&procs[i], &procs[i].fd_out, 1, lim->out_cap);
				else if (procs[i].fd_err == pfd[k].fd)
					drain(&procs[i], &procs[i].fd_err, 0, lim->out_cap);
			}
		}
	}
	guard(0);
	free(pfd);
	for (size_t i = 0; i < n; i++)
		finish_out(&procs[i]);
}

void
hq_proc_free(struct hq_proc *p)
{
	if (!p)
		return;
	if (p->fd_out >= 0 && p->pid)
		close(p->fd_out);
	if (p->fd_err >= 0 && p->pid)
		close(p->fd_err);
	free(p->out);
	free(p->err);
	p->out = p->err = NULL;
}
