/* agentcli_attach.c - an agent run's MCP endpoint on a Unix socket, and the
 * forwarder the agent CLI starts (agentcli_attach.h). */
#define _GNU_SOURCE /* SO_PEERCRED, struct ucred */
#include "mcp/agentcli_attach.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "mcp/server.h"
#include "util/log.h"
#include "util/strbuf.h"

/* An agent CLI opens one connection (Claude Code may open a second when it
 * restarts a server); a few more are refused. */
#define CONN_MAX 4

typedef struct conn {
	amc_agentcli_endpoint *ep;
	int fd;
	pthread_t thread;
	int used, done;
} conn;

struct amc_agentcli_endpoint {
	char home[4096];
	const amc_config *cfg;
	amc_mcp_session *session;
	char dir[256], path[300];
	int lfd;
	pthread_t accepter;
	atomic_int stop;
	pthread_mutex_t mu;
	conn conns[CONN_MAX];
	int served;
};

static void *conn_main(void *arg)
{
	conn *c = arg;
	/* The CLI's `amc mcp --attach` child may die (a cancel ends its process
	 * group) while this thread answers it: a write to its socket must fail
	 * with EPIPE, not kill amc with SIGPIPE (seen after MCP cancel_task).
	 * The signal is thread-directed, so blocking it here suffices; one left
	 * pending goes with the thread. */
	sigset_t pipe_set;
	sigemptyset(&pipe_set);
	sigaddset(&pipe_set, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &pipe_set, NULL);
	int fd2 = dup(c->fd);
	FILE *in = fdopen(c->fd, "r"), *out = fd2 >= 0 ? fdopen(fd2, "w") : NULL;
	if (in && out) {
		amc_mcp_opts o = { 0 };
		o.home = c->ep->home;
		o.cfg = c->ep->cfg;
		o.in = in;
		o.out = out;
		o.attached = c->ep->session;
		amc_err e;
		if (amc_mcp_serve(&o, &e) != 0)
			amc_log(AMC_LOG_WARN, "agent: the MCP connection could not be served: %s", e.msg);
	}
	if (in)
		fclose(in);
	else
		close(c->fd);
	if (out)
		fclose(out);
	else if (fd2 >= 0)
		close(fd2);
	pthread_mutex_lock(&c->ep->mu);
	c->done = 1;
	pthread_mutex_unlock(&c->ep->mu);
	return NULL;
}

/* Only the user running amc may talk to the run (the folder is 0700 too). */
static int peer_ok(int fd)
{
#ifdef SO_PEERCRED
	struct ucred cr;
	socklen_t l = sizeof cr;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &l) != 0)
		return 0;
	return cr.uid == getuid();
#else
	(void)fd;
	return 1;
#endif
}

static void *accept_main(void *arg)
{
	amc_agentcli_endpoint *ep = arg;
	while (!atomic_load(&ep->stop)) {
		struct pollfd p = { ep->lfd, POLLIN, 0 };
		if (poll(&p, 1, 100) <= 0)
			continue;
		int fd = accept(ep->lfd, NULL, NULL);
		if (fd < 0)
			continue;
		fcntl(fd, F_SETFD, FD_CLOEXEC);
		if (!peer_ok(fd)) {
			amc_log(AMC_LOG_WARN, "agent: refused a connection from another user");
			close(fd);
			continue;
		}
		pthread_mutex_lock(&ep->mu);
		conn *c = NULL;
		for (int i = 0; i < CONN_MAX && !c; i++)
			if (!ep->conns[i].used)
				c = &ep->conns[i];
		if (c) {
			memset(c, 0, sizeof *c);
			c->ep = ep;
			c->fd = fd;
			c->used = 1;
			if (pthread_create(&c->thread, NULL, conn_main, c) != 0) {
				c->used = 0;
				c = NULL;
			} else {
				ep->served++;
			}
		}
		pthread_mutex_unlock(&ep->mu);
		if (!c) {
			amc_log(AMC_LOG_WARN, "agent: refused an MCP connection (at most %d)", CONN_MAX);
			close(fd);
		}
	}
	return NULL;
}

int amc_agentcli_endpoint_open(const char *home, const amc_config *cfg, amc_mcp_session *session,
			       amc_agentcli_endpoint **out, char *path, size_t n, amc_err *e)
{
	*out = NULL;
	amc_agentcli_endpoint *ep = calloc(1, sizeof *ep);
	if (!ep)
		return amc_err_set(e, AMC_EENV, "out of memory");
	snprintf(ep->home, sizeof ep->home, "%s", home);
	ep->cfg = cfg;
	ep->session = session;
	ep->lfd = -1;
	pthread_mutex_init(&ep->mu, NULL);
	/* a socket path is at most 107 bytes: not under $AMC_HOME, which may be long */
	const char *tmp = getenv("TMPDIR");
	if (!tmp || !*tmp || strlen(tmp) > 80)
		tmp = "/tmp";
	snprintf(ep->dir, sizeof ep->dir, "%s/amc-agent-XXXXXX", tmp);
	if (!mkdtemp(ep->dir)) {
		int err = errno;
		pthread_mutex_destroy(&ep->mu);
		free(ep);
		return amc_err_set(e, AMC_EENV, "cannot make a private folder in %s for the agent's MCP socket: %s", tmp,
				   strerror(err));
	}
	snprintf(ep->path, sizeof ep->path, "%s/mcp.sock", ep->dir);
	struct sockaddr_un a = { 0 };
	a.sun_family = AF_UNIX;
	if (strlen(ep->path) >= sizeof a.sun_path) {
		rmdir(ep->dir);
		pthread_mutex_destroy(&ep->mu);
		free(ep);
		return amc_err_set(e, AMC_EENV, "the agent's socket path is too long: set TMPDIR to a shorter folder");
	}
	memcpy(a.sun_path, ep->path, strlen(ep->path) + 1);
	ep->lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (ep->lfd < 0 || bind(ep->lfd, (struct sockaddr *)&a, sizeof a) != 0 || listen(ep->lfd, 4) != 0) {
		int err = errno;
		if (ep->lfd >= 0)
			close(ep->lfd);
		unlink(ep->path);
		rmdir(ep->dir);
		pthread_mutex_destroy(&ep->mu);
		free(ep);
		return amc_err_set(e, AMC_EENV, "cannot listen on the agent's MCP socket: %s", strerror(err));
	}
	fcntl(ep->lfd, F_SETFD, FD_CLOEXEC);
	if (pthread_create(&ep->accepter, NULL, accept_main, ep) != 0) {
		close(ep->lfd);
		unlink(ep->path);
		rmdir(ep->dir);
		pthread_mutex_destroy(&ep->mu);
		free(ep);
		return amc_err_set(e, AMC_EENV, "cannot start a thread for the agent's MCP socket");
	}
	snprintf(path, n, "%s", ep->path);
	*out = ep;
	return 0;
}

int amc_agentcli_endpoint_connections(amc_agentcli_endpoint *ep)
{
	pthread_mutex_lock(&ep->mu);
	int n = ep->served;
	pthread_mutex_unlock(&ep->mu);
	return n;
}

void amc_agentcli_endpoint_close(amc_agentcli_endpoint *ep)
{
	if (!ep)
		return;
	atomic_store(&ep->stop, 1);
	pthread_join(ep->accepter, NULL);
	close(ep->lfd);
	unlink(ep->path);
	rmdir(ep->dir);
	/* the CLI is gone by now; a forwarder still connected reads end of file */
	pthread_mutex_lock(&ep->mu);
	for (int i = 0; i < CONN_MAX; i++)
		if (ep->conns[i].used && !ep->conns[i].done)
			shutdown(ep->conns[i].fd, SHUT_RDWR);
	pthread_mutex_unlock(&ep->mu);
	for (int i = 0; i < CONN_MAX; i++)
		if (ep->conns[i].used)
			pthread_join(ep->conns[i].thread, NULL);
	pthread_mutex_destroy(&ep->mu);
	free(ep);
}

/* Write all of buf; -1 on error. */
/* ---- what an agent run is served: a session and its endpoint ---- */

typedef struct served {
	amc_mcp_session *session;
	amc_agentcli_endpoint *ep;
} served;

static int serve_open(const char *home, const amc_config *cfg, amc_extplanner *x, const char *task_id,
		      const char *device, void **out, char *path, size_t n, amc_err *e)
{
	*out = NULL;
	served *s = amc_xcalloc(1, sizeof *s);
	amc_mcp_session_attach(x, task_id, device, &s->session);
	if (amc_agentcli_endpoint_open(home, cfg, s->session, &s->ep, path, n, e) != 0) {
		amc_mcp_session_free(s->session);
		free(s);
		return -1;
	}
	*out = s;
	return 0;
}

static int serve_ended(void *h)
{
	served *s = h;
	return amc_mcp_session_ended(s->session);
}

static void serve_close(void *h)
{
	served *s = h;
	if (!s)
		return;
	amc_agentcli_endpoint_close(s->ep); /* its connections' calls end first */
	amc_mcp_session_free(s->session);
	free(s);
}

const amc_agentcli_serve amc_agentcli_mcp_serve = { serve_open, serve_ended, serve_close, AMC_MCP_IMAGE_EDGE };

static int write_all(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

int amc_agentcli_forward(const char *socket_path, amc_err *e)
{
	struct sockaddr_un a = { 0 };
	a.sun_family = AF_UNIX;
	if (!socket_path || strlen(socket_path) >= sizeof a.sun_path)
		return amc_err_set(e, AMC_EUSAGE, "--attach takes the socket path an agent run made");
	memcpy(a.sun_path, socket_path, strlen(socket_path) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		return amc_err_set(e, AMC_EENV, "cannot reach the agent run at %s: %s (it has ended?)", socket_path,
				   strerror(err));
	}
	int in_open = 1;
	char buf[65536];
	for (;;) {
		struct pollfd p[2] = { { fd, POLLIN, 0 }, { 0, POLLIN, 0 } };
		int np = in_open ? 2 : 1;
		if (poll(p, (nfds_t)np, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			ssize_t r = read(fd, buf, sizeof buf);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0 || write_all(1, buf, (size_t)r) != 0)
				break; /* the run closed: so do we */
		}
		if (in_open && (p[1].revents & (POLLIN | POLLHUP | POLLERR))) {
			ssize_t r = read(0, buf, sizeof buf);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0) {
				/* the CLI closed our stdin: tell the run, read its last answers */
				in_open = 0;
				shutdown(fd, SHUT_WR);
			} else if (write_all(fd, buf, (size_t)r) != 0) {
				break;
			}
		}
	}
	close(fd);
	return 0;
}
