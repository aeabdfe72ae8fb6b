/* Unit tests for lib/base/utf8.c: well-formed UTF-8 (RFC 3629), repaired,
 * and UTF-16 made UTF-8 as a stream; text made safe for a terminal; and
 * JSON strings that are always valid. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/term.h"
#include "hq/utf8.h"
#include "tap.h"

static int
valid(const char *s)
{
	return hq_utf8_valid(s, strlen(s));
}

static char *
escaped(const char *s)
{
	struct hq_buf b = {0};

	hq_term_escape(&b, s, strlen(s), 0);
	return hq_buf_steal(&b);
}

static char *
json(const char *s)
{
	struct hq_buf b = {0};

	hq_buf_json_str(&b, s);
	return hq_buf_steal(&b);
}

int
main(void)
{
	char *p, small[8];

	ok(valid("plain ASCII"), "ASCII");
	ok(valid("Z\xc3\xbcrich \xce\xa9 \xe2\x82\xac \xf0\x9f\x8f\x83"), "2, 3 and 4-byte characters");
	ok(valid("\xef\xbf\xbf\xf4\x8f\xbf\xbf"), "U+FFFF and U+10FFFF");
	ok(!valid("\xff\xfe"), "0xFF 0xFE");
	ok(!valid("\x80"), "a lone continuation byte");
	ok(!valid("\xc0\xaf"), "an overlong '/'");
	ok(!valid("\xe0\x80\xaf"), "an overlong 3-byte form");
	ok(!valid("\xf0\x80\x80\xaf"), "an overlong 4-byte form");
	ok(!valid("\xed\xa0\x80"), "a surrogate (U+D800)");
	ok(!valid("\xf4\x90\x80\x80"), "past U+10FFFF");
	ok(!valid("\xf5\x80\x80\x80"), "a lead byte past F4");
	ok(!valid("ok\xe2\x82"), "a character cut short at the end");
	ok(!valid("\xe2\x82x"), "a character cut short in the middle");
	is_int(hq_utf8_char((const unsigned char *)"\xe2\x82\xac", 2), 0, "a length short of the character");
	{
		uint32_t cp = 0;
		is_int(hq_utf8_decode((const unsigned char *)"\xf0\x9f\x8f\x83", 4, &cp), 4, "decode: 4 bytes");
		is_int(cp, 0x1f3c3, "decode: U+1F3C3");
		is_int(hq_utf8_decode((const unsigned char *)"\xc3\xbc", 2, &cp), 2, "decode: 2 bytes");
		is_int(cp, 0xfc, "decode: U+00FC");
		is_int(hq_utf8_decode((const unsigned char *)"\xed\xa0\x80", 3, &cp), 0, "decode: a surrogate is not a character");
	}

	p = escaped("red \x1b[31mtext\x1b[0m");
	is_str(p, "red \\x1b[31mtext\\x1b[0m", "ESC is shown as \\x1b");
	free(p);
	p = escaped("a\r\n\tb\x7f\x01");
	is_str(p, "a\\r\\n\\tb\\x7f\\x01", "CR, LF, tab, DEL and other C0");
	free(p);
	p = escaped("\xc2\x9b" "2J \xc2\xa0nbsp");
	is_str(p, "\\u009b2J \xc2\xa0nbsp", "C1 CSI escaped, U+00A0 kept");
	free(p);
	p = escaped("bad \xff\xfe end \xe2\x82");
	is_str(p, "bad \\xff\\xfe end \\xe2\\x82", "bytes that are not UTF-8 as \\xNN");
	free(p);
	p = escaped("Z\xc3\xbcrich \xf0\x9f\x8f\x83");
	is_str(p, "Z\xc3\xbcrich \xf0\x9f\x8f\x83", "well-formed text is unchanged");
	free(p);
	hq_term_escape_to(small, sizeof small, "ab\x1b[31m");
	is_str(small, "ab\\x1b[", "into a fixed buffer, cut short");
	hq_term_escape_to(small, sizeof small, "abcdef\xc3\xbc");
	is_str(small, "abcdef", "never cut inside a character");

	/* repair: a FIT product name in Latin-1, one cut by its field */
	{
		char buf[16];
		hq_utf8_repair("Edge 8\xe9t\xe9", buf, sizeof buf);
		is_str(buf, "Edge 8\xef\xbf\xbdt\xef\xbf\xbd", "repair: each bad byte becomes U+FFFD");
		ok(valid(buf), "repair: the result is UTF-8");
		hq_utf8_repair("abc\xe2\x82", buf, sizeof buf);
		is_str(buf, "abc\xef\xbf\xbd\xef\xbf\xbd", "repair: a character cut short");
		hq_utf8_repair("abcdefghijklm\xc3\xbc", buf, 15);
		is_str(buf, "abcdefghijklm", "repair: the copy cut at a character's end");
		hq_utf8_repair("Z\xc3\xbcrich", buf, sizeof buf);
		is_str(buf, "Z\xc3\xbcrich", "repair: UTF-8 unchanged");
	}
	/* UTF-16: which order, and decoded a byte at a time as in one go */
	{
		static const unsigned char le[] = "\xff\xfe<\0g\0\xfc\0=\0\x3d\xd8\x03\xdf";
		static const unsigned char be[] = "\xfe\xff\0<\0g\0\xfc\0=\xd8\x3d\xdf\x03";
		char whole[64], bytes[64];
		size_t n = 0;
		struct hq_utf16 u = { .order = HQ_UTF16_LE };
		is_int(hq_utf16_detect(le, 12), HQ_UTF16_LE, "utf16: a little-endian mark");
		is_int(hq_utf16_detect(be, 12), HQ_UTF16_BE, "utf16: a big-endian mark");
		is_int(hq_utf16_detect((const unsigned char *)"<\0?\0", 4), HQ_UTF16_LE, "utf16: '<' as a unit, no mark");
		is_int(hq_utf16_detect((const unsigned char *)"\0<\0?", 4), HQ_UTF16_BE, "utf16: the other order");
		is_int(hq_utf16_detect((const unsigned char *)"<?xml", 5), 0, "utf16: UTF-8 is not");
		whole[hq_utf16_decode(&u, le, sizeof le - 1, whole)] = '\0';
		is_str(whole, "\xef\xbb\xbf<g\xc3\xbc=\xf0\x9f\x9c\x83", "utf16 LE: the mark, ASCII, U+00FC, a surrogate pair");
		u = (struct hq_utf16){ .order = HQ_UTF16_LE };
		for (size_t i = 0; i < sizeof le - 1; i++)
			n += hq_utf16_decode(&u, le + i, 1, bytes + n);
		bytes[n] = '\0';
		is_str(bytes, whole, "utf16: fed a byte at a time, the same");
		u = (struct hq_utf16){ .order = HQ_UTF16_BE };
		bytes[hq_utf16_decode(&u, be, sizeof be - 1, bytes)] = '\0';
		is_str(bytes, whole, "utf16 BE: the same text");
		u = (struct hq_utf16){ .order = HQ_UTF16_LE };
		bytes[hq_utf16_decode(&u, (const unsigned char *)"\x3d\xd8" "a\0\x03\xdf", 6, bytes)] = '\0';
		is_str(bytes, "\xef\xbf\xbd" "a\xef\xbf\xbd", "utf16: unpaired surrogates become U+FFFD");
	}

	p = json("A\xff\xfe" "B \xc3\xbc \x1b");
	is_str(p, "\"A\\ufffd\\ufffdB \xc3\xbc \\u001b\"", "JSON: bad bytes become U+FFFD, controls \\u00XX");
	free(p);
	return done_testing();
}
