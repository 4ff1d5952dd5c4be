/* mockllm - the fake Anthropic endpoint as a process, for shell tests of `amc run`.
 * mockllm SCRIPT PORTFILE LOGDIR: listens on a free 127.0.0.1 port, writes it to
 * PORTFILE, appends every request body to LOGDIR/requests.jsonl and every rule
 * violation to LOGDIR/violations.txt, and stops on POST /quit or SIGTERM. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../mock/anthropic_mock.h"

static const char *port_file;

static void ready(int port, void *ud)
{
	(void)ud;
	char tmp[4200];
	snprintf(tmp, sizeof tmp, "%s.tmp", port_file);
	FILE *f = fopen(tmp, "w");
	if (!f || fprintf(f, "%d\n", port) < 0 || fclose(f) != 0 || rename(tmp, port_file) != 0) {
		perror("mockllm: port file");
		exit(3);
	}
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: mockllm SCRIPT PORTFILE LOGDIR\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	port_file = argv[2];
	FILE *sf = fopen(argv[1], "r");
	if (!sf) {
		perror(argv[1]);
		return 2;
	}
	static char script[1 << 16];
	size_t n = fread(script, 1, sizeof script - 1, sf);
	script[n] = 0;
	fclose(sf);
	amc_mock_agent a;
	amc_mock_agent_load(&a, script);
	char p[4200];
	snprintf(p, sizeof p, "%s/requests.jsonl", argv[3]);
	a.log = fopen(p, "a");
	snprintf(p, sizeof p, "%s/violations.txt", argv[3]);
	a.vlog = fopen(p, "a");
	int rc = mock_serve_forever(0, amc_mock_agent_handle, &a, ready);
	if (a.log)
		fclose(a.log);
	if (a.vlog)
		fclose(a.vlog);
	amc_mock_agent_free(&a);
	return rc ? 1 : 0;
}
