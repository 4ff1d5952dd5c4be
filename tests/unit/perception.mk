# tests for this area
check_PROGRAMS += tests/unit/test_uitree tests/unit/test_scene
TESTS += tests/unit/test_uitree tests/unit/test_scene
tests_unit_test_uitree_SOURCES = tests/unit/test_uitree.c tests/unit/uitree_test.h
tests_unit_test_uitree_LDADD = $(TEST_LDADD)
tests_unit_test_scene_SOURCES = tests/unit/test_scene.c tests/unit/uitree_test.h
tests_unit_test_scene_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/test_uitree_xml tests/unit/test_uitree_read
TESTS += tests/unit/test_uitree_xml tests/unit/test_uitree_read
tests_unit_test_uitree_xml_SOURCES = tests/unit/test_uitree_xml.c tests/unit/uitree_test.h
tests_unit_test_uitree_xml_LDADD = $(TEST_LDADD)
tests_unit_test_uitree_read_SOURCES = tests/unit/test_uitree_read.c tests/unit/uitree_test.h
tests_unit_test_uitree_read_LDADD = $(TEST_LDADD)
# Real device dumps (third-party data, origins in SOURCES.md).
EXTRA_DIST += tests/data/uitree
check_PROGRAMS += tests/unit/test_ocr
TESTS += tests/unit/test_ocr
tests_unit_test_ocr_SOURCES = tests/unit/test_ocr.c
tests_unit_test_ocr_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/test_ocr_plan
TESTS += tests/unit/test_ocr_plan
tests_unit_test_ocr_plan_SOURCES = tests/unit/test_ocr_plan.c
tests_unit_test_ocr_plan_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/test_treediff
TESTS += tests/unit/test_treediff
tests_unit_test_treediff_SOURCES = tests/unit/test_treediff.c tests/unit/uitree_test.h
tests_unit_test_treediff_LDADD = $(TEST_LDADD)
