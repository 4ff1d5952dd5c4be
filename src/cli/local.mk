amc_SOURCES += \
	src/cli/main.c src/cli/cli.h src/cli/help.c \
	src/cli/cmd_run.c src/cli/cmd_tasks.c src/cli/cmd_show.c src/cli/cmd_devices.c \
	src/cli/cmd_sim.c src/cli/cmd_retention.c src/cli/cmd_config.c \
	src/cli/cmd_scene.c \
	src/cli/cmd_doctor.c \
	src/cli/cmd_providers.c \
	src/cli/cmd_mcp.c \
	src/cli/cmd_search.c \
	src/cli/cmd_export.c
amc_SOURCES += src/cli/cmd_flow.c src/cli/cmd_run_folder.c src/cli/cmd_run_folder.h
amc_SOURCES += src/cli/cmd_fleet.c src/cli/cmd_host.c
amc_SOURCES += src/cli/cmd_bench.c
# the operator at a terminal (amc run): in the library so that its test links it
libamc_a_SOURCES += src/cli/tty_operator.c src/cli/tty_operator.h
