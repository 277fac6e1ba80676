/*
 * A snapshot: stop every thread, find the roots, scan every live block
 * conservatively, let the threads go, name what was found, write the
 * file (profview-formats(5), HEAP FILES).
 *
 * Stopping is a signal to each thread (tgkill) and a handshake on two
 * futexes, as Boehm GC does: the handler saves the thread's registers
 * from its signal frame and waits until the snapshot is over.  A thread
 * inside an allocator hook parks when it leaves it (agent.c), so the
 * tables are whole when they are read.  While the world is stopped the
 * snapshot calls no malloc and takes no lock a stopped thread may hold:
 * raw system calls and the agent's own mmap'd memory only.
 *
 * The roots are what memcheck scans: every readable and writable mapping
 * except glibc's heaps, the agent's own memory, device mappings, and the
 * part of each stopped thread's stack below its stack pointer (less the
 * 128-byte red zone the x86-64 ABI lets a function use), and every
 * thread's registers.  Within blocks and roots every aligned word that
 * points into a live block is a pointer, with memcheck's rule for what
 * "into" means: addr <= p < addr + size, or p == addr for a 0-byte block.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <sys/auxv.h>
#include <ucontext.h>
#include <unistd.h>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "bsearch.h"
#include "hex.h"
#include "capture/oberon/agent.h"
#include "capture/oberon/heapfmt.h"
#include "outfile.h"

#define PARK_MAX	4096
#define STOP_WAIT_NS	(2 * 1000000000ull)
#define RED_ZONE	128
#define ARENA_HEAP_MAX	(64ull << 20)	/* glibc's HEAP_MAX_SIZE, 64-bit */
/*
 * The block index's cell: 256 bytes hold the starts of at most a few
 * blocks (glibc's smallest chunk is 32 bytes), so a lookup reads one
 * index word and a line or two of the block spans.
 */
#define CELL_SHIFT	8

/* The registers a stopped thread left, from its signal frame. */
struct parked {
	pid_t		 tid;
	uint64_t	 gregs[NGREG];
};

static struct {
	uint32_t	 stopping;
	uint32_t	 gen;
	uint32_t	 resumed;
	uint32_t	 nparked;
	uint32_t	 nslot;
} world;
static struct parked	parked[PARK_MAX];
static pthread_mutex_t	snap_lock = PTHREAD_MUTEX_INITIALIZER;

/* The general registers by name, in gregset_t order. */
static const char *const reg_names[] = {
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rdi", "rsi",
	"rbp", "rbx", "rdx", "rax", "rcx", "rsp", "rip"
};
#define NREGS	(sizeof reg_names / sizeof reg_names[0])

static long
futex(uint32_t *addr, int op, uint32_t val, const struct timespec *ts)
{
	return (syscall(SYS_futex, addr, op, val, ts, NULL, 0));
}

static uint64_t
now_ns(clockid_t clk)
{
	struct timespec	ts;

	clock_gettime(clk, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec);
}

void
snap_init(void)
{
}

void
snap_atfork_child(void)
{
	pthread_mutex_init(&snap_lock, NULL);
	memset(&world, 0, sizeof world);
}

/* In the stop signal's handler (agent.c): park until resumed. */
void
snap_stop_handler(int sig, void *uc)
{
	ucontext_t	*u = uc;
	uint32_t	 g, r, i;

	(void)sig;
	if (!__atomic_load_n(&world.stopping, __ATOMIC_ACQUIRE))
		return;
	g = __atomic_load_n(&world.gen, __ATOMIC_ACQUIRE);
	if (__atomic_load_n(&world.resumed, __ATOMIC_ACQUIRE) == g)
		return;
	i = __atomic_fetch_add(&world.nslot, 1, __ATOMIC_ACQ_REL);
	if (i < PARK_MAX) {
		parked[i].tid = agent_gettid();
		memcpy(parked[i].gregs, u->uc_mcontext.gregs,
		    sizeof parked[i].gregs);
	}
	__atomic_add_fetch(&world.nparked, 1, __ATOMIC_RELEASE);
	futex(&world.nparked, FUTEX_WAKE, 1, NULL);
	while ((r = __atomic_load_n(&world.resumed, __ATOMIC_ACQUIRE)) != g)
		futex(&world.resumed, FUTEX_WAIT, r, NULL);
}

/* ---- small helpers that never malloc ------------------------------- */

static void *
grow(struct abuf *b, size_t n)
{
	void	*p = abuf_grow(b, n);

	if (p != NULL)
		memset(p, 0, n);
	return (p);
}

/* The file is little-endian, and so is the only machine we run on. */
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "pvheap's agent writes little-endian records in native order"
#endif

static inline void
put16(uint8_t *p, uint16_t v)
{
	memcpy(p, &v, sizeof v);
}

static inline void
put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof v);
}

static inline void
put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, sizeof v);
}

static inline uint32_t
get32(const uint8_t *p)
{
	uint32_t	v;

	memcpy(&v, p, sizeof v);
	return (v);
}

static inline uint64_t
get64(const uint8_t *p)
{
	uint64_t	v;

	memcpy(&v, p, sizeof v);
	return (v);
}

static uint64_t
num(const char **s, int base)
{
	uint64_t	v = 0;
	int		d;

	for (;; (*s)++) {
		if ((d = hex_digit((unsigned char)**s)) < 0 || d >= base)
			return (v);
		v = v * (uint64_t)base + (uint64_t)d;
	}
}

/* Read a whole /proc file into b, NUL-ended; its length or -1. */
static ssize_t
slurp(const char *path, struct abuf *b)
{
	ssize_t	n;
	int	fd;
	char	*p;

	b->len = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return (-1);
	for (;;) {
		if ((p = abuf_grow(b, 65536)) == NULL)
			break;
		b->len -= 65536;
		if ((n = read(fd, p, 65536)) <= 0)
			break;
		b->len += (size_t)n;
	}
	close(fd);
	if ((p = abuf_grow(b, 1)) == NULL)
		return (-1);
	*p = '\0';
	b->len--;
	return ((ssize_t)b->len);
}

/* ---- the address space ---------------------------------------------- */

struct map {
	uint64_t	 lo, hi;
	uint32_t	 prot;		/* 1 r, 2 w, 4 x */
	int		 file;		/* backed by a file */
	int		 device;	/* a device other than /dev/zero */
	const char	*path;		/* "" for anonymous */
};

static size_t
maps_read(struct abuf *text, struct abuf *out)
{
	struct map	*m;
	char		*s, *e;
	const char	*p;
	uint64_t	 ino;

	if (slurp("/proc/self/maps", text) < 0)
		return (0);
	for (s = (char *)text->p; *s != '\0'; s = e + 1) {
		if ((e = strchr(s, '\n')) == NULL)
			break;
		*e = '\0';
		if ((m = grow(out, sizeof *m)) == NULL)
			break;
		p = s;
		m->lo = num(&p, 16);
		p++;
		m->hi = num(&p, 16);
		p++;
		m->prot = (p[0] == 'r') | (p[1] == 'w') << 1 |
		    (p[2] == 'x') << 2;
		p += 5;
		num(&p, 16);		/* offset */
		while (*p == ' ')
			p++;
		while (*p != ' ' && *p != '\0')
			p++;		/* device */
		while (*p == ' ')
			p++;
		ino = num(&p, 10);
		while (*p == ' ')
			p++;
		m->path = p;
		m->file = ino != 0 && p[0] == '/';
		m->device = strncmp(p, "/dev/", 5) == 0 &&
		    strncmp(p, "/dev/zero", 9) != 0;
	}
	return (out->len / sizeof (struct map));
}

static const struct map *
map_find(const struct map *m, size_t n, uint64_t a)
{
	size_t	i;

	/* The mappings are sorted and disjoint: the first ending after a. */
	BSEARCH_FIRST(i, 0, n, m[i].hi <= a);
	return (i < n && m[i].lo <= a ? &m[i] : NULL);
}

/* ---- the snapshot's working state ----------------------------------- */

struct span {
	uint64_t	 lo, hi;	/* hi = lo + size, or lo + 1 if 0 */
};

struct hregion {
	uint64_t	 lo, hi;
	uint32_t	 kind;
	uint32_t	 first, end;	/* its blocks */
	size_t		 pg;		/* its page index, in s->pg */
};

struct snap {
	int		 trigger, signo;
	uint64_t	 t0, t_wall, t_stop, t_resume;
	struct abuf	 text, mapsb, blkb, tmp, counts, pgb, regb;
	struct abuf	 blks, edges, roots, regions, threads, data;
	struct abuf	 tids, excl;
	struct map	*maps;
	size_t		 nmaps;
	struct agent_blk *blk;
	size_t		 nblk;
	struct abuf	 spanb;
	struct span	*span;		/* [lo, hi) of each block, by address */
	struct hregion	*hr;
	size_t		 nhr;
	uint32_t	*pg;
	uint64_t	 lo, hi;	/* of all heap regions */
	size_t		 last;		/* the region of the last lookup */
	struct abuf	 modb;
	struct elf_mod	*mods;
	size_t		 nmods;
	uint64_t	 edges_dropped;
	uint32_t	 unstopped;
	pid_t		 self, agent;
	ucontext_t	 uc;		/* the snapshotting thread */
	int		 self_program;	/* it is one of the program's */
	uint64_t	 vt_key[4096];
	uint8_t		 vt_val[4096];
};

/*
 * The exiting thread's registers and stack pointer as memcheck finds
 * them at _exit: those of the first frame that is neither the agent's
 * nor the dynamic linker's (which runs the destructors), so neither the
 * snapshot's frames nor the dead frames below the exit path count.
 * Callee-saved registers are unwound; the others are unknown (0).
 */
static void
exit_context(struct snap *s)
{
	unw_context_t	 uc;
	unw_cursor_t	 c;
	unw_word_t	 ip, v;
	uint64_t	 self_lo, self_hi, ld_lo = 0, ld_hi = 0, base;
	size_t		 i;
	int		 k;
	static const struct { int unw, greg; } regs[] = {
		{ UNW_X86_64_RBX, REG_RBX }, { UNW_X86_64_RBP, REG_RBP },
		{ UNW_X86_64_R12, REG_R12 }, { UNW_X86_64_R13, REG_R13 },
		{ UNW_X86_64_R14, REG_R14 }, { UNW_X86_64_R15, REG_R15 },
		{ UNW_X86_64_RSP, REG_RSP }, { UNW_X86_64_RIP, REG_RIP },
	};

	agent_self_range(&self_lo, &self_hi);
	base = getauxval(AT_BASE);
	for (i = 0; i < s->nmods; i++) {
		if (base != 0 && s->mods[i].base == base) {
			ld_lo = s->mods[i].lo;
			ld_hi = s->mods[i].hi;
		}
		/* Our own data and code, wherever the loader put them. */
		if (s->mods[i].flags & HEAPFMT_MOD_AGENT) {
			self_lo = s->mods[i].lo;
			self_hi = s->mods[i].hi;
		}
	}
	if (unw_getcontext(&uc) != 0 || unw_init_local(&c, &uc) != 0)
		return;
	for (k = 0; k < 64; k++) {
		if (unw_get_reg(&c, UNW_REG_IP, &ip) != 0)
			return;
		if (!((ip >= self_lo && ip < self_hi) || (ip >= ld_lo &&
		    ip < ld_hi)))
			break;
		if (unw_step(&c) <= 0)
			return;
	}
	memset(s->uc.uc_mcontext.gregs, 0, sizeof s->uc.uc_mcontext.gregs);
	for (i = 0; i < sizeof regs / sizeof regs[0]; i++) {
		if (unw_get_reg(&c, regs[i].unw, &v) == 0)
			s->uc.uc_mcontext.gregs[regs[i].greg] = (greg_t)v;
	}
}

/* ---- stopping ------------------------------------------------------- */

static size_t
tasks(struct abuf *b)
{
	char		 buf[4096];
	const char	*p;
	long		 n, off;
	int		 fd;
	pid_t		*t;
	struct {
		uint64_t	ino;
		int64_t		off;
		unsigned short	reclen;
		unsigned char	type;
		char		name[];
	}		*d;

	b->len = 0;
	if ((fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY |
	    O_CLOEXEC)) == -1)
		return (0);
	while ((n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0) {
		for (off = 0; off < n; off += d->reclen) {
			d = (void *)(buf + off);
			if (d->name[0] < '0' || d->name[0] > '9')
				continue;
			p = d->name;
			if ((t = abuf_grow(b, sizeof *t)) != NULL)
				*t = (pid_t)num(&p, 10);
		}
	}
	close(fd);
	return (b->len / sizeof (pid_t));
}

static int
has(const pid_t *v, size_t n, pid_t t)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (v[i] == t)
			return (1);
	}
	return (0);
}

/*
 * Signal every thread but this one and the agent's until all of them
 * that still exist are parked (threads started meanwhile are signalled
 * in the next round), or two seconds pass: a thread that never parks is
 * left running and counted.
 */
static void
stop_world(struct snap *s)
{
	struct timespec	 ts = { 0, 5000000 };
	struct abuf	 now = { NULL, 0, 0 };
	pid_t		*sig, *cur;
	size_t		 nsig, ncur, i, expect;
	uint64_t	 deadline = now_ns(CLOCK_MONOTONIC) + STOP_WAIT_NS;
	uint32_t	 parked_now;
	pid_t		 pid = getpid();

	__atomic_store_n(&world.nparked, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&world.nslot, 0, __ATOMIC_RELEASE);
	__atomic_add_fetch(&world.gen, 1, __ATOMIC_ACQ_REL);
	__atomic_store_n(&world.stopping, 1, __ATOMIC_RELEASE);
	s->tids.len = 0;
	for (;;) {
		ncur = tasks(&now);
		cur = (pid_t *)now.p;
		for (i = 0; i < ncur; i++) {
			sig = (pid_t *)s->tids.p;
			nsig = s->tids.len / sizeof (pid_t);
			if (cur[i] == s->self || cur[i] == s->agent ||
			    has(sig, nsig, cur[i]))
				continue;
			if (syscall(SYS_tgkill, pid, cur[i],
			    agent_opts.stopsig) == 0 &&
			    (sig = abuf_grow(&s->tids, sizeof *sig)) != NULL)
				*sig = cur[i];
		}
		sig = (pid_t *)s->tids.p;
		nsig = s->tids.len / sizeof (pid_t);
		for (i = expect = 0; i < nsig; i++)
			expect += has(cur, ncur, sig[i]);
		parked_now = __atomic_load_n(&world.nparked, __ATOMIC_ACQUIRE);
		if (parked_now >= expect)
			break;
		if (now_ns(CLOCK_MONOTONIC) > deadline) {
			s->unstopped = (uint32_t)(expect - parked_now);
			break;
		}
		futex(&world.nparked, FUTEX_WAIT, parked_now, &ts);
	}
	abuf_free(&now);
}

static void
resume_world(void)
{
	uint32_t	g = __atomic_load_n(&world.gen, __ATOMIC_ACQUIRE);

	__atomic_store_n(&world.stopping, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&world.resumed, g, __ATOMIC_RELEASE);
	futex(&world.resumed, FUTEX_WAKE, INT32_MAX, NULL);
}

/* ---- blocks in address order ----------------------------------------- */

/* LSD radix sort on the address's low 48 bits, 16 at a time. */
static int
sort_blocks(struct snap *s)
{
	struct agent_blk	*a = s->blk, *b, *t;
	uint64_t		*cnt;
	size_t			 i, n = s->nblk, sum, c;
	int			 pass, sh;

	if (n < 2)
		return (0);
	if (grow(&s->tmp, n * sizeof *b) == NULL ||
	    grow(&s->counts, 65536 * sizeof *cnt) == NULL)
		return (-1);
	b = (struct agent_blk *)s->tmp.p;
	cnt = (uint64_t *)s->counts.p;
	for (pass = 0; pass < 3; pass++) {
		sh = pass * 16;
		memset(cnt, 0, 65536 * sizeof *cnt);
		for (i = 0; i < n; i++)
			cnt[(a[i].addr >> sh) & 0xffff]++;
		for (i = 0, sum = 0; i < 65536; i++) {
			c = cnt[i];
			cnt[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			b[cnt[(a[i].addr >> sh) & 0xffff]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	/* Three passes: the sorted copy is in the scratch buffer. */
	memcpy(s->blk, a, n * sizeof *a);
	return (0);
}

/* ---- heap regions and the block index --------------------------------- */

static struct hregion *
hr_add(struct snap *s, uint64_t lo, uint64_t hi, uint32_t kind, uint32_t i)
{
	struct hregion	*r;

	if ((r = grow(&s->regb, sizeof *r)) == NULL)
		return (NULL);
	r->lo = lo;
	r->hi = hi;
	r->kind = kind;
	r->first = r->end = i;
	s->hr = (struct hregion *)s->regb.p;
	s->nhr++;
	return (r);
}

/*
 * Put each block in the region of glibc's heap that holds it, from its
 * chunk header (the size word before it: bit 1 mmap'd, bit 2 another
 * arena): the brk heap, a 64 MiB-aligned heap of another arena, or its
 * own mapping.  The regions are the heap map's layout and what the root
 * scan leaves out; each gets a page index for finding blocks.
 */
static int
heap_regions(struct snap *s)
{
	const struct map	*m, *brk = NULL;
	struct hregion		*r = NULL;
	uint64_t		 a, hdr, chunk, prev, lo, hi;
	uint32_t		 kind;
	size_t			 i, k, np;
	uint32_t		*pg;

	for (i = 0; i < s->nmaps; i++) {
		if (strcmp(s->maps[i].path, "[heap]") == 0)
			brk = &s->maps[i];
	}
	for (i = 0; i < s->nblk; i++) {
		a = s->blk[i].addr;
		if (r != NULL && a >= r->lo && a < r->hi) {
			r->end = (uint32_t)i + 1;
			continue;
		}
		hdr = *(const uint64_t *)(uintptr_t)(a - 8);
		if (hdr & 2) {
			chunk = a - 16;
			prev = *(const uint64_t *)(uintptr_t)chunk;
			lo = chunk - prev;
			hi = chunk + (hdr & ~(uint64_t)7);
			kind = HEAPFMT_RGN_MMAP;
		} else if ((hdr & 4) && (m = map_find(s->maps, s->nmaps, a)) !=
		    NULL) {
			lo = a & ~(ARENA_HEAP_MAX - 1);
			hi = lo + ARENA_HEAP_MAX;
			lo = lo > m->lo ? lo : m->lo;
			hi = hi < m->hi ? hi : m->hi;
			kind = HEAPFMT_RGN_ARENA;
		} else if (brk != NULL && a >= brk->lo && a < brk->hi) {
			lo = brk->lo;
			hi = brk->hi;
			kind = HEAPFMT_RGN_HEAP;
		} else if ((m = map_find(s->maps, s->nmaps, a)) != NULL) {
			lo = m->lo;
			hi = m->hi;
			kind = HEAPFMT_RGN_HEAP;
		} else {
			lo = a;
			hi = a + s->blk[i].size + 1;
			kind = HEAPFMT_RGN_HEAP;
		}
		/* Blocks are sorted and regions disjoint: never behind r. */
		if (r != NULL && lo < r->hi)
			lo = r->hi;
		if (a < lo || a >= hi) {
			/* Not what glibc's headers promise: its own span. */
			lo = a;
			hi = a + (s->blk[i].size != 0 ? s->blk[i].size : 1);
			kind = HEAPFMT_RGN_HEAP;
		}
		if ((r = hr_add(s, lo, hi, kind, (uint32_t)i)) == NULL)
			return (-1);
		r->end = (uint32_t)i + 1;
	}
	/* pg[k]: the first block at or after the region's k-th cell. */
	for (k = 0, np = 0; k < s->nhr; k++) {
		s->hr[k].pg = np;
		np += ((s->hr[k].hi - s->hr[k].lo + (1 << CELL_SHIFT) - 1) >>
		    CELL_SHIFT) + 1;
	}
	if (np != 0 && abuf_grow(&s->pgb, np * sizeof *pg) == NULL)
		return (-1);
	s->pg = pg = (uint32_t *)s->pgb.p;
	for (k = 0; k < s->nhr; k++) {
		r = &s->hr[k];
		np = ((r->hi - r->lo + (1 << CELL_SHIFT) - 1) >> CELL_SHIFT) +
		    1;
		for (i = 0, a = r->first; i < np; i++) {
			while (a < r->end && s->blk[a].addr < r->lo +
			    (i << CELL_SHIFT))
				a++;
			pg[r->pg + i] = (uint32_t)a;
		}
	}
	/* The spans: lookups read these, not the 32-byte records. */
	if (s->nblk != 0 && abuf_grow(&s->spanb, s->nblk *
	    sizeof *s->span) == NULL)
		return (-1);
	s->span = (struct span *)s->spanb.p;
	for (i = 0; i < s->nblk; i++) {
		s->span[i].lo = s->blk[i].addr;
		s->span[i].hi = s->blk[i].addr + (s->blk[i].size != 0 ?
		    s->blk[i].size : 1);
	}
	if (s->nhr != 0) {
		s->lo = s->hr[0].lo;
		s->hi = s->hr[s->nhr - 1].hi;
	}
	return (0);
}

static inline const struct hregion *
region_of(struct snap *s, uint64_t p)
{
	size_t	i;

	if (p < s->lo || p >= s->hi)
		return (NULL);
	if (p >= s->hr[s->last].lo && p < s->hr[s->last].hi)
		return (&s->hr[s->last]);
	/* Sorted and disjoint (heap_regions): the first ending after p. */
	BSEARCH_FIRST(i, 0, s->nhr, s->hr[i].hi <= p);
	if (i == s->nhr || s->hr[i].lo > p)
		return (NULL);
	s->last = i;
	return (&s->hr[i]);
}

/*
 * Of the blocks a..b that start in p's cell, the last at or before p, or
 * else the block before the cell: the block p is in, if any.
 */
static inline uint32_t
cell_pick(const struct snap *s, const struct hregion *r, uint64_t p,
    uint32_t a, uint32_t b)
{
	uint32_t	i;

	if (a < b && s->span[a].lo <= p) {
		for (i = a; i + 1 < b && s->span[i + 1].lo <= p; i++)
			;
	} else {
		if (a <= r->first)
			return (HEAPFMT_NONE);
		i = a - 1;
	}
	return (p < s->span[i].hi ? i : HEAPFMT_NONE);
}

/* The block p points into (memcheck's rule), or HEAPFMT_NONE. */
static inline uint32_t
lookup(struct snap *s, uint64_t p)
{
	const struct hregion	*r;
	size_t			 k;

	if ((r = region_of(s, p)) == NULL)
		return (HEAPFMT_NONE);
	k = r->pg + ((p - r->lo) >> CELL_SHIFT);
	return (cell_pick(s, r, p, s->pg[k], s->pg[k + 1]));
}

/*
 * memcheck's test for a vtable pointer: it points into a readable file
 * mapping where, among the next 21 words, the first two that are not 0
 * point into executable file mappings (and none before them elsewhere).
 */
static int
vtlike(struct snap *s, uint64_t v)
{
	const struct map	*m, *f;
	uint64_t		 a, end, w;
	size_t			 slot = (v >> 3) & 4095;
	int			 n = 0, r = 0;

	if ((v & 7) != 0 || v < 4096)
		return (0);
	if (s->vt_key[slot] == v)
		return (s->vt_val[slot]);
	m = map_find(s->maps, s->nmaps, v);
	if (m != NULL && m->file && (m->prot & 1)) {
		end = v + 20 * 8;
		if (end > m->hi - 8)
			end = m->hi - 8;
		for (a = v; a <= end; a += 8) {
			w = *(const uint64_t *)(uintptr_t)a;
			if (w == 0)
				continue;
			f = map_find(s->maps, s->nmaps, w);
			if (f == NULL || !f->file || !(f->prot & 4))
				break;
			if (++n == 2) {
				r = 1;
				break;
			}
		}
	}
	s->vt_key[slot] = v;
	s->vt_val[slot] = (uint8_t)r;
	return (r);
}

/* The offset field of an edge or root: 31 bits of offset, a flag. */
static inline uint32_t
dst_off(struct snap *s, uint32_t dst, uint64_t p)
{
	const struct span	*t = &s->span[dst];
	uint64_t		 off = p - t->lo;
	uint32_t		 v;

	if (off == 0)
		return (0);
	v = off > HEAPFMT_OFF_MASK ? HEAPFMT_OFF_MASK : (uint32_t)off;
	/* (hi - lo is the size: a 0-byte block has no interior.) */
	if ((off & 7) == 0 && off + 8 <= t->hi - t->lo &&
	    vtlike(s, *(const uint64_t *)(uintptr_t)p))
		v |= HEAPFMT_OFF_VTLIKE;
	return (v);
}

/* ---- the scan ---------------------------------------------------------- */

static uint8_t *
region_add(struct snap *s, uint64_t lo, uint64_t hi, uint32_t kind,
    uint32_t module, uint32_t thread, uint32_t prot)
{
	uint8_t	*r;

	if ((r = grow(&s->regions, HEAPFMT_REGN_SIZE)) == NULL)
		return (NULL);
	put64(r, lo);
	put64(r + 8, hi);
	put32(r + 16, kind);
	put32(r + 24, module);
	put32(r + 28, thread);
	put32(r + 32, prot);
	return (r);
}

static uint32_t
nregions(const struct snap *s)
{
	return ((uint32_t)(s->regions.len / HEAPFMT_REGN_SIZE));
}

static void
root_add(struct snap *s, uint64_t addr, uint32_t region, uint64_t v)
{
	uint32_t	 dst;
	uint8_t		*r;

	if ((dst = lookup(s, v)) == HEAPFMT_NONE)
		return;
	if ((r = grow(&s->roots, HEAPFMT_ROOT_SIZE)) == NULL)
		return;
	put64(r, addr);
	put32(r + 8, region);
	put32(r + 12, dst);
	put32(r + 16, dst_off(s, dst, v));
}

static void
scan_root(struct snap *s, uint64_t lo, uint64_t hi, uint32_t kind,
    uint32_t module, uint32_t thread, uint32_t prot)
{
	uint32_t	reg = nregions(s);
	uint64_t	a;

	lo = (lo + 7) & ~(uint64_t)7;
	hi &= ~(uint64_t)7;
	if (lo >= hi || region_add(s, lo, hi, kind, module, thread,
	    prot) == NULL)
		return;
	for (a = lo; a < hi; a += 8)
		root_add(s, a, reg, *(const uint64_t *)(uintptr_t)a);
}

/* A range the root scan leaves out. */
static void
excl_add(struct snap *s, uint64_t lo, uint64_t hi)
{
	uint64_t	*e;

	if (lo < hi && (e = abuf_grow(&s->excl, 2 * sizeof *e)) != NULL) {
		e[0] = lo;
		e[1] = hi;
	}
}

/* Insertion sort: qsort may call malloc, not while threads are stopped. */
static void
excl_sort(uint64_t *e, size_t n)
{
	uint64_t	lo, hi;
	size_t		i, j;

	for (i = 1; i < n; i++) {
		lo = e[2 * i];
		hi = e[2 * i + 1];
		for (j = i; j > 0 && e[2 * (j - 1)] > lo; j--) {
			e[2 * j] = e[2 * (j - 1)];
			e[2 * j + 1] = e[2 * (j - 1) + 1];
		}
		e[2 * j] = lo;
		e[2 * j + 1] = hi;
	}
}

/*
 * The agent's own mappings, taken when the maps are read: a buffer that
 * grows later may move, and its old place must not be read.
 */
static void
excl_agent(struct snap *s)
{
	uint64_t	v[2 * 1024];
	size_t		i, n = agent_ranges(v, 1024);

	for (i = 0; i < n; i++)
		excl_add(s, v[2 * i], v[2 * i + 1]);
}

/* Which thread's stack (the index of its THRS record) holds a, or NONE. */
static uint32_t
stack_of(struct snap *s, const struct map *m)
{
	const uint8_t	*t = s->threads.p;
	size_t		 i, n = s->threads.len / HEAPFMT_THRS_SIZE;
	uint64_t	 sp;

	for (i = 0; i < n; i++) {
		sp = get64(t + i * HEAPFMT_THRS_SIZE + 8);
		if ((get32(t + i * HEAPFMT_THRS_SIZE + 4) &
		    (HEAPFMT_THR_STOPPED | HEAPFMT_THR_SNAPPER)) &&
		    sp >= m->lo && sp < m->hi)
			return ((uint32_t)i);
	}
	return (HEAPFMT_NONE);
}

/* Scan [lo, hi) of mapping m, which no exclusion touches, as roots. */
static void
scan_piece(struct snap *s, const struct map *m, uint64_t lo, uint64_t hi,
    uint32_t thread)
{
	const struct elf_mod	*md;
	uint64_t		 a, b;
	size_t			 k;
	int			 j;

	if (thread != HEAPFMT_NONE) {
		scan_root(s, lo, hi, HEAPFMT_RGN_STACK, HEAPFMT_NONE, thread,
		    m->prot);
		return;
	}
	/* Pieces inside a module's writable segments are its data. */
	while (lo < hi) {
		b = hi;
		for (k = 0; k < s->nmods; k++) {
			md = &s->mods[k];
			if (md->flags & HEAPFMT_MOD_UNLOADED)
				continue;
			for (j = 0; j < md->nrw; j++) {
				a = md->rw_lo[j] & ~(uint64_t)4095;
				/* .bss runs on in the next anonymous pages. */
				if (lo >= a && lo < ((md->rw_hi[j] + 4095) &
				    ~(uint64_t)4095)) {
					b = (md->rw_hi[j] + 4095) &
					    ~(uint64_t)4095;
					b = b < hi ? b : hi;
					scan_root(s, lo, b, HEAPFMT_RGN_DATA,
					    (uint32_t)k, HEAPFMT_NONE,
					    m->prot);
					lo = b;
					goto next;
				}
				if (a > lo && a < b)
					b = a;
			}
		}
		scan_root(s, lo, b, m->file ? HEAPFMT_RGN_FILE :
		    HEAPFMT_RGN_ANON, HEAPFMT_NONE, HEAPFMT_NONE, m->prot);
		lo = b;
next:		;
	}
}

/*
 * glibc's main_arena sits in libc's data and points at free chunks, whose
 * headers overlap the last word of the live block before them: roots
 * that memcheck (which replaces malloc) never sees.  It has no exported
 * symbol, so find it by its "top" field: the one word of libc's data
 * that points at the chunk ending where the brk heap ends.  The layout
 * is glibc's since 2.27: top 96 bytes in, 2200 bytes in all.
 */
#define ARENA_TOP_OFF	96
#define ARENA_SIZE	2200

static void
excl_main_arena(struct snap *s)
{
	const struct map	*brk = NULL;
	const struct elf_mod	*libc = NULL;
	uint64_t		 a, w, lo, hi, me;
	size_t			 i;
	int			 j;

	for (i = 0; i < s->nmaps; i++) {
		if (strcmp(s->maps[i].path, "[heap]") == 0)
			brk = &s->maps[i];
	}
	/* __libc_malloc's module, found by an address in libc: ours isn't. */
	me = (uint64_t)(uintptr_t)agent_libc_addr();
	for (i = 0; i < s->nmods; i++) {
		if (me >= s->mods[i].lo && me < s->mods[i].hi)
			libc = &s->mods[i];
	}
	if (brk == NULL || libc == NULL)
		return;
	for (j = 0; j < libc->nrw; j++) {
		lo = (libc->rw_lo[j] + 7) & ~(uint64_t)7;
		hi = libc->rw_hi[j] & ~(uint64_t)7;
		for (a = lo; a + 8 <= hi; a += 8) {
			if (map_find(s->maps, s->nmaps, a) == NULL)
				continue;
			w = *(const uint64_t *)(uintptr_t)a;
			if (w < brk->lo || w + 16 > brk->hi || (w & 15) != 0)
				continue;
			if (w + (*(const uint64_t *)(uintptr_t)(w + 8) &
			    ~(uint64_t)7) == brk->hi && a >= lo +
			    ARENA_TOP_OFF) {
				excl_add(s, a - ARENA_TOP_OFF, a -
				    ARENA_TOP_OFF + ARENA_SIZE);
				return;
			}
		}
	}
}

static void
scan_roots(struct snap *s)
{
	const struct map	*m;
	const uint8_t		*t;
	uint64_t		*e, lo, sp, alo, ahi;
	size_t			 i, k, ne;
	uint32_t		 th;
	int			 j;

	/* Out: the heaps, the agent's memory, data and thread stack. */
	for (i = 0; i < s->nhr; i++)
		excl_add(s, s->hr[i].lo, s->hr[i].hi);
	for (i = 0; i < s->nmods; i++) {
		if (!(s->mods[i].flags & HEAPFMT_MOD_AGENT))
			continue;
		for (j = 0; j < s->mods[i].nrw; j++)
			excl_add(s, s->mods[i].rw_lo[j] & ~(uint64_t)4095,
			    (s->mods[i].rw_hi[j] + 4095) & ~(uint64_t)4095);
	}
	agent_thread_stack(&alo, &ahi);
	if (alo < ahi && (m = map_find(s->maps, s->nmaps, alo)) != NULL)
		excl_add(s, m->lo, m->hi);
	excl_main_arena(s);
	e = (uint64_t *)s->excl.p;
	ne = s->excl.len / (2 * sizeof *e);
	excl_sort(e, ne);
	t = s->threads.p;
	for (i = 0; i < s->nmaps; i++) {
		m = &s->maps[i];
		if ((m->prot & 3) != 3 || m->device)
			continue;
		lo = m->lo;
		th = stack_of(s, m);
		if (th != HEAPFMT_NONE) {
			sp = get64(t + th * HEAPFMT_THRS_SIZE + 8);
			/* The snapshotter's own frames are below its sp. */
			if (get32(t + th * HEAPFMT_THRS_SIZE + 4) &
			    HEAPFMT_THR_STOPPED)
				sp -= RED_ZONE;
			lo = sp > m->lo ? sp : m->lo;
		}
		for (k = 0; k < ne && lo < m->hi; k++) {
			if (e[2 * k + 1] <= lo || e[2 * k] >= m->hi)
				continue;
			if (e[2 * k] > lo)
				scan_piece(s, m, lo, e[2 * k], th);
			if (e[2 * k + 1] > lo)
				lo = e[2 * k + 1];
		}
		if (lo < m->hi)
			scan_piece(s, m, lo, m->hi, th);
	}
}

static void
scan_registers(struct snap *s, uint32_t thread, const uint64_t *gregs)
{
	uint32_t	reg = nregions(s);
	size_t		i;

	if (region_add(s, 0, 0, HEAPFMT_RGN_REGS, HEAPFMT_NONE, thread,
	    0) == NULL)
		return;
	put32(s->threads.p + thread * HEAPFMT_THRS_SIZE + 36, reg);
	for (i = 0; i < NREGS; i++)
		root_add(s, i, reg, gregs[i]);
}

/* The threads: stopped ones with registers, the snapshotter, the rest. */
static void
threads_list(struct snap *s)
{
	struct abuf	 all = { NULL, 0, 0 };
	pid_t		*t;
	size_t		 i, k, n;
	uint32_t	 np;
	uint8_t		*r;
	pid_t		 pid = getpid();

	np = __atomic_load_n(&world.nslot, __ATOMIC_ACQUIRE);
	np = np < PARK_MAX ? np : PARK_MAX;
	for (i = 0; i < np; i++) {
		if ((r = grow(&s->threads, HEAPFMT_THRS_SIZE)) == NULL)
			break;
		put32(r, (uint32_t)parked[i].tid);
		put32(r + 4, HEAPFMT_THR_STOPPED | (parked[i].tid == pid ?
		    HEAPFMT_THR_MAIN : 0));
		put64(r + 8, parked[i].gregs[REG_RSP]);
		put64(r + 40, parked[i].gregs[REG_RIP]);
		put32(r + 36, HEAPFMT_NONE);
	}
	if (s->self_program && (r = grow(&s->threads,
	    HEAPFMT_THRS_SIZE)) != NULL) {
		put32(r, (uint32_t)s->self);
		put32(r + 4, HEAPFMT_THR_SNAPPER | (s->self == pid ?
		    HEAPFMT_THR_MAIN : 0));
		put64(r + 8, (uint64_t)s->uc.uc_mcontext.gregs[REG_RSP]);
		put64(r + 40, (uint64_t)s->uc.uc_mcontext.gregs[REG_RIP]);
		put32(r + 36, HEAPFMT_NONE);
	}
	n = tasks(&all);
	t = (pid_t *)all.p;
	for (i = 0; i < n; i++) {
		if (t[i] == s->agent || t[i] == s->self)
			continue;
		for (k = 0; k < np && parked[k].tid != t[i]; k++)
			;
		if (k < np || (r = grow(&s->threads,
		    HEAPFMT_THRS_SIZE)) == NULL)
			continue;
		put32(r, (uint32_t)t[i]);
		put32(r + 4, t[i] == pid ? HEAPFMT_THR_MAIN : 0);
		put32(r + 36, HEAPFMT_NONE);
	}
	abuf_free(&all);
	/* Stack bounds: the mapping each stack pointer is in. */
	n = s->threads.len / HEAPFMT_THRS_SIZE;
	for (i = 0; i < n; i++) {
		const struct map	*m;

		r = s->threads.p + i * HEAPFMT_THRS_SIZE;
		if (get64(r + 8) != 0 && (m = map_find(s->maps, s->nmaps,
		    get64(r + 8))) != NULL) {
			put64(r + 16, m->lo);
			put64(r + 24, m->hi);
		}
	}
}

/*
 * Pointers found in blocks are looked up in batches: the index cells of
 * a batch are prefetched, then their spans, so that the cache misses of
 * a random heap overlap instead of coming one after another (a lookup
 * is two of them).  Words are taken in order, so edges stay in order.
 */
#define BATCH	32

struct cand {
	uint64_t	 p;
	uint32_t	 src, word;
	uint32_t	 a, b;		/* the cell's blocks */
	const struct hregion *r;
};

static void
flush(struct snap *s, struct cand *c, size_t n)
{
	const struct hregion	*r;
	size_t			 k, j;
	uint32_t		 i;
	uint8_t			*e, *end;

	if (n == 0 || (e = abuf_grow(&s->edges, n * HEAPFMT_EDGS_SIZE)) ==
	    NULL)
		return;
	end = e + n * HEAPFMT_EDGS_SIZE;
	for (k = 0; k < n; k++) {
		r = c[k].r;
		j = r->pg + ((c[k].p - r->lo) >> CELL_SHIFT);
		__builtin_prefetch(&s->pg[j]);
	}
	for (k = 0; k < n; k++) {
		r = c[k].r;
		j = r->pg + ((c[k].p - r->lo) >> CELL_SHIFT);
		c[k].a = s->pg[j];
		c[k].b = s->pg[j + 1];
		__builtin_prefetch(&s->span[c[k].a != 0 ? c[k].a - 1 : 0]);
		__builtin_prefetch(&s->span[c[k].a]);
	}
	for (k = 0; k < n; k++) {
		if ((i = cell_pick(s, c[k].r, c[k].p, c[k].a, c[k].b)) ==
		    HEAPFMT_NONE)
			continue;
		put32(e, c[k].src);
		put32(e + 4, c[k].word);
		put32(e + 8, i);
		put32(e + 12, dst_off(s, i, c[k].p));
		e += HEAPFMT_EDGS_SIZE;
	}
	/* Give back what was reserved for words that were no pointers. */
	s->edges.len -= (size_t)(end - e);
}

/* Every block: its record, and every pointer in it. */
static void
scan_blocks(struct snap *s)
{
	const struct agent_blk	*b;
	const struct hregion	*rg;
	struct cand		 c[BATCH];
	uint64_t		 w, j, nw, hdr, keep;
	uint32_t		 flags, r = 0;
	uint8_t			*rec, *d;
	size_t			 i, nc = 0;

	if (abuf_grow(&s->blks, s->nblk * HEAPFMT_BLKS_SIZE) == NULL)
		return;
	for (i = 0; i < s->nblk; i++) {
		b = &s->blk[i];
		rec = s->blks.p + i * HEAPFMT_BLKS_SIZE;
		memset(rec, 0, HEAPFMT_BLKS_SIZE);
		while (r < s->nhr && s->hr[r].end <= i)
			r++;
		hdr = *(const uint64_t *)(uintptr_t)(b->addr - 8);
		flags = 0;
		if (hdr & 2)
			flags |= HEAPFMT_BLK_MMAPPED;
		else if (hdr & 4)
			flags |= HEAPFMT_BLK_ARENA;
		put64(rec, b->addr);
		put64(rec + 8, b->size);
		put64(rec + 16, b->seq);
		if (b->size >= 8) {
			w = *(const uint64_t *)(uintptr_t)b->addr;
			put64(rec + 24, w);
			if (vtlike(s, w))
				flags |= HEAPFMT_BLK_VTLIKE;
		}
		if (b->size >= 16)
			put64(rec + 32, *(const uint64_t *)(uintptr_t)
			    (b->addr + 8));
		/* glibc's musable(): the chunk less its header's words. */
		w = (hdr & ~(uint64_t)7) - ((hdr & 2) ? 16 : 8);
		put32(rec + 40, w > b->size ? (uint32_t)(w - b->size) : 0);
		put32(rec + 44, b->site);
		put32(rec + 48, b->tid);
		put32(rec + 52, HEAPFMT_NONE);
		put32(rec + 56, flags);
		put32(rec + 60, r < s->nhr ? r : HEAPFMT_NONE);
		nw = b->size / 8;
		for (j = 0; j < nw; j++) {
			w = *(const uint64_t *)(uintptr_t)(b->addr + 8 * j);
			if ((rg = region_of(s, w)) == NULL)
				continue;
			if (j > UINT32_MAX) {
				s->edges_dropped++;
				continue;
			}
			c[nc].p = w;
			c[nc].src = (uint32_t)i;
			c[nc].word = (uint32_t)j;
			c[nc].r = rg;
			if (++nc == BATCH) {
				flush(s, c, nc);
				nc = 0;
			}
		}
		if (agent_opts.contents != 0) {
			keep = b->size < agent_opts.contents ? b->size :
			    agent_opts.contents;
			if ((d = abuf_grow(&s->data, keep)) != NULL)
				memcpy(d, (const void *)(uintptr_t)b->addr,
				    keep);
		}
	}
	flush(s, c, nc);
}

/* ---- naming, once the threads run again ------------------------------- */

struct strtab {
	struct abuf	 b;
	uint32_t	*slot;		/* offset + 1, by hash */
	size_t		 mask, n;
};

static uint64_t
str_hash(const char *s)
{
	uint64_t	h = 1469598103934665603ull;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return (h);
}

static uint32_t
str_add(struct strtab *t, const char *s)
{
	size_t	 i, len, k;
	uint32_t *ns, off;
	char	*p;

	if (s == NULL || *s == '\0')
		return (0);
	if ((t->n + 1) * 2 > t->mask + 1) {
		k = t->mask != 0 ? (t->mask + 1) * 2 : 4096;
		if ((ns = agent_alloc(k * sizeof *ns)) == NULL)
			return (0);
		memset(ns, 0, k * sizeof *ns);
		for (i = 0; t->slot != NULL && i <= t->mask; i++) {
			if (t->slot[i] == 0)
				continue;
			off = t->slot[i] - 1;
			len = str_hash((const char *)t->b.p + off) & (k - 1);
			while (ns[len] != 0)
				len = (len + 1) & (k - 1);
			ns[len] = t->slot[i];
		}
		agent_free(t->slot);
		t->slot = ns;
		t->mask = k - 1;
	}
	for (i = str_hash(s) & t->mask; t->slot[i] != 0;
	    i = (i + 1) & t->mask) {
		if (strcmp((const char *)t->b.p + t->slot[i] - 1, s) == 0)
			return (t->slot[i] - 1);
	}
	len = strlen(s) + 1;
	if (t->b.len + len > UINT32_MAX || (p = abuf_grow(&t->b, len)) ==
	    NULL)
		return (0);
	memcpy(p, s, len);
	off = (uint32_t)(p - (char *)t->b.p);
	t->slot[i] = off + 1;
	t->n++;
	return (off);
}

/* Function and module names of the stacks' code addresses. */
struct locs {
	uint64_t	*pc;
	uint32_t	*slot;		/* index + 1, by pc */
	size_t		 n, cap, mask;
};

static uint32_t
loc_add(struct locs *l, uint64_t pc)
{
	uint64_t	*npc;
	uint32_t	*ns;
	size_t		 i, k;

	if ((l->n + 1) * 2 > l->mask + 1) {
		k = l->mask != 0 ? (l->mask + 1) * 2 : 4096;
		if ((ns = agent_alloc(k * sizeof *ns)) == NULL)
			return (0);
		memset(ns, 0, k * sizeof *ns);
		for (i = 0; i < l->n; i++) {
			size_t	j = (l->pc[i] * 0x9e3779b97f4a7c15ull) >>
			    32 & (k - 1);

			while (ns[j] != 0)
				j = (j + 1) & (k - 1);
			ns[j] = (uint32_t)i + 1;
		}
		agent_free(l->slot);
		l->slot = ns;
		l->mask = k - 1;
	}
	for (i = (pc * 0x9e3779b97f4a7c15ull) >> 32 & l->mask;
	    l->slot[i] != 0; i = (i + 1) & l->mask) {
		if (l->pc[l->slot[i] - 1] == pc)
			return (l->slot[i] - 1);
	}
	if (l->n == l->cap) {
		k = l->cap != 0 ? l->cap * 2 : 4096;
		if ((npc = agent_alloc(k * sizeof *npc)) == NULL)
			return (0);
		if (l->pc != NULL)
			memcpy(npc, l->pc, l->n * sizeof *npc);
		agent_free(l->pc);
		l->pc = npc;
		l->cap = k;
	}
	l->pc[l->n] = pc;
	l->slot[i] = (uint32_t)l->n + 1;
	return ((uint32_t)l->n++);
}

/* A function's name for people: demangled when it is C++. */
static uint32_t
str_func(struct strtab *t, const char *name)
{
	char		*d;
	uint32_t	 off;

	if ((d = elf_demangle(name)) == NULL)
		return (str_add(t, name));
	off = str_add(t, d);
	agent_free(d);
	return (off);
}

static const char *
base_name(const char *path)
{
	const char	*p = strrchr(path, '/');

	return (p != NULL ? p + 1 : path);
}

struct out {
	struct strtab	 st;
	struct abuf	 info, cntr, mods, imps, locs, frms, sites, types;
};

static void
cntr_add(struct out *o, const char *name, uint64_t v)
{
	uint8_t	*r;

	if ((r = grow(&o->cntr, HEAPFMT_CNTR_SIZE)) != NULL) {
		put32(r, str_add(&o->st, name));
		put64(r + 8, v);
	}
}

static void
name_modules(struct snap *s, struct out *o)
{
	struct elf_mod	*m;
	uint8_t		*r;
	size_t		 i, k, j;
	uint32_t	 target;
	const char	*want;

	for (i = 0; i < s->nmods; i++)
		elf_mod_load(&s->mods[i]);
	for (i = 0; i < s->nmods; i++) {
		m = &s->mods[i];
		if ((r = grow(&o->mods, HEAPFMT_MODS_SIZE)) == NULL)
			return;
		put64(r, m->base);
		put64(r + 8, m->lo);
		put64(r + 16, m->hi);
		put64(r + 24, m->code);
		put64(r + 32, m->data);
		put32(r + 40, str_add(&o->st, m->path));
		put32(r + 44, str_add(&o->st, m->build_id));
		put32(r + 48, str_add(&o->st, m->soname));
		put32(r + 52, m->flags);
		put32(r + 56, (uint32_t)(o->imps.len / HEAPFMT_IMPS_SIZE));
		put32(r + 60, (uint32_t)m->nneeded);
		for (k = 0; k < m->nneeded; k++) {
			want = m->needed[k];
			target = HEAPFMT_NONE;
			for (j = 0; j < s->nmods; j++) {
				if (s->mods[j].flags & HEAPFMT_MOD_UNLOADED)
					continue;
				if ((s->mods[j].soname != NULL &&
				    strcmp(s->mods[j].soname, want) == 0) ||
				    strcmp(base_name(s->mods[j].path),
				    want) == 0) {
					target = (uint32_t)j;
					break;
				}
			}
			if ((r = grow(&o->imps, HEAPFMT_IMPS_SIZE)) == NULL)
				return;
			put32(r, (uint32_t)i);
			put32(r + 4, str_add(&o->st, want));
			put32(r + 8, target);
		}
	}
}

/* Roots in module data by variable; registers by name; regions too. */
static void
name_roots(struct snap *s, struct out *o)
{
	const struct elf_sym	*sym;
	const struct elf_mod	*m;
	uint8_t			*r, *g;
	size_t			 i, n = s->roots.len / HEAPFMT_ROOT_SIZE;
	uint32_t		 reg, kind, mod;
	uint64_t		 a;
	char			 buf[64];

	for (i = 0; i < nregions(s); i++) {
		g = s->regions.p + i * HEAPFMT_REGN_SIZE;
		kind = get32(g + 16);
		mod = get32(g + 24);
		if (kind == HEAPFMT_RGN_HEAP)
			put32(g + 20, str_add(&o->st, "[heap]"));
		else if (kind == HEAPFMT_RGN_ARENA)
			put32(g + 20, str_add(&o->st, "[arena]"));
		else if (kind == HEAPFMT_RGN_MMAP)
			put32(g + 20, str_add(&o->st, "[mmap]"));
		else if (kind == HEAPFMT_RGN_DATA && mod < s->nmods)
			put32(g + 20, str_add(&o->st,
			    base_name(s->mods[mod].path)));
		else if (kind == HEAPFMT_RGN_STACK ||
		    kind == HEAPFMT_RGN_REGS) {
			snprintf(buf, sizeof buf, "%s %u", kind ==
			    HEAPFMT_RGN_STACK ? "[stack]" : "[registers]",
			    get32(s->threads.p + get32(g + 28) *
			    HEAPFMT_THRS_SIZE));
			put32(g + 20, str_add(&o->st, buf));
		} else if (kind == HEAPFMT_RGN_FILE) {
			const struct map	*mp;

			mp = map_find(s->maps, s->nmaps, get64(g));
			put32(g + 20, str_add(&o->st, mp != NULL ? mp->path :
			    ""));
		} else
			put32(g + 20, str_add(&o->st, "[anon]"));
	}
	for (i = 0; i < n; i++) {
		r = s->roots.p + i * HEAPFMT_ROOT_SIZE;
		reg = get32(r + 8);
		g = s->regions.p + reg * HEAPFMT_REGN_SIZE;
		kind = get32(g + 16);
		a = get64(r);
		if (kind == HEAPFMT_RGN_REGS && a < NREGS) {
			put32(r + 20, str_add(&o->st, reg_names[a]));
			continue;
		}
		if (kind != HEAPFMT_RGN_DATA || (mod = get32(g + 24)) >=
		    s->nmods)
			continue;
		m = &s->mods[mod];
		if ((sym = elf_find(m->objs, m->nobjs, a)) == NULL ||
		    sym->size == 0)
			continue;
		put32(r + 20, str_add(&o->st, sym->name));
		put32(r + 24, (uint32_t)(a - sym->addr));
	}
}

/*
 * A small map from a 64-bit key to a type index, for making each type
 * once (the agent's memory; keys are never 0).
 */
struct tmap {
	uint64_t	*key;
	uint32_t	*val;
	size_t		 mask, n;
};

static uint32_t *
tmap_slot(struct tmap *m, uint64_t k)
{
	uint64_t	*nk;
	uint32_t	*nv;
	size_t		 i, j, cap;

	if ((m->n + 1) * 2 > m->mask + 1) {
		cap = m->mask != 0 ? (m->mask + 1) * 2 : 1024;
		nk = agent_alloc(cap * sizeof *nk);
		nv = agent_alloc(cap * sizeof *nv);
		if (nk == NULL || nv == NULL) {
			agent_free(nk);
			agent_free(nv);
			return (NULL);
		}
		memset(nk, 0, cap * sizeof *nk);
		for (i = 0; m->key != NULL && i <= m->mask; i++) {
			if (m->key[i] == 0)
				continue;
			j = (m->key[i] * 0x9e3779b97f4a7c15ull >> 20) &
			    (cap - 1);
			while (nk[j] != 0)
				j = (j + 1) & (cap - 1);
			nk[j] = m->key[i];
			nv[j] = m->val[i];
		}
		agent_free(m->key);
		agent_free(m->val);
		m->key = nk;
		m->val = nv;
		m->mask = cap - 1;
	}
	for (i = (k * 0x9e3779b97f4a7c15ull >> 20) & m->mask; m->key[i] != 0;
	    i = (i + 1) & m->mask) {
		if (m->key[i] == k)
			return (&m->val[i]);
	}
	m->key[i] = k;
	m->val[i] = HEAPFMT_NONE;
	m->n++;
	return (&m->val[i]);
}

static void
tmap_free(struct tmap *m)
{
	agent_free(m->key);
	agent_free(m->val);
}

/*
 * Types: a block whose word 0 points into a _ZTV symbol is of that
 * class (one type per vtable symbol); any other block is of its
 * allocation site's type.
 */
static void
name_types(struct snap *s, struct out *o, const uint32_t *site_type)
{
	const struct elf_sym	*sym;
	const struct elf_mod	*m;
	struct tmap		 byword, bysym;
	uint8_t			*b, *t;
	char			*d;
	const char		*cls;
	size_t			 i, k, nb = s->blks.len / HEAPFMT_BLKS_SIZE;
	uint64_t		 w;
	uint32_t		 ty, site, *vw, *vs;

	memset(&byword, 0, sizeof byword);
	memset(&bysym, 0, sizeof bysym);
	for (i = 0; i < nb; i++) {
		b = s->blks.p + i * HEAPFMT_BLKS_SIZE;
		w = get64(b + 24);
		site = get32(b + 44);
		ty = site < agent_nsites() ? site_type[site] : HEAPFMT_NONE;
		if (w == 0 || get64(b + 8) < 8 ||
		    (k = elf_mod_find(s->mods, s->nmods, w)) >= s->nmods ||
		    (vw = tmap_slot(&byword, w)) == NULL) {
			put32(b + 52, ty);
			continue;
		}
		if (*vw == HEAPFMT_NONE) {
			*vw = HEAPFMT_NONE - 1;		/* looked: none */
			m = &s->mods[k];
			sym = elf_find(m->objs, m->nobjs, w);
			if (sym != NULL && sym->size != 0 &&
			    strncmp(sym->name, "_ZTV", 4) == 0 &&
			    (vs = tmap_slot(&bysym, sym->addr)) != NULL) {
				if (*vs == HEAPFMT_NONE &&
				    (t = grow(&o->types, HEAPFMT_TYPE_SIZE)) !=
				    NULL) {
					d = elf_demangle(sym->name);
					cls = d != NULL ? d : sym->name;
					if (strncmp(cls, "vtable for ",
					    11) == 0)
						cls += 11;
					put32(t, str_add(&o->st, cls));
					put32(t + 4, (uint32_t)k);
					put32(t + 8, HEAPFMT_TYPE_VTABLE);
					put32(t + 12, HEAPFMT_NONE);
					put64(t + 16, sym->addr);
					agent_free(d);
					*vs = (uint32_t)(o->types.len /
					    HEAPFMT_TYPE_SIZE) - 1;
				}
				*vw = *vs;
			}
		}
		if (*vw < HEAPFMT_NONE - 1) {
			ty = *vw;
			put32(b + 56, get32(b + 56) | HEAPFMT_BLK_VTABLE);
		}
		put32(b + 52, ty);
	}
	tmap_free(&byword);
	tmap_free(&bysym);
}

/* Sites, their stacks' code addresses, and one type per first frame. */
static uint32_t *
name_sites(struct snap *s, struct out *o)
{
	const struct agent_site	*st;
	const struct elf_sym	*sym;
	const struct elf_mod	*m;
	struct locs		 l;
	uint32_t		 ns = agent_nsites(), i, k, first, *site_type;
	uint32_t		*loc_type, name, *vt;
	struct tmap		 byname;
	uint8_t			*r;
	char			 buf[PATH_MAX];
	size_t			 mod;

	memset(&l, 0, sizeof l);
	if ((site_type = agent_alloc((ns + 1) * sizeof *site_type)) == NULL)
		return (NULL);
	for (i = 0; i < ns; i++) {
		st = agent_site(i);
		if ((r = grow(&o->sites, HEAPFMT_SITE_SIZE)) == NULL)
			break;
		first = (uint32_t)(o->frms.len / HEAPFMT_FRMS_SIZE);
		put32(r, first);
		put32(r + 4, st->nframes);
		put64(r + 8, st->allocs);
		put64(r + 16, st->frees);
		put64(r + 24, st->bytes);
		put64(r + 32, st->peak);
		put64(r + 40, st->live);
		put64(r + 48, st->nlive);
		for (k = 0; k < st->nframes; k++) {
			uint8_t	*f = grow(&o->frms, HEAPFMT_FRMS_SIZE);

			if (f != NULL)
				put32(f, loc_add(&l, st->frames[k]));
		}
		site_type[i] = st->nframes != 0 ? get32(o->frms.p + first *
		    HEAPFMT_FRMS_SIZE) : HEAPFMT_NONE;
	}
	/* Locations, and a type for each that begins a stack. */
	if ((loc_type = agent_alloc((l.n + 1) * sizeof *loc_type)) == NULL)
		return (site_type);
	for (i = 0; i < l.n; i++)
		loc_type[i] = HEAPFMT_NONE;
	for (i = 0; i < ns; i++) {
		if (site_type[i] != HEAPFMT_NONE)
			loc_type[site_type[i]] = 0;
	}
	memset(&byname, 0, sizeof byname);
	for (i = 0; i < l.n; i++) {
		if ((r = grow(&o->locs, HEAPFMT_LOCS_SIZE)) == NULL)
			break;
		put64(r, l.pc[i]);
		mod = elf_mod_find(s->mods, s->nmods, l.pc[i]);
		put32(r + 8, mod < s->nmods ? (uint32_t)mod : HEAPFMT_NONE);
		sym = NULL;
		if (mod < s->nmods) {
			m = &s->mods[mod];
			/* A return address: the call is the byte before. */
			sym = elf_find(m->funcs, m->nfuncs, l.pc[i] - 1);
			if (sym != NULL)
				put32(r + 12, str_func(&o->st, sym->name));
		}
		if (loc_type[i] == HEAPFMT_NONE)
			continue;
		/* One type per function (per module): the site's caller. */
		if (sym != NULL)
			name = str_func(&o->st, sym->name);
		else if (mod < s->nmods) {
			snprintf(buf, sizeof buf, "%.200s+0x%llx",
			    base_name(s->mods[mod].path), (unsigned long
			    long)(l.pc[i] - s->mods[mod].base));
			name = str_add(&o->st, buf);
		} else {
			snprintf(buf, sizeof buf, "0x%llx",
			    (unsigned long long)l.pc[i]);
			name = str_add(&o->st, buf);
		}
		if ((vt = tmap_slot(&byname, ((uint64_t)(mod & 0xffffffff) <<
		    32 | name) + 1)) == NULL)
			break;
		if (*vt == HEAPFMT_NONE) {
			if ((r = grow(&o->types, HEAPFMT_TYPE_SIZE)) == NULL)
				break;
			put32(r, name);
			put32(r + 4, mod < s->nmods ? (uint32_t)mod :
			    HEAPFMT_NONE);
			put32(r + 8, HEAPFMT_TYPE_SITE);
			put32(r + 12, HEAPFMT_NONE);
			*vt = (uint32_t)(o->types.len / HEAPFMT_TYPE_SIZE) - 1;
		}
		loc_type[i] = *vt;
	}
	tmap_free(&byname);
	for (i = 0; i < ns; i++) {
		if (site_type[i] == HEAPFMT_NONE)
			continue;
		site_type[i] = loc_type[site_type[i]];
		r = o->sites.p + (size_t)i * HEAPFMT_SITE_SIZE;
		put32(r + 56, site_type[i]);
		/* The type's site: the first site that made it. */
		if (get32(o->types.p + site_type[i] * HEAPFMT_TYPE_SIZE + 12) ==
		    HEAPFMT_NONE)
			put32(o->types.p + site_type[i] * HEAPFMT_TYPE_SIZE +
			    12, i);
	}
	for (i = 0; i < ns; i++) {
		if (site_type[i] == HEAPFMT_NONE)
			put32(o->sites.p + (size_t)i * HEAPFMT_SITE_SIZE + 56,
			    HEAPFMT_NONE);
	}
	agent_free(loc_type);
	agent_free(l.pc);
	agent_free(l.slot);
	return (site_type);
}

static void
name_threads(struct snap *s, struct out *o)
{
	struct abuf	 b = { NULL, 0, 0 };
	char		 path[64], *nl;
	size_t		 i, n = s->threads.len / HEAPFMT_THRS_SIZE;
	uint8_t		*r;

	for (i = 0; i < n; i++) {
		r = s->threads.p + i * HEAPFMT_THRS_SIZE;
		snprintf(path, sizeof path, "/proc/self/task/%u/comm",
		    get32(r));
		if (slurp(path, &b) <= 0)
			continue;
		if ((nl = strchr((char *)b.p, '\n')) != NULL)
			*nl = '\0';
		put32(r + 32, str_add(&o->st, (char *)b.p));
	}
	abuf_free(&b);
}

static void
info(struct snap *s, struct out *o)
{
	struct abuf	 b = { NULL, 0, 0 };
	char		 path[PATH_MAX];
	uint8_t		*r;
	ssize_t		 n, i;

	if ((r = grow(&o->info, HEAPFMT_INFO_SIZE)) == NULL)
		return;
	put32(r, (uint32_t)getpid());
	put32(r + 4, (uint32_t)getppid());
	put32(r + 8, (uint32_t)s->trigger);
	put32(r + 12, s->trigger == HEAPFMT_AT_EXIT ? 0 :
	    agent_next_serial());
	put64(r + 16, s->t_wall);
	put64(r + 24, s->t_resume - s->t_stop);
	put64(r + 32, __atomic_load_n(&agent_seq, __ATOMIC_RELAXED));
	put64(r + 40, agent_opts.contents);
	if ((n = readlink("/proc/self/exe", path, sizeof path - 1)) > 0) {
		path[n] = '\0';
		put32(r + 48, str_add(&o->st, path));
	}
	if ((n = slurp("/proc/self/cmdline", &b)) > 0) {
		for (i = 0; i < n - 1; i++) {
			if (b.p[i] == '\0')
				b.p[i] = ' ';
		}
		put32(r + 52, str_add(&o->st, (char *)b.p));
	}
	abuf_free(&b);
	if (getcwd(path, sizeof path) != NULL)
		put32(r + 56, str_add(&o->st, path));
	put32(r + 60, (uint32_t)agent_opts.depth);
	put32(r + 64, (uint32_t)sysconf(_SC_PAGESIZE));
	put32(r + 68, (uint32_t)s->signo);
	put32(r + 72, 8);
	put64(r + HF_INFO_STARTED_NS, agent_started_ns);
}

/* ---- the file ---------------------------------------------------------- */

struct sec {
	const char	*tag;
	uint32_t	 recsize;
	const uint8_t	*p;
	size_t		 len;
};

static int
write_all(int fd, const void *p, size_t n)
{
	const uint8_t	*q = p;
	ssize_t		 w;

	while (n > 0) {
		if ((w = write(fd, q, n)) < 0) {
			if (errno == EINTR)
				continue;
			return (-1);
		}
		q += w;
		n -= (size_t)w;
	}
	return (0);
}

/*
 * The file is made by outfile.c (0600, never through a symlink planted
 * beside it, a FIFO or device written in place, whole or not at all: a
 * program that dies while a periodic snapshot is written leaves nothing
 * behind).  Its calls on a descriptor allocate nothing, and the struct
 * is static: one snapshot at a time (snap_lock), and a thread's stack
 * may be small.
 */
static int
write_file(const char *path, const struct sec *sec, size_t nsec)
{
	static struct outfile	 of;
	uint8_t			 head[HEAPFMT_HEADER], ent[HEAPFMT_SECTION];
	static const uint8_t	 zero[8];
	uint64_t		 off, size;
	size_t			 i;
	int			 fd;

	off = HEAPFMT_HEADER + nsec * HEAPFMT_SECTION;
	for (i = 0; i < nsec; i++)
		off = ((off + 7) & ~(uint64_t)7) + sec[i].len;
	size = off;
	memset(head, 0, sizeof head);
	memcpy(head, HEAPFMT_MAGIC, HEAPFMT_MAGIC_LEN);
	put16(head + 8, HEAPFMT_MAJOR);
	put16(head + 10, HEAPFMT_MINOR);
	put32(head + 12, (uint32_t)nsec);
	put64(head + 16, size);
	put32(head + 24, HEAPFMT_HEADER);
	if ((fd = outfile_open(&of, path)) == -1)
		return (-1);
	if (write_all(fd, head, sizeof head) != 0)
		goto fail;
	off = HEAPFMT_HEADER + nsec * HEAPFMT_SECTION;
	for (i = 0; i < nsec; i++) {
		off = (off + 7) & ~(uint64_t)7;
		memcpy(ent, sec[i].tag, 4);
		put32(ent + 4, sec[i].recsize);
		put64(ent + 8, off);
		put64(ent + 16, sec[i].len / sec[i].recsize);
		if (write_all(fd, ent, sizeof ent) != 0)
			goto fail;
		off += sec[i].len;
	}
	off = HEAPFMT_HEADER + nsec * HEAPFMT_SECTION;
	for (i = 0; i < nsec; i++) {
		if (write_all(fd, zero, ((off + 7) & ~(uint64_t)7) - off) != 0)
			goto fail;
		off = (off + 7) & ~(uint64_t)7;
		if (sec[i].len != 0 && write_all(fd, sec[i].p,
		    sec[i].len) != 0)
			goto fail;
		off += sec[i].len;
	}
	/* Whole or not at all: a reader never sees half a snapshot. */
	return (outfile_close(&of));
fail:
	outfile_abort(&of);
	return (-1);
}

static void
snap_free(struct snap *s)
{
	struct abuf	*b[] = { &s->text, &s->mapsb, &s->blkb, &s->tmp,
	    &s->counts, &s->pgb, &s->regb, &s->spanb, &s->blks, &s->edges,
	    &s->roots,
	    &s->regions, &s->threads, &s->data, &s->tids, &s->excl };
	size_t		 i;

	for (i = 0; i < sizeof b / sizeof b[0]; i++)
		abuf_free(b[i]);
	elf_mods_free(s->mods, s->nmods);
	abuf_free(&s->modb);
}

/*
 * Take a snapshot and write it; 0 and the file's name in msg, or -1 and
 * why.  One at a time; the caller's own allocations pass untracked.
 */
int
snap_take(int trigger, int signo, char *msg, size_t msglen)
{
	static struct snap	 s;	/* big, and never two at once */
	struct out		 o;
	struct sec		 sec[16];
	uint32_t		*site_type;
	char			 path[PATH_MAX];
	size_t			 nsec = 0, nedges, nroots;
	int			 was;
	volatile int		 rc = -1;	/* getcontext: -Wclobbered */

	pthread_mutex_lock(&snap_lock);
	was = agent_busy_enter();
	memset(&s, 0, sizeof s);
	memset(&o, 0, sizeof o);
	s.trigger = trigger;
	s.signo = signo;
	s.self = agent_gettid();
	s.self_program = !agent_is_agent_thread();
	s.agent = agent_thread_tid();
	s.t0 = now_ns(CLOCK_MONOTONIC);
	getcontext(&s.uc);
	/* The loader's lock may be held by a thread we stop: ask first. */
	s.nmods = elf_modules(&s.modb);
	s.mods = (struct elf_mod *)s.modb.p;
	if (s.self_program && trigger == HEAPFMT_AT_EXIT)
		exit_context(&s);
	str_add(&o.st, "");	/* offset 0 is "" */
	if (o.st.b.len == 0 && abuf_grow(&o.st.b, 1) != NULL)
		o.st.b.p[0] = '\0';

	s.t_wall = now_ns(CLOCK_REALTIME);
	s.t_stop = now_ns(CLOCK_MONOTONIC);
	stop_world(&s);
	s.nmaps = maps_read(&s.text, &s.mapsb);
	s.maps = (struct map *)s.mapsb.p;
	excl_agent(&s);
	s.nblk = agent_blocks(&s.blkb);
	s.blk = (struct agent_blk *)s.blkb.p;
	if (sort_blocks(&s) != 0 || heap_regions(&s) != 0) {
		resume_world();
		snprintf(msg, msglen, "snapshot failed: out of memory or a"
		    " block outside glibc's heap");
		goto out;
	}
	threads_list(&s);
	scan_blocks(&s);
	scan_roots(&s);
	{
		size_t	i, n = s.threads.len / HEAPFMT_THRS_SIZE;
		uint32_t np = __atomic_load_n(&world.nslot, __ATOMIC_ACQUIRE);

		for (i = 0; i < np && i < n && i < PARK_MAX; i++)
			scan_registers(&s, (uint32_t)i, parked[i].gregs);
		if (s.self_program && i < n)
			scan_registers(&s, (uint32_t)i,
			    (const uint64_t *)s.uc.uc_mcontext.gregs);
	}
	resume_world();
	s.t_resume = now_ns(CLOCK_MONOTONIC);

	/* Heap regions first in REGN: the blocks' region is its index. */
	{
		struct abuf	 roots = s.regions;
		size_t		 i;
		uint8_t		*r;
		uint32_t	 nh = (uint32_t)s.nhr;

		memset(&s.regions, 0, sizeof s.regions);
		for (i = 0; i < s.nhr; i++)
			region_add(&s, s.hr[i].lo, s.hr[i].hi, s.hr[i].kind,
			    HEAPFMT_NONE, HEAPFMT_NONE, 3);
		if (roots.len != 0 && (r = abuf_grow(&s.regions,
		    roots.len)) != NULL)
			memcpy(r, roots.p, roots.len);
		abuf_free(&roots);
		for (i = 0; i < s.roots.len / HEAPFMT_ROOT_SIZE; i++) {
			r = s.roots.p + i * HEAPFMT_ROOT_SIZE;
			put32(r + 8, get32(r + 8) + nh);
		}
		for (i = 0; i < s.threads.len / HEAPFMT_THRS_SIZE; i++) {
			r = s.threads.p + i * HEAPFMT_THRS_SIZE;
			if (get32(r + 36) != HEAPFMT_NONE)
				put32(r + 36, get32(r + 36) + nh);
		}
	}
	name_modules(&s, &o);
	name_roots(&s, &o);
	name_threads(&s, &o);
	site_type = name_sites(&s, &o);
	name_types(&s, &o, site_type);
	agent_free(site_type);
	info(&s, &o);
	nedges = s.edges.len / HEAPFMT_EDGS_SIZE;
	nroots = s.roots.len / HEAPFMT_ROOT_SIZE;
	cntr_add(&o, "frees_unknown", __atomic_load_n(&agent_frees_unknown,
	    __ATOMIC_RELAXED));
	cntr_add(&o, "edges_dropped", s.edges_dropped);
	cntr_add(&o, "threads_unstopped", s.unstopped);
	cntr_add(&o, "stop_ns", s.t_resume - s.t_stop);
	cntr_add(&o, "snapshot_ns", now_ns(CLOCK_MONOTONIC) - s.t0);

#define SEC(t, sz, b)	do {						\
	sec[nsec].tag = (t);						\
	sec[nsec].recsize = (sz);					\
	sec[nsec].p = (b).p;						\
	sec[nsec].len = (b).len;					\
	nsec++;								\
} while (0)
	SEC(HEAPFMT_INFO, HEAPFMT_INFO_SIZE, o.info);
	SEC(HEAPFMT_CNTR, HEAPFMT_CNTR_SIZE, o.cntr);
	SEC(HEAPFMT_MODS, HEAPFMT_MODS_SIZE, o.mods);
	SEC(HEAPFMT_IMPS, HEAPFMT_IMPS_SIZE, o.imps);
	SEC(HEAPFMT_THRS, HEAPFMT_THRS_SIZE, s.threads);
	SEC(HEAPFMT_REGN, HEAPFMT_REGN_SIZE, s.regions);
	SEC(HEAPFMT_LOCS, HEAPFMT_LOCS_SIZE, o.locs);
	SEC(HEAPFMT_FRMS, HEAPFMT_FRMS_SIZE, o.frms);
	SEC(HEAPFMT_SITE, HEAPFMT_SITE_SIZE, o.sites);
	SEC(HEAPFMT_TYPE, HEAPFMT_TYPE_SIZE, o.types);
	SEC(HEAPFMT_BLKS, HEAPFMT_BLKS_SIZE, s.blks);
	SEC(HEAPFMT_EDGS, HEAPFMT_EDGS_SIZE, s.edges);
	SEC(HEAPFMT_ROOT, HEAPFMT_ROOT_SIZE, s.roots);
	if (agent_opts.contents != 0)
		SEC(HEAPFMT_DATA, 1, s.data);
	SEC(HEAPFMT_STRS, 1, o.st.b);
#undef SEC
	agent_out_name(path, sizeof path, get32(o.info.p + 12));
	if (write_file(path, sec, nsec) != 0) {
		snprintf(msg, msglen, "%s: %s", path, strerror(errno));
		goto out;
	}
	snprintf(msg, msglen, "%s", path);
	agent_say("%s: %zu blocks, %zu edges, %zu roots; threads stopped"
	    " %.1f ms", path, s.nblk, nedges, nroots,
	    (double)(s.t_resume - s.t_stop) / 1e6);
	rc = 0;
out:
	snap_free(&s);
	abuf_free(&o.info);
	abuf_free(&o.cntr);
	abuf_free(&o.mods);
	abuf_free(&o.imps);
	abuf_free(&o.locs);
	abuf_free(&o.frms);
	abuf_free(&o.sites);
	abuf_free(&o.types);
	abuf_free(&o.st.b);
	agent_free(o.st.slot);
	agent_busy_leave(was);
	pthread_mutex_unlock(&snap_lock);
	return (rc);
}
