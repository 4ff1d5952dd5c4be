libamc_a_SOURCES += \
	src/perception/uitree.c src/perception/uitree.h \
	src/perception/uitree_xml.c src/perception/uitree_xml.h \
	src/perception/uitree_read.c src/perception/uitree_read.h \
	src/perception/scene.c src/perception/scene.h \
	src/perception/keyboard.c src/perception/keyboard.h \
	src/perception/ocr.c src/perception/ocr.h \
	src/perception/ocr_plan.c src/perception/ocr_plan.h \
	src/perception/treediff.c src/perception/treediff.h
