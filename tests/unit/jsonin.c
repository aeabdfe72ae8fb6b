/* jsonin: JSON read whole, and the stream that splits a top-level
 * object's array into its elements (what reads a FHIR Bundle's entries
 * one at a time), fed in pieces of every size: each case reads the same
 * whatever the size of the pieces, elements and values with their lines,
 * and malformed input fails with file:line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hq/buf.h"
#include "hq/json.h"
#include "hq/jsonin.h"
#include "tap.h"

static struct hq_buf got;

static void
put(char tag, const cJSON *v, long line)
{
	char *s = cJSON_PrintUnformatted(v);

	hq_buf_printf(&got, "%c%ld:%s\n", tag, line, s);
	free(s);
}

static int
element(void *arg, const cJSON *v, long line, struct hq_err *e)
{
	(void)arg;
	put('E', v, line);
	/* A callback's error stops the stream as it set it. */
	if (cJSON_IsString(v) && strcmp(v->valuestring, "stop") == 0) {
		hq_err_set(e, "stopped at %ld", line);
		return -1;
	}
	return 0;
}

static int
value(void *arg, const cJSON *v, long line, struct hq_err *e)
{
	(void)arg, (void)e;
	put('V', v, line);
	return 0;
}

/* As FHIR does: the first "entry" of an object whose resourceType, so
 * far, is "Bundle". */
static int
split(void *arg, const cJSON *obj, const char *key)
{
	const char *type = hq_json_str(obj, "resourceType");

	(void)arg;
	return strcmp(key, "entry") == 0 &&
	    !cJSON_GetObjectItemCaseSensitive(obj, "entry") &&
	    type && strcmp(type, "Bundle") == 0;
}

static const struct hq_jsonin_stream_cb cb = {
	.split = split, .element = element, .value = value,
	.element_what = "an entry",
};

static const struct hq_jsonin_stream_cb top_cb = {
	.element = element, .value = value, .element_what = "a scan",
	.split_top = 1,
};
static const struct hq_jsonin_stream_cb *cbp = &cb;

static struct hq_jsonin_limits lim = {
	.element_bytes = 1 << 20, .value_bytes = 1 << 20,
	.element_values = 1 << 20, .value_values = 1 << 20,
};
static struct hq_buf out;

/* What the stream made of text fed chunk bytes at a time (0: whole): the
 * log of elements and values, then "ERR msg" on an error. Static. */
static const char *
run(const char *text, size_t len, size_t chunk)
{
	struct hq_jsonin_stream *s = hq_jsonin_stream_new("t.json", &lim, cbp,
	    NULL);
	struct hq_err e = { { 0 } };
	size_t off = 0;
	long n = 0;

	hq_buf_reset(&got);
	hq_buf_append(&got, "", 0);
	if (!chunk)
		chunk = len ? len : 1;
	for (; off < len; off += chunk) {
		size_t k = len - off < chunk ? len - off : chunk;
		if ((n = hq_jsonin_stream_feed(s, text + off, k, &e)) < 0)
			break;
	}
	if (n >= 0)
		n = hq_jsonin_stream_end(s, &e);
	hq_jsonin_stream_free(s);
	hq_buf_reset(&out);
	hq_buf_printf(&out, "%s", got.data);
	if (n < 0)
		hq_buf_printf(&out, "ERR %s", e.msg);
	return out.data;
}

static const size_t chunks[] = { 1, 2, 3, 5, 7, 13, 64, 0 };

/* text reads as want in pieces of every size. */
static void
reads(const char *text, const char *want, const char *what)
{
	size_t len = strlen(text);
	int same = 1;

	for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++) {
		const char *r = run(text, len, chunks[i]);
		if (strcmp(r, want) != 0) {
			printf("# %zu-byte pieces:\n# got  %s\n# want %s\n",
			    chunks[i], r, want);
			same = 0;
			break;
		}
	}
	ok(same, "%s", what);
}

/* Whole-file reading and the stream agree on a value that is not split. */
static int
whole(void *arg, const cJSON *v, long line, struct hq_err *e)
{
	(void)e;
	char *s = cJSON_PrintUnformatted(v);

	hq_buf_printf(arg, "V%ld:%s\n", line, s);
	free(s);
	return 0;
}

static void
same_as_whole(const char *text, const char *what)
{
	struct hq_buf b = { 0 };
	struct hq_err e;

	hq_buf_append(&b, "", 0);
	if (hq_jsonin_each(text, strlen(text), "t.json", 0, whole, &b, &e) < 0)
		hq_buf_printf(&b, "ERR %s", e.msg);
	reads(text, b.data, what);
	hq_buf_free(&b);
}

static void
splits(void)
{
	reads("{\"resourceType\":\"Bundle\",\"entry\":[{\"a\":1},{\"b\":\"x]}\\\"{[\"}]}",
	    "E1:{\"a\":1}\nE1:{\"b\":\"x]}\\\"{[\"}\nV1:{\"resourceType\":\"Bundle\",\"entry\":[]}\n",
	    "a Bundle's entries one by one; brackets and an escaped quote in a string");
	reads("{\"resourceType\":\"Bundle\",\"entry\":[{\"s\":\"\\u0041\\u00e9 \\\\\\\" ] \\ud83d\\ude00\"}]}",
	    "E1:{\"s\":\"A\xc3\xa9 \\\\\\\" ] \xf0\x9f\x98\x80\"}\nV1:{\"resourceType\":\"Bundle\",\"entry\":[]}\n",
	    "\\u escapes, a surrogate pair, an escaped backslash before a quote");
	reads("{\"resourceType\":\"Bundle\",\"entry\":[]}",
	    "V1:{\"resourceType\":\"Bundle\",\"entry\":[]}\n", "an empty entry array");
	reads("{ \"resourceType\" : \"Bundle\" , \"entry\" : [ \n\t ] }",
	    "V1:{\"resourceType\":\"Bundle\",\"entry\":[]}\n", "an empty one with white space");
	reads("{\"resourceType\":\"Bundle\",\"id\":\"entry\",\"entry\":\"entry\"}",
	    "V1:{\"resourceType\":\"Bundle\",\"id\":\"entry\",\"entry\":\"entry\"}\n",
	    "\"entry\" as a string value: nothing split");
	reads("{\"resourceType\":\"Bundle\",\"meta\":{\"entry\":[1],\"x\":{\"entry\":[2]}},\"entry\":[3]}",
	    "E1:3\nV1:{\"resourceType\":\"Bundle\",\"meta\":{\"entry\":[1],\"x\":{\"entry\":[2]}},\"entry\":[]}\n",
	    "\"entry\" deeper down is not the Bundle's");
	reads("{\"type\":\"collection\",\"entry\":[1,2],\"resourceType\":\"Bundle\",\"total\":2}",
	    "V1:{\"type\":\"collection\",\"entry\":[1,2],\"resourceType\":\"Bundle\",\"total\":2}\n",
	    "entries before resourceType: held, read with the object");
	reads("{\"type\":\"collection\",\"resourceType\":\"Bundle\",\"entry\":[1],\"total\":1}",
	    "E1:1\nV1:{\"type\":\"collection\",\"resourceType\":\"Bundle\",\"entry\":[],\"total\":1}\n",
	    "keys in another order, members after the entries");
	reads("{\"resourceType\":\"Observation\",\"entry\":[1]}",
	    "V1:{\"resourceType\":\"Observation\",\"entry\":[1]}\n",
	    "no Bundle: nothing split");
	reads("{\"resourceType\":\"Bundle\",\"entry\":[1],\"entry\":[2]}",
	    "E1:1\nV1:{\"resourceType\":\"Bundle\",\"entry\":[],\"entry\":[2]}\n",
	    "only the first entry array (the one cJSON finds)");
	reads("{\"resourceType\":\"Bundle\",\"entry\":{\"a\":1}}",
	    "V1:{\"resourceType\":\"Bundle\",\"entry\":{\"a\":1}}\n",
	    "an entry that is no array: not split");
	reads("{\"resourceType\":\"Bundle\",\"\\u0065ntry\":[1]}",
	    "E1:1\nV1:{\"resourceType\":\"Bundle\",\"entry\":[]}\n",
	    "a key written with an escape is that key");
	reads("\xEF\xBB\xBF{\"resourceType\":\"Bundle\",\"entry\":[\"a\",null,true,-1.5e3,[]]}",
	    "E1:\"a\"\nE1:null\nE1:true\nE1:-1500\nE1:[]\nV1:{\"resourceType\":\"Bundle\",\"entry\":[]}\n",
	    "a byte-order mark; elements of every kind");
	reads("{\"resourceType\":\"Bundle\",\n\"entry\":[\n{\"a\":1},\n{\"b\":\n2}\n\n, 3]}\n"
	    "{\"resourceType\":\"Observation\"}\n[1,\n2] \"s\" 3\n{}\n",
	    "E3:{\"a\":1}\nE4:{\"b\":2}\nE7:3\nV1:{\"resourceType\":\"Bundle\",\"entry\":[]}\n"
	    "V8:{\"resourceType\":\"Observation\"}\nV9:[1,2]\nV10:\"s\"\nV10:3\nV11:{}\n",
	    "lines of elements and of values one after another");
	reads("1 2", "V1:1\nV1:2\n", "numbers at the end of the file");
	reads("", "", "nothing");
	reads("{\"resourceType\":\"Bundle\",\"entry\":[\"stop\",2]}",
	    "E1:\"stop\"\nERR stopped at 1", "a callback's error stops the stream");
}

static void
agrees(void)
{
	same_as_whole("{\"resourceType\":\"Observation\",\"id\":\"x\",\"valueQuantity\":{\"value\":1.5e2,\"unit\":\"mg/dL\"},"
	    "\"a\":[1,{\"b\":[null,false]}],\"a\":\"dup\"}", "an Observation read as a whole-file parse reads it");
	same_as_whole("\n\n{\"resourceType\":\"DiagnosticReport\",\"contained\":[{\"resourceType\":\"Observation\"}]}\n"
	    "{\"x\":\"\\u00e9\\n\\\"\"}\r\n", "two documents, their lines");
	same_as_whole("{}{} []\"a\"1 2\n3", "values without separators");
	same_as_whole("{\"a\":\"x\"\f}", "white space cJSON skips inside values");
	same_as_whole("[1,]", "a trailing comma: not valid");
	same_as_whole("{\"a\":1}\f", "a form feed at the end: not valid, as whole");
}

static void
malformed(void)
{
	char *deep, *big;
	struct hq_buf b = { 0 };

	reads("{\"resourceType\":\"Bundle\",\"entry\":[{\"a\":1},",
	    "E1:{\"a\":1}\nERR t.json:1: not valid JSON: the file ends inside it",
	    "a truncated Bundle");
	reads("{\"resourceType\":\"Bundle\",\"entry\":[\n{\"a\":1},\n{\"a\":tru},\n{\"a\":2}]}",
	    "E2:{\"a\":1}\nERR t.json:3: not valid JSON", "a broken entry in the middle: its line");
	reads("{\"resourceType\":\"Bundle\",\"entry\":[\n{\"a\":1},\n{\"a\":\n\n\"x\"}}, 3]}",
	    "E2:{\"a\":1}\nE3:{\"a\":\"x\"}\nERR t.json:5: not valid JSON",
	    "an entry with a stray bracket: read to its end, then refused there");
	reads("{\"resourceType\":\"Bundle\",\"entry\":[]}\nxyz",
	    "V1:{\"resourceType\":\"Bundle\",\"entry\":[]}\nERR t.json:2: not valid JSON",
	    "garbage after the document");
	reads("{\"resourceType\":\"Bundle\",\"entry\":[]}\n\n,",
	    "V1:{\"resourceType\":\"Bundle\",\"entry\":[]}\nERR t.json:3: not valid JSON",
	    "a comma after the document");
	reads("{\"resourceType\":\"Bundle\",\"entry\":[]}]",
	    "V1:{\"resourceType\":\"Bundle\",\"entry\":[]}\nERR t.json:1: not valid JSON",
	    "a bracket after the document");
	reads("{\"resourceType\":\"Bundle\",\n\"meta\":{\"a\":},\"entry\":[1]}",
	    "ERR t.json:2: not valid JSON", "a malformed value that is no entry");
	reads("{\"resourceType\":\"Bundle\",\"entry\":[{\"a\":\"\\q\"}]}",
	    "ERR t.json:1: not valid JSON", "a bad escape");
	reads("{\"resourceType\":\"Bundle\",\"entry\":[{\"a\":\"\\u12\"}]}",
	    "ERR t.json:1: not valid JSON", "a short \\u escape");
	reads("{\"resourceType\":\"Bundle\",\"entry\":[\"\\ud800\"]}",
	    "ERR t.json:1: not valid JSON", "a lone surrogate");
	reads("{\"resourceType\":\"Bundle\",\"entry\":[1,]}",
	    "E1:1\nERR t.json:1: not valid JSON", "a trailing comma among entries");
	reads("{\"resourceType\":\"Bundle\",\"entry\":[1 2]}",
	    "E1:1\nERR t.json:1: not valid JSON", "entries without a comma");
	reads("{\"resourceType\":\"Bundle\",\"entry\":[1x]}",
	    "ERR t.json:1: not valid JSON", "a number with a tail");
	reads("{\"a\":1,}", "ERR t.json:1: not valid JSON", "a trailing comma among members");
	reads("{\"a\" 1}", "ERR t.json:1: not valid JSON", "no colon");
	reads("{1:2}", "ERR t.json:1: not valid JSON", "a key that is no string");
	reads("{\"a\":1\n\"b\":2}", "ERR t.json:2: not valid JSON", "members without a comma");
	reads("{\"a\":\"x", "ERR t.json:1: not valid JSON: the file ends inside it",
	    "a file ending in a string");
	reads("\xEF\xBB{}", "ERR t.json:1: not valid JSON", "half a byte-order mark");

	/* 62 brackets in an entry are 64 levels with the object and the
	 * entry array; 63 are too many, named where they are. */
	hq_buf_puts(&b, "{\"resourceType\":\"Bundle\",\"entry\":[\n");
	for (int i = 0; i < 62; i++)
		hq_buf_putc(&b, '[');
	for (int i = 0; i < 62; i++)
		hq_buf_putc(&b, ']');
	hq_buf_puts(&b, "]}");
	like(run(b.data, b.len, 1), "^E2:\\[\\[\\[", "64 levels: read");
	hq_buf_reset(&b);
	hq_buf_puts(&b, "{\"resourceType\":\"Bundle\",\"entry\":[\n1,\n");
	for (int i = 0; i < 63; i++)
		hq_buf_putc(&b, '[');
	deep = hq_buf_steal(&b);
	reads(deep, "E2:1\nERR t.json:3: JSON nested deeper than 64 levels",
	    "65 levels inside an entry: refused before parsing, at its line");
	free(deep);
	hq_buf_puts(&b, "{\"resourceType\":\"Bundle\",\"meta\":\n");
	for (int i = 0; i < 64; i++)
		hq_buf_putc(&b, '{');
	deep = hq_buf_steal(&b);
	reads(deep, "ERR t.json:2: JSON nested deeper than 64 levels",
	    "and inside a member that is no entry");
	free(deep);
	hq_buf_puts(&b, "\n");
	for (int i = 0; i < 70; i++)
		hq_buf_putc(&b, '[');
	deep = hq_buf_steal(&b);
	reads(deep, "ERR t.json:2: JSON nested deeper than 64 levels",
	    "and in a top-level array");
	free(deep);

	lim.element_bytes = 64;
	lim.value_bytes = 128;
	hq_buf_puts(&b, "{\"resourceType\":\"Bundle\",\"entry\":[\n1,\n{\"a\":\"");
	for (int i = 0; i < 100; i++)
		hq_buf_putc(&b, 'x');
	hq_buf_puts(&b, "\"}]}");
	big = hq_buf_steal(&b);
	reads(big, "E2:1\nERR t.json:3: an entry larger than 64 bytes",
	    "an entry past its bound: named at its line");
	free(big);
	hq_buf_puts(&b, "{\"resourceType\":\"Bundle\",\"entry\":[");
	for (int i = 0; i < 100; i++)
		hq_buf_puts(&b, i ? ",{\"a\":\"0123456789\"}" : "{\"a\":\"0123456789\"}");
	hq_buf_puts(&b, "]}");
	big = hq_buf_steal(&b);
	like(run(big, strlen(big), 7), "^E1:.*\nV1:.*\\[\\]\\}\n$",
	    "a hundred entries, each under the bound, though all of them are not");
	free(big);
	hq_buf_puts(&b, "{\"resourceType\":\"Bundle\",\n\"a\":\"0123456789012345678901234567890123456789\",\n"
	    "\"b\":\"0123456789012345678901234567890123456789\",\n\"c\":\"0123456789012345678901234567890123456789\",\n\"entry\":[]}");
	big = hq_buf_steal(&b);
	reads(big, "ERR t.json:4: JSON value larger than 128 bytes",
	    "the members that are no entry, past their bound together");
	free(big);
	lim.element_bytes = lim.value_bytes = 1 << 20;

	/* Values counted: what cJSON's tree costs, whatever the bytes. */
	lim.element_values = 4;
	lim.value_values = 6;
	reads("{\"resourceType\":\"Bundle\",\"entry\":[\n[1,2,3],\n[1,2,3,4]]}",
	    "E2:[1,2,3]\nERR t.json:3: an entry of more than 4 values",
	    "an entry of more values than its bound (4: [1,2,3] is 4)");
	reads("{\"resourceType\":\"Bundle\",\"entry\":[\n[[[]]],\n{\"a\":{}}]}",
	    "E2:[[[]]]\nE3:{\"a\":{}}\nV1:{\"resourceType\":\"Bundle\",\"entry\":[]}\n",
	    "brackets count as values");
	reads("{\"resourceType\":\"Bundle\",\"a\":[1,2],\n\"b\":[3],\"entry\":[]}",
	    "ERR t.json:2: JSON value of more than 6 values",
	    "the rest of a value past its count: the object, its members, their values");
	reads("[1,2,3,4,5]", "V1:[1,2,3,4,5]\n", "a top-level array of 6 values");
	reads("\n[1,2,3,4,5,6]", "ERR t.json:2: JSON value of more than 6 values", "and of 7");
	lim.element_values = lim.value_values = 1 << 20;
	hq_buf_free(&b);
}

static void
scan(void)
{
	struct hq_jsonin_scan s = { .max = 64, .stop = 0 };
	const char *t = "[\"]\\\"\", {\"a\":\n[]}] tail";
	size_t k = 0;

	/* A byte at a time, as any piece of a file may end anywhere. */
	while (!s.done && k < strlen(t))
		k += hq_jsonin_scan(&s, t + k, 1);
	is_int((long)k, (long)strlen(t) - 5, "a scan ends past the closing bracket");
	is_int(s.lines, 1, "and counted the newline");
}

/* A top-level array split (a file of DEXA scans), and runs of white
 * space bounded as a value is (an endless one ends). */
static void
top_splits(void)
{
	struct hq_buf b = { 0 };
	char *deep;

	cbp = &top_cb;
	reads("[1,\n{\"a\":2},\n[3]]", "E1:1\nE2:{\"a\":2}\nE3:[3]\n",
	    "a top-level array: each element alone, at its line");
	reads("[]", "", "an empty one: nothing");
	reads("[1]\n[2] {\"a\":[1]}", "E1:1\nE2:2\nV2:{\"a\":[1]}\n",
	    "arrays one after another; an object is a value, its arrays whole");
	reads("[1,\n2", "E1:1\nERR t.json:2: not valid JSON: the file ends inside it",
	    "a file that ends inside the array");
	reads("[1,]", "E1:1\nERR t.json:1: not valid JSON", "a stray comma");
	for (int i = 0; i < 70; i++)
		hq_buf_putc(&b, '[');
	deep = hq_buf_steal(&b);
	reads(deep, "ERR t.json:1: JSON nested deeper than 64 levels",
	    "nesting counts the array split");
	free(deep);
	lim.element_bytes = 8;
	reads("[1,\n\"0123456789\"]", "E1:1\nERR t.json:2: a scan larger than 8 bytes",
	    "an element past its bound: named at its line");
	lim.element_bytes = 1 << 20;
	lim.value_bytes = 8;
	reads("[1,        2]", "E1:1\nE1:2\n", "8 bytes of white space");
	reads("[1,\n\n\n\n\n\n\n\n\n2]", "E1:1\nERR t.json:9: more than 8 bytes of white space",
	    "9: past the bound of a value, at the line it is passed on");
	reads("         ", "ERR t.json:1: more than 8 bytes of white space",
	    "at the top level too");
	cbp = &cb;
	lim.value_bytes = 40;
	hq_buf_puts(&b, "{\"resourceType\":\"Bundle\",\"entry\":[1,");
	for (int i = 0; i < 41; i++)
		hq_buf_putc(&b, ' ');
	hq_buf_puts(&b, "2]}");
	deep = hq_buf_steal(&b);
	reads(deep, "E1:1\nERR t.json:1: more than 40 bytes of white space",
	    "between a split array's elements");
	free(deep);
	lim.value_bytes = 1 << 20;
}

int
main(void)
{
	scan();
	splits();
	top_splits();
	agrees();
	malformed();
	hq_buf_free(&got);
	hq_buf_free(&out);
	return done_testing();
}
