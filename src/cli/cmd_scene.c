/* amc scene - perception offline: a captured UI dump (any of the three formats)
 * and optionally its screenshot, fused into the Scene a planner would see. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "image/png.h"
#include "perception/ocr.h"
#include "perception/scene.h"
#include "perception/uitree.h"
#include "util/fsutil.h"

static void print_text(const amc_scene *s, const amc_ui_tree *t, const char *policy, size_t words)
{
	printf("scene %dx%d, %zu elements (tree: %s, %zu nodes; ocr: %s, %zu words)\n", s->width, s->height,
	       s->count, t->format, t->count, policy, words);
	for (size_t i = 0; i < s->count; i++) {
		const amc_element *el = &s->elements[i];
		printf("%s %-9s [%d,%d][%d,%d] %-6s %.2f ", el->id, el->type, el->bounds.x1, el->bounds.y1,
		       el->bounds.x2, el->bounds.y2, el->source, el->confidence);
		fputc('"', stdout);
		amc_cli_put_safe(stdout, el->text);
		fputs("\"\n", stdout);
	}
}

static int run(amc_cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ui", required_argument, 0, 'u' },     { "screenshot", required_argument, 0, 's' },
		{ "ocr", required_argument, 0, 'o' },    { "json", no_argument, 0, 'j' },
		{ 0, 0, 0, 0 } };
	const char *ui = NULL, *png = NULL, *pol = NULL;
	int json = 0, c;
	amc_err e;
	amc_err_clear(&e);
	while ((c = getopt_long(argc, argv, "+u:s:o:j", opts, NULL)) != -1) {
		switch (c) {
		case 'u': ui = optarg; break;
		case 's': png = optarg; break;
		case 'o': pol = optarg; break;
		case 'j': json = 1; break;
		default: return amc_cli_usage(&amc_cmd_scene, "unknown option");
		}
	}
	if (optind < argc)
		return amc_cli_usage(&amc_cmd_scene, "unexpected argument '%s'", argv[optind]);
	if (!ui)
		return amc_cli_usage(&amc_cmd_scene, "--ui FILE is required (a UI dump or page source)");
	amc_ocr_policy policy;
	if (amc_ocr_policy_parse(pol ? pol : amc_config_str(cli->cfg, "ocr", "policy"), &policy, &e) != 0)
		return amc_cli_usage(&amc_cmd_scene, "--ocr takes gaps, full or off");
	if (!png) {
		if (pol && policy != AMC_OCR_OFF)
			return amc_cli_usage(&amc_cmd_scene, "--ocr %s needs --screenshot PNG", pol);
		policy = AMC_OCR_OFF;
	}

	amc_image img = { 0 };
	if (png && amc_png_decode_file(png, &img, &e) != 0)
		return amc_cli_fail(&e);
	char *xml = NULL;
	size_t len = 0;
	amc_ui_tree tree = { 0 };
	amc_scene scene = { 0 };
	amc_ocr_result ocr = { 0 };
	int rc = 0;
	if (amc_read_file(ui, AMC_UITREE_MAX_BYTES, &xml, &len, &e) != 0 ||
	    amc_uitree_parse_scaled(xml, len, img.w, &tree, &e) != 0) {
		amc_err_prefix(&e, "%s", ui);
		rc = amc_cli_fail(&e);
		goto out;
	}
	if (amc_scene_from_tree(&tree, img.w, img.h, &scene, &e) != 0) {
		rc = amc_cli_fail(&e);
		goto out;
	}
	/* Hidden test hook: report how many threads this process had while
	 * tesseract recognized (the OMP_THREAD_LIMIT re-exec test). */
	const char *probe = getenv("AMC_TEST_OCR_THREADS");
	if (probe && *probe == '1')
		amc_ocr_probe_threads(1);
	if (policy != AMC_OCR_OFF) {
		if (amc_ocr_run(&img, &tree, policy, &ocr, &e) != 0 || amc_scene_fuse(&scene, &ocr, &e) != 0) {
			rc = amc_cli_fail(&e);
			goto out;
		}
		if (probe && *probe == '1')
			fprintf(stderr, "amc: ocr threads: %d\n", ocr.max_threads);
	}
	if (json)
		amc_cli_print_json(amc_scene_to_json(&scene));
	else
		print_text(&scene, &tree, amc_ocr_policy_name(policy), ocr.count);
out:
	amc_ocr_result_free(&ocr);
	amc_scene_free(&scene);
	amc_uitree_free(&tree);
	free(xml);
	amc_image_free(&img);
	return rc;
}

const amc_cmd amc_cmd_scene = {
	"scene",
	"scene --ui FILE [--screenshot PNG] [--ocr gaps|full|off] [--json]",
	"build the Scene from a captured UI dump and screenshot (debug your own dumps)",
	"  -u, --ui FILE           UI tree: adb uiautomator dump, Appium UiAutomator2 or\n"
	"                          XCUITest page source (format detected; at most 16 MiB)\n"
	"  -s, --screenshot PNG    the matching screenshot (at most 64 MiB); enables OCR and\n"
	"                          scales XCUITest points to its pixels\n"
	"  -o, --ocr POLICY        gaps (only where the tree has no text; default from\n"
	"                          [ocr] policy), full (whole frame) or off\n"
	"  -j, --json              print the Scene as JSON\n\n"
	"Exit status 2 for malformed, oversized or hostile XML (DOCTYPE, entities) and for\n"
	"a corrupt or oversized PNG; 3 when OCR cannot start (tesseract-ocr-eng missing).\n",
	run,
};
