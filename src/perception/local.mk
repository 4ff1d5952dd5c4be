libamc_a_SOURCES += \
	src/perception/uitree.c src/perception/uitree.h \
	src/perception/scene.c src/perception/scene.h \
	src/perception/ocr.c src/perception/ocr.h
