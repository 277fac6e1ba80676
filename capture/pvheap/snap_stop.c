/*
 * Stopping the world for a snapshot, and the threads' registers.
 *
 * Stopping is a signal to each thread (tgkill) and a handshake on two
 * futexes, as Boehm GC does: the handler saves the thread's registers
 * from its signal frame and waits until the snapshot is over.  A thread
 * inside an allocator hook parks when it leaves it (agent.c), so the
 * tables are whole when they are read.  While the world is stopped the
 * snapshot calls no malloc and takes no lock a stopped thread may hold:
 * raw system calls and the agent's own mmap'd memory only.
 */
#include <fcntl.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "capture/pvheap/agent.h"
#include "capture/pvheap/heapfmt.h"
#include "capture/pvheap/snap.h"

#define PARK_MAX	4096
#define STOP_WAIT_NS	(2 * 1000000000ull)

/* The registers a stopped thread left, from its signal frame. */
struct parked {
	pid_t		 tid;
	uint64_t	 gregs[NGREG];
};

static struct {
	uint32_t	 stopping;
	uint32_t	 gen;
	uint32_t	 resumed;
	uint32_t	 nparked;
	uint32_t	 nslot;
} world;
static struct parked	parked[PARK_MAX];

static long
snap_futex(uint32_t *addr, int op, uint32_t val, const struct timespec *ts)
{
	return (syscall(SYS_futex, addr, op, val, ts, NULL, 0));
}

uint64_t
snap_now_ns(clockid_t clk)
{
	struct timespec	ts;

	clock_gettime(clk, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec);
}


void
snap_world_reset(void)
{
	memset(&world, 0, sizeof world);
}

/* In the stop signal's handler (agent.c): park until resumed. */
void
snap_stop_handler(int sig, void *uc)
{
	ucontext_t	*u = uc;
	uint32_t	 g, r, i;

	(void)sig;
	if (!__atomic_load_n(&world.stopping, __ATOMIC_ACQUIRE))
		return;
	g = __atomic_load_n(&world.gen, __ATOMIC_ACQUIRE);
	if (__atomic_load_n(&world.resumed, __ATOMIC_ACQUIRE) == g)
		return;
	i = __atomic_fetch_add(&world.nslot, 1, __ATOMIC_ACQ_REL);
	if (i < PARK_MAX) {
		parked[i].tid = agent_gettid();
		memcpy(parked[i].gregs, u->uc_mcontext.gregs,
		    sizeof parked[i].gregs);
	}
	__atomic_add_fetch(&world.nparked, 1, __ATOMIC_RELEASE);
	snap_futex(&world.nparked, FUTEX_WAKE, 1, NULL);
	while ((r = __atomic_load_n(&world.resumed, __ATOMIC_ACQUIRE)) != g)
		snap_futex(&world.resumed, FUTEX_WAIT, r, NULL);
}

static size_t
snap_tasks(struct abuf *b)
{
	char		 buf[4096];
	const char	*p;
	long		 n, off;
	int		 fd;
	pid_t		*t;
	struct {
		uint64_t	ino;
		int64_t		off;
		unsigned short	reclen;
		unsigned char	type;
		char		name[];
	}		*d;

	b->len = 0;
	if ((fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) == -1)
		return (0);
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
		for (off = 0; off < n; off += d->reclen) {
			d = (void *)(buf + off);
			if (d->name[0] < '0' || d->name[0] > '9')
				continue;
			p = d->name;
			if ((t = abuf_grow(b, sizeof *t)) != NULL)
				*t = (pid_t)snap_num(&p, 10);
		}
	}
	close(fd);
	return (b->len / sizeof (pid_t));
}

static int
snap_has_tid(const pid_t *v, size_t n, pid_t t)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (v[i] == t)
			return (1);
	}
	return (0);
}

/*
 * Signal every thread but this one and the agent's until all of them
 * that still exist are parked (threads started meanwhile are signalled
 * in the next round), or two seconds pass: a thread that never parks is
 * left running and counted.
 */
void
snap_stop_world(struct snap *s)
{
	struct timespec	 ts = { 0, 5000000 };
	struct abuf	 now = { NULL, 0, 0 };
	pid_t		*sig, *cur;
	size_t		 nsig, ncur, i, expect;
	uint64_t	 deadline = snap_now_ns(CLOCK_MONOTONIC) + STOP_WAIT_NS;
	uint32_t	 parked_now;
	pid_t		 pid = getpid();

	__atomic_store_n(&world.nparked, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&world.nslot, 0, __ATOMIC_RELEASE);
	__atomic_add_fetch(&world.gen, 1, __ATOMIC_ACQ_REL);
	__atomic_store_n(&world.stopping, 1, __ATOMIC_RELEASE);
	s->tids.len = 0;
	for (;;) {
		ncur = snap_tasks(&now);
		cur = (pid_t *)now.p;
		for (i = 0; i < ncur; i++) {
			sig = (pid_t *)s->tids.p;
			nsig = s->tids.len / sizeof (pid_t);
			if (cur[i] == s->self || cur[i] == s->agent ||
			    snap_has_tid(sig, nsig, cur[i]))
				continue;
			if (syscall(SYS_tgkill, pid, cur[i],
			    agent_opts.stopsig) == 0 &&
			    (sig = abuf_grow(&s->tids, sizeof *sig)) != NULL)
				*sig = cur[i];
		}
		sig = (pid_t *)s->tids.p;
		nsig = s->tids.len / sizeof (pid_t);
		for (i = expect = 0; i < nsig; i++)
			expect += snap_has_tid(cur, ncur, sig[i]);
		parked_now = __atomic_load_n(&world.nparked, __ATOMIC_ACQUIRE);
		if (parked_now >= expect)
			break;
		if (snap_now_ns(CLOCK_MONOTONIC) > deadline) {
			s->unstopped = (uint32_t)(expect - parked_now);
			break;
		}
		snap_futex(&world.nparked, FUTEX_WAIT, parked_now, &ts);
	}
	abuf_free(&now);
}

void
snap_resume_world(void)
{
	uint32_t	g = __atomic_load_n(&world.gen, __ATOMIC_ACQUIRE);

	__atomic_store_n(&world.stopping, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&world.resumed, g, __ATOMIC_RELEASE);
	snap_futex(&world.resumed, FUTEX_WAKE, INT32_MAX, NULL);
}

/* How many threads parked (their registers are in the first slots). */
uint32_t
snap_nparked(void)
{
	uint32_t	np = __atomic_load_n(&world.nslot, __ATOMIC_ACQUIRE);

	return (np < PARK_MAX ? np : PARK_MAX);
}

const uint64_t *
snap_parked_regs(uint32_t i)
{
	return (parked[i].gregs);
}

/* The threads: stopped ones with registers, the snapshotter, the rest. */
void
snap_threads(struct snap *s)
{
	struct abuf	 all = { NULL, 0, 0 };
	pid_t		*t;
	size_t		 i, k, n;
	uint32_t	 np;
	uint8_t		*r;
	pid_t		 pid = getpid();

	np = __atomic_load_n(&world.nslot, __ATOMIC_ACQUIRE);
	np = np < PARK_MAX ? np : PARK_MAX;
	for (i = 0; i < np; i++) {
		if ((r = snap_grow(&s->threads, HEAPFMT_THRS_SIZE)) == NULL)
			break;
		snap_put32(r, (uint32_t)parked[i].tid);
		snap_put32(r + 4, HEAPFMT_THR_STOPPED | (parked[i].tid == pid ?
		    HEAPFMT_THR_MAIN : 0));
		snap_put64(r + 8, parked[i].gregs[REG_RSP]);
		snap_put64(r + 40, parked[i].gregs[REG_RIP]);
		snap_put32(r + 36, HEAPFMT_NONE);
	}
	if (s->self_program && (r = snap_grow(&s->threads,
	    HEAPFMT_THRS_SIZE)) != NULL) {
		snap_put32(r, (uint32_t)s->self);
		snap_put32(r + 4, HEAPFMT_THR_SNAPPER | (s->self == pid ?
		    HEAPFMT_THR_MAIN : 0));
		snap_put64(r + 8, (uint64_t)s->uc.uc_mcontext.gregs[REG_RSP]);
		snap_put64(r + 40, (uint64_t)s->uc.uc_mcontext.gregs[REG_RIP]);
		snap_put32(r + 36, HEAPFMT_NONE);
	}
	n = snap_tasks(&all);
	t = (pid_t *)all.p;
	for (i = 0; i < n; i++) {
		if (t[i] == s->agent || t[i] == s->self)
			continue;
		for (k = 0; k < np && parked[k].tid != t[i]; k++)
			;
		if (k < np || (r = snap_grow(&s->threads,
		    HEAPFMT_THRS_SIZE)) == NULL)
			continue;
		snap_put32(r, (uint32_t)t[i]);
		snap_put32(r + 4, t[i] == pid ? HEAPFMT_THR_MAIN : 0);
		snap_put32(r + 36, HEAPFMT_NONE);
	}
	abuf_free(&all);
	/* Stack bounds: the mapping each stack pointer is in. */
	n = s->threads.len / HEAPFMT_THRS_SIZE;
	for (i = 0; i < n; i++) {
		const struct snap_map	*m;

		r = s->threads.p + i * HEAPFMT_THRS_SIZE;
		if (snap_get64(r + 8) != 0 && (m = snap_map_find(s->maps,
		    s->nmaps, snap_get64(r + 8))) != NULL) {
			snap_put64(r + 16, m->lo);
			snap_put64(r + 24, m->hi);
		}
	}
}

/*
 * The exiting thread's registers and stack pointer as memcheck finds
 * them at _exit: those of the first frame that is neither the agent's
 * nor the dynamic linker's (which runs the destructors), so neither the
 * snapshot's frames nor the dead frames below the exit path count.
 * Callee-saved registers are unwound; the others are unknown (0).
 */
void
snap_exit_context(struct snap *s)
{
	unw_context_t	 uc;
	unw_cursor_t	 c;
	unw_word_t	 ip, v;
	uint64_t	 self_lo, self_hi, ld_lo = 0, ld_hi = 0, base;
	size_t		 i;
	int		 k;
	static const struct { int unw, greg; } regs[] = {
		{ UNW_X86_64_RBX, REG_RBX }, { UNW_X86_64_RBP, REG_RBP },
		{ UNW_X86_64_R12, REG_R12 }, { UNW_X86_64_R13, REG_R13 },
		{ UNW_X86_64_R14, REG_R14 }, { UNW_X86_64_R15, REG_R15 },
		{ UNW_X86_64_RSP, REG_RSP }, { UNW_X86_64_RIP, REG_RIP },
	};

	agent_self_range(&self_lo, &self_hi);
	base = getauxval(AT_BASE);
	for (i = 0; i < s->nmods; i++) {
		if (base != 0 && s->mods[i].base == base) {
			ld_lo = s->mods[i].lo;
			ld_hi = s->mods[i].hi;
		}
		/* Our own data and code, wherever the loader put them. */
		if (s->mods[i].flags & HEAPFMT_MOD_AGENT) {
			self_lo = s->mods[i].lo;
			self_hi = s->mods[i].hi;
		}
	}
	if (unw_getcontext(&uc) != 0 || unw_init_local(&c, &uc) != 0)
		return;
	for (k = 0; k < 64; k++) {
		if (unw_get_reg(&c, UNW_REG_IP, &ip) != 0)
			return;
		if (!((ip >= self_lo && ip < self_hi) || (ip >= ld_lo &&
		    ip < ld_hi)))
			break;
		if (unw_step(&c) <= 0)
			return;
	}
	memset(s->uc.uc_mcontext.gregs, 0, sizeof s->uc.uc_mcontext.gregs);
	for (i = 0; i < sizeof regs / sizeof regs[0]; i++) {
		if (unw_get_reg(&c, regs[i].unw, &v) == 0)
			s->uc.uc_mcontext.gregs[regs[i].greg] = (greg_t)v;
	}
}
