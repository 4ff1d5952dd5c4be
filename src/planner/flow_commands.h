/* flow_commands.h - the command table itself, for tests that hold it
 * against the docs and the parser (private to src/flow/; the code below it
 * is handed the table, see flow_cmd_def.h). */
#ifndef AMC_FLOW_COMMANDS_H
#define AMC_FLOW_COMMANDS_H

#include "flow/flow_cmd_def.h"

/* The one table (static; never freed). */
const amc_flow_cmd_table *amc_flow_commands(void);

#endif
