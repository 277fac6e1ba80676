/*
 * pvprfd: the per-user Dos32Profile daemon (pvprfd(1)).  It holds the
 * profiles between calls and answers libpvprf's requests on a UNIX
 * socket, one poll loop over the socket, the callers and the profiles'
 * ring buffers.
 *
 * One daemon a user: the first to take the lock in the socket's folder
 * binds the socket; any other started at the same time (two callers
 * that both found none) sees the lock taken and leaves.  Only the
 * holder of the lock unlinks or binds the socket.  With no profile and
 * no caller for a while it leaves too.
 */
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture/os2/pvprf.h"
#include "capture/os2/pvprfd.h"
#include "xmalloc.h"

#define MAX_CLIENTS	64

static volatile sig_atomic_t	 quit;
static int			 foreground;
static char			 sock_path[PATH_MAX];

static void
usage(void)
{
	fprintf(stderr, "usage: pvprfd [-f] [-t SECONDS]\n");
	exit(2);
}

void
log_msg(const char *fmt, ...)
{
	va_list	ap;

	if (!foreground)
		return;
	fputs("pvprfd: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void
on_signal(int sig)
{
	quit = 1;
}

/*
 * The socket's folder: made 0700 when it is ours to make, and refused
 * when it is not a folder of ours closed to others.
 */
static int
setup_dir(const char *dir)
{
	struct stat	sb;

	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return (-1);
	if (lstat(dir, &sb) != 0)
		return (-1);
	if (!S_ISDIR(sb.st_mode) || sb.st_uid != getuid() ||
	    (sb.st_mode & 077) != 0) {
		errno = EPERM;
		return (-1);
	}
	return (0);
}

static int
listen_on(const char *path)
{
	struct sockaddr_un	sun;
	int			fd;

	if ((fd = prfd_socket(path, &sun)) < 0)
		return (-1);
	unlink(path);
	if (bind(fd, (struct sockaddr *)&sun, sizeof sun) != 0 ||
	    chmod(path, 0600) != 0 || listen(fd, 64) != 0) {
		close(fd);
		return (-1);
	}
	return (fd);
}

static int
reply(int fd, uint32_t rc, const void *data, size_t len, uint64_t size)
{
	struct prfd_reply	rp;

	memset(&rp, 0, sizeof rp);
	rp.magic = PRFD_MAGIC;
	rp.rc = rc;
	rp.size = size;
	if (prfd_write_full(fd, &rp, sizeof rp) != 0)
		return (-1);
	if (len > 0 && prfd_write_full(fd, data, len) != 0)
		return (-1);
	return (0);
}

/*
 * One request from a caller; -1 drops the connection (a request that is
 * not one, or a caller gone).  Everything in it is checked against the
 * bytes that came.
 */
static int
serve(int fd)
{
	struct prfd_req		 rq;
	struct prfd_init	 in;
	struct prfd_dump	 du;
	struct prfd_slot	 sl[255];
	struct prf		*p;
	unsigned char		 body[PRFD_BODY_MAX], *buf;
	size_t			 len, want;
	uint32_t		 rc;
	int			 r;

	if (prfd_read_full(fd, &rq, sizeof rq) != 0)
		return (-1);
	if (rq.magic != PRFD_MAGIC || rq.len > sizeof body ||
	    (rq.width != 4 && rq.width != 8) || rq.pid > INT_MAX)
		return (-1);
	if (rq.len > 0 && prfd_read_full(fd, body, rq.len) != 0)
		return (-1);
	p = prf_find((pid_t)rq.pid);
	if (rq.func == PRF_CM_INIT) {
		if (rq.len < sizeof in)
			return (-1);
		memcpy(&in, body, sizeof in);
		want = sizeof in + ((in.flags & PRF_FLGBITS) ? in.nflgs : 0) +
		    (size_t)in.nslots * sizeof (struct prfd_slot);
		if (rq.len != want)
			return (-1);
		if (in.nslots > 255)
			return (reply(fd, ERROR_INVALID_PARAMETER, NULL, 0, 0));
		/* After the flag bytes the slots are not aligned: copied. */
		memcpy(sl, body + want - (size_t)in.nslots * sizeof *sl,
		    (size_t)in.nslots * sizeof *sl);
		rc = prf_init((pid_t)rq.pid, rq.width, &in, body + sizeof in,
		    sl);
		return (reply(fd, rc, NULL, 0, 0));
	}
	if (rq.func > PRF_CM_EXIT)
		return (reply(fd, ERROR_INVALID_PARAMETER, NULL, 0, 0));
	if (p == NULL) {
		rc = rq.pid != 0 && kill((pid_t)rq.pid, 0) != 0 ?
		    ERROR_INVALID_PROCID : ERROR_PRF_NOT_INITIALIZED;
		return (reply(fd, rc, NULL, 0, 0));
	}
	switch (rq.func) {
	case PRF_CM_START:
		return (reply(fd, prf_start(p), NULL, 0, 0));
	case PRF_CM_STOP:
		return (reply(fd, prf_stop(p), NULL, 0, 0));
	case PRF_CM_CLEAR:
		return (reply(fd, prf_clear(p), NULL, 0, 0));
	case PRF_CM_EXIT:
		return (reply(fd, prf_exit(p), NULL, 0, 0));
	}
	if (rq.len != sizeof du)
		return (-1);
	memcpy(&du, body, sizeof du);
	rc = prf_dump(p, &du, rq.width, &buf, &len);
	r = reply(fd, rc, buf, rc == NO_ERROR ? len : 0,
	    rc == NO_ERROR || rc == ERROR_BUFFER_OVERFLOW ? len : 0);
	free(buf);
	return (r);
}

/* Only the user's own processes may ask. */
static int
peer_ok(int fd)
{
	struct ucred	uc;
	socklen_t	len = sizeof uc;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len) != 0)
		return (0);
	return (uc.uid == getuid());
}

static uint64_t
now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

int
main(int argc, char **argv)
{
	struct sigaction sa;
	struct pollfd	*pfd = NULL;
	struct timeval	 tv = { 5, 0 };
	char		 dir[PATH_MAX], lock[PATH_MAX + 16], *end;
	int		 clients[MAX_CLIENTS], nclients = 0, lfd, lsock, c;
	int		*rfds, fd, i, n;
	size_t		 nr, k;
	long		 idle_s = 60;
	uint64_t	 last;

	while ((c = getopt(argc, argv, "ft:")) != -1) {
		switch (c) {
		case 'f':
			foreground = 1;
			break;
		case 't':
			idle_s = strtol(optarg, &end, 10);
			if (*optarg == '\0' || *end != '\0' || idle_s < 0)
				usage();
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	if (prfd_sock_dir(dir, sizeof dir) != 0 ||
	    prfd_sock_path(sock_path, sizeof sock_path) != 0) {
		fprintf(stderr, "pvprfd: socket path too long\n");
		return (1);
	}
	if (setup_dir(dir) != 0) {
		fprintf(stderr, "pvprfd: %s: %s (a folder of this user's,"
		    " mode 0700, is needed)\n", dir, strerror(errno));
		return (1);
	}
	snprintf(lock, sizeof lock, "%s/pvprfd.lock", dir);
	if ((lfd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) < 0) {
		fprintf(stderr, "pvprfd: %s: %s\n", lock, strerror(errno));
		return (1);
	}
	if (flock(lfd, LOCK_EX | LOCK_NB) != 0) {
		if (errno == EWOULDBLOCK) {
			/* Another daemon has it: that one serves. */
			log_msg("already running");
			return (0);
		}
		fprintf(stderr, "pvprfd: %s: %s\n", lock, strerror(errno));
		return (1);
	}
	/* Who holds it, for pvprfd -k and for tests. */
	if (ftruncate(lfd, 0) == 0)
		dprintf(lfd, "%d\n", (int)getpid());
	if ((lsock = listen_on(sock_path)) < 0) {
		fprintf(stderr, "pvprfd: %s: %s\n", sock_path,
		    strerror(errno));
		return (1);
	}

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	log_msg("listening on %s", sock_path);

	last = now_ms();
	while (!quit) {
		nr = prf_pollfds(&rfds);
		pfd = xreallocarray(pfd, 1 + nclients + nr, sizeof *pfd);
		pfd[0].fd = lsock;
		pfd[0].events = POLLIN;
		for (i = 0; i < nclients; i++) {
			pfd[1 + i].fd = clients[i];
			pfd[1 + i].events = POLLIN;
		}
		for (k = 0; k < nr; k++) {
			pfd[1 + nclients + k].fd = rfds[k];
			pfd[1 + nclients + k].events = POLLIN;
		}
		free(rfds);
		/* The rings are drained at least ten times a second. */
		n = poll(pfd, 1 + nclients + nr, 100);
		if (n < 0 && errno != EINTR)
			break;
		prf_drain_all();
		if (n <= 0) {
			if (nclients == 0 && !prf_any() && idle_s > 0 &&
			    now_ms() - last >= (uint64_t)idle_s * 1000)
				break;
			continue;
		}
		for (i = nclients - 1; i >= 0; i--) {
			if (pfd[1 + i].revents == 0)
				continue;
			last = now_ms();
			if (!(pfd[1 + i].revents & POLLIN) ||
			    serve(clients[i]) != 0) {
				close(clients[i]);
				clients[i] = clients[--nclients];
			}
		}
		if (pfd[0].revents & POLLIN) {
			fd = accept4(lsock, NULL, NULL, SOCK_CLOEXEC);
			if (fd < 0)
				continue;
			last = now_ms();
			if (nclients == MAX_CLIENTS || !peer_ok(fd)) {
				close(fd);
				continue;
			}
			/* A caller that stops halfway does not hold us. */
			setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
			setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
			clients[nclients++] = fd;
		}
	}
	/*
	 * Callers already queued on the socket see it closed and start a
	 * daemon again (libpvprf asks once more): they were never read.
	 */
	unlink(sock_path);
	close(lsock);
	if (ftruncate(lfd, 0) != 0)
		log_msg("%s: %s", lock, strerror(errno));
	for (i = 0; i < nclients; i++)
		close(clients[i]);
	free(pfd);
	log_msg("exiting");
	return (0);
}
