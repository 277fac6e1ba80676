/*
 * pvprfd's profiles: one per pid, Dos32Profile's state machine over
 * perf_event_open sampling, every sample classified as OS/2 counted it
 * (pvprfd(1) says how each counter is made on Linux).
 *
 * A profile opens one cpu-clock event per thread and CPU, as perf record
 * does: the kernel maps no ring buffer of an inherited per-thread event
 * (cpu -1), so each CPU has one buffer, the first event's, and the
 * others write into it (PERF_EVENT_IOC_SET_OUTPUT).  With inherit
 * (PRF_PROCESS_MT) threads made later get events of their own in the
 * same buffers; PRF_PROCESS_ST has the main thread's alone.
 */
#include <sys/auxv.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bsearch.h"
#include "capture/pvprf/pvprf.h"
#include "capture/pvprf/prfd.h"
#include "capture/pvprf/pvprfd.h"
#include "xmalloc.h"

/* Detail counters of all slots together: 4M, 32 MB at most. */
#define DETAIL_MAX	(4u * 1024 * 1024)
/* Ring buffer pages per CPU (a power of 2) and the wakeup mark. */
#define RING_PAGES	32
#define TIMVAL_MIN	100
/* A missed address re-reads the process's maps at most this often. */
#define MAPS_EVERY_NS	(50ull * 1000 * 1000)
#define MAPS_CACHE	16

struct map {
	uint64_t	 lo, hi, pgoff;
	dev_t		 dev;		/* the file's, as mapped (0: none) */
	ino_t		 ino;
	int		 file;		/* file-backed, or the vDSO */
	char		*path;		/* the file's, or "[vdso]" */
};

/*
 * A mapping some sample fell in outside the slots (a module: the program,
 * a library, the vDSO) or the kernel, with its samples by address: what
 * lets a reader name them by the module's symbols (PRFD_EXT_MAPPING).
 */
struct mod {
	uint64_t	 lo, hi, pgoff;
	dev_t		 dev;		/* the file mapped, from the maps */
	ino_t		 ino;
	char		*path;
	int		 kernel;
	uint64_t	 samples;
	int		 ident;		/* bid and bias read from the mapping */
	uint8_t		 bid[64];
	size_t		 nbid;
	uint64_t	 bias;
};

/* A sample address of a module and how many fell there (open hashing). */
struct mhit {
	uint64_t	 addr;
	uint64_t	 n;
	uint32_t	 mod;		/* its index + 1; 0: an empty cell */
};

struct maps {
	pid_t		 pid;
	struct map	*v;
	size_t		 n;
	uint64_t	 read_ns;
};

struct slot {
	uint64_t	 vaddr, size, mode;
	uint64_t	 cnt;
	uint64_t	*detail;	/* NULL: a total count only */
	size_t		 ndetail;
	int		 hit;		/* its samples go into the hit table */
	char		*path;		/* its module, once known */
	uint8_t		 bid[64];
	size_t		 nbid;
	int		 bid_read;
};

struct thread {
	pid_t		 tid;
	int		 live;
	uint64_t	 taken, acc;	/* samples, and those accumulated */
	uint64_t	 kernel, shrmem, unknown, idle;
};

struct ring {
	int		 fd;		/* the event the buffer is mapped on */
	void		*base;
	size_t		 len;
	int		 hup;		/* its event has ended: not polled */
};

struct prf {
	pid_t		 pid;
	uint16_t	 flags;		/* cm_flags as given */
	uint16_t	 timval;
	uint64_t	 period_ns;
	int		 width;		/* the initializing caller's ULONG */
	int		 running;
	int		 user_only;	/* kernel samples refused (paranoid) */

	struct slot	*slots;
	size_t		 nslots;
	size_t		*order;		/* slot indexes by address */
	unsigned	 shift;

	uint64_t	*hits;
	size_t		 nhits, hitcnt, hitpos;
	int		 hitovfl;

	struct prfd_flg	 flg, flg0;
	unsigned	 flgsum;

	uint64_t	 taken, acc;
	uint64_t	 kernel, shrmem, unknown, idle;
	uint64_t	 lost, errors;

	struct thread	*threads;
	size_t		 nthreads;
	size_t		 nlive;

	struct maps	 maps[MAPS_CACHE];	/* [0] is the process's */
	size_t		 nextmap;

	struct mod	*mods;
	size_t		 nmods, modcap, lastmod;
	struct mhit	*mhits;
	size_t		 nmhits, mhcap;

	uint64_t	 wall_ns, start_ns, end_ns;
	int		 pidfd;		/* readable once the process has ended */
	int		 ended;		/* drained a last time, events closed */

	int		*fds;
	size_t		 nfds;
	struct ring	*rings;
	size_t		 nrings;

	char		*cmdline;
	size_t		 cmdlen;

	struct prf	*next;
};

static struct prf	*profiles;
/* Why the last INIT failed, in words for the caller (pvprf(3)). */
static char		 why[PRFD_WHY_MAX];

static uint64_t
now_ns(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec);
}

struct prf *
prf_find(pid_t pid)
{
	struct prf	*p;

	for (p = profiles; p != NULL; p = p->next) {
		if (p->pid == pid)
			return (p);
	}
	return (NULL);
}

const char *
prf_why(void)
{
	return (why);
}

/*
 * mmap of a perf buffer is EPERM when the user's locked memory is spent:
 * perf_event_mlock_kb a CPU for all the user's buffers, then the
 * daemon's RLIMIT_MEMLOCK (which root's CAP_IPC_LOCK passes).  Not a
 * process the user may not profile: 8, and which limit.
 */
static void
why_memlock(void)
{
	struct rlimit	 rl;
	char		 kb[32] = "?", lim[32] = "unlimited";
	ssize_t		 n;
	int		 fd;

	if ((fd = open("/proc/sys/kernel/perf_event_mlock_kb",
	    O_RDONLY | O_CLOEXEC)) >= 0) {
		if ((n = read(fd, kb, sizeof kb - 1)) > 0)
			kb[strcspn(kb, "\n")] = '\0';
		else
			strcpy(kb, "?");
		close(fd);
	}
	if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		snprintf(lim, sizeof lim, "%llu KiB",
		    (unsigned long long)rl.rlim_cur / 1024);
	snprintf(why, sizeof why, "the perf buffers' locked memory is spent:"
	    " the user's %s KiB a CPU (kernel.perf_event_mlock_kb) and"
	    " pvprfd's RLIMIT_MEMLOCK (%s); EXIT profiles not needed",
	    kb, lim);
}

int
prf_any(void)
{
	return (profiles != NULL);
}

static int
pid_exists(pid_t pid)
{
	char	path[64];

	if (pid == 0)
		return (1);
	/* kill() would say EPERM for a process not ours: 303 too. */
	if (kill(pid, 0) != 0)
		return (0);
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	return (access(path, R_OK) == 0);
}

/*
 * Whether the process a profile was made for has ended and its pid is
 * another process's now: its pidfd says it has ended, and a pid is not
 * reused before its process is reaped, so a process at the pid that is
 * not a zombie is another.  Without a pidfd (a kernel before 5.3) the
 * two cannot be told apart (start times are in clock ticks): never.
 */
static int
pid_reused(const struct prf *p)
{
	struct pollfd	 pfd;
	char		 path[64], buf[512], *s;
	ssize_t		 n;
	int		 fd;

	if (p->pidfd < 0)
		return (0);
	pfd.fd = p->pidfd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 0) != 1)
		return (0);
	snprintf(path, sizeof path, "/proc/%d/stat", (int)p->pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return (0);
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		return (0);
	buf[n] = '\0';
	/* The state follows the command, which ends at the last ')'. */
	s = strrchr(buf, ')');
	return (s != NULL && s[1] == ' ' && s[2] != 'Z' && s[2] != 'X');
}

static void
maps_free(struct maps *m)
{
	size_t	i;

	for (i = 0; i < m->n; i++)
		free(m->v[i].path);
	free(m->v);
	m->v = NULL;
	m->n = 0;
}

/*
 * Mapping e's file, or what else it is, by the name the kernel gives it
 * (p): a path, "[vdso]" and "[vsyscall]", or none for anonymous memory
 * (the maps' empty name, the mmap records' "//anon").
 */
static void
map_name(struct map *e, const char *p)
{
	char	*d;

	if (p[0] == '/' && p[1] == '/')
		p = "";
	e->file = p[0] == '/' || strcmp(p, "[vdso]") == 0 ||
	    strcmp(p, "[vsyscall]") == 0;
	e->path = p[0] == '/' || strcmp(p, "[vdso]") == 0 ? xstrdup(p) : NULL;
	/* A file replaced since it was mapped: its name as it was. */
	if (e->path != NULL && (d = strstr(e->path, " (deleted)")) != NULL &&
	    d[10] == '\0')
		*d = '\0';
}

/* The process's mappings, from /proc/PID/maps (sorted by the kernel). */
static int
maps_read(struct maps *m, pid_t pid)
{
	char		 path[64], line[PATH_MAX + 128], *p, *nl;
	unsigned long	 lo, hi, pgoff, ino;
	unsigned int	 maj, min;
	struct map	*v = NULL;
	size_t		 n = 0, cap = 0;
	int		 off;
	FILE		*f;

	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	if ((f = fopen(path, "re")) == NULL)
		return (-1);
	while (fgets(line, sizeof line, f) != NULL) {
		off = -1;
		if (sscanf(line, "%lx-%lx %*s %lx %x:%x %lu %n", &lo, &hi,
		    &pgoff, &maj, &min, &ino, &off) < 6 || off < 0)
			continue;
		p = line + off;
		if ((nl = strchr(p, '\n')) != NULL)
			*nl = '\0';
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			v = xreallocarray(v, cap, sizeof *v);
		}
		v[n].lo = lo;
		v[n].hi = hi;
		v[n].pgoff = pgoff;
		v[n].dev = makedev(maj, min);
		v[n].ino = (ino_t)ino;
		map_name(&v[n], p);
		n++;
	}
	fclose(f);
	if (n == 0 && m->pid == pid && m->n != 0) {
		/*
		 * A zombie's maps are empty: what is known of its mappings
		 * (the records' too) stays, to name its late samples.
		 */
		m->read_ns = now_ns();
		return (-1);
	}
	maps_free(m);
	m->pid = pid;
	m->v = v;
	m->n = n;
	m->read_ns = now_ns();
	return (0);
}

/*
 * Mapping e (its path taken), put in the maps in place of what it
 * overlaps: what the kernel reported mapped (PERF_RECORD_MMAP2), in order
 * with the samples however late they are drained.  A library mapped after
 * the maps were read is known so even once the process has ended, when
 * /proc/PID/maps has nothing left to read.
 */
static void
maps_add(struct maps *m, struct map *e)
{
	struct map	*v, *o;
	size_t		 i, n = 0;

	v = xreallocarray(NULL, m->n + 2, sizeof *v);
	for (i = 0; i < m->n; i++) {
		o = &m->v[i];
		if (o->hi <= e->lo || o->lo >= e->hi) {
			v[n++] = *o;
			continue;
		}
		/* What is left of it either side (a hole punched). */
		if (o->lo < e->lo) {
			v[n] = *o;
			v[n].hi = e->lo;
			v[n++].path = o->path != NULL ? xstrdup(o->path) : NULL;
		}
		if (o->hi > e->hi) {
			v[n] = *o;
			v[n].pgoff += e->hi - o->lo;
			v[n].lo = e->hi;
			v[n++].path = o->path != NULL ? xstrdup(o->path) : NULL;
		}
		free(o->path);
	}
	for (i = n; i > 0 && v[i - 1].lo >= e->hi; i--)
		v[i] = v[i - 1];
	v[i] = *e;
	free(m->v);
	m->v = v;
	m->n = n + 1;
}

static struct map *
maps_find(struct maps *m, uint64_t ip)
{
	size_t	i;

	/* The mappings are sorted and disjoint: the first ending after ip. */
	BSEARCH_FIRST(i, 0, m->n, m->v[i].hi <= ip);
	return (i < m->n && ip >= m->v[i].lo ? &m->v[i] : NULL);
}

/*
 * The mapping of a user-mode address of pid (NULL: none, unknown), read
 * again when the address is in none (a library loaded since), not more
 * often than MAPS_EVERY_NS.  System-wide profiles keep a few processes'.
 */
static struct map *
classify_user(struct prf *p, pid_t pid, uint64_t ip)
{
	struct maps	*m = NULL;
	struct map	*e;
	size_t		 i;

	for (i = 0; i < MAPS_CACHE; i++) {
		if (p->maps[i].pid == pid && p->maps[i].read_ns != 0) {
			m = &p->maps[i];
			break;
		}
	}
	if (m == NULL) {
		if (p->pid != 0)
			m = &p->maps[0];
		else {
			m = &p->maps[p->nextmap];
			p->nextmap = (p->nextmap + 1) % MAPS_CACHE;
		}
		if (maps_read(m, pid) != 0) {
			m->pid = pid;
			m->read_ns = now_ns();
		}
	}
	if ((e = maps_find(m, ip)) == NULL &&
	    now_ns() - m->read_ns >= MAPS_EVERY_NS &&
	    maps_read(m, pid) == 0)
		e = maps_find(m, ip);
	return (e != NULL && e->file ? e : NULL);
}

static size_t
mhit_at(uint64_t addr, size_t mod, size_t cap)
{
	uint64_t	v = addr ^ ((uint64_t)mod << 48);

	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return ((size_t)v & (cap - 1));
}

/* One more sample at addr of module k. */
static void
mhit_add(struct prf *p, size_t k, uint64_t addr)
{
	struct mhit	*old = p->mhits;
	size_t		 oldcap = p->mhcap, i, h;

	if (2 * (p->nmhits + 1) > p->mhcap) {
		p->mhcap = p->mhcap != 0 ? 2 * p->mhcap : 1024;
		p->mhits = xcalloc(p->mhcap, sizeof *p->mhits);
		for (i = 0; i < oldcap; i++) {
			if (old[i].mod == 0)
				continue;
			for (h = mhit_at(old[i].addr, old[i].mod, p->mhcap);
			    p->mhits[h].mod != 0; h = (h + 1) & (p->mhcap - 1))
				;
			p->mhits[h] = old[i];
		}
		free(old);
	}
	for (h = mhit_at(addr, k + 1, p->mhcap); p->mhits[h].mod != 0;
	    h = (h + 1) & (p->mhcap - 1)) {
		if (p->mhits[h].mod == k + 1 && p->mhits[h].addr == addr) {
			p->mhits[h].n++;
			p->mods[k].samples++;
			return;
		}
	}
	p->mhits[h].mod = k + 1;
	p->mhits[h].addr = addr;
	p->mhits[h].n = 1;
	p->nmhits++;
	p->mods[k].samples++;
}

static int	map_ident(pid_t, const struct map *, uint8_t *, size_t *,
		    uint64_t *);
static void	slot_module(struct prf *, struct slot *);

/*
 * The module of mapping e (NULL: the kernel), made the first time a
 * sample falls in it: a mapping is one as long as its address, size,
 * offset and file are, so a library unloaded and another loaded at its
 * address are two.
 */
static size_t
mod_get(struct prf *p, const struct map *e)
{
	struct mod	*md;
	size_t		 i;

	if (p->lastmod < p->nmods) {
		md = &p->mods[p->lastmod];
		if (e == NULL ? md->kernel : (!md->kernel && md->lo == e->lo &&
		    md->hi == e->hi && md->pgoff == e->pgoff &&
		    strcmp(md->path, e->path) == 0))
			return (p->lastmod);
	}
	for (i = 0; i < p->nmods; i++) {
		md = &p->mods[i];
		if (e == NULL ? md->kernel : (!md->kernel && md->lo == e->lo &&
		    md->hi == e->hi && md->pgoff == e->pgoff &&
		    strcmp(md->path, e->path) == 0))
			return (p->lastmod = i);
	}
	if (p->nmods == p->modcap) {
		p->modcap = p->modcap != 0 ? p->modcap * 2 : 16;
		p->mods = xreallocarray(p->mods, p->modcap, sizeof *p->mods);
	}
	md = &p->mods[p->nmods];
	memset(md, 0, sizeof *md);
	if (e == NULL) {
		md->kernel = 1;
		md->path = xstrdup("[kernel.kallsyms]");
	} else {
		md->lo = e->lo;
		md->hi = e->hi;
		md->pgoff = e->pgoff;
		md->dev = e->dev;
		md->ino = e->ino;
		md->path = xstrdup(e->path);
		md->ident = map_ident(p->pid, e, md->bid, &md->nbid,
		    &md->bias) == 0;
	}
	return (p->lastmod = p->nmods++);
}

static struct slot *
slot_find(struct prf *p, uint64_t ip)
{
	size_t		 lo = 0, hi = p->nslots, mid;
	struct slot	*s;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		s = &p->slots[p->order[mid]];
		if (ip < s->vaddr)
			hi = mid;
		else if (ip - s->vaddr >= s->size)
			lo = mid + 1;
		else
			return (s);
	}
	return (NULL);
}

/* A slot's module: the file mapped at its address. */
static void
slot_path(struct prf *p, struct slot *s)
{
	struct map	*e;

	if (s->path == NULL && p->pid != 0 &&
	    (e = maps_find(&p->maps[0], s->vaddr)) != NULL && e->path != NULL)
		s->path = xstrdup(e->path);
}

static struct thread *
thread_get(struct prf *p, pid_t tid)
{
	size_t	i;

	for (i = p->nthreads; i > 0; i--) {
		if (p->threads[i - 1].tid == tid)
			return (&p->threads[i - 1]);
	}
	p->threads = xreallocarray(p->threads, p->nthreads + 1,
	    sizeof *p->threads);
	memset(&p->threads[p->nthreads], 0, sizeof *p->threads);
	p->threads[p->nthreads].tid = tid;
	p->threads[p->nthreads].live = 1;
	p->nlive++;
	return (&p->threads[p->nthreads++]);
}

static void
hit_add(struct prf *p, uint64_t ip)
{
	if (p->hitcnt < p->nhits)
		p->hits[p->hitcnt++] = ip;
	else if (p->flags & PRF_WRAP) {
		p->hits[p->hitpos] = ip;
		p->hitpos = (p->hitpos + 1) % p->nhits;
	} else
		p->hitovfl = 1;
}

static void
sample(struct prf *p, uint64_t ip, pid_t pid, pid_t tid, uint16_t misc)
{
	struct thread	*t = NULL;
	struct slot	*s;
	struct map	*e;
	int		 kmode;

	/* A child process inherits the events: not this profile's. */
	if (p->pid != 0 && pid != p->pid)
		return;
	p->taken++;
	if (p->pid != 0) {
		t = thread_get(p, tid);
		t->taken++;
	}
	if (!prfd_flg_tick(&p->flg))
		return;
	p->acc++;
	if (t != NULL)
		t->acc++;
	kmode = (misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
	    PERF_RECORD_MISC_KERNEL;
	if (p->pid == 0 && pid == 0) {
		/* The idle task: the system had nothing to run. */
		p->idle++;
	} else if ((s = slot_find(p, ip)) != NULL) {
		s->cnt++;
		if (s->detail != NULL)
			s->detail[(ip - s->vaddr) >> p->shift]++;
		if (s->hit)
			hit_add(p, ip);
	} else if (kmode) {
		/* Counted as OS/2 did, and kept by address to be named. */
		p->kernel++;
		if (t != NULL)
			t->kernel++;
		mhit_add(p, mod_get(p, NULL), ip);
	} else if ((e = classify_user(p, pid, ip)) != NULL) {
		/*
		 * A process's module: its samples by address.  Shared memory
		 * is what no file maps ([vsyscall]), and every mapping of a
		 * system-wide profile, whose processes' modules are not kept.
		 */
		if (p->pid != 0 && e->path != NULL)
			mhit_add(p, mod_get(p, e), ip);
		else {
			p->shrmem++;
			if (t != NULL)
				t->shrmem++;
		}
	} else {
		p->unknown++;
		if (t != NULL)
			t->unknown++;
	}
}

/* A thread's or the last thread's end stops the profile's clock. */
static void
task_exit(struct prf *p, pid_t pid, pid_t tid, uint64_t time)
{
	struct thread	*t;

	if (p->pid == 0 || pid != p->pid)
		return;
	t = thread_get(p, tid);
	if (t->live) {
		t->live = 0;
		p->nlive--;
	}
	if (p->nlive == 0 && p->end_ns == 0)
		p->end_ns = time != 0 ? time : now_ns();
}

/*
 * An executable mapping of the process (PERF_RECORD_MMAP2: pid, tid,
 * addr, len, pgoff, maj, min, ino, ino_generation, prot, flags, then the
 * file's name), into its maps.  Anonymous code (a JIT's) replaces what
 * was there as anonymous, its samples unknown, as the maps leave them.
 */
static void
mmap_record(struct prf *p, const unsigned char *b, size_t len,
    uint16_t misc)
{
	struct map	e;
	uint64_t	mlen, ino;
	uint32_t	pt[2], dev[2];
	const char	*name = (const char *)b + 64;

	if (len <= 64 || p->pid == 0 || memchr(name, '\0', len - 64) == NULL)
		return;
	memcpy(pt, b, 8);
	if ((pid_t)pt[0] != p->pid)
		return;
	memset(&e, 0, sizeof e);
	memcpy(&e.lo, b + 8, 8);
	memcpy(&mlen, b + 16, 8);
	memcpy(&e.pgoff, b + 24, 8);
	if (mlen == 0 || e.lo + mlen < e.lo)
		return;
	e.hi = e.lo + mlen;
	/* With a build-id in their place, no device and inode. */
	if (!(misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		memcpy(dev, b + 32, 8);
		memcpy(&ino, b + 40, 8);
		e.dev = makedev(dev[0], dev[1]);
		e.ino = (ino_t)ino;
	}
	map_name(&e, name);
	p->maps[0].pid = p->pid;
	maps_add(&p->maps[0], &e);
}

static void
record(struct prf *p, const struct perf_event_header *h)
{
	const unsigned char	*b = (const unsigned char *)(h + 1);
	size_t			 len = h->size - sizeof *h;
	uint64_t		 ip, v;
	uint32_t		 pt[4];

	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		if (len < 16)
			break;
		memcpy(&ip, b, 8);
		memcpy(pt, b + 8, 8);
		sample(p, ip, pt[0], pt[1], h->misc);
		break;
	case PERF_RECORD_LOST:
		if (len < 16)
			break;
		memcpy(&v, b + 8, 8);
		p->lost += v;
		p->errors++;
		break;
	case PERF_RECORD_FORK:
		/* pid, ppid, tid, ptid: a thread when pid is the parent's. */
		if (len < 16 || p->pid == 0 ||
		    (p->flags & 3) == PRF_PROCESS_ST)
			break;
		memcpy(pt, b, 16);
		if ((pid_t)pt[0] == p->pid)
			thread_get(p, pt[2]);
		break;
	case PERF_RECORD_MMAP2:
		mmap_record(p, b, len, h->misc);
		break;
	case PERF_RECORD_EXIT:
		if (len < 24)
			break;
		memcpy(pt, b, 16);
		memcpy(&v, b + 16, 8);
		task_exit(p, pt[0], pt[2], v);
		break;
	}
}

/*
 * Ring r's records to the profile; with mmaps, only its mappings, the
 * records left in the ring.  (A mapping's record (a path's length) can
 * be 4 KiB; a larger record is none pvprfd asked for.)
 */
static void
ring_drain(struct prf *p, struct ring *r, int mmaps)
{
	struct perf_event_mmap_page	*mp = r->base;
	unsigned char			*data, tmp[PATH_MAX + 256];
	uint64_t			 head, tail, size = mp->data_size;
	struct perf_event_header	 h;
	size_t				 off, first;

	data = (unsigned char *)r->base + mp->data_offset;
	head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
	tail = mp->data_tail;
	while (tail + sizeof h <= head) {
		off = tail % size;
		first = size - off;
		if (first >= sizeof h)
			memcpy(&h, data + off, sizeof h);
		else {
			memcpy(&h, data + off, first);
			memcpy((char *)&h + first, data, sizeof h - first);
		}
		if (h.size < sizeof h || tail + h.size > head)
			break;
		if (h.size <= sizeof tmp && (!mmaps ||
		    h.type == PERF_RECORD_MMAP2)) {
			if (first >= h.size)
				memcpy(tmp, data + off, h.size);
			else {
				memcpy(tmp, data + off, first);
				memcpy(tmp + first, data, h.size - first);
			}
			record(p, (struct perf_event_header *)tmp);
		}
		tail += h.size;
	}
	if (!mmaps)
		__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
}

void
prf_drain(struct prf *p)
{
	size_t	i;
	int	pass;

	/*
	 * Every ring's mappings first: a library mapped on one CPU may
	 * have its first samples on another, in a ring drained earlier.
	 * A profile of the whole system asks for none: one pass.
	 */
	for (pass = p->pid != 0; pass >= 0; pass--) {
		for (i = 0; i < p->nrings; i++) {
			/* An offline CPU has none. */
			if (p->rings[i].base != NULL)
				ring_drain(p, &p->rings[i], pass);
		}
	}
}

void
prf_drain_all(void)
{
	struct prf	*p;

	for (p = profiles; p != NULL; p = p->next)
		prf_drain(p);
}

static int
event_open(struct prf *p, pid_t tid, int cpu)
{
	struct perf_event_attr	a;
	int			fd;

	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = p->period_ns;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	a.disabled = 1;
	a.inherit = p->pid != 0 && (p->flags & 3) == PRF_PROCESS_MT;
	a.task = p->pid != 0;
	/* The process's executable mappings, as they are made. */
	a.mmap = a.mmap2 = p->pid != 0;
	a.exclude_hv = 1;
	a.exclude_kernel = p->user_only;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	a.watermark = 1;
	a.wakeup_watermark = RING_PAGES * 4096 / 4;
	fd = syscall(SYS_perf_event_open, &a, p->pid == 0 ? -1 : tid, cpu,
	    -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && (errno == EACCES || errno == EPERM) && !p->user_only) {
		/* perf_event_paranoid 2 and not root: user mode only. */
		p->user_only = 1;
		a.exclude_kernel = 1;
		fd = syscall(SYS_perf_event_open, &a,
		    p->pid == 0 ? -1 : tid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	}
	return (fd);
}

static int
ncpus(void)
{
	long	n = sysconf(_SC_NPROCESSORS_CONF);

	return (n < 1 ? 1 : (int)n);
}

/* Open tid's events, one a CPU, each into that CPU's ring. */
static int
open_task(struct prf *p, pid_t tid)
{
	struct ring	*r;
	int		 cpu, fd, n = ncpus();
	size_t		 len = (RING_PAGES + 1) * 4096;

	for (cpu = 0; cpu < n; cpu++) {
		if ((fd = event_open(p, tid, cpu)) < 0) {
			/* An offline CPU has no events. */
			if (errno == ENODEV || errno == EINVAL)
				continue;
			return (-1);
		}
		p->fds = xreallocarray(p->fds, p->nfds + 1, sizeof *p->fds);
		p->fds[p->nfds++] = fd;
		if ((size_t)cpu < p->nrings && p->rings[cpu].fd >= 0) {
			if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT,
			    p->rings[cpu].fd) != 0)
				return (-1);
			continue;
		}
		if ((size_t)cpu >= p->nrings) {
			p->rings = xreallocarray(p->rings, n, sizeof *p->rings);
			while (p->nrings < (size_t)n) {
				p->rings[p->nrings].fd = -1;
				p->rings[p->nrings].hup = 0;
				p->rings[p->nrings++].base = NULL;
			}
		}
		r = &p->rings[cpu];
		r->base = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
		    fd, 0);
		if (r->base == MAP_FAILED) {
			r->base = NULL;
			if (errno == EPERM) {
				why_memlock();
				errno = ENOMEM;
			}
			return (-1);
		}
		r->fd = fd;
		r->len = len;
	}
	return (0);
}

/*
 * Every thread of the process: listed, then listed again until no thread
 * appeared while the last ones were opened (each of those inherits into
 * its children from then on).
 */
static int
open_threads(struct prf *p)
{
	char		 path[64];
	struct dirent	*de;
	DIR		*d;
	pid_t		 tid;
	size_t		 before;
	int		 again;

	do {
		again = 0;
		snprintf(path, sizeof path, "/proc/%d/task", (int)p->pid);
		if ((d = opendir(path)) == NULL)
			return (-1);
		while ((de = readdir(d)) != NULL) {
			if (!isdigit((unsigned char)de->d_name[0]))
				continue;
			tid = atoi(de->d_name);
			before = p->nthreads;
			thread_get(p, tid);
			if (p->nthreads == before)
				continue;
			again = 1;
			if (open_task(p, tid) != 0 && errno != ESRCH) {
				closedir(d);
				return (-1);
			}
		}
		closedir(d);
	} while (again);
	return (0);
}

static void
close_events(struct prf *p)
{
	size_t	i;

	for (i = 0; i < p->nrings; i++) {
		if (p->rings[i].base != NULL)
			munmap(p->rings[i].base, p->rings[i].len);
	}
	for (i = 0; i < p->nfds; i++)
		close(p->fds[i]);
	free(p->rings);
	free(p->fds);
	p->rings = NULL;
	p->fds = NULL;
	p->nrings = p->nfds = 0;
}

/*
 * The process has ended: its last samples drained and its events closed.
 * They would say POLLHUP to every poll from now on (the loop woke at
 * once, again and again, until the profile's EXIT), and their buffers'
 * locked memory is the user's, which other profiles need.
 */
static void
prf_end(struct prf *p)
{
	prf_drain(p);
	close_events(p);
	p->ended = 1;
	if (p->end_ns == 0)
		p->end_ns = now_ns();
}

/*
 * What the daemon polls for the profiles, appended to pfd[n...]: of each
 * process not known to have ended, its pidfd (its end) and its rings
 * (their wakeups), the array (of *cap) grown to hold them.  The new
 * count; prf_polled takes the same entries.
 */
size_t
prf_pollfds(struct pollfd **pfd, size_t *cap, size_t n)
{
	struct prf	*p;
	size_t		 i;

	for (p = profiles; p != NULL; p = p->next) {
		if (p->ended)
			continue;
		pollfd_room(pfd, cap, n + 1 + p->nrings);
		if (p->pidfd >= 0) {
			(*pfd)[n].fd = p->pidfd;
			(*pfd)[n++].events = POLLIN;
		}
		for (i = 0; i < p->nrings; i++) {
			if (p->rings[i].base == NULL || p->rings[i].hup)
				continue;
			(*pfd)[n].fd = p->rings[i].fd;
			(*pfd)[n++].events = POLLIN;
		}
	}
	return (n);
}

/*
 * The poll's answers for prf_pollfds' entries, before any request can
 * change the profiles.  A ring's event that has ended (POLLHUP) is not
 * polled again: it is the first thread's on its CPU, and threads that
 * were there before INIT may still write into its buffer, which the
 * clock drains.  Without a pidfd the process has ended when every ring's
 * event has.
 */
void
prf_polled(const struct pollfd *pfd, size_t n)
{
	struct prf	*p;
	size_t		 i = 0, k;
	int		 end, live;

	for (p = profiles; p != NULL && i < n; p = p->next) {
		if (p->ended)
			continue;
		end = p->pidfd >= 0 && pfd[i++].revents != 0;
		live = 0;
		for (k = 0; k < p->nrings && i < n; k++) {
			if (p->rings[k].base == NULL || p->rings[k].hup)
				continue;
			if (pfd[i++].revents & (POLLHUP | POLLERR))
				p->rings[k].hup = 1;
			else
				live = 1;
		}
		if (end || (p->pid != 0 && p->pidfd < 0 && !live))
			prf_end(p);
	}
}

/* Whether a started profile's process runs: its rings drained on a clock. */
int
prf_sampling(void)
{
	struct prf	*p;

	for (p = profiles; p != NULL; p = p->next) {
		if (p->running && !p->ended)
			return (1);
	}
	return (0);
}

static void
prf_free(struct prf *p)
{
	size_t	i;

	close_events(p);
	if (p->pidfd >= 0)
		close(p->pidfd);
	for (i = 0; i < p->nslots; i++) {
		free(p->slots[i].detail);
		free(p->slots[i].path);
	}
	for (i = 0; i < MAPS_CACHE; i++)
		maps_free(&p->maps[i]);
	free(p->slots);
	free(p->order);
	free(p->hits);
	free(p->threads);
	free(p->cmdline);
	for (i = 0; i < p->nmods; i++)
		free(p->mods[i].path);
	free(p->mods);
	free(p->mhits);
	free(p);
}

static void
read_cmdline(struct prf *p)
{
	char	path[64], buf[4096];
	ssize_t	n;
	int	fd;

	if (p->pid == 0)
		return;
	snprintf(path, sizeof path, "/proc/%d/cmdline", (int)p->pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	n = read(fd, buf, sizeof buf);
	close(fd);
	if (n <= 0)
		return;
	/* Every argument NUL-terminated, the last cut one too. */
	if (buf[n - 1] != '\0') {
		if ((size_t)n == sizeof buf)
			n--;
		buf[n++] = '\0';
	}
	p->cmdline = xmalloc(n);
	memcpy(p->cmdline, buf, n);
	p->cmdlen = n;
}

static int
order_cmp(const void *a, const void *b, void *arg)
{
	const struct slot	*s = arg;
	uint64_t		 x = s[*(const size_t *)a].vaddr;
	uint64_t		 y = s[*(const size_t *)b].vaddr;

	return (x < y ? -1 : x > y);
}

/*
 * INIT: every parameter checked before anything is made (87 for a
 * parameter, 547 for the timer, 8 for a table larger than the daemon
 * keeps, 303 for a process that is not there or not ours).
 */
uint32_t
prf_init(pid_t pid, int width, const struct prfd_init *in,
    const uint8_t *flgs, const struct prfd_slot *sl)
{
	struct prf	*p, *old;
	uint64_t	 total, need;
	unsigned	 timval, i, j;
	int		 e;
	uint16_t	 known = 3 | PRF_VAHIT | PRF_VATOTAL | PRF_FLGBITS |
	    PRF_WRAP;

	why[0] = '\0';
	timval = in->timval == 0 ? 1000 : in->timval;
	/*
	 * A profile stays after its process ends, to be stopped and dumped.
	 * Its pid may go to another process meanwhile: INIT of that one
	 * is not "already initialized"; the ended one's profile goes once
	 * the new one's parameters are good.
	 */
	if ((old = prf_find(pid)) != NULL && !pid_reused(old)) {
		return (old->timval != timval ? ERROR_PRF_TIMER_RESET :
		    ERROR_PRF_ALREADY_INITIALIZED);
	}
	if (in->flags & ~known)
		return (ERROR_INVALID_PARAMETER);
	if ((in->flags & 3) == 3 || ((in->flags & 3) == PRF_KERNEL) !=
	    (pid == 0))
		return (ERROR_INVALID_PARAMETER);
	if (in->nslots >= 256)
		return (ERROR_INVALID_PARAMETER);
	if (in->flags & PRF_FLGBITS) {
		if (in->nflgs < 2)
			return (ERROR_INVALID_PARAMETER);
		for (i = 0; i < in->nflgs; i++) {
			if (flgs[i] == 0)
				return (ERROR_INVALID_PARAMETER);
		}
	}
	for (i = 0; i < in->nslots; i++) {
		if (sl[i].size == 0 || sl[i].vaddr + sl[i].size < sl[i].vaddr)
			return (ERROR_INVALID_PARAMETER);
		for (j = 0; j < i; j++) {
			if (sl[i].vaddr < sl[j].vaddr + sl[j].size &&
			    sl[j].vaddr < sl[i].vaddr + sl[i].size)
				return (ERROR_INVALID_PARAMETER);
		}
	}
	if ((in->flags & PRF_VAHIT) && in->bufsz < (uint64_t)width)
		return (ERROR_INVALID_PARAMETER);
	if (in->bufsz > PRFD_BUFSZ_MAX) {
		snprintf(why, sizeof why, "cm_bufsz over %lu MiB",
		    PRFD_BUFSZ_MAX >> 20);
		return (ERROR_NOT_ENOUGH_MEMORY);
	}
	if (timval < TIMVAL_MIN)
		return (ERROR_PRF_TIMER_OUT_OF_RANGE);
	if (!pid_exists(pid))
		return (ERROR_INVALID_PROCID);

	if (old != NULL)
		prf_exit(old);
	p = xcalloc(1, sizeof *p);
	p->pid = pid;
	p->pidfd = -1;
#ifdef SYS_pidfd_open
	if (pid != 0)
		p->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
#endif
	p->flags = in->flags;
	p->timval = timval;
	p->period_ns = (uint64_t)timval * 1000;
	p->width = width;
	p->nslots = in->nslots;
	p->slots = xcalloc(p->nslots ? p->nslots : 1, sizeof *p->slots);
	p->order = xcalloc(p->nslots ? p->nslots : 1, sizeof *p->order);
	for (i = 0; i < in->nslots; i++) {
		p->slots[i].vaddr = sl[i].vaddr;
		p->slots[i].size = sl[i].size;
		p->slots[i].mode = sl[i].mode;
		p->order[i] = i;
	}
	qsort_r(p->order, p->nslots, sizeof *p->order, order_cmp, p->slots);

	/* The finest segments for which all detail counters fit. */
	p->shift = 2;
	for (;;) {
		total = 0;
		for (i = 0; i < p->nslots; i++) {
			if (p->slots[i].mode == 0 || (p->flags & PRF_VATOTAL))
				continue;
			need = ((p->slots[i].size - 1) >> p->shift) + 1;
			total += need;
		}
		if (total <= DETAIL_MAX || p->shift >= 63)
			break;
		p->shift++;
	}
	for (i = 0; i < p->nslots; i++) {
		if (p->slots[i].mode == 0)
			continue;
		p->slots[i].hit = (p->flags & PRF_VAHIT) != 0;
		if (p->flags & PRF_VATOTAL)
			continue;
		p->slots[i].ndetail = ((p->slots[i].size - 1) >> p->shift) + 1;
		p->slots[i].detail = xcalloc(p->slots[i].ndetail,
		    sizeof *p->slots[i].detail);
	}
	if (p->flags & PRF_VAHIT) {
		p->nhits = in->bufsz / width;
		p->hits = xcalloc(p->nhits, sizeof *p->hits);
	}
	prfd_flg_init(&p->flg, flgs, (p->flags & PRF_FLGBITS) ? in->nflgs : 0);
	p->flg0 = p->flg;
	for (i = 0; i < p->flg.n; i++)
		p->flgsum += p->flg.v[i];

	if (pid != 0) {
		/* Each slot's module as it is now, for the dump. */
		maps_read(&p->maps[0], pid);
		for (i = 0; i < p->nslots; i++)
			slot_module(p, &p->slots[i]);
		read_cmdline(p);
		if ((p->flags & 3) == PRF_PROCESS_ST) {
			thread_get(p, pid);
			if (open_task(p, pid) != 0)
				goto fail;
		} else if (open_threads(p) != 0)
			goto fail;
	} else if (open_task(p, -1) != 0)
		goto fail;
	p->next = profiles;
	profiles = p;
	return (NO_ERROR);
fail:
	e = errno;
	if ((e == EMFILE || e == ENFILE) && why[0] == '\0') {
		snprintf(why, sizeof why, "pvprfd has too many files open"
		    " (%s): a profile takes one a thread and CPU",
		    e == EMFILE ? "RLIMIT_NOFILE" : "the system's");
	}
	log_msg("pid %d: perf_event_open: %s%s%s", (int)pid, strerror(e),
	    why[0] != '\0' ? ": " : "", why);
	i = e == ESRCH ? ERROR_INVALID_PROCID :
	    e == ENOMEM || e == EMFILE || e == ENFILE ?
	    ERROR_NOT_ENOUGH_MEMORY :
	    (e == EACCES || e == EPERM) ? ERROR_INVALID_PROCID :
	    ERROR_SYS_INTERNAL;
	prf_free(p);
	return (i);
}

static void
enable(struct prf *p, int on)
{
	size_t	i;

	for (i = 0; i < p->nfds; i++) {
		ioctl(p->fds[i], on ? PERF_EVENT_IOC_ENABLE :
		    PERF_EVENT_IOC_DISABLE, 0);
	}
}

uint32_t
prf_start(struct prf *p)
{
	if (p->running)
		return (ERROR_PRF_ALREADY_STARTED);
	if (p->end_ns != 0 || !pid_exists(p->pid))
		return (ERROR_INVALID_PROCID);
	if (p->pid != 0)
		maps_read(&p->maps[0], p->pid);
	p->start_ns = now_ns();
	p->running = 1;
	enable(p, 1);
	return (NO_ERROR);
}

/* Wall time while started, up to the process's end. */
static uint64_t
wall(struct prf *p)
{
	uint64_t	end;

	if (!p->running)
		return (p->wall_ns);
	end = now_ns();
	if (p->end_ns != 0 && p->end_ns < end)
		end = p->end_ns;
	return (p->wall_ns + (end > p->start_ns ? end - p->start_ns : 0));
}

uint32_t
prf_stop(struct prf *p)
{
	if (!p->running)
		return (ERROR_PRF_NOT_STARTED);
	enable(p, 0);
	prf_drain(p);
	p->wall_ns = wall(p);
	p->running = 0;
	return (NO_ERROR);
}

uint32_t
prf_clear(struct prf *p)
{
	size_t	i;

	prf_drain(p);
	for (i = 0; i < p->nslots; i++) {
		p->slots[i].cnt = 0;
		if (p->slots[i].detail != NULL)
			memset(p->slots[i].detail, 0, p->slots[i].ndetail *
			    sizeof *p->slots[i].detail);
	}
	for (i = 0; i < p->nthreads; i++) {
		p->threads[i].taken = p->threads[i].acc = 0;
		p->threads[i].kernel = p->threads[i].shrmem = 0;
		p->threads[i].unknown = p->threads[i].idle = 0;
	}
	p->hitcnt = p->hitpos = 0;
	p->hitovfl = 0;
	p->taken = p->acc = 0;
	p->kernel = p->shrmem = p->unknown = p->idle = 0;
	for (i = 0; i < p->nmods; i++)
		free(p->mods[i].path);
	free(p->mods);
	free(p->mhits);
	p->mods = NULL;
	p->mhits = NULL;
	p->nmods = p->modcap = p->nmhits = p->mhcap = p->lastmod = 0;
	p->lost = p->errors = 0;
	p->flg = p->flg0;
	p->wall_ns = 0;
	p->start_ns = now_ns();
	return (NO_ERROR);
}

uint32_t
prf_exit(struct prf *p)
{
	struct prf	**pp;

	enable(p, 0);
	for (pp = &profiles; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	}
	prf_free(p);
	return (NO_ERROR);
}

static uint64_t
ncpus_on(struct prf *p)
{
	uint64_t	n = 0;
	size_t		i;

	for (i = 0; i < p->nrings; i++)
		n += p->rings[i].base != NULL;
	return (n);
}

/*
 * Idle: the timer's periods while started less the samples taken, that
 * is the periods in which no thread of the process ran (clamped at 0:
 * threads on several CPUs at once take more samples than periods).
 * Through the clock divider at its average rate.  For the whole system
 * the periods are every CPU's, and the samples of the idle task are
 * idle as well (cpu-clock stops on an idle CPU with no tick, so most
 * idle time is periods with no sample at all).
 */
static uint64_t
idle_of(struct prf *p, uint64_t taken)
{
	uint64_t	periods = wall(p) / p->period_ns, idle;

	/* The whole system: every CPU's periods, and its idle task's. */
	if (p->pid == 0)
		periods *= ncpus_on(p);

	idle = periods > taken ? periods - taken : 0;
	if (p->flg.n > 0)
		idle = idle * p->flg.n / p->flgsum;
	return (idle);
}

/* A buffer of ULONGs of the caller's width, little endian. */
struct out {
	unsigned char	*b;
	size_t		 len, cap;
	int		 width;
};

static void
out_bytes(struct out *o, const void *v, size_t n)
{
	if (o->len + n > o->cap) {
		o->cap = (o->len + n) * 2;
		o->b = xreallocarray(o->b, o->cap, 1);
	}
	memcpy(o->b + o->len, v, n);
	o->len += n;
}

static void
out_le(struct out *o, uint64_t v, int n)
{
	unsigned char	b[8];
	int		i;

	/* A count too large for a 4-byte ULONG saturates. */
	if (n < 8 && v >> (8 * n) != 0)
		v = (1ull << (8 * n)) - 1;
	for (i = 0; i < n; i++)
		b[i] = v >> (8 * i);
	out_bytes(o, b, n);
}

#define out_ulong(o, v)	out_le((o), (v), (o)->width)

/* The GNU build-id among the notes of d (0: none). */
static size_t
note_build_id(Elf_Data *d, uint8_t *bid, size_t max)
{
	GElf_Nhdr	nh;
	size_t		off = 0, noff, doff;

	while ((off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    memcmp((char *)d->d_buf + noff, "GNU", 4) == 0 &&
		    nh.n_descsz <= max) {
			memcpy(bid, (char *)d->d_buf + doff, nh.n_descsz);
			return (nh.n_descsz);
		}
	}
	return (0);
}

/*
 * An ELF image's build-id and, for a mapping at lo of its bytes from
 * pgoff, its load bias (the address less the ELF vaddr): the PT_LOAD
 * holding pgoff says how its offsets and vaddrs differ, as perf's maps
 * do.  The bias is lo - pgoff when no PT_LOAD holds it.
 */
static void
elf_ident(Elf *elf, uint64_t lo, uint64_t pgoff, uint8_t *bid, size_t *nbid,
    uint64_t *bias)
{
	Elf_Data	*d;
	GElf_Phdr	 ph;
	size_t		 n, i;

	*bias = lo - pgoff;
	if (elf_getphdrnum(elf, &n) != 0)
		return;
	for (i = 0; i < n; i++) {
		if (gelf_getphdr(elf, i, &ph) == NULL)
			continue;
		if (ph.p_type == PT_LOAD && pgoff >= (ph.p_offset & ~4095ull) &&
		    pgoff < ph.p_offset + ph.p_filesz)
			*bias = lo - pgoff + ph.p_offset - ph.p_vaddr;
		if (ph.p_type != PT_NOTE || *nbid != 0)
			continue;
		d = elf_getdata_rawchunk(elf, ph.p_offset, ph.p_filesz,
		    ELF_T_NHDR);
		if (d != NULL)
			*nbid = note_build_id(d, bid, 64);
	}
}

/*
 * A module's file, open on fd or else at path: its build-id and load
 * bias (0 when the file cannot be read, whose samples keep their
 * addresses).  The vDSO is the kernel's, the same image in every
 * process: the daemon's own.
 */
static int
module_ident(const char *path, int fd, uint64_t lo, uint64_t pgoff,
    uint8_t *bid, size_t *nbid, uint64_t *bias)
{
	Elf		*elf = NULL;
	const Elf64_Ehdr *eh;
	unsigned long	 vdso;
	size_t		 len;
	int		 rc = -1;

	*nbid = 0;
	*bias = 0;
	elf_version(EV_CURRENT);
	if (fd < 0 && strcmp(path, "[vdso]") == 0) {
		/* Its section headers end the image. */
		if ((vdso = getauxval(AT_SYSINFO_EHDR)) == 0)
			return (-1);
		eh = (const Elf64_Ehdr *)vdso;
		len = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
		if (len > (1u << 20))
			return (-1);
		elf = elf_memory((char *)vdso, len);
	} else {
		if (fd < 0 && (fd = open(path, O_RDONLY | O_CLOEXEC |
		    O_NONBLOCK)) < 0)
			return (-1);
		elf = elf_begin(fd, ELF_C_READ, NULL);
	}
	if (elf != NULL && elf_kind(elf) == ELF_K_ELF) {
		elf_ident(elf, lo, pgoff, bid, nbid, bias);
		rc = 0;
	}
	if (elf != NULL)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return (rc);
}

/*
 * The file pid maps at e, through /proc/PID/map_files: the one mapped,
 * where the path may name another by now (a library upgraded by a
 * rename while the program runs), whose build-id a reader would check
 * the path's file by and find it right.  Besides what reading pid's
 * memory takes, the kernel opens these links only for CAP_SYS_ADMIN or
 * CAP_CHECKPOINT_RESTORE: -1 without, and the dump reads the path.
 */
static int
map_ident(pid_t pid, const struct map *e, uint8_t *bid, size_t *nbid,
    uint64_t *bias)
{
	char	path[80];
	int	fd;

	*nbid = 0;
	*bias = 0;
	if (pid == 0 || e->path == NULL || e->path[0] != '/')
		return (-1);
	snprintf(path, sizeof path, "/proc/%d/map_files/%llx-%llx", (int)pid,
	    (unsigned long long)e->lo, (unsigned long long)e->hi);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return (-1);
	return (module_ident(e->path, fd, e->lo, e->pgoff, bid, nbid, bias));
}

/*
 * Whether the file at path is still the one mapped (device and inode as
 * the maps gave them), for a daemon that cannot open map_files: a
 * library upgraded by a rename while the program ran has a new inode at
 * its old path, whose build-id and symbols are another build's.  One
 * mapped from no known inode is taken as it is.
 */
static int
path_is_mapped(const char *path, dev_t dev, ino_t ino)
{
	struct stat	st;

	if (ino == 0 || path[0] != '/')
		return (1);
	if (stat(path, &st) != 0)
		return (1);	/* unreadable: module_ident says so */
	return (st.st_dev == dev && st.st_ino == ino);
}

/* The running kernel's build-id, from its notes (0 bytes: none). */
static size_t
kernel_build_id(uint8_t *bid)
{
	unsigned char	 buf[4096];
	Elf_Data	 d;
	ssize_t		 n;
	int		 fd;

	if ((fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC)) < 0)
		return (0);
	n = read(fd, buf, sizeof buf);
	close(fd);
	if (n <= 0)
		return (0);
	memset(&d, 0, sizeof d);
	d.d_buf = buf;
	d.d_size = n;
	d.d_type = ELF_T_NHDR;
	d.d_version = EV_CURRENT;
	elf_version(EV_CURRENT);
	return (note_build_id(&d, bid, 64));
}

/*
 * The kernel's text, _stext to _etext, from /proc/kallsyms: -1 when the
 * file shows this daemon no addresses (kptr_restrict, perf_event_paranoid
 * and CAP_SYSLOG decide; zeros then) or not these two.
 */
static int
kernel_text(uint64_t *lo, uint64_t *hi)
{
	char			 line[1024], name[64];
	unsigned long long	 a;
	FILE			*f;
	int			 got = 0;

	*lo = *hi = 0;
	if ((f = fopen("/proc/kallsyms", "re")) == NULL)
		return (-1);
	while (got != 3 && fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "%llx %*c %63s", &a, name) != 2)
			continue;
		if (strcmp(name, "_stext") == 0) {
			*lo = a;
			got |= 1;
		} else if (strcmp(name, "_etext") == 0) {
			*hi = a;
			got |= 2;
		}
	}
	fclose(f);
	return (got == 3 && *lo != 0 && *hi > *lo ? 0 : -1);
}

/*
 * The kernel's MAPPING range: its text where kallsyms shows it, widened
 * to its n samples' lowest and highest address (a kernel module's code,
 * BPF's, lie outside the text); the samples' alone where it does not.
 */
static void
kernel_range(const struct mhit *v, size_t n, uint64_t *lo, uint64_t *hi)
{
	uint64_t	tlo, thi;

	*lo = *hi = 0;
	if (n > 0) {
		*lo = v[0].addr;
		*hi = v[n - 1].addr == UINT64_MAX ? UINT64_MAX :
		    v[n - 1].addr + 1;
	}
	if (kernel_text(&tlo, &thi) != 0)
		return;
	if (n == 0 || tlo < *lo)
		*lo = tlo;
	if (n == 0 || thi > *hi)
		*hi = thi;
}

/*
 * The module of a slot: its mapping's file and that file's build-id, the
 * mapped file's while the process lives.
 */
static void
slot_module(struct prf *p, struct slot *s)
{
	struct map	*e;
	uint64_t	 bias;

	if (s->bid_read)
		return;
	slot_path(p, s);
	if (s->path == NULL)
		return;
	s->bid_read = 1;
	if (p->pid == 0 || (e = maps_find(&p->maps[0], s->vaddr)) == NULL ||
	    map_ident(p->pid, e, s->bid, &s->nbid, &bias) != 0)
		module_ident(s->path, -1, 0, 0, s->bid, &s->nbid, &bias);
}

static void
ext_entry(struct out *o, uint16_t tag, size_t len)
{
	out_le(o, tag, 2);
	out_le(o, 0, 2);
	out_le(o, len, 4);
}

static int
mhit_cmp(const void *a, const void *b)
{
	const struct mhit	*x = a, *y = b;

	if (x->mod != y->mod)
		return (x->mod < y->mod ? -1 : 1);
	return (x->addr < y->addr ? -1 : x->addr > y->addr);
}

/*
 * A MAPPING entry a module a sample fell in: where it was mapped, its
 * load bias, build-id and path, and its samples by address (the
 * kernel's are those of the kernel counter, kept to be named).
 */
static void
dump_mods(struct prf *p, struct out *o)
{
	struct mhit	*v;
	struct mod	*md;
	uint8_t		 bid[64];
	size_t		 nbid, i, j, k, n = 0, plen;
	uint64_t	 bias, lo, hi;
	uint32_t	 flags;

	v = xreallocarray(NULL, p->nmhits + 1, sizeof *v);
	for (i = 0; i < p->mhcap; i++) {
		if (p->mhits[i].mod != 0)
			v[n++] = p->mhits[i];
	}
	qsort(v, n, sizeof *v, mhit_cmp);
	for (i = j = 0; i < p->nmods; i++) {
		md = &p->mods[i];
		flags = 0;
		for (k = j; k < n && v[k].mod == i + 1; k++)
			;
		lo = md->lo;
		hi = md->hi;
		if (md->kernel) {
			flags |= PRFD_MAPPING_KERNEL;
			nbid = kernel_build_id(bid);
			bias = 0;
			kernel_range(v + j, k - j, &lo, &hi);
		} else if (md->ident) {
			memcpy(bid, md->bid, md->nbid);
			nbid = md->nbid;
			bias = md->bias;
		} else if (!path_is_mapped(md->path, md->dev, md->ino)) {
			flags |= PRFD_MAPPING_UNREAD | PRFD_MAPPING_REPLACED;
			nbid = 0;
			bias = 0;
		} else if (module_ident(md->path, -1, md->lo, md->pgoff, bid,
		    &nbid, &bias) != 0)
			flags |= PRFD_MAPPING_UNREAD;
		plen = strlen(md->path);
		ext_entry(o, PRFD_EXT_MAPPING, PRFD_MAPPING_FIXED + nbid +
		    plen + 16 * (k - j));
		out_le(o, lo, 8);
		out_le(o, hi, 8);
		out_le(o, md->pgoff, 8);
		out_le(o, bias, 8);
		out_le(o, flags, 4);
		out_le(o, k - j, 4);
		out_le(o, nbid, 1);
		out_le(o, plen, 2);
		out_bytes(o, bid, nbid);
		out_bytes(o, md->path, plen);
		for (; j < k; j++) {
			out_le(o, v[j].addr, 8);
			out_le(o, v[j].n, 8);
		}
	}
	free(v);
}

static void
dump_ext(struct prf *p, struct out *o)
{
	struct slot	*s;
	size_t		 i, len;

	for (i = 0; i < p->nslots; i++) {
		s = &p->slots[i];
		slot_module(p, s);
		len = 2 * o->width + 1 + s->nbid +
		    (s->path ? strlen(s->path) : 0);
		ext_entry(o, PRFD_EXT_MODULE, len);
		out_ulong(o, s->vaddr);
		out_ulong(o, s->size);
		out_le(o, s->nbid, 1);
		out_bytes(o, s->bid, s->nbid);
		if (s->path != NULL)
			out_bytes(o, s->path, strlen(s->path));
	}
	dump_mods(p, o);
	ext_entry(o, PRFD_EXT_THREADS, 4 + 4 * p->nthreads);
	out_le(o, p->nthreads, 4);
	for (i = 0; i < p->nthreads; i++)
		out_le(o, p->threads[i].tid, 4);
	ext_entry(o, PRFD_EXT_PERIOD, 24);
	out_le(o, p->period_ns, 8);
	out_le(o, p->taken, 8);
	out_le(o, wall(p), 8);
	if (p->cmdline != NULL) {
		ext_entry(o, PRFD_EXT_COMMAND, p->cmdlen);
		out_bytes(o, p->cmdline, p->cmdlen);
	}
	/*
	 * What the counters could not see: without kernel-mode samples the
	 * kernel counter is 0 and time in the kernel is among the periods no
	 * sample came in (idle), which a reader must say (OS/2 has no such
	 * case).
	 */
	ext_entry(o, PRFD_EXT_LIMITS, 4);
	out_le(o, p->user_only ? PRFD_LIMIT_USER_ONLY : 0, 4);
}

static void
dump_global(struct prf *p, struct thread *t, struct out *o)
{
	uint16_t	flags = p->flags;

	if (p->running)
		flags |= PRFS_RUNNING;
	if (p->pid != 0 && (p->flags & 3) == PRF_PROCESS_MT)
		flags |= PRFS_THRDS;
	if (p->hitovfl)
		flags |= PRFS_HITOVFL;
	out_le(o, flags, 2);
	out_le(o, p->shift, 2);
	if (t != NULL) {
		out_ulong(o, idle_of(p, t->taken));
		out_ulong(o, 0);
		out_ulong(o, t->kernel);
		out_ulong(o, t->shrmem);
		out_ulong(o, t->unknown);
	} else {
		out_ulong(o, p->pid == 0 ? p->idle + idle_of(p, p->taken) :
		    idle_of(p, p->taken));
		out_ulong(o, 0);
		out_ulong(o, p->kernel);
		out_ulong(o, p->shrmem);
		out_ulong(o, p->unknown);
	}
	out_ulong(o, p->nhits);
	out_ulong(o, p->hitcnt);
	out_ulong(o, t != NULL ? t->taken : p->taken);
	out_ulong(o, p->lost);
	out_le(o, p->timval, 2);
	out_le(o, p->errors > 255 ? 255 : p->errors, 1);
	out_le(o, p->nslots, 2);
	out_le(o, p->nthreads > 65535 ? 65535 : p->nthreads, 2);
}

/*
 * DUMP: the buffer of us_cmd in Dos32Profile's packed layout with ULONGs of
 * the caller's width.  111 and the size needed when bufsz is short.
 */
uint32_t
prf_dump(struct prf *p, const struct prfd_dump *d, int width,
    unsigned char **buf, size_t *len)
{
	struct out	 o = { NULL, 0, 0, width };
	struct slot	*s;
	size_t		 i;

	*buf = NULL;
	*len = 0;
	prf_drain(p);
	switch (d->cmd) {
	case PRF_RET_GLOBAL:
		if (d->thrdno > p->nthreads)
			return (ERROR_INVALID_PARAMETER);
		dump_global(p, d->thrdno ? &p->threads[d->thrdno - 1] : NULL,
		    &o);
		break;
	case PRF_RET_VASLOTS:
		out_le(&o, p->nslots, 1);
		for (i = 0; i < p->nslots; i++) {
			s = &p->slots[i];
			out_ulong(&o, s->vaddr);
			out_ulong(&o, s->size);
			out_ulong(&o, PRF_VATOTAL | (s->hit ? PRF_VAHIT : 0));
			out_ulong(&o, s->ndetail);
			out_ulong(&o, s->cnt);
		}
		break;
	case PRF_RET_VAHITS:
		out_ulong(&o, p->hitcnt);
		/* Oldest first: after a wrap the table starts at hitpos. */
		for (i = 0; i < p->hitcnt; i++)
			out_ulong(&o, p->hits[(p->hitpos + i) % p->hitcnt]);
		break;
	case PRF_RET_VADETAIL:
		if ((s = slot_find(p, d->vaddr)) == NULL ||
		    s->detail == NULL)
			return (ERROR_MOD_NOT_FOUND);
		out_ulong(&o, s->size);
		out_ulong(&o, s->ndetail);
		for (i = 0; i < s->ndetail; i++)
			out_ulong(&o, s->detail[i]);
		break;
	case PRF_RET_PVEXT:
		dump_ext(p, &o);
		break;
	default:
		return (ERROR_INVALID_PARAMETER);
	}
	*len = o.len;
	if (o.len > d->bufsz) {
		free(o.b);
		return (ERROR_BUFFER_OVERFLOW);
	}
	*buf = o.b;
	return (NO_ERROR);
}
