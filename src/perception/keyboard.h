/* keyboard.h - a soft keyboard on screen, recognized as one thing.
 *
 * A keyboard is 30-odd keys, and a Scene that lists them as 23 one-letter
 * words ("Oo", "kK", "vb") tells a planner or a person nothing and buries the
 * screen's real elements. The Scene shows it as one element of type
 * `keyboard` ("keyboard (QWERTY)") instead; typing stays what it is, the
 * type_text tool into the focused field.
 *
 * Two ways to see one:
 * - in the UI tree, when the dump holds the input method's window (Appium
 *   with multiple windows, uiautomator2's dump, TV helpers): nodes of an IME
 *   package, of an android.inputmethodservice class, or with a Gboard key id;
 * - in OCR words, when it does not (`adb shell uiautomator dump` and the sim
 *   leave the IME out, so only pixels show it): short tokens in the lower part
 *   of the screen, in at least three rows at a regular pitch, whose letters
 *   spell a known layout's rows (or a numeric pad's 1-2-3 / 4-5-6 / 7-8-9).
 *   Grids that spell no layout (a calendar, a photo grid's captions) are not
 *   keyboards. */
#ifndef AMC_KEYBOARD_H
#define AMC_KEYBOARD_H

#include <stddef.h>
#include "perception/uitree.h"

/* A key's label and box: an OCR word or a node of an IME's tree. */
typedef struct amc_kb_key {
	amc_bounds box;
	const char *text; /* borrowed */
} amc_kb_key;

/* Tokens longer than this many bytes are not key labels ("?123" is). */
#define AMC_KB_MAX_LABEL 4
/* Only tokens whose centre lies below this fraction of the screen's height
 * count: a soft keyboard takes the bottom of the screen. */
#define AMC_KB_MIN_TOP 0.4
/* A row of keys: tokens whose centres lie within this many token heights of
 * the row's first, spanning at least this fraction of the screen's width. */
#define AMC_KB_ROW_TOLERANCE 0.5
#define AMC_KB_ROW_MIN_SPAN 0.3
/* At least this many rows, at a pitch that varies by at most this factor. */
#define AMC_KB_MIN_ROWS 3
#define AMC_KB_PITCH_RATIO 1.5
/* At least this fraction of the grid's letters must sit in the layout's
 * matching row (OCR misreads some: "Oo" for o, "t" for the shift arrow). */
#define AMC_KB_MIN_LAYOUT_SCORE 0.6

/* Whether a node belongs to an input method: its package is an IME's
 * (com.google.android.inputmethod.latin, com.android.inputmethod.latin,
 * com.samsung.android.honeyboard, com.touchtype.swiftkey, any package naming
 * "inputmethod" or "keyboard"), its class is android.inputmethodservice.*,
 * or its id is android:id/inputArea or a Gboard key (":id/key_pos_"). */
int amc_keyboard_ime_node(const amc_ui_node *n);

/* The layout the keys spell, read row by row from the top: "QWERTY",
 * "QWERTZ", "AZERTY", "numeric", or NULL when they spell none. */
const char *amc_keyboard_layout(const amc_kb_key *keys, size_t n);

/* Finds a keyboard-shaped grid among OCR words on a width x height screen.
 * Returns 1 and sets *box (the keyboard's full width, from its top row to
 * the screen's bottom when its last row is near it) and *layout, else 0.
 * Every word whose centre lies in *box belongs to the keyboard. */
int amc_keyboard_find(const amc_kb_key *keys, size_t n, int width, int height, amc_bounds *box,
		      const char **layout);

/* "keyboard (QWERTY)", or "keyboard" for a NULL layout, into out. */
void amc_keyboard_label(const char *layout, char *out, size_t n);

/* Whether the centre of `b` lies inside `box`. */
int amc_keyboard_holds(const amc_bounds *box, const amc_bounds *b);

#endif
