/* amc tui - the terminal interface (also what `amc` with no arguments opens). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "flow/selgen.h"
#include "tui/theme.h"
#include "tui/tui.h"

/* The TUI's selector maker (amc_tui_opts.selector): flow/selgen.c, checked
 * against the tree to find exactly node i. cli/ sits above both layers. */
static int selector_for(const amc_ui_tree *t, size_t i, amc_sb *out)
{
	amc_selector s;
	if (amc_selgen_node(t, i, &s) != 0)
		return -1;
	amc_selgen_yaml(&s, out);
	amc_selgen_free(&s);
	return 0;
}

static int run(amc_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "graphics", required_argument, 0, 'g' },
		{ "theme", required_argument, 0, 't' },
		{ "script", required_argument, 0, 's' },
		{ "dump-dir", required_argument, 0, 'o' },
		{ "size", required_argument, 0, 'z' },
		{ "tty-output", required_argument, 0, 'T' },
		{ "man", no_argument, 0, 'm' },
		{ 0, 0, 0, 0 },
	};
	amc_tui_opts o = { 0 };
	o.home = cli->home;
	o.cfg = cli->cfg;
	o.selector = selector_for;
	amc_err e;
	amc_err_clear(&e);
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'g':
			if (amc_config_set(cli->cfg, "tui", "graphics", optarg, "command line", &e) != 0)
				return amc_cli_usage(&amc_cmd_tui, "%s", e.msg);
			break;
		case 't':
			if (amc_config_set(cli->cfg, "tui", "theme", optarg, "command line", &e) != 0)
				return amc_cli_usage(&amc_cmd_tui, "%s", e.msg);
			/* a theme asked for by name on the command line must exist:
			 * a typo is a usage error (exit 2), not a warning inside the
			 * interface; the configuration's theme still only warns */
			{
				amc_tui_theme th;
				if (amc_tui_theme_load(&th, optarg, &e) != 0 &&
				    (!strncmp(e.msg, "no theme ", 9) || !strncmp(e.msg, "bad theme name", 14)))
					return amc_cli_usage(&amc_cmd_tui, "--theme: %s", e.msg);
				amc_err_clear(&e); /* a theme file with a mistake: the TUI says so and falls back */
			}
			break;
		case 's': o.script = optarg; break;
		case 'o': o.dump_dir = optarg; break;
		case 'T': o.tty_output = optarg; break;
		case 'z':
			if (sscanf(optarg, "%dx%d", &o.cols, &o.rows) != 2 || o.cols < 20 || o.rows < 5 ||
			    o.cols > 1000 || o.rows > 1000)
				return amc_cli_usage(&amc_cmd_tui, "--size takes COLSxROWS, e.g. 120x40");
			break;
		case 'm':
			{
				size_t n;
				const amc_cmd *const *cmds = amc_cli_commands(&n);
				amc_cli_write_man(stdout, cmds, n);
			}
			return 0;
		default: return amc_cli_usage(&amc_cmd_tui, "unknown option");
		}
	}
	if (optind < argc)
		return amc_cli_usage(&amc_cmd_tui, "unexpected argument");
	if (!o.script && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		amc_err_set(&e, AMC_EUSAGE, "the terminal interface needs a terminal; see `amc --help` for the headless commands");
		return amc_cli_fail(&e);
	}
	if (amc_tui_main(&o, &e) != 0)
		return amc_cli_fail(&e);
	return 0;
}

const amc_cmd amc_cmd_tui = {
	"tui",
	"tui [--theme NAME] [--graphics MODE] [--script FILE --dump-dir DIR --size COLSxROWS] [--man]",
	"open the terminal interface (the default without a command)",
	"Options:\n"
	"  --theme NAME        default, light, high-contrast, monochrome or a file\n"
	"                      $XDG_CONFIG_HOME/amc/themes/NAME.theme ([tui] theme)\n"
	"  --graphics MODE     auto, symbols, sixel, kitty, iterm or none ([tui] graphics);\n"
	"                      auto: pixels where the terminal confirms sixel or kitty\n"
	"                      (never inside tmux), else symbols; none: no image, its size in words\n"
	"  --script FILE       script mode for tests: keys from FILE, the screen goes to a\n"
	"                      virtual terminal; ':dump NAME' writes NAME.txt to --dump-dir\n"
	"  --size COLSxROWS    the virtual terminal's size in script mode\n"
	"  --tty-output FILE   script mode: write the terminal's bytes to FILE\n"
	"  --man               print the amc(1) man page (generated from the keymap)\n"
	"Environment: AMC_TUI_NOW=MS fixes the clock (tests); NO_COLOR selects monochrome.\n"
	"Keys: press ? in any view.\n",
	run,
};
