/* lib/agent/privacy.c: what a model elsewhere sees of a tool result —
 * positions withheld, serials dropped, names replaced by placeholders that
 * come back in the answer — and every other byte as it was. */
#include <stdlib.h>
#include <string.h>

#include "hq/privacy.h"
#include "tap.h"

/* the text filtered, after its names are learnt; malloc'd */
static char *
filt(struct hq_privacy *p, const char *text)
{
	hq_privacy_learn(p, text);
	return hq_privacy_filter(p, text);
}

static void
check(struct hq_privacy *p, const char *text, const char *want, const char *name)
{
	char *f = filt(p, text);
	is_str(f, want, "%s", name);
	free(f);
}

int
main(void)
{
	struct hq_privacy p;
	struct hq_err e;
	unsigned share = 0;
	enum hq_privacy_mode m;
	char *f, *r, why[256];

	/* local: loopback and Unix sockets; anything else is not */
	ok(hq_privacy_url_is_local("http://127.0.0.1:11434/v1"), "127.0.0.1 is local");
	ok(hq_privacy_url_is_local("http://127.8.9.10/v1"), "127.0.0.0/8 is local");
	ok(hq_privacy_url_is_local("http://localhost:8080"), "localhost is local");
	ok(hq_privacy_url_is_local("http://[::1]:8080/v1"), "[::1] is local");
	ok(hq_privacy_url_is_local("unix:/run/ollama.sock"), "a Unix socket is local");
	ok(!hq_privacy_url_is_local("https://api.openai.com/v1"), "api.openai.com is not");
	ok(!hq_privacy_url_is_local("http://localhost.evil.com/v1"), "localhost.evil.com is not");
	ok(!hq_privacy_url_is_local("http://127.0.0.1.nip.io/v1"), "127.0.0.1.nip.io is not");
	ok(!hq_privacy_url_is_local("http://localhost@evil.com/v1"), "user localhost@ is not");
	ok(!hq_privacy_url_is_local("http://192.168.1.5:11434/v1"), "the LAN is not");
	ok(!hq_privacy_url_is_local("http://0.0.0.0:11434/v1"), "0.0.0.0 is not");
	ok(!hq_privacy_url_is_local(NULL), "no URL is not");
	is_int(hq_privacy_withheld(HQ_PRIVACY_REMOTE, "http://127.0.0.1/v1", 0), 0,
	    "remote + local server: nothing withheld");
	is_int(hq_privacy_withheld(HQ_PRIVACY_REMOTE, "https://api.anthropic.com", 0),
	    HQ_PRIV_ALL, "remote + remote server: all withheld");
	is_int(hq_privacy_withheld(HQ_PRIVACY_ALWAYS, "http://127.0.0.1/v1", HQ_PRIV_NAMES),
	    HQ_PRIV_POSITIONS | HQ_PRIV_SERIALS, "always, names shared");
	is_int(hq_privacy_withheld(HQ_PRIVACY_NEVER, "https://x.example", 0), 0, "never");
	ok(!hq_privacy_parse_share("positions, serials", &share, &e) &&
	    share == (HQ_PRIV_POSITIONS | HQ_PRIV_SERIALS), "--share positions, serials");
	ok(hq_privacy_parse_share("names,address", &share, &e) && strstr(e.msg, "'address'"),
	    "--share address is refused by name");
	ok(!hq_privacy_parse_mode("always", &m) && m == HQ_PRIVACY_ALWAYS, "privacy = always");
	ok(hq_privacy_parse_mode("sometimes", &m), "privacy = sometimes is refused");

	hq_privacy_init(&p, HQ_PRIV_ALL);
	/* numbers byte for byte, positions withheld (JSON) */
	check(&p, "{\"metric\":\"steps\",\"value\":8123.0,\"x\":1e3,\"lat\":51.50740,"
	    "\"lon\":-0.12780,\"t\":\"2024-12-01\"}\n",
	    "{\"metric\":\"steps\",\"value\":8123.0,\"x\":1e3,\"lat\":\"withheld\","
	    "\"lon\":\"withheld\",\"t\":\"2024-12-01\"}\n", "lat and lon withheld, 8123.0 and 1e3 kept");
	check(&p, "{\"route_points\":120,\"route_min_lat\":51.5,\"route_max_lon\":-0.1,"
	    "\"route_distance_km\":5.012}",
	    "{\"route_points\":120,\"route_min_lat\":\"withheld\",\"route_max_lon\":\"withheld\","
	    "\"route_distance_km\":5.012}", "a route's bounding box withheld, its length kept");
	check(&p, "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\","
	    "\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[-0.1,51.5],[-0.2,51.6]]},"
	    "\"properties\":{\"coordTimes\":[\"2024-01-01T00:00:00Z\"]}}]}",
	    "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\","
	    "\"geometry\":\"withheld\","
	    "\"properties\":{\"coordTimes\":[\"2024-01-01T00:00:00Z\"]}}]}", "GeoJSON geometry");
	check(&p, "{\"latitude\":null}", "{\"latitude\":null}", "null stays null");
	check(&p, "<trkpt lat=\"51.50740\" lon=\"-0.12780\"><ele>12.5</ele></trkpt>\n",
	    "<trkpt lat=\"withheld\" lon=\"withheld\"><ele>12.5</ele></trkpt>\n", "GPX");
	check(&p, "time,lat,lon,hr\n2024-01-01,51.5074,-0.1278,140\n",
	    "time,lat,lon,hr\n2024-01-01,withheld,withheld,140\n", "CSV columns");
	check(&p, "{\"note\":\"started at 51.50740, -0.12780 today\"}",
	    "{\"note\":\"started at (position withheld) today\"}", "a pair inside a string");
	check(&p, "mean 1.5, sd 0.25, r 0.431\n", "mean 1.5, sd 0.25, r 0.431\n",
	    "statistics in text are not positions");

	/* serials */
	check(&p, "{\"source\":\"Forerunner 945 (SN 3912345678)\",\"value\":3}",
	    "{\"source\":\"Forerunner 945 (SN withheld)\",\"value\":3}", "SN in a source");
	check(&p, "{\"serial_number\":3912345678,\"sn\":\"ABC123\"}",
	    "{\"serial_number\":\"withheld\",\"sn\":\"withheld\"}", "serial fields");
	check(&p, "<<HKDevice: 0x281038280>, name:iPhone, hardware:iPhone14,3>",
	    "<<HKDevice: withheld>, name:iPhone, hardware:iPhone14,3>", "HKDevice's address");

	/* names: a source's possessive, then everywhere */
	check(&p, "{\"source\":\"Jane's Apple Watch\",\"value\":72}\n"
	    "{\"source\":\"Jane\\u2019s iPhone\",\"value\":70}\n",
	    "{\"source\":\"Person 1's Apple Watch\",\"value\":72}\n"
	    "{\"source\":\"Person 1\xe2\x80\x99s iPhone\",\"value\":70}\n",
	    "Jane's devices: Person 1, the escaped apostrophe too");
	check(&p, "{\"metadata\":{\"HKExternalUUID\":\"x\",\"note\":\"Run with jane\"}}",
	    "{\"metadata\":{\"HKExternalUUID\":\"x\",\"note\":\"Run with Person 1\"}}",
	    "a known name in a workout's metadata, any case");
	check(&p, "{\"note\":\"J\\u0061ne ran\"}", "{\"note\":\"Person 1 ran\"}",
	    "JSON-escaped letters");
	check(&p, "{\"patient\":{\"name\":[{\"given\":[\"Amy\"],\"family\":\"Shaw\"}]}}",
	    "{\"patient\":{\"name\":[{\"given\":[\"Person 2\"],\"family\":\"Person 3\"}]}}",
	    "a name split across given and family");
	check(&p, "{\"performer\":[{\"reference\":\"Organization/1\",\"display\":\"Acme Labs\"}]}",
	    "{\"performer\":[{\"reference\":\"Organization/1\",\"display\":\"Person 4\"}]}",
	    "a performer's display");
	check(&p, "{\"organization\":\"Mercy Hospital\"}", "{\"organization\":\"Organisation 1\"}",
	    "an organisation");
	check(&p, "note: reviewed by Dr. Gregory House, MD; Shaw to follow up\n",
	    "note: reviewed by Dr. Person 5, MD; Person 3 to follow up\n",
	    "names in clinical text (a title), and a known one");
	check(&p, "{\"source\":\"NJR Apple Watch\"}", "{\"source\":\"Person 6 Apple Watch\"}",
	    "initials before a device");
	check(&p, "{\"source\":\"Иван's iPhone\"}", "{\"source\":\"Person 7's iPhone\"}",
	    "a name in Cyrillic");
	check(&p, "{\"source\":\"Health\",\"metric\":\"steps\"}",
	    "{\"source\":\"Health\",\"metric\":\"steps\"}", "no name: nothing changes");
	is_int(p.persons, 7, "7 people met");

	/* back: the answer, JSON arguments, streams */
	r = hq_privacy_restore(&p, "Person 1's Apple Watch; Person 12 and Organisation 1.", 0);
	is_str(r, "Jane's Apple Watch; Person 12 and Mercy Hospital.", "the answer has the names");
	free(r);
	hq_privacy_add_name(&p, "Jo \"Q\"", 7, 0);
	f = filt(&p, "Jo \"Q\" ran");
	r = hq_privacy_restore(&p, "{\"source\":\"Person 8\"}", 1);
	is_str(r, "{\"source\":\"Jo \\\"Q\\\"\"}", "a name goes into JSON arguments escaped");
	free(r);
	free(f);
	is_int(hq_privacy_pending("Hello Pers", 10), 4, "a stream holds back 'Pers'");
	is_int(hq_privacy_pending("Hello Person 1", 14), 8, "and 'Person 1' (12 may follow)");
	is_int(hq_privacy_pending("Hello Person 1.", 15), 0, "not 'Person 1.'");
	is_int(hq_privacy_pending("Superson", 8), 0, "nor a word's middle");

	/* the question */
	ok(hq_privacy_check_question(&p, "How far did I run from 51.50740, -0.12780?", why,
	    sizeof why), "a coordinate pair in the question: %s", why);
	ok(hq_privacy_check_question(&p, "Steps on days I was at 221 Baker Street?", why,
	    sizeof why), "an address in the question: %s", why);
	ok(!hq_privacy_check_question(&p, "How many steps did I walk on 1 December 2024?", why,
	    sizeof why), "a plain question passes");
	ok(!hq_privacy_check_question(&p, "Did I walk 10000 steps on 3 days in a row?", why,
	    sizeof why), "numbers and days are not addresses");
	hq_privacy_free(&p);

	/* nothing withheld: the text as it is */
	hq_privacy_init(&p, 0);
	check(&p, "{\"lat\":51.5,\"source\":\"Jane's Apple Watch\"}",
	    "{\"lat\":51.5,\"source\":\"Jane's Apple Watch\"}", "privacy off: all through");
	ok(!hq_privacy_check_question(&p, "at 51.50740, -0.12780?", why, sizeof why),
	    "privacy off: the question goes");
	hq_privacy_free(&p);
	/* positions shared, names not */
	hq_privacy_init(&p, HQ_PRIV_NAMES);
	check(&p, "{\"lat\":51.5,\"source\":\"Jane's Apple Watch (SN 12345678)\"}",
	    "{\"lat\":51.5,\"source\":\"Person 1's Apple Watch (SN 12345678)\"}",
	    "--share positions,serials: only names withheld");
	hq_privacy_free(&p);
	return done_testing();
}
