libamc_a_SOURCES += \
	src/image/image.c src/image/image.h \
	src/image/framebuf.c src/image/framebuf.h \
	src/image/png.c src/image/png.h \
	src/image/pngfast.c src/image/pngfast.h \
	src/image/rawframe.c src/image/rawframe.h \
	src/image/jpeg.c src/image/jpeg.h \
	src/image/apng.c src/image/apng.h
