/*
 * The sampler: where the time goes, by looking.  Subtracting a calibrated
 * probe cost from trap-measured times fails for small functions (the
 * probe costs 20 times their work and drifts with the load), so times
 * come from samples as perf's do, but charged to the exact call path the
 * shadow stack knows.
 *
 * One thread per traced process, rather than a timer signal per thread:
 * it needs no signal at all, so the program never sees an EINTR it would
 * not see untraced, and no handler runs on the program's stacks.  Every
 * 1/rate seconds it looks at each thread of the process: the path on top
 * of its shadow stack (a word rt.c publishes with relaxed stores), or
 * the leaf it is in (a leaf's probe pushes no frame), its "in the agent"
 * flag (in the thread's TLS, set by the trampolines from the first
 * instruction of a probe to its last) and its CPU clock.  The thread's
 * CPU time since the last look goes to that path (its function's self),
 * real time likewise;
 * a look that finds the thread in the agent goes to the probe instead,
 * never to the program.  Each path's counts are written by this thread
 * alone, into its own array in the shared memory.
 *
 * It calls the kernel directly, never the C library: with --lib libc the
 * C library's functions are traced, and this thread must not enter them.
 */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture/pvtrace/pvtrace.h"
#include "capture/pvtrace/agent.h"

#define SAMP_NR_CLOCK_GETTIME	228
#define SAMP_NR_CLOCK_NANOSLEEP	230
#define SAMP_NR_GETPID		39
#define SAMP_NR_SCHED_SETAFFINITY 203

static long
samp_syscall4(long n, long a, long b, long c, long d)
{
	register long	r10 __asm__("r10") = d;
	long		r;

	__asm__ __volatile__("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b),
	    "d"(c), "r"(r10) : "rcx", "r11", "memory");
	return (r);
}

/* Clock c in ns, or -1 (a thread's clock once the thread has gone). */
static int64_t
samp_clock(long c)
{
	struct timespec	ts;

	if (samp_syscall4(SAMP_NR_CLOCK_GETTIME, c, (long)&ts, 0, 0) != 0)
		return (-1);
	return ((int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec);
}

/* The kernel's clock id of thread tid's CPU clock (as glibc makes it). */
static long
samp_thread_clock(int tid)
{
	return ((long)((~(unsigned long)(unsigned)tid) << 3) | 6);
}

/*
 * Move to the CPU the thread of slot s is on (its struct rseq says,
 * read by its own TLS, safe while looking).  From there the look finds
 * it stopped, its flag and path as its last instruction left them.  A
 * look from another CPU while it runs sees its stores late, in an order
 * of their own: "in the agent" stays visible past the probe's end (the
 * store that clears it waits behind the probe's stores), and a function
 * of a few ns shows a tenth of its time.  The thread may have moved on
 * meanwhile (a busy machine balances its queues): then again, a few
 * times.  When the move fails (a cpuset without that CPU) the look is
 * from here.
 */
static void
samp_go(const struct pvt_slot *s)
{
	static int	 here = -1;
	uint64_t	 mask[16];
	int32_t		 cpu;
	int		 tries;

	if (s->rseqp == 0)
		return;
	for (tries = 0; tries < 3; tries++) {
		cpu = __atomic_load_n((const int32_t *)(s->rseqp + 4),
		    __ATOMIC_RELAXED);		/* struct rseq's cpu_id */
		if (cpu < 0 || cpu >= 1024 || cpu == here)
			return;
		memset(mask, 0, sizeof mask);
		mask[cpu / 64] = 1ULL << (cpu % 64);
		if (samp_syscall4(SAMP_NR_SCHED_SETAFFINITY, 0, sizeof mask,
		    (long)mask, 0) != 0)
			return;
		here = cpu;
	}
}

/* The slot's array, grown (by this thread, its only writer) to node. */
static struct pvt_samp *
samp_row(struct pvt_slot *s, uint32_t node)
{
	struct pvt_samp	*a;
	uint64_t	 off;
	uint32_t	 cap;

	if (node >= s->scap) {
		cap = s->scap != 0 ? s->scap : 256;
		while (cap <= node)
			cap *= 2;
		if ((off = pvt_shm_alloc((uint64_t)cap * sizeof *a)) == 0)
			return (NULL);
		if (s->scap != 0)
			memcpy(pvt_g.base + off, pvt_g.base + s->samp,
			    s->scap * sizeof *a);
		__atomic_store_n(&s->samp, off, __ATOMIC_RELEASE);
		__atomic_store_n(&s->scap, cap, __ATOMIC_RELEASE);
	}
	return ((struct pvt_samp *)(pvt_g.base + s->samp) + node);
}

static void
samp_add(uint64_t *v, int64_t cpu, int64_t real, int atomic)
{
	uint64_t	add[PVT_SA_COUNT] = { cpu > 0, (uint64_t)cpu, 1,
			    (uint64_t)real };
	int		i;

	for (i = 0; i < PVT_SA_COUNT; i++) {
		if (atomic)
			__atomic_fetch_add(&v[i], add[i], __ATOMIC_RELAXED);
		else
			v[i] += add[i];
	}
}

/* One look at the thread of slot s; dt is the real time since the last. */
static void
samp_look(struct pvt_slot *s, int64_t dt)
{
	struct pvt_samp	*row;
	int64_t		 now, cpu;
	uint64_t	 flagp, leaf;
	uint32_t	 node, in;
	int		 tid = s->tid;

	/* Paired with agent_thread_end(): its TLS is there while we look. */
	__atomic_store_n(&s->looking, 1, __ATOMIC_SEQ_CST);
	flagp = __atomic_load_n(&s->flagp, __ATOMIC_SEQ_CST);
	if (flagp != 0)
		samp_go(s);
	in = flagp != 0 ? (uint32_t)__atomic_load_n((int32_t *)flagp,
	    __ATOMIC_RELAXED) : 1;
	leaf = flagp != 0 ? __atomic_load_n((uint64_t *)(flagp +
	    PVT_THREAD_LEAF - PVT_THREAD_INAGENT), __ATOMIC_RELAXED) : 0;
	__atomic_store_n(&s->looking, 0, __ATOMIC_RELEASE);
	/* A leaf runs above the path on top (it has no frame). */
	node = (uint32_t)leaf != 0 ? (uint32_t)leaf :
	    __atomic_load_n(&s->cur, __ATOMIC_RELAXED);
	if ((now = samp_clock(samp_thread_clock(tid))) < 0)
		return;		/* it has just ended */
	if (s->samp_tid != tid) {
		/* A new thread in the slot: from its next look on. */
		s->samp_tid = tid;
		s->samp_cpu = (uint64_t)now;
		return;
	}
	cpu = now - (int64_t)s->samp_cpu;
	s->samp_cpu = (uint64_t)now;
	if (cpu < 0)
		cpu = 0;
	if (in) {
		samp_add(pvt_g.shm->probe, cpu, dt, 1);
		return;
	}
	if (node >= __atomic_load_n(&s->nnode, __ATOMIC_ACQUIRE))
		node = PVT_ROOT;
	if ((row = samp_row(s, node)) != NULL)
		samp_add(row->v, cpu, dt, 0);
	else
		pvt_stat(PVT_ST_SAMPLOST, 1);	/* said, not hidden */
}

static void *
samp_main(void *arg)
{
	struct timespec	 next;
	struct pvt_slot	*s;
	int64_t		 period, last, now, t;
	uint64_t	 off;
	int		 pid;

	(void)arg;
	pvt_t.busy = 1;		/* never traced, whatever it calls */
	pid = (int)samp_syscall4(SAMP_NR_GETPID, 0, 0, 0, 0);
	period = 1000000000 / pvt_g.shm->samp_hz;
	if (period < 10000)
		period = 10000;
	last = t = samp_clock(CLOCK_MONOTONIC);
	for (;;) {
		t += period;
		next.tv_sec = t / 1000000000;
		next.tv_nsec = t % 1000000000;
		/* EINTR cannot happen: every signal is blocked here. */
		samp_syscall4(SAMP_NR_CLOCK_NANOSLEEP, CLOCK_MONOTONIC,
		    TIMER_ABSTIME, (long)&next, 0);
		now = samp_clock(CLOCK_MONOTONIC);
		if (now - t > period)
			t = now;	/* late (a loaded machine): no burst */
		if (!pvt_g.on)
			continue;
		for (off = __atomic_load_n(&pvt_g.shm->slot_first,
		    __ATOMIC_ACQUIRE); off != 0; off = s->next) {
			s = (struct pvt_slot *)(pvt_g.base + off);
			if (s->state == PVT_SLOT_OWNED && s->pid == pid &&
			    s->image == pvt_g.image)
				samp_look(s, now - last);
		}
		last = now;
	}
	return (NULL);
}

/*
 * Start the sampler of this process (at the start and in a forked child,
 * which has no other thread).  It blocks every signal, so that none meant
 * for the program is delivered to it.
 */
void
agent_samp_start(void)
{
	pthread_t	 th;
	pthread_attr_t	 attr;
	sigset_t	 all, old;

	if (pvt_g.shm->samp_hz == 0)
		return;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	if (pthread_create(&th, &attr, samp_main, NULL) != 0)
		agent_error("cannot start the sampler thread: times from"
		    " samples are missing");
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}
