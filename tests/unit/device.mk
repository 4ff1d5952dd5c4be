# tests for the device drivers and the device manager; adb-standin serves the
# sim under the name `adb` (the tests put it first on PATH)
check_PROGRAMS += tests/tools/adb-standin tests/unit/test_adb tests/unit/test_proc tests/unit/test_manager \
	tests/unit/test_uitree_fake
tests_tools_adb_standin_SOURCES = tests/tools/adb_standin.c
tests_tools_adb_standin_LDADD = $(TEST_LDADD)
TESTS += tests/unit/test_adb tests/unit/test_proc tests/unit/test_manager tests/unit/test_uitree_fake
tests_unit_test_uitree_fake_SOURCES = tests/unit/test_uitree_fake.c
tests_unit_test_uitree_fake_LDADD = $(TEST_LDADD)
tests_unit_test_adb_SOURCES = tests/unit/test_adb.c tests/unit/adbtest.h
tests_unit_test_adb_LDADD = $(TEST_LDADD)
tests_unit_test_proc_SOURCES = tests/unit/test_proc.c
tests_unit_test_proc_LDADD = $(TEST_LDADD)
tests_unit_test_manager_SOURCES = tests/unit/test_manager.c
tests_unit_test_manager_LDADD = $(TEST_LDADD)
# the device interface (device.c); opens adb:SERIAL through adb-standin
check_PROGRAMS += tests/unit/test_device
TESTS += tests/unit/test_device
tests_unit_test_device_SOURCES = tests/unit/test_device.c
tests_unit_test_device_LDADD = $(TEST_LDADD)
# Appium's device settings by platform (appium_set.c): no server needed
check_PROGRAMS += tests/unit/test_appium_set
tests_unit_test_appium_set_SOURCES = tests/unit/test_appium_set.c
tests_unit_test_appium_set_LDADD = $(TEST_LDADD)
TESTS += tests/unit/test_appium_set
# Appium: a real Appium 3 server with its fake driver, installed by the test
# with npm ci into tests/appium-env of the build directory
check_PROGRAMS += tests/unit/test_appium
tests_unit_test_appium_SOURCES = tests/unit/test_appium.c
tests_unit_test_appium_LDADD = $(TEST_LDADD)
TESTS += tests/integration/test_appium.sh
EXTRA_DIST += tests/integration/test_appium.sh tests/appium/package.json tests/appium/package-lock.json tests/appium/recording-stub.js \
	tests/appium/app.xml tests/appium/sign-in.yaml
clean-local: clean-appium-env
clean-appium-env:
	-rm -rf tests/appium-env tests/appium-env.lock
.PHONY: clean-appium-env
# raw frames (adb.capture) through adb-standin
check_PROGRAMS += tests/unit/test_adb_raw
TESTS += tests/unit/test_adb_raw
tests_unit_test_adb_raw_SOURCES = tests/unit/test_adb_raw.c tests/unit/adbtest.h
tests_unit_test_adb_raw_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_adb_list
TESTS += tests/unit/test_adb_list
tests_unit_test_adb_list_SOURCES = tests/unit/test_adb_list.c
tests_unit_test_adb_list_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_calls
TESTS += tests/unit/test_calls
tests_unit_test_calls_SOURCES = tests/unit/test_calls.c
tests_unit_test_calls_LDADD = $(TEST_LDADD)
