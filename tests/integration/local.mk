# Shell tests that drive the real amc binary (TAP). tap.sh gives each its own AMC_HOME.
check_PROGRAMS += tests/tools/pngcheck
tests_tools_pngcheck_SOURCES = tests/tools/pngcheck.c tests/tools/apng_read.h
tests_tools_pngcheck_LDADD = $(TEST_LDADD)
# One test per CLI module: test_main.sh for src/cli/main.c, test_cmd_NAME.sh for
# src/cli/cmd_NAME.c (test_cmd_devices.sh and test_cmd_doctor.sh use adb-standin).
CLI_TESTS = tests/integration/test_main.sh tests/integration/test_cmd_config.sh \
	tests/integration/test_cmd_devices.sh tests/integration/test_cmd_doctor.sh \
	tests/integration/test_cmd_providers.sh tests/integration/test_cmd_retention.sh \
	tests/integration/test_cmd_run.sh tests/integration/test_cmd_scene.sh \
	tests/integration/test_cmd_show.sh tests/integration/test_cmd_sim.sh \
	tests/integration/test_cmd_tasks.sh tests/integration/test_cmd_tui.sh \
	tests/integration/test_cmd_search.sh tests/integration/test_help.sh
TESTS += $(CLI_TESTS) tests/integration/test_ownership.sh
# the search index after kill -9 mid-write and after retention (issue 31)
TESTS += tests/integration/test_search_crash.sh
EXTRA_DIST += tests/integration/test_search_crash.sh
# the one run rule of src/launch/ from amc run and the fleet host
TESTS += tests/integration/test_launch.sh
EXTRA_DIST += tests/integration/test_launch.sh
# Maestro's language on the sim (issue 14)
TESTS += tests/integration/test_flow_language.sh tests/integration/test_flow_ai.sh
EXTRA_DIST += tests/integration/test_flow_language.sh tests/integration/test_flow_ai.sh
# flows' JavaScript: ES2020, http.* against a local server (python3), console.log
TESTS += tests/integration/test_flow_js.sh
EXTRA_DIST += tests/integration/test_flow_js.sh
TESTS += tests/integration/test_flow_export.sh
# Maestro's device commands on the sim and on adb (the stand-in) (issue 29)
TESTS += tests/integration/test_flow_device.sh
EXTRA_DIST += tests/integration/test_flow_device.sh
TESTS += tests/integration/test_flow_media.sh
EXTRA_DIST += tests/integration/test_flow_media.sh
# check and run agree on every flow of the shared corpora (slow: a run per flow)
TESTS += tests/integration/test_flow_agree.sh
EXTRA_DIST += tests/integration/test_flow_agree.sh
EXTRA_DIST += tests/integration/test_flow_export.sh
EXTRA_DIST += tests/integration/tap.sh $(CLI_TESTS) tests/integration/test_ownership.sh
TESTS += tests/integration/test_cmd_flow.sh tests/integration/test_run_folder.sh
# docs/flows.md's command table is the command table's rows (issue 25)
TESTS += tests/integration/test_flow_commands.sh
EXTRA_DIST += tests/integration/test_flow_commands.sh
TESTS += tests/integration/test_cmd_bench.sh
EXTRA_DIST += tests/integration/test_cmd_bench.sh
EXTRA_DIST += tests/integration/test_cmd_flow.sh tests/integration/test_run_folder.sh
# amc mcp: real MCP clients from npm (tests/mcp/package-lock.json), like the Appium test
TESTS += tests/integration/test_mcp_clients.sh tests/integration/test_mcp_sdk_findings.sh \
	tests/integration/test_mcp_sdk_apps.sh
EXTRA_DIST += tests/integration/test_mcp_clients.sh tests/mcp/package.json tests/mcp/package-lock.json \
	tests/mcp/sdk_client.mjs tests/mcp/claude_mock.mjs \
	tests/integration/test_mcp_sdk_findings.sh tests/mcp/sdk_findings.mjs \
	tests/integration/test_mcp_sdk_apps.sh tests/mcp/sdk_apps.mjs
# coding agents' CLIs as planners: Claude Code and Codex from the same lockfile, against a local mock
TESTS += tests/integration/test_agentcli.sh
EXTRA_DIST += tests/integration/test_agentcli.sh tests/mcp/agent_mock.mjs
# selector honesty over the bundled flows' recorded trees and the sample dumps
TESTS += tests/integration/test_selgen.sh
EXTRA_DIST += tests/integration/test_selgen.sh
# the HTML report in headless chromium (Debian), driven over the DevTools protocol by Node
TESTS += tests/integration/test_report_browser.sh
EXTRA_DIST += tests/integration/test_report_browser.sh tests/report/browser_check.mjs
clean-local: clean-mcp-env
clean-mcp-env:
	-rm -rf tests/mcp-env tests/mcp-env.lock
.PHONY: clean-mcp-env
# the fleet: a private PostgreSQL 15 server per test (pgserver.sh)
FLEET_TESTS = tests/integration/test_fleet.sh tests/integration/test_fleet_hosts.sh \
	tests/integration/test_fleet_rls.sh tests/integration/test_fleet_needs.sh tests/integration/test_fleet_retry.sh tests/integration/test_fleet_decisions.sh tests/integration/test_fleet_tls.sh \
	tests/integration/test_fleet_outage.sh tests/integration/test_hostdb.sh tests/integration/test_fleet_roles.sh \
	tests/integration/test_fleet_attack.sh
TESTS += $(FLEET_TESTS)
EXTRA_DIST += tests/integration/pgserver.sh $(FLEET_TESTS)
# make bench-fleet: the fleet load test with 2,000 assignments (FLEET_LOAD_N to
# change it) on a server with fsync on (make check runs 200 with fsync off)
bench-fleet: amc
	$(AM_TESTS_ENVIRONMENT) FLEET_LOAD_N=$${FLEET_LOAD_N:-2000}; export FLEET_LOAD_N; \
	PG_OPTS="-c fsync=on -c synchronous_commit=on -c full_page_writes=on $${PG_OPTS:-}"; export PG_OPTS; \
	$(SHELL) $(top_srcdir)/tests/integration/test_fleet_hosts.sh
	$(AM_TESTS_ENVIRONMENT) HOSTDB_HOSTS=32 HOSTDB_SIMS=4 HOSTDB_LEASE_S=10 HOSTDB_N=128; \
	export HOSTDB_HOSTS HOSTDB_SIMS HOSTDB_LEASE_S HOSTDB_N; \
	$(SHELL) $(top_srcdir)/tests/integration/test_hostdb.sh
bench: bench-fleet
.PHONY: bench-fleet
