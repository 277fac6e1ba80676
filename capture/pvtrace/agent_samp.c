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
 * 1/rate seconds it looks at each thread of the process (from another
 * CPU while the thread holds still, else from the thread's: samp_read):
 * the path on top of its shadow stack (a word rt.c publishes with
 * relaxed stores), or the leaf it is in (a leaf's probe pushes no
 * frame), its "in the agent" flag (in the thread's TLS, set by the
 * trampolines from the first instruction of a probe to its last) and
 * its CPU clock.  The thread's
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
#include <stddef.h>
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
#define SAMP_NR_SCHED_GETAFFINITY 204

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
 * Where a look is taken from.  A look from another CPU while the thread
 * runs costs its CPU nothing, but sees its stores late and in an order
 * of their own: "in the agent" stays visible past the probe's end (the
 * store that clears it waits behind the probe's stores), and a function
 * of a few ns showed a tenth of its time.  A look from the thread's own
 * CPU finds it stopped, its flag and path as its last instruction left
 * them, but stopping it costs that CPU an interrupt and two switches
 * (some 50 us on a virtual machine: 5 % of it at 1000 looks a second).
 * So a look is first taken from another CPU twice, SAMP_STILL_NS apart
 * (longer than any store waits to be seen), and kept when the thread
 * held still between (the same flag, leaf, path and count of entries):
 * what was seen first was then what ran.  Otherwise the sampler moves
 * to the thread's CPU, and stays there while the thread keeps calling
 * faster than SAMP_CALM_NS a call, so that the next look is from there
 * at once.  (A call and its return are two changes: at that rate a
 * look from elsewhere finds the thread still about four times in five,
 * and the fifth's move costs less than a stop at every look.)
 */
#define SAMP_STILL_NS	2000
#define SAMP_CALM_NS	20000

static uint64_t	samp_allowed[16];	/* the CPUs the sampler may use */
static int	samp_here = -1;		/* the one it is held to, or -1 */
static uint64_t	samp_rseq;		/* its own struct rseq, or 0 */
static int64_t	samp_period;		/* ns between looks */

/* What a look reads of a thread. */
struct samp_view {
	uint32_t	in;
	uint32_t	node;
	uint64_t	leaf;
};

/* The thread whose "in the agent" flag is at flagp. */
static const struct pvt_thread *
samp_thread(uint64_t flagp)
{
	return ((const struct pvt_thread *)(flagp -
	    offsetof(struct pvt_thread, inagent)));
}

static void
samp_view(const struct pvt_slot *s, uint64_t flagp, struct samp_view *v)
{
	const struct pvt_thread	*t = samp_thread(flagp);

	v->in = (uint32_t)__atomic_load_n(&t->inagent, __ATOMIC_ACQUIRE);
	v->leaf = __atomic_load_n(&t->leaf, __ATOMIC_ACQUIRE);
	v->node = __atomic_load_n(&s->cur, __ATOMIC_ACQUIRE);
}

static uint32_t
samp_entries(uint64_t flagp)
{
	return (__atomic_load_n(&samp_thread(flagp)->entries,
	    __ATOMIC_ACQUIRE));
}

/* The CPU a thread is on, as its struct rseq at r says; or -1. */
static int
samp_cpu_of(uint64_t r)
{
	int32_t	cpu;

	if (r == 0)
		return (-1);
	cpu = __atomic_load_n((const int32_t *)(r + 4),
	    __ATOMIC_RELAXED);		/* struct rseq's cpu_id */
	return (cpu >= 0 && cpu < 1024 ? cpu : -1);
}

static int
samp_its_cpu(const struct pvt_slot *s)
{
	return (samp_cpu_of(s->rseqp));
}

static int
samp_affinity(const uint64_t *mask)
{
	return (samp_syscall4(SAMP_NR_SCHED_SETAFFINITY, 0,
	    sizeof samp_allowed, (long)mask, 0) == 0 ? 0 : -1);
}

/*
 * Move to the thread's CPU; 1 when there.  It may have moved on
 * meanwhile (a busy machine balances its queues): then again, a few
 * times.  A move that fails (a cpuset without that CPU) leaves the look
 * to be taken from here.
 */
static int
samp_go(const struct pvt_slot *s)
{
	uint64_t	 mask[16];
	int		 cpu, tries;

	for (tries = 0; tries < 3; tries++) {
		if ((cpu = samp_its_cpu(s)) < 0)
			return (0);
		if (cpu == samp_here)
			return (1);
		memset(mask, 0, sizeof mask);
		mask[cpu / 64] = 1ULL << (cpu % 64);
		if (samp_affinity(mask) != 0)
			return (0);
		samp_here = cpu;
	}
	return (samp_its_cpu(s) == samp_here);
}

/*
 * Let go of the CPU the sampler was held to.  Not by a move elsewhere:
 * a running thread moved to a busy CPU waits there for its next tick (4
 * ms at 250 Hz), and a look after such a wait charges the thread's time
 * meanwhile to what it then finds, which was another function's often
 * enough to move two points between the truth test's parts.  Allowed
 * every CPU, it stays until its next wake-up, which the scheduler sends
 * to an idle CPU if there is one, at once.
 */
static void
samp_leave(void)
{
	if (samp_here >= 0 && samp_affinity(samp_allowed) == 0)
		samp_here = -1;
}

/* Spin until SAMP_STILL_NS after t0 (pvt_now()'s units). */
static void
samp_wait(uint64_t t0)
{
	uint64_t	d = (SAMP_STILL_NS * pvt_g.shm->tsc_per_ns_q32) >> 32;

	while (pvt_now() - t0 < d)
		__asm__ __volatile__("pause");
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

/*
 * Read what the thread of slot s runs into *v, its CPU clock into *now,
 * and whether from another CPU into *far.  1 when read from the thread's
 * CPU, the thread calling too often for a look from elsewhere to find it
 * still: the sampler stays on that CPU.
 */
static int
samp_read(struct pvt_slot *s, struct samp_view *v, int64_t *now, int *far)
{
	struct samp_view	 b;
	uint64_t		 flagp, t0;
	int64_t			 ran;
	uint32_t		 e0, e1;
	int			 tid = s->tid, here = 0, cpu;

	*far = 0;
	/* Paired with agent_thread_end(): its TLS is there while we look. */
	__atomic_store_n(&s->looking, 1, __ATOMIC_SEQ_CST);
	if ((flagp = __atomic_load_n(&s->flagp, __ATOMIC_SEQ_CST)) == 0) {
		__atomic_store_n(&s->looking, 0, __ATOMIC_RELEASE);
		/* It is ending, in the agent. */
		v->in = 1;
		v->leaf = 0;
		v->node = PVT_ROOT;
		*now = samp_clock(samp_thread_clock(tid));
		return (0);
	}
	if ((cpu = samp_its_cpu(s)) >= 0 && cpu == samp_cpu_of(samp_rseq)) {
		/* The sampler runs on its CPU: it is stopped, as it left. */
		here = cpu == samp_here;
		e1 = samp_entries(flagp);
		samp_view(s, flagp, v);
		*now = samp_clock(samp_thread_clock(tid));
	} else {
		t0 = pvt_now();
		e0 = samp_entries(flagp);
		samp_view(s, flagp, v);
		*now = samp_clock(samp_thread_clock(tid));
		samp_wait(t0);
		samp_view(s, flagp, &b);
		e1 = samp_entries(flagp);
		if (e0 == e1 && v->in == b.in && v->leaf == b.leaf &&
		    v->node == b.node)
			*far = 1;
		else if ((here = samp_go(s)) != 0) {
			e1 = samp_entries(flagp);
			samp_view(s, flagp, v);
			*now = samp_clock(samp_thread_clock(tid));
		}
	}
	__atomic_store_n(&s->looking, 0, __ATOMIC_RELEASE);
	/*
	 * Calm: fewer calls than one per SAMP_CALM_NS of the thread's CPU
	 * time, judged over half a period of it at least (not on a look
	 * that follows the last at once, a late round's).
	 */
	ran = *now - (int64_t)s->samp_cpu;
	if (here && ran * 2 >= samp_period &&
	    (int64_t)(e1 - s->samp_entries) * SAMP_CALM_NS <= ran)
		here = 0;
	s->samp_entries = e1;
	return (here);
}

/*
 * One look at the thread of slot s; dt is the real time since the last.
 * 1 as samp_read().
 */
static int
samp_look(struct pvt_slot *s, int64_t dt)
{
	struct pvt_samp		*row;
	struct samp_view	 v;
	int64_t			 now, cpu;
	uint32_t		 node;
	int			 tid = s->tid, stay, far;

	stay = samp_read(s, &v, &now, &far);
	if (now < 0)
		return (stay);		/* it has just ended */
	/* A leaf runs above the path on top (it has no frame). */
	node = (uint32_t)v.leaf != 0 ? (uint32_t)v.leaf : v.node;
	if (s->samp_tid != tid) {
		/* A new thread in the slot: from its next look on. */
		s->samp_tid = tid;
		s->samp_cpu = (uint64_t)now;
		return (stay);
	}
	cpu = now - (int64_t)s->samp_cpu;
	s->samp_cpu = (uint64_t)now;
	if (cpu < 0)
		cpu = 0;
	if (far)
		pvt_stat(PVT_ST_REMOTE, 1);
	if (v.in) {
		samp_add(pvt_g.shm->probe, cpu, dt, 1);
		return (stay);
	}
	if (node >= __atomic_load_n(&s->nnode, __ATOMIC_ACQUIRE))
		node = PVT_ROOT;
	if ((row = samp_row(s, node)) != NULL)
		samp_add(row->v, cpu, dt, 0);
	else
		pvt_stat(PVT_ST_SAMPLOST, 1);	/* said, not hidden */
	return (stay);
}

static void *
samp_main(void *arg)
{
	struct timespec	 next;
	struct pvt_slot	*s;
	int64_t		 period, last, now, t;
	uint64_t	 off;
	int		 pid, stay;

	(void)arg;
	pvt_t.busy = 1;		/* never traced, whatever it calls */
	pid = (int)samp_syscall4(SAMP_NR_GETPID, 0, 0, 0, 0);
	/* A forked child's copy of these is its parent sampler's. */
	samp_here = -1;
	samp_rseq = agent_rseq();
	if (samp_syscall4(SAMP_NR_SCHED_GETAFFINITY, 0, sizeof samp_allowed,
	    (long)samp_allowed, 0) <= 0)
		memset(samp_allowed, 0xff, sizeof samp_allowed);
	period = 1000000000 / pvt_g.shm->samp_hz;
	if (period < 10000)
		period = 10000;
	samp_period = period;
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
		stay = 0;
		for (off = __atomic_load_n(&pvt_g.shm->slot_first,
		    __ATOMIC_ACQUIRE); off != 0; off = s->next) {
			s = (struct pvt_slot *)(pvt_g.base + off);
			if (s->state == PVT_SLOT_OWNED && s->pid == pid &&
			    s->image == pvt_g.image)
				stay |= samp_look(s, now - last);
		}
		if (!stay)
			samp_leave();
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
