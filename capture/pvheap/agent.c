/*
 * libpvheap.so: preloaded into the program by pvheap(1), it interposes
 * the whole allocator surface of glibc and libstdc++ and keeps, for every
 * live block, its address, size, allocation stack, thread and sequence
 * number, and for every allocation site heaptrack's numbers.  The blocks
 * themselves come from glibc's own allocator (__libc_malloc and friends),
 * so the heap's layout is the program's.  snap.c turns the tables into a
 * snapshot.
 *
 * Its files: agent_hooks.c (the functions it interposes), agent_blocks.c
 * and agent_sites.c (the tables), agent_mem.c (its own memory, mmap'd,
 * never malloc'd), agent_server.c (the agent's thread and the snapshots
 * at exit), and this one: the state they share, the start (the first
 * hook or the constructor), the options, the files' names, the stop
 * signal's handler, fork and the destructor.
 *
 * A thread inside a hook is "busy": allocations it makes meanwhile (from
 * libunwind, dlsym, the snapshot) go straight to glibc untracked, and a
 * request to stop it waits until it leaves the hook (snap_stop.c).
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "capture/pvheap/agent.h"
#include "capture/pvheap/heapfmt.h"

struct agent_opts	agent_opts;
uint64_t		agent_seq;
/*
 * When this process (this image, after an exec) started to be watched:
 * with the pid, it names the run its snapshots belong to.
 */
uint64_t		agent_started_ns;
uint64_t		agent_frees_unknown;

__thread struct agent_tls agent_tls __attribute__((tls_model("initial-exec")));

int			 agent_state;	/* 0 cold, 1 starting, 2 ready */
uint64_t		 agent_self_lo, agent_self_hi;	/* our code */
size_t			 (*agent_real_usable)(void *);
int			 (*agent_real_sigaction)(int, const struct sigaction *,
			    struct sigaction *);
int			 (*agent_real_pthread_sigmask)(int, const sigset_t *,
			    sigset_t *);
int			 (*agent_real_dlclose)(void *);
static char		 out_base[PATH_MAX];
pid_t			 agent_main_pid;
pid_t			 agent_ctor_pid;	/* this process's, for _exit */

int			 agent_mt;

void
agent_self_range(uint64_t *lo, uint64_t *hi)
{
	*lo = agent_self_lo;
	*hi = agent_self_hi;
}

pid_t
agent_gettid(void)
{
	if (agent_tls.tid == 0) {
		agent_tls.tid = (pid_t)syscall(SYS_gettid);
		/* A thread pthread_create did not tell us of. */
		if (agent_tls.tid != getpid() && !agent_tls.agent)
			__atomic_store_n(&agent_mt, 1, __ATOMIC_SEQ_CST);
	}
	return (agent_tls.tid);
}

int
agent_is_agent_thread(void)
{
	return (agent_tls.agent);
}

/*
 * Mark this thread busy for the snapshot's duration: its own allocations
 * pass untracked.  Returns the previous state for agent_busy_leave.
 */
int
agent_busy_enter(void)
{
	int	was = agent_tls.busy;

	agent_tls.busy = 1;
	return (was);
}

void
agent_busy_leave(int was)
{
	agent_tls.busy = was;
}

/* ---- stopping ------------------------------------------------------ */

/*
 * The stop signal (snap_stop.c sends it to every thread for a snapshot).  A
 * thread inside a hook may hold a shard's lock: it notes the request and
 * parks when it leaves the hook, by sending itself the signal again.
 */
static void
agent_stop_handler(int sig, siginfo_t *si, void *uc)
{
	int	e = errno;

	(void)sig;
	(void)si;
	if (agent_tls.agent)
		return;
	if (agent_tls.busy) {
		agent_tls.stop_pending = 1;
		return;
	}
	agent_tls.stops++;
	snap_stop_handler(sig, uc);
	errno = e;
}

void
agent_stop_again(void)
{
	agent_tls.stop_pending = 0;
	syscall(SYS_tgkill, getpid(), agent_gettid(), agent_opts.stopsig);
}

/* ---- options and names --------------------------------------------- */

static uint64_t
agent_opt_num(const char *s)
{
	uint64_t	v = 0;

	while (*s >= '0' && *s <= '9')
		v = v * 10 + (uint64_t)(*s++ - '0');
	return (v);
}

/* PVHEAP_OPTS: "exit;signal=12;every=500;contents=64;depth=16;quiet". */
static void
agent_opt_parse(const char *s)
{
	const char	*v;

	agent_opts.depth = AGENT_DEPTH;
	agent_opts.stopsig = SIGRTMAX - 3;
	if (s == NULL || *s == '\0') {
		agent_opts.at_exit = 1;
		return;
	}
	while (*s != '\0') {
		v = strchr(s, '=');
		if (strncmp(s, "exit", 4) == 0)
			agent_opts.at_exit = 1;
		else if (strncmp(s, "quiet", 5) == 0)
			agent_opts.quiet = 1;
		else if (v != NULL && strncmp(s, "signal=", 7) == 0)
			agent_opts.signal = (int)agent_opt_num(v + 1);
		else if (v != NULL && strncmp(s, "every=", 6) == 0)
			agent_opts.every_ms = agent_opt_num(v + 1);
		else if (v != NULL && strncmp(s, "depth=", 6) == 0)
			agent_opts.depth = (int)agent_opt_num(v + 1);
		else if (v != NULL && strncmp(s, "stopsig=", 8) == 0)
			agent_opts.stopsig = (int)agent_opt_num(v + 1);
		else if (v != NULL && strncmp(s, "contents=", 9) == 0)
			agent_opts.contents = strncmp(v + 1, "all", 3) == 0 ?
			    HEAPFMT_CONTENTS_ALL : agent_opt_num(v + 1);
		if ((s = strchr(s, ';')) == NULL)
			break;
		s++;
	}
	if (agent_opts.depth < 1)
		agent_opts.depth = 1;
	if (agent_opts.depth > AGENT_MAXDEPTH)
		agent_opts.depth = AGENT_MAXDEPTH;
	if (agent_opts.stopsig < 1 || agent_opts.stopsig > SIGRTMAX)
		agent_opts.stopsig = SIGRTMAX - 3;
}

static void
agent_name_put(char **p, char *end, const char *s)
{
	while (*s != '\0' && *p < end)
		*(*p)++ = *s++;
}

static void
agent_name_num(char **p, char *end, uint64_t v)
{
	char	d[24];
	int	n = 0;

	do
		d[n++] = (char)('0' + v % 10);
	while ((v /= 10) != 0);
	while (n > 0 && *p < end)
		*(*p)++ = d[--n];
}

/*
 * The file for snapshot serial (0: the one at exit): OUT for the first
 * process, with ".PID" before a ".heap" suffix for every other process
 * (fork children, programs they exec), and ".N" for the N-th snapshot
 * taken on a signal, a timer or a request.
 */
void
agent_out_name(char *dst, size_t len, unsigned serial)
{
	size_t	 n = strlen(out_base);
	char	*p = dst, *end = dst + len - 1;
	int	 suffix = n >= 5 && strcmp(out_base + n - 5, ".heap") == 0;

	if (suffix)
		n -= 5;
	while (n > 0 && p < end) {
		*p++ = out_base[strlen(out_base) - n - (suffix ? 5 : 0)];
		n--;
	}
	if (getpid() != agent_main_pid) {
		agent_name_put(&p, end, ".");
		agent_name_num(&p, end, (uint64_t)getpid());
	}
	if (serial != 0) {
		agent_name_put(&p, end, ".");
		agent_name_num(&p, end, serial);
	}
	if (suffix)
		agent_name_put(&p, end, ".heap");
	*p = '\0';
}

/*
 * The program's standard error as it was at start: a program may close
 * fd 2 and open a file of its own there, which must not get our lines.
 * Kept above the numbers a program usually gets (its first open() is
 * still 3), and known by its file, so that a program that closes it and
 * reuses the number for something else gets nothing either.
 */
static int		 err_fd = -1;
static dev_t		 err_dev;
static ino_t		 err_ino;

static void
agent_err_open(void)
{
	struct stat	st;

	if ((err_fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 100)) == -1)
		err_fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	if (err_fd == -1)
		return;
	if (fstat(err_fd, &st) != 0) {
		close(err_fd);
		err_fd = -1;
		return;
	}
	err_dev = st.st_dev;
	err_ino = st.st_ino;
}

void
agent_say(const char *fmt, ...)
{
	char		buf[PATH_MAX + 256];
	struct stat	st;
	va_list		ap;
	int		n;

	if (err_fd == -1)
		return;		/* -q, or no standard error at start */
	if (fstat(err_fd, &st) != 0 || st.st_dev != err_dev ||
	    st.st_ino != err_ino)
		return;		/* closed, or the number is the program's */
	n = snprintf(buf, sizeof buf, "==%d== pvheap: ", (int)getpid());
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof buf - n, fmt, ap);
	va_end(ap);
	n = (int)strlen(buf);
	if (n < (int)sizeof buf - 1)
		buf[n++] = '\n';
	if (write(err_fd, buf, n) < 0)
		return;
}

/* ---- start ---------------------------------------------------------- */

extern const ElfW(Ehdr) __ehdr_start __attribute__((visibility("hidden")));

/* Where our own code is, from our program headers: no loader locks. */
static void
agent_self_find(void)
{
	const ElfW(Phdr)	*ph;
	uint64_t		 base = (uint64_t)(uintptr_t)&__ehdr_start;
	int			 i;

	ph = (const ElfW(Phdr) *)((const char *)&__ehdr_start +
	    __ehdr_start.e_phoff);
	for (i = 0; i < __ehdr_start.e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD || !(ph[i].p_flags & PF_X))
			continue;
		agent_self_lo = base + ph[i].p_vaddr;
		agent_self_hi = agent_self_lo + ph[i].p_memsz;
	}
}

/* The wall clock, by the system call: libc may not be set up yet. */
uint64_t
agent_run_clock(void)
{
	struct timespec	ts;

	if (syscall(SYS_clock_gettime, CLOCK_REALTIME, &ts) != 0)
		return (0);
	return ((uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec);
}

/*
 * The first call of any hook, which may come before any constructor:
 * only what needs neither the loader nor libc's state.
 */
void
agent_init(void)
{
	const char	*s, *out;
	char		 cwd[PATH_MAX];
	size_t		 n;

	if (__atomic_exchange_n(&agent_state, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	agent_tls.busy = 1;
	agent_opt_parse(getenv("PVHEAP_OPTS"));
	if ((s = getenv("PVHEAP_STOPSIG")) != NULL && agent_opt_num(s) > 0 &&
	    agent_opt_num(s) <= (uint64_t)SIGRTMAX)
		agent_opts.stopsig = (int)agent_opt_num(s);
	if ((s = getenv("PVHEAP_SOCKET")) != NULL)
		snprintf(agent_opts.socket, sizeof agent_opts.socket, "%s", s);
	agent_main_pid = (s = getenv("PVHEAP_PID")) != NULL ?
	    (pid_t)agent_opt_num(s) : getpid();
	if ((out = getenv("PVHEAP_OUT")) != NULL && out[0] == '/')
		snprintf(out_base, sizeof out_base, "%s", out);
	else {
		if (getcwd(cwd, sizeof cwd) == NULL)
			strcpy(cwd, ".");
		n = strlen(cwd);
		snprintf(out_base, sizeof out_base, "%s/%s%s", n > 1 ? cwd :
		    "", out != NULL ? out : program_invocation_short_name,
		    out != NULL ? "" : ".heap");
	}
	agent_self_find();
	agent_started_ns = agent_run_clock();
	agent_tls.busy = 0;
	__atomic_store_n(&agent_state, 2, __ATOMIC_RELEASE);
}

/* ---- fork ------------------------------------------------------------ */

static void
agent_fork_prepare(void)
{
	agent_sites_lock();
	agent_blocks_lock();
}

static void
agent_fork_parent(void)
{
	agent_blocks_unlock();
	agent_sites_unlock();
}

/* The child keeps the parent's blocks (its heap is a copy) as its own. */
static void
agent_fork_child(void)
{
	agent_fork_parent();
	agent_mem_atfork_child();
	agent_tls.tid = 0;
	agent_tls.exiting = 0;
	agent_ctor_pid = getpid();
	agent_server_atfork_child();
	/* A child is a run of its own. */
	agent_started_ns = agent_run_clock();
	snap_atfork_child();
	agent_thread_start();
}

/* ---- constructor, destructor, exits --------------------------------- */

static void
agent_install(int sig, void (*fn)(int, siginfo_t *, void *), void (*plain)(int))
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof sa);
	if (fn != NULL) {
		sa.sa_sigaction = fn;
		sa.sa_flags = SA_SIGINFO | SA_RESTART;
	} else {
		sa.sa_handler = plain;
		sa.sa_flags = SA_RESTART;
	}
	sigfillset(&sa.sa_mask);
	agent_real_sigaction(sig, &sa, NULL);
}

__attribute__((constructor)) static void
agent_ctor(void)
{
	char	pid[24], *p = pid + sizeof pid - 1;
	pid_t	v;
	int	was;

	if (agent_state != 2)
		agent_init();
	was = agent_busy_enter();
	agent_ctor_pid = getpid();
	agent_real_usable = (size_t (*)(void *))dlsym(RTLD_NEXT,
	    "malloc_usable_size");
	agent_real_sigaction = (int (*)(int, const struct sigaction *,
	    struct sigaction *))dlsym(RTLD_NEXT, "sigaction");
	agent_real_pthread_sigmask = (int (*)(int, const sigset_t *,
	    sigset_t *))dlsym(RTLD_NEXT, "pthread_sigmask");
	agent_real_dlclose = (int (*)(void *))dlsym(RTLD_NEXT, "dlclose");
	/* Descendants name their files by pid (agent_out_name). */
	if (getenv("PVHEAP_PID") == NULL) {
		*p = '\0';
		v = agent_main_pid;
		do
			*--p = (char)('0' + v % 10);
		while ((v /= 10) != 0);
		setenv("PVHEAP_PID", p, 0);
	}
	if (!agent_opts.quiet)
		agent_err_open();
	snap_init();
	agent_install(agent_opts.stopsig, agent_stop_handler, NULL);
	if (agent_opts.signal != 0)
		agent_install(agent_opts.signal, NULL, agent_trigger_handler);
	pthread_atfork(agent_fork_prepare, agent_fork_parent, agent_fork_child);
	agent_thread_start();
	agent_busy_leave(was);
}


/*
 * Preloaded first, we are finalized late: after the program's atexit
 * handlers and static destructors, which is where memcheck looks too.
 */
__attribute__((destructor)) static void
agent_dtor(void)
{
	agent_exit_snapshot();
}
