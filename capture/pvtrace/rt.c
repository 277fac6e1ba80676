/*
 * The agent's fast path: what runs at every traced entry and exit.  It
 * is built with -mgeneral-regs-only, so it never touches a vector, x87 or
 * mask register, and the stubs (stubs.S) need only save the general
 * registers around it: arguments in xmm0-7 and return values in xmm0-1 or
 * st0 pass through untouched.  It calls nothing in the C library; the
 * rare slow paths that must go through pvt_xcall, which saves the whole
 * register file.
 *
 * A thread's state is a slot in the shared memory: its shadow stack (one
 * frame per traced activation: where the return address lives, what it
 * was, the clocks at entry) and its call tree (one node per distinct call
 * path, with calls and times).  Counts are made at entry, times at exit;
 * the runner derives functions and call edges from the tree afterwards.
 */
#include <stddef.h>
#include <stdint.h>

#include "capture/pvtrace/pvtrace.h"

#define RT_NR_WRITE		1
#define RT_NR_GETPID		39
#define RT_NR_KILL		62
#define RT_NR_CLOCK_GETTIME	228
#define RT_CLOCK_THREAD_CPUTIME	3
#define RT_SIGABRT		6

_Static_assert(offsetof(struct pvt_thread, inagent) == PVT_THREAD_INAGENT,
    "stubs.S writes inagent at PVT_THREAD_INAGENT");
_Static_assert(offsetof(struct pvt_thread, leaf) == PVT_THREAD_LEAF &&
    offsetof(struct pvt_thread, leaf_ret) == PVT_THREAD_LEAF_RET,
    "a leaf's landing clears leaf and pushes leaf_ret there");

struct pvt_agent	pvt_g;
__thread struct pvt_thread pvt_t __attribute__((tls_model("initial-exec")));

#define rt_barrier()	__asm__ __volatile__("" ::: "memory")

static inline long
rt_syscall3(long n, long a, long b, long c)
{
	long	r;

	__asm__ __volatile__("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b),
	    "d"(c) : "rcx", "r11", "memory");
	return (r);
}

/*
 * The clock: rdtsc, or the vDSO's CLOCK_MONOTONIC where the kernel does
 * not trust the TSC (a VM may step it).  The vDSO is kernel code, built
 * without vector registers like this file.
 */
uint64_t
pvt_now(void)
{
	struct {
		long	sec, nsec;
	}		ts;
	uint32_t	lo, hi;

	if (pvt_g.vclock != NULL) {
		pvt_g.vclock(1, &ts);	/* CLOCK_MONOTONIC */
		return ((uint64_t)ts.sec * 1000000000u + (uint64_t)ts.nsec);
	}
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32 | lo);
}

void
pvt_stat(int which, uint64_t n)
{
	if (pvt_g.shm != NULL && n != 0)
		__atomic_fetch_add(&pvt_g.shm->stat[which], n,
		    __ATOMIC_RELAXED);
}

/* Offset of size fresh bytes of shared memory, 0 when it is full. */
uint64_t
pvt_shm_alloc(uint64_t size)
{
	struct pvt_shm	*shm = pvt_g.shm;
	uint64_t	 off;

	size = (size + 63) & ~(uint64_t)63;
	off = __atomic_fetch_add(&shm->brk, size, __ATOMIC_RELAXED);
	if (off + size > shm->size || off + size < off)
		return (0);
	return (off);
}

/*
 * The thread's CPU clock, in TSC units.  A perf task-clock event's page
 * (mapped at attach) changes its sequence number whenever the kernel
 * switches the thread in or out; while it has not, the thread ran all
 * along and its CPU clock advanced with the TSC.  When it has, the exact
 * figure comes from the kernel (a system call, but only after a switch).
 */
static uint64_t
rt_cpu_resync(struct pvt_thread *t, uint32_t seq)
{
	struct {
		long	sec, nsec;
	}		 ts;
	uint64_t	 ns;

	if (rt_syscall3(RT_NR_CLOCK_GETTIME, RT_CLOCK_THREAD_CPUTIME,
	    (long)&ts, 0) != 0)
		return (t->cpu_base);
	ns = (uint64_t)ts.sec * 1000000000u + (uint64_t)ts.nsec;
	t->cpu_base = (uint64_t)(((unsigned __int128)ns *
	    pvt_g.shm->tsc_per_ns_q32) >> 32);
	t->tsc_base = pvt_now();
	t->seq = seq;
	pvt_stat(PVT_ST_RESYNC, 1);
	return (t->cpu_base);
}

uint64_t
pvt_cpu_now(struct pvt_thread *t, uint64_t tsc)
{
	uint32_t	seq;

	if (t->seqp == NULL)
		return (tsc);
	seq = *t->seqp;
	if (seq == t->seq && (int64_t)(tsc - t->tsc_base) >= 0)
		return (t->cpu_base + (tsc - t->tsc_base));
	return (rt_cpu_resync(t, seq));
}

static inline int
rt_same_stack(const struct pvt_thread *t, uint64_t a, uint64_t b)
{
	if (t->stk_hi == 0)
		return (1);
	return ((a >= t->stk_lo && a < t->stk_hi) ==
	    (b >= t->stk_lo && b < t->stk_hi));
}

/* In the agent's C code: an entry from there is not traced. */
static inline void
rt_busy(struct pvt_thread *t, int v)
{
	t->busy = v;
}

/*
 * The stubs (and the trap handler) mark the whole of an entry or an
 * exit in the agent, so pvt_enter and pvt_leave leave the flag alone:
 * clearing it on their way out would give the stub's last instructions
 * to the program.  The C library's hooks (unwinding, exits) mark their
 * own stretch with these.
 */
static inline int
rt_mark(struct pvt_thread *t)
{
	int	was = t->inagent;

	__atomic_store_n(&t->inagent, 1, __ATOMIC_RELAXED);
	return (was);
}

static inline void
rt_unmark(struct pvt_thread *t, int was)
{
	__atomic_store_n(&t->inagent, was, __ATOMIC_RELAXED);
}

/*
 * What the sampler thread reads of this one: the path on top of the
 * shadow stack (and the flag above).  Relaxed stores: a look that comes
 * a few instructions early or late charges the neighbouring path, which
 * is what sampling means anyway.
 */
static inline void
rt_publish(struct pvt_thread *t, uint32_t depth)
{
	__atomic_store_n(&t->slot->cur, depth > 0 ? t->fr[depth - 1].node :
	    PVT_ROOT, __ATOMIC_RELAXED);
}

static void
rt_close(struct pvt_thread *t, uint32_t i, uint64_t tsc, uint64_t cpu)
{
	uint64_t	back = 0;

	pvt_close(t->fr, i, t->nodes, tsc, cpu, pvt_g.a, pvt_g.b, &back);
	pvt_stat(PVT_ST_BACKWARDS, back);
	if (t->fr[i].leaf != 0) {
		/* Back in the leaf it interrupted (or dead: rt_leaf_dead). */
		t->leaf_ret = t->fr[i].leaf_ret;
		t->leaf_slot = t->fr[i].leaf_slot;
		t->leaf = t->fr[i].leaf;
	}
	rt_barrier();
	t->slot->depth = i;
	rt_publish(t, i);
}

static void
rt_copy(void *dst, const void *src, uint64_t n)
{
	uint64_t	*d = dst;
	const uint64_t	*s = src;

	for (n /= 8; n > 0; n--)
		*d++ = *s++;
}

int
pvt_grow_frames(struct pvt_thread *t)
{
	struct pvt_slot	*s = t->slot;
	uint64_t	 off, cap = (uint64_t)s->fcap * 2;

	if (cap > UINT32_MAX ||
	    (off = pvt_shm_alloc(cap * sizeof *t->fr)) == 0)
		return (-1);
	rt_copy(pvt_g.base + off, t->fr, (uint64_t)s->depth * sizeof *t->fr);
	rt_barrier();
	s->frames = off;
	s->fcap = (uint32_t)cap;
	t->fr = (struct pvt_frame *)(pvt_g.base + off);
	return (0);
}

static inline uint32_t
rt_hash(uint32_t parent, uint32_t func)
{
	uint64_t	k = (uint64_t)parent << 32 | func;

	k *= 0x9e3779b97f4a7c15ULL;
	return ((uint32_t)(k >> 32));
}

static int
rt_grow_nodes(struct pvt_thread *t)
{
	struct pvt_slot	*s = t->slot;
	uint64_t	 off, cap = (uint64_t)s->ncap * 2, hoff, hcap, i;
	uint32_t	*h, k;

	if (cap >= UINT32_MAX ||
	    (off = pvt_shm_alloc(cap * sizeof *t->nodes)) == 0)
		return (-1);
	hcap = cap * 2;
	if ((hoff = pvt_shm_alloc(hcap * sizeof *h)) == 0)
		return (-1);
	rt_copy(pvt_g.base + off, t->nodes, (uint64_t)s->nnode *
	    sizeof *t->nodes);
	h = (uint32_t *)(pvt_g.base + hoff);
	for (i = 1; i < s->nnode; i++) {
		k = rt_hash(t->nodes[i].parent, t->nodes[i].func) &
		    (uint32_t)(hcap - 1);
		while (h[k] != 0)
			k = (k + 1) & (uint32_t)(hcap - 1);
		h[k] = (uint32_t)i;
	}
	rt_barrier();
	s->nodes = off;
	s->hash = hoff;
	s->hmask = (uint32_t)(hcap - 1);
	s->ncap = (uint32_t)cap;
	t->nodes = (struct pvt_node *)(pvt_g.base + off);
	t->hash = h;
	return (0);
}

/* The node for func called under parent, made if new; 0 if no memory. */
uint32_t
pvt_path_node(struct pvt_thread *t, uint32_t parent, uint32_t func)
{
	struct pvt_slot	*s = t->slot;
	struct pvt_node	*n;
	uint32_t	 c, h, i;

	c = t->nodes[parent].last_child;
	if (c != 0 && t->nodes[c].func == func)
		return (c);
	h = rt_hash(parent, func) & s->hmask;
	while ((i = t->hash[h]) != 0) {
		n = &t->nodes[i];
		if (n->parent == parent && n->func == func) {
			t->nodes[parent].last_child = i;
			return (i);
		}
		h = (h + 1) & s->hmask;
	}
	if (s->nnode == s->ncap) {
		if (rt_grow_nodes(t) != 0)
			return (0);
		h = rt_hash(parent, func) & s->hmask;
		while (t->hash[h] != 0)
			h = (h + 1) & s->hmask;
	}
	i = s->nnode;
	n = &t->nodes[i];
	n->parent = parent;
	n->func = func;
	n->last_child = 0;
	n->calls = 0;
	n->self = n->total = n->self_cpu = n->total_cpu = 0;
	rt_barrier();
	t->hash[h] = i;
	s->nnode = i + 1;
	t->nodes[parent].last_child = i;
	return (i);
}

/*
 * A return address nobody saved: the program moved a return address the
 * agent had swapped (a coroutine switch, a hand-made stack).  There is
 * nowhere to return to.
 */
static void __attribute__((noreturn))
rt_lost(void)
{
	static const char msg[] = "pvtrace: a traced function returned to"
	    " a frame the agent does not know (stack switched?); stopping\n";

	rt_syscall3(RT_NR_WRITE, 2, (long)msg, sizeof msg - 1);
	for (;;)
		rt_syscall3(RT_NR_KILL, rt_syscall3(RT_NR_GETPID, 0, 0, 0),
		    RT_SIGABRT, 0);
}

/* Function idx's landing, where its trampoline has it return. */
static inline uint64_t
rt_land(uint32_t idx)
{
	return (pvt_g.tramp[idx] + PVT_TRAMP_LAND);
}

/* The live leaf's landing (its mark names a node, not the root). */
static inline uint64_t
rt_leaf_land(const struct pvt_thread *t)
{
	return (rt_land(t->nodes[(uint32_t)t->leaf].func));
}

/*
 * What the agent put in frame f's return address: its trampoline's
 * landing when entered by a jump (the trampoline put that on the return
 * stack buffer), pvt_exit when by a trap (nothing was).
 */
static uint64_t
rt_exit_of(const struct pvt_thread *t, const struct pvt_frame *f)
{
	if (f->how == PVT_JUMP)
		return (rt_land(t->nodes[f->node].func));
	return ((uint64_t)pvt_exit);
}

/*
 * Whether the live leaf has gone, the stack at sp now: at or above its
 * return address, on its stack.  Only a signal handler's longjmp leaves
 * a leaf but through its landing; a handler's calls, below it or on an
 * alternate stack, find it live.
 */
static inline int
rt_leaf_dead(const struct pvt_thread *t, uint64_t sp)
{
	return (t->leaf != 0 && t->leaf_slot <= sp &&
	    rt_same_stack(t, t->leaf_slot, sp));
}

static inline void
rt_leaf_clear(struct pvt_thread *t)
{
	__atomic_store_n(&t->leaf, 0, __ATOMIC_RELAXED);
	t->leaf_slot = 0;
}

/* The clocks, read once an entry needs them (a leaf's seldom does). */
static inline void
rt_clocks(struct pvt_thread *t, uint64_t *tsc, uint64_t *cpu, int *have)
{
	if (!*have) {
		*tsc = pvt_now();
		*cpu = pvt_cpu_now(t, *tsc);
		*have = 1;
	}
}

/* rt_enter's kinds of leaf: none, one with a landing, a whole copy. */
#define RT_LEAF_LAND	1
#define RT_LEAF_COPY	2

/*
 * Entry of function idx, whose return address is at *slotp; how is the
 * way it was reached (a jump or a trap).  Called with the thread's own
 * register state saved by the stub or the signal frame.  A leaf (it
 * calls nothing) gets no frame: its call is counted on its path, and
 * the thread marked as in it (pvt_thread.leaf) until its landing, or
 * for a whole copy until the copy's end, its return address left alone.
 * Returns 1 when it marked the thread in the leaf.
 */
static int
rt_enter(uint32_t idx, uint64_t *slotp, int how, int leaf)
{
	struct pvt_thread	*t = &pvt_t;
	struct pvt_slot		*s;
	struct pvt_frame	*f;
	uint64_t		 tsc = 0, cpu = 0, ra, orig, sp = (uint64_t)slotp;
	uint32_t		 d, k, parent, node;
	int			 clk = 0, stash = 0, marked = 0;

	if (t->busy) {
		pvt_stat(PVT_ST_MISSED, 1);
		return (0);
	}
	if (!pvt_g.on)
		return (0);
	rt_busy(t, 1);
	/*
	 * Before any other store of the entry's.  A look from another CPU
	 * that reads this count, the flag, the leaf and the path twice and
	 * finds all four unchanged knows the thread held still between
	 * (agent_samp.c); the last three alone come back to their values
	 * after a return and a call of the same function.
	 */
	__atomic_store_n(&t->entries, t->entries + 1, __ATOMIC_RELAXED);
	if (t->slot == NULL && pvt_xcall(pvt_g.attach, t) != 0)
		goto out;
	s = t->slot;
	if (t->leaf != 0) {
		/*
		 * A leaf's jump to its own entry: a loop, its landing
		 * still in the slot.  A new call of it puts a return
		 * address there: it was left without its landing (an
		 * untraced handler's setcontext), and the mark is dead.
		 */
		if (t->leaf_slot == sp && leaf &&
		    t->nodes[(uint32_t)t->leaf].func == idx &&
		    *slotp == rt_land(idx)) {
			t->nodes[(uint32_t)t->leaf].calls++;
			pvt_stat(PVT_ST_SELFJUMPS, 1);
			goto out;
		}
		if (rt_leaf_dead(t, sp)) {
			if (t->leaf_slot == sp && (uint32_t)t->leaf != 0 &&
			    *slotp == rt_leaf_land(t))
				*slotp = t->leaf_ret;	/* never left */
			rt_leaf_clear(t);
		} else if (leaf) {
			/*
			 * A signal handler's leaf while a leaf runs: its
			 * call counted, its time the interrupted one's
			 * (leaf_ret is taken).
			 */
			d = s->depth;
			parent = d > 0 ? t->fr[d - 1].node : PVT_ROOT;
			if ((node = pvt_path_node(t, parent, idx)) != 0)
				t->nodes[node].calls++;
			goto out;
		} else
			stash = 1;
	}
	if (!leaf)
		rt_clocks(t, &tsc, &cpu, &clk);
	d = s->depth;
	ra = *slotp;
	for (k = d; k > 0 && t->fr[k - 1].slot != sp; k--)
		;
	if (ra == (uint64_t)pvt_exit && (k == 0 ||
	    ra != rt_exit_of(t, &t->fr[k - 1]))) {
		pvt_stat(PVT_ST_MISSED, 1);
		goto out;
	}
	if (k > 0 && ra == rt_exit_of(t, &t->fr[k - 1])) {
		/* Reached by a jump from a traced function. */
		if (d > k)
			rt_clocks(t, &tsc, &cpu, &clk);
		while (d > k) {
			rt_close(t, --d, tsc, cpu);
			pvt_stat(PVT_ST_ABANDONED, 1);
		}
		if (t->nodes[t->fr[d - 1].node].func == idx) {
			/*
			 * A jump to its own entry: a self tail call, or a
			 * loop back to the top.  A call to count (callgrind
			 * counts it too), but the activation goes on: a new
			 * frame each time would grow without bound.
			 */
			t->nodes[t->fr[d - 1].node].calls++;
			pvt_stat(PVT_ST_SELFJUMPS, 1);
			goto out;
		}
		/*
		 * Its own frame on the same slot, returning to the tail
		 * caller's exit, which then closes that one: one exit a
		 * frame keeps the return stack buffer's pushes and pops
		 * paired.
		 */
		pvt_stat(PVT_ST_TAILCALLS, 1);
		orig = ra;
		parent = t->fr[d - 1].node;
	} else {
		/* Frames at or below this one's return address are dead. */
		while (d > 0 && t->fr[d - 1].slot <= sp &&
		    rt_same_stack(t, t->fr[d - 1].slot, sp)) {
			rt_clocks(t, &tsc, &cpu, &clk);
			rt_close(t, --d, tsc, cpu);
			pvt_stat(t->unwinding ? PVT_ST_UNWOUND :
			    PVT_ST_ABANDONED, 1);
		}
		orig = ra;
		parent = d > 0 ? t->fr[d - 1].node : PVT_ROOT;
	}
	/*
	 * A frame closed here puts back the leaf it interrupted (rt_close):
	 * left with it by a way out the agent does not hear of (a handler's
	 * setcontext), that leaf is as dead as the frame.  Kept, its mark
	 * had the sampler charge what ran next to it, and this function's
	 * entry at its slot taken for its jump to its own entry.
	 */
	if (rt_leaf_dead(t, sp))
		rt_leaf_clear(t);
	if (leaf) {
		if ((node = pvt_path_node(t, parent, idx)) == 0) {
			pvt_stat(PVT_ST_NOMEM, 1);
			goto clocks;
		}
		t->nodes[node].calls++;
		/*
		 * The slot, a copy's too: an entry at or above it finds
		 * the mark dead (rt_leaf_dead) if the leaf was left by
		 * a handler's longjmp.
		 */
		t->leaf_slot = sp;
		if (leaf == RT_LEAF_LAND) {
			t->leaf_ret = orig;
			*slotp = rt_land(idx);
		}
		__atomic_store_n(&t->leaf, PVT_LEAF_LIVE | node,
		    __ATOMIC_RELAXED);
		marked = 1;
		goto clocks;
	}
	if ((node = pvt_path_node(t, parent, idx)) == 0 ||
	    (d == s->fcap && pvt_grow_frames(t) != 0)) {
		pvt_stat(PVT_ST_NOMEM, 1);
		goto out;
	}
	f = &t->fr[d];
	f->slot = sp;
	f->ret = orig;
	f->t0 = tsc;
	f->c0 = cpu;
	f->cw = f->ccw = 0;
	f->ob = f->oc = pvt_g.a[how];
	f->node = node;
	f->how = (uint16_t)how;
	f->flags = 0;
	f->leaf = f->leaf_ret = f->leaf_slot = 0;
	if (stash) {
		/* A signal handler's call in a leaf: the leaf waits. */
		f->leaf = t->leaf;
		f->leaf_ret = t->leaf_ret;
		f->leaf_slot = t->leaf_slot;
		rt_leaf_clear(t);
	}
	t->nodes[node].calls++;
	rt_barrier();
	s->depth = d + 1;
	rt_publish(t, d + 1);
	*slotp = rt_exit_of(t, f);
clocks:
	if (clk) {
		s->last_tsc = tsc;
		s->last_cpu = cpu;
	}
out:
	rt_busy(t, 0);
	return (marked);
}

void
pvt_enter(uint32_t idx, uint64_t *slotp, int how)
{
	rt_enter(idx, slotp, how, 0);
}

/* From the trampoline: its index is just before its call. */
void
pvt_enter_jump(uint64_t *tret)
{
	uint32_t	idx = *(const uint32_t *)(*tret - PVT_TRAMP_RET);
	int		leaf = 0;

	if (idx & PVT_TRAMP_COPY)
		leaf = RT_LEAF_COPY;
	else if (idx & PVT_TRAMP_LEAF)
		leaf = RT_LEAF_LAND;
	/*
	 * A whole copy's end clears the mark, which is another's when
	 * this entry made none (a handler's leaf inside a leaf, an entry
	 * from the agent): the copy that leaves it alone runs instead.
	 */
	if (rt_enter(idx & ~(PVT_TRAMP_LEAF | PVT_TRAMP_COPY), tret + 1,
	    PVT_JUMP, leaf) == 0 && leaf == RT_LEAF_COPY)
		*tret += PVT_TRAMP_CODE - PVT_TRAMP_RET;
}

/*
 * A traced function returned to its exit; sp is the stack pointer after
 * its ret.  Close its frame (and any left above it by a non-local exit
 * nobody reported) and give the stub the return address it had, which
 * is the exit of the function that tail-called it, if one did.
 */
uint64_t
pvt_leave(uint64_t *sp)
{
	struct pvt_thread	*t = &pvt_t;
	struct pvt_slot		*s = t->slot;
	uint64_t		 tsc, cpu, ret = 0, slot = (uint64_t)(sp - 1);
	uint32_t		 d, k;
	int			 busy = t->busy;

	if (s == NULL)
		rt_lost();
	rt_busy(t, 1);
	tsc = pvt_now();
	cpu = pvt_cpu_now(t, tsc);
	d = s->depth;
	for (k = d; k > 0 && t->fr[k - 1].slot != slot; k--)
		;
	if (k == 0)
		rt_lost();
	while (d > k) {
		rt_close(t, --d, tsc, cpu);
		pvt_stat(t->unwinding ? PVT_ST_UNWOUND : PVT_ST_ABANDONED, 1);
	}
	ret = t->fr[d - 1].ret;
	rt_close(t, --d, tsc, cpu);
	/*
	 * A frame closed above this one put back the leaf it interrupted,
	 * which went with it (a handler's setcontext, rt_enter's case):
	 * kept, it had the sampler charge the caller's time to it until
	 * the next entry.  This frame's own leaf, if it stashed one, runs
	 * above its slot and stays.
	 */
	if (rt_leaf_dead(t, slot))
		rt_leaf_clear(t);
	s->last_tsc = tsc;
	s->last_cpu = cpu;
	rt_busy(t, busy);
	return (ret);
}

/*
 * A non-local exit (longjmp, a caught exception) leaves the stack at sp:
 * every frame whose return address lies below it is gone.  Frames on
 * another stack (a signal handler's, say) above them went too.
 */
void
pvt_unwind_below(uint64_t sp)
{
	struct pvt_thread	*t = &pvt_t;
	struct pvt_slot		*s = t->slot;
	uint64_t		 tsc, cpu;
	uint32_t		 d;
	int			 was;

	if (s == NULL || !pvt_g.on)
		return;
	was = rt_mark(t);
	rt_busy(t, 1);
	tsc = pvt_now();
	cpu = pvt_cpu_now(t, tsc);
	d = s->depth;
	while (d > 0 && (t->fr[d - 1].slot < sp ||
	    !rt_same_stack(t, t->fr[d - 1].slot, sp))) {
		rt_close(t, --d, tsc, cpu);
		pvt_stat(PVT_ST_UNWOUND, 1);
	}
	if (t->leaf != 0 && t->leaf_slot < sp &&
	    rt_same_stack(t, t->leaf_slot, sp))
		rt_leaf_clear(t);
	s->last_tsc = tsc;
	s->last_cpu = cpu;
	rt_busy(t, 0);
	rt_unmark(t, was);
}

/* Put the original return addresses back (an unwinder will read them). */
void
pvt_restore_all(void)
{
	struct pvt_thread	*t = &pvt_t;
	uint32_t		 i;

	if (t->slot == NULL)
		return;
	if (t->leaf != 0 && (uint32_t)t->leaf != PVT_ROOT &&
	    *(uint64_t *)t->leaf_slot == rt_leaf_land(t)) {
		*(uint64_t *)t->leaf_slot = t->leaf_ret;
		t->leaf_restored = 1;
	}
	/* From the top: tail calls share a slot, the last one's exit in it. */
	for (i = t->slot->depth; i-- > 0; ) {
		if (*(uint64_t *)t->fr[i].slot == rt_exit_of(t, &t->fr[i])) {
			*(uint64_t *)t->fr[i].slot = t->fr[i].ret;
			t->fr[i].flags |= PVT_FR_RESTORED;
		}
	}
}

/* Swap them again in the frames that are still there. */
void
pvt_rearm(void)
{
	struct pvt_thread	*t = &pvt_t;
	uint32_t		 i;

	if (t->slot == NULL)
		return;
	if (t->leaf_restored && t->leaf != 0 &&
	    *(uint64_t *)t->leaf_slot == t->leaf_ret)
		*(uint64_t *)t->leaf_slot = rt_leaf_land(t);
	t->leaf_restored = 0;
	for (i = 0; i < t->slot->depth; i++) {
		if ((t->fr[i].flags & PVT_FR_RESTORED) &&
		    *(uint64_t *)t->fr[i].slot == t->fr[i].ret)
			*(uint64_t *)t->fr[i].slot = rt_exit_of(t, &t->fr[i]);
		t->fr[i].flags &= ~PVT_FR_RESTORED;
	}
}

/*
 * The thread leaves for good (exit, exec, thread exit): close every open
 * frame now; with restore, put the return addresses back, for an exec
 * that may fail or an unwinder that will walk them.
 */
void
pvt_detach_all(int restore, int stat)
{
	struct pvt_thread	*t = &pvt_t;
	struct pvt_slot		*s = t->slot;
	uint64_t		 tsc, cpu;
	uint32_t		 d;
	int			 was;

	if (s == NULL)
		return;
	was = rt_mark(t);
	rt_busy(t, 1);
	tsc = pvt_now();
	cpu = pvt_cpu_now(t, tsc);
	if (restore)
		pvt_restore_all();
	for (d = s->depth; d > 0; d--) {
		rt_close(t, d - 1, tsc, cpu);
		pvt_stat(stat, 1);
	}
	rt_leaf_clear(t);	/* after the closes, which may put one back */
	s->last_tsc = tsc;
	s->last_cpu = cpu;
	rt_busy(t, 0);
	rt_unmark(t, was);
}
