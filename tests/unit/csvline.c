/* One CSV line split in place: quotes, doubled quotes, spaces, errors;
 * strict numbers. */
#include <string.h>

#include "hq/csvline.h"
#include "tap.h"

static int
split(const char *text, char **f, char *buf, struct hq_err *e)
{
	size_t len = strlen(text);

	memcpy(buf, text, len + 1);
	return hq_csvline_split(buf, len, ',', f, 8, e);
}

int
main(void)
{
	char buf[256], *f[8];
	struct hq_err e;
	double v;

	is_int(split("a,b,c", f, buf, &e), 3, "three fields");
	is_str(f[2], "c", "the last");
	is_int(split(" a , \"b, c\" ,d\r", f, buf, &e), 3, "a quoted comma, spaces, CR");
	is_str(f[0], "a", "trimmed");
	is_str(f[1], "b, c", "quoted");
	is_str(f[2], "d", "CR dropped");
	is_int(split("\"say \"\"hi\"\"\",x", f, buf, &e), 2, "doubled quotes");
	is_str(f[0], "say \"hi\"", "unquoted");
	is_int(split("a,,", f, buf, &e), 3, "empty fields count");
	is_str(f[1], "", "empty");
	is_int(split("", f, buf, &e), 1, "an empty line is one empty field");
	is_int(split("\"open,b", f, buf, &e), -1, "a quote not closed");
	is_str(e.msg, "field 1: quote not closed on this line", "says so");
	is_int(split("\"a\"b,c", f, buf, &e), -1, "text after a closing quote");
	is_int(split("1,2,3,4,5,6,7,8,9", f, buf, &e), -1, "more fields than room");

	char *hdr[] = { "Date", "Ref Low", "ref-high" };
	is_int(hq_csvline_column(hdr, 3, "ref_low"), 1, "column: case, space as _");
	is_int(hq_csvline_column(hdr, 3, "ref_high"), 2, "column: - as _");
	is_int(hq_csvline_column(hdr, 3, "unit"), -1, "column: absent");

	ok(hq_csvline_number("5.2", &v) == 0 && v == 5.2, "5.2");
	ok(hq_csvline_number("-1e3 ", &v) == 0 && v == -1000, "-1e3");
	ok(hq_csvline_number(".5", &v) == 0 && v == 0.5, ".5");
	is_int(hq_csvline_number("1.2.3", &v), -1, "1.2.3");
	is_int(hq_csvline_number("nan", &v), -1, "nan");
	is_int(hq_csvline_number("0x1p3", &v), -1, "hex");
	is_int(hq_csvline_number("1e999", &v), -1, "overflow");
	is_int(hq_csvline_number("", &v), -1, "empty");
	is_int(hq_csvline_number("5,2", &v), -1, "a decimal comma");
	return done_testing();
}
