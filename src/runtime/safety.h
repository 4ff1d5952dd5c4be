/* safety.h - irreversible-action words (data/irreversible-words.txt) and
 * finding the element a tap lands on. */
#ifndef AMC_SAFETY_H
#define AMC_SAFETY_H

#include <stddef.h>
#include "perception/scene.h"
#include "util/err.h"

typedef struct amc_words {
	char **w;   /* lower-case words or phrases */
	size_t n;
} amc_words;

/* Load a word list: one word or phrase a line, '#' comments. path NULL: the
 * bundled data/irreversible-words.txt. */
int amc_words_load(const char *path, amc_words *out, amc_err *e);
void amc_words_free(amc_words *w);
/* The first listed word that occurs in `text` as whole words (ASCII
 * case-insensitive; word characters are letters, digits and '_'), or NULL. */
const char *amc_words_match(const amc_words *w, const char *text);

/* The topmost element whose bounds contain x,y: among the containing elements
 * the one with the smallest area (later in document order on a tie, as it is
 * drawn on top). NULL when none. */
const amc_element *amc_scene_element_at(const amc_scene *s, int x, int y);

#endif
