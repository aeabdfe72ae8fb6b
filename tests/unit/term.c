/* term: what a model or a file says reaches a terminal escaped */
#include <stdlib.h>
#include <string.h>

#include "hq/term.h"
#include "tap.h"

static const char *
esc(struct hq_buf *b, const char *s, size_t n, int flags)
{
	hq_buf_reset(b);
	hq_buf_puts(b, "");
	hq_term_escape(b, s, n, flags);
	return b->data;
}

#define ESC(s, flags) esc(&b, s, sizeof s - 1, flags)

/* hq_term_wrap into a string */
static char *
wrap(const char *label, size_t indent, size_t hang, const char *text, size_t width)
{
	static char *out;
	size_t len;
	FILE *fp;

	free(out);
	fp = open_memstream(&out, &len);
	hq_term_wrap(fp, label, indent, hang, text, width);
	fclose(fp);
	return out;
}

static void
test_wrap(void)
{
	/* the old wrapper broke "p\n= 0.0069": 16 columns fit "aaaa bbbb cccc p" */
	is_str(wrap("", 0, 2, "aaaa bbbb cccc p = 0.0069 dddd", 16),
	    "aaaa bbbb cccc\n  p = 0.0069\n  dddd\n", "wrap: p = 0.0069 kept on one line");
	is_str(wrap("", 0, 2, "xx (6.5 vs 7.3), n = 83 vs 116, g = -1.14", 20),
	    "xx (6.5 vs 7.3),\n  n = 83 vs 116,\n  g = -1.14\n",
	    "wrap: n = 83 and g = -1.14 whole");
	is_str(wrap("", 0, 2, "xx (6.5 vs 7.3), n = 83 vs 116, g = -1.14 and", 18),
	    "xx (6.5 vs 7.3),\n  n = 83 vs 116,\n  g = -1.14 and\n", "wrap: g = -1.14 whole when it fits");
	is_str(wrap("", 0, 2, "a <= 5 b", 6), "a <= 5\n  b\n", "wrap: <= glues too");
	is_str(wrap("", 0, 2, "one two three four five six seven eight nine ten \x1b[31mred", 20),
	    "one two three four\n  five six seven\n  eight nine ten\n  ?[31mred\n",
	    "wrap: continuation indented; an escape from a file's name not sent");
	is_str(wrap("question", 10, 10, "How many steps did I walk", 24),
	    "question  How many steps\n          did I walk\n", "wrap: a label, lines under the text");
	is_str(wrap("", 2, 2, "one\n\ntwo three\n", 12), "  one\n\n  two three\n",
	    "wrap: line ends kept, a blank line without spaces, no extra line end");
	is_str(wrap("", 0, 2, "abcdefghijklmnopqrstuvwxyz", 12), "abcdefghijk…\n",
	    "wrap: a word wider than the line cut with …");
	is_str(wrap("", 0, 0, "", 20), "\n", "wrap: empty text, one line end");
}

int
main(void)
{
	struct hq_buf b = {0};

	is_str(ESC("steps: 8123 (ok) é ✓ 步", 0), "steps: 8123 (ok) é ✓ 步", "printable text and UTF-8 pass");
	/* the spoof of the consent prompt: erase the line, go up, print another */
	is_str(ESC("/etc/passwd\r\x1b[2K\x1b[1A\x1b[2K  hq-query --list", 0),
	    "/etc/passwd\\r\\x1b[2K\\x1b[1A\\x1b[2K  hq-query --list", "CR and ESC escaped");
	is_str(ESC("a\nb\tc\x7f\x07\x08", 0), "a\\nb\\tc\\x7f\\x07\\x08", "LF, tab, DEL, BEL, BS escaped");
	is_str(ESC("a\nb\tc\r", HQ_TERM_LINES), "a\nb\tc\\r", "LINES keeps LF and tab, never CR");
	is_str(ESC("a\0b", 0), "a\\x00b", "NUL escaped");
	is_str(ESC("C:\\x1b", 0), "C:\\x1b", "a backslash as it is by default");
	is_str(ESC("C:\\x1b", HQ_TERM_BACKSLASH), "C:\\\\x1b", "BACKSLASH doubles it: escapes read back");
	/* U+009B (CSI), as UTF-8 C2 9B, and a raw 0x9B byte */
	is_str(ESC("\xc2\x9b" "31m|\x9b" "31m", 0), "\\u009b31m|\\x9b31m", "C1 control and a lone C1 byte escaped");
	/* "exe.txt" written backwards by RIGHT-TO-LEFT OVERRIDE */
	is_str(ESC("invoice\xe2\x80\xaetxt.exe", 0), "invoice\\u202etxt.exe", "bidi override escaped");
	is_str(ESC("\xe2\x81\xa6x\xe2\x81\xa9\xe2\x80\x8f\xd8\x9c", 0), "\\u2066x\\u2069\\u200f\\u061c",
	    "bidi isolates and marks escaped");
	is_str(ESC("a\xe2\x80\xa8" "b\xe2\x80\xa9" "c", HQ_TERM_LINES), "a\\u2028b\\u2029c",
	    "line and paragraph separators escaped");
	is_str(ESC("ex\xc2\xad" "port\xe2\x80\x8b.zip\xef\xbb\xbf", 0), "ex\\u00adport\\u200b.zip\\ufeff",
	    "invisible characters escaped (two names that look alike do not)");
	is_str(ESC("\xf3\xa0\x81\x81", 0), "\\U000e0041", "Unicode tag characters escaped");
	is_str(ESC("\xc0\xaf|\xed\xa0\x80|\xf4\x90\x80\x80|\xe2\x82", 0),
	    "\\xc0\\xaf|\\xed\\xa0\\x80|\\xf4\\x90\\x80\\x80|\\xe2\\x82",
	    "overlong, surrogate, past U+10FFFF and cut sequences: bytes escaped");
	is_str(ESC("\xf0\x9f\x91\x8d\xe2\x9d\xa4\xef\xb8\x8f", 0), "\xf0\x9f\x91\x8d\xe2\x9d\xa4\xef\xb8\x8f",
	    "emoji and variation selectors pass");

	is_str(hq_term_text(&b, "short", 10, 0), "short", "text: short text whole");
	is_str(hq_term_text(&b, NULL, 10, 0), "", "text: NULL is empty");
	is_str(hq_term_text(&b, "abcdefghij\x1bk", 4, 0), "abcd... (12 bytes)", "text: cut, with the length");
	is_str(hq_term_text(&b, "ab\xc3\xa9\xc3\xa9", 3, 0), "ab... (6 bytes)", "text: cut at a character");
	hq_buf_free(&b);
	test_wrap();
	/* issue 23: a field quoted in a message, 40 characters at most */
	{
		char x[HQ_TERM_EXCERPT_SIZE], big[5000];
		is_str(hq_term_excerpt(x, sizeof x, "2024-W14"), "2024-W14", "a short field as it is");
		memset(big, 'S', sizeof big - 1);
		big[sizeof big - 1] = '\0';
		hq_term_excerpt(x, sizeof x, big);
		is_int((int)strlen(x), 43, "a long one: 40 characters and ...");
		ok(strcmp(x + 40, "...") == 0, "ending in ...");
		is_str(hq_term_excerpt(x, sizeof x, "a\033[2Jb\\c\n"), "a\\x1b[2Jb\\\\c\\n",
		    "escaped: controls, and a backslash doubled");
		char u[200] = "";
		for (int k = 0; k < 50; k++)
			strcat(u, "\xC3\xA9");
		hq_term_excerpt(x, sizeof x, u);
		ok(strlen(x) == 83 && !strcmp(x + 80, "..."), "40 characters, not 40 bytes: no character cut (%zu)", strlen(x));
		char tiny[8];
		is_str(hq_term_excerpt(tiny, sizeof tiny, big), "SSSS...", "a small buffer still ends in ...");
	}
	return done_testing();
}
