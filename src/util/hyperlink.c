/* hyperlink.c - OSC 8 file links (see hyperlink.h). */
#include "util/hyperlink.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "util/sanitize.h"

static const char *plain_getenv(const char *name)
{
	return getenv(name);
}

static int set(const char *v)
{
	return v && *v;
}

int amc_hyperlink_supported(int fd, const char *(*getenv_fn)(const char *))
{
	const char *(*env)(const char *) = getenv_fn ? getenv_fn : plain_getenv;
	const char *force = env("AMC_HYPERLINKS");
	if (set(force) && (!strcasecmp(force, "on") || !strcmp(force, "1") || !strcasecmp(force, "yes")))
		return 1;
	if (set(force) && strcasecmp(force, "auto"))
		return 0; /* off, 0, no, or anything unknown: plain text is never wrong */
	if (!isatty(fd))
		return 0;
	/* tmux before 3.4 drops them, screen mangles them: do not guess inside one */
	if (set(env("TMUX")) || set(env("STY")))
		return 0;
	const char *term = env("TERM");
	if (!set(term) || !strcmp(term, "dumb") || !strcmp(term, "linux") || !strncmp(term, "screen", 6) ||
	    !strncmp(term, "tmux", 4))
		return 0;
	static const char *const programs[] = { "WezTerm", "iTerm.app", "vscode", "ghostty", "Tabby" };
	const char *tp = env("TERM_PROGRAM");
	for (size_t i = 0; set(tp) && i < sizeof programs / sizeof programs[0]; i++)
		if (!strcmp(tp, programs[i]))
			return 1;
	const char *lt = env("LC_TERMINAL");
	if (set(lt) && !strcmp(lt, "iTerm2"))
		return 1;
	const char *vte = env("VTE_VERSION");
	if (set(vte) && atol(vte) >= 5000)
		return 1;
	if (set(env("KONSOLE_VERSION")) || set(env("KITTY_WINDOW_ID")) || set(env("WT_SESSION")))
		return 1;
	static const char *const terms[] = { "xterm-kitty", "foot", "alacritty", "wezterm", "xterm-ghostty", "contour" };
	for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++)
		if (!strncmp(term, terms[i], strlen(terms[i])))
			return 1;
	return 0;
}

int amc_hyperlink_file_uri(const char *abspath, amc_sb *out)
{
	if (!abspath || abspath[0] != '/')
		return -1;
	char host[256] = "";
	if (gethostname(host, sizeof host - 1) != 0)
		host[0] = 0;
	host[sizeof host - 1] = 0;
	amc_sb_puts(out, "file://");
	/* the host name is encoded like the path: it came from the system, but a
	 * byte below 0x20 would end the escape sequence */
	for (int part = 0; part < 2; part++)
		for (const unsigned char *p = (const unsigned char *)(part ? abspath : host); *p; p++) {
			if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
			    strchr("-._~", *p) || (part && *p == '/'))
				amc_sb_putc(out, (char)*p);
			else
				amc_sb_printf(out, "%%%02X", *p);
		}
	return 0;
}

void amc_hyperlink_wrap(const char *abspath, const char *shown, amc_sb *out)
{
	amc_sb uri;
	amc_sb_init(&uri);
	int ok = amc_hyperlink_file_uri(abspath, &uri) == 0;
	if (ok)
		amc_sb_printf(out, "\033]8;;%s\033\\", amc_sb_str(&uri));
	amc_sanitize_line(shown ? shown : "", shown ? strlen(shown) : 0, out);
	if (ok)
		amc_sb_puts(out, "\033]8;;\033\\");
	amc_sb_free(&uri);
}

void amc_hyperlink_put_path(FILE *f, const char *abspath, int link)
{
	amc_sb sb;
	amc_sb_init(&sb);
	if (link)
		amc_hyperlink_wrap(abspath, abspath, &sb);
	else
		amc_sanitize_line(abspath ? abspath : "", abspath ? strlen(abspath) : 0, &sb);
	fputs(amc_sb_str(&sb), f);
	amc_sb_free(&sb);
}
