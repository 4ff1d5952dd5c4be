/* flow_planner.h - a planner that plays a flow's commands one by one. */
#ifndef AMC_FLOW_PLANNER_H
#define AMC_FLOW_PLANNER_H

#include "flow/flow.h"
#include "runtime/planner.h"

/* Takes ownership of `flow` (moved; the caller's struct is zeroed).
 * wait_timeout_ms: how long selectors wait for their element. */
int amc_flow_planner_new(amc_flow *flow, long wait_timeout_ms, amc_planner **out, amc_err *e);

#endif
