/*
 * libpvtrace.so, p2's half inside the program: preloaded by the runner,
 * it maps the shared memory named by PVTRACE_SHM, checks that this
 * process runs the program planned (a child may exec anything), measures
 * its own overhead, builds a trampoline per planned function near the
 * module, and patches the text in memory (the file is never written).
 *
 * This file keeps the state the agent's files share (agent.h), the
 * threads' slots in the shared memory and the start; agent_patch.c
 * patches, agent_cal.c measures, agent_libc.c stands in for the C
 * library.
 */
#include <sys/mman.h>
#include <sys/rseq.h>
#include <sys/syscall.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/pvtrace/pvtrace.h"
#include "capture/pvtrace/agent.h"

uint32_t pvt_xsave_size;
void	(*pvt_cal_leafp)(void);

struct agent_state agent_g;

/* The first error of the run, for the .mon's header. */
void __attribute__((format(printf, 1, 2)))
agent_error(const char *fmt, ...)
{
	struct pvt_shm	*shm = pvt_g.shm;
	va_list		 ap;
	char		 buf[sizeof pvt_g.shm->error];
	int		 expect = 0;
	static int	 said;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (!said) {
		said = 1;
		fprintf(stderr, "pvtrace: %s\n", buf);
	}
	if (shm == NULL)
		return;
	if (__atomic_compare_exchange_n(&shm->error_set, &expect, 1, 0,
	    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		snprintf(shm->error, sizeof shm->error, "%s", buf);
}

/*
 * The slot list's lock, shared by every traced process: it holds the
 * holder's pid, so that a process killed while holding it (SIGKILL in a
 * fork child's first call, say) does not stop the others for good.
 */
static void
agent_lock(void)
{
	int32_t	 me = (int32_t)getpid(), held;
	unsigned spins = 0;

	for (;;) {
		held = 0;
		if (__atomic_compare_exchange_n(&pvt_g.shm->slot_lock, &held,
		    me, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return;
		if (++spins % 1024 == 0 && held != me && kill(held, 0) != 0 &&
		    errno == ESRCH &&
		    __atomic_compare_exchange_n(&pvt_g.shm->slot_lock, &held,
		    me, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return;
		sched_yield();
	}
}

static void
agent_unlock(void)
{
	__atomic_store_n(&pvt_g.shm->slot_lock, 0, __ATOMIC_RELEASE);
}

/*
 * The calling thread's struct rseq, which the C library registers and
 * the kernel keeps its CPU number in: the sampler reads a thread's and
 * its own to know whether it looks from the thread's CPU (agent_samp.c).
 * 0 when there is none.
 */
uint64_t
agent_rseq(void)
{
	char	*tp;

	if (__rseq_size == 0)
		return (0);
	__asm__("movq %%fs:0, %0" : "=r"(tp));
	return ((uint64_t)(tp + __rseq_offset));
}

/* A fresh slot with its arrays, or a free one; NULL if memory is full. */
static struct pvt_slot *
agent_slot(int state)
{
	struct pvt_shm	*shm = pvt_g.shm;
	struct pvt_slot	*s = NULL;
	uint64_t	 off, fr, nodes, hash;

	agent_lock();
	if (state == PVT_SLOT_OWNED && shm->slot_free != 0) {
		off = shm->slot_free;
		s = (struct pvt_slot *)(pvt_g.base + off);
		shm->slot_free = s->next_free;
		s->next_free = 0;
	} else if ((off = pvt_shm_alloc(sizeof *s)) != 0 &&
	    (fr = pvt_shm_alloc(256 * sizeof(struct pvt_frame))) != 0 &&
	    (nodes = pvt_shm_alloc(1024 * sizeof(struct pvt_node))) != 0 &&
	    (hash = pvt_shm_alloc(2048 * sizeof(uint32_t))) != 0) {
		s = (struct pvt_slot *)(pvt_g.base + off);
		memset(s, 0, sizeof *s);
		s->frames = fr;
		s->fcap = 256;
		s->nodes = nodes;
		s->ncap = 1024;
		s->nnode = 1;		/* node 0: the root */
		((struct pvt_node *)(pvt_g.base + nodes))->func = PVT_NOFUNC;
		s->hash = hash;
		s->hmask = 2047;
		s->next = shm->slot_first;
		__atomic_store_n(&shm->slot_first, off, __ATOMIC_RELEASE);
	}
	if (s != NULL) {
		s->state = state;
		s->pid = getpid();
		s->tid = gettid();
		s->looking = 0;
		s->image = pvt_g.image;
		s->rseqp = agent_rseq();
		__atomic_store_n(&s->flagp, (uint64_t)&pvt_t.inagent,
		    __ATOMIC_SEQ_CST);
		s->end_tsc = 0;
		s->depth = 0;
	}
	agent_unlock();
	return (s);
}

static void
agent_slot_release(struct pvt_slot *s)
{
	agent_lock();
	s->state = PVT_SLOT_FREE;
	s->next_free = pvt_g.shm->slot_free;
	pvt_g.shm->slot_free = (uint64_t)((char *)s - pvt_g.base);
	agent_unlock();
}

/* Open the thread's CPU-clock page: a perf task-clock event, fd closed. */
static void
agent_perf(struct pvt_thread *t)
{
	struct perf_event_attr	 a;
	void			*pg;
	int			 fd, err, expect = 0;

	if (t->pg != NULL)
		return;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1,
	    PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		err = errno;
		goto fail;
	}
	pg = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED,
	    fd, 0);
	err = errno;
	close(fd);
	if (pg == MAP_FAILED)
		goto fail;
	t->pg = pg;
	t->seqp = &((struct perf_event_mmap_page *)pg)->lock;
	t->seq = *t->seqp + 1;		/* resync at the first read */
	return;
fail:
	if (err == 0)
		err = EINVAL;
	__atomic_compare_exchange_n(&pvt_g.shm->cpu_errno, &expect, err, 0,
	    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/* First event of a thread (through pvt_xcall): take a slot. */
static long
agent_attach(void *arg)
{
	struct pvt_thread	*t = arg;
	struct pvt_slot		*s;
	pthread_attr_t		 attr;
	void			*lo;
	size_t			 size;

	if ((s = agent_slot(agent_g.cal ? PVT_SLOT_CAL : PVT_SLOT_OWNED)) ==
	    NULL) {
		pvt_stat(PVT_ST_NOMEM, 1);
		return (-1);
	}
	t->fr = (struct pvt_frame *)(pvt_g.base + s->frames);
	t->nodes = (struct pvt_node *)(pvt_g.base + s->nodes);
	t->hash = (uint32_t *)(pvt_g.base + s->hash);
	agent_perf(t);
	if (t->stk_hi == 0 &&
	    pthread_getattr_np(pthread_self(), &attr) == 0) {
		if (pthread_attr_getstack(&attr, &lo, &size) == 0) {
			t->stk_lo = (uint64_t)lo;
			t->stk_hi = (uint64_t)lo + size;
		}
		pthread_attr_destroy(&attr);
	}
	if (!agent_g.cal) {
		pthread_setspecific(agent_g.key, t);
		pvt_stat(PVT_ST_THREADS, 1);
	}
	__atomic_store_n(&t->slot, s, __ATOMIC_RELEASE);
	return (0);
}

/* A thread's end (its key's destructor): close and give the slot back. */
static void
agent_thread_end(void *arg)
{
	struct pvt_thread	*t = &pvt_t;
	struct pvt_slot		*s = t->slot;

	(void)arg;
	if (s == NULL)
		return;
	pvt_detach_all(0, PVT_ST_EXITCLOSED);
	t->busy = 1;
	t->slot = NULL;
	/* The sampler must be done with this TLS before it goes. */
	__atomic_store_n(&s->flagp, 0, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&s->looking, __ATOMIC_SEQ_CST))
		sched_yield();
	agent_slot_release(s);
	if (t->pg != NULL)
		munmap(t->pg, (size_t)sysconf(_SC_PAGESIZE));
	t->pg = NULL;
	t->seqp = NULL;
	t->busy = 0;
}

/*
 * The forking thread's open frames as they were at the fork, in memory
 * of the process's own, which the child inherits as it was.  The slot's
 * are shared: a parent that returns from fork (a frame itself when fork
 * is called through the PLT) and calls again before the child looks
 * would hand the child frames of calls it never made.
 */
static struct pvt_frame	*agent_fork_fr;
static size_t		 agent_fork_cap;
static uint32_t		 agent_fork_depth;
static int		 agent_fork_set;

void
agent_prefork(void)
{
	struct pvt_thread	*t = &pvt_t;
	struct pvt_frame	*v;
	uint32_t		 d;

	agent_fork_set = 0;
	if (!pvt_g.on || t->slot == NULL)
		return;
	d = t->slot->depth;
	if (d > agent_fork_cap) {
		if ((v = realloc(agent_fork_fr, d * sizeof *v)) == NULL)
			return;
		agent_fork_fr = v;
		agent_fork_cap = d;
	}
	if (d > 0)
		memcpy(agent_fork_fr, t->fr, d * sizeof *t->fr);
	agent_fork_depth = d;
	agent_fork_set = 1;
}

/*
 * A live leaf's mark, its path rebuilt in the child's slot (a fork in a
 * signal handler that interrupted it).  With no node it stays live but
 * its looks go to the path below: its landing is still to come.
 */
static uint64_t
agent_child_leaf(struct pvt_thread *t, uint32_t parent,
    const struct pvt_node *onodes, uint64_t leaf)
{
	uint32_t	node = 0;

	if ((uint32_t)leaf != PVT_ROOT)
		node = pvt_path_node(t, parent, onodes[(uint32_t)leaf].func);
	return (PVT_LEAF_LIVE | node);
}

/*
 * In a forked child: the thread's slot is the parent's, so take a new
 * one and rebuild the open frames' paths in it (their calls were counted
 * in the parent; their time from now on is the child's).  The perf page
 * was not inherited.
 */
void
agent_child(void)
{
	struct pvt_thread	*t = &pvt_t;
	struct pvt_slot		*old = t->slot, *s;
	struct pvt_frame	*ofr = t->fr;
	struct pvt_node		*onodes = t->nodes;
	uint32_t		 i, d, parent = PVT_ROOT, node;

	if (!pvt_g.on)
		return;
	t->pg = NULL;
	t->seqp = NULL;
	pvt_stat(PVT_ST_PROCESSES, 1);
	/* The parent's sampler thread did not come across the fork. */
	agent_samp_start();
	if (old == NULL)
		return;
	t->busy = 1;
	t->slot = NULL;
	if (agent_attach(t) != 0) {
		/* Nothing to count into: stop tracing this process. */
		pvt_g.on = 0;
		return;
	}
	s = t->slot;
	d = old->depth;
	if (agent_fork_set) {
		ofr = agent_fork_fr;
		d = agent_fork_depth;
	}
	agent_fork_set = 0;
	for (i = 0; i < d; i++) {
		if (i == s->fcap && pvt_grow_frames(t) != 0)
			break;
		node = pvt_path_node(t, parent, onodes[ofr[i].node].func);
		if (node == 0)
			break;
		t->fr[i] = ofr[i];
		t->fr[i].node = node;
		if (ofr[i].leaf != 0)
			t->fr[i].leaf = agent_child_leaf(t, parent,
			    onodes, ofr[i].leaf);
		parent = node;
		s->depth = i + 1;
	}
	if (t->leaf != 0)
		t->leaf = agent_child_leaf(t, parent, onodes, t->leaf);
	__atomic_store_n(&s->cur, s->depth > 0 ? t->fr[s->depth - 1].node :
	    PVT_ROOT, __ATOMIC_RELAXED);
	s->last_tsc = old->last_tsc;
	s->last_cpu = pvt_cpu_now(t, pvt_now());
	t->busy = 0;
}

/* Mark the other threads of this process as ending now. */
void
agent_others_end(void)
{
	struct pvt_slot	*s;
	uint64_t	 off, now = pvt_now();
	pid_t		 pid = getpid();

	for (off = pvt_g.shm->slot_first; off != 0; off = s->next) {
		s = (struct pvt_slot *)(pvt_g.base + off);
		if (s->state == PVT_SLOT_OWNED && s->pid == pid &&
		    s != pvt_t.slot && s->end_tsc == 0)
			s->end_tsc = now;
	}
}

/* Map the runner's shared memory: our fd, or the runner's via /proc. */
static struct pvt_shm *
agent_map(const char *env)
{
	struct pvt_shm	*shm;
	char		 path[64];
	int		 fd, rfd, pid;
	size_t		 size;
	unsigned long long sz;

	if (sscanf(env, "%d:%d:%llu", &rfd, &pid, &sz) != 3)
		return (NULL);
	size = (size_t)sz;
	shm = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED |
	    MAP_NORESERVE, rfd, 0);
	if (shm == MAP_FAILED || shm->magic != PVT_SHM_MAGIC) {
		if (shm != MAP_FAILED)
			munmap(shm, size);
		snprintf(path, sizeof path, "/proc/%d/fd/%d", pid, rfd);
		if ((fd = open(path, O_RDWR | O_CLOEXEC)) < 0)
			return (NULL);
		shm = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED |
		    MAP_NORESERVE, fd, 0);
		close(fd);
		if (shm == MAP_FAILED)
			return (NULL);
	}
	if (shm->magic != PVT_SHM_MAGIC || shm->version != PVT_VERSION ||
	    shm->size != size) {
		munmap(shm, size);
		return (NULL);
	}
	return (shm);
}

static void __attribute__((constructor(101)))
agent_init(void)
{
	struct pvt_shm	*shm;
	const char	*env, *pre;
	int		 saved = errno;

	if ((env = getenv("PVTRACE_SHM")) == NULL)
		return;
	if ((shm = agent_map(env)) == NULL) {
		fprintf(stderr, "pvtrace: cannot map the runner's shared"
		    " memory (PVTRACE_SHM=%s); not tracing\n", env);
		return;
	}
	if (asprintf(&agent_g.env_shm, "PVTRACE_SHM=%s", env) < 0)
		agent_g.env_shm = NULL;
	if ((pre = getenv("LD_PRELOAD")) != NULL)
		agent_g.env_preload = strndup(pre, strcspn(pre, ": "));
	pvt_g.base = (char *)shm;
	pvt_g.shm = shm;
	if (shm->clock_mono &&
	    (pvt_g.vclock = (int (*)(int, void *))agent_vdso_clock()) ==
	    NULL) {
		agent_error("no vDSO clock_gettime: not tracing");
		return;
	}
	pvt_g.nfn = shm->nfn;
	pvt_g.attach = agent_attach;
	pvt_g.image = __atomic_add_fetch(&shm->images, 1, __ATOMIC_RELAXED);
	{
		/*
		 * Initial-exec TLS: the flag is at the same offset from the
		 * thread pointer (%fs:0 holds it) in every thread.
		 */
		char	*tp;

		__asm__("movq %%fs:0, %0" : "=r"(tp));
		pvt_g.tls_inagent = (int32_t)((char *)&pvt_t.inagent - tp);
	}
	agent_g.mod = (const struct pvt_module *)(pvt_g.base + shm->mod_off);
	agent_g.fn = (const struct pvt_func *)(pvt_g.base + shm->fn_off);
	agent_g.str = pvt_g.base + shm->str_off;
	agent_g.fstate = (uint8_t *)(pvt_g.base + shm->fn_state_off);
	agent_xsave_size();
	pvt_g.tramp = calloc(shm->nfn + 3, sizeof *pvt_g.tramp);
	if (pvt_g.tramp == NULL)
		return;
	pthread_key_create(&agent_g.key, agent_thread_end);
	pthread_atfork(agent_prefork, NULL, agent_child);

	/* Another program (a child's exec): stay out of its way. */
	{
		struct agent_scan	sc;
		ssize_t			n;

		memset(&sc, 0, sizeof sc);
		n = readlink("/proc/self/exe", sc.exe, sizeof sc.exe - 1);
		if (n > 0)
			sc.exe[n] = '\0';
		dl_iterate_phdr(agent_scan_one, &sc);
		memset(agent_g.m, 0, sizeof agent_g.m);
		if (!sc.main_found) {
			pvt_stat(PVT_ST_INERT, 1);
			errno = saved;
			return;
		}
	}
	agent_calibrate();
	pvt_g.a[PVT_JUMP] = shm->cal_a[PVT_JUMP];
	pvt_g.b[PVT_JUMP] = shm->cal_b[PVT_JUMP];
	pvt_g.a[PVT_TRAP] = shm->cal_a[PVT_TRAP];
	pvt_g.b[PVT_TRAP] = shm->cal_b[PVT_TRAP];
	agent_patch_loaded();
	pvt_stat(PVT_ST_PROCESSES, 1);
	pvt_g.on = 1;
	agent_samp_start();
	errno = saved;
}
