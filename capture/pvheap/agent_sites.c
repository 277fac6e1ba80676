/*
 * The allocation sites: a distinct stack each, with heaptrack's numbers,
 * found by a lock-free lookup (a new site is made under a lock).
 */
#include <stdint.h>
#include <string.h>

#include "capture/pvheap/agent.h"
#include "capture/pvheap/heapfmt.h"

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
agent_stack_hash(const uintptr_t *pc, int n)
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
agent_site_probe(const struct site_index *x, uint64_t h, const uintptr_t *pc,
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
agent_site_index_new(uint64_t cap)
{
	struct site_index	*x;

	x = agent_mmap(sizeof *x + cap * sizeof x->slot[0]);
	if (x != NULL)
		x->mask = cap - 1;
	return (x);
}

static void
agent_site_index_put(struct site_index *x, uint64_t h, uint32_t id)
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
struct agent_site *
agent_site_get(const uintptr_t *pc, int n)
{
	struct site_index	*x, *y;
	struct agent_site	*s;
	uint64_t		 h = agent_stack_hash(pc, n), i;
	uint32_t		 id;

	x = __atomic_load_n(&site_idx, __ATOMIC_ACQUIRE);
	if (LIKELY(x != NULL) && (s = agent_site_probe(x, h, pc, n)) != NULL)
		return (s);
	agent_spin_lock(&site_lock);
	x = site_idx;
	if (x != NULL && (s = agent_site_probe(x, h, pc, n)) != NULL)
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
		y = agent_site_index_new(x != NULL ? (x->mask + 1) * 2 : 4096);
		if (y == NULL)
			goto out;
		for (i = 0; i < id; i++)
			agent_site_index_put(y, agent_site(i)->hash, i);
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
	agent_site_index_put(x, h, id);
out:
	agent_spin_unlock(&site_lock);
	return (s);
}

/* Around a fork, taken before the shards' locks. */
void
agent_sites_lock(void)
{
	agent_spin_lock(&site_lock);
}

void
agent_sites_unlock(void)
{
	agent_spin_unlock(&site_lock);
}
