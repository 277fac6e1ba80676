/*
 * Tracing a module: a trampoline per planned function, in memory mapped
 * within reach of a rel32 jump from it; the function's first bytes
 * replaced by that jump, or by int3 where no jump fits (the SIGTRAP
 * handler takes those); the text patched in memory only.
 */
#include <sys/mman.h>

#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bsearch.h"
#include "capture/pvtrace/pvtrace.h"
#include "capture/pvtrace/agent.h"

/* Trampolines. */

static void
agent_put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

/* pvtrace.h's layout: a flag is 9 bytes, an indirect call or jump 6. */
_Static_assert(PVT_TRAMP_RET == PVT_TRAMP_ENTRY + 9 + 6 &&
    PVT_TRAMP_LAND == PVT_TRAMP_RET + 5 &&
    PVT_TRAMP_LANDSZ == 9 + 8 + 13 + 7 + 9 + 1 &&
    PVT_TRAMP_CODE == PVT_TRAMP_LAND + PVT_TRAMP_LANDSZ + 5 + 3 +
    PVT_TRAMP_PAD &&
    PVT_TRAMP_CBODY == PVT_TRAMP_RET + 3 + PVT_TRAMP_PAD + 9 &&
    PVT_TRAMP_CBODY + PVT_REGION_MAX + 13 <= PVT_TRAMP_CODE &&
    PVT_TRAMP_CODE + 9 + PVT_REGION_MAX <= PVT_TRAMP_SIZE,
    "the trampoline's layout");

#define AGENT_LFENCE	"\x0f\xae\xe8"
#define AGENT_LEA_R11	"\x4d\x8d\x5b\x00"	/* lea 0(%r11),%r11 */
_Static_assert(sizeof AGENT_LEA_R11 - 1 == PVT_TRAMP_PAD - 4,
    "a whole copy's pad after the fence's lea is one lea more");

/* movb $v, %fs:pvt_g.tls_inagent: the thread's "in the agent" flag. */
static void
agent_flag(uint8_t *p, uint8_t v)
{
	memcpy(p, "\x64\xc6\x04\x25", 4);
	agent_put32(p + 4, (uint32_t)pvt_g.tls_inagent);
	p[8] = v;
}

/*
 * lfence, then lea 0(%r11),%r11, at p, before a store that marks the
 * thread out of the agent; the end of it.  The fence: the program's
 * code after it starts once the probe's instructions have finished, not
 * in their shadow.  The lea changes nothing (not the flags, nor r11 for
 * a caller that keeps a value there across a call it knows leaves r11
 * alone) but must execute before it retires, and so the store after it:
 * nops retire without executing, and with nops alone the pipeline's
 * restart after the fence went to the program.  A 3 ns leaf copied
 * whole, called 40 million times, showed 25-30 % of the program where
 * its truth was 20-25, 3 to 5 points over; with the lea, 21-24 against
 * 22-25, a point under (trace-truth.sh, pvtrace(1)).
 */
static uint8_t *
agent_fence(uint8_t *p)
{
	memcpy(p, AGENT_LFENCE AGENT_LEA_R11, 7);
	return (p + 7);
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

/*
 * A plain or RIP-relative instruction at src, next the address after it
 * where it was, copied to o: a RIP-relative operand moved to reach what
 * it did.  -1 when that is out of a rel32's reach from o.
 */
static int
agent_copy_insn(uint8_t *o, const uint8_t *src, const struct pvt_insn *in,
    uint64_t next)
{
	int32_t	r, disp;

	memcpy(o, src, in->len);
	if (in->kind != PVT_I_RIP)
		return (0);
	memcpy(&disp, src + in->field, 4);
	if (agent_rel32((uint64_t)o + in->len, next + (int64_t)disp, &r) != 0)
		return (-1);
	agent_put32(o + in->field, (uint32_t)r);
	return (0);
}

/*
 * Whether f can run whole in its trampoline (PVT_F_COPY): every
 * instruction copied as is or RIP-relative, no branch among them, the
 * last its one ret (c3, or f3 c3), the whole function displaced.  The
 * plan says so; the agent checks what it relies on.
 */
static int
agent_copyable(const struct pvt_func *f)
{
	const struct pvt_insn	*last;
	size_t			 i;

	if (!(f->flags & PVT_F_COPY) || !(f->flags & PVT_F_LEAF) ||
	    f->how != PVT_JUMP || f->ninsn == 0 || f->len != f->size)
		return (0);
	for (i = 0; i < f->ninsn; i++) {
		if (f->insn[i].kind != PVT_I_PLAIN &&
		    f->insn[i].kind != PVT_I_RIP)
			return (0);
	}
	last = &f->insn[f->ninsn - 1];
	if (last->kind != PVT_I_PLAIN || !((last->len == 1 &&
	    f->bytes[f->len - 1] == 0xc3) || (last->len == 2 &&
	    f->bytes[f->len - 2] == 0xf3 && f->bytes[f->len - 1] == 0xc3)))
		return (0);
	/* Its room: f->len <= PVT_REGION_MAX and the layout's assertion. */
	return (1);
}

/*
 * f's body but its ret at o, run from there: RIP-relative operands
 * moved to reach what they did from fva.  The end of the copy, or NULL.
 */
static uint8_t *
agent_copy_body(uint8_t *o, const struct pvt_func *f, uint64_t fva)
{
	const struct pvt_insn	*in;
	const uint8_t		*src = f->bytes;
	uint64_t		 sva = fva;
	size_t			 i;

	for (i = 0; i + 1 < f->ninsn; i++) {
		in = &f->insn[i];
		if (agent_copy_insn(o, src, in, sva + in->len) != 0)
			return (NULL);
		o += in->len;
		src += in->len;
		sva += in->len;
	}
	return (o);
}

/*
 * A whole-copy leaf's trampoline (pvtrace.h): no return address swapped
 * and no landing, so nothing of the probe runs after "in the agent" is
 * cleared but the store that clears "in a leaf"; the function's ret,
 * copied, pops the caller's own entry of the return stack buffer, and
 * pvt_entry's, the trampoline's (no call over a landing: its entry
 * would never be popped, and every return above it mispredicted).
 */
static int
agent_tramp_copy(uint8_t *t, uint8_t *area, const struct pvt_func *f,
    uint64_t fva, uint32_t idx)
{
	uint8_t	*o;
	int32_t	 r;

	if (agent_rel32((uint64_t)t + PVT_TRAMP_RET, (uint64_t)area,
	    &r) != 0)
		return (-1);
	memset(t, 0xcc, PVT_TRAMP_SIZE);
	agent_put32(t, idx | PVT_TRAMP_LEAF | PVT_TRAMP_COPY);
	agent_flag(t + PVT_TRAMP_ENTRY, 1);
	t[PVT_TRAMP_RET - 6] = 0xff;	/* call *area(%rip) */
	t[PVT_TRAMP_RET - 5] = 0x15;
	agent_put32(t + PVT_TRAMP_RET - 4, (uint32_t)r);
	/*
	 * The fence and its lea (the body has no displaced code to absorb
	 * the restart as a full probe's does), then a second lea on the
	 * first's result where agent_tramp() has nops, all "in the
	 * agent".  On the machine of 2026-11-29 (AMD family 26, virtual)
	 * the one lea and four nops left the restart's end to the leaf:
	 * the truth test's 3 ns leaf showed 19.1 to 27 % where its truth
	 * was 15.1 to 16.8, 3.5 to 12 points over; with the second lea,
	 * 14.6 to 18.7 against 15.2 to 16.8, -0.6 to +2.4.  A second fence
	 * instead put it at 26.9.
	 */
	memcpy(agent_fence(t + PVT_TRAMP_RET), AGENT_LEA_R11,
	    PVT_TRAMP_PAD - 4);
	agent_flag(t + PVT_TRAMP_CBODY - 9, 0);
	if ((o = agent_copy_body(t + PVT_TRAMP_CBODY, f, fva)) == NULL)
		return (-1);
	memcpy(o, "\x64\x48\xc7\x04\x25", 5);	/* movq $0, %fs:leaf */
	agent_put32(o + 5, (uint32_t)(pvt_g.tls_inagent + PVT_THREAD_LEAF));
	agent_put32(o + 9, 0);
	o[13] = 0xc3;
	/* The copy for an entry that made no mark: it leaves the mark be. */
	agent_flag(t + PVT_TRAMP_CODE, 0);
	if ((o = agent_copy_body(t + PVT_TRAMP_CODE + 9, f, fva)) == NULL)
		return (-1);
	o[0] = 0xc3;
	return (0);
}

/*
 * Emit one trampoline at t for f, which lives at fva; 0 or -1.  A GOT
 * slot's has no displaced code: it jumps on to fva, the function the
 * slot was bound to, through an address of its own.
 */
int
agent_tramp(uint8_t *t, uint8_t *area, const struct pvt_func *f,
    uint64_t fva, uint32_t idx)
{
	const struct pvt_insn	*in;
	const uint8_t		*src = f->bytes;
	uint8_t			*o;
	uint64_t		 sva = fva, next, target = 0;
	int32_t			 r, disp;
	uint32_t		 lea;
	size_t			 i;
	int			 cleared, leaf;

	/*
	 * The index before the call, so that the call's return address is
	 * the code after it: pvt_entry's ret goes where the return stack
	 * buffer says, not 4 bytes further (a mispredicted return every
	 * call, and the program's time under the sampler).
	 */
	if (agent_rel32((uint64_t)t + PVT_TRAMP_RET, (uint64_t)area,
	    &r) != 0)
		return (-1);
	/*
	 * A leaf's light probe only when the sampler runs: it measures no
	 * time of its own, so with --rate 0 a leaf gets the full probe.
	 */
	leaf = (f->flags & PVT_F_LEAF) && pvt_g.shm->samp_hz != 0;
	if (leaf && agent_copyable(f))
		return (agent_tramp_copy(t, area, f, fva, idx));
	agent_put32(t, leaf ? idx | PVT_TRAMP_LEAF : idx);
	agent_flag(t + PVT_TRAMP_ENTRY, 1);
	t[PVT_TRAMP_RET - 6] = 0xff;	/* call *area(%rip) */
	t[PVT_TRAMP_RET - 5] = 0x15;
	agent_put32(t + PVT_TRAMP_RET - 4, (uint32_t)r);
	/*
	 * Then a call over the landing, whose return address the next
	 * instruction drops from the stack: the return stack buffer keeps
	 * it, so the function's own ret, which the agent sends to the
	 * landing, is predicted.  Without it every traced return flushes
	 * the pipeline (~20 cycles), which the sampler sees as the
	 * function's own time: a 3 ns function showed twice its share.
	 */
	lea = PVT_TRAMP_LAND + PVT_TRAMP_LANDSZ;
	t[PVT_TRAMP_RET] = 0xe8;	/* call over the landing */
	agent_put32(t + PVT_TRAMP_RET + 1, lea - PVT_TRAMP_LAND);
	memset(t + PVT_TRAMP_LAND, 0xcc, PVT_TRAMP_LANDSZ);
	if (leaf) {
		/*
		 * A leaf's landing, no call, "in the agent" all along
		 * but its ret: the real return address pushed back
		 * before "in a leaf" is cleared (a signal handler's leaf
		 * may take leaf_ret after), and a ret where the leaf's
		 * would have been, which pops the caller's own entry of
		 * the return stack buffer.
		 */
		o = t + PVT_TRAMP_LAND;
		agent_flag(o, 1);
		o += 9;
		memcpy(o, "\x64\xff\x34\x25", 4);	/* pushq %fs:leaf_ret */
		agent_put32(o + 4, (uint32_t)(pvt_g.tls_inagent +
		    PVT_THREAD_LEAF_RET));
		memcpy(o + 8, "\x64\x48\xc7\x04\x25", 5); /* movq $0, %fs:leaf */
		agent_put32(o + 13, (uint32_t)(pvt_g.tls_inagent +
		    PVT_THREAD_LEAF));
		agent_put32(o + 17, 0);
		/*
		 * The caller's code after the ret starts once the
		 * landing has finished: without the fence it ran in the
		 * landing's shadow, a look finding the thread in the
		 * probe, and a caller of many leaves (SQLite's
		 * sqlite3VdbeExec) lost time to the probe.
		 */
		o = agent_fence(o + 21);
		agent_flag(o, 0);
		o[9] = 0xc3;
	} else {
		agent_flag(t + PVT_TRAMP_LAND, 1);
		if (agent_rel32((uint64_t)t + PVT_TRAMP_LAND + 15,
		    (uint64_t)area + 8, &r) != 0)
			return (-1);
		t[PVT_TRAMP_LAND + 9] = 0xff;	/* jmp *area+8(%rip) */
		t[PVT_TRAMP_LAND + 10] = 0x25;
		agent_put32(t + PVT_TRAMP_LAND + 11, (uint32_t)r);
	}
	/* lea 8(%rsp),%rsp, not add: the flags are the function's still */
	memcpy(t + lea, "\x48\x8d\x64\x24\x08", 5);
	/*
	 * lfence: the program's code after the trampoline starts once
	 * the probe's instructions have all finished, not in their
	 * shadow.  Without it a leaf of a few ns runs mostly while the
	 * probe's last loads and stores are still in flight, "in the
	 * agent" still set: the sampler gave a 3 ns leaf called 40
	 * million times 13-27 % of the program where its truth was 23,
	 * unstable from run to run.  With it the program's first
	 * instructions pay for the emptied pipeline instead, so "in
	 * the agent" is cleared after the displaced ones (but before a
	 * branch among them, or a ret of a function they all are):
	 * perf put 8 % of such a run on the first one alone.
	 */
	memcpy(t + lea + 5, AGENT_LFENCE, 3);
	/*
	 * Nops, "in the agent" still: a timer interrupt pending while
	 * the fence waits is taken some instructions after it, as a
	 * group of them retires at once; perf put the wait on the first
	 * instruction after the fence, which must not be the program's.
	 */
	memset(t + lea + 8, 0x90, PVT_TRAMP_PAD);
	o = t + PVT_TRAMP_CODE;
	cleared = 0;
	if (f->how == PVT_PLT || (f->flags & PVT_F_PADDED)) {
		agent_flag(o, 0);
		o += 9;
		cleared = 1;
	}
	if (f->how == PVT_PLT) {
		/* jmp *0(%rip), the address right after it */
		memcpy(o, "\xff\x25\x00\x00\x00\x00", 6);
		memcpy(o + 6, &fva, 8);
		return (0);
	}
	for (i = 0; i < f->ninsn; i++) {
		in = &f->insn[i];
		next = sva + in->len;
		if (!cleared && in->kind != PVT_I_PLAIN &&
		    in->kind != PVT_I_RIP) {
			agent_flag(o, 0);
			o += 9;
			cleared = 1;
		}
		switch (in->kind) {
		case PVT_I_PLAIN:
		case PVT_I_RIP:
			if (agent_copy_insn(o, src, in, next) != 0)
				return (-1);
			o += in->len;
			break;
		case PVT_I_PAD:
			break;		/* the function returned before it */
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
	if (!cleared) {
		agent_flag(o, 0);
		o += 9;
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
 * the module first, then above, up to 1 GB away.  Its first 16 bytes
 * hold pvt_entry's and pvt_exit_ret's addresses for the trampolines'
 * indirect call and the landings' indirect jumps.
 */
uint8_t *
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
			((uint64_t *)p)[0] = (uint64_t)pvt_entry;
			((uint64_t *)p)[1] = (uint64_t)pvt_exit_ret;
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
void
agent_add_traps(const struct agent_trap *add, size_t n)
{
	struct agent_trap	*v;

	if (n == 0)
		return;
	v = malloc((agent_g.ntraps + n) * sizeof *v);
	if (v == NULL)
		return;
	if (agent_g.ntraps > 0)
		memcpy(v, agent_g.traps, agent_g.ntraps * sizeof *v);
	memcpy(v + agent_g.ntraps, add, n * sizeof *v);
	qsort(v, agent_g.ntraps + n, sizeof *v, agent_cmp_trap);
	/* The old table stays allocated: a handler may be reading it. */
	__atomic_store_n(&agent_g.traps, v, __ATOMIC_RELEASE);
	__atomic_store_n(&agent_g.ntraps, agent_g.ntraps + n, __ATOMIC_RELEASE);
}

static int
agent_find_trap(uint64_t addr, uint32_t *idx)
{
	const struct agent_trap	*v = __atomic_load_n(&agent_g.traps,
				    __ATOMIC_ACQUIRE);
	size_t			 n = __atomic_load_n(&agent_g.ntraps,
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
		int	was = pvt_t.inagent;

		/* The handler is the probe's (the kernel's delivery not). */
		__atomic_store_n(&pvt_t.inagent, 1, __ATOMIC_RELAXED);
		if (!agent_g.cal)
			pvt_stat(PVT_ST_TRAPS, 1);
		pvt_enter(idx, (uint64_t *)uc->uc_mcontext.gregs[REG_RSP],
		    PVT_TRAP);
		uc->uc_mcontext.gregs[REG_RIP] =
		    (greg_t)(pvt_g.tramp[idx] + PVT_TRAMP_CODE);
		errno = saved;
		__atomic_store_n(&pvt_t.inagent, was, __ATOMIC_RELAXED);
		return;
	}
	if (agent_g.user_trap.sa_handler != SIG_DFL &&
	    agent_g.user_trap.sa_handler != SIG_IGN) {
		if (agent_g.user_trap.sa_flags & SA_SIGINFO)
			agent_g.user_trap.sa_sigaction(sig, si, ucv);
		else
			agent_g.user_trap.sa_handler(sig);
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

void
agent_trap_handler(void)
{
	struct sigaction	sa;

	if (agent_g.trap_handler)
		return;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = agent_sigtrap;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	REAL(sigaction);
	real_sigaction(SIGTRAP, &sa, &agent_g.user_trap);
	agent_g.trap_handler = 1;
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

/*
 * What GOT slot f of module mi (loaded at base) is bound to: 0 and the
 * function to trace, else the PVT_FS_ state that says why not.
 */
static int
agent_got_target(uint32_t mi, uint64_t base, const struct pvt_func *f,
    uint64_t *target)
{
	const struct agent_mod	*am = &agent_g.m[mi];
	const struct pvt_module	*mj;
	uint64_t		 slot = base + f->addr, to;
	Dl_info			 di, self;
	uint32_t		 j;
	int			 i;

	for (i = 0; i < am->nw; i++) {
		if (slot >= am->wlo[i] && slot + 8 <= am->whi[i])
			break;
	}
	if (i == am->nw)
		return (PVT_FS_UNREACH);
	to = __atomic_load_n((uint64_t *)slot, __ATOMIC_RELAXED);
	/* Lazy binding's slot points back into the module's own PLT. */
	if (to == 0 || (to >= base + agent_g.mod[mi].lo &&
	    to < base + agent_g.mod[mi].hi))
		return (PVT_FS_UNBOUND);
	for (j = 0; j < pvt_g.shm->nmod; j++) {
		mj = &agent_g.mod[j];
		if (agent_g.m[j].done && to >= agent_g.m[j].base + mj->lo &&
		    to < agent_g.m[j].base + mj->hi)
			return (PVT_FS_TRACED);
	}
	if (dladdr((void *)to, &di) != 0 &&
	    dladdr((void *)pvt_entry, &self) != 0 &&
	    di.dli_fbase == self.dli_fbase)
		return (PVT_FS_AGENT);
	*target = to;
	return (0);
}

/*
 * Point a GOT slot at its trampoline.  The slot may sit in the part the
 * loader made read-only after binding (RELRO, as LD_BIND_NOW does for
 * .got.plt): writable for the store, read-only again after it.
 */
static void
agent_got_set(uint32_t mi, uint64_t slot, uint64_t to)
{
	const struct agent_mod	*am = &agent_g.m[mi];
	uint64_t		 pg = (uint64_t)sysconf(_SC_PAGESIZE);
	void			*page = (void *)(slot & ~(pg - 1));
	int			 ro;

	/* The loader protects the whole pages of RELRO only. */
	ro = slot >= am->relro_lo && slot < (am->relro_hi & ~(pg - 1));
	if (ro && mprotect(page, pg, PROT_READ | PROT_WRITE) != 0) {
		agent_error("%s: cannot make its GOT writable: %s",
		    agent_g.str + agent_g.mod[mi].name, strerror(errno));
		return;
	}
	__atomic_store_n((uint64_t *)slot, to, __ATOMIC_RELEASE);
	if (ro)
		mprotect(page, pg, PROT_READ);
}

/* Patch module mi, loaded at base; 0, or -1 and the state set. */
static int
agent_patch(uint32_t mi, uint64_t base)
{
	const struct pvt_module	*m = &agent_g.mod[mi];
	const struct pvt_func	*f;
	struct agent_trap	*traps;
	uint8_t			*area, *t;
	uint64_t		 pg = (uint64_t)sysconf(_SC_PAGESIZE), fva, lo,
	    hi;
	size_t			 i, n = 0, ntr = 0, size;
	uint32_t		 idx;
	int			 why;

	for (i = 0; i < m->nfunc; i++) {
		f = &agent_g.fn[m->first + i];
		if (f->how == PVT_OUT)
			continue;
		if (memcmp((void *)(base + f->addr), f->bytes, f->len) != 0) {
			agent_error("%s: the code of %s differs from the"
			    " plan: not patched", agent_g.str + m->name,
			    agent_g.str + f->name);
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
		    " code", agent_g.str + m->name);
		pvt_g.shm->mod_state[mi] = PVT_MOD_FAILED;
		return (-1);
	}
	if ((traps = calloc(n, sizeof *traps)) == NULL)
		return (-1);
	t = area + PVT_TRAMP_SIZE;
	for (i = 0; i < m->nfunc; i++) {
		f = &agent_g.fn[m->first + i];
		idx = m->first + (uint32_t)i;
		if (f->how == PVT_OUT)
			continue;
		fva = base + f->addr;
		if (f->how == PVT_PLT && (why = agent_got_target(mi, base, f,
		    &fva)) != 0) {
			pvt_g.tramp[idx] = 0;
			if (agent_g.fstate[idx] != PVT_FS_PATCHED)
				agent_g.fstate[idx] = (uint8_t)why;
			continue;
		}
		if (agent_tramp(t, area, f, fva, idx) != 0) {
			pvt_stat(PVT_ST_UNREACH, 1);
			pvt_g.tramp[idx] = 0;
			agent_g.fstate[idx] = PVT_FS_UNREACH;
		} else {
			pvt_g.tramp[idx] = (uint64_t)t;
			agent_g.fstate[idx] = PVT_FS_PATCHED;
		}
		t += PVT_TRAMP_SIZE;
	}
	mprotect(area, size, PROT_READ | PROT_EXEC);
	lo &= ~(pg - 1);
	hi = (hi + pg - 1) & ~(pg - 1);
	if (mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE |
	    PROT_EXEC) != 0) {
		agent_error("%s: cannot make its code writable: %s",
		    agent_g.str + m->name, strerror(errno));
		pvt_g.shm->mod_state[mi] = PVT_MOD_FAILED;
		free(traps);
		return (-1);
	}
	for (i = 0; i < m->nfunc; i++) {
		f = &agent_g.fn[m->first + i];
		idx = m->first + (uint32_t)i;
		if (f->how == PVT_OUT || pvt_g.tramp[idx] == 0)
			continue;
		fva = base + f->addr;
		if (f->how == PVT_PLT) {
			agent_got_set(mi, fva, pvt_g.tramp[idx] +
			    PVT_TRAMP_ENTRY);
			continue;
		}
		if (f->how == PVT_TRAP) {
			traps[ntr].addr = fva;
			traps[ntr++].idx = idx;
			continue;
		}
		memset((void *)fva, 0xcc, f->len);
		*(uint8_t *)fva = 0xe9;
		agent_put32((uint8_t *)fva + 1, (uint32_t)(pvt_g.tramp[idx] +
		    PVT_TRAMP_ENTRY - (fva + 5)));
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


/* Where a loaded module's GOT may be (agent_got_target, agent_got_set). */
static void
agent_segments(struct agent_mod *am, const struct dl_phdr_info *info)
{
	const ElfW(Phdr)	*ph;
	int			 i;

	am->nw = 0;
	am->relro_lo = am->relro_hi = 0;
	for (i = 0; i < info->dlpi_phnum; i++) {
		ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W) &&
		    am->nw < 4) {
			am->wlo[am->nw] = info->dlpi_addr + ph->p_vaddr;
			am->whi[am->nw++] = info->dlpi_addr + ph->p_vaddr +
			    ph->p_memsz;
		} else if (ph->p_type == PT_GNU_RELRO) {
			am->relro_lo = info->dlpi_addr + ph->p_vaddr;
			am->relro_hi = info->dlpi_addr + ph->p_vaddr +
			    ph->p_memsz;
		}
	}
}

int
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
		m = &agent_g.mod[mi];
		if (agent_g.m[mi].done)
			continue;
		same_path = strcmp(name, agent_g.str + m->path) == 0;
		same_id = has_id && m->build_id_len == idlen &&
		    memcmp(id, m->build_id, idlen) == 0;
		if (!same_path && !(same_id && (mi == 0 ?
		    name == sc->exe : 1)))
			continue;
		if (m->build_id_len != 0 && !same_id) {
			agent_g.m[mi].done = 1;
			pvt_g.shm->mod_state[mi] = PVT_MOD_MISMATCH;
			if (mi != 0)
				agent_error("%s: loaded from %s but not the"
				    " file planned (build-id differs)",
				    agent_g.str + m->name, name);
			continue;
		}
		agent_g.m[mi].base = info->dlpi_addr;
		agent_g.m[mi].done = 2;
		agent_segments(&agent_g.m[mi], info);
		if (mi == 0)
			sc->main_found = 1;
	}
	return (0);
}

/* Patch every planned module that is loaded and not yet looked at. */
int
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
		if (agent_g.m[mi].done == 2) {
			agent_g.m[mi].done = 1;
			agent_patch(mi, agent_g.m[mi].base);
		}
	}
	return (sc.main_found);
}
