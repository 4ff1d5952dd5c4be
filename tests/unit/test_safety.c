/* test_safety.c - the irreversible-action word list (the bundled one, a file of
 * our own with comments, blank lines and CRLF, the default path, files that
 * cannot be used), whole-word case-insensitive matching, and the element a tap
 * at x,y lands on. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/safety.h"
#include "tap.h"
#include "testutil.h"

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
		printf("Bail out! cannot write %s\n", path);
		exit(1);
	}
}

int main(void)
{
	const char *home = test_home("safety");
	amc_words w;
	amc_err e;

	/* ---- the bundled list ---- */
	ok(amc_words_load(test_src("data/irreversible-words.txt"), &w, &e) == 0, "the bundled word list loads");
	ok(w.n >= 10, "with its words (%zu)", w.n);
	int lower = 1, comments = 0;
	for (size_t i = 0; i < w.n; i++) {
		for (const char *c = w.w[i]; *c; c++)
			if (*c >= 'A' && *c <= 'Z')
				lower = 0;
		comments += w.w[i][0] == '#';
	}
	ok(lower, "every word is lower case");
	is_int(comments, 0, "no comment line is a word");
	is_str(amc_words_match(&w, "Delete"), "delete", "'Delete' matches, case-insensitive");
	is_str(amc_words_match(&w, "Send message"), "send", "'Send message' matches send");
	ok(!amc_words_match(&w, "Resend code later"), "'Resend' is not the whole word send");
	ok(!amc_words_match(&w, "Deleted items"), "'Deleted' is not the whole word delete");
	is_str(amc_words_match(&w, "Factory reset phone"), "reset", "the first listed word that occurs wins");
	is_str(amc_words_match(&w, "SIGN OUT"), "sign out", "phrases match too");
	ok(!amc_words_match(&w, "Save"), "'Save' matches nothing");
	amc_words_free(&w);
	is_int(w.n, 0, "free empties the list");
	ok(w.w == NULL, "and its array");
	amc_words_free(&w);
	ok(w.n == 0 && w.w == NULL, "a second free leaves the list empty");
	amc_words_free(NULL); /* no effect to see: a crash here fails the plan */

	/* ---- a file of our own: comments, blanks, spaces, CRLF ---- */
	char path[PATH_MAX + 16];
	snprintf(path, sizeof path, "%s/words.txt", home);
	write_file(path, "# irreversible words\n\n   \n  Wipe Data  \r\n\t#indented comment\nBURN\nsend_all\n"
		   "über\nlast-line-without-newline");
	ok(amc_words_load(path, &w, &e) == 0, "our own list loads");
	is_int(w.n, 5, "five entries: comments and blank lines skipped");
	if (w.n == 5) {
		is_str(w.w[0], "wipe data", "spaces and CR trimmed, lower-cased");
		is_str(w.w[1], "burn", "lower-cased");
		is_str(w.w[2], "send_all", "underscores kept");
		is_str(w.w[3], "über", "UTF-8 kept as it is");
		is_str(w.w[4], "last-line-without-newline", "the last line without a newline");
	}
	is_str(amc_words_match(&w, "Wipe data now"), "wipe data", "a phrase, case-insensitive");
	ok(!amc_words_match(&w, "Wipe  data"), "a phrase matches its exact spacing only");
	is_str(amc_words_match(&w, "burn"), "burn", "the whole text");
	is_str(amc_words_match(&w, "Burn!"), "burn", "punctuation ends a word");
	is_str(amc_words_match(&w, "(burn)"), "burn", "and starts one");
	is_str(amc_words_match(&w, "re-burn"), "burn", "a hyphen separates words");
	ok(!amc_words_match(&w, "burner"), "a letter after: not the word");
	ok(!amc_words_match(&w, "reburn"), "a letter before: not the word");
	ok(!amc_words_match(&w, "burn2"), "a digit after: not the word");
	ok(!amc_words_match(&w, "burn_it"), "an underscore after: not the word");
	ok(!amc_words_match(&w, "send"), "'send' is not in this list");
	is_str(amc_words_match(&w, "Send_All"), "send_all", "a word with an underscore");
	ok(!amc_words_match(&w, "\xc3\xa9" "burn"), "a non-ASCII letter before: not the word");
	is_str(amc_words_match(&w, "über alles"), "über", "a UTF-8 word, as bytes");
	ok(!amc_words_match(&w, "bur"), "a text shorter than every word");
	ok(!amc_words_match(&w, ""), "the empty text");
	ok(!amc_words_match(&w, NULL), "no text");
	ok(!amc_words_match(NULL, "burn"), "no list");
	amc_words_free(&w);

	/* ---- an empty list gates nothing ---- */
	write_file(path, "# nothing\n\n");
	ok(amc_words_load(path, &w, &e) == 0, "a file of comments loads");
	is_int(w.n, 0, "with no words");
	ok(!amc_words_match(&w, "Delete everything"), "and nothing matches");
	amc_words_free(&w);

	/* ---- the default path: the data folder ---- */
	char data[PATH_MAX + 8], dpath[PATH_MAX + 40];
	snprintf(data, sizeof data, "%s/data", home);
	snprintf(dpath, sizeof dpath, "%s/irreversible-words.txt", data);
	ok(mkdir(data, 0700) == 0, "a data folder");
	write_file(dpath, "detonate\n");
	setenv("AMC_DATA_DIR", data, 1);
	ok(amc_words_load(NULL, &w, &e) == 0, "NULL: the data folder's list");
	ok(w.n == 1 && amc_words_match(&w, "Detonate"), "that list is used");
	amc_words_free(&w);
	ok(amc_words_load("", &w, &e) == 0 && w.n == 1, "\"\" is the default too");
	amc_words_free(&w);
	unlink(dpath);
	amc_err_clear(&e);
	ok(amc_words_load(NULL, &w, &e) != 0, "no list in the data folder: an error");
	like(e.msg, "irreversible-action words", "saying which file");
	setenv("AMC_DATA_DIR", "relative/data", 1);
	amc_err_clear(&e);
	ok(amc_words_load(NULL, &w, &e) != 0, "a relative AMC_DATA_DIR: an error");
	like(e.msg, "AMC_DATA_DIR", "naming the variable");
	unsetenv("AMC_DATA_DIR");

	/* ---- files that cannot be used ---- */
	char missing[PATH_MAX + 16];
	snprintf(missing, sizeof missing, "%s/none.txt", home);
	amc_err_clear(&e);
	ok(amc_words_load(missing, &w, &e) != 0, "a missing file: an error");
	like(e.msg, "irreversible-action words", "saying what it was for");
	ok(w.n == 0 && w.w == NULL, "and the list is empty");
	amc_err_clear(&e);
	ok(amc_words_load(home, &w, &e) != 0, "a folder: an error");
	like(e.msg, "irreversible-action words", "saying what it was for");
	FILE *f = fopen(path, "w");
	for (int i = 0; f && i < (1 << 20) / 8 + 2; i++)
		fputs("abcdefg\n", f);
	ok(f && fclose(f) == 0, "a file over 1 MiB");
	amc_err_clear(&e);
	ok(amc_words_load(path, &w, &e) != 0, "is refused");
	ok(e.code != AMC_OK, "with an error code");

	/* ---- the element a tap lands on ---- */
	amc_element els[5];
	memset(els, 0, sizeof els);
	els[0].bounds = (amc_bounds){ 0, 0, 1000, 1000 };
	els[1].bounds = (amc_bounds){ 100, 100, 300, 300 };
	els[2].bounds = (amc_bounds){ 500, 500, 600, 600 };
	els[3].bounds = (amc_bounds){ 500, 500, 600, 600 }; /* drawn over els[2] */
	els[4].bounds = (amc_bounds){ 120, 120, 180, 180 }; /* inside els[1] */
	amc_scene sc = { 1000, 1000, els, 5 };
	ok(amc_scene_element_at(&sc, 150, 150) == &els[4], "the smallest containing element");
	ok(amc_scene_element_at(&sc, 250, 250) == &els[1], "else the next smallest");
	ok(amc_scene_element_at(&sc, 50, 50) == &els[0], "else the container");
	ok(amc_scene_element_at(&sc, 550, 550) == &els[3], "on a tie, the later one (drawn on top)");
	ok(amc_scene_element_at(&sc, 100, 100) == &els[1], "the top-left edge is inside");
	ok(amc_scene_element_at(&sc, 300, 300) == &els[0], "the bottom-right edge is outside");
	ok(amc_scene_element_at(&sc, 2000, 50) == NULL, "outside everything: none");
	ok(amc_scene_element_at(&sc, -1, 10) == NULL, "a negative coordinate: none");
	amc_scene empty = { 1000, 1000, NULL, 0 };
	ok(amc_scene_element_at(&empty, 10, 10) == NULL, "an empty scene: none");
	ok(amc_scene_element_at(NULL, 10, 10) == NULL, "no scene: none");
	return done_testing();
}
