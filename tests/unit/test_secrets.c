/* test_secrets.c - {{secret:NAME}}: named secrets from the environment and the
 * 0600 file, what is refused and what it says, typing only the named ones,
 * masking every known value (mask-only ones too, longest first, overlaps whole)
 * and masking a whole observation: tree, Scene, OCR JSON, raw XML, pixels. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "image/png.h"
#include "perception/scene.h"
#include "runtime/observe.h"
#include "runtime/secrets.h"
#include <cjson/cJSON.h>

#include "tap.h"
#include "testutil.h"
#include "util/jsonutil.h"
#include "util/log.h"
#include "util/strbuf.h"

extern char **environ;

static void write_file(const char *path, const char *text, mode_t mode)
{
	unlink(path);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) || fchmod(fd, mode) != 0) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
	close(fd);
}

/* No AMC_SECRET_* from whoever runs the tests. */
static void clear_secret_env(void)
{
	for (;;) {
		char name[256] = "";
		for (char **p = environ; p && *p; p++)
			if (!strncmp(*p, "AMC_SECRET_", 11)) {
				size_t n = strcspn(*p, "=");
				snprintf(name, sizeof name, "%.*s", (int)(n < 255 ? n : 255), *p);
				break;
			}
		if (!*name)
			return;
		unsetenv(name);
	}
}

static int count_of(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; p && (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	return n;
}

static const unsigned char *px_at(const amc_image *img, int x, int y)
{
	return img->px + ((size_t)y * img->w + x) * 4;
}

static int is_black(const amc_image *img, int x, int y)
{
	const unsigned char *p = px_at(img, x, y);
	return p[0] == 0 && p[1] == 0 && p[2] == 0;
}

static int is_white(const amc_image *img, int x, int y)
{
	const unsigned char *p = px_at(img, x, y);
	return p[0] == 255 && p[1] == 255 && p[2] == 255;
}

int main(void)
{
	const char *home = test_home("secrets");
	char log[PATH_MAX + 16], file[PATH_MAX + 16];
	snprintf(log, sizeof log, "%s/amc.log", home);
	snprintf(file, sizeof file, "%s/secrets", home);
	amc_err e;
	amc_log_set_stderr(-1);
	amc_log_set_level(AMC_LOG_INFO);
	ok(amc_log_open(log, &e) == 0, "log opens");
	clear_secret_env();
	amc_secrets *s = NULL;

	/* ---- nothing known ---- */
	is_int(amc_secrets_resolve("Add a contact", NULL, &s, &e), 0, "no placeholder, no value: resolves");
	ok(s == NULL, "and there is nothing to mask");
	is_int(amc_secrets_resolve(NULL, "", &s, &e), 0, "no text (an unreadable flow) resolves too");

	/* ---- named, from the environment ---- */
	setenv("AMC_SECRET_PIN", "4711-pin-x", 1);
	is_int(amc_secrets_resolve("Type {{secret:PIN}} twice: {{secret:PIN}}", NULL, &s, &e), 0, "named from the environment");
	is_int(amc_secrets_count(s), 1, "one named secret (a repeat is one)");
	char *x = amc_secrets_expand(s, "[{{secret:PIN}}] {{secret:PIN}}", &e);
	is_str(x, "[4711-pin-x] 4711-pin-x", "expand types the value at each placeholder");
	free(x);
	x = amc_secrets_expand(s, "{{secret:bad name}} stays", &e);
	is_str(x, "{{secret:bad name}} stays", "a malformed placeholder is left alone");
	free(x);
	amc_secrets_free(s);
	unsetenv("AMC_SECRET_PIN");

	/* ---- a missing name says what to set ---- */
	amc_err_clear(&e);
	is_int(amc_secrets_resolve("Type {{secret:X}}", NULL, &s, &e), -1, "a named secret with no value fails");
	is_int(e.code, AMC_EUSAGE, "as a usage error");
	like(e.msg, "export AMC_SECRET_X", "naming the variable to export");
	like(e.msg, "X=... to the 0600 file named by secrets.file", "and the file line");
	ok(s == NULL, "nothing returned");
	setenv("AMC_SECRET_X", "", 1);
	is_int(amc_secrets_resolve("Type {{secret:X}}", NULL, &s, &e), -1, "an empty value is no value");
	unsetenv("AMC_SECRET_X");

	/* ---- named, from the 0600 file; every other line mask-only ---- */
	write_file(file, "# a comment\nPHONE=555-0100-77\r\nEMPTY=\nnot a line\nBAD-NAME=bad-name-value\n"
		   "OTHER=other-value-z\n\nPHONE=second-phone-9\n", 0600);
	amc_err_clear(&e);
	is_int(amc_secrets_resolve("Add {{secret:PHONE}}", file, &s, &e), 0, "named from the 0600 file");
	is_int(amc_secrets_count(s), 1, "one named secret");
	is_int(amc_secrets_known(s), 3, "three values known: PHONE, OTHER, the second PHONE line (empty and bad lines ignored)");
	x = amc_secrets_expand(s, "{{secret:PHONE}}", &e);
	is_str(x, "555-0100-77", "the first line's value, its CR dropped");
	free(x);
	amc_err_clear(&e);
	x = amc_secrets_expand(s, "{{secret:OTHER}}", &e);
	ok(x == NULL, "a file value the text does not name is not typed");
	is_int(e.code, AMC_EUSAGE, "usage error");
	like(e.msg, "secret OTHER is not one of the goal's or flow's secrets", "saying so");
	x = amc_secrets_mask(s, "555-0100-77 / other-value-z / second-phone-9 / bad-name-value");
	is_str(x, "{{secret:PHONE}} / {{secret:OTHER}} / {{secret:PHONE}} / bad-name-value",
	       "every value of the file is masked, the bad line is not a secret");
	free(x);
	amc_secrets_free(s);

	/* the environment wins for the typed value; the file's is masked too */
	setenv("AMC_SECRET_PHONE", "env-phone-1234", 1);
	is_int(amc_secrets_resolve("{{secret:PHONE}}", file, &s, &e), 0, "named from both");
	x = amc_secrets_expand(s, "{{secret:PHONE}}", &e);
	is_str(x, "env-phone-1234", "the environment comes first");
	free(x);
	x = amc_secrets_mask(s, "555-0100-77 env-phone-1234");
	is_str(x, "{{secret:PHONE}} {{secret:PHONE}}", "both values are masked");
	free(x);
	amc_secrets_free(s);
	unsetenv("AMC_SECRET_PHONE");

	/* a named secret missing from a valid file */
	amc_err_clear(&e);
	is_int(amc_secrets_resolve("{{secret:NOPE}}", file, &s, &e), -1, "a name in neither place fails");
	like(e.msg, "AMC_SECRET_NOPE", "naming the variable");

	/* ---- an unusable file is refused, named secret or not ---- */
	write_file(file, "PHONE=555-0100-77\n", 0644);
	amc_err_clear(&e);
	is_int(amc_secrets_resolve("{{secret:PHONE}}", file, &s, &e), -1, "a 0644 file is refused");
	is_int(e.code, AMC_EENV, "as an environment error");
	like(e.msg, "must exist and be a regular file with mode 0600", "saying what it must be");
	like(e.msg, file, "naming the file");
	ok(!strstr(e.msg, "555-0100-77"), "never the value");
	setenv("AMC_SECRET_PHONE", "env-phone-1234", 1);
	amc_err_clear(&e);
	is_int(amc_secrets_resolve("{{secret:PHONE}}", file, &s, &e), -1,
	       "refused even when the environment has the named value (its other values could not be masked)");
	unsetenv("AMC_SECRET_PHONE");
	amc_err_clear(&e);
	is_int(amc_secrets_resolve("Look around", file, &s, &e), -1, "refused when the text names no secret");
	is_int(e.code, AMC_EENV, "with the same environment error");
	char missing[PATH_MAX + 16];
	snprintf(missing, sizeof missing, "%s/none", home);
	amc_err_clear(&e);
	is_int(amc_secrets_resolve("Look around", missing, &s, &e), -1, "a missing file is refused");
	like(e.msg, "mode 0600", "with the same message");
	amc_err_clear(&e);
	is_int(amc_secrets_resolve("Look around", home, &s, &e), -1, "a folder is refused");
	is_int(e.code, AMC_EENV, "environment error");
	write_file(file, "PHONE=555-0100-77\n", 0600);

	/* ---- mask-only: known values, a text that names none ---- */
	setenv("AMC_SECRET_FROMENV", "env-only-value", 1);
	setenv("AMC_SECRET_BAD-NAME", "bad-env-value", 1);
	setenv("AMC_SECRET_BLANK", "", 1);
	is_int(amc_secrets_resolve("Look around", file, &s, &e), 0, "no named secret: resolves");
	ok(s != NULL, "yet the known values are there to mask");
	is_int(amc_secrets_count(s), 0, "none named");
	is_int(amc_secrets_known(s), 2, "two known: the environment's and the file's (bad name, empty value ignored)");
	ok(amc_secrets_found(s, "x env-only-value y"), "found in a text");
	ok(!amc_secrets_found(s, "bad-env-value"), "a bad name's value is not a secret");
	x = amc_secrets_mask(s, "env-only-value then 555-0100-77");
	is_str(x, "{{secret:FROMENV}} then {{secret:PHONE}}", "masked from the environment and the file");
	free(x);
	amc_err_clear(&e);
	x = amc_secrets_expand(s, "{{secret:FROMENV}}", &e);
	ok(x == NULL && e.code == AMC_EUSAGE, "a mask-only value is never typed");
	free(x);
	x = amc_secrets_expand(s, "plain text", &e);
	is_str(x, "plain text", "a text without placeholders expands to itself");
	free(x);
	amc_secrets_free(s);
	unsetenv("AMC_SECRET_BAD-NAME");
	unsetenv("AMC_SECRET_BLANK");
	unsetenv("AMC_SECRET_FROMENV");
	/* only the file */
	is_int(amc_secrets_resolve("Look around", file, &s, &e), 0, "only the file's value");
	is_int(amc_secrets_known(s), 1, "one known");
	ok(amc_secrets_found(s, "555-0100-77"), "and it is found");
	amc_secrets_free(s);

	/* ---- masking: repeats, values within values, overlaps ---- */
	setenv("AMC_SECRET_LONG", "555-0100-77", 1);
	setenv("AMC_SECRET_PART", "0100", 1);
	setenv("AMC_SECRET_A", "abcd-1", 1);
	setenv("AMC_SECRET_B", "cd-12345", 1);
	is_int(amc_secrets_resolve("{{secret:PART}}", NULL, &s, &e), 0, "four values");
	x = amc_secrets_mask(s, "555-0100-77, 555-0100-77 and 0100");
	is_str(x, "{{secret:LONG}}, {{secret:LONG}} and {{secret:PART}}",
	       "every occurrence; a value holding another is masked whole");
	free(x);
	x = amc_secrets_mask(s, "xabcd-12345y");
	is_str(x, "x{{secret:A}}{{secret:B}}y", "overlapping values leave no byte of either");
	free(x);
	x = amc_secrets_mask(s, "01000100");
	is_str(x, "{{secret:PART}}{{secret:PART}}", "adjacent occurrences stay two");
	free(x);
	x = amc_secrets_mask(s, "nothing here");
	is_str(x, "nothing here", "a text without values is copied");
	free(x);
	ok(amc_secrets_mask(s, NULL) == NULL, "NULL stays NULL");
	amc_secrets_free(s);
	unsetenv("AMC_SECRET_LONG");
	unsetenv("AMC_SECRET_PART");
	unsetenv("AMC_SECRET_A");
	unsetenv("AMC_SECRET_B");

	/* ---- short values: masked, one warning per name, never the value ---- */
	setenv("AMC_SECRET_TINY", "Q7", 1);
	write_file(file, "TINY=Z9\n", 0600);
	is_int(amc_secrets_resolve("Look", file, &s, &e), 0, "short values resolve");
	x = amc_secrets_mask(s, "Q7 and Z9");
	is_str(x, "{{secret:TINY}} and {{secret:TINY}}", "and are masked");
	free(x);
	amc_secrets_free(s);
	unsetenv("AMC_SECRET_TINY");
	amc_log_close();
	char *logtext = NULL;
	size_t loglen = 0;
	ok(amc_read_file(log, 1 << 20, &logtext, &loglen, &e) == 0, "log readable");
	is_int(count_of(logtext, "secret TINY is shorter than 4 characters: every occurrence of it on screen will be masked"), 1,
	       "one warning for the short name");
	ok(logtext && !strstr(logtext, "Q7") && !strstr(logtext, "Z9") && !strstr(logtext, "555-0100"),
	   "no value in the log");
	free(logtext);

	/* ---- a whole observation ---- */
	setenv("AMC_SECRET_PHONE", "555-0100-77", 1);
	setenv("AMC_SECRET_PASS", "p&ss<w0rd", 1);
	setenv("AMC_SECRET_QUOTE", "q\"uote-secret", 1);
	is_int(amc_secrets_resolve("Look around", NULL, &s, &e), 0, "mask-only values for an observation");
	amc_observation o;
	memset(&o, 0, sizeof o);
	ok(amc_image_alloc(&o.img, 100, 60, &e) == 0, "a 100x60 screenshot");
	memset(o.img.px, 255, (size_t)100 * 60 * 4);
	ok(amc_png_encode(&o.img, 6, &o.png, &o.png_len, &e) == 0, "encoded");
	unsigned char *orig_png = o.png;
	o.xml = amc_xstrdup("<hierarchy rotation=\"0\"><node class=\"android.widget.FrameLayout\" bounds=\"[0,0][100,60]\">"
			    "<node class=\"android.widget.TextView\" text=\"Phone 555-0100-77\" bounds=\"[10,10][60,30]\"/>"
			    "<node class=\"android.widget.ImageView\" content-desc=\"p&amp;ss&lt;w0rd\" bounds=\"[70,40][90,50]\"/>"
			    "<node class=\"android.widget.TextView\" text=\"Save\" bounds=\"[10,40][40,50]\"/>"
			    "</node></hierarchy>");
	ok(amc_uitree_parse(o.xml, strlen(o.xml), &o.tree, &e) == 0, "tree parses");
	ok(amc_scene_from_tree(&o.tree, 100, 60, &o.scene, &e) == 0, "scene built");
	o.ocr_json = amc_xstrdup("[{\"text\":\"Phone 555-0100-77\",\"x\":10},{\"text\":\"q\\\"uote-secret\",\"x\":1}]");
	amc_bounds extra = { 90, 0, 100, 10 };
	int regions = amc_secrets_mask_observation(s, &o, &extra, 1);
	ok(regions >= 3, "regions blacked out: the phone's node, the password's node, the extra (%d)", regions);
	int found = 0;
	for (size_t i = 0; i < o.tree.count; i++) {
		found |= amc_secrets_found(s, o.tree.nodes[i].text) | amc_secrets_found(s, o.tree.nodes[i].content_desc);
		if (!strcmp(o.tree.nodes[i].text, "Phone {{secret:PHONE}}"))
			found |= 2;
		if (!strcmp(o.tree.nodes[i].content_desc, "{{secret:PASS}}"))
			found |= 4;
	}
	is_int(found, 6, "tree node text and content-desc masked, no value left");
	found = 0;
	for (size_t i = 0; i < o.scene.count; i++) {
		found |= amc_secrets_found(s, o.scene.elements[i].text);
		if (strstr(o.scene.elements[i].text, "{{secret:PHONE}}"))
			found |= 2;
	}
	is_int(found, 2, "Scene element masked, no value left");
	ok(!strstr(o.ocr_json, "555-0100") && !strstr(o.ocr_json, "uote-secret"), "OCR JSON has no value (escaped ones too)");
	like(o.ocr_json, "Phone {{secret:PHONE}}", "OCR JSON has the placeholder");
	like(o.ocr_json, "{{secret:QUOTE}}", "and the escaped value's placeholder");
	cJSON *oj = cJSON_Parse(o.ocr_json);
	ok(cJSON_IsArray(oj) && cJSON_GetArraySize(oj) == 2, "OCR JSON still parses");
	cJSON_Delete(oj);
	ok(!strstr(o.xml, "555-0100") && !strstr(o.xml, "w0rd"), "raw XML has no value (its escaped form neither)");
	like(o.xml, "text=\"Phone {{secret:PHONE}}\"", "raw XML has the placeholder");
	like(o.xml, "content-desc=\"{{secret:PASS}}\"", "for the escaped value too");
	ok(o.png && o.png != orig_png, "the PNG was re-encoded");
	amc_image dec = { 0, 0, NULL };
	ok(o.png && amc_png_decode(o.png, o.png_len, &dec, &e) == 0 && dec.w == 100 && dec.h == 60, "the new PNG decodes");
	if (dec.px) {
		ok(is_black(&dec, 10, 10) && is_black(&dec, 35, 20) && is_black(&dec, 59, 29), "inside the phone's node: black");
		ok(is_black(&dec, 80, 45), "inside the password's node: black");
		ok(is_black(&dec, 95, 5), "inside the extra region: black");
		ok(is_white(&dec, 9, 10) && is_white(&dec, 60, 20) && is_white(&dec, 35, 30) && is_white(&dec, 25, 45),
		   "outside them (and the node without a value): untouched");
	}
	amc_image_free(&dec);

	/* an observation without values is left alone */
	amc_observation q;
	memset(&q, 0, sizeof q);
	ok(amc_image_alloc(&q.img, 10, 10, &e) == 0, "a second screenshot");
	ok(amc_png_encode(&q.img, 6, &q.png, &q.png_len, &e) == 0, "encoded");
	unsigned char *qpng = q.png;
	q.xml = amc_xstrdup("<hierarchy rotation=\"0\"><node text=\"Save\" bounds=\"[0,0][10,10]\"/></hierarchy>");
	ok(amc_uitree_parse(q.xml, strlen(q.xml), &q.tree, &e) == 0, "tree parses");
	q.ocr_json = amc_xstrdup("[]");
	is_int(amc_secrets_mask_observation(s, &q, NULL, 0), 0, "no value on screen: no region");
	ok(q.png == qpng, "and the PNG is not re-encoded");
	is_str(q.tree.nodes[0].text, "Save", "text untouched");
	is_int(amc_secrets_mask_observation(NULL, &q, NULL, 0), 0, "no secrets: nothing to do");
	amc_observation_free(&q);
	amc_observation_free(&o);
	amc_secrets_free(s);

	/* A flow's -e NAME=VALUE: which names are secret, and adding one. */
	ok(amc_secrets_name_sensitive("PASSWORD") && amc_secrets_name_sensitive("api_token") &&
	   amc_secrets_name_sensitive("MY_SECRET") && amc_secrets_name_sensitive("ApiKey") &&
	   amc_secrets_name_sensitive("PIN") && amc_secrets_name_sensitive("AUTH_HEADER"),
	   "password, token, secret, key, pin and auth names are secret");
	ok(!amc_secrets_name_sensitive("USERNAME") && !amc_secrets_name_sensitive("APP_ID") &&
	   !amc_secrets_name_sensitive(""), "user names and app ids are not");
	amc_secrets *f = NULL;
	ok(amc_secrets_add(&f, "API_TOKEN", "tok-123456", &e) == 0 && f, "an -e secret makes a set");
	ok(amc_secrets_add(&f, "EMPTY_KEY", "", &e) == 0 && amc_secrets_count(f) == 1, "an empty value is ignored");
	ok(amc_secrets_add(&f, "bad name", "v", &e) != 0 && e.code == AMC_EUSAGE, "a bad name is refused");
	char *m = amc_secrets_mask(f, "typed tok-123456 here");
	is_str(m, "typed {{secret:API_TOKEN}} here", "its value is masked");
	char *x2 = amc_secrets_expand(f, m, &e);
	is_str(x2, "typed tok-123456 here", "and typed back where its placeholder is");
	cJSON *j = cJSON_Parse("{\"text\":\"tok-123456\",\"n\":{\"a\":[\"x tok-123456\"]}}");
	ok(amc_secrets_mask_json(f, j) == 1, "mask_json finds it in nested strings");
	char *js = cJSON_PrintUnformatted(j);
	ok(js && !strstr(js, "tok-123456"), "no value left in the JSON: %s", js ? js : "");
	free(js);
	cJSON_Delete(j);
	free(m);
	free(x2);
	amc_secrets_free(f);
	return done_testing();
}
