/*
 * The agent's thread, started when a snapshot may be asked for while the
 * program runs: on a signal (the handler only counts it and wakes the
 * thread through a pipe), every N ms, or on a line from a client of the
 * --socket; and the snapshots at the end of the process.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "capture/pvheap/agent.h"
#include "capture/pvheap/heapfmt.h"

/* ---- the agent's thread: signals, timer, socket --------------------- */

static int		 wake_fd[2] = { -1, -1 };
int			 agent_starting;
static int		 listen_fd = -1;
static pthread_t	 agent_tid;
static pid_t		 agent_ktid;	/* its kernel tid, once it runs */
static int		 agent_running;
static uint64_t		 agent_stk_lo, agent_stk_hi;
static int		 exit_done;
static unsigned		 serial;
/*
 * Signals received and not yet snapshotted: one snapshot each, taken by
 * the agent's thread or, when the program ends first, by the exiting
 * thread (agent_sig_snapshots); the pipe only wakes the agent's thread.
 */
static unsigned		 sig_pending;
static pthread_mutex_t	 sig_lock = PTHREAD_MUTEX_INITIALIZER;

void
agent_thread_stack(uint64_t *lo, uint64_t *hi)
{
	*lo = agent_running ? agent_stk_lo : 0;
	*hi = agent_running ? agent_stk_hi : 0;
}

/*
 * The agent's thread, which a snapshot does not stop: it blocks every
 * signal (so a stop would wait two seconds for it in vain) and touches
 * no table but under snap_lock, which the snapshot holds.  0: none.
 */
pid_t
agent_thread_tid(void)
{
	return (agent_running ? __atomic_load_n(&agent_ktid,
	    __ATOMIC_ACQUIRE) : 0);
}

void
agent_trigger_handler(int sig)
{
	int	e = errno;
	char	c = (char)sig;

	__atomic_add_fetch(&sig_pending, 1, __ATOMIC_ACQ_REL);
	/* A full pipe means the agent's thread is woken anyway. */
	if (wake_fd[1] != -1 && write(wake_fd[1], &c, 1) < 0)
		errno = e;
	errno = e;
}

/* Take one pending signal's snapshot on; 0 when none is pending. */
static int
agent_sig_claim(void)
{
	unsigned	n = __atomic_load_n(&sig_pending, __ATOMIC_ACQUIRE);

	while (n != 0) {
		if (__atomic_compare_exchange_n(&sig_pending, &n, n - 1, 0,
		    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return (1);
	}
	return (0);
}

/*
 * A snapshot for each pending signal.  sig_lock is held throughout, so
 * the exiting thread that calls this waits for one the agent's thread
 * has under way (exit_group would kill it half written) and then takes
 * the rest itself.  Not busy while it waits: a stop must park it.
 */
static void
agent_sig_snapshots(void)
{
	char	path[PATH_MAX];

	pthread_mutex_lock(&sig_lock);
	while (agent_sig_claim()) {
		if (snap_take(HEAPFMT_AT_SIGNAL, agent_opts.signal, path,
		    sizeof path) != 0)
			agent_say("%s", path);
	}
	pthread_mutex_unlock(&sig_lock);
}

static void
agent_serve(int fd)
{
	char		 line[64], path[PATH_MAX], reply[PATH_MAX + 16];
	struct pollfd	 p;
	struct ucred	 uc;
	struct timespec	 t0, t;
	socklen_t	 ulen = sizeof uc;
	ssize_t		 n;
	size_t		 got = 0;
	long		 left;

	/*
	 * The program's owner (or root) only: the socket is 0600, and a
	 * snapshot holds the program's memory.
	 */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &ulen) != 0 ||
	    (uc.uid != geteuid() && uc.uid != 0)) {
		snprintf(reply, sizeof reply, "error not the program's user\n");
		if (write(fd, reply, strlen(reply)) < 0)
			return;
		return;
	}
	/*
	 * The whole request within 2 s, not 2 s a byte: this thread serves
	 * one client at a time, and a slow one would hold it.
	 */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	p.fd = fd;
	p.events = POLLIN;
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		left = 2000 - ((t.tv_sec - t0.tv_sec) * 1000 +
		    (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (got >= sizeof line - 1 || left <= 0 ||
		    poll(&p, 1, (int)left) != 1)
			break;
		if ((n = read(fd, line + got, sizeof line - 1 - got)) <= 0)
			break;
		got += (size_t)n;
		if (memchr(line, '\n', got) != NULL)
			break;
	}
	line[got] = '\0';
	if (strncmp(line, "snapshot", 8) != 0)
		snprintf(reply, sizeof reply, "error unknown request\n");
	else if (snap_take(HEAPFMT_AT_SOCKET, 0, path, sizeof path) == 0)
		snprintf(reply, sizeof reply, "ok %s\n", path);
	else
		snprintf(reply, sizeof reply, "error %s\n", path);
	if (write(fd, reply, strlen(reply)) < 0)
		return;		/* the client left */
}

/*
 * The socket this process made at the --socket path, known by its inode
 * so that it is removed at exit only if it is still there.
 */
static int		 sock_made;
static dev_t		 sock_dev;
static ino_t		 sock_ino;

/*
 * Put the bound socket at path: where nothing is, or over a socket (one
 * an earlier run left), never over anything else, which is the user's.
 */
static int
agent_sock_place(const char *tmp, const char *path)
{
	struct stat	st;

	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
		return (0);
	/* EINVAL: a file system without RENAME_NOREPLACE. */
	if (errno != EEXIST && errno != EINVAL)
		return (-1);
	if (lstat(path, &st) != 0)
		return (errno == ENOENT ? rename(tmp, path) : -1);
	if (!S_ISSOCK(st.st_mode)) {
		errno = EEXIST;
		return (-1);
	}
	return (rename(tmp, path));
}

static void
agent_sock_remove(void)
{
	struct stat	st;

	if (!sock_made || getpid() != agent_ctor_pid)
		return;
	sock_made = 0;
	if (lstat(agent_opts.socket, &st) == 0 && S_ISSOCK(st.st_mode) &&
	    st.st_dev == sock_dev && st.st_ino == sock_ino)
		unlink(agent_opts.socket);
}

static void
agent_listen_open(void)
{
	struct sockaddr_un	sun;
	struct stat		st;
	unsigned		rnd;
	int			fd;

	if (agent_opts.socket[0] == '\0' || getpid() != agent_main_pid)
		return;
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return;
	/*
	 * Bound under a name of its own and listening before it takes the
	 * path: a client that sees the socket can connect at once (between
	 * bind and listen it would be refused).
	 */
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	/* A name nobody can take first: the folder may be shared. */
	if (getrandom(&rnd, sizeof rnd, 0) != (ssize_t)sizeof rnd)
		rnd = (unsigned)agent_run_clock();
	if ((size_t)snprintf(sun.sun_path, sizeof sun.sun_path, "%s.%ld.%08x",
	    agent_opts.socket, (long)getpid(), rnd) >= sizeof sun.sun_path) {
		agent_say("cannot listen on %s: path too long",
		    agent_opts.socket);
		close(fd);
		return;
	}
	/*
	 * Nothing at that name is removed first: it may be anyone's file
	 * (a socket of ours left there would need this pid again).
	 */
	if (bind(fd, (struct sockaddr *)&sun, sizeof sun) != 0) {
		agent_say("cannot listen on %s: %s: %s", agent_opts.socket,
		    sun.sun_path, strerror(errno));
		close(fd);
		return;
	}
	/* Its owner's alone, before it listens (the umask is the program's). */
	if (chmod(sun.sun_path, 0600) != 0 || listen(fd, 4) != 0 ||
	    agent_sock_place(sun.sun_path,
	    agent_opts.socket) != 0) {
		agent_say("cannot listen on %s: %s", agent_opts.socket,
		    errno == EEXIST ? "it exists and is not a socket" :
		    strerror(errno));
		unlink(sun.sun_path);
		close(fd);
		return;
	}
	if (lstat(agent_opts.socket, &st) == 0) {
		sock_dev = st.st_dev;
		sock_ino = st.st_ino;
		sock_made = 1;
	}
	listen_fd = fd;
}

static void *
agent_main(void *arg)
{
	struct pollfd	 p[2];
	pthread_attr_t	 a;
	void		*stk;
	size_t		 sz;
	char		 buf[16], path[PATH_MAX];
	uint64_t	 next = 0, now;
	struct timespec	 ts;
	int		 n, timeout, fd;

	(void)arg;
	agent_tls.agent = 1;
	agent_tls.busy = 1;
	__atomic_store_n(&agent_ktid, agent_gettid(), __ATOMIC_RELEASE);
	if (pthread_getattr_np(pthread_self(), &a) == 0) {
		if (pthread_attr_getstack(&a, &stk, &sz) == 0) {
			agent_stk_lo = (uint64_t)(uintptr_t)stk;
			agent_stk_hi = agent_stk_lo + sz;
		}
		pthread_attr_destroy(&a);
	}
	/* A signal before the pipe was made wrote nothing to it. */
	if (agent_opts.signal != 0)
		agent_sig_snapshots();
	for (;;) {
		p[0].fd = wake_fd[0];
		p[0].events = POLLIN;
		p[1].fd = listen_fd;
		p[1].events = POLLIN;
		timeout = -1;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		now = (uint64_t)ts.tv_sec * 1000 +
		    (uint64_t)ts.tv_nsec / 1000000;
		if (agent_opts.every_ms != 0) {
			if (next == 0)
				next = now + agent_opts.every_ms;
			timeout = next > now ? (int)(next - now) : 0;
		}
		n = poll(p, listen_fd != -1 ? 2 : 1, timeout);
		if (n == 0) {
			next += agent_opts.every_ms;
			if (snap_take(HEAPFMT_AT_EVERY, 0, path,
			    sizeof path) != 0)
				agent_say("%s", path);
			continue;
		}
		if (n < 0)
			continue;
		if (p[0].revents & POLLIN) {
			/* The count is in sig_pending, not in the pipe. */
			while (read(wake_fd[0], buf, sizeof buf) > 0)
				;
			agent_sig_snapshots();
		}
		if (listen_fd != -1 && (p[1].revents & POLLIN)) {
			if ((fd = accept4(listen_fd, NULL, NULL,
			    SOCK_CLOEXEC)) != -1) {
				agent_serve(fd);
				close(fd);
			}
		}
	}
	return (NULL);
}

void
agent_thread_start(void)
{
	sigset_t	all, old;

	if (!agent_opts.signal && !agent_opts.every_ms &&
	    (agent_opts.socket[0] == '\0' || getpid() != agent_main_pid))
		return;
	if (wake_fd[0] == -1 && pipe2(wake_fd, O_CLOEXEC | O_NONBLOCK) != 0)
		return;
	/*
	 * Before the program runs: a program that ends at once finds the
	 * socket made, and removes it (agent_exit_snapshot).
	 */
	agent_listen_open();
	/* The agent's thread takes no signal of the program's. */
	sigfillset(&all);
	agent_real_pthread_sigmask(SIG_SETMASK, &all, &old);
	agent_starting = 1;
	__atomic_store_n(&agent_ktid, 0, __ATOMIC_RELEASE);
	if (pthread_create(&agent_tid, NULL, agent_main, NULL) == 0) {
		agent_running = 1;
		/*
		 * Its tid before the program runs on: a snapshot taken
		 * before it is known would wait for the thread to stop.
		 */
		while (__atomic_load_n(&agent_ktid, __ATOMIC_ACQUIRE) == 0)
			sched_yield();
	}
	agent_starting = 0;
	agent_real_pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/*
 * The end of the process, on the thread that ends it: the snapshots of
 * the signals received before it (the agent's thread dies with the
 * process, perhaps before it took them), the exit snapshot once, the
 * snapshots of signals that came during it, and the socket goes.
 */
void
agent_exit_snapshot(void)
{
	char	path[PATH_MAX];

	/*
	 * Once per thread: a signal handler that calls _exit while this
	 * thread is here would wait for the locks it holds.
	 */
	if (agent_state != 2 || agent_tls.exiting)
		return;
	agent_tls.exiting = 1;
	if (agent_opts.signal != 0)
		agent_sig_snapshots();
	if (agent_opts.at_exit &&
	    __atomic_exchange_n(&exit_done, 1, __ATOMIC_ACQ_REL) == 0) {
		if (snap_take(HEAPFMT_AT_EXIT, 0, path, sizeof path) != 0)
			agent_say("%s", path);
		if (agent_opts.signal != 0)
			agent_sig_snapshots();
	}
	agent_sock_remove();
}

unsigned
agent_next_serial(void)
{
	return (++serial);
}

/* A fork's child: a run of its own, with no thread or socket yet. */
void
agent_server_atfork_child(void)
{
	serial = 0;
	exit_done = 0;
	agent_running = 0;
	listen_fd = -1;
	if (wake_fd[0] != -1) {
		close(wake_fd[0]);
		close(wake_fd[1]);
		wake_fd[0] = wake_fd[1] = -1;
	}
	/* The parent's signals are the parent's to snapshot. */
	sig_pending = 0;
	pthread_mutex_init(&sig_lock, NULL);
	sock_made = 0;
}
