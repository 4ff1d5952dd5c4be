# tests for this area
check_PROGRAMS += tests/unit/test_image tests/unit/test_png
TESTS += tests/unit/test_image tests/unit/test_png
tests_unit_test_image_SOURCES = tests/unit/test_image.c
tests_unit_test_image_LDADD = $(TEST_LDADD)
tests_unit_test_png_SOURCES = tests/unit/test_png.c
tests_unit_test_png_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/test_rawframe
TESTS += tests/unit/test_rawframe
tests_unit_test_rawframe_SOURCES = tests/unit/test_rawframe.c
tests_unit_test_rawframe_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_jpeg
TESTS += tests/unit/test_jpeg
tests_unit_test_jpeg_SOURCES = tests/unit/test_jpeg.c
tests_unit_test_jpeg_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_framebuf
TESTS += tests/unit/test_framebuf
tests_unit_test_framebuf_SOURCES = tests/unit/test_framebuf.c
tests_unit_test_framebuf_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_pngfast
TESTS += tests/unit/test_pngfast
tests_unit_test_pngfast_SOURCES = tests/unit/test_pngfast.c
tests_unit_test_pngfast_LDADD = $(TEST_LDADD)

check_PROGRAMS += tests/unit/test_apng
TESTS += tests/unit/test_apng
tests_unit_test_apng_SOURCES = tests/unit/test_apng.c tests/tools/apng_read.h
tests_unit_test_apng_LDADD = $(TEST_LDADD)
