/* test_config.c - defaults, file parsing, errors with FILE:LINE, environment,
 * precedence and origins, amc_config_load. */
#include <sys/stat.h>

#include "tap.h"
#include "testutil.h"
#include "util/config.h"
#include "util/strbuf.h"

static const char *origin_of(const amc_config *c, const char *section, const char *key)
{
	for (size_t i = 0; i < amc_config_count(c); i++) {
		amc_config_item it = amc_config_item_at(c, i);
		if (!strcmp(it.section, section) && !strcmp(it.key, key))
			return it.origin;
	}
	return NULL;
}

/* Parse `text` into a fresh config; returns the rc, message in e. */
static int parse(const char *text, amc_err *e)
{
	amc_config *c = amc_config_new();
	amc_err_clear(e);
	int rc = amc_config_parse(c, text, strlen(text), "test.conf", e);
	amc_config_free(c);
	return rc;
}

/* Every AMC_<SECTION>_<KEY> variable out of the way. */
static void clear_env(const amc_config *c)
{
	for (size_t i = 0; i < amc_config_count(c); i++) {
		amc_config_item it = amc_config_item_at(c, i);
		char var[128];
		snprintf(var, sizeof var, "AMC_%s_%s", it.section, it.key);
		for (char *p = var; *p; p++)
			if (*p >= 'a' && *p <= 'z')
				*p = (char)(*p - 'a' + 'A');
		unsetenv(var);
	}
}

int main(void)
{
	const char *home = test_home("config");
	amc_err e;
	amc_config *c = amc_config_new();
	clear_env(c);

	/* Defaults. */
	is_int(amc_config_int(c, "runner", "max_steps"), 50, "default runner.max_steps");
	is_str(amc_config_str(c, "core", "log_level"), "info", "default core.log_level");
	is_str(amc_config_str(c, "device", "default"), "sim", "default device.default");
	ok(amc_config_double(c, "runner", "settle_tolerance") > 0.0009 &&
	   amc_config_double(c, "runner", "settle_tolerance") < 0.0011, "default settle_tolerance 0.001");
	is_int(amc_config_int(c, "sim", "seed"), -1, "default sim.seed -1");
	is_str(amc_config_str(c, "sim", "faults"), "", "default sim.faults empty");
	ok(amc_config_count(c) >= 10, "a table of settings (%zu)", amc_config_count(c));
	int items_ok = 1;
	for (size_t i = 0; i < amc_config_count(c); i++) {
		amc_config_item it = amc_config_item_at(c, i);
		if (!it.section || !it.key || !it.value || !it.help || !it.help[0] || strcmp(it.origin, "default"))
			items_ok = 0;
	}
	ok(items_ok, "every item has section, key, value, help and origin 'default'");
	is_str(amc_config_file_path(c), "", "no file path before loading");

	/* A file with comments, quotes, blank lines, CRLF and spacing. */
	const char *text =
		"# amc config\n"
		"; another comment\n"
		"\n"
		"[runner]\n"
		"max_steps = 75\n"
		"  settle_timeout_ms=1500   \n"
		"\tsettle_tolerance = 0.25\r\n"
		"\n"
		"[ device ]\n"
		"default = \"  sim:3  \"\n"
		"[sim]\n"
		"faults = screenshot:0.2,latency:200\n"
		"seed = 7 \n"
		"[core]\n"
		"log_level = debug\n";
	amc_err_clear(&e);
	is_int(amc_config_parse(c, text, strlen(text), "my.conf", &e), 0, "parse a full file");
	if (e.msg[0])
		diag("%s", e.msg);
	is_int(amc_config_int(c, "runner", "max_steps"), 75, "max_steps from the file");
	is_int(amc_config_int(c, "runner", "settle_timeout_ms"), 1500, "no spaces around '='");
	ok(amc_config_double(c, "runner", "settle_tolerance") == 0.25, "CRLF line and tab indent");
	is_str(amc_config_str(c, "device", "default"), "  sim:3  ", "quotes keep spaces");
	is_str(amc_config_str(c, "sim", "faults"), "screenshot:0.2,latency:200", "string value");
	is_int(amc_config_int(c, "sim", "seed"), 7, "trailing space trimmed");
	is_str(amc_config_str(c, "core", "log_level"), "debug", "enum value");
	is_str(origin_of(c, "runner", "max_steps"), "my.conf:5", "origin names file:line");
	is_str(origin_of(c, "core", "log_level"), "my.conf:15", "origin of the last line");
	is_str(origin_of(c, "retention", "keep"), "default", "untouched key stays default");
	is_int(amc_config_parse(c, "", 0, "empty.conf", &e), 0, "an empty file is fine");
	is_int(amc_config_parse(c, "[runner]\nmax_steps = 80", 23, "nonl.conf", &e), 0, "no final newline is fine");
	is_int(amc_config_int(c, "runner", "max_steps"), 80, "last line without newline read");
	amc_config_free(c);

	/* Every error names FILE:LINE. */
	struct { const char *text; const char *where; const char *what; const char *name; } bad[] = {
		{ "[runner]\nmax_steps = 5\n[nosuch]\n", "test.conf:3:", "unknown section", "unknown section" },
		{ "[runner]\n\nfoo = 1\n", "test.conf:3:", "runner.foo", "unknown key" },
		{ "[runner]\nmax_steps 5\n", "test.conf:2:", "key = value", "missing '='" },
		{ "# c\nmax_steps = 5\n", "test.conf:2:", "[section]", "key before section" },
		{ "[runner]\nmax_steps = five\n", "test.conf:2:", "not a whole number", "bad int" },
		{ "[runner]\nmax_steps = 5x\n", "test.conf:2:", "not a whole number", "int with junk" },
		{ "[runner]\nmax_steps = \n", "test.conf:2:", "not a whole number", "empty int" },
		{ "[runner]\nmax_steps = 99999999999999999999\n", "test.conf:2:", "not a whole number", "int overflow" },
		{ "[runner]\n\n\nmax_steps = 0\n", "test.conf:4:", "out of range", "int below range" },
		{ "[runner]\nmax_steps = 10001\n", "test.conf:2:", "out of range", "int above range" },
		{ "[runner]\nsettle_tolerance = abc\n", "test.conf:2:", "not a number", "bad double" },
		{ "[runner]\nsettle_tolerance = nan\n", "test.conf:2:", "not a number", "NaN double" },
		{ "[runner]\nsettle_tolerance = inf\n", "test.conf:2:", "not a number", "inf double" },
		{ "[runner]\nsettle_tolerance = 1.5\n", "test.conf:2:", "out of range", "double above range" },
		{ "[core]\nlog_level = loud\n", "test.conf:2:", "not one of", "bad enum" },
		{ "[runner\n", "test.conf:1:", "[name]", "unclosed section header" },
		{ "[runner] x\n", "test.conf:1:", "[name]", "junk after section header" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		is_int(parse(bad[i].text, &e), -1, "%s: refused", bad[i].name);
		ok(!strncmp(e.msg, bad[i].where, strlen(bad[i].where)), "%s: message starts with %s", bad[i].name, bad[i].where);
		like(e.msg, bad[i].what, "%s: says '%s'", bad[i].name, bad[i].what);
		is_int(e.code, AMC_EUSAGE, "%s: usage error", bad[i].name);
	}
	is_int(parse("[runner]\nmax_steps = 99999999999999999999\n", &e), -1, "int overflow refused");
	/* A hostile section name is not echoed raw. */
	parse("[\x1b[2Jevil]\n", &e);
	ok(!strchr(e.msg, 0x1b), "unknown section message is sanitized");
	parse("[runner]\nfo\x1bo = 1\n", &e);
	ok(!strchr(e.msg, 0x1b), "unknown key message is sanitized");
	/* A string with a control character. */
	is_int(parse("[sim]\nfaults = a\x01" "b\n", &e), -1, "control character in a string refused");
	like(e.msg, "test.conf:2:", "names the line");

	/* NUL byte: names the line it is on. */
	amc_config *c2 = amc_config_new();
	const char nul[] = "[runner]\nmax_steps = 5\nsettle\0_timeout_ms = 1\n";
	amc_err_clear(&e);
	is_int(amc_config_parse(c2, nul, sizeof nul - 1, "nul.conf", &e), -1, "NUL byte refused");
	like(e.msg, "nul.conf:3:", "NUL error names file:line");
	like(e.msg, "NUL", "NUL error says NUL");
	is_int(amc_config_int(c2, "runner", "max_steps"), 50, "nothing applied from a file with a NUL");
	/* Oversize. */
	size_t big_n = AMC_CONFIG_MAX_BYTES + 100;
	char *big = amc_xmalloc(big_n);
	for (size_t i = 0; i < big_n; i++)
		big[i] = (i % 40 == 39) ? '\n' : '#';
	amc_err_clear(&e);
	is_int(amc_config_parse(c2, big, big_n, "big.conf", &e), -1, "oversize refused");
	like(e.msg, "big.conf:", "oversize error names the file");
	like(e.msg, "262144 bytes", "oversize error gives the limit");
	ok(strstr(e.msg, "big.conf:6554:") != NULL, "oversize error names the line the limit falls in (%s)", e.msg);
	is_int(amc_config_parse(c2, big, AMC_CONFIG_MAX_BYTES, "big.conf", &e), 0, "exactly at the limit is fine");
	amc_config_free(c2);

	/* Environment beats the file; origins report it. */
	char cfgdir[PATH_MAX], cfgfile[PATH_MAX];
	const char *xdg = getenv("XDG_CONFIG_HOME");
	ok(xdg && !strncmp(xdg, home, strlen(home)), "test_home set a private XDG_CONFIG_HOME");
	pathf(cfgdir, sizeof cfgdir, "%s/amc", xdg);
	pathf(cfgfile, sizeof cfgfile, "%s/config", cfgdir);
	amc_mkdir_p(cfgdir, 0700, NULL);
	const char *file_text = "[runner]\nmax_steps = 60\nsettle_timeout_ms = 2000\n[retention]\nkeep = 10\n";
	amc_write_atomic(cfgfile, file_text, strlen(file_text), 0600, NULL);

	c = NULL;
	amc_err_clear(&e);
	is_int(amc_config_load(&c, &e), 0, "amc_config_load reads $XDG_CONFIG_HOME/amc/config");
	if (!c)
		return done_testing();
	is_str(amc_config_file_path(c), cfgfile, "file path reported");
	is_int(amc_config_int(c, "runner", "max_steps"), 60, "value from the file");
	char want[PATH_MAX + 16];
	snprintf(want, sizeof want, "%s:2", cfgfile);
	is_str(origin_of(c, "runner", "max_steps"), want, "origin is the file and line");
	amc_config_free(c);

	setenv("AMC_RUNNER_MAX_STEPS", "70", 1);
	setenv("AMC_CORE_LOG_LEVEL", "warn", 1);
	c = NULL;
	is_int(amc_config_load(&c, &e), 0, "load with environment");
	is_int(amc_config_int(c, "runner", "max_steps"), 70, "AMC_RUNNER_MAX_STEPS beats the file");
	is_str(origin_of(c, "runner", "max_steps"), "env:AMC_RUNNER_MAX_STEPS", "origin env:AMC_RUNNER_MAX_STEPS");
	is_int(amc_config_int(c, "runner", "settle_timeout_ms"), 2000, "file value kept where no env");
	is_str(amc_config_str(c, "core", "log_level"), "warn", "env over the default");
	is_int(amc_config_int(c, "retention", "keep"), 10, "retention.keep from the file");

	/* Command line beats everything, whatever the order of the calls. */
	is_int(amc_config_set(c, "runner", "max_steps", "90", "command line", &e), 0, "set from the command line");
	is_int(amc_config_int(c, "runner", "max_steps"), 90, "command line beats env");
	is_str(origin_of(c, "runner", "max_steps"), "command line", "origin 'command line'");
	is_int(amc_config_load_env(c, &e), 0, "reload the environment afterwards");
	is_int(amc_config_int(c, "runner", "max_steps"), 90, "env loaded later does not beat the command line");
	is_int(amc_config_load_file(c, cfgfile, &e), 0, "reload the file afterwards");
	is_int(amc_config_int(c, "runner", "max_steps"), 90, "file loaded later does not beat the command line");
	is_str(amc_config_str(c, "core", "log_level"), "warn", "file loaded later does not beat env");
	is_str(origin_of(c, "core", "log_level"), "env:AMC_CORE_LOG_LEVEL", "env origin kept");
	is_int(amc_config_set(c, "runner", "max_steps", "91", "command line", &e), 0, "a second command-line value");
	is_int(amc_config_int(c, "runner", "max_steps"), 91, "the later command-line value wins");
	amc_err_clear(&e);
	is_int(amc_config_set(c, "runner", "max_steps", "0", "command line", &e), -1, "bad command-line value refused");
	like(e.msg, "runner.max_steps", "names the setting");
	like(e.msg, "out of range", "says why");
	is_int(amc_config_int(c, "runner", "max_steps"), 91, "a refused value changes nothing");
	amc_err_clear(&e);
	is_int(amc_config_set(c, "runner", "nosuch", "1", "command line", &e), -1, "unknown key refused by set");
	like(e.msg, "runner.nosuch", "names the unknown setting");
	amc_config_free(c);

	/* Bad environment value names the variable. */
	setenv("AMC_RUNNER_MAX_STEPS", "lots", 1);
	c = NULL;
	amc_err_clear(&e);
	is_int(amc_config_load(&c, &e), -1, "bad env value fails the load");
	ok(c == NULL, "no config on failure");
	like(e.msg, "AMC_RUNNER_MAX_STEPS", "message names the variable");
	like(e.msg, "not a whole number", "message says why");
	setenv("AMC_RUNNER_MAX_STEPS", "0", 1);
	amc_err_clear(&e);
	is_int(amc_config_load(&c, &e), -1, "out-of-range env value fails");
	like(e.msg, "AMC_RUNNER_MAX_STEPS", "names the variable (range)");
	unsetenv("AMC_RUNNER_MAX_STEPS");
	unsetenv("AMC_CORE_LOG_LEVEL");

	/* A bad file fails the load and names file:line. */
	const char *bad_file = "[runner]\nmax_steps = 60\n\nbogus = 1\n";
	amc_write_atomic(cfgfile, bad_file, strlen(bad_file), 0600, NULL);
	c = NULL;
	amc_err_clear(&e);
	is_int(amc_config_load(&c, &e), -1, "bad file fails the load");
	snprintf(want, sizeof want, "%s:4:", cfgfile);
	like(e.msg, want, "error names the config file and line 4");
	/* A config path that is a folder. */
	unlink(cfgfile);
	mkdir(cfgfile, 0700);
	amc_err_clear(&e);
	is_int(amc_config_load(&c, &e), -1, "config path is a folder: error");
	like(e.msg, "not a regular file", "says so");
	rmdir(cfgfile);
	/* No file at all: defaults. */
	c = NULL;
	is_int(amc_config_load(&c, &e), 0, "missing file: defaults");
	is_int(amc_config_int(c, "runner", "max_steps"), 50, "default when no file");
	is_str(amc_config_file_path(c), cfgfile, "path still reported when the file is missing");
	amc_config_free(c);
	amc_config_free(NULL);
	free(big);
	/* Every error of a file at once (issue 27: one at a time before). */
	is_int(parse("[nosuch]\nkey = 1\n[runner]\nmax_steps = lots\nnot a setting\nbogus = 1\n", &e), -1,
	       "a file with four errors fails");
	ok(strncmp(e.msg, "4 errors: ", 10) == 0, "all four counted: %s", e.msg);
	like(e.msg, "test.conf:1: unknown section", "the bad section (its key is not a fifth error)");
	like(e.msg, "test.conf:4: bad value for runner.max_steps", "the bad value");
	like(e.msg, "test.conf:5: expected 'key = value'", "the line without =");
	like(e.msg, "test.conf:6: unknown setting", "the unknown key");
	return done_testing();
}
