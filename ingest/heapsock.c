/*
 * pvheap's socket, the client's side (pvheap(1) --socket): a request is
 * the line "snapshot", answered "ok FILE" or "error REASON" once the
 * agent has written the snapshot.  The heap kind's live source (kind.h)
 * takes one at once, waiting; the browser's live heap map takes them a
 * step at a time (tui/heaplive.c) with the same calls.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "xmalloc.h"
#include "vis.h"
#include "ingest/ingest.h"
#include "ingest/heap.h"

/* How long --attach waits for the first snapshot's answer. */
#define HEAPSOCK_WAIT_MS	(120 * 1000)

static uint64_t
heapsock_now_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec);
}

/*
 * Connect to pvheap's socket: the fd, and the program's pid (0 if the
 * kernel does not say); -1 and a cause that tells a missing socket from
 * one nobody listens on.
 */
int
ingest_heapsock_connect(const char *path, pid_t *pid, char **cause)
{
	struct sockaddr_un	sun;
	struct ucred		cr;
	socklen_t		len = sizeof cr;
	int			fd, e;

	*pid = 0;
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun.sun_path) {
		*cause = xasprintf("%s: a socket path is at most %zu bytes",
		    path, sizeof sun.sun_path - 1);
		return (-1);
	}
	memcpy(sun.sun_path, path, strlen(path));
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1) {
		*cause = xasprintf("socket: %s", strerror(errno));
		return (-1);
	}
	if (connect(fd, (struct sockaddr *)&sun, sizeof sun) != 0) {
		e = errno;
		close(fd);
		if (e == ENOENT)
			*cause = xasprintf("%s: no such socket (is pvheap"
			    " --socket %s running?)", path, path);
		else if (e == ECONNREFUSED)
			*cause = xasprintf("%s: nothing listens there (the"
			    " program has ended, or it is not pvheap's"
			    " socket)", path);
		else
			*cause = xasprintf("%s: %s", path, strerror(e));
		errno = e;
		return (-1);
	}
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) == 0)
		*pid = cr.pid;
	return (fd);
}

/* Send the request; -1 and a cause if the agent went meanwhile. */
int
ingest_heapsock_ask(int fd, const char *path, char **cause)
{
	static const char	req[] = "snapshot\n";

	if (send(fd, req, sizeof req - 1, MSG_NOSIGNAL) !=
	    (ssize_t)(sizeof req - 1)) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		return (-1);
	}
	return (0);
}

/*
 * Read what the agent has answered so far; 1 when the line is whole (or
 * the agent closed), 0 for more, -1 and a cause on a read error.
 */
int
ingest_heapsock_read(int fd, char *buf, size_t *got, const char *path,
    char **cause)
{
	ssize_t	n;

	for (;;) {
		if (*got >= INGEST_HEAPSOCK_REPLY_MAX - 1)
			return (1);
		n = read(fd, buf + *got, INGEST_HEAPSOCK_REPLY_MAX - 1 - *got);
		if (n == 0)
			return (1);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return (0);
			*cause = xasprintf("%s: %s", path, strerror(errno));
			return (-1);
		}
		*got += (size_t)n;
		buf[*got] = '\0';
		if (memchr(buf, '\n', *got) != NULL)
			return (1);
	}
}

/* The answer: the snapshot's file, or -1 and what was wrong with it. */
int
ingest_heapsock_answer(char *buf, size_t got, const char *path, char **file,
    char **cause)
{
	char	*nl, *v;

	buf[got] = '\0';
	if ((nl = memchr(buf, '\n', got)) == NULL) {
		*cause = got == 0 ? xasprintf("%s: the program ended before it"
		    " answered", path) : xasprintf("%s: an answer without an"
		    " end of line: not pvheap's socket?", path);
		return (-1);
	}
	*nl = '\0';
	if (strncmp(buf, "ok /", 4) == 0) {
		*file = xstrdup(buf + 3);
		return (0);
	}
	v = vis(buf);
	if (strncmp(buf, "error ", 6) == 0)
		*cause = xasprintf("%s: the agent could not take a snapshot:"
		    " %s", path, v + 6);
	else
		*cause = xasprintf("%s: not pvheap's answer: \"%s\"", path, v);
	free(v);
	return (-1);
}

/*
 * A snapshot now, waiting for it (the heap kind's live source: profview
 * --attach, before the browser starts): its file, or -1 and a cause.
 */
int
ingest_heapsock_snapshot(const char *path, char **file, char **cause)
{
	struct pollfd	 p;
	char		 buf[INGEST_HEAPSOCK_REPLY_MAX];
	size_t		 got = 0;
	pid_t		 pid;
	uint64_t	 end;
	int		 fd, r = 0, ms;

	end = heapsock_now_ns() + (uint64_t)HEAPSOCK_WAIT_MS * 1000000;
	if ((fd = ingest_heapsock_connect(path, &pid, cause)) == -1)
		return (-1);
	if (ingest_heapsock_ask(fd, path, cause) != 0) {
		close(fd);
		return (-1);
	}
	p.fd = fd;
	p.events = POLLIN;
	while (r == 0) {
		ms = (int)((end - heapsock_now_ns()) / 1000000);
		if (heapsock_now_ns() >= end || poll(&p, 1, ms) == 0) {
			close(fd);
			*cause = xasprintf("%s: no answer in %d seconds: not"
			    " pvheap's socket?", path, HEAPSOCK_WAIT_MS / 1000);
			return (-1);
		}
		r = ingest_heapsock_read(fd, buf, &got, path, cause);
	}
	close(fd);
	if (r < 0)
		return (-1);
	return (ingest_heapsock_answer(buf, got, path, file, cause));
}
