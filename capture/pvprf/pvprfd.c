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
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "capture/pvprf/pvprf.h"
#include "capture/pvprf/pvprfd.h"
#include "xmalloc.h"

#define MAX_CLIENTS	256
/* One process's connections at once: more are refused, and told why. */
#define MAX_PER_PEER	16
/* A request must come whole, and its reply be taken, in this (ms). */
#define REQ_MS		5000
/* A running profile's rings are drained at least this often (ms). */
#define DRAIN_MS	100
/* After accept4 ran out of descriptors: the first wait and the most. */
#define ACCEPT_MS	50
#define ACCEPT_MAX_MS	1600

/*
 * A caller's connection: its request as it comes, then its reply as it
 * goes, neither waited for (poll says when).
 */
struct client {
	int			 fd;
	pid_t			 pid;		/* the peer's, at connect */
	uint64_t		 deadline;	/* ms: drop it then */
	struct prfd_req		 rq;
	unsigned char		*body;
	size_t			 got;		/* of rq, then of body */
	int			 replying;
	struct prfd_reply	 rp;
	unsigned char		*data;
	size_t			 len, sent;	/* of rp, then of data */
};

static volatile sig_atomic_t	 quit;
static int			 foreground;
static char			 sock_path[PATH_MAX];
static struct client		 clients[MAX_CLIENTS];
static int			 nclients;
static uint64_t			 accept_at;
static unsigned			 accept_backoff = ACCEPT_MS;

#define SYNOPSIS	"usage: pvprfd [-f] [-t SECONDS]\n"

/* A bad command line: the synopsis, on standard error. */
static void
usage(void)
{
	fputs(SYNOPSIS "(pvprfd --help for the options)\n", stderr);
	exit(2);
}

/* --help: all of it, on standard output, which must take it whole. */
static int
help(void)
{
	fputs(SYNOPSIS
	    "\n"
	    "The per-user Dos32Profile daemon: it holds the profiles and"
	    " answers\n"
	    "libpvprf's calls (pvprf, or a program linked with the library),"
	    " which\n"
	    "starts it when it finds none: it is not started by hand.\n"
	    "\n"
	    "options:\n"
	    "  -f                say what it does on standard error\n"
	    "  -t SECONDS        leave after this long with nothing to do"
	    " (60)\n"
	    "  -h, --help        this text\n"
	    "  -V, --version     the version\n"
	    "\n"
	    "exit status: 0, also when another daemon already serves; 1 an"
	    " error;\n"
	    "2 usage\n", stdout);
	return (fflush(stdout) != 0 || ferror(stdout) ? 1 : 0);
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

/*
 * Room for n entries in the poll array, of *cap: grown by half again,
 * never shrunk, as the loop fills it on every wake.
 */
void
pollfd_room(struct pollfd **pfd, size_t *cap, size_t n)
{
	if (n <= *cap)
		return;
	*cap = n < 16 ? 16 : n + n / 2;
	*pfd = xreallocarray(*pfd, *cap, sizeof **pfd);
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
	/* Non-blocking: every caller waiting is taken, then no more. */
	if (bind(fd, (struct sockaddr *)&sun, sizeof sun) != 0 ||
	    chmod(path, 0600) != 0 || listen(fd, 64) != 0 ||
	    fcntl(fd, F_SETFL, O_NONBLOCK) != 0) {
		close(fd);
		return (-1);
	}
	return (fd);
}

static uint64_t
now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
}

/* The reply to send: header, then len bytes of data (ours to free). */
static void
reply(struct client *c, uint32_t rc, unsigned char *data, size_t len,
    uint64_t size)
{
	memset(&c->rp, 0, sizeof c->rp);
	c->rp.magic = PRFD_MAGIC;
	c->rp.rc = rc;
	c->rp.size = size;
	c->data = data;
	c->len = len;
	c->sent = 0;
	c->replying = 1;
	c->deadline = now_ms() + REQ_MS;
}

/* A failure, with why when there is something to say (pvprf(3)). */
static void
reply_why(struct client *c, uint32_t rc, const char *why)
{
	size_t		 len = why != NULL ? strnlen(why, PRFD_WHY_MAX) : 0;
	unsigned char	*text = NULL;

	if (len > 0) {
		text = xmalloc(len);
		memcpy(text, why, len);
	}
	reply(c, rc, text, len, len);
}

/*
 * The request that has come whole; -1 drops the connection (not a
 * request).  Everything in it is checked against the bytes that came.
 */
static int
handle(struct client *c)
{
	struct prfd_req		*rq = &c->rq;
	struct prfd_init	 in;
	struct prfd_dump	 du;
	struct prfd_slot	 sl[255];
	struct prf		*p;
	unsigned char		*body = c->body, *buf;
	size_t			 len, want;
	uint32_t		 rc;

	p = prf_find((pid_t)rq->pid);
	if (rq->func == PRF_CM_INIT) {
		if (rq->len < sizeof in)
			return (-1);
		memcpy(&in, body, sizeof in);
		want = sizeof in + ((in.flags & PRF_FLGBITS) ? in.nflgs : 0) +
		    (size_t)in.nslots * sizeof (struct prfd_slot);
		if (rq->len != want)
			return (-1);
		if (in.nslots > 255) {
			reply(c, ERROR_INVALID_PARAMETER, NULL, 0, 0);
			return (0);
		}
		/* After the flag bytes the slots are not aligned: copied. */
		memcpy(sl, body + want - (size_t)in.nslots * sizeof *sl,
		    (size_t)in.nslots * sizeof *sl);
		rc = prf_init((pid_t)rq->pid, rq->width, &in, body + sizeof in,
		    sl);
		reply_why(c, rc, rc != NO_ERROR ? prf_why() : NULL);
		return (0);
	}
	if (rq->func > PRF_CM_EXIT) {
		reply(c, ERROR_INVALID_PARAMETER, NULL, 0, 0);
		return (0);
	}
	if (p == NULL) {
		rc = rq->pid != 0 && kill((pid_t)rq->pid, 0) != 0 ?
		    ERROR_INVALID_PROCID : ERROR_PRF_NOT_INITIALIZED;
		reply(c, rc, NULL, 0, 0);
		return (0);
	}
	switch (rq->func) {
	case PRF_CM_START:
		reply(c, prf_start(p), NULL, 0, 0);
		return (0);
	case PRF_CM_STOP:
		reply(c, prf_stop(p), NULL, 0, 0);
		return (0);
	case PRF_CM_CLEAR:
		reply(c, prf_clear(p), NULL, 0, 0);
		return (0);
	case PRF_CM_EXIT:
		reply(c, prf_exit(p), NULL, 0, 0);
		return (0);
	}
	if (rq->len != sizeof du)
		return (-1);
	memcpy(&du, body, sizeof du);
	rc = prf_dump(p, &du, rq->width, &buf, &len);
	if (rc != NO_ERROR) {
		free(buf);
		buf = NULL;
	}
	reply(c, rc, buf, rc == NO_ERROR ? len : 0,
	    rc == NO_ERROR || rc == ERROR_BUFFER_OVERFLOW ? len : 0);
	return (0);
}

/*
 * Read what has come of a caller's request, without waiting for more: a
 * caller that sends a byte now and then holds nobody (its request's
 * deadline drops it).  -1 drops the connection: an end, an error or not
 * a request.
 */
static int
client_read(struct client *c)
{
	size_t	 want;
	ssize_t	 n;
	void	*at;
	int	 r;

	for (;;) {
		if (c->got < sizeof c->rq) {
			at = (char *)&c->rq + c->got;
			want = sizeof c->rq - c->got;
		} else {
			at = c->body + (c->got - sizeof c->rq);
			want = sizeof c->rq + c->rq.len - c->got;
		}
		if (want == 0) {
			r = handle(c);
			free(c->body);
			c->body = NULL;
			c->got = 0;
			return (r);
		}
		n = read(c->fd, at, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return (0);
		if (n <= 0)
			return (-1);
		c->got += n;
		if (c->got != sizeof c->rq)
			continue;
		if (c->rq.magic != PRFD_MAGIC || c->rq.len > PRFD_BODY_MAX ||
		    (c->rq.width != 4 && c->rq.width != 8) ||
		    c->rq.pid > INT_MAX)
			return (-1);
		c->body = xmalloc(c->rq.len > 0 ? c->rq.len : 1);
	}
}

/*
 * Send what the caller takes of its reply, without waiting; once it is
 * all sent, the connection may bring another request.
 */
static int
client_write(struct client *c)
{
	const void	*at;
	size_t		 want;
	ssize_t		 n;

	while (c->sent < sizeof c->rp + c->len) {
		if (c->sent < sizeof c->rp) {
			at = (const char *)&c->rp + c->sent;
			want = sizeof c->rp - c->sent;
		} else {
			at = c->data + (c->sent - sizeof c->rp);
			want = sizeof c->rp + c->len - c->sent;
		}
		n = send(c->fd, at, want, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return (0);
		if (n < 0)
			return (-1);
		c->sent += n;
	}
	free(c->data);
	c->data = NULL;
	c->replying = 0;
	c->deadline = now_ms() + REQ_MS;
	return (0);
}

static void
client_drop(int i)
{
	struct client	*c = &clients[i];

	close(c->fd);
	free(c->body);
	free(c->data);
	clients[i] = clients[--nclients];
}

/* Only the user's own processes may ask. */
static int
peer(int fd, pid_t *pid)
{
	struct ucred	uc;
	socklen_t	len = sizeof uc;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len) != 0 ||
	    uc.uid != getuid())
		return (-1);
	*pid = uc.pid;
	return (0);
}

/*
 * A process that has MAX_PER_PEER connections open is told so on the
 * next and it is closed: it cannot take every connection from the
 * user's other callers.  The reply fits an empty socket's buffer.
 */
static void
refuse(int fd, pid_t pid)
{
	struct prfd_reply	rp;
	char			buf[sizeof rp + PRFD_WHY_MAX];
	int			n;

	n = snprintf(buf + sizeof rp, PRFD_WHY_MAX, "pvprfd: pid %d has %d"
	    " connections open, the most one process may", (int)pid,
	    MAX_PER_PEER);
	if (n < 0)
		return;
	if (n >= PRFD_WHY_MAX)
		n = PRFD_WHY_MAX - 1;
	memset(&rp, 0, sizeof rp);
	rp.magic = PRFD_MAGIC;
	rp.rc = ERROR_SYS_INTERNAL;
	rp.size = n;
	memcpy(buf, &rp, sizeof rp);
	if (send(fd, buf, sizeof rp + n, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		log_msg("pid %d: %s", (int)pid, strerror(errno));
	log_msg("pid %d: refused, %d connections open", (int)pid,
	    MAX_PER_PEER);
}

/*
 * Every caller waiting on the socket, while there is room.  Out of
 * descriptors, a caller stays queued and the socket readable: asked
 * again at once, accept4 failed again and again (a busy loop).  It is
 * not polled for a while then, longer each time.
 */
static void
accept_clients(int lsock)
{
	struct client	*c;
	pid_t		 pid;
	int		 fd, i, k;

	while (nclients < MAX_CLIENTS) {
		fd = accept4(lsock, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno == EMFILE || errno == ENFILE ||
			    errno == ENOBUFS || errno == ENOMEM) {
				log_msg("accept: %s: again in %u ms",
				    strerror(errno), accept_backoff);
				accept_at = now_ms() + accept_backoff;
				if (accept_backoff < ACCEPT_MAX_MS)
					accept_backoff *= 2;
			}
			return;
		}
		accept_backoff = ACCEPT_MS;
		if (peer(fd, &pid) != 0) {
			close(fd);
			continue;
		}
		for (i = k = 0; i < nclients; i++)
			k += clients[i].pid == pid;
		if (k >= MAX_PER_PEER) {
			refuse(fd, pid);
			close(fd);
			continue;
		}
		c = &clients[nclients++];
		memset(c, 0, sizeof *c);
		c->fd = fd;
		c->pid = pid;
		c->deadline = now_ms() + REQ_MS;
	}
}

/*
 * How long poll may sleep: until a request's deadline, the next look at
 * a running profile's rings, the next accept after a failed one, or the
 * idle exit; for ever with none of those (an idle daemon takes no CPU).
 */
static int
poll_ms(uint64_t now, uint64_t last, long idle_s)
{
	uint64_t	t = UINT64_MAX;
	int		i;

	if (prf_sampling())
		t = now + DRAIN_MS;
	for (i = 0; i < nclients; i++) {
		if (clients[i].deadline < t)
			t = clients[i].deadline;
	}
	if (nclients < MAX_CLIENTS && accept_at > now && accept_at < t)
		t = accept_at;
	if (nclients == 0 && !prf_any() && idle_s > 0 &&
	    last + (uint64_t)idle_s * 1000 < t)
		t = last + (uint64_t)idle_s * 1000;
	if (t == UINT64_MAX)
		return (-1);
	return (t <= now ? 0 : t - now > INT_MAX ? INT_MAX : (int)(t - now));
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct sigaction sa;
	struct pollfd	*pfd = NULL;
	struct client	*c;
	char		 dir[PATH_MAX], lock[PATH_MAX + 16], *end;
	int		 lfd, lsock, ch, i, n, r;
	size_t		 np, pcap = 0;
	long		 idle_s = 60;
	uint64_t	 last, now;

	while ((ch = getopt_long(argc, argv, "ft:hV", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'h':
			return (help());
		case 'V':
			printf("pvprfd (profview) %s\n", PACKAGE_VERSION);
			return (fflush(stdout) != 0 || ferror(stdout) ? 1 : 0);
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
		now = now_ms();
		if (nclients == 0 && !prf_any() && idle_s > 0 &&
		    now - last >= (uint64_t)idle_s * 1000)
			break;
		/* A request not whole, or a reply not taken, in time. */
		for (i = nclients - 1; i >= 0; i--) {
			if (now < clients[i].deadline)
				continue;
			log_msg("pid %d: no whole %s in %d ms: dropped",
			    (int)clients[i].pid, clients[i].replying ?
			    "reply taken" : "request", REQ_MS);
			client_drop(i);
		}
		pollfd_room(&pfd, &pcap, 1 + nclients);
		/* A negative fd is not polled: no room, or backing off. */
		pfd[0].fd = nclients < MAX_CLIENTS && now >= accept_at ?
		    lsock : -1;
		pfd[0].events = POLLIN;
		for (i = 0; i < nclients; i++) {
			pfd[1 + i].fd = clients[i].fd;
			pfd[1 + i].events = clients[i].replying ? POLLOUT :
			    POLLIN;
		}
		np = prf_pollfds(&pfd, &pcap, 1 + nclients);
		n = poll(pfd, np, poll_ms(now, last, idle_s));
		if (n < 0 && errno != EINTR)
			break;
		if (n < 0)
			continue;
		prf_polled(pfd + 1 + nclients, np - 1 - nclients);
		prf_drain_all();
		for (i = nclients - 1; i >= 0; i--) {
			c = &clients[i];
			if (pfd[1 + i].revents == 0)
				continue;
			last = now_ms();
			if (pfd[1 + i].revents & (POLLERR | POLLNVAL))
				r = -1;
			else if (c->replying)
				r = client_write(c);
			else if ((r = client_read(c)) == 0 && c->replying)
				r = client_write(c);
			if (r != 0)
				client_drop(i);
		}
		if (pfd[0].revents & POLLIN) {
			last = now_ms();
			accept_clients(lsock);
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
	while (nclients > 0)
		client_drop(nclients - 1);
	free(pfd);
	log_msg("exiting");
	return (0);
}
