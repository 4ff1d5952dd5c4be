#!/bin/sh
# build.sh - set up, build and run or test amc on Debian 12.
#   ./build.sh run     install what is missing, build, open amc on the simulated phone
#   ./build.sh check   install what is missing, build, run the whole test suite
#   ./build.sh build   only set up and build
# Environment: BUILD_DIR (default: build), CONFIGURE_FLAGS (extra ./configure flags),
# MAKEFLAGS as usual (default -j with the number of cores).
set -eu

cd "$(dirname "$0")"
top=$(pwd)
build_dir=${BUILD_DIR:-build}
what=${1:-build}

# Debian packages amc needs to build and test. Keep in step with configure.ac and README.
packages="build-essential autoconf automake pkg-config
  libncurses-dev libsqlite3-dev libcurl4-openssl-dev libcjson-dev
  libchafa-dev libglib2.0-dev libtesseract-dev libleptonica-dev tesseract-ocr-eng
  libpng-dev libdeflate-dev libxml2-dev libyaml-dev libpcre2-dev libfreetype-dev fonts-dejavu-core
  clang tmux tesseract-ocr libvterm-dev
  libjavascriptcoregtk-4.1-dev libseccomp-dev libjpeg-dev
  libpq-dev postgresql-15
  libclang-rt-14-dev llvm-14 sqlite3"
# libclang-rt-14-dev (libFuzzer, ASan/UBSan runtimes) and llvm-14 (llvm-profdata,
# llvm-cov): only *recommended* by clang, so --no-install-recommends leaves them out;
# `make fuzz` and `make check-hardening` (fuzzing and line coverage) need them.
# sqlite3 (the CLI): the hardening checks read the database with it (PRAGMA
# integrity_check, rows that name artifact files).
# libjavascriptcoregtk-4.1-dev: the JavaScript engine of flows (JavaScriptCore's
# plain C API, current ECMAScript as Maestro's GraalJS; amc-js, src/flow/amc_js.c);
# libseccomp-dev: amc-js's system-call allow-list.
# libjpeg-dev: JPEG screenshots in `amc export --html` reports.
# libpq-dev: the fleet's PostgreSQL client; postgresql-15: the server the fleet
# tests start privately (initdb + pg_ctl as an unprivileged user).
# tesseract-ocr (the CLI) is only the baseline of bench/bench_ocr (`make bench`
# and its short run in `make check`); amc itself uses the library.
# Not installed here: adb (Debian package adb) is needed only at run time to
# drive Android phones; the tests use a stand-in. `amc doctor` says when it is missing.

# chromium: only for `check`: the HTML report is loaded in headless Chromium
# (tests/integration/test_report_browser.sh); building and running amc never
# needs a browser.
# groff-base: only for `check`: amc(1) is rendered as man shows it, to prove it
# fits 80 columns (tests/integration/test_help.sh).
if [ "$what" = check ]; then
	packages="$packages chromium groff-base"
fi

missing=""
for p in $packages; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $p"
	fi
done
if [ -n "$missing" ]; then
	echo "build.sh: installing missing Debian packages:$missing"
	sudo=""
	if [ "$(id -u)" != 0 ]; then
		command -v sudo >/dev/null 2>&1 || { echo "build.sh: need root (or sudo) to install:$missing" >&2; exit 3; }
		sudo=sudo
	fi
	# Only refresh the package lists when something is missing.
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
	# shellcheck disable=SC2086
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi

if [ ! -x configure ] || [ configure.ac -nt configure ] || [ ! -f build-aux/tap-driver.sh ]; then
	autoreconf -fi
fi

mkdir -p "$build_dir"
cd "$build_dir"
if [ ! -f Makefile ] || [ "$top/configure" -nt Makefile ]; then
	# shellcheck disable=SC2086
	"$top/configure" ${CONFIGURE_FLAGS:-}
fi
jobs=$(nproc 2>/dev/null || echo 2)
make -j"$jobs"

case "$what" in
run)
	shift || true
	# The terminal interface on the simulated phone; `n` launches a bundled flow.
	# Without a terminal (a script, CI) run the demo flow headless instead.
	if [ -t 0 ] && [ -t 1 ]; then
		exec ./amc "$@"
	fi
	exec ./amc run --flow add-contact "$@"
	;;
check)
	make -j"$jobs" check || { find . -name 'test-suite.log' -exec cat {} \; ; exit 1; }
	;;
build)
	;;
*)
	echo "usage: ./build.sh [run|check|build]" >&2
	exit 2
	;;
esac
