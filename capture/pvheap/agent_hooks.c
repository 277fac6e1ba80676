/*
 * Every function the agent interposes: glibc's and libstdc++'s whole
 * allocator surface, which tracks each block (agent_blocks.c) with its
 * site (agent_sites.c); _exit, for the snapshot at exit; pthread_create,
 * the program's signal masks, handlers and sleeps, for the stop signal;
 * dlclose, for the names of unloaded modules.
 *
 * The per-call cost is the point: one unw_backtrace (libunwind's cached
 * fast path, no frame pointers needed), one lock-free lookup of the stack
 * among the sites, and one insert into the sharded table of live blocks.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "capture/pvheap/agent.h"
#include "capture/pvheap/heapfmt.h"

#define EXPORT	__attribute__((visibility("default")))

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
	while (i < n && (uintptr_t)buf[i] >= agent_self_lo &&
	    (uintptr_t)buf[i] < agent_self_hi)
		i++;
	for (k = 0; i < n && k < agent_opts.depth; i++, k++)
		pc[k] = (uintptr_t)buf[i];
	return (k);
}

/* ---- tracking ------------------------------------------------------ */

static inline void
agent_site_alloc(struct agent_site *s, uint64_t size)
{
	uint64_t	live, peak;

	if (!__atomic_load_n(&agent_mt, __ATOMIC_RELAXED)) {
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
agent_site_free(uint32_t id, uint64_t size)
{
	struct agent_site	*s = agent_site(id);

	if (!__atomic_load_n(&agent_mt, __ATOMIC_RELAXED)) {
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
agent_track(void *p, size_t size)
{
	uintptr_t		 pc[AGENT_MAXDEPTH];
	struct agent_site	*s;
	struct agent_blk	 b;
	int			 n;

	n = agent_stack(pc);
	if ((s = agent_site_get(pc, n)) == NULL)
		return;
	agent_site_alloc(s, size);
	b.addr = (uint64_t)(uintptr_t)p;
	b.size = size;
	if (__atomic_load_n(&agent_mt, __ATOMIC_RELAXED))
		b.seq = __atomic_fetch_add(&agent_seq, 1, __ATOMIC_RELAXED);
	else
		b.seq = agent_seq++;
	b.site = s->id;
	b.tid = (uint32_t)agent_gettid();
	agent_blk_insert(&b);
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
agent_scrub(void *p, uint64_t size)
{
	if (size == 0 || (((const uint64_t *)p)[-1] & 2))
		return;
	memset(p, 0, size);
}

static inline void
agent_scrub_new(void *p, uint64_t size)
{
	if (size <= ZERO_NEW_MAX)
		agent_scrub(p, size);
}

static inline void
agent_untrack(void *p)
{
	struct agent_blk	b;

	if (agent_blk_remove((uint64_t)(uintptr_t)p, &b) == 0) {
		agent_site_free(b.site, b.size);
		agent_scrub(p, b.size);
	}
	else
		__atomic_add_fetch(&agent_frees_unknown, 1, __ATOMIC_RELAXED);
}

/* Enter a hook: 0 if the call must pass through untracked. */
static inline int
agent_enter(void)
{
	if (UNLIKELY(agent_state != 2)) {
		if (agent_tls.busy || agent_state == 1)
			return (0);
		agent_init();
		if (agent_state != 2)
			return (0);
	}
	if (UNLIKELY(agent_tls.busy))
		return (0);
	agent_tls.busy = 1;
	return (1);
}

static inline void
agent_leave(void)
{
	agent_tls.busy = 0;
	/* A stop that came while we were busy parks us now (snap_stop.c). */
	if (UNLIKELY(agent_tls.stop_pending))
		agent_stop_again();
}

EXPORT void *
malloc(size_t n)
{
	void	*p;

	if (!agent_enter())
		return (__libc_malloc(n));
	if ((p = __libc_malloc(n)) != NULL) {
		agent_scrub_new(p, n);
		agent_track(p, n);
	}
	agent_leave();
	return (p);
}

EXPORT void
free(void *p)
{
	if (p == NULL)
		return;
	if (!agent_enter()) {
		__libc_free(p);
		return;
	}
	agent_untrack(p);
	__libc_free(p);
	agent_leave();
}

EXPORT void *
calloc(size_t n, size_t m)
{
	void	*p;

	if (!agent_enter())
		return (__libc_calloc(n, m));
	if ((p = __libc_calloc(n, m)) != NULL)
		agent_track(p, n * m);
	agent_leave();
	return (p);
}

EXPORT void *
realloc(void *p, size_t n)
{
	struct agent_blk	 old;
	void			*q;
	int			 had;

	if (!agent_enter())
		return (__libc_realloc(p, n));
	if (p == NULL) {
		if ((q = __libc_malloc(n)) != NULL) {
			agent_scrub_new(q, n);
			agent_track(q, n);
		}
		agent_leave();
		return (q);
	}
	/* Out of the table first: once glibc has it, p may be reused. */
	had = agent_blk_remove((uint64_t)(uintptr_t)p, &old) == 0;
	q = __libc_realloc(p, n);
	if (q == NULL && n != 0) {
		/* Failed: p is still the program's. */
		if (had)
			agent_blk_insert(&old);
	} else {
		if (had)
			agent_site_free(old.site, old.size);
		else
			__atomic_add_fetch(&agent_frees_unknown, 1,
			    __ATOMIC_RELAXED);
		/* glibc frees p on realloc(p, 0) and returns NULL. */
		if (q != NULL) {
			if (had && n > old.size &&
			    !(((const uint64_t *)q)[-1] & 2))
				memset((char *)q + old.size, 0, n - old.size);
			else if (!had)
				agent_scrub_new(q, n);
			agent_track(q, n);
		}
	}
	agent_leave();
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
agent_aligned(size_t align, size_t n, void *(*fn)(size_t, size_t))
{
	void	*p;

	if (!agent_enter())
		return (fn(align, n));
	if ((p = fn(align, n)) != NULL) {
		agent_scrub_new(p, n);
		agent_track(p, n);
	}
	agent_leave();
	return (p);
}

static void *
agent_libc_valloc2(size_t align, size_t n)
{
	(void)align;
	return (__libc_valloc(n));
}

static void *
agent_libc_pvalloc2(size_t align, size_t n)
{
	(void)align;
	return (__libc_pvalloc(n));
}

EXPORT void *
memalign(size_t align, size_t n)
{
	return (agent_aligned(align, n, __libc_memalign));
}

EXPORT void *
aligned_alloc(size_t align, size_t n)
{
	return (agent_aligned(align, n, __libc_memalign));
}

EXPORT void *
valloc(size_t n)
{
	return (agent_aligned(0, n, agent_libc_valloc2));
}

/* pvalloc rounds the size up to whole pages; so does the block's size. */
EXPORT void *
pvalloc(size_t n)
{
	size_t	pg = (size_t)sysconf(_SC_PAGESIZE);

	return (agent_aligned(0, n != 0 ? (n + pg - 1) & ~(pg - 1) : pg,
	    agent_libc_pvalloc2));
}

EXPORT int
posix_memalign(void **out, size_t align, size_t n)
{
	void	*p;
	int	 e = errno;

	if (align % sizeof (void *) != 0 || (align & (align - 1)) != 0 ||
	    align == 0)
		return (EINVAL);
	p = agent_aligned(align, n, __libc_memalign);
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
	if (agent_real_usable == NULL)
		agent_real_usable = (size_t (*)(void *))dlsym(RTLD_NEXT,
		    "malloc_usable_size");
	return (agent_real_usable != NULL ? agent_real_usable(p) : 0);
}

/*
 * C++.  Success is a tracked malloc; failure goes to libstdc++'s own
 * operator, which runs the new_handler loop and throws std::bad_alloc
 * (its retries come back through our malloc, and are tracked there).
 */
static void *
agent_cxx_fail(const char *name, size_t n, size_t align, int nothrow)
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
agent_cxx_new(size_t n, size_t align, const char *name, int nothrow)
{
	void	*p;

	if (align == 0)
		p = malloc(n);
	else
		p = agent_aligned(align, n, __libc_memalign);
	if (UNLIKELY(p == NULL))
		p = agent_cxx_fail(name, n, align, nothrow);
	return (p);
}

/* Mangled names: _Znwm is operator new(unsigned long), and so on. */
EXPORT void *_Znwm(size_t n)
{ return (agent_cxx_new(n, 0, "_Znwm", 0)); }
EXPORT void *_Znam(size_t n)
{ return (agent_cxx_new(n, 0, "_Znam", 0)); }
EXPORT void *_ZnwmRKSt9nothrow_t(size_t n, const void *t)
{ (void)t; return (agent_cxx_new(n, 0, "_ZnwmRKSt9nothrow_t", 1)); }
EXPORT void *_ZnamRKSt9nothrow_t(size_t n, const void *t)
{ (void)t; return (agent_cxx_new(n, 0, "_ZnamRKSt9nothrow_t", 1)); }
EXPORT void *_ZnwmSt11align_val_t(size_t n, size_t a)
{ return (agent_cxx_new(n, a, "_ZnwmSt11align_val_t", 0)); }
EXPORT void *_ZnamSt11align_val_t(size_t n, size_t a)
{ return (agent_cxx_new(n, a, "_ZnamSt11align_val_t", 0)); }
EXPORT void *_ZnwmSt11align_val_tRKSt9nothrow_t(size_t n, size_t a,
    const void *t)
{ (void)t; return (agent_cxx_new(n, a,
    "_ZnwmSt11align_val_tRKSt9nothrow_t", 1)); }
EXPORT void *_ZnamSt11align_val_tRKSt9nothrow_t(size_t n, size_t a,
    const void *t)
{ (void)t; return (agent_cxx_new(n, a,
    "_ZnamSt11align_val_tRKSt9nothrow_t", 1)); }

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

size_t
agent_usable(void *p)
{
	return (agent_real_usable != NULL ? agent_real_usable(p) : 0);
}


/*
 * _exit skips the destructors; memcheck still checks there, so do we.
 * A vfork child shares our memory and must not: its pid is not ours.
 */
EXPORT void
_exit(int status)
{
	if (agent_ctor_pid == 0 || getpid() == agent_ctor_pid)
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
	if (!agent_tls.agent && agent_state == 2 && !agent_starting)
		__atomic_store_n(&agent_mt, 1, __ATOMIC_SEQ_CST);
	return (real(t, a, fn, arg));
}

/* ---- signals of the program ----------------------------------------- */

/*
 * The stop signal must reach every thread: a mask that blocks it loses
 * it, a handler for it is refused (the agent's stays), like Boehm GC's
 * wrappers.  So is a handler for the --signal trigger.
 */
static const sigset_t *
agent_mask_fix(int how, const sigset_t *set, sigset_t *copy)
{
	if (set == NULL || agent_state != 2 || agent_tls.busy ||
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

	if (agent_real_pthread_sigmask == NULL)
		agent_real_pthread_sigmask = (int (*)(int, const sigset_t *,
		    sigset_t *))dlsym(RTLD_NEXT, "pthread_sigmask");
	return (agent_real_pthread_sigmask(how, agent_mask_fix(how, set, &copy),
	    old));
}

EXPORT int
sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	sigset_t	copy;

	if (syscall(SYS_rt_sigprocmask, how, agent_mask_fix(how, set, &copy),
	    old, _NSIG / 8) != 0)
		return (-1);
	return (0);
}

EXPORT int
sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct sigaction	copy;

	if (agent_real_sigaction == NULL)
		agent_real_sigaction = (int (*)(int, const struct sigaction *,
		    struct sigaction *))dlsym(RTLD_NEXT, "sigaction");
	if (act != NULL && agent_state == 2 && !agent_tls.busy) {
		if (sig == agent_opts.stopsig ||
		    (agent_opts.signal != 0 && sig == agent_opts.signal))
			return (agent_real_sigaction(sig, NULL, old));
		if (sigismember(&act->sa_mask, agent_opts.stopsig)) {
			copy = *act;
			sigdelset(&copy.sa_mask, agent_opts.stopsig);
			act = &copy;
		}
	}
	return (agent_real_sigaction(sig, act, old));
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
		before = agent_tls.stops;
		e = syscall(SYS_clock_nanosleep, clk, flags, &left, &r);
		if (e == 0)
			return (0);
		e = errno;
		if (e != EINTR || agent_tls.stops == before) {
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

	if (agent_real_dlclose == NULL)
		agent_real_dlclose = (int (*)(void *))dlsym(RTLD_NEXT,
		    "dlclose");
	was = agent_busy_enter();
	if (dlinfo(h, RTLD_DI_LINKMAP, &lm) == 0 && lm != NULL &&
	    lm->l_name != NULL && lm->l_name[0] == '/') {
		agent_spin_lock(&unloaded_lock);
		if (unloaded == NULL)
			unloaded = agent_mmap(UNLOADED_MAX * sizeof *unloaded);
		if (unloaded != NULL && nunloaded < UNLOADED_MAX) {
			snprintf(unloaded[nunloaded].path, PATH_MAX, "%s",
			    lm->l_name);
			unloaded[nunloaded].base = lm->l_addr;
			nunloaded++;
		}
		agent_spin_unlock(&unloaded_lock);
	}
	agent_busy_leave(was);
	return (agent_real_dlclose(h));
}

/* The unloaded modules, as elf_mod records appended to b. */
void
agent_modules_unloaded(struct abuf *b)
{
	struct elf_mod	*m;
	size_t		 i;

	agent_spin_lock(&unloaded_lock);
	for (i = 0; i < nunloaded; i++) {
		if ((m = abuf_grow(b, sizeof *m)) == NULL)
			break;
		memset(m, 0, sizeof *m);
		snprintf(m->path, sizeof m->path, "%s", unloaded[i].path);
		m->base = unloaded[i].base;
		m->flags = HEAPFMT_MOD_UNLOADED;
	}
	agent_spin_unlock(&unloaded_lock);
}
