/* test_log.c - the log file: levels, mode, sanitizing, stderr echo. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "testutil.h"
#include "util/log.h"

static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t len;
	if (amc_read_file(path, 1 << 20, &buf, &len, NULL) != 0)
		return NULL;
	return buf;
}

static int count_lines(const char *s)
{
	int n = 0;
	for (; s && *s; s++)
		if (*s == '\n')
			n++;
	return n;
}

int main(void)
{
	const char *home = test_home("log");
	char path[PATH_MAX], errpath[PATH_MAX];
	pathf(path, sizeof path, "%s/amc.log", home);
	amc_err e;
	amc_err_clear(&e);
	umask(0);

	is_int(amc_log_open(path, &e), 0, "open the log");
	struct stat st;
	ok(stat(path, &st) == 0 && (st.st_mode & 07777) == 0600, "log file is 0600 under umask 0 (%o)",
	   (unsigned)(st.st_mode & 07777));

	amc_log_set_stderr(-1);
	amc_log_set_level(AMC_LOG_INFO);
	amc_log_error("an error %d", 1);
	amc_log_warn("a warning %s", "w");
	amc_log_info("some info");
	amc_log_debug("hidden debug");
	char *s = slurp(path);
	like(s, "error: an error 1", "error written");
	like(s, "warn: a warning w", "warning written");
	like(s, "info: some info", "info written");
	ok(s && !strstr(s, "hidden debug"), "debug filtered at level info");
	is_int(count_lines(s), 3, "three lines");
	/* Each line: "YYYY-MM-DD HH:MM:SS [pid] level: msg". */
	char pidtag[32];
	snprintf(pidtag, sizeof pidtag, " [%d] ", (int)getpid());
	like(s, pidtag, "lines carry the pid");
	ok(s && strlen(s) > 20 && s[4] == '-' && s[7] == '-' && s[10] == ' ' && s[13] == ':',
	   "lines start with a timestamp");
	free(s);

	amc_log_set_level(AMC_LOG_ERROR);
	amc_log_warn("warn at error level");
	amc_log_error("error at error level");
	amc_log_set_level(AMC_LOG_DEBUG);
	amc_log_debug("debug at debug level");
	s = slurp(path);
	ok(s && !strstr(s, "warn at error level"), "warn filtered at level error");
	like(s, "error at error level", "error kept at level error");
	like(s, "debug at debug level", "debug kept at level debug");
	is_int(count_lines(s), 5, "five lines now");
	free(s);

	/* Hostile bytes in a message never reach the file raw. */
	amc_log_info("dev said \x1b[31mred\x1b[0m \x1b]52;c;aGVsbG8=\x07 \x9b" "2J \xc2\x9b" "x \xe2\x80\xae" "evil\r\nnext\tline\x7f");
	s = slurp(path);
	ok(s && !strchr(s, 0x1b), "no ESC byte in the file");
	ok(s && !strchr(s, 0x07), "no BEL byte in the file");
	ok(s && !strchr(s, 0x7f), "no DEL byte in the file");
	ok(s && !strchr(s, '\r'), "no CR in the file");
	ok(s && !strstr(s, "\xc2\x9b"), "no C1 CSI in the file");
	ok(s && !strstr(s, "\xe2\x80\xae"), "no bidi override in the file");
	ok(s && !strchr(s, '\t'), "no tab in the file");
	like(s, "[31mred", "the visible text is kept");
	int ctl = 0;
	for (const char *p = s; p && *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\n')
			ctl++;
	is_int(ctl, 0, "no control byte but the line ends");
	is_int(count_lines(s), 6, "an embedded newline does not start a new log line");
	free(s);

	/* stderr echo at or above its level, and not below. */
	pathf(errpath, sizeof errpath, "%s/stderr.txt", home);
	fflush(stderr);
	int saved = dup(2);
	int efd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(efd, 2);
	close(efd);
	amc_log_set_level(AMC_LOG_ERROR);
	amc_log_set_stderr(AMC_LOG_WARN);
	amc_log_warn("to stderr \x1b[2J");
	amc_log_info("not to stderr");
	amc_log_set_stderr(-1);
	amc_log_error("never to stderr");
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	s = slurp(errpath);
	like(s, "amc: warn: to stderr", "warning echoed to stderr");
	ok(s && !strchr(s, 0x1b), "stderr echo is sanitized");
	ok(s && !strstr(s, "not to stderr"), "info not echoed at stderr level warn");
	ok(s && !strstr(s, "never to stderr"), "nothing echoed at stderr level -1");
	free(s);
	s = slurp(path);
	ok(s && !strstr(s, "to stderr \xe2"), "a warning below the file level is not in the file");
	like(s, "never to stderr", "error still in the file");
	free(s);

	/* Out-of-range levels do not crash. */
	amc_log_set_level(AMC_LOG_DEBUG);
	amc_log(99, "level 99");
	amc_log(-3, "level -3");
	s = slurp(path);
	like(s, "level 99", "a too-high level is logged as debug");
	like(s, "level -3", "a too-low level is logged as error");
	free(s);

	/* Long messages are complete. */
	char big[5000];
	memset(big, 'L', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	amc_log_info("big:%s:end", big);
	s = slurp(path);
	like(s, ":end", "a 5000-byte message is written whole");
	free(s);

	/* Re-open appends; close stops writing. */
	is_int(amc_log_open(path, &e), 0, "re-open");
	amc_log_info("after reopen");
	amc_log_close();
	amc_log_info("after close");
	s = slurp(path);
	like(s, "after reopen", "written after re-open");
	like(s, "big:", "re-open appends, earlier lines kept");
	ok(s && !strstr(s, "after close"), "nothing written after close");
	free(s);
	amc_log_close();
	amc_log_info("after second close");
	s = slurp(path);
	ok(s && !strstr(s, "after second close"), "a second close keeps the log closed");
	free(s);

	char bad[PATH_MAX];
	pathf(bad, sizeof bad, "%s/missing/amc.log", home);
	amc_err_clear(&e);
	is_int(amc_log_open(bad, &e), -1, "opening in a missing folder fails");
	like(e.msg, "missing/amc.log", "message names the log file");
	return done_testing();
}
