/* test_keyboard.c - a soft keyboard recognized as one thing: which nodes are
 * an input method's, which layouts key labels spell, and which OCR word grids
 * are keyboards (the sim's, as tesseract reads it) and which are not
 * (the same words high on the screen, a calendar, a column of short words). */
#include <stdio.h>
#include <string.h>

#include "perception/keyboard.h"
#include "tap.h"

#define K(t, x1, y1, x2, y2) { { x1, y1, x2, y2 }, t }

/* What tesseract read of the sim's keyboard (Contacts' search focused,
 * 1080x2400, `amc scene --ocr gaps`): misreads ("Oo", "kK", "vb", "t" for the
 * shift arrow) and missing keys (q, w, e, p, l) included. */
static const amc_kb_key SIM[] = {
	K("r", 375, 1749, 394, 1782), K("t", 477, 1740, 497, 1782), K("y", 577, 1749, 607, 1794),
	K("u", 684, 1750, 711, 1783), K("I", 799, 1750, 805, 1782), K("Oo", 893, 1749, 922, 1783),
	K("a", 104, 1901, 131, 1935), K("S", 212, 1901, 236, 1935), K("d", 314, 1889, 343, 1934),
	K("f", 425, 1889, 446, 1934), K("g", 524, 1901, 553, 1946), K("h", 631, 1889, 658, 1934),
	K("J", 740, 1901, 752, 1946), K("kK", 842, 1889, 870, 1934), K("t", 76, 2042, 105, 2086),
	K("Z", 211, 2054, 237, 2086), K("x", 314, 2054, 341, 2086), K("C", 421, 2053, 446, 2087),
	K("vb", 524, 2041, 660, 2086), K("nm", 736, 2053, 878, 2086), K("?123", 30, 2199, 138, 2235),
	K("09:41", 65, 27, 167, 54), K("72%", 958, 26, 1036, 55),
};
#define NSIM (sizeof SIM / sizeof SIM[0])

static void test_ime_nodes(void)
{
	amc_ui_node n;
	memset(&n, 0, sizeof n);
	n.text = n.resource_id = n.content_desc = n.hint = "";
	n.class_name = "android.widget.FrameLayout";
	n.package = "com.android.settings";
	ok(!amc_keyboard_ime_node(&n), "an app's node is not an IME's");
	n.package = "com.google.android.inputmethod.latin";
	ok(amc_keyboard_ime_node(&n), "Gboard's package");
	n.package = "com.menny.android.anysoftkeyboard";
	ok(amc_keyboard_ime_node(&n), "a package naming a keyboard");
	n.package = "com.samsung.android.honeyboard";
	ok(amc_keyboard_ime_node(&n), "Samsung's keyboard");
	n.package = "com.example.app";
	n.class_name = "android.inputmethodservice.Keyboard$Key";
	ok(amc_keyboard_ime_node(&n), "an android.inputmethodservice class");
	n.class_name = "android.view.View";
	n.resource_id = "com.example.ime:id/key_pos_0_0";
	ok(amc_keyboard_ime_node(&n), "a Gboard key id");
	n.resource_id = "android:id/inputArea";
	ok(amc_keyboard_ime_node(&n), "the input area");
	ok(!amc_keyboard_ime_node(NULL), "no node");
}

/* Keys of `rows` laid out as a keyboard: 108 px keys, 150 px rows. */
static size_t board(const char *const *rows, size_t nrows, amc_kb_key *out, char lbl[][2], int top)
{
	size_t n = 0;
	for (size_t r = 0; r < nrows; r++)
		for (size_t c = 0; rows[r][c]; c++) {
			lbl[n][0] = rows[r][c];
			lbl[n][1] = 0;
			int x = 54 * (int)r + 108 * (int)c + 30, y = top + 150 * (int)r + 50;
			out[n] = (amc_kb_key){ { x, y, x + 30, y + 40 }, lbl[n] };
			n++;
		}
	return n;
}

static void test_layouts(void)
{
	amc_kb_key k[64];
	char l[64][2];
	static const char *const qwerty[] = { "qwertyuiop", "asdfghjkl", "zxcvbnm" };
	static const char *const qwertz[] = { "QWERTZUIOP", "ASDFGHJKL", "YXCVBNM" };
	static const char *const azerty[] = { "azertyuiop", "qsdfghjklm", "wxcvbn" };
	static const char *const pad[] = { "123", "456", "789", "0" };
	static const char *const symbols[] = { "1234567890", "@#$_&-+()", "*\"':;!?" };
	static const char *const numbers[] = { "3141592", "6535897", "9323846" };
	ok(amc_keyboard_layout(NULL, 0) == NULL, "no keys: no layout");
	is_str(amc_keyboard_layout(k, board(qwerty, 3, k, l, 1700)), "QWERTY", "qwerty rows");
	is_str(amc_keyboard_layout(k, board(qwertz, 3, k, l, 1700)), "QWERTZ", "QWERTZ rows (capitals: shift on)");
	is_str(amc_keyboard_layout(k, board(azerty, 3, k, l, 1700)), "AZERTY", "azerty rows");
	is_str(amc_keyboard_layout(k, board(pad, 4, k, l, 1700)), "numeric", "a numeric pad");
	is_str(amc_keyboard_layout(k, board(symbols, 3, k, l, 1700)), "symbols", "the symbols board's number row");
	ok(amc_keyboard_layout(k, board(numbers, 3, k, l, 1700)) == NULL, "digits in no pad's order: none");
	static const char *const mixed[] = { "qazwsxedc", "rfvtgbyhn", "ujmikolp" };
	ok(amc_keyboard_layout(k, board(mixed, 3, k, l, 1700)) == NULL, "letters in no layout's rows: none");
	char label[32];
	amc_keyboard_label("QWERTY", label, sizeof label);
	is_str(label, "keyboard (QWERTY)", "the label names the layout");
	amc_keyboard_label(NULL, label, sizeof label);
	is_str(label, "keyboard", "... or is only 'keyboard'");
}

static void test_find_sim(void)
{
	amc_bounds b;
	const char *layout = NULL;
	ok(amc_keyboard_find(SIM, NSIM, 1080, 2400, &b, &layout), "the sim's keyboard, as OCR reads it, is found");
	is_str(layout, "QWERTY", "its layout");
	ok(b.x1 == 0 && b.x2 == 1080, "it spans the screen's width");
	ok(b.y1 > 1640 && b.y1 < 1700, "its top is near the keyboard's (1665)");
	is_int(b.y2, 2400, "it reaches the screen's bottom");
	size_t in = 0;
	for (size_t i = 0; i < NSIM; i++)
		in += amc_keyboard_holds(&b, &SIM[i].box);
	is_int((int)in, (int)NSIM - 2, "every key word is inside it, the status bar's two are not");

	/* the same grid in the upper part of the screen is no soft keyboard */
	amc_kb_key up[NSIM];
	for (size_t i = 0; i < NSIM; i++) {
		up[i] = SIM[i];
		up[i].box.y1 -= 1500;
		up[i].box.y2 -= 1500;
	}
	ok(!amc_keyboard_find(up, NSIM, 1080, 2400, &b, &layout), "high on the screen: not a keyboard");
	/* two of its three rows are not enough */
	ok(!amc_keyboard_find(SIM + 6, 8, 1080, 2400, &b, &layout), "one row: not a keyboard");
	ok(!amc_keyboard_find(SIM, NSIM, 0, 0, &b, &layout), "no screen size: nothing");
}

static void test_not_keyboards(void)
{
	amc_bounds b;
	const char *layout;
	/* a month in a calendar at the bottom: rows of numbers, 7 columns */
	amc_kb_key cal[35];
	char num[35][3];
	for (int d = 0; d < 35; d++) {
		snprintf(num[d], sizeof num[d], "%d", d % 31 + 1);
		int x = 40 + (d % 7) * 150, y = 1300 + (d / 7) * 140;
		cal[d] = (amc_kb_key){ { x, y, x + 40, y + 40 }, num[d] };
	}
	ok(!amc_keyboard_find(cal, 35, 1080, 2400, &b, &layout), "a calendar's grid is not a keyboard");
	/* a column of short labels (a list's initials) */
	amc_kb_key col[8];
	static const char *const ini[] = { "A", "B", "C", "D", "E", "F", "G", "H" };
	for (int i = 0; i < 8; i++)
		col[i] = (amc_kb_key){ { 40, 1200 + i * 140, 80, 1240 + i * 140 }, ini[i] };
	ok(!amc_keyboard_find(col, 8, 1080, 2400, &b, &layout), "a column of initials is not a keyboard");
	/* long words are not key labels */
	amc_kb_key words[NSIM];
	for (size_t i = 0; i < NSIM; i++) {
		words[i] = SIM[i];
		words[i].text = "keyboards";
	}
	ok(!amc_keyboard_find(words, NSIM, 1080, 2400, &b, &layout), "a grid of long words is not a keyboard");
}

int main(void)
{
	test_ime_nodes();
	test_layouts();
	test_find_sim();
	test_not_keyboards();
	return done_testing();
}
