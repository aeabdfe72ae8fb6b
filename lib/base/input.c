#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <archive.h>

#include "hq/input.h"
#include "hq/utf8.h"

/* How much of a file sniffing sees. */
#define SNIFF_SIZE 65536

size_t
hq_input_skip_space(const unsigned char *p, size_t n)
{
	size_t i = 0;

	if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
		i = 3;
	while (i < n && isspace(p[i]))
		i++;
	return i;
}

/* The first bytes, up to SNIFF_SIZE (fewer only at the end). 0 or -1. */
static int
read_prefix(struct hq_input *in, struct hq_err *e)
{
	ssize_t n;

	in->prebuf = hq_xmalloc(SNIFF_SIZE);
	in->pre = in->prebuf;
	while (in->prelen < SNIFF_SIZE) {
		do
			n = read(in->fd, in->prebuf + in->prelen,
			    SNIFF_SIZE - in->prelen);
		while (n < 0 && errno == EINTR);
		if (n < 0) {
			hq_err_set(e, "%s: %s", in->name, strerror(errno));
			return -1;
		}
		if (n == 0)
			break;
		in->prelen += (size_t)n;
	}
	return 0;
}

int
hq_input_open(struct hq_input *in, const char *path, struct hq_err *e)
{
	struct stat st;

	*in = (struct hq_input){ .fd = -1, .name = path };
	if (strcmp(path, "-") == 0)
		in->fd = 0;
	else if ((in->fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		hq_err_set(e, "cannot open %s: %s", path, strerror(errno));
		return -1;
	} else
		in->close_fd = 1;
	if (fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode))
		in->size = (uint64_t)st.st_size;
	else if (in->fd != 0 && S_ISDIR(st.st_mode)) {
		hq_err_set(e, "%s is a directory: give the export.zip or export.xml "
		    "inside it", path);
		goto fail;
	}
	if (read_prefix(in, e))
		goto fail;
	return 0;
fail:
	hq_input_close(in);
	return -1;
}

void
hq_input_close(struct hq_input *in)
{
	if (in->close_fd)
		close(in->fd);
	free(in->prebuf);
	*in = (struct hq_input){ .fd = -1 };
}

int
hq_input_rewind(struct hq_input *in)
{
	if (in->fd < 0) {
		errno = ESPIPE;
		return -1;
	}
	if (lseek(in->fd, 0, SEEK_SET) != 0)
		return -1;
	in->prelen = in->prepos = 0;
	in->bytes = 0;
	return 0;
}

void
hq_input_entry(struct hq_input *in, struct archive *ar, const char *name)
{
	*in = (struct hq_input){ .fd = -1, .ar = ar, .name = name };
}

void
hq_input_stream(struct hq_input *in, hq_input_fn *fn, void *arg,
    const char *name)
{
	*in = (struct hq_input){ .fd = -1, .fn = fn, .arg = arg, .name = name };
}

ssize_t
hq_input_read(struct hq_input *in, void *buf, size_t n)
{
	ssize_t r;

	if (in->prepos < in->prelen) {
		size_t k = in->prelen - in->prepos;
		if (k > n)
			k = n;
		memcpy(buf, in->pre + in->prepos, k);
		in->prepos += k;
		in->bytes += k;
		return (ssize_t)k;
	}
	if (in->fn)
		r = in->fn(in->arg, buf, n, &in->why);
	else if (in->ar)
		r = archive_read_data(in->ar, buf, n);
	else
		do
			r = read(in->fd, buf, n);
		while (r < 0 && errno == EINTR);
	if (r < 0)
		in->err = in->fn ? EIO : in->ar ? 0 : errno;
	else
		in->bytes += (uint64_t)r;
	return r < 0 ? -1 : r;
}

const char *
hq_input_strerror(const struct hq_input *in)
{
	if (in->fn)
		return in->why ? in->why : strerror(in->err);
	if (in->ar)
		return archive_error_string(in->ar) ? archive_error_string(in->ar)
		    : "cannot read the zip entry";
	return strerror(in->err);
}

void
hq_input_lines_start(struct hq_input_lines *l, struct hq_input *in,
    size_t max)
{
	l->in = in;
	l->max = max;
	l->lineno = 0;
	l->line = (struct hq_buf){ 0 };
	l->too_long = l->eof = l->stopped = 0;
	l->pos = l->len = 0;
}

int
hq_input_lines_next(struct hq_input_lines *l, struct hq_err *e)
{
	hq_buf_reset(&l->line);
	hq_buf_append(&l->line, "", 0);   /* data is a string even when empty */
	l->too_long = 0;
	if (l->stopped)
		return 0;
	for (;;) {
		if (l->pos == l->len) {
			if (l->eof) {
				/* A last line without its newline. */
				if (!l->line.len)
					return 0;
				l->lineno++;
				return 1;
			}
			ssize_t n = hq_input_read(l->in, l->buf, sizeof l->buf);
			if (n < 0) {
				hq_err_set(e, "%s: %s", l->in->name,
				    hq_input_strerror(l->in));
				return -1;
			}
			l->eof = n == 0;
			l->pos = 0;
			l->len = (size_t)n;
			continue;
		}
		char *nl = memchr(l->buf + l->pos, '\n', l->len - l->pos);
		size_t k = nl ? (size_t)(nl - (l->buf + l->pos)) : l->len - l->pos;
		long at = l->lineno + 1;
		if (l->line.len + k > l->max) {
			/* Past the bound: said now, not at a newline that may
			 * never come (/dev/zero); the lines end here. */
			l->too_long = 1;
			l->stopped = 1;
			hq_buf_reset(&l->line);
			hq_buf_append(&l->line, "", 0);
			l->lineno++;
			return 1;
		}
		if (hq_text_check(l->buf + l->pos, k, l->in->name, &at, e))
			return -1;
		hq_buf_append(&l->line, l->buf + l->pos, k);
		l->pos += k + (nl ? 1 : 0);
		if (nl) {
			l->lineno++;
			return 1;
		}
	}
}

void
hq_input_lines_end(struct hq_input_lines *l)
{
	hq_buf_free(&l->line);
}
