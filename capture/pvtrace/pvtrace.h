/*
 * pvtrace: Rokicki's p1/p2 trap profiler (Amiga, 1986) for x86-64 Linux
 * ELF executables.  p1 ("pvtrace plan") reads the symbol table, decodes
 * each function's first instructions and plans a jump to a trampoline or
 * a breakpoint at its entry; p2 ("pvtrace -- PROG") runs the program with
 * libpvtrace.so preloaded, which applies the plan in memory, catches exits
 * by return-address substitution and counts into memory shared with the
 * runner, which writes PROG.mon.
 *
 * This is the one header of capture/pvtrace: the plan, the shared-memory
 * layout both sides read and write, and the functions between the files.
 * Everything in the shared memory is addressed by offset, because the
 * runner and each traced process map it at different addresses.
 */
#ifndef PVTRACE_H
#define PVTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "outfile.h"

#define PVT_VERSION	1
/*
 * The .mon's own version: 3 adds the sampler's [samples] and header
 * lines, 2 writes [paths] as a tree (parent number and function), 1 wrote
 * each path in full; -a reads them all.
 */
#define PVT_MON_VERSION	3
#define PVT_RATE_DEFAULT 1000	/* samples a second per thread */

/* How a function's entry is trapped. */
enum pvt_how {
	PVT_JUMP,	/* a jmp to its trampoline over the first insns */
	PVT_TRAP,	/* an int3, serviced by the agent's SIGTRAP handler */
	PVT_OUT,	/* left out, with a reason */
	/*
	 * A GOT slot the module's calls of a library function go through,
	 * pointed at its trampoline: caught at the caller's side, as the C
	 * library cannot be patched.
	 */
	PVT_PLT
};
#define PVT_NHOW	4

/* What the relocation of one displaced instruction must adjust. */
enum pvt_ik {
	PVT_I_PLAIN,	/* copied as is */
	PVT_I_RIP,	/* a disp32 relative to the next instruction */
	PVT_I_JMP8,	/* EB rel8: becomes E9 rel32 */
	PVT_I_JMP32,	/* E9 rel32 */
	PVT_I_JCC8,	/* 7x rel8: becomes 0F 8x rel32 */
	PVT_I_JCC32,	/* 0F 8x rel32 */
	PVT_I_CALL,	/* E8 rel32: pushes the original return address */
	PVT_I_PAD	/* fill after the function: never run, not copied */
};

#define PVT_REGION_MAX	24	/* bytes displaced at most */
#define PVT_INSN_MAX	8	/* instructions displaced at most */
/*
 * One trampoline: the function's index (its top bit set for a leaf);
 * "in the agent" set and the call of pvt_entry; a call over the landing,
 * which leaves the landing's address on top of the return stack buffer;
 * the landing, where the function returns to: for a function, "in the
 * agent" set and a jump to pvt_exit_ret; for a leaf, its real return
 * address pushed back, "in a leaf" cleared, a fence, "in the agent"
 * cleared and a ret; the call's stack copy dropped, a fence, and "in
 * the agent" cleared; the displaced code; the jump back.  144 bytes,
 * a multiple of 16, with room for the displaced code's growth when
 * moved.  See agent_tramp() and stubs.S.
 */
#define PVT_TRAMP_SIZE	144
#define PVT_TRAMP_ENTRY	4	/* where a patched function jumps to */
#define PVT_TRAMP_RET	19	/* pvt_entry returns here: the push */
#define PVT_TRAMP_LAND	24	/* where the function returns to */
#define PVT_TRAMP_LANDSZ 47	/* the longer landing, a leaf's */
#define PVT_TRAMP_PAD	8	/* after the fence: nops, or two leas */
#define PVT_TRAMP_CODE	87	/* where the displaced code starts */
#define PVT_TRAMP_LEAF	0x80000000u	/* in the index: a leaf's */
/*
 * A whole-copy leaf's trampoline (PVT_F_COPY) instead: the index, with
 * PVT_TRAMP_LEAF and PVT_TRAMP_COPY; "in the agent" set and the call of
 * pvt_entry as above; a fence and two leas; "in the agent" cleared; the
 * function's body without its ret; "in a leaf" cleared and a ret.  At
 * PVT_TRAMP_CODE, where pvt_entry returns when it did not mark the leaf
 * (a handler's leaf inside another's), the body again and a bare ret.
 */
#define PVT_TRAMP_COPY	0x40000000u	/* in the index: a whole copy's */
#define PVT_TRAMP_CBODY	39	/* where a whole copy's body starts */
#define PVT_JMP_LEN	5	/* e9 rel32 */

struct pvt_insn {
	uint8_t		len;
	uint8_t		kind;		/* enum pvt_ik */
	uint8_t		field;		/* PVT_I_RIP: offset of the disp32 */
};

/* A function of the plan (in memory and, flattened, in shared memory). */
struct pvt_func {
	uint64_t	addr;		/* link-time address (st_value) */
	uint64_t	size;		/* PVT_PLT: its GOT slot's, and 0 */
	uint32_t	module;
	uint8_t		how;		/* enum pvt_how */
	uint8_t		len;		/* bytes displaced */
	uint8_t		ninsn;
	uint8_t		flags;		/* PVT_F_* */
	struct pvt_insn	insn[PVT_INSN_MAX];
	uint8_t		bytes[PVT_REGION_MAX];	/* the originals */
	uint32_t	name;		/* offset in the string table */
	uint32_t	reason;		/* PVT_OUT, or why a trap: a string */
};

#define PVT_THREAD_INAGENT 0	/* offsetof(struct pvt_thread, inagent) */
#define PVT_THREAD_LEAF	8	/* offsetof(struct pvt_thread, leaf) */
#define PVT_THREAD_LEAF_RET 16	/* offsetof(struct pvt_thread, leaf_ret) */
#define PVT_LEAF_LIVE	(1ULL << 32)	/* in pvt_thread.leaf */

#define PVT_F_DYNSYM	0x01	/* named from .dynsym (no .symtab) */
#define PVT_F_SIZED	0x02	/* size inferred: the symbol had none */
#define PVT_F_PADDED	0x04	/* the jump runs into the fill after it */
#define PVT_F_GOT	0x08	/* a GOT slot: a library function called
				   from the module (planned PVT_PLT or out) */
#define PVT_F_LEAF	0x10	/* jumped, and a leaf: it calls nothing and
				   jumps nowhere outside itself */
#define PVT_F_COPY	0x20	/* a leaf displaced whole: straight-line,
				   ending in its one ret; it runs in a copy
				   in its trampoline */

/* A module: the executable or a library named with --lib. */
struct pvt_module {
	uint32_t	path;		/* string: absolute path */
	uint32_t	name;		/* string: unique short name */
	uint32_t	first, nfunc;	/* its functions in the table */
	uint8_t		type;		/* ET_EXEC or ET_DYN */
	uint8_t		build_id_len;
	uint8_t		build_id[32];
	uint64_t	file_size;
	uint64_t	lo, hi;		/* link-time extent of its text */
};

/* p1's result, and what the runner reads back from a .pdt. */
struct pvt_plan {
	struct pvt_module	*mod;
	size_t			 nmod;
	struct pvt_func		*fn;
	size_t			 nfn;
	char			*str;		/* string table */
	size_t			 nstr, capstr;
	size_t			 counts[PVT_NHOW]; /* by enum pvt_how */
	size_t			 nleaf;		/* functions with PVT_F_LEAF */
	int			 leaves;	/* the .pdt's count: -1 planned
						   with --no-leaf, -2 before
						   leaves were planned */
};

/*
 * The shared memory.  One memfd, reserved sparse and never moved; a bump
 * allocator hands out offsets.  The runner fills the header and the plan,
 * the agents add slots (one per live thread; a slot outlives its thread
 * and the next thread reuses it, so counters only ever add up).
 */
#define PVT_SHM_MAGIC	0x31304d4853545650ULL	/* "PVTSHM01" */
#define PVT_SHM_RESERVE	(16ULL << 30)
#define PVT_ROOT	0		/* the call tree's root node */
#define PVT_NOFUNC	0xffffffffu

enum pvt_slot_state { PVT_SLOT_FREE, PVT_SLOT_OWNED, PVT_SLOT_CAL };

/* Statistics the agents count (atomically) for the .mon's header. */
enum pvt_stat {
	PVT_ST_PROCESSES,	/* processes that applied the plan */
	PVT_ST_INERT,		/* processes running another program */
	PVT_ST_THREADS,		/* threads that took a slot */
	PVT_ST_TRAPS,		/* entries through int3 */
	PVT_ST_TAILCALLS,	/* entries by a jump from a traced function */
	PVT_ST_SELFJUMPS,	/* jumps back to a function's own entry */
	PVT_ST_UNWOUND,		/* frames closed by longjmp or an exception */
	PVT_ST_ABANDONED,	/* frames found dead at a later entry/exit */
	PVT_ST_EXITCLOSED,	/* frames closed by exit, exec, thread exit */
	PVT_ST_KILLCLOSED,	/* frames the runner closed after a death */
	PVT_ST_MISSED,		/* entries in the agent's own code (signal) */
	PVT_ST_NOMEM,		/* entries lost: shared memory full */
	PVT_ST_BACKWARDS,	/* clock deltas below zero, taken as 0 */
	PVT_ST_RESYNC,		/* CPU clock reads after a context switch */
	PVT_ST_UNREACH,		/* functions a trampoline could not reach */
	PVT_ST_SAMPLOST,	/* looks lost: shared memory full */
	PVT_ST_REMOTE,		/* looks from another CPU (agent_samp.c) */
	PVT_ST_COUNT
};

/*
 * What the sampler adds up per call path (struct pvt_samp) and, for the
 * looks that found a thread inside the agent, in the header (probe).
 */
enum pvt_sa {
	PVT_SA_CPU_N,		/* looks that found CPU time used */
	PVT_SA_CPU_NS,		/* the thread's CPU time since the last look */
	PVT_SA_REAL_N,		/* looks */
	PVT_SA_REAL_NS,		/* real time since the last look */
	PVT_SA_COUNT
};

struct pvt_samp {
	uint64_t	v[PVT_SA_COUNT];
};

/* Per module, what the agents did with it. */
enum pvt_mod_state {
	PVT_MOD_UNSEEN,		/* never loaded by a traced process */
	PVT_MOD_PATCHED,
	PVT_MOD_MISMATCH,	/* loaded, but not the file planned */
	PVT_MOD_FAILED		/* loaded, patching failed */
};

struct pvt_shm {
	uint64_t	magic;
	uint32_t	version;
	uint32_t	runner_pid;
	uint64_t	size;		/* bytes reserved */
	uint64_t	brk;		/* next free offset (atomic) */
	/* The plan, flattened. */
	uint32_t	nmod, nfn;
	uint64_t	mod_off, fn_off, str_off, str_len;
	uint64_t	fn_state_off;	/* uint8_t per function: PVT_FS_* */
	/*
	 * The clock: the TSC where the kernel trusts it (clocksource tsc),
	 * else CLOCK_MONOTONIC through the vDSO, in ns.  "tsc" below means
	 * the clock's unit.  units = ns * tsc_per_ns_q32 >> 32.
	 */
	int32_t		clock_mono;
	int32_t		clock_pad;
	uint64_t	tsc_per_ns_q32;	/* for the agents' integer code */
	double		tsc_hz;
	/* Calibration, by the first process (tsc units). */
	int32_t		cal_state;	/* 0 none, 1 busy, 2 done */
	uint32_t	cal_calls, cal_traps;
	int64_t		cal_a[2];	/* per call, inside the function */
	int64_t		cal_b[2];	/* per call, in the caller */
	int64_t		cal_lo[2], cal_hi[2];	/* a + b: 10th, 90th pct */
	int32_t		cpu_errno;	/* 0: per-thread CPU clock works */
	int32_t		slot_lock;
	uint64_t	slot_first;	/* every slot ever made */
	uint64_t	slot_free;	/* free slots */
	uint64_t	stat[PVT_ST_COUNT];
	uint32_t	samp_hz;	/* the sampler's rate, 0: off */
	uint32_t	images;		/* agents started (atomic) */
	uint64_t	probe[PVT_SA_COUNT];	/* looks inside the agent */
	uint32_t	mod_state[64];	/* enum pvt_mod_state, by module */
	int32_t		error_set;
	char		error[252];	/* the first error an agent hit */
};

/* What became of a planned function in the processes that ran. */
#define PVT_FS_PATCHED	1	/* patched in at least one process */
#define PVT_FS_UNREACH	2	/* no trampoline could reach it */
/* A GOT slot the agent left alone (in every process that ran): */
#define PVT_FS_AGENT	3	/* bound to the agent's stand-in */
#define PVT_FS_TRACED	4	/* bound to a traced module's code */
#define PVT_FS_UNBOUND	5	/* not bound (lazy, or a weak symbol) */

/* A frame of a thread's shadow stack. */
struct pvt_frame {
	uint64_t	slot;		/* where the return address is */
	uint64_t	ret;		/* the original return address */
	uint64_t	t0, c0;		/* real and CPU clocks at entry */
	uint64_t	cw, ccw;	/* children's raw real and CPU time */
	int64_t		ob;		/* overhead inside self */
	int64_t		oc;		/* overhead inside self+children */
	uint32_t	node;		/* its call-tree node */
	uint16_t	how;		/* enum pvt_how of the entry */
	uint16_t	flags;		/* PVT_FR_* */
	/* A leaf it interrupted (a signal handler's call): put back after. */
	uint64_t	leaf, leaf_ret, leaf_slot;
};

#define PVT_FR_RESTORED	0x01	/* the original return address is back */

/* A node of a slot's call tree: one distinct call path. */
struct pvt_node {
	uint32_t	parent, func;
	uint32_t	last_child, pad;
	uint64_t	calls;
	int64_t		self, total;		/* tsc, overhead subtracted */
	int64_t		self_cpu, total_cpu;
};

struct pvt_slot {
	/*
	 * The first cache line holds what the sampler writes, and what it
	 * reads before the flag; the thread writes the rest on every call.
	 * Sharing a line, the sampler's look would stall the thread's
	 * stores, the flag's among them, and it would read a stale flag:
	 * "in the agent" for a thread that has left it.
	 */
	uint64_t	next;		/* offset of the next slot */
	uint64_t	next_free;
	int32_t		state;		/* enum pvt_slot_state */
	int32_t		pid, tid;
	/*
	 * Where the owning thread's "in the agent" flag is (its struct
	 * pvt_thread's, in its TLS), and the sampler's "looking at it
	 * now": a thread that ends clears flagp and waits for looking to
	 * clear before its TLS goes.
	 */
	int32_t		looking;
	uint64_t	flagp;
	uint64_t	rseqp;		/* its struct rseq (cpu_id), or 0 */
	/*
	 * The agent that made the slot (pvt_g.image): after an exec the
	 * process keeps its pid, but its old threads' slots point into an
	 * image that is gone, and the new sampler must not look at them.
	 */
	uint32_t	image;
	uint32_t	ipad;
	/* The sampler's own, written by it alone. */
	uint64_t	samp;		/* offset: struct pvt_samp[scap] */
	uint32_t	scap;
	int32_t		samp_tid;	/* the thread samp_cpu is of */
	uint64_t	samp_cpu;	/* its CPU clock at the last look, ns */
	uint32_t	samp_entries;	/* its entries at the last look */

	uint64_t	last_tsc __attribute__((aligned(64)));
	uint64_t	last_cpu;	/* at the last event */
	uint64_t	end_tsc;	/* exit/exec: close frames here */
	uint32_t	depth, fcap;
	uint64_t	frames;		/* offset: struct pvt_frame[fcap] */
	uint32_t	nnode, ncap;
	uint64_t	nodes;		/* offset: struct pvt_node[ncap] */
	uint32_t	hmask, hpad;
	uint64_t	hash;		/* offset: uint32_t[hmask + 1] */
	/*
	 * Published for the sampler thread (agent_samp.c), which reads it
	 * while the thread runs: the node on top of the shadow stack, a
	 * word written with a relaxed atomic store (the flag likewise).
	 */
	uint32_t	cur, cpad;
};

/*
 * Close frame i of a shadow stack at (tsc, cpu): its real and CPU time go
 * to its node, self without the children, both without the calibrated
 * overhead; its raw time and overhead go to the frame below it.  Shared
 * by the agent (returns, unwinding, exits) and the runner (frames a
 * killed process left open).
 */
static inline void
pvt_close(struct pvt_frame *fr, uint32_t i, struct pvt_node *nodes,
    uint64_t tsc, uint64_t cpu, const int64_t *a, const int64_t *b,
    uint64_t *backwards)
{
	struct pvt_frame	*f = &fr[i], *p;
	struct pvt_node		*n = &nodes[f->node];
	uint64_t		 w, wc;

	if ((int64_t)(tsc - f->t0) < 0) {
		w = 0;
		(*backwards)++;
	} else
		w = tsc - f->t0;
	wc = (int64_t)(cpu - f->c0) < 0 ? 0 : cpu - f->c0;
	n->self += (int64_t)(w - f->cw) - f->ob;
	n->total += (int64_t)w - f->oc;
	n->self_cpu += (int64_t)(wc - f->ccw) - f->ob;
	n->total_cpu += (int64_t)wc - f->oc;
	if (i == 0)
		return;
	p = &fr[i - 1];
	p->cw += w;
	p->ccw += wc;
	p->ob += b[f->how];
	p->oc += a[f->how] + b[f->how] + (f->oc - a[f->how]);
}

/*
 * The agent (libpvtrace.so).  rt.c is the fast path, built without
 * vector registers so that the stubs need only save the general ones;
 * agent.c is everything else (it may call the C library, from a stub
 * only through pvt_xcall, which saves the whole register file).
 */
struct pvt_thread {
	/*
	 * In the agent (its trampolines, stubs or C code): the sampler
	 * counts the thread's time as the probe's.  First, at
	 * PVT_THREAD_INAGENT: the trampolines write it at a fixed offset
	 * from %fs (pvt_g.tls_inagent), stubs.S through the GOT.
	 */
	int32_t			 inagent;
	/*
	 * Entries so far, bumped by each (rt_enter): with the flag, the
	 * leaf and the path on top, what the sampler compares to see the
	 * thread hold still between two looks from another CPU.
	 */
	uint32_t		 entries;
	/*
	 * The leaf running: its node, PVT_LEAF_LIVE set; or 0.  A leaf's
	 * probe counts its entry and swaps its return address for the
	 * landing, which puts leaf_ret back and clears this; it pushes no
	 * frame.  The sampler charges a look to its node before the path
	 * on top.  At fixed offsets too, for the landings.  A whole-copy
	 * leaf (PVT_F_COPY) runs in its trampoline and returns from there:
	 * its return address stays, leaf_ret is not its, and the copy's
	 * end clears this.
	 */
	uint64_t		 leaf;
	uint64_t		 leaf_ret;
	uint64_t		 leaf_slot;	/* where its return address is */
	int			 leaf_restored;	/* pvt_restore_all put it back */
	struct pvt_slot		*slot;
	struct pvt_frame	*fr;
	struct pvt_node		*nodes;
	uint32_t		*hash;
	const volatile uint32_t	*seqp;		/* perf page's lock, or NULL */
	void			*pg;		/* the perf page */
	uint32_t		 seq;
	int			 busy;		/* in the agent: no tracing */
	int			 unwinding;	/* an exception is in flight */
	uint64_t		 cpu_base, tsc_base;
	uint64_t		 stk_lo, stk_hi;	/* its stack, if known */
};

struct pvt_agent {
	int			(*vclock)(int, void *);	/* vDSO's, or NULL */
	char			*base;		/* the shared memory */
	struct pvt_shm		*shm;
	int			 on;
	uint32_t		 nfn;		/* plan functions (+2 own) */
	int64_t			 a[2], b[2];	/* overhead, by enum pvt_how */
	long			(*attach)(void *);
	uint64_t		*tramp;		/* by function: trampoline */
	int32_t			 tls_inagent;	/* &pvt_t.inagent - %fs base */
	uint32_t		 image;		/* this agent's, from shm */
};

extern struct pvt_agent	 pvt_g;
extern __thread struct pvt_thread pvt_t
    __attribute__((tls_model("initial-exec")));

/* stubs.S */
void	 pvt_entry(void);
void	 pvt_exit(void);
void	 pvt_exit_ret(void);
long	 pvt_xcall(long (*)(void *), void *);
void	 pvt_cal_loop(uint64_t, void (*)(void));
void	 pvt_cal_leaf(void);
void	 pvt_cal_mid(void);
void	 pvt_cal_trapped(void);
extern void	(*pvt_cal_leafp)(void);
extern uint32_t pvt_xsave_size;

/* rt.c */
void	 pvt_enter_jump(uint64_t *);
void	 pvt_enter(uint32_t, uint64_t *, int);
uint64_t pvt_leave(uint64_t *);
void	 pvt_unwind_below(uint64_t);
void	 pvt_restore_all(void);
void	 pvt_rearm(void);
void	 pvt_detach_all(int, int);
uint64_t pvt_shm_alloc(uint64_t);
uint64_t pvt_now(void);
uint64_t pvt_cpu_now(struct pvt_thread *, uint64_t);
void	 pvt_stat(int, uint64_t);
uint32_t pvt_path_node(struct pvt_thread *, uint32_t, uint32_t);
int	 pvt_grow_frames(struct pvt_thread *);

/* capture/pvtrace/plan.c: p1. */
#define PVT_PLAN_NOPAD	0x01	/* never use the fill after a function */
#define PVT_PLAN_NOLIB	0x02	/* no GOT slots: no library calls */
#define PVT_PLAN_NOLEAF	0x04	/* every function gets the full probe */
int	 pvt_plan_make(struct pvt_plan *, const char *, const char **,
	     size_t, int, char **);
void	 pvt_plan_free(struct pvt_plan *);
uint32_t pvt_plan_str(struct pvt_plan *, const char *);
int	 pvt_plan_resolve_lib(const char *, const char *, char **,
	     char **);

/* capture/pvtrace/pdt.c: the .pdt file. */
int	 pvt_pdt_write(const struct pvt_plan *, const char *, char **);
int	 pvt_pdt_read(struct pvt_plan *, const char *, char **);
void	 pvt_pdt_summary(const struct pvt_plan *, FILE *);
int	 pvt_plan_stale(const struct pvt_plan *, char **);

/* capture/pvtrace/name.c: names read back, the clock, arrays, files. */
char	*pvt_name_get(const char *, size_t);
uint64_t pvt_clock(int);
void	*pvt_grow(void *, size_t *, size_t, size_t);
FILE	*pvt_create(struct outfile *, const char *, char **);
int	 pvt_commit(FILE *, struct outfile *, const char *, char **);

/* capture/pvtrace/mon.c: the .mon file, made from the shared memory. */
struct pvt_death {
	int		 pid;
	uint64_t	 tsc;
};

struct pvt_run {
	struct pvt_death *deaths;	/* processes the runner reaped */
	size_t		 ndeaths;
	const char	*prog;		/* absolute path */
	char *const	*argv;
	uint64_t	 real_ns;
	int		 status;	/* the program's wait status */
	int		 accumulate;
};
int	 pvt_mon_write(struct pvt_shm *, const struct pvt_plan *,
	     const struct pvt_run *, const char *, char **);

#endif
