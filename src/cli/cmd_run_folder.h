/* cmd_run_folder.h - `amc run --flow DIR` (cmd_run_folder.c). */
#ifndef AMC_CMD_RUN_FOLDER_H
#define AMC_CMD_RUN_FOLDER_H

/* Run every flow below `dir` (tags: comma-separated lists, NULL for none);
 * returns the exit status (0 all passed, 1 one failed, 2 usage). */
int amc_cli_run_suite(const char *dir, const char *device, const char *include, const char *exclude,
		      const char *format, const char *output, int json);

#endif
