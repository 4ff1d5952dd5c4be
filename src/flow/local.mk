libamc_a_SOURCES += \
	src/flow/flow.c src/flow/flow.h src/flow/flow_types.h \
	src/flow/flow_yaml.c src/flow/flow_yaml.h \
	src/flow/flow_cmds.c src/flow/flow_cmds.h src/flow/flow_cmd_def.h \
	src/flow/flow_cmds_sel.c src/flow/flow_cmds_ctl.c \
	src/flow/flow_interp.c src/flow/flow_interp.h \
	src/flow/selector.c src/flow/selector.h
libamc_a_SOURCES += src/flow/script.c src/flow/script.h \
	src/flow/script_http.c src/flow/script_http.h \
	src/flow/flow_folder.c src/flow/flow_folder.h
libamc_a_SOURCES += src/flow/flow_export.c src/flow/flow_export.h
libamc_a_SOURCES += src/flow/selgen.c src/flow/selgen.h
# amc-js: the sandboxed JavaScript evaluator (JavaScriptCore from
# libjavascriptcoregtk-4.1-dev, seccomp-bpf from libseccomp-dev)
pkglibexec_PROGRAMS = amc-js
amc_js_SOURCES = src/flow/amc_js.c
amc_js_CPPFLAGS = $(CJSON_CFLAGS) $(JSC_CFLAGS) $(SECCOMP_CFLAGS)
amc_js_LDADD = $(CJSON_LIBS) $(JSC_LIBS) $(SECCOMP_LIBS)
# Never with the sanitizers: their runtimes need system calls amc-js's seccomp
# allow-list refuses and address space its RLIMIT_DATA does not leave.
amc_js_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Wall -Wextra
amc_js_LDFLAGS =
AM_CPPFLAGS += -DAMC_PKGLIBEXECDIR='"$(pkglibexecdir)"'
