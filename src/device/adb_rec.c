/* adb_rec.c - the adb driver's screen recordings (startRecording,
 * stopRecording) through Android's `screenrecord`, as Maestro's Android
 * driver records: the phone encodes an MP4 itself.
 *
 * Start: `adb shell screenrecord --time-limit 180 FILE` runs detached (its
 * own session; it ends when the phone's screenrecord does), and the start
 * waits until the phone lists the process, so a stop right after a start
 * still finds it. Stop: `pkill -INT screenrecord` (screenrecord finishes
 * its MP4 on SIGINT), wait until it has gone, `adb pull` the file into a
 * private temporary file, read it, remove both. Android's screenrecord stops
 * by itself after 180 s (its own limit): a longer recording holds the first
 * 180 s, said in docs/flows.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/adb_int.h"
#include "util/clock.h"
#include "util/fsutil.h"
#include "util/proc.h"

#define REC_REMOTE "/sdcard/amc-recording.mp4"
#define REC_MAX_BYTES (512u * 1024u * 1024u)
#define REC_WAIT_MS 10000

/* 1 while the phone runs screenrecord, 0 when not, -1 when adb failed. */
static int running(adb *a, amc_err *e)
{
	const char *args[] = { "shell", "pidof", "screenrecord", NULL };
	amc_proc_result r;
	if (amc_adb_run(a, args, 4096, &r, e) != 0)
		return -1;
	int on = r.exit_code == 0 && r.out_len > 0;
	amc_proc_result_free(&r);
	return on;
}

static int wait_for(adb *a, int want, long ms, amc_err *e)
{
	long long t0 = amc_mono_ms();
	for (;;) {
		int on = running(a, e);
		if (on < 0 || on == want)
			return on < 0 ? -1 : 0;
		if (amc_mono_ms() - t0 > ms)
			return 1;
		amc_sleep_ms(100);
	}
}

int amc_adb_record_start(amc_device *d, amc_err *e)
{
	adb *a = adb_of(d);
	if (a->recording)
		return amc_err_set(e, AMC_EUSAGE, "adb device %s is recording already (stopRecording first)", a->serial);
	const char *rm[] = { "rm", "-f", REC_REMOTE, NULL };
	if (amc_adb_shell(d, rm, NULL, e) != 0)
		return -1;
	const char *argv[] = { a->prog, "-s", a->serial, "shell", "screenrecord", "--time-limit", "180", REC_REMOTE, NULL };
	if (amc_proc_detach(argv, NULL, NULL, e) != 0)
		return amc_err_prefix(e, "cannot start adb's screenrecord");
	int w = wait_for(a, 1, REC_WAIT_MS, e);
	if (w != 0)
		return w < 0 ? -1
			     : amc_err_set(e, AMC_EFAIL, "screenrecord did not start on %s within %d s (is the screen "
					   "on? `adb shell screenrecord` needs Android 4.4 or later)", a->serial,
					   REC_WAIT_MS / 1000);
	a->recording = 1;
	return 0;
}

int amc_adb_record_stop(amc_device *d, unsigned char **data, size_t *len, char *ext, size_t extn, int *frames,
			amc_err *e)
{
	adb *a = adb_of(d);
	*data = NULL;
	*len = 0;
	if (!a->recording)
		return amc_err_set(e, AMC_EUSAGE, "adb device %s is not recording (startRecording first)", a->serial);
	a->recording = 0;
	/* exit 1 when it ended already (its 180 s): the file is there all the same */
	const char *stop[] = { "shell", "pkill", "-INT", "screenrecord", NULL };
	amc_proc_result r;
	if (amc_adb_run(a, stop, 4096, &r, e) != 0)
		return -1;
	amc_proc_result_free(&r);
	int w = wait_for(a, 0, REC_WAIT_MS, e);
	if (w != 0)
		return w < 0 ? -1
			     : amc_err_set(e, AMC_EFAIL, "screenrecord on %s did not finish its file within %d s",
					   a->serial, REC_WAIT_MS / 1000);
	char tmp[] = "/tmp/amc-recording-XXXXXX";
	int fd = mkstemp(tmp);
	if (fd < 0)
		return amc_err_set(e, AMC_EENV, "cannot make a temporary file for the recording");
	close(fd);
	const char *pull[] = { "pull", REC_REMOTE, tmp, NULL };
	int rc = amc_adb_run(a, pull, 64 * 1024, &r, e);
	if (rc == 0) {
		if (r.exit_code != 0) {
			char line[256];
			amc_adb_first_line(r.err_len ? r.err : (const char *)r.out, line, sizeof line);
			rc = amc_err_set(e, AMC_EFAIL, "adb pull %s failed: %s", REC_REMOTE, line);
		}
		amc_proc_result_free(&r);
	}
	char *buf = NULL;
	if (rc == 0 && amc_read_file(tmp, REC_MAX_BYTES, &buf, len, e) == 0) {
		*data = (unsigned char *)buf;
		snprintf(ext, extn, "mp4");
		*frames = -1;
	} else if (rc == 0) {
		rc = -1;
	}
	unlink(tmp);
	const char *rm[] = { "rm", "-f", REC_REMOTE, NULL };
	amc_err re;
	(void)amc_adb_shell(d, rm, NULL, &re);
	return rc;
}
