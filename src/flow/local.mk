libamc_a_SOURCES += \
	src/flow/flow.c src/flow/flow.h \
	src/flow/flow_yaml.c src/flow/flow_yaml.h \
	src/flow/flow_cmds.c src/flow/flow_cmds.h \
	src/flow/flow_cmds_sel.c src/flow/flow_cmds_ctl.c \
	src/flow/flow_resolve.c \
	src/flow/flow_interp.c src/flow/flow_interp.h \
	src/flow/selector.c src/flow/selector.h \
	src/flow/flow_planner.c src/flow/flow_planner.h \
	src/flow/flow_planner_int.h src/flow/flow_planner_cmds.c src/flow/flow_planner_ops.c
