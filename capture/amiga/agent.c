/*
 * libpvtrace.so, p2's half inside the program: preloaded by the runner,
 * it maps the shared memory named by PVTRACE_SHM, checks that this
 * process runs the program planned (a child may exec anything), measures
 * its own overhead, builds a trampoline per planned function near the
 * module, and patches the text in memory (the file is never written).
 *
 * It also stands in for the C library's non-local exits so the shadow
 * stack stays true: longjmp and siglongjmp close the frames they jump
 * over, a thrown C++ exception gets the real return addresses back while
 * the unwinder walks them and the catch closes what it unwound, and
 * exit, abort, exec and thread exit close whatever is open.
 */
#include <sys/mman.h>
#include <sys/syscall.h>

#include <alloca.h>
#include <cpuid.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/auxv.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bsearch.h"
#include "capture/amiga/pvtrace.h"

#define AGENT_EXPORT	__attribute__((visibility("default")))
#define AGENT_CAL_BATCH		64	/* calls per batch */
#define AGENT_CAL_BATCHES	301
#define AGENT_CAL_TBATCH	4	/* traps per batch */
#define AGENT_CAL_TBATCHES	41

struct agent_mod {
	uint64_t	 base;		/* load bias */
	int		 done;		/* looked at (patched or refused) */
};

struct agent_trap {
	uint64_t	 addr;
	uint32_t	 idx;
};

static struct {
	const struct pvt_module	*mod;
	const struct pvt_func	*fn;
	const char		*str;
	uint8_t			*fstate;	/* PVT_FS_*, in the shm */
	struct agent_mod	 m[64];
	struct agent_trap	*traps;		/* sorted by address */
	size_t			 ntraps;
	int			 trap_handler;	/* ours is installed */
	struct sigaction	 user_trap;	/* the program's SIGTRAP */
	pthread_key_t		 key;
	int			 cal;		/* attaching calibration slot */
	char			*env_shm;	/* "PVTRACE_SHM=..." */
	char			*env_preload;	/* our LD_PRELOAD entry */
} ag;

uint32_t pvt_xsave_size;
void	(*pvt_cal_leafp)(void);

#define REAL(fn) \
	static __typeof__(&fn) real_##fn; \
	if (real_##fn == NULL) \
		real_##fn = (__typeof__(&fn))dlsym(RTLD_NEXT, #fn)

/* The first error of the run, for the .mon's header. */
static void __attribute__((format(printf, 1, 2)))
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

	if ((s = agent_slot(ag.cal ? PVT_SLOT_CAL : PVT_SLOT_OWNED)) == NULL) {
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
	if (!ag.cal) {
		pthread_setspecific(ag.key, t);
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
	agent_slot_release(s);
	if (t->pg != NULL)
		munmap(t->pg, (size_t)sysconf(_SC_PAGESIZE));
	t->pg = NULL;
	t->seqp = NULL;
	t->busy = 0;
}

/*
 * In a forked child: the thread's slot is the parent's, so take a new
 * one and rebuild the open frames' paths in it (their calls were counted
 * in the parent; their time from now on is the child's).  The perf page
 * was not inherited.
 */
static void
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
	for (i = 0; i < d; i++) {
		if (i == s->fcap && pvt_grow_frames(t) != 0)
			break;
		node = pvt_path_node(t, parent, onodes[ofr[i].node].func);
		if (node == 0)
			break;
		t->fr[i] = ofr[i];
		t->fr[i].node = node;
		parent = node;
		s->depth = i + 1;
	}
	s->last_tsc = old->last_tsc;
	s->last_cpu = pvt_cpu_now(t, pvt_now());
	t->busy = 0;
}

/* Mark the other threads of this process as ending now. */
static void
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

/* Trampolines. */

static void
agent_put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static int
agent_rel32(uint64_t from, uint64_t to, int32_t *out)
{
	int64_t	d = (int64_t)(to - from);

	if (d < INT32_MIN || d > INT32_MAX)
		return (-1);
	*out = (int32_t)d;
	return (0);
}

/* Emit one trampoline at t for f, which lives at fva; 0 or -1. */
static int
agent_tramp(uint8_t *t, uint8_t *area, const struct pvt_func *f,
    uint64_t fva, uint32_t idx)
{
	const struct pvt_insn	*in;
	const uint8_t		*src = f->bytes;
	uint8_t			*o;
	uint64_t		 sva = fva, next, target = 0;
	int32_t			 r, disp;
	size_t			 i;

	if (agent_rel32((uint64_t)t + 6, (uint64_t)area, &r) != 0)
		return (-1);
	t[0] = 0xff;			/* call *area(%rip) */
	t[1] = 0x15;
	agent_put32(t + 2, (uint32_t)r);
	agent_put32(t + 6, idx);
	o = t + PVT_TRAMP_CODE;
	for (i = 0; i < f->ninsn; i++) {
		in = &f->insn[i];
		next = sva + in->len;
		switch (in->kind) {
		case PVT_I_PLAIN:
			memcpy(o, src, in->len);
			o += in->len;
			break;
		case PVT_I_PAD:
			break;		/* the function returned before it */
		case PVT_I_RIP:
			memcpy(o, src, in->len);
			memcpy(&disp, src + in->field, 4);
			target = next + (int64_t)disp;
			if (agent_rel32((uint64_t)o + in->len, target,
			    &r) != 0)
				return (-1);
			agent_put32(o + in->field, (uint32_t)r);
			o += in->len;
			break;
		case PVT_I_JMP8:
		case PVT_I_JMP32:
			if (in->kind == PVT_I_JMP8)
				target = next + (int8_t)src[1];
			else {
				memcpy(&disp, src + 1, 4);
				target = next + (int64_t)disp;
			}
			if (agent_rel32((uint64_t)o + 5, target, &r) != 0)
				return (-1);
			o[0] = 0xe9;
			agent_put32(o + 1, (uint32_t)r);
			o += 5;
			break;
		case PVT_I_JCC8:
		case PVT_I_JCC32:
			if (in->kind == PVT_I_JCC8) {
				o[1] = (uint8_t)(0x80 | (src[0] & 0x0f));
				target = next + (int8_t)src[1];
			} else {
				o[1] = src[1];
				memcpy(&disp, src + 2, 4);
				target = next + (int64_t)disp;
			}
			if (agent_rel32((uint64_t)o + 6, target, &r) != 0)
				return (-1);
			o[0] = 0x0f;
			agent_put32(o + 2, (uint32_t)r);
			o += 6;
			break;
		case PVT_I_CALL:
			/* Push the original return address, then jump. */
			memcpy(&disp, src + 1, 4);
			target = next + (int64_t)disp;
			memcpy(o, "\x48\x8d\x64\x24\xf8", 5);	/* lea -8(%rsp) */
			memcpy(o + 5, "\xc7\x04\x24", 3);	/* movl $lo,(%rsp) */
			agent_put32(o + 8, (uint32_t)next);
			memcpy(o + 12, "\xc7\x44\x24\x04", 4); /* movl $hi,4() */
			agent_put32(o + 16, (uint32_t)(next >> 32));
			if (agent_rel32((uint64_t)o + 25, target, &r) != 0)
				return (-1);
			o[20] = 0xe9;
			agent_put32(o + 21, (uint32_t)r);
			o += 25;
			break;
		default:
			return (-1);
		}
		src += in->len;
		sva = next;
	}
	if (o + 5 > t + PVT_TRAMP_SIZE ||
	    agent_rel32((uint64_t)o + 5, fva + f->len, &r) != 0)
		return (-1);
	o[0] = 0xe9;
	agent_put32(o + 1, (uint32_t)r);
	return (0);
}

/*
 * Room for n trampolines within reach (rel32) of [lo, hi): tried below
 * the module first, then above, up to 1 GB away.  Its first 8 bytes hold
 * pvt_entry's address for the trampolines' indirect calls.
 */
static uint8_t *
agent_area(uint64_t lo, uint64_t hi, size_t n, size_t *sizep)
{
	uint64_t	 pg = (uint64_t)sysconf(_SC_PAGESIZE), d, at;
	size_t		 size = ((n + 1) * PVT_TRAMP_SIZE + pg - 1) & ~(pg - 1);
	void		*p;
	int		 side;

	for (d = (size + (1 << 20)) & ~(uint64_t)((1 << 20) - 1);
	    d < (1ULL << 30); d += 1 << 20) {
		for (side = 0; side < 2; side++) {
			if (side == 0 && lo < d + pg)
				continue;
			at = side == 0 ? (lo - d) & ~(pg - 1) :
			    (hi + d - size + pg - 1) & ~(pg - 1);
			p = mmap((void *)at, size, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			    -1, 0);
			if (p == MAP_FAILED)
				continue;
			if ((uint64_t)p != at) {
				munmap(p, size);
				continue;
			}
			*(uint64_t *)p = (uint64_t)pvt_entry;
			*sizep = size;
			return (p);
		}
	}
	return (NULL);
}

static int
agent_cmp_trap(const void *a, const void *b)
{
	const struct agent_trap	*x = a, *y = b;

	return (x->addr < y->addr ? -1 : x->addr > y->addr);
}

/* Add traps and re-sort; the handler reads the table being replaced. */
static void
agent_add_traps(const struct agent_trap *add, size_t n)
{
	struct agent_trap	*v;

	if (n == 0)
		return;
	v = malloc((ag.ntraps + n) * sizeof *v);
	if (v == NULL)
		return;
	if (ag.ntraps > 0)
		memcpy(v, ag.traps, ag.ntraps * sizeof *v);
	memcpy(v + ag.ntraps, add, n * sizeof *v);
	qsort(v, ag.ntraps + n, sizeof *v, agent_cmp_trap);
	/* The old table stays allocated: a handler may be reading it. */
	__atomic_store_n(&ag.traps, v, __ATOMIC_RELEASE);
	__atomic_store_n(&ag.ntraps, ag.ntraps + n, __ATOMIC_RELEASE);
}

static int
agent_find_trap(uint64_t addr, uint32_t *idx)
{
	const struct agent_trap	*v = __atomic_load_n(&ag.traps,
				    __ATOMIC_ACQUIRE);
	size_t			 n = __atomic_load_n(&ag.ntraps,
				    __ATOMIC_ACQUIRE), i;

	/* One trap an address. */
	BSEARCH_FIRST(i, 0, n, v[i].addr < addr);
	if (i < n && v[i].addr == addr) {
		*idx = v[i].idx;
		return (1);
	}
	return (0);
}

/*
 * A breakpoint: ours is an entry to trace, then the displaced instruction
 * runs from the trampoline.  Anyone else's goes to the program's own
 * handler, or kills the process as it would have without us.
 */
static void
agent_sigtrap(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t	*uc = ucv;
	uint64_t	 rip = (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
	uint32_t	 idx;
	int		 saved = errno;

	if (si->si_code == SI_KERNEL && agent_find_trap(rip - 1, &idx)) {
		if (!ag.cal)
			pvt_stat(PVT_ST_TRAPS, 1);
		pvt_enter(idx, (uint64_t *)uc->uc_mcontext.gregs[REG_RSP],
		    PVT_TRAP);
		uc->uc_mcontext.gregs[REG_RIP] =
		    (greg_t)(pvt_g.tramp[idx] + PVT_TRAMP_CODE);
		errno = saved;
		return;
	}
	if (ag.user_trap.sa_handler != SIG_DFL &&
	    ag.user_trap.sa_handler != SIG_IGN) {
		if (ag.user_trap.sa_flags & SA_SIGINFO)
			ag.user_trap.sa_sigaction(sig, si, ucv);
		else
			ag.user_trap.sa_handler(sig);
		return;
	}
	{
		struct sigaction	dfl;

		REAL(sigaction);
		memset(&dfl, 0, sizeof dfl);
		dfl.sa_handler = SIG_DFL;
		real_sigaction(SIGTRAP, &dfl, NULL);
		raise(SIGTRAP);
	}
}

static void
agent_trap_handler(void)
{
	struct sigaction	sa;

	if (ag.trap_handler)
		return;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = agent_sigtrap;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	REAL(sigaction);
	real_sigaction(SIGTRAP, &sa, &ag.user_trap);
	ag.trap_handler = 1;
}

/* The build-id of a loaded object, from its PT_NOTE segments. */
static int
agent_build_id(const struct dl_phdr_info *info, const uint8_t **id,
    size_t *len)
{
	const ElfW(Nhdr)	*nh;
	const char		*p, *end;
	int			 i;

	for (i = 0; i < info->dlpi_phnum; i++) {
		if (info->dlpi_phdr[i].p_type != PT_NOTE)
			continue;
		p = (const char *)(info->dlpi_addr +
		    info->dlpi_phdr[i].p_vaddr);
		end = p + info->dlpi_phdr[i].p_memsz;
		while (p + sizeof *nh <= end) {
			nh = (const ElfW(Nhdr) *)p;
			p += sizeof *nh + ((nh->n_namesz + 3) & ~3u);
			if (p + nh->n_descsz > end)
				break;
			if (nh->n_type == NT_GNU_BUILD_ID &&
			    nh->n_namesz == 4 &&
			    memcmp((const char *)(nh + 1), "GNU", 4) == 0) {
				*id = (const uint8_t *)p;
				*len = nh->n_descsz;
				return (1);
			}
			p += (nh->n_descsz + 3) & ~3u;
		}
	}
	return (0);
}

/* Patch module mi, loaded at base; 0, or -1 and the state set. */
static int
agent_patch(uint32_t mi, uint64_t base)
{
	const struct pvt_module	*m = &ag.mod[mi];
	const struct pvt_func	*f;
	struct agent_trap	*traps;
	uint8_t			*area, *t;
	uint64_t		 pg = (uint64_t)sysconf(_SC_PAGESIZE), fva, lo, hi;
	size_t			 i, n = 0, ntr = 0, size;
	uint32_t		 idx;

	for (i = 0; i < m->nfunc; i++) {
		f = &ag.fn[m->first + i];
		if (f->how == PVT_OUT)
			continue;
		if (memcmp((void *)(base + f->addr), f->bytes, f->len) != 0) {
			agent_error("%s: the code of %s differs from the"
			    " plan: not patched", ag.str + m->name,
			    ag.str + f->name);
			pvt_g.shm->mod_state[mi] = PVT_MOD_MISMATCH;
			return (-1);
		}
		n++;
	}
	if (n == 0) {
		pvt_g.shm->mod_state[mi] = PVT_MOD_PATCHED;
		return (0);
	}
	lo = base + m->lo;
	hi = base + m->hi;
	if ((area = agent_area(lo, hi, n, &size)) == NULL) {
		agent_error("%s: no room for trampolines within 2 GB of its"
		    " code", ag.str + m->name);
		pvt_g.shm->mod_state[mi] = PVT_MOD_FAILED;
		return (-1);
	}
	if ((traps = calloc(n, sizeof *traps)) == NULL)
		return (-1);
	t = area + PVT_TRAMP_SIZE;
	for (i = 0; i < m->nfunc; i++) {
		f = &ag.fn[m->first + i];
		idx = m->first + (uint32_t)i;
		if (f->how == PVT_OUT)
			continue;
		fva = base + f->addr;
		if (agent_tramp(t, area, f, fva, idx) != 0) {
			pvt_stat(PVT_ST_UNREACH, 1);
			pvt_g.tramp[idx] = 0;
			ag.fstate[idx] = PVT_FS_UNREACH;
		} else {
			pvt_g.tramp[idx] = (uint64_t)t;
			ag.fstate[idx] = PVT_FS_PATCHED;
		}
		t += PVT_TRAMP_SIZE;
	}
	mprotect(area, size, PROT_READ | PROT_EXEC);
	lo &= ~(pg - 1);
	hi = (hi + pg - 1) & ~(pg - 1);
	if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE |
	    PROT_EXEC) != 0) {
		agent_error("%s: cannot make its code writable: %s",
		    ag.str + m->name, strerror(errno));
		pvt_g.shm->mod_state[mi] = PVT_MOD_FAILED;
		free(traps);
		return (-1);
	}
	for (i = 0; i < m->nfunc; i++) {
		f = &ag.fn[m->first + i];
		idx = m->first + (uint32_t)i;
		if (f->how == PVT_OUT || pvt_g.tramp[idx] == 0)
			continue;
		fva = base + f->addr;
		if (f->how == PVT_TRAP) {
			traps[ntr].addr = fva;
			traps[ntr++].idx = idx;
			continue;
		}
		memset((void *)fva, 0xcc, f->len);
		*(uint8_t *)fva = 0xe9;
		agent_put32((uint8_t *)fva + 1, (uint32_t)(pvt_g.tramp[idx] -
		    (fva + 5)));
	}
	if (ntr > 0) {
		agent_add_traps(traps, ntr);
		agent_trap_handler();
		for (i = 0; i < ntr; i++)
			*(uint8_t *)traps[i].addr = 0xcc;
	}
	free(traps);
	mprotect((void *)lo, hi - lo, PROT_READ | PROT_EXEC);
	__builtin___clear_cache((char *)lo, (char *)hi);
	pvt_g.shm->mod_state[mi] = PVT_MOD_PATCHED;
	return (0);
}

struct agent_scan {
	char	 exe[PATH_MAX];
	int	 main_found;
};

static int
agent_scan_one(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct agent_scan	*sc = arg;
	const struct pvt_module	*m;
	const uint8_t		*id;
	char			 path[PATH_MAX];
	const char		*name;
	size_t			 idlen, mi;
	int			 same_path, same_id, has_id;

	(void)size;
	name = info->dlpi_name;
	if (name == NULL || *name == '\0')
		name = sc->exe;
	else if (realpath(name, path) != NULL)
		name = path;
	has_id = agent_build_id(info, &id, &idlen);
	for (mi = 0; mi < pvt_g.shm->nmod; mi++) {
		m = &ag.mod[mi];
		if (ag.m[mi].done)
			continue;
		same_path = strcmp(name, ag.str + m->path) == 0;
		same_id = has_id && m->build_id_len == idlen &&
		    memcmp(id, m->build_id, idlen) == 0;
		if (!same_path && !(same_id && (mi == 0 ?
		    name == sc->exe : 1)))
			continue;
		if (m->build_id_len != 0 && !same_id) {
			ag.m[mi].done = 1;
			pvt_g.shm->mod_state[mi] = PVT_MOD_MISMATCH;
			if (mi != 0)
				agent_error("%s: loaded from %s but not the"
				    " file planned (build-id differs)",
				    ag.str + m->name, name);
			continue;
		}
		ag.m[mi].base = info->dlpi_addr;
		ag.m[mi].done = 2;
		if (mi == 0)
			sc->main_found = 1;
	}
	return (0);
}

/* Patch every planned module that is loaded and not yet looked at. */
static int
agent_patch_loaded(void)
{
	struct agent_scan	sc;
	ssize_t			n;
	uint32_t		mi;

	memset(&sc, 0, sizeof sc);
	n = readlink("/proc/self/exe", sc.exe, sizeof sc.exe - 1);
	if (n > 0)
		sc.exe[n] = '\0';
	dl_iterate_phdr(agent_scan_one, &sc);
	for (mi = 0; mi < pvt_g.shm->nmod; mi++) {
		if (ag.m[mi].done == 2) {
			ag.m[mi].done = 1;
			agent_patch(mi, ag.m[mi].base);
		}
	}
	return (sc.main_found);
}

/* Calibration. */

static int
agent_cmp_i64(const void *a, const void *b)
{
	int64_t	x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x < y ? -1 : x > y);
}

/*
 * Measure one way in: batches of n calls through fn (a trampoline, or
 * the trapped function), each beside a batch of n plain calls so both
 * see the same machine; a is what the called function's own clock saw
 * of the stubs, a + b their whole cost.  Short batches, and the median
 * of many, keep interrupts and the other core's load out of it; the
 * 10th-90th percentile range of a + b is the uncertainty the .mon
 * prints.
 */
static void
agent_cal_one(int how, uint32_t idx, void (*fn)(void), void (*plain)(void),
    uint64_t n, int batches)
{
	struct pvt_thread	*t = &pvt_t;
	struct pvt_shm		*shm = pvt_g.shm;
	int64_t			*c, *a, d0, d1;
	uint64_t		 t0, t1, t2, calls0, self0;
	uint32_t		 node;
	int			 r;

	c = calloc((size_t)batches, sizeof *c);
	a = calloc((size_t)batches, sizeof *a);
	if (c == NULL || a == NULL)
		goto out;
	pvt_cal_loop(n, fn);		/* makes the node, warms up */
	if (t->slot == NULL)
		goto out;
	node = pvt_path_node(t, PVT_ROOT, idx);
	for (r = 0; r < batches; r++) {
		calls0 = t->nodes[node].calls;
		self0 = (uint64_t)t->nodes[node].self;
		t0 = pvt_now();
		pvt_cal_loop(n, plain);
		t1 = pvt_now();
		pvt_cal_loop(n, fn);
		t2 = pvt_now();
		if (t->nodes[node].calls - calls0 != n)
			goto out;	/* not traced: leave 0 */
		d0 = (int64_t)(t1 - t0);
		d1 = (int64_t)(t2 - t1);
		c[r] = (d1 - d0) / (int64_t)n;
		a[r] = ((int64_t)t->nodes[node].self - (int64_t)self0) /
		    (int64_t)n;
	}
	qsort(c, (size_t)batches, sizeof *c, agent_cmp_i64);
	qsort(a, (size_t)batches, sizeof *a, agent_cmp_i64);
	shm->cal_a[how] = a[batches / 2] > 0 ? a[batches / 2] : 0;
	shm->cal_b[how] = c[batches / 2] - shm->cal_a[how] > 0 ?
	    c[batches / 2] - shm->cal_a[how] : 0;
	shm->cal_lo[how] = c[batches / 10];
	shm->cal_hi[how] = c[batches - 1 - batches / 10];
out:
	free(c);
	free(a);
}

/*
 * The same for entries by jump, measured the way they mostly happen: a
 * traced function (pvt_cal_mid) calling a traced one (pvt_cal_leaf)
 * twice.  a is what the inner call's clock saw (its body is one ret), a
 * + b a call's share of the whole cost.  A loop calling from untraced
 * code predicts the returns better and would show less.
 */
static void
agent_cal_nested(uint32_t leaf, uint32_t mid, uint64_t n, int batches)
{
	struct pvt_thread	*t = &pvt_t;
	struct pvt_shm		*shm = pvt_g.shm;
	void			(*tleaf)(void), (*tmid)(void);
	int64_t			*c, *a, d0, d1;
	uint64_t		 t0, t1, t2, calls0, self0;
	uint32_t		 nmid, nleaf;
	int			 r;

	tleaf = (void (*)(void))pvt_g.tramp[leaf];
	tmid = (void (*)(void))pvt_g.tramp[mid];
	c = calloc((size_t)batches, sizeof *c);
	a = calloc((size_t)batches, sizeof *a);
	if (c == NULL || a == NULL)
		goto out;
	pvt_cal_leafp = tleaf;
	pvt_cal_loop(n, tmid);		/* makes the nodes, warms up */
	if (t->slot == NULL)
		goto out;
	nmid = pvt_path_node(t, PVT_ROOT, mid);
	nleaf = pvt_path_node(t, nmid, leaf);
	for (r = 0; r < batches; r++) {
		calls0 = t->nodes[nleaf].calls;
		self0 = (uint64_t)t->nodes[nleaf].self;
		pvt_cal_leafp = pvt_cal_leaf;
		t0 = pvt_now();
		pvt_cal_loop(n, pvt_cal_mid);
		t1 = pvt_now();
		pvt_cal_leafp = tleaf;
		pvt_cal_loop(n, tmid);
		t2 = pvt_now();
		if (t->nodes[nleaf].calls - calls0 != 2 * n)
			goto out;	/* not traced: leave 0 */
		d0 = (int64_t)(t1 - t0);
		d1 = (int64_t)(t2 - t1);
		c[r] = (d1 - d0) / (3 * (int64_t)n);
		a[r] = ((int64_t)t->nodes[nleaf].self - (int64_t)self0) /
		    (2 * (int64_t)n);
	}
	qsort(c, (size_t)batches, sizeof *c, agent_cmp_i64);
	qsort(a, (size_t)batches, sizeof *a, agent_cmp_i64);
	shm->cal_a[PVT_JUMP] = a[batches / 2] > 0 ? a[batches / 2] : 0;
	shm->cal_b[PVT_JUMP] = c[batches / 2] - shm->cal_a[PVT_JUMP] > 0 ?
	    c[batches / 2] - shm->cal_a[PVT_JUMP] : 0;
	shm->cal_lo[PVT_JUMP] = c[batches / 10];
	shm->cal_hi[PVT_JUMP] = c[batches - 1 - batches / 10];
out:
	free(c);
	free(a);
}

static void
agent_calibrate(void)
{
	struct pvt_shm		*shm = pvt_g.shm;
	struct pvt_thread	*t = &pvt_t;
	static struct pvt_func	 fj, ft, fm;
	uint8_t			*area;
	size_t			 size;
	int			 expect = 0, i;
	uint32_t		 nfn = shm->nfn;

	if (!__atomic_compare_exchange_n(&shm->cal_state, &expect, 1, 0,
	    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		for (i = 0; i < 5000 && __atomic_load_n(&shm->cal_state,
		    __ATOMIC_ACQUIRE) != 2; i++)
			usleep(1000);
		return;
	}
	fj.how = PVT_JUMP;
	fj.len = 5;
	fj.ninsn = 1;
	fj.insn[0].len = 5;
	memcpy(fj.bytes, (void *)pvt_cal_leaf, 5);
	fm = fj;
	memcpy(fm.bytes, (void *)pvt_cal_mid, 5);
	ft.how = PVT_TRAP;
	ft.len = 1;
	ft.ninsn = 1;
	ft.insn[0].len = 1;
	ft.bytes[0] = 0x90;
	area = agent_area((uint64_t)pvt_cal_leaf, (uint64_t)pvt_cal_leaf + 64,
	    3, &size);
	if (area == NULL)
		goto done;
	if (agent_tramp(area + PVT_TRAMP_SIZE, area, &fj,
	    (uint64_t)pvt_cal_leaf, nfn) != 0 ||
	    agent_tramp(area + 2 * PVT_TRAMP_SIZE, area, &ft,
	    (uint64_t)pvt_cal_trapped, nfn + 1) != 0 ||
	    agent_tramp(area + 3 * PVT_TRAMP_SIZE, area, &fm,
	    (uint64_t)pvt_cal_mid, nfn + 2) != 0)
		goto done;
	mprotect(area, size, PROT_READ | PROT_EXEC);
	pvt_g.tramp[nfn] = (uint64_t)area + PVT_TRAMP_SIZE;
	pvt_g.tramp[nfn + 1] = (uint64_t)area + 2 * PVT_TRAMP_SIZE;
	pvt_g.tramp[nfn + 2] = (uint64_t)area + 3 * PVT_TRAMP_SIZE;
	agent_add_traps(&(struct agent_trap){ (uint64_t)pvt_cal_trapped,
	    nfn + 1 }, 1);
	agent_trap_handler();

	ag.cal = 1;
	pvt_g.on = 1;
	agent_cal_nested(nfn, nfn + 2, AGENT_CAL_BATCH / 2,
	    AGENT_CAL_BATCHES);
	agent_cal_one(PVT_TRAP, nfn + 1, pvt_cal_trapped,
	    (void (*)(void))((uint8_t *)pvt_g.tramp[nfn + 1] + PVT_TRAMP_CODE),
	    AGENT_CAL_TBATCH, AGENT_CAL_TBATCHES);
	pvt_g.on = 0;
	ag.cal = 0;
	t->slot = NULL;			/* the next event takes a real slot */
	shm->cal_calls = AGENT_CAL_BATCH / 2 * 3 * AGENT_CAL_BATCHES;
	shm->cal_traps = AGENT_CAL_TBATCH * AGENT_CAL_TBATCHES;
done:
	__atomic_store_n(&shm->cal_state, 2, __ATOMIC_RELEASE);
}

static void
agent_xsave_size(void)
{
	unsigned int	a, b, c, d;

	if (__get_cpuid(1, &a, &b, &c, &d) && (c & bit_OSXSAVE) &&
	    __get_cpuid_count(0xd, 0, &a, &b, &c, &d) && b >= 576)
		pvt_xsave_size = b + 64;
	else
		pvt_xsave_size = 0;
}

/*
 * __vdso_clock_gettime, from the vDSO's own dynamic symbol table (the
 * C library's wrapper is not called from the stubs: it is not known to
 * leave the vector registers alone).
 */
static void *
agent_vdso_clock(void)
{
	const ElfW(Ehdr)	*eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	const ElfW(Phdr)	*ph;
	const ElfW(Dyn)		*dyn = NULL;
	const ElfW(Sym)		*sym = NULL;
	const ElfW(Word)	*hash = NULL;
	const char		*str = NULL;
	uintptr_t		 bias = 0;
	ElfW(Word)		 i, n;
	int			 have_load = 0;

	if (eh == NULL)
		return (NULL);
	ph = (const void *)((const char *)eh + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type == PT_LOAD && !have_load) {
			bias = (uintptr_t)eh + ph[i].p_offset - ph[i].p_vaddr;
			have_load = 1;
		} else if (ph[i].p_type == PT_DYNAMIC)
			dyn = (const void *)((const char *)eh +
			    ph[i].p_offset);
	}
	if (dyn == NULL || !have_load)
		return (NULL);
	for (; dyn->d_tag != DT_NULL; dyn++) {
		if (dyn->d_tag == DT_SYMTAB)
			sym = (const void *)(bias + dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_STRTAB)
			str = (const void *)(bias + dyn->d_un.d_ptr);
		else if (dyn->d_tag == DT_HASH)
			hash = (const void *)(bias + dyn->d_un.d_ptr);
	}
	if (sym == NULL || str == NULL || hash == NULL)
		return (NULL);
	n = hash[1];			/* nchain: the number of symbols */
	for (i = 0; i < n; i++) {
		if (ELF64_ST_TYPE(sym[i].st_info) == STT_FUNC &&
		    sym[i].st_shndx != SHN_UNDEF &&
		    strcmp(str + sym[i].st_name, "__vdso_clock_gettime") == 0)
			return ((void *)(bias + sym[i].st_value));
	}
	return (NULL);
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
	if (asprintf(&ag.env_shm, "PVTRACE_SHM=%s", env) < 0)
		ag.env_shm = NULL;
	if ((pre = getenv("LD_PRELOAD")) != NULL)
		ag.env_preload = strndup(pre, strcspn(pre, ": "));
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
	ag.mod = (const struct pvt_module *)(pvt_g.base + shm->mod_off);
	ag.fn = (const struct pvt_func *)(pvt_g.base + shm->fn_off);
	ag.str = pvt_g.base + shm->str_off;
	ag.fstate = (uint8_t *)(pvt_g.base + shm->fn_state_off);
	agent_xsave_size();
	pvt_g.tramp = calloc(shm->nfn + 3, sizeof *pvt_g.tramp);
	if (pvt_g.tramp == NULL)
		return;
	pthread_key_create(&ag.key, agent_thread_end);
	pthread_atfork(NULL, NULL, agent_child);

	/* Another program (a child's exec): stay out of its way. */
	{
		struct agent_scan	sc;
		ssize_t			n;

		memset(&sc, 0, sizeof sc);
		n = readlink("/proc/self/exe", sc.exe, sizeof sc.exe - 1);
		if (n > 0)
			sc.exe[n] = '\0';
		dl_iterate_phdr(agent_scan_one, &sc);
		memset(ag.m, 0, sizeof ag.m);
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
	errno = saved;
}

/*
 * Stand-ins for the C library.  Each does its bookkeeping and calls the
 * real function (the next definition after this library).
 */

/* The stack pointer a jmp_buf restores (glibc's mangled JB_RSP). */
static uint64_t
agent_jb_sp(const void *env)
{
	uint64_t	v = ((const uint64_t *)env)[6], guard;

	__asm__("movq %%fs:0x30, %0" : "=r"(guard));
	v = (v >> 0x11) | (v << (64 - 0x11));
	return (v ^ guard);
}

static void
agent_longjmp(const void *env)
{
	uint64_t	sp = agent_jb_sp(env), here = (uint64_t)&sp;

	if (!pvt_g.on || pvt_t.slot == NULL)
		return;
	/* A target below us, or misaligned, is not a stack pointer. */
	if (sp < here || (sp & 7) != 0)
		return;
	pvt_unwind_below(sp);
}

AGENT_EXPORT void
longjmp(jmp_buf env, int val)
{
	REAL(longjmp);
	agent_longjmp(env);
	real_longjmp(env, val);
	__builtin_unreachable();
}

AGENT_EXPORT void
_longjmp(jmp_buf env, int val)
{
	REAL(_longjmp);
	agent_longjmp(env);
	real__longjmp(env, val);
	__builtin_unreachable();
}

AGENT_EXPORT void
siglongjmp(sigjmp_buf env, int val)
{
	REAL(siglongjmp);
	agent_longjmp(env);
	real_siglongjmp(env, val);
	__builtin_unreachable();
}

void __longjmp_chk(jmp_buf, int) __attribute__((noreturn));
AGENT_EXPORT void
__longjmp_chk(jmp_buf env, int val)
{
	REAL(__longjmp_chk);
	agent_longjmp(env);
	real___longjmp_chk(env, val);
	__builtin_unreachable();
}

/* C++ exceptions: the unwinder must see the real return addresses. */
int _Unwind_RaiseException(void *);
AGENT_EXPORT int
_Unwind_RaiseException(void *e)
{
	REAL(_Unwind_RaiseException);
	if (pvt_g.on) {
		pvt_restore_all();
		pvt_t.unwinding = 1;
	}
	return (real__Unwind_RaiseException(e));
}

int _Unwind_Resume_or_Rethrow(void *);
AGENT_EXPORT int
_Unwind_Resume_or_Rethrow(void *e)
{
	REAL(_Unwind_Resume_or_Rethrow);
	if (pvt_g.on) {
		pvt_restore_all();
		pvt_t.unwinding = 1;
	}
	return (real__Unwind_Resume_or_Rethrow(e));
}

int _Unwind_Backtrace(int (*)(void *, void *), void *);
AGENT_EXPORT int
_Unwind_Backtrace(int (*fn)(void *, void *), void *arg)
{
	int	rv;

	REAL(_Unwind_Backtrace);
	if (pvt_g.on)
		pvt_restore_all();
	rv = real__Unwind_Backtrace(fn, arg);
	if (pvt_g.on)
		pvt_rearm();
	return (rv);
}

/*
 * The handler's landing pad calls this in the catching function's
 * frame: every frame below that function's stack pointer was unwound.
 */
void *__cxa_begin_catch(void *);
AGENT_EXPORT void * __attribute__((noinline))
__cxa_begin_catch(void *e)
{
	REAL(__cxa_begin_catch);
	if (pvt_g.on && pvt_t.slot != NULL) {
		pvt_unwind_below((uint64_t)__builtin_frame_address(0) + 16);
		pvt_rearm();
	}
	pvt_t.unwinding = 0;
	return (real___cxa_begin_catch(e));
}

AGENT_EXPORT void
pthread_exit(void *rv)
{
	REAL(pthread_exit);
	if (pvt_g.on)
		pvt_detach_all(1, PVT_ST_EXITCLOSED);
	real_pthread_exit(rv);
	__builtin_unreachable();
}

static void
agent_exiting(void)
{
	if (!pvt_g.on)
		return;
	pvt_detach_all(0, PVT_ST_EXITCLOSED);
	agent_others_end();
}

AGENT_EXPORT void
exit(int status)
{
	REAL(exit);
	agent_exiting();
	real_exit(status);
	__builtin_unreachable();
}

AGENT_EXPORT void
quick_exit(int status)
{
	REAL(quick_exit);
	agent_exiting();
	real_quick_exit(status);
	__builtin_unreachable();
}

AGENT_EXPORT void
_exit(int status)
{
	REAL(_exit);
	agent_exiting();
	real__exit(status);
	__builtin_unreachable();
}

AGENT_EXPORT void
_Exit(int status)
{
	REAL(_Exit);
	agent_exiting();
	real__Exit(status);
	__builtin_unreachable();
}

AGENT_EXPORT void
abort(void)
{
	REAL(abort);
	agent_exiting();
	real_abort();
	__builtin_unreachable();
}

/* vfork's child would share our bookkeeping with its parent: fork. */
AGENT_EXPORT pid_t
vfork(void)
{
	return (fork());
}

pid_t _Fork(void);
AGENT_EXPORT pid_t
_Fork(void)
{
	pid_t	pid;

	REAL(_Fork);
	pid = real__Fork();
	if (pid == 0)
		agent_child();
	return (pid);
}

/*
 * exec: close this thread's frames (restoring the return addresses, in
 * case the exec fails), date the others', and keep the agent in an
 * environment the program chose.
 */
static char **
agent_env(char *const envp[])
{
	size_t	 n, i, j;
	char	**v, *pre;
	int	 has_shm = 0, has_pre = -1;

	if (ag.env_shm == NULL || envp == NULL)
		return ((char **)envp);
	for (n = 0; envp[n] != NULL; n++) {
		if (strncmp(envp[n], "PVTRACE_SHM=", 12) == 0)
			has_shm = 1;
		else if (strncmp(envp[n], "LD_PRELOAD=", 11) == 0)
			has_pre = (int)n;
	}
	if (has_shm && has_pre >= 0)
		return ((char **)envp);
	if ((v = calloc(n + 3, sizeof *v)) == NULL)
		return ((char **)envp);
	for (i = j = 0; i < n; i++) {
		if ((int)i == has_pre && ag.env_preload != NULL &&
		    strstr(envp[i], ag.env_preload) == NULL &&
		    asprintf(&pre, "LD_PRELOAD=%s:%s", ag.env_preload,
		    envp[i] + 11) >= 0)
			v[j++] = pre;
		else
			v[j++] = envp[i];
	}
	if (has_pre < 0 && ag.env_preload != NULL &&
	    asprintf(&pre, "LD_PRELOAD=%s", ag.env_preload) >= 0)
		v[j++] = pre;
	if (!has_shm)
		v[j++] = ag.env_shm;
	v[j] = NULL;
	return (v);
}

static void
agent_exec(void)
{
	if (!pvt_g.on)
		return;
	pvt_detach_all(1, PVT_ST_EXITCLOSED);
	agent_others_end();
}

AGENT_EXPORT int
execve(const char *path, char *const argv[], char *const envp[])
{
	REAL(execve);
	agent_exec();
	return (real_execve(path, argv, agent_env(envp)));
}

AGENT_EXPORT int
execv(const char *path, char *const argv[])
{
	return (execve(path, argv, environ));
}

AGENT_EXPORT int
execvpe(const char *file, char *const argv[], char *const envp[])
{
	REAL(execvpe);
	agent_exec();
	return (real_execvpe(file, argv, agent_env(envp)));
}

AGENT_EXPORT int
execvp(const char *file, char *const argv[])
{
	return (execvpe(file, argv, environ));
}

AGENT_EXPORT int
fexecve(int fd, char *const argv[], char *const envp[])
{
	REAL(fexecve);
	agent_exec();
	return (real_fexecve(fd, argv, agent_env(envp)));
}

/* The list forms: gather the arguments, then as above. */
#define AGENT_ARGV(first, ap, v, envp) do { \
	size_t	 n_ = 1; \
	va_list	 c_; \
	va_copy(c_, ap); \
	while (va_arg(c_, char *) != NULL) \
		n_++; \
	va_end(c_); \
	v = alloca((n_ + 1) * sizeof *v); \
	v[0] = (char *)(first); \
	for (n_ = 1; (v[n_] = va_arg(ap, char *)) != NULL; n_++) \
		; \
	if (envp != NULL) \
		*(char ***)(envp) = va_arg(ap, char **); \
} while (0)

AGENT_EXPORT int
execl(const char *path, const char *arg, ...)
{
	va_list	  ap;
	char	**v;

	va_start(ap, arg);
	AGENT_ARGV(arg, ap, v, (char ***)NULL);
	va_end(ap);
	return (execve(path, v, environ));
}

AGENT_EXPORT int
execlp(const char *file, const char *arg, ...)
{
	va_list	  ap;
	char	**v;

	va_start(ap, arg);
	AGENT_ARGV(arg, ap, v, (char ***)NULL);
	va_end(ap);
	return (execvpe(file, v, environ));
}

AGENT_EXPORT int
execle(const char *path, const char *arg, ...)
{
	va_list	  ap;
	char	**v, **envp = NULL;

	va_start(ap, arg);
	AGENT_ARGV(arg, ap, v, &envp);
	va_end(ap);
	return (execve(path, v, envp));
}

/*
 * SIGTRAP is the agent's while functions are trapped: the program's
 * handler is kept aside and called for breakpoints that are not ours,
 * and SIGTRAP is never blocked (a blocked int3 kills the process).
 */
AGENT_EXPORT int
sigaction(int sig, const struct sigaction *sa, struct sigaction *old)
{
	struct sigaction	copy;

	REAL(sigaction);
	if (!ag.trap_handler)
		return (real_sigaction(sig, sa, old));
	if (sig == SIGTRAP) {
		if (old != NULL)
			*old = ag.user_trap;
		if (sa != NULL)
			ag.user_trap = *sa;
		return (0);
	}
	if (sa != NULL && sigismember(&sa->sa_mask, SIGTRAP)) {
		copy = *sa;
		sigdelset(&copy.sa_mask, SIGTRAP);
		sa = &copy;
	}
	return (real_sigaction(sig, sa, old));
}

AGENT_EXPORT sighandler_t
signal(int sig, sighandler_t h)
{
	sighandler_t	old;

	REAL(signal);
	if (!ag.trap_handler || sig != SIGTRAP)
		return (real_signal(sig, h));
	old = ag.user_trap.sa_handler;
	memset(&ag.user_trap, 0, sizeof ag.user_trap);
	ag.user_trap.sa_handler = h;
	return (old);
}

static const sigset_t *
agent_mask(int how, const sigset_t *set, sigset_t *copy)
{
	if (!ag.trap_handler || set == NULL || how == SIG_UNBLOCK ||
	    !sigismember(set, SIGTRAP))
		return (set);
	*copy = *set;
	sigdelset(copy, SIGTRAP);
	return (copy);
}

AGENT_EXPORT int
sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	sigset_t	copy;

	REAL(sigprocmask);
	return (real_sigprocmask(how, agent_mask(how, set, &copy), old));
}

AGENT_EXPORT int
pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	sigset_t	copy;

	REAL(pthread_sigmask);
	return (real_pthread_sigmask(how, agent_mask(how, set, &copy), old));
}
