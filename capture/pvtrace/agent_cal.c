/*
 * What the agent measures before it traces: its own overhead per way in
 * (calibration, on functions of its own traced like any other), the
 * size of the register file the slow path saves, and the vDSO's clock.
 */
#include <sys/auxv.h>
#include <sys/mman.h>

#include <cpuid.h>
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/pvtrace/pvtrace.h"
#include "capture/pvtrace/agent.h"

#define AGENT_CAL_BATCH		64	/* calls per batch */
#define AGENT_CAL_BATCHES	301
#define AGENT_CAL_TBATCH	4	/* traps per batch */
#define AGENT_CAL_TBATCHES	41

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

	tleaf = (void (*)(void))(pvt_g.tramp[leaf] + PVT_TRAMP_ENTRY);
	tmid = (void (*)(void))(pvt_g.tramp[mid] + PVT_TRAMP_ENTRY);
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

void
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

	agent_g.cal = 1;
	pvt_g.on = 1;
	agent_cal_nested(nfn, nfn + 2, AGENT_CAL_BATCH / 2,
	    AGENT_CAL_BATCHES);
	agent_cal_one(PVT_TRAP, nfn + 1, pvt_cal_trapped,
	    (void (*)(void))((uint8_t *)pvt_g.tramp[nfn + 1] + PVT_TRAMP_CODE),
	    AGENT_CAL_TBATCH, AGENT_CAL_TBATCHES);
	pvt_g.on = 0;
	agent_g.cal = 0;
	t->slot = NULL;			/* the next event takes a real slot */
	shm->cal_calls = AGENT_CAL_BATCH / 2 * 3 * AGENT_CAL_BATCHES;
	shm->cal_traps = AGENT_CAL_TBATCH * AGENT_CAL_TBATCHES;
done:
	__atomic_store_n(&shm->cal_state, 2, __ATOMIC_RELEASE);
}

void
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
void *
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
