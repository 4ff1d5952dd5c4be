/* test_agentcli_attach.c - an agent run's MCP endpoint: a private socket,
 * only observe and act offered (without output schemas), a forwarder that
 * carries the bytes both ways, and nothing left when it closes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mcp/agentcli_attach.h"
#include "planner/extplanner.h"
#include "tap.h"
#include "util/fsutil.h"

/* One JSON-RPC exchange: send lines, read until n answers came. */
static char *talk(int fd, const char *msgs, int n)
{
	if (write(fd, msgs, strlen(msgs)) < 0)
		return NULL;
	static char buf[1 << 16];
	size_t len = 0;
	int lines = 0;
	while (lines < n && len < sizeof buf - 1) {
		ssize_t r = read(fd, buf + len, sizeof buf - 1 - len);
		if (r <= 0)
			break;
		for (ssize_t i = 0; i < r; i++)
			lines += buf[len + i] == '\n';
		len += (size_t)r;
	}
	buf[len] = 0;
	return buf;
}

int main(void)
{
	char home[] = "/tmp/amc-attach-XXXXXX";
	if (!mkdtemp(home))
		return 1;
	amc_planner *pl;
	amc_extplanner *x;
	amc_extplanner_opts xo = { .wait_ms = 1000, .gated = 1, .name = "agent:claude" };
	amc_extplanner_new(&xo, &pl, &x);
	amc_mcp_session *s;
	amc_mcp_session_attach(x, "1m92test0000task", "sim:0", &s);
	ok(amc_mcp_session_attached(s), "an attached session");
	is_str(amc_mcp_session_task(s), "1m92test0000task", "on the run's task");

	amc_config *cfg = amc_config_new();
	amc_agentcli_endpoint *ep;
	char sock[300];
	amc_err e;
	is_int(amc_agentcli_endpoint_open(home, cfg, s, &ep, sock, sizeof sock, &e), 0, "the endpoint listens");
	struct stat st;
	char d[300];
	snprintf(d, sizeof d, "%s", sock);
	*strrchr(d, '/') = 0;
	ok(stat(d, &st) == 0 && (st.st_mode & 077) == 0, "in a folder only its user can enter (0700)");
	ok(stat(sock, &st) == 0 && S_ISSOCK(st.st_mode), "the socket is there");

	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	ok(strlen(sock) < sizeof a.sun_path, "the socket's path fits a sockaddr_un");
	memcpy(a.sun_path, sock, strlen(sock) < sizeof a.sun_path ? strlen(sock) + 1 : sizeof a.sun_path - 1);
	ok(connect(fd, (struct sockaddr *)&a, sizeof a) == 0, "a client connects");
	char *out = talk(fd, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
			     "\"capabilities\":{},\"clientInfo\":{\"name\":\"codex\",\"version\":\"0.171.0\"}}}\n"
			     "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
			     "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n", 2);
	like(out, "\"protocolVersion\":\"2025-06-18\"", "initialize answered in the client's version");
	like(out, "\"name\":\"observe\"", "tools/list offers observe");
	like(out, "\"name\":\"act\"", "and act");
	ok(out && !strstr(out, "\"name\":\"run_task\"") && !strstr(out, "\"name\":\"devices\"") &&
		   !strstr(out, "\"name\":\"cancel_task\""),
	   "and nothing else (no run_task, devices, cancel_task)");
	ok(out && !strstr(out, "outputSchema"), "without output schemas (results carry the content blocks)");
	out = talk(fd, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"run_task\","
		       "\"arguments\":{\"goal\":\"x\"}}}\n", 1);
	like(out, "offers only observe and act", "calling another tool is refused");
	ok(amc_agentcli_endpoint_connections(ep) == 1, "one connection served");
	close(fd);

	/* the forwarder: a child whose stdio are pipes */
	int to[2], from[2];
	if (pipe(to) != 0 || pipe(from) != 0)
		return 1;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(to[0], 0);
		dup2(from[1], 1);
		close(to[1]);
		close(from[0]);
		amc_err fe;
		_exit(amc_agentcli_forward(sock, &fe) == 0 ? 0 : 3);
	}
	close(to[0]);
	close(from[1]);
	const char *req = "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}\n";
	ok(write(to[1], req, strlen(req)) == (ssize_t)strlen(req), "a request into the forwarder's stdin");
	close(to[1]); /* the CLI closes its side: the forwarder still reads the answer */
	char buf[512] = "";
	size_t len = 0;
	ssize_t r;
	while ((r = read(from[0], buf + len, sizeof buf - 1 - len)) > 0)
		len += (size_t)r;
	buf[len] = 0;
	like(buf, "\"id\":9", "its answer out of the forwarder's stdout");
	int status;
	waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the forwarder ends cleanly when both sides are done");

	amc_agentcli_endpoint_close(ep);
	ok(stat(sock, &st) != 0 && stat(d, &st) != 0, "closed: socket and folder removed");
	amc_err fe;
	is_int(amc_agentcli_forward(sock, &fe), -1, "a forwarder for a run that has ended fails");
	like(fe.msg, "cannot reach the agent run", "saying so");

	amc_mcp_session_free(s);
	amc_extplanner_free(x);
	amc_planner_free(pl);
	amc_config_free(cfg);
	amc_rm_rf(home);
	return done_testing();
}
