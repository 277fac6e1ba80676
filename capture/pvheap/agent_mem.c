/*
 * The agent's own memory: mmap'd, never malloc'd (it must not change the
 * heap it describes, and a snapshot works while other threads are
 * stopped, possibly inside glibc's malloc), and every mapping listed.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "capture/pvheap/agent.h"
#include "capture/pvheap/heapfmt.h"

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
agent_range_add(void *p, size_t len)
{
	agent_spin_lock_always(&ranges_lock);
	if (nranges < RANGES_MAX) {
		ranges[nranges].lo = (uint64_t)(uintptr_t)p;
		ranges[nranges].hi = (uint64_t)(uintptr_t)p + len;
		nranges++;
	}
	agent_spin_unlock(&ranges_lock);
}

static void
agent_range_del(void *p)
{
	size_t	i;

	agent_spin_lock_always(&ranges_lock);
	for (i = 0; i < nranges; i++) {
		if (ranges[i].lo == (uint64_t)(uintptr_t)p) {
			ranges[i] = ranges[--nranges];
			break;
		}
	}
	agent_spin_unlock(&ranges_lock);
}

void *
agent_mmap(size_t len)
{
	void	*p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return (NULL);
	agent_range_add(p, len);
	return (p);
}

void
agent_munmap(void *p, size_t len)
{
	if (p == NULL)
		return;
	agent_range_del(p);
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
	agent_range_del(p);
	agent_range_add(q, len);
	return (q);
}

/* The agent's mappings as lo, hi pairs into v (room for max pairs). */
size_t
agent_ranges(uint64_t *v, size_t max)
{
	size_t	i, n;

	agent_spin_lock_always(&ranges_lock);
	n = nranges < max ? nranges : max;
	for (i = 0; i < n; i++) {
		v[2 * i] = ranges[i].lo;
		v[2 * i + 1] = ranges[i].hi;
	}
	agent_spin_unlock(&ranges_lock);
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


/* A fork's child: the lock may have been held by a thread it lacks. */
void
agent_mem_atfork_child(void)
{
	ranges_lock = 0;
}
