/* Fuzz target: a colour theme file (tui/theme.c): themes/ ships four, and a
 * user's own come from $XDG_CONFIG_HOME/amc/themes/, read as outside input.
 * Input limits: the loader reads at most 64 KB; a line longer than 511 bytes
 * is cut; at most 8 words a line count. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tui/theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	amc_tui_theme t;
	amc_err e;
	memset(&t, 0, sizeof t);
	amc_err_clear(&e);
	if (amc_tui_theme_parse(&t, (const char *)data, size, "fuzz.theme", &e) != 0 && !e.msg[0])
		__builtin_trap(); /* a refusal always says why */
	/* what a parsed theme holds stays in range: colours -1..255 */
	for (int i = 0; i < AMC_EL__COUNT; i++)
		if (t.has_colour[i] && (t.fg[i] < -1 || t.fg[i] > 255 || t.bg[i] < -1 || t.bg[i] > 255))
			__builtin_trap();
	return 0;
}
