/*
 * libpvheap.so: preloaded into the program by pvheap(1), it interposes
 * the whole allocator surface of glibc and libstdc++ and keeps, for every
 * live block, its address, size, allocation stack, thread and sequence
 * number, and for every allocation site heaptrack's numbers.  The blocks
 * themselves come from glibc's own allocator (__libc_malloc and friends),
 * so the heap's layout is the program's.  snap.c turns the tables into a
 * snapshot.
 *
 * The per-call cost is the point: one unw_backtrace (libunwind's cached
 * fast path, no frame pointers needed), one lock-free lookup of the stack
 * among the sites, and one insert into a hash table of live blocks split
 * into 64 shards, each with its own spinlock, so threads rarely meet.
 * All of the agent's own memory is mmap'd, never malloc'd: it must not
 * change the heap it describes, and a snapshot must run while other
 * threads are stopped, possibly inside glibc's malloc.
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
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "capture/pvheap/agent.h"
#include "capture/pvheap/heapfmt.h"

#define EXPORT	__attribute__((visibility("default")))
#define LIKELY(x)	__builtin_expect(!!(x), 1)
#define UNLIKELY(x)	__builtin_expect(!!(x), 0)

/* glibc's allocator under its own names: what the hooks call. */
extern void	*__libc_malloc(size_t);
extern void	*__libc_calloc(size_t, size_t);
extern void	*__libc_realloc(void *, size_t);
extern void	 __libc_free(void *);
extern void	*__libc_memalign(size_t, size_t);
extern void	*__libc_valloc(size_t);
extern void	*__libc_pvalloc(size_t);

struct agent_opts	agent_opts;
uint64_t		agent_seq;
/*
 * When this process (this image, after an exec) started to be watched:
 * with the pid, it names the run its snapshots belong to.
 */
uint64_t		agent_started_ns;
uint64_t		agent_frees_unknown;

/*
 * Per thread: initial-exec TLS, so reading it is one instruction and
 * never calls __tls_get_addr (which may allocate).
 */
struct agent_tls {
	int	busy;
	int	agent;		/* the agent's own thread */
	int	stop_pending;	/* a stop came while busy */
	unsigned stops;		/* stops taken: a sleep they cut resumes */
	int	exiting;	/* in agent_exit_snapshot */
	pid_t	tid;
};
static __thread struct agent_tls tls __attribute__((tls_model("initial-exec")));

static int		 agent_state;	/* 0 cold, 1 starting, 2 ready */
static uint64_t		 self_lo, self_hi;	/* our code */
static size_t		 (*real_usable)(void *);
static int		 (*real_sigaction)(int, const struct sigaction *,
			    struct sigaction *);
static int		 (*real_pthread_sigmask)(int, const sigset_t *,
			    sigset_t *);
static int		 (*real_dlclose)(void *);
static char		 out_base[PATH_MAX];
static pid_t		 main_pid;
static pid_t		 ctor_pid;	/* this process's pid, for _exit */

/*
 * Until the program starts a second thread, nothing else touches the
 * tables (the agent's own thread only reads them while the program is
 * stopped), so the counters and shard locks need no atomic operations:
 * a plain increment costs nothing, a locked one several nanoseconds.
 * pthread_create turns this on before the thread exists; a hook on a
 * thread that is not the first also turns it on (threads from a raw
 * clone).
 */
static int		 mt;

/* ---- spinlocks ---------------------------------------------------- */

static inline void
spin_lock(int *l)
{
	unsigned	n = 0;

	if (!__atomic_load_n(&mt, __ATOMIC_RELAXED)) {
		*l = 1;
		return;
	}
	while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE) != 0) {
		while (__atomic_load_n(l, __ATOMIC_RELAXED) != 0) {
			/* Two cores: a preempted holder needs the CPU. */
			if (++n > 200)
				sched_yield();
			else
				__builtin_ia32_pause();
		}
	}
}

static inline void
spin_unlock(int *l)
{
	__atomic_store_n(l, 0, __ATOMIC_RELEASE);
}

/* The ranges' lock is taken by the agent's thread too: always atomic. */
static inline void
spin_lock_always(int *l)
{
	while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE) != 0) {
		while (__atomic_load_n(l, __ATOMIC_RELAXED) != 0)
			sched_yield();
	}
}

/* ---- the agent's memory -------------------------------------------- */

/*
 * Every mapping the agent makes is listed, so the snapshot can leave them
 * out of the roots: the block table points at every live block.
 */
#define RANGES_MAX	4096
static struct { uint64_t lo, hi; } ranges[RANGES_MAX];
static size_t	nranges;
static int	ranges_lock;

static void
range_add(void *p, size_t len)
{
	spin_lock_always(&ranges_lock);
	if (nranges < RANGES_MAX) {
		ranges[nranges].lo = (uint64_t)(uintptr_t)p;
		ranges[nranges].hi = (uint64_t)(uintptr_t)p + len;
		nranges++;
	}
	spin_unlock(&ranges_lock);
}

static void
range_del(void *p)
{
	size_t	i;

	spin_lock_always(&ranges_lock);
	for (i = 0; i < nranges; i++) {
		if (ranges[i].lo == (uint64_t)(uintptr_t)p) {
			ranges[i] = ranges[--nranges];
			break;
		}
	}
	spin_unlock(&ranges_lock);
}

void *
agent_mmap(size_t len)
{
	void	*p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return (NULL);
	range_add(p, len);
	return (p);
}

void
agent_munmap(void *p, size_t len)
{
	if (p == NULL)
		return;
	range_del(p);
	munmap(p, len);
}

void *
agent_mremap(void *p, size_t old, size_t len)
{
	void	*q;

	if (p == NULL)
		return (agent_mmap(len));
	q = mremap(p, old, len, MREMAP_MAYMOVE);
	if (q == MAP_FAILED)
		return (NULL);
	range_del(p);
	range_add(q, len);
	return (q);
}

/* The agent's mappings as lo, hi pairs into v (room for max pairs). */
size_t
agent_ranges(uint64_t *v, size_t max)
{
	size_t	i, n;

	spin_lock_always(&ranges_lock);
	n = nranges < max ? nranges : max;
	for (i = 0; i < n; i++) {
		v[2 * i] = ranges[i].lo;
		v[2 * i + 1] = ranges[i].hi;
	}
	spin_unlock(&ranges_lock);
	return (n);
}

/* Untracked memory for the snapshot's work once the threads run again. */
void *
agent_alloc(size_t n)
{
	return (__libc_malloc(n));
}

void
agent_free(void *p)
{
	__libc_free(p);
}

/* An address inside libc's code, to find libc among the modules. */
void *
agent_libc_addr(void)
{
	return ((void *)(uintptr_t)__libc_malloc);
}

size_t
agent_usable(void *p)
{
	return (real_usable != NULL ? real_usable(p) : 0);
}

void *
abuf_grow(struct abuf *b, size_t n)
{
	size_t	cap;
	void	*p;

	if (b->len + n > b->cap) {
		cap = b->cap != 0 ? b->cap : 65536;
		while (cap < b->len + n)
			cap *= 2;
		if ((p = agent_mremap(b->p, b->cap, cap)) == NULL)
			return (NULL);
		/*
		 * Fault the new pages in at once (Linux 5.14): one by one,
		 * the faults of a big snapshot cost more than its scan.
		 */
		madvise((uint8_t *)p + b->cap, cap - b->cap,
		    MADV_POPULATE_WRITE);
		b->p = p;
		b->cap = cap;
	}
	p = b->p + b->len;
	b->len += n;
	return (p);
}

void
abuf_free(struct abuf *b)
{
	agent_munmap(b->p, b->cap);
	memset(b, 0, sizeof *b);
}

void
agent_self_range(uint64_t *lo, uint64_t *hi)
{
	*lo = self_lo;
	*hi = self_hi;
}

pid_t
agent_gettid(void)
{
	if (tls.tid == 0) {
		tls.tid = (pid_t)syscall(SYS_gettid);
		/* A thread pthread_create did not tell us of. */
		if (tls.tid != getpid() && !tls.agent)
			__atomic_store_n(&mt, 1, __ATOMIC_SEQ_CST);
	}
	return (tls.tid);
}

int
agent_is_agent_thread(void)
{
	return (tls.agent);
}

/*
 * Mark this thread busy for the snapshot's duration: its own allocations
 * pass untracked.  Returns the previous state for agent_busy_leave.
 */
int
agent_busy_enter(void)
{
	int	was = tls.busy;

	tls.busy = 1;
	return (was);
}

void
agent_busy_leave(int was)
{
	tls.busy = was;
}

/* ---- the live blocks ----------------------------------------------- */

#define SHARDS		64
#define SHARD_BITS	6
#define SHARD_CAP0	1024

struct shard {
	int			 lock;
	int			 logcap;
	struct agent_blk	*tab;
	uint64_t		 n;
} __attribute__((aligned(64)));

static struct shard	shards[SHARDS];

/* Fibonacci hashing: the top bits pick the shard, the next the slot. */
static inline uint64_t
blk_hash(uint64_t addr)
{
	return ((addr >> 4) * 0x9e3779b97f4a7c15ull);
}

static inline uint64_t
blk_slot(uint64_t h, int logcap)
{
	return ((h << SHARD_BITS) >> (64 - logcap));
}

static int
shard_grow(struct shard *s)
{
	struct agent_blk	*old = s->tab, *tab;
	int			 logcap = s->tab != NULL ? s->logcap + 1 : 10;
	uint64_t		 cap = (uint64_t)1 << logcap, mask = cap - 1;
	uint64_t		 i, j, oldcap;

	if ((tab = agent_mmap(cap * sizeof *tab)) == NULL)
		return (-1);
	/* Every slot is written below or soon: fault the pages in at once. */
	madvise(tab, cap * sizeof *tab, MADV_POPULATE_WRITE);
	if (old != NULL) {
		oldcap = (uint64_t)1 << s->logcap;
		for (i = 0; i < oldcap; i++) {
			if (old[i].addr == 0)
				continue;
			j = blk_slot(blk_hash(old[i].addr), logcap);
			while (tab[j].addr != 0)
				j = (j + 1) & mask;
			tab[j] = old[i];
		}
		agent_munmap(old, oldcap * sizeof *old);
	}
	s->tab = tab;
	s->logcap = logcap;
	return (0);
}

static void
blk_insert(const struct agent_blk *b)
{
	uint64_t	 h = blk_hash(b->addr), mask, i;
	struct shard	*s = &shards[h >> (64 - SHARD_BITS)];

	spin_lock(&s->lock);
	/* At most 70 % full: linear probing stays short. */
	if (s->tab == NULL || (s->n + 1) * 10 > ((uint64_t)7 << s->logcap)) {
		if (shard_grow(s) != 0) {
			spin_unlock(&s->lock);
			return;
		}
	}
	mask = ((uint64_t)1 << s->logcap) - 1;
	i = blk_slot(h, s->logcap);
	while (s->tab[i].addr != 0)
		i = (i + 1) & mask;
	s->tab[i] = *b;
	s->n++;
	spin_unlock(&s->lock);
}

/* Take addr's entry out into *b; 0 if it was there. */
static int
blk_remove(uint64_t addr, struct agent_blk *b)
{
	uint64_t	 h = blk_hash(addr), mask, i, j, k;
	struct shard	*s = &shards[h >> (64 - SHARD_BITS)];
	struct agent_blk *t;

	spin_lock(&s->lock);
	if ((t = s->tab) == NULL) {
		spin_unlock(&s->lock);
		return (-1);
	}
	mask = ((uint64_t)1 << s->logcap) - 1;
	i = blk_slot(h, s->logcap);
	for (;;) {
		if (t[i].addr == addr)
			break;
		if (t[i].addr == 0) {
			spin_unlock(&s->lock);
			return (-1);
		}
		i = (i + 1) & mask;
	}
	*b = t[i];
	/* Backward-shift deletion: no tombstones, probes stay short. */
	j = i;
	for (;;) {
		j = (j + 1) & mask;
		if (t[j].addr == 0)
			break;
		k = blk_slot(blk_hash(t[j].addr), s->logcap);
		if ((j > i && (k <= i || k > j)) ||
		    (j < i && (k <= i && k > j))) {
			t[i] = t[j];
			i = j;
		}
	}
	t[i].addr = 0;
	s->n--;
	spin_unlock(&s->lock);
	return (0);
}

/*
 * Copy every live block into b (struct agent_blk each); the count.  Only
 * called with every other thread stopped outside the hooks.
 */
size_t
agent_blocks(struct abuf *b)
{
	struct agent_blk	*d;
	size_t			 n = 0, i, k, cap, total = 0;

	for (k = 0; k < SHARDS; k++)
		total += shards[k].n;
	if ((d = abuf_grow(b, total * sizeof *d)) == NULL)
		return (0);
	for (k = 0; k < SHARDS; k++) {
		if (shards[k].tab == NULL)
			continue;
		cap = (size_t)1 << shards[k].logcap;
		for (i = 0; i < cap && n < total; i++) {
			if (shards[k].tab[i].addr != 0)
				d[n++] = shards[k].tab[i];
		}
	}
	b->len = n * sizeof *d;
	return (n);
}

/* ---- the sites ----------------------------------------------------- */

#define SITE_CHUNK	1024
#define SITE_CHUNKS	65536
#define FRAME_ARENA	(1 << 20)

struct site_index {
	uint64_t	 mask;
	uint32_t	 slot[];	/* site id + 1; 0 empty */
};

static struct agent_site	*site_chunk[SITE_CHUNKS];
static uint32_t			 nsites;
static struct site_index	*site_idx;
static int			 site_lock;
static uintptr_t		*frame_arena;
static size_t			 frame_left;

uint32_t
agent_nsites(void)
{
	return (__atomic_load_n(&nsites, __ATOMIC_ACQUIRE));
}

struct agent_site *
agent_site(uint32_t id)
{
	return (&site_chunk[id / SITE_CHUNK][id % SITE_CHUNK]);
}

static inline uint64_t
stack_hash(const uintptr_t *pc, int n)
{
	uint64_t	h = (uint64_t)n * 0x9e3779b97f4a7c15ull;
	int		i;

	for (i = 0; i < n; i++) {
		h ^= pc[i];
		h *= 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	return (h | 1);
}

static struct agent_site *
site_probe(const struct site_index *x, uint64_t h, const uintptr_t *pc,
    int n)
{
	struct agent_site	*s;
	uint64_t		 i = h & x->mask;
	uint32_t		 v;

	while ((v = __atomic_load_n(&x->slot[i], __ATOMIC_ACQUIRE)) != 0) {
		s = agent_site(v - 1);
		if (s->hash == h && s->nframes == (uint32_t)n &&
		    memcmp(s->frames, pc, n * sizeof *pc) == 0)
			return (s);
		i = (i + 1) & x->mask;
	}
	return (NULL);
}

static struct site_index *
site_index_new(uint64_t cap)
{
	struct site_index	*x;

	x = agent_mmap(sizeof *x + cap * sizeof x->slot[0]);
	if (x != NULL)
		x->mask = cap - 1;
	return (x);
}

static void
site_index_put(struct site_index *x, uint64_t h, uint32_t id)
{
	uint64_t	i = h & x->mask;

	while (x->slot[i] != 0)
		i = (i + 1) & x->mask;
	__atomic_store_n(&x->slot[i], id + 1, __ATOMIC_RELEASE);
}

/*
 * The site of this stack, made if new.  Readers never lock: a new site
 * is complete before its slot is published, and a grown index is
 * published whole (the old one is left mapped for readers still in it:
 * at most as big as the new one, in total).
 */
static struct agent_site *
site_get(const uintptr_t *pc, int n)
{
	struct site_index	*x, *y;
	struct agent_site	*s;
	uint64_t		 h = stack_hash(pc, n), i;
	uint32_t		 id;

	x = __atomic_load_n(&site_idx, __ATOMIC_ACQUIRE);
	if (LIKELY(x != NULL) && (s = site_probe(x, h, pc, n)) != NULL)
		return (s);
	spin_lock(&site_lock);
	x = site_idx;
	if (x != NULL && (s = site_probe(x, h, pc, n)) != NULL)
		goto out;
	s = NULL;
	id = nsites;
	if (id / SITE_CHUNK >= SITE_CHUNKS)
		goto out;
	if (site_chunk[id / SITE_CHUNK] == NULL &&
	    (site_chunk[id / SITE_CHUNK] = agent_mmap(SITE_CHUNK *
	    sizeof (struct agent_site))) == NULL)
		goto out;
	if (frame_left < (size_t)n) {
		if ((frame_arena = agent_mmap(FRAME_ARENA)) == NULL)
			goto out;
		frame_left = FRAME_ARENA / sizeof *frame_arena;
	}
	if (x == NULL || (uint64_t)(id + 1) * 2 > x->mask + 1) {
		y = site_index_new(x != NULL ? (x->mask + 1) * 2 : 4096);
		if (y == NULL)
			goto out;
		for (i = 0; i < id; i++)
			site_index_put(y, agent_site(i)->hash, i);
		__atomic_store_n(&site_idx, y, __ATOMIC_RELEASE);
		x = y;
	}
	s = agent_site(id);
	s->frames = frame_arena;
	frame_arena += n;
	frame_left -= n;
	memcpy(s->frames, pc, n * sizeof *pc);
	s->nframes = n;
	s->hash = h;
	s->id = id;
	__atomic_store_n(&nsites, id + 1, __ATOMIC_RELEASE);
	site_index_put(x, h, id);
out:
	spin_unlock(&site_lock);
	return (s);
}

/* ---- stacks -------------------------------------------------------- */

/*
 * The allocation's stack, outermost frames last, without the agent's own
 * frames.  libunwind's unw_backtrace walks by the unwind tables with a
 * per-thread cache of frame rules: no frame pointers needed.
 */
static __attribute__((noinline)) int
agent_stack(uintptr_t *pc)
{
	void	*buf[AGENT_MAXDEPTH + 4];
	int	 n, i = 0, k;

	n = unw_backtrace(buf, agent_opts.depth + 3);
	while (i < n && (uintptr_t)buf[i] >= self_lo &&
	    (uintptr_t)buf[i] < self_hi)
		i++;
	for (k = 0; i < n && k < agent_opts.depth; i++, k++)
		pc[k] = (uintptr_t)buf[i];
	return (k);
}

/* ---- tracking ------------------------------------------------------ */

static void	agent_init(void);

static inline void
site_alloc(struct agent_site *s, uint64_t size)
{
	uint64_t	live, peak;

	if (!__atomic_load_n(&mt, __ATOMIC_RELAXED)) {
		s->allocs++;
		s->bytes += size;
		s->nlive++;
		if ((s->live += size) > s->peak)
			s->peak = s->live;
		return;
	}
	__atomic_add_fetch(&s->allocs, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&s->bytes, size, __ATOMIC_RELAXED);
	__atomic_add_fetch(&s->nlive, 1, __ATOMIC_RELAXED);
	live = __atomic_add_fetch(&s->live, size, __ATOMIC_RELAXED);
	peak = __atomic_load_n(&s->peak, __ATOMIC_RELAXED);
	while (live > peak && !__atomic_compare_exchange_n(&s->peak, &peak,
	    live, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		/* peak reloaded */;
}

static inline void
site_free(uint32_t id, uint64_t size)
{
	struct agent_site	*s = agent_site(id);

	if (!__atomic_load_n(&mt, __ATOMIC_RELAXED)) {
		s->frees++;
		s->nlive--;
		s->live -= size;
		return;
	}
	__atomic_add_fetch(&s->frees, 1, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&s->nlive, 1, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&s->live, size, __ATOMIC_RELAXED);
}

static __attribute__((always_inline)) inline void
track(void *p, size_t size)
{
	uintptr_t		 pc[AGENT_MAXDEPTH];
	struct agent_site	*s;
	struct agent_blk	 b;
	int			 n;

	n = agent_stack(pc);
	if ((s = site_get(pc, n)) == NULL)
		return;
	site_alloc(s, size);
	b.addr = (uint64_t)(uintptr_t)p;
	b.size = size;
	if (__atomic_load_n(&mt, __ATOMIC_RELAXED))
		b.seq = __atomic_fetch_add(&agent_seq, 1, __ATOMIC_RELAXED);
	else
		b.seq = agent_seq++;
	b.site = s->id;
	b.tid = (uint32_t)agent_gettid();
	blk_insert(&b);
}

/*
 * memcheck knows which bytes of a block were never written since it was
 * allocated and never takes them for pointers.  The agent cannot know
 * that, and a block made of reused memory would hold the dead blocks'
 * pointers: so freed blocks are zeroed, new blocks up to 64 KiB (which
 * may be made of memory glibc's realloc freed on its own) too, and what
 * realloc adds.  mmap'd chunks are fresh from the kernel.  Only a
 * program that reads memory it never wrote, or freed, can tell.
 */
#define ZERO_NEW_MAX	65536

static inline void
scrub(void *p, uint64_t size)
{
	if (size == 0 || (((const uint64_t *)p)[-1] & 2))
		return;
	memset(p, 0, size);
}

static inline void
scrub_new(void *p, uint64_t size)
{
	if (size <= ZERO_NEW_MAX)
		scrub(p, size);
}

static inline void
untrack(void *p)
{
	struct agent_blk	b;

	if (blk_remove((uint64_t)(uintptr_t)p, &b) == 0) {
		site_free(b.site, b.size);
		scrub(p, b.size);
	}
	else
		__atomic_add_fetch(&agent_frees_unknown, 1, __ATOMIC_RELAXED);
}

/* Enter a hook: 0 if the call must pass through untracked. */
static inline int
enter(void)
{
	if (UNLIKELY(agent_state != 2)) {
		if (tls.busy || agent_state == 1)
			return (0);
		agent_init();
		if (agent_state != 2)
			return (0);
	}
	if (UNLIKELY(tls.busy))
		return (0);
	tls.busy = 1;
	return (1);
}

static void	stop_again(void);

static inline void
leave(void)
{
	tls.busy = 0;
	/* A stop that came while we were busy parks us now (snap_stop.c). */
	if (UNLIKELY(tls.stop_pending))
		stop_again();
}

EXPORT void *
malloc(size_t n)
{
	void	*p;

	if (!enter())
		return (__libc_malloc(n));
	if ((p = __libc_malloc(n)) != NULL) {
		scrub_new(p, n);
		track(p, n);
	}
	leave();
	return (p);
}

EXPORT void
free(void *p)
{
	if (p == NULL)
		return;
	if (!enter()) {
		__libc_free(p);
		return;
	}
	untrack(p);
	__libc_free(p);
	leave();
}

EXPORT void *
calloc(size_t n, size_t m)
{
	void	*p;

	if (!enter())
		return (__libc_calloc(n, m));
	if ((p = __libc_calloc(n, m)) != NULL)
		track(p, n * m);
	leave();
	return (p);
}

EXPORT void *
realloc(void *p, size_t n)
{
	struct agent_blk	 old;
	void			*q;
	int			 had;

	if (!enter())
		return (__libc_realloc(p, n));
	if (p == NULL) {
		if ((q = __libc_malloc(n)) != NULL) {
			scrub_new(q, n);
			track(q, n);
		}
		leave();
		return (q);
	}
	/* Out of the table first: once glibc has it, p may be reused. */
	had = blk_remove((uint64_t)(uintptr_t)p, &old) == 0;
	q = __libc_realloc(p, n);
	if (q == NULL && n != 0) {
		/* Failed: p is still the program's. */
		if (had)
			blk_insert(&old);
	} else {
		if (had)
			site_free(old.site, old.size);
		else
			__atomic_add_fetch(&agent_frees_unknown, 1,
			    __ATOMIC_RELAXED);
		/* glibc frees p on realloc(p, 0) and returns NULL. */
		if (q != NULL) {
			if (had && n > old.size &&
			    !(((const uint64_t *)q)[-1] & 2))
				memset((char *)q + old.size, 0, n - old.size);
			else if (!had)
				scrub_new(q, n);
			track(q, n);
		}
	}
	leave();
	return (q);
}

EXPORT void *
reallocarray(void *p, size_t n, size_t m)
{
	size_t	bytes;

	if (__builtin_mul_overflow(n, m, &bytes)) {
		errno = ENOMEM;
		return (NULL);
	}
	return (realloc(p, bytes));
}

static void *
aligned(size_t align, size_t n, void *(*fn)(size_t, size_t))
{
	void	*p;

	if (!enter())
		return (fn(align, n));
	if ((p = fn(align, n)) != NULL) {
		scrub_new(p, n);
		track(p, n);
	}
	leave();
	return (p);
}

static void *
libc_valloc2(size_t align, size_t n)
{
	(void)align;
	return (__libc_valloc(n));
}

static void *
libc_pvalloc2(size_t align, size_t n)
{
	(void)align;
	return (__libc_pvalloc(n));
}

EXPORT void *
memalign(size_t align, size_t n)
{
	return (aligned(align, n, __libc_memalign));
}

EXPORT void *
aligned_alloc(size_t align, size_t n)
{
	return (aligned(align, n, __libc_memalign));
}

EXPORT void *
valloc(size_t n)
{
	return (aligned(0, n, libc_valloc2));
}

/* pvalloc rounds the size up to whole pages; so does the block's size. */
EXPORT void *
pvalloc(size_t n)
{
	size_t	pg = (size_t)sysconf(_SC_PAGESIZE);

	return (aligned(0, n != 0 ? (n + pg - 1) & ~(pg - 1) : pg,
	    libc_pvalloc2));
}

EXPORT int
posix_memalign(void **out, size_t align, size_t n)
{
	void	*p;
	int	 e = errno;

	if (align % sizeof (void *) != 0 || (align & (align - 1)) != 0 ||
	    align == 0)
		return (EINVAL);
	p = aligned(align, n, __libc_memalign);
	if (p == NULL && n != 0) {
		errno = e;
		return (ENOMEM);
	}
	*out = p;
	errno = e;
	return (0);
}

EXPORT size_t
malloc_usable_size(void *p)
{
	if (real_usable == NULL)
		real_usable = (size_t (*)(void *))dlsym(RTLD_NEXT,
		    "malloc_usable_size");
	return (real_usable != NULL ? real_usable(p) : 0);
}

/*
 * C++.  Success is a tracked malloc; failure goes to libstdc++'s own
 * operator, which runs the new_handler loop and throws std::bad_alloc
 * (its retries come back through our malloc, and are tracked there).
 */
static void *
cxx_fail(const char *name, size_t n, size_t align, int nothrow)
{
	void	*(*fn)(size_t, ...);

	if ((fn = (void *(*)(size_t, ...))dlsym(RTLD_NEXT, name)) == NULL) {
		if (nothrow)
			return (NULL);
		abort();
	}
	if (align != 0)
		return (fn(n, align, NULL));
	return (fn(n, NULL));
}

static inline void *
cxx_new(size_t n, size_t align, const char *name, int nothrow)
{
	void	*p;

	if (align == 0)
		p = malloc(n);
	else
		p = aligned(align, n, __libc_memalign);
	if (UNLIKELY(p == NULL))
		p = cxx_fail(name, n, align, nothrow);
	return (p);
}

/* Mangled names: _Znwm is operator new(unsigned long), and so on. */
EXPORT void *_Znwm(size_t n)
{ return (cxx_new(n, 0, "_Znwm", 0)); }
EXPORT void *_Znam(size_t n)
{ return (cxx_new(n, 0, "_Znam", 0)); }
EXPORT void *_ZnwmRKSt9nothrow_t(size_t n, const void *t)
{ (void)t; return (cxx_new(n, 0, "_ZnwmRKSt9nothrow_t", 1)); }
EXPORT void *_ZnamRKSt9nothrow_t(size_t n, const void *t)
{ (void)t; return (cxx_new(n, 0, "_ZnamRKSt9nothrow_t", 1)); }
EXPORT void *_ZnwmSt11align_val_t(size_t n, size_t a)
{ return (cxx_new(n, a, "_ZnwmSt11align_val_t", 0)); }
EXPORT void *_ZnamSt11align_val_t(size_t n, size_t a)
{ return (cxx_new(n, a, "_ZnamSt11align_val_t", 0)); }
EXPORT void *_ZnwmSt11align_val_tRKSt9nothrow_t(size_t n, size_t a,
    const void *t)
{ (void)t; return (cxx_new(n, a, "_ZnwmSt11align_val_tRKSt9nothrow_t", 1)); }
EXPORT void *_ZnamSt11align_val_tRKSt9nothrow_t(size_t n, size_t a,
    const void *t)
{ (void)t; return (cxx_new(n, a, "_ZnamSt11align_val_tRKSt9nothrow_t", 1)); }

EXPORT void _ZdlPv(void *p)
{ free(p); }
EXPORT void _ZdaPv(void *p)
{ free(p); }
EXPORT void _ZdlPvm(void *p, size_t n)
{ (void)n; free(p); }
EXPORT void _ZdaPvm(void *p, size_t n)
{ (void)n; free(p); }
EXPORT void _ZdlPvRKSt9nothrow_t(void *p, const void *t)
{ (void)t; free(p); }
EXPORT void _ZdaPvRKSt9nothrow_t(void *p, const void *t)
{ (void)t; free(p); }
EXPORT void _ZdlPvSt11align_val_t(void *p, size_t a)
{ (void)a; free(p); }
EXPORT void _ZdaPvSt11align_val_t(void *p, size_t a)
{ (void)a; free(p); }
EXPORT void _ZdlPvmSt11align_val_t(void *p, size_t n, size_t a)
{ (void)n; (void)a; free(p); }
EXPORT void _ZdaPvmSt11align_val_t(void *p, size_t n, size_t a)
{ (void)n; (void)a; free(p); }
EXPORT void _ZdlPvSt11align_val_tRKSt9nothrow_t(void *p, size_t a,
    const void *t)
{ (void)a; (void)t; free(p); }
EXPORT void _ZdaPvSt11align_val_tRKSt9nothrow_t(void *p, size_t a,
    const void *t)
{ (void)a; (void)t; free(p); }

/* ---- stopping ------------------------------------------------------ */

/*
 * The stop signal (snap_stop.c sends it to every thread for a snapshot).  A
 * thread inside a hook may hold a shard's lock: it notes the request and
 * parks when it leaves the hook, by sending itself the signal again.
 */
static void
stop_handler(int sig, siginfo_t *si, void *uc)
{
	int	e = errno;

	(void)sig;
	(void)si;
	if (tls.agent)
		return;
	if (tls.busy) {
		tls.stop_pending = 1;
		return;
	}
	tls.stops++;
	snap_stop_handler(sig, uc);
	errno = e;
}

static void
stop_again(void)
{
	tls.stop_pending = 0;
	syscall(SYS_tgkill, getpid(), agent_gettid(), agent_opts.stopsig);
}

/* ---- options and names --------------------------------------------- */

static uint64_t
opt_num(const char *s)
{
	uint64_t	v = 0;

	while (*s >= '0' && *s <= '9')
		v = v * 10 + (uint64_t)(*s++ - '0');
	return (v);
}

/* PVHEAP_OPTS: "exit;signal=12;every=500;contents=64;depth=16;quiet". */
static void
opt_parse(const char *s)
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
			agent_opts.signal = (int)opt_num(v + 1);
		else if (v != NULL && strncmp(s, "every=", 6) == 0)
			agent_opts.every_ms = opt_num(v + 1);
		else if (v != NULL && strncmp(s, "depth=", 6) == 0)
			agent_opts.depth = (int)opt_num(v + 1);
		else if (v != NULL && strncmp(s, "stopsig=", 8) == 0)
			agent_opts.stopsig = (int)opt_num(v + 1);
		else if (v != NULL && strncmp(s, "contents=", 9) == 0)
			agent_opts.contents = strncmp(v + 1, "all", 3) == 0 ?
			    HEAPFMT_CONTENTS_ALL : opt_num(v + 1);
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
name_put(char **p, char *end, const char *s)
{
	while (*s != '\0' && *p < end)
		*(*p)++ = *s++;
}

static void
name_num(char **p, char *end, uint64_t v)
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
	if (getpid() != main_pid) {
		name_put(&p, end, ".");
		name_num(&p, end, (uint64_t)getpid());
	}
	if (serial != 0) {
		name_put(&p, end, ".");
		name_num(&p, end, serial);
	}
	if (suffix)
		name_put(&p, end, ".heap");
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
err_open(void)
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
self_find(void)
{
	const ElfW(Phdr)	*ph;
	uint64_t		 base = (uint64_t)(uintptr_t)&__ehdr_start;
	int			 i;

	ph = (const ElfW(Phdr) *)((const char *)&__ehdr_start +
	    __ehdr_start.e_phoff);
	for (i = 0; i < __ehdr_start.e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD || !(ph[i].p_flags & PF_X))
			continue;
		self_lo = base + ph[i].p_vaddr;
		self_hi = self_lo + ph[i].p_memsz;
	}
}

/* The wall clock, by the system call: libc may not be set up yet. */
static uint64_t
run_clock(void)
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
static void
agent_init(void)
{
	const char	*s, *out;
	char		 cwd[PATH_MAX];
	size_t		 n;

	if (__atomic_exchange_n(&agent_state, 1, __ATOMIC_ACQ_REL) != 0)
		return;
	tls.busy = 1;
	opt_parse(getenv("PVHEAP_OPTS"));
	if ((s = getenv("PVHEAP_STOPSIG")) != NULL && opt_num(s) > 0 &&
	    opt_num(s) <= (uint64_t)SIGRTMAX)
		agent_opts.stopsig = (int)opt_num(s);
	if ((s = getenv("PVHEAP_SOCKET")) != NULL)
		snprintf(agent_opts.socket, sizeof agent_opts.socket, "%s", s);
	main_pid = (s = getenv("PVHEAP_PID")) != NULL ? (pid_t)opt_num(s) :
	    getpid();
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
	self_find();
	agent_started_ns = run_clock();
	tls.busy = 0;
	__atomic_store_n(&agent_state, 2, __ATOMIC_RELEASE);
}

/* ---- the agent's thread: signals, timer, socket --------------------- */

static int		 wake_fd[2] = { -1, -1 };
static int		 agent_starting;
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
 * thread (sig_snapshots); the pipe only wakes the agent's thread.
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

static void
trigger_handler(int sig)
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
sig_claim(void)
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
sig_snapshots(void)
{
	char	path[PATH_MAX];

	pthread_mutex_lock(&sig_lock);
	while (sig_claim()) {
		if (snap_take(HEAPFMT_AT_SIGNAL, agent_opts.signal, path,
		    sizeof path) != 0)
			agent_say("%s", path);
	}
	pthread_mutex_unlock(&sig_lock);
}

static void
serve(int fd)
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
sock_place(const char *tmp, const char *path)
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
sock_remove(void)
{
	struct stat	st;

	if (!sock_made || getpid() != ctor_pid)
		return;
	sock_made = 0;
	if (lstat(agent_opts.socket, &st) == 0 && S_ISSOCK(st.st_mode) &&
	    st.st_dev == sock_dev && st.st_ino == sock_ino)
		unlink(agent_opts.socket);
}

static void
listen_open(void)
{
	struct sockaddr_un	sun;
	struct stat		st;
	unsigned		rnd;
	int			fd;

	if (agent_opts.socket[0] == '\0' || getpid() != main_pid)
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
		rnd = (unsigned)run_clock();
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
	    sock_place(sun.sun_path,
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
	tls.agent = 1;
	tls.busy = 1;
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
		sig_snapshots();
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
			sig_snapshots();
		}
		if (listen_fd != -1 && (p[1].revents & POLLIN)) {
			if ((fd = accept4(listen_fd, NULL, NULL,
			    SOCK_CLOEXEC)) != -1) {
				serve(fd);
				close(fd);
			}
		}
	}
	return (NULL);
}

static void
agent_thread_start(void)
{
	sigset_t	all, old;

	if (!agent_opts.signal && !agent_opts.every_ms &&
	    (agent_opts.socket[0] == '\0' || getpid() != main_pid))
		return;
	if (wake_fd[0] == -1 && pipe2(wake_fd, O_CLOEXEC | O_NONBLOCK) != 0)
		return;
	/*
	 * Before the program runs: a program that ends at once finds the
	 * socket made, and removes it (agent_exit_snapshot).
	 */
	listen_open();
	/* The agent's thread takes no signal of the program's. */
	sigfillset(&all);
	real_pthread_sigmask(SIG_SETMASK, &all, &old);
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
	real_pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* ---- fork ------------------------------------------------------------ */

static void
fork_prepare(void)
{
	int	k;

	spin_lock(&site_lock);
	for (k = 0; k < SHARDS; k++)
		spin_lock(&shards[k].lock);
}

static void
fork_parent(void)
{
	int	k;

	for (k = SHARDS - 1; k >= 0; k--)
		spin_unlock(&shards[k].lock);
	spin_unlock(&site_lock);
}

/* The child keeps the parent's blocks (its heap is a copy) as its own. */
static void
fork_child(void)
{
	fork_parent();
	ranges_lock = 0;
	tls.tid = 0;
	tls.exiting = 0;
	serial = 0;
	exit_done = 0;
	agent_running = 0;
	listen_fd = -1;
	if (wake_fd[0] != -1) {
		close(wake_fd[0]);
		close(wake_fd[1]);
		wake_fd[0] = wake_fd[1] = -1;
	}
	ctor_pid = getpid();
	/* The parent's signals are the parent's to snapshot. */
	sig_pending = 0;
	pthread_mutex_init(&sig_lock, NULL);
	sock_made = 0;
	/* A child is a run of its own. */
	agent_started_ns = run_clock();
	snap_atfork_child();
	agent_thread_start();
}

/* ---- constructor, destructor, exits --------------------------------- */

static void
install(int sig, void (*fn)(int, siginfo_t *, void *), void (*plain)(int))
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
	real_sigaction(sig, &sa, NULL);
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
	ctor_pid = getpid();
	real_usable = (size_t (*)(void *))dlsym(RTLD_NEXT,
	    "malloc_usable_size");
	real_sigaction = (int (*)(int, const struct sigaction *,
	    struct sigaction *))dlsym(RTLD_NEXT, "sigaction");
	real_pthread_sigmask = (int (*)(int, const sigset_t *, sigset_t *))
	    dlsym(RTLD_NEXT, "pthread_sigmask");
	real_dlclose = (int (*)(void *))dlsym(RTLD_NEXT, "dlclose");
	/* Descendants name their files by pid (agent_out_name). */
	if (getenv("PVHEAP_PID") == NULL) {
		*p = '\0';
		v = main_pid;
		do
			*--p = (char)('0' + v % 10);
		while ((v /= 10) != 0);
		setenv("PVHEAP_PID", p, 0);
	}
	if (!agent_opts.quiet)
		err_open();
	snap_init();
	install(agent_opts.stopsig, stop_handler, NULL);
	if (agent_opts.signal != 0)
		install(agent_opts.signal, NULL, trigger_handler);
	pthread_atfork(fork_prepare, fork_parent, fork_child);
	agent_thread_start();
	agent_busy_leave(was);
}

/*
 * The end of the process, on the thread that ends it: the snapshots of
 * the signals received before it (the agent's thread dies with the
 * process, perhaps before it took them), the exit snapshot once, the
 * snapshots of signals that came during it, and the socket goes.
 */
static void
agent_exit_snapshot(void)
{
	char	path[PATH_MAX];

	/*
	 * Once per thread: a signal handler that calls _exit while this
	 * thread is here would wait for the locks it holds.
	 */
	if (agent_state != 2 || tls.exiting)
		return;
	tls.exiting = 1;
	if (agent_opts.signal != 0)
		sig_snapshots();
	if (agent_opts.at_exit &&
	    __atomic_exchange_n(&exit_done, 1, __ATOMIC_ACQ_REL) == 0) {
		if (snap_take(HEAPFMT_AT_EXIT, 0, path, sizeof path) != 0)
			agent_say("%s", path);
		if (agent_opts.signal != 0)
			sig_snapshots();
	}
	sock_remove();
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

/*
 * _exit skips the destructors; memcheck still checks there, so do we.
 * A vfork child shares our memory and must not: its pid is not ours.
 */
EXPORT void
_exit(int status)
{
	if (ctor_pid == 0 || getpid() == ctor_pid)
		agent_exit_snapshot();
	syscall(SYS_exit_group, status);
	for (;;)
		/* not reached */;
}

EXPORT void
_Exit(int status)
{
	_exit(status);
}

unsigned
agent_next_serial(void)
{
	return (++serial);
}

/* ---- threads ---------------------------------------------------------- */

EXPORT int
pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *),
    void *arg)
{
	static int	(*real)(pthread_t *, const pthread_attr_t *,
			    void *(*)(void *), void *);

	if (real == NULL)
		real = (int (*)(pthread_t *, const pthread_attr_t *,
		    void *(*)(void *), void *))dlsym(RTLD_NEXT,
		    "pthread_create");
	/* Not for the agent's own thread: it never writes the tables. */
	if (!tls.agent && agent_state == 2 && !agent_starting)
		__atomic_store_n(&mt, 1, __ATOMIC_SEQ_CST);
	return (real(t, a, fn, arg));
}

/* ---- signals of the program ----------------------------------------- */

/*
 * The stop signal must reach every thread: a mask that blocks it loses
 * it, a handler for it is refused (the agent's stays), like Boehm GC's
 * wrappers.  So is a handler for the --signal trigger.
 */
static const sigset_t *
mask_fix(int how, const sigset_t *set, sigset_t *copy)
{
	if (set == NULL || agent_state != 2 || tls.busy ||
	    (how != SIG_BLOCK && how != SIG_SETMASK) ||
	    !sigismember(set, agent_opts.stopsig))
		return (set);
	*copy = *set;
	sigdelset(copy, agent_opts.stopsig);
	return (copy);
}

EXPORT int
pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	sigset_t	copy;

	if (real_pthread_sigmask == NULL)
		real_pthread_sigmask = (int (*)(int, const sigset_t *,
		    sigset_t *))dlsym(RTLD_NEXT, "pthread_sigmask");
	return (real_pthread_sigmask(how, mask_fix(how, set, &copy), old));
}

EXPORT int
sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	sigset_t	copy;

	if (syscall(SYS_rt_sigprocmask, how, mask_fix(how, set, &copy), old,
	    _NSIG / 8) != 0)
		return (-1);
	return (0);
}

EXPORT int
sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct sigaction	copy;

	if (real_sigaction == NULL)
		real_sigaction = (int (*)(int, const struct sigaction *,
		    struct sigaction *))dlsym(RTLD_NEXT, "sigaction");
	if (act != NULL && agent_state == 2 && !tls.busy) {
		if (sig == agent_opts.stopsig ||
		    (agent_opts.signal != 0 && sig == agent_opts.signal))
			return (real_sigaction(sig, NULL, old));
		if (sigismember(&act->sa_mask, agent_opts.stopsig)) {
			copy = *act;
			sigdelset(&copy.sa_mask, agent_opts.stopsig);
			act = &copy;
		}
	}
	return (real_sigaction(sig, act, old));
}

EXPORT sighandler_t
signal(int sig, sighandler_t fn)
{
	struct sigaction	sa, old;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fn;
	sa.sa_flags = SA_RESTART;
	if (sigaction(sig, &sa, &old) != 0)
		return (SIG_ERR);
	return (old.sa_handler);
}

/*
 * Sleeps that the stop signal interrupts go on sleeping: without this a
 * thread's sleep() would end early at every snapshot.
 */
EXPORT int
clock_nanosleep(clockid_t clk, int flags, const struct timespec *req,
    struct timespec *rem)
{
	struct timespec	left = *req, r;
	unsigned	before;
	long		e;

	for (;;) {
		before = tls.stops;
		e = syscall(SYS_clock_nanosleep, clk, flags, &left, &r);
		if (e == 0)
			return (0);
		e = errno;
		if (e != EINTR || tls.stops == before) {
			if (rem != NULL && e == EINTR && !(flags &
			    TIMER_ABSTIME))
				*rem = r;
			return ((int)e);
		}
		if (!(flags & TIMER_ABSTIME))
			left = r;
	}
}

EXPORT int
nanosleep(const struct timespec *req, struct timespec *rem)
{
	int	e;

	if ((e = clock_nanosleep(CLOCK_REALTIME, 0, req, rem)) != 0) {
		errno = e;
		return (-1);
	}
	return (0);
}

EXPORT unsigned
sleep(unsigned s)
{
	struct timespec	ts = { (time_t)s, 0 }, rem;

	if (nanosleep(&ts, &rem) != 0)
		return ((unsigned)rem.tv_sec + (rem.tv_nsec != 0));
	return (0);
}

EXPORT int
usleep(useconds_t us)
{
	struct timespec	ts = { (time_t)(us / 1000000),
			    (long)(us % 1000000) * 1000 };

	return (nanosleep(&ts, NULL));
}

/* ---- dlclose ----------------------------------------------------------- */

/*
 * A module's code goes with dlclose, but stacks of live blocks may still
 * point into it: keep its path and base so the snapshot can name them.
 */
#define UNLOADED_MAX	256
static struct { char path[PATH_MAX]; uint64_t base; } *unloaded;
static size_t	nunloaded;
static int	unloaded_lock;

EXPORT int
dlclose(void *h)
{
	struct link_map	*lm = NULL;
	int		 was;

	if (real_dlclose == NULL)
		real_dlclose = (int (*)(void *))dlsym(RTLD_NEXT, "dlclose");
	was = agent_busy_enter();
	if (dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm != NULL &&
	    lm->l_name != NULL && lm->l_name[0] == '/') {
		spin_lock(&unloaded_lock);
		if (unloaded == NULL)
			unloaded = agent_mmap(UNLOADED_MAX * sizeof *unloaded);
		if (unloaded != NULL && nunloaded < UNLOADED_MAX) {
			snprintf(unloaded[nunloaded].path, PATH_MAX, "%s",
			    lm->l_name);
			unloaded[nunloaded].base = lm->l_addr;
			nunloaded++;
		}
		spin_unlock(&unloaded_lock);
	}
	agent_busy_leave(was);
	return (real_dlclose(h));
}

/* The unloaded modules, as elf_mod records appended to b. */
void
agent_modules_unloaded(struct abuf *b)
{
	struct elf_mod	*m;
	size_t		 i;

	spin_lock(&unloaded_lock);
	for (i = 0; i < nunloaded; i++) {
		if ((m = abuf_grow(b, sizeof *m)) == NULL)
			break;
		memset(m, 0, sizeof *m);
		snprintf(m->path, sizeof m->path, "%s", unloaded[i].path);
		m->base = unloaded[i].base;
		m->flags = HEAPFMT_MOD_UNLOADED;
	}
	spin_unlock(&unloaded_lock);
}
