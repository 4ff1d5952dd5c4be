/* flowexport - tests only: print amc_flow_export's flow of a task in the
 * store at $AMC_HOME (what `amc export TASK --flow` will print once it is
 * wired into the export command). Usage: flowexport TASK */
#include <stdio.h>
#include <stdlib.h>

#include "flow/flow_export.h"
#include "storage/store.h"

int main(int argc, char **argv)
{
	const char *home = getenv("AMC_HOME");
	if (argc != 2 || !home) {
		fprintf(stderr, "usage: AMC_HOME=DIR flowexport TASK\n");
		return 2;
	}
	amc_err e;
	amc_err_clear(&e);
	amc_store *s;
	if (amc_store_open(home, &s, &e) != 0) {
		fprintf(stderr, "flowexport: %s\n", e.msg);
		return 1;
	}
	char *y = NULL;
	int rc = amc_flow_export(s, argv[1], &y, &e);
	if (rc == 0)
		fputs(y, stdout);
	else
		fprintf(stderr, "flowexport: %s\n", e.msg);
	free(y);
	amc_store_close(s);
	return rc ? 1 : 0;
}
