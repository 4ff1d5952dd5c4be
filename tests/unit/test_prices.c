/* test_prices.c - llm/prices.c: usage sums, the price table (the bundled
 * data/prices.json and an override file), model-id matching, costs, reading a
 * key and a /models catalog. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tap.h"
#include "testutil.h"
#include "llm/llm.h"
#include "util/fsutil.h"

static const char *home;

static const char *put(const char *name, const char *text, mode_t mode)
{
	static char path[4][PATH_MAX + 64];
	static int k;
	char *p = path[k++ & 3];
	snprintf(p, PATH_MAX + 64, "%s/%s", home, name);
	FILE *f = fopen(p, "w");
	if (!f)
		exit(99);
	fputs(text, f);
	fclose(f);
	chmod(p, mode);
	return p;
}

#define near(a, b) (fabs((a) - (b)) < 1e-9)

static void test_usage(void)
{
	amc_llm_usage a, b;
	amc_llm_usage_unknown(&a);
	ok(a.input_tokens == -1 && a.output_tokens == -1 && a.cache_creation_input_tokens == -1 &&
	   a.cache_read_input_tokens == -1, "usage_unknown sets every count to -1");
	b = (amc_llm_usage){ 10, 5, -1, 0 };
	amc_llm_usage_add(&a, &b);
	ok(a.input_tokens == 10 && a.output_tokens == 5, "unknown + known = known");
	is_int(a.cache_creation_input_tokens, -1, "unknown + unknown stays unknown");
	is_int(a.cache_read_input_tokens, 0, "a known 0 is kept as 0");
	b = (amc_llm_usage){ 1, -1, 7, 3 };
	amc_llm_usage_add(&a, &b);
	is_int(a.input_tokens, 11, "known + known sums");
	is_int(a.output_tokens, 5, "known + unknown keeps the known sum");
	is_int(a.cache_creation_input_tokens, 7, "a later known count starts the sum");
	is_int(a.cache_read_input_tokens, 3, "0 + 3 = 3");
}

/* Every row of the bundled table as the file says, so the test follows price
 * updates of data/prices.json instead of copying them. */
static void test_bundled(void)
{
	amc_prices *p = NULL;
	amc_err e;
	amc_price pr;
	is_int(amc_prices_load(NULL, &p, &e), 0, "the bundled data/prices.json loads: %s", p ? "" : e.msg);
	char *buf = NULL;
	size_t len = 0;
	cJSON *j = amc_read_file(test_src("data/prices.json"), 1 << 20, &buf, &len, &e) == 0
		   ? cJSON_ParseWithLength(buf, len) : NULL;
	free(buf);
	const cJSON *models = cJSON_GetObjectItemCaseSensitive(j, "models"), *m;
	ok(cJSON_GetArraySize(models) > 0, "the source tree's data/prices.json lists models");
	int rows = 0, same = 0, dated_same = 0;
	cJSON_ArrayForEach(m, models) {
		rows++;
		double in = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(m, "input_per_mtok"));
		double out = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(m, "output_per_mtok"));
		double cw = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(m, "cache_write_per_mtok"));
		double cr = cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(m, "cache_read_per_mtok"));
		if (amc_prices_find(p, m->string, &pr) == 0 && near(pr.input, in) && near(pr.output, out) &&
		    near(pr.cache_write, cw) && near(pr.cache_read, cr))
			same++;
		else
			diag("%s: not found with the file's prices", m->string);
		char dated[160];
		snprintf(dated, sizeof dated, "%s-20260131", m->string);
		if (amc_prices_find(p, dated, &pr) == 0 && near(pr.input, in) && near(pr.output, out))
			dated_same++;
		else
			diag("%s: not found with its base id's prices", dated);
	}
	is_int(same, rows, "every model of the file is found by its exact id with its four prices");
	is_int(dated_same, rows, "and by its dated snapshot id (ID-YYYYMMDD)");
	cJSON_Delete(j);
	is_int(amc_prices_find(p, "gpt-oss-20b", &pr), -1, "an unknown model is not found");
	amc_prices_free(p);

	is_int(amc_prices_load("", &p, &e), 0, "an empty path also means the bundled table");
	ok(amc_prices_find(p, "claude-haiku-4-5", &pr) == 0, "same content");
	amc_prices_free(p);

	char keep[PATH_MAX];
	snprintf(keep, sizeof keep, "%s", getenv("AMC_DATA_DIR") ? getenv("AMC_DATA_DIR") : "");
	setenv("AMC_DATA_DIR", home, 1);
	is_int(amc_prices_load(NULL, &p, &e), -1, "a data folder without prices.json fails");
	like(e.msg, "price table", "the message says it is the price table");
	like(e.msg, "prices.json", "and names the file");
	setenv("AMC_DATA_DIR", "relative/data", 1);
	is_int(amc_prices_load(NULL, &p, &e), -1, "a relative AMC_DATA_DIR fails");
	like(e.msg, "AMC_DATA_DIR must be an absolute path", "and the message says why");
	if (keep[0])
		setenv("AMC_DATA_DIR", keep, 1);
	else
		unsetenv("AMC_DATA_DIR");
}

static void test_override(void)
{
	amc_prices *p = NULL;
	amc_err e;
	amc_price pr;
	const char *f = put("prices.json",
			    "{\"models\":{"
			    "\"m\":{\"input_per_mtok\":2,\"output_per_mtok\":4},"
			    "\"m-big\":{\"input_per_mtok\":10,\"output_per_mtok\":20,\"cache_write_per_mtok\":11,\"cache_read_per_mtok\":0.5},"
			    "\"no-output\":{\"input_per_mtok\":1},"
			    "\"negative\":{\"input_per_mtok\":-1,\"output_per_mtok\":1},"
			    "\"strings\":{\"input_per_mtok\":\"1\",\"output_per_mtok\":\"2\"},"
			    "\"free\":{\"input_per_mtok\":0,\"output_per_mtok\":0}}}", 0644);
	is_int(amc_prices_load(f, &p, &e), 0, "an override file loads");
	ok(amc_prices_find(p, "claude-sonnet-5", &pr) == -1, "it replaces the bundled table (no merge)");
	ok(amc_prices_find(p, "m", &pr) == 0 && near(pr.input, 2) && near(pr.output, 4), "exact id found");
	ok(near(pr.cache_write, 2.5), "missing cache write price defaults to 1.25 x input (%g)", pr.cache_write);
	ok(near(pr.cache_read, 0.2), "missing cache read price defaults to 0.1 x input (%g)", pr.cache_read);
	ok(amc_prices_find(p, "m-big-20260131", &pr) == 0 && near(pr.input, 10), "a dated id takes its own base id's price");
	ok(amc_prices_find(p, "m-20260131", &pr) == 0 && near(pr.input, 2), "m-DATE is m");
	is_int(amc_prices_find(p, "m-small", &pr), -1, "another model sharing a prefix is not m (unknown, not guessed)");
	is_int(amc_prices_find(p, "m-big-2026", &pr), -1, "a suffix that is not -YYYYMMDD does not match");
	is_int(amc_prices_find(p, "m-2026013x", &pr), -1, "nor one with a non-digit");
	is_int(amc_prices_find(p, "m-202601310", &pr), -1, "nor nine digits");
	is_int(amc_prices_find(p, "mx", &pr), -1, "mx is not m");
	is_int(amc_prices_find(p, "m-big", &pr), 0, "exact m-big");
	ok(near(pr.input, 10), "is m-big, not m");
	is_int(amc_prices_find(p, "no-output", &pr), -1, "a row without an output price is skipped");
	is_int(amc_prices_find(p, "negative", &pr), -1, "a row with a negative price is skipped");
	is_int(amc_prices_find(p, "strings", &pr), -1, "a row with string prices is skipped");
	is_int(amc_prices_find(p, NULL, &pr), -1, "a NULL model is not found");
	is_int(amc_prices_find(NULL, "m", &pr), -1, "nothing is found without a table");

	/* cost = sum of count x price per million */
	amc_llm_usage u = { 1000, 2000, 10000, 100000 };
	ok(near(amc_prices_cost(p, "m-big", &u), (1000 * 10.0 + 2000 * 20.0 + 10000 * 11.0 + 100000 * 0.5) / 1e6),
	   "cost counts input, output, cache write and cache read (%g)", amc_prices_cost(p, "m-big", &u));
	u = (amc_llm_usage){ 1000000, 1000000, -1, -1 };
	ok(near(amc_prices_cost(p, "m", &u), 6.0), "unknown cache counts add nothing");
	ok(near(amc_prices_cost(p, "free", &u), 0.0), "a free model costs 0, not unknown");
	ok(amc_prices_cost(p, "unlisted", &u) < 0, "an unknown model has an unknown cost");
	u.input_tokens = -1;
	ok(amc_prices_cost(p, "m", &u) < 0, "an unknown input count makes the cost unknown");
	u = (amc_llm_usage){ 5, -1, 0, 0 };
	ok(amc_prices_cost(p, "m", &u) < 0, "an unknown output count makes the cost unknown");
	ok(amc_prices_cost(NULL, "m", &u) < 0, "no table: unknown");
	amc_prices_free(p);
	amc_prices_free(NULL); /* harmless */

	f = put("empty-models.json", "{\"models\":{}}", 0644);
	is_int(amc_prices_load(f, &p, &e), 0, "an empty models object is a valid (empty) table");
	is_int(amc_prices_find(p, "m", &pr), -1, "where nothing is found");
	amc_prices_free(p);
}

static void test_bad_files(void)
{
	amc_prices *p = (amc_prices *)1;
	amc_err e;
	char missing[PATH_MAX + 32];
	snprintf(missing, sizeof missing, "%s/nonexistent.json", home);
	is_int(amc_prices_load(missing, &p, &e), -1, "a missing price file fails");
	ok(p == NULL, "and gives no table");
	like(e.msg, "price table", "the message says it is the price table");
	like(e.msg, "nonexistent.json", "and names the file");

	const char *f = put("broken.json", "{\"models\":{\"m\":", 0644);
	is_int(amc_prices_load(f, &p, &e), -1, "broken JSON fails");
	like(e.msg, "price table", "the message says it is the price table");
	like(e.msg, "broken.json", "and names the file");

	f = put("nomodels.json", "{\"claude-sonnet-5\":{\"input_per_mtok\":3,\"output_per_mtok\":15}}", 0644);
	is_int(amc_prices_load(f, &p, &e), -1, "a table without \"models\" fails");
	is_int(e.code, AMC_EUSAGE, "as a usage error");
	like(e.msg, "no \"models\" object", "the message says what is missing");

	f = put("array.json", "{\"models\":[1,2]}", 0644);
	is_int(amc_prices_load(f, &p, &e), -1, "\"models\" must be an object");

	/* a file over the 1 MiB bound is refused, not read whole */
	char big[PATH_MAX + 32];
	snprintf(big, sizeof big, "%s/big.json", home);
	FILE *fp = fopen(big, "w");
	fputs("{\"models\":{},\"pad\":\"", fp);
	for (int i = 0; i < (1 << 20); i++)
		fputc('x', fp);
	fputs("\"}", fp);
	fclose(fp);
	is_int(amc_prices_load(big, &p, &e), -1, "a price file over 1 MiB is refused");
	like(e.msg, "price table", "with a price-table message");
}

static void test_read_key(void)
{
	amc_err e;
	unsetenv("AMC_TEST_KEY");
	char *k = amc_llm_read_key("AMC_TEST_KEY", NULL, "set AMC_TEST_KEY please", &e);
	ok(k == NULL, "no variable and no file: no key");
	is_int(e.code, AMC_EENV, "an environment error");
	like(e.msg, "no API key: set AMC_TEST_KEY please", "the hint completes the message");
	setenv("AMC_TEST_KEY", "from-env", 1);
	k = amc_llm_read_key("AMC_TEST_KEY", NULL, "h", &e);
	is_str(k, "from-env", "the variable is read");
	free(k);
	const char *f = put("k", "file-key\r\n", 0600);
	k = amc_llm_read_key(NULL, f, "h", &e);
	is_str(k, "file-key", "no variable name: the file, CR LF trimmed");
	free(k);
	f = put("k2", "   \n", 0600);
	k = amc_llm_read_key(NULL, f, "the hint", &e);
	ok(k == NULL, "a key file of blanks is empty");
	like(e.msg, "the hint", "with the hint");
	f = put("k3", "secret-in-644\n", 0644);
	k = amc_llm_read_key(NULL, f, "h", &e);
	ok(k == NULL && !strstr(e.msg, "secret-in-644"), "a 0644 file is refused without reading it out");
	f = put("k\033[31m", "x\n", 0600);
	chmod(f, 0666);
	k = amc_llm_read_key(NULL, f, "h", &e);
	ok(k == NULL && !strchr(e.msg, 0x1b), "a hostile file name is shown terminal-safe");
}

static void test_model_ids(void)
{
	amc_err e;
	cJSON *ids = NULL;
	const char *b = "{\"data\":[{\"id\":\"a\"},{\"id\":7},{\"name\":\"x\"},{\"id\":\"b\"}]}";
	is_int(amc_llm_model_ids(b, strlen(b), "srv", &ids, &e), 0, "a catalog is read");
	is_int(cJSON_GetArraySize(ids), 2, "only string ids are kept");
	is_str(cJSON_GetArrayItem(ids, 1)->valuestring, "b", "in order");
	cJSON_Delete(ids);
	is_int(amc_llm_model_ids(NULL, 0, "my server", &ids, &e), -1, "no body fails");
	like(e.msg, "my server answered without a data array", "naming who answered");
	ok(ids == NULL, "with no array");
	is_int(amc_llm_model_ids("{\"data\":{}}", 11, "s", &ids, &e), -1, "data must be an array");

	/* a hostile catalog is bounded to 500 ids */
	cJSON *big = cJSON_CreateObject();
	cJSON *data = cJSON_AddArrayToObject(big, "data");
	for (int i = 0; i < 600; i++) {
		char id[16];
		snprintf(id, sizeof id, "m%d", i);
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "id", id);
		cJSON_AddItemToArray(data, o);
	}
	char *txt = cJSON_PrintUnformatted(big);
	is_int(amc_llm_model_ids(txt, strlen(txt), "s", &ids, &e), 0, "a 600-model catalog is read");
	is_int(cJSON_GetArraySize(ids), 500, "but only 500 ids are kept");
	cJSON_Delete(ids);
	free(txt);
	cJSON_Delete(big);
}

int main(void)
{
	home = test_home("prices");
	test_usage();
	test_bundled();
	test_override();
	test_bad_files();
	test_read_key();
	test_model_ids();
	return done_testing();
}
