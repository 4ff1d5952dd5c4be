/* amc sim - look at and drive the simulated phone directly (for people and tests). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "device/device.h"
#include "device/sim/sim.h"
#include "util/fsutil.h"
#include "util/sanitize.h"
#include "util/strbuf.h"

typedef struct sim_action {
	const char *name;
	int min_args, max_args;
	const char *args;
	const char *help;
} sim_action;

static const sim_action ACTIONS[] = {
	{ "screenshot", 1, 1, "OUT.png", "write the current screen as PNG" },
	{ "ui", 0, 0, "", "print the UI tree (uiautomator dump XML)" },
	{ "state", 0, 2, "[--set FILE]", "print the phone's state as JSON; --set FILE (- for stdin) sets it" },
	{ "reset", 0, 0, "", "restore the factory state" },
	{ "tap", 2, 2, "X Y", "tap at X,Y" },
	{ "long-press", 2, 3, "X Y [MS]", "press at X,Y (default 800 ms)" },
	{ "type", 1, 1, "TEXT", "type TEXT into the focused field" },
	{ "key", 1, 1, "back|home|enter|delete", "press a key" },
	{ "swipe", 4, 5, "X1 Y1 X2 Y2 [MS]", "swipe (scrolls lists)" },
	{ "launch", 1, 1, "APP_ID", "start an app (com.android.settings, com.android.contacts, com.amc.notes, com.android.deskclock, com.amc.messages, com.amc.files)" },
	{ "wait", 1, 1, "MS", "let MS milliseconds of sim time pass" },
};

static int num(const char *s, long min, long max, long *out, amc_err *e)
{
	return amc_cli_int("coordinate", s, min, max, out, e);
}

static int act(amc_device *d, const sim_action *a, char **args, int nargs, amc_err *e)
{
	long v[5] = { 0 };
	if (!strcmp(a->name, "tap") || !strcmp(a->name, "long-press") || !strcmp(a->name, "swipe") ||
	    !strcmp(a->name, "wait")) {
		for (int i = 0; i < nargs; i++)
			if (num(args[i], 0, 1000000, &v[i], e) != 0)
				return -1;
	}
	if (!strcmp(a->name, "tap"))
		return d->ops->tap(d, (int)v[0], (int)v[1], e);
	if (!strcmp(a->name, "long-press"))
		return d->ops->long_press(d, (int)v[0], (int)v[1], nargs > 2 ? (int)v[2] : 800, e);
	if (!strcmp(a->name, "swipe"))
		return d->ops->swipe(d, (int)v[0], (int)v[1], (int)v[2], (int)v[3], nargs > 4 ? (int)v[4] : 300, e);
	if (!strcmp(a->name, "wait"))
		return d->ops->wait(d, (int)v[0], e);
	if (!strcmp(a->name, "type"))
		return d->ops->type_text(d, args[0], e);
	if (!strcmp(a->name, "launch"))
		return d->ops->launch_app(d, args[0], e);
	if (!strcmp(a->name, "key")) {
		amc_key k;
		if (amc_key_parse(args[0], &k) != 0) {
			char *s = amc_sanitize_dup(args[0]);
			amc_err_set(e, AMC_EUSAGE, "unknown key '%s' (back, home, enter, delete)", s);
			free(s);
			return -1;
		}
		return d->ops->key(d, k, e);
	}
	if (!strcmp(a->name, "screenshot")) {
		unsigned char *png;
		size_t len;
		if (d->ops->screenshot(d, &png, &len, e) != 0)
			return -1;
		int rc = amc_write_atomic(args[0], png, len, 0600, e);
		free(png);
		return rc;
	}
	if (!strcmp(a->name, "ui")) {
		char *xml;
		size_t len;
		if (d->ops->ui_tree(d, &xml, &len, e) != 0)
			return -1;
		/* The dump is device text: print it terminal-safe (XML escapes are kept as they are). */
		amc_sb sb;
		amc_sb_init(&sb);
		amc_sanitize_text(xml, len, &sb);
		printf("%s\n", amc_sb_str(&sb));
		amc_sb_free(&sb);
		free(xml);
		return 0;
	}
	return amc_err_set(e, AMC_EUSAGE, "unknown sim action");
}

/* amc sim state --set FILE: keys of `amc sim state` over the factory state. */
static int set_state(amc_device *d, const char *path, amc_err *e)
{
	char *text = NULL;
	size_t len = 0;
	if (!strcmp(path, "-")) {
		amc_sb sb;
		amc_sb_init(&sb);
		char buf[4096];
		size_t n;
		while ((n = fread(buf, 1, sizeof buf, stdin)) > 0) {
			amc_sb_append(&sb, buf, n);
			if (sb.len > (32u << 20)) {
				amc_sb_free(&sb);
				return amc_err_set(e, AMC_EUSAGE, "the state on stdin is larger than 32 MiB");
			}
		}
		len = sb.len;
		text = amc_sb_detach(&sb);
	} else if (amc_read_file(path, 32u << 20, &text, &len, e) != 0) {
		return -1;
	}
	int rc = amc_sim_set_state(d, text, len, e);
	free(text);
	return rc;
}

static int run(amc_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = { { "device", required_argument, 0, 'd' }, { 0, 0, 0, 0 } };
	const char *device_arg = "sim";
	int c;
	amc_err e;
	while ((c = getopt_long(argc, argv, "+d:", opts, NULL)) != -1) {
		if (c == 'd')
			device_arg = optarg;
		else
			return amc_cli_usage(&amc_cmd_sim, "unknown option");
	}
	if (optind >= argc)
		return amc_cli_usage(&amc_cmd_sim, "which action? (screenshot, ui, state, reset, tap, long-press, "
				     "type, key, swipe, launch, wait)");
	const sim_action *a = NULL;
	for (size_t i = 0; i < sizeof ACTIONS / sizeof *ACTIONS; i++)
		if (!strcmp(ACTIONS[i].name, argv[optind]))
			a = &ACTIONS[i];
	if (!a)
		return amc_cli_usage(&amc_cmd_sim, "unknown action '%s'", argv[optind]);
	int nargs = argc - optind - 1;
	if (nargs < a->min_args || nargs > a->max_args)
		return amc_cli_usage(&amc_cmd_sim, "usage: amc sim %s %s", a->name, a->args);

	char id[128];
	if (amc_device_id_normalize(device_arg, id, sizeof id, &e) != 0)
		return amc_cli_fail(&e);
	if (strncmp(id, "sim:", 4))
		return amc_cli_usage(&amc_cmd_sim, "'%s' is not a simulated phone", id);
	int index = atoi(id + 4);

	/* Reading the state does not touch the phone; everything else does (even a
	 * screenshot advances sim time), so it waits for no task: a running task owns
	 * the device and the action is refused with the task's id. */
	int setting = !strcmp(a->name, "state") && nargs > 0;
	if (setting && (nargs != 2 || strcmp(argv[optind + 1], "--set")))
		return amc_cli_usage(&amc_cmd_sim, "usage: amc sim state [--set FILE]");
	int readonly = !strcmp(a->name, "state") && !setting;
	amc_lock *lock = NULL;
	if (!readonly && amc_device_lock(cli->home, id, NULL, &lock, &e) != 0)
		return amc_cli_fail(&e);
	int rc = 0;
	if (!strcmp(a->name, "reset")) {
		if (amc_sim_reset(cli->home, index, cli->cfg, &e) != 0)
			rc = amc_cli_fail(&e);
		else
			printf("%s restored to its factory state\n", id);
		amc_device_unlock(lock);
		return rc;
	}
	amc_device *d = NULL;
	if (amc_device_open(id, cli->home, cli->cfg, &d, &e) != 0) {
		amc_device_unlock(lock);
		return amc_cli_fail(&e);
	}
	if (setting) {
		rc = set_state(d, argv[optind + 2], &e) != 0 ? amc_cli_fail(&e) : 0;
	} else if (readonly) {
		char *json;
		if (amc_sim_state_json(d, &json, &e) != 0) {
			rc = amc_cli_fail(&e);
		} else {
			cJSON *j = cJSON_Parse(json);
			if (j)
				amc_cli_print_json(j);
			free(json);
		}
	} else if (act(d, a, argv + optind + 1, nargs, &e) != 0) {
		rc = amc_cli_fail(&e);
	}
	amc_device_close(d);
	amc_device_unlock(lock);
	return rc;
}

const amc_cmd amc_cmd_sim = {
	"sim",
	"sim [--device sim:N] ACTION [ARGS]",
	"look at and drive the simulated phone (screenshot, ui, state, reset, tap, type, key, swipe, ...)",
	"  -d, --device sim:N      which simulated phone (default sim:0)\n\n"
	"Actions:\n"
	"  screenshot OUT.png      write the current screen as PNG\n"
	"  ui                      print the UI tree (uiautomator dump XML)\n"
	"  state                   print the phone's state as JSON (app, screen, toggles, contacts, notes,\n"
	"                          alarms, conversations, files, settings values)\n"
	"  state --set FILE        set the state: FILE (- for stdin) is a JSON object whose keys\n"
	"                          replace the factory state's (what a task's set-up does)\n"
	"  reset                   restore the factory state\n"
	"  tap X Y                 tap at X,Y\n"
	"  long-press X Y [MS]     press at X,Y\n"
	"  type TEXT               type TEXT into the focused field\n"
	"  key back|home|enter|delete  press a key\n"
	"  swipe X1 Y1 X2 Y2 [MS]  swipe (scrolls lists)\n"
	"  launch APP_ID           start an app\n"
	"  wait MS                 let MS milliseconds of sim time pass\n\n"
	"A sim that is running a task is busy: actions are refused until the task ends.\n",
	run,
};
