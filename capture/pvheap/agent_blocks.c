/*
 * The live blocks: a hash table of every block's address, size, site,
 * thread and sequence number, split into 64 shards, each with its own
 * spinlock, so threads rarely meet.
 */
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "capture/pvheap/agent.h"
#include "capture/pvheap/heapfmt.h"

/* ---- the live blocks ----------------------------------------------- */

#define SHARDS		64
#define SHARD_BITS	6
#define SHARD_CAP0	1024

struct shard {
	int			 lock;
	int			 logcap;
	struct agent_blk	*tab;
	uint64_t		 n;
} __attribute__((aligned(64)));

static struct shard	shards[SHARDS];

/* Fibonacci hashing: the top bits pick the shard, the next the slot. */
static inline uint64_t
agent_blk_hash(uint64_t addr)
{
	return ((addr >> 4) * 0x9e3779b97f4a7c15ull);
}

static inline uint64_t
agent_blk_slot(uint64_t h, int logcap)
{
	return ((h << SHARD_BITS) >> (64 - logcap));
}

static int
agent_shard_grow(struct shard *s)
{
	struct agent_blk	*old = s->tab, *tab;
	int			 logcap = s->tab != NULL ? s->logcap + 1 : 10;
	uint64_t		 cap = (uint64_t)1 << logcap, mask = cap - 1;
	uint64_t		 i, j, oldcap;

	if ((tab = agent_mmap(cap * sizeof *tab)) == NULL)
		return (-1);
	/* Every slot is written below or soon: fault the pages in at once. */
	madvise(tab, cap * sizeof *tab, MADV_POPULATE_WRITE);
	if (old != NULL) {
		oldcap = (uint64_t)1 << s->logcap;
		for (i = 0; i < oldcap; i++) {
			if (old[i].addr == 0)
				continue;
			j = agent_blk_slot(agent_blk_hash(old[i].addr), logcap);
			while (tab[j].addr != 0)
				j = (j + 1) & mask;
			tab[j] = old[i];
		}
		agent_munmap(old, oldcap * sizeof *old);
	}
	s->tab = tab;
	s->logcap = logcap;
	return (0);
}

void
agent_blk_insert(const struct agent_blk *b)
{
	uint64_t	 h = agent_blk_hash(b->addr), mask, i;
	struct shard	*s = &shards[h >> (64 - SHARD_BITS)];

	agent_spin_lock(&s->lock);
	/* At most 70 % full: linear probing stays short. */
	if (s->tab == NULL || (s->n + 1) * 10 > ((uint64_t)7 << s->logcap)) {
		if (agent_shard_grow(s) != 0) {
			agent_spin_unlock(&s->lock);
			return;
		}
	}
	mask = ((uint64_t)1 << s->logcap) - 1;
	i = agent_blk_slot(h, s->logcap);
	while (s->tab[i].addr != 0)
		i = (i + 1) & mask;
	s->tab[i] = *b;
	s->n++;
	agent_spin_unlock(&s->lock);
}

/* Take addr's entry out into *b; 0 if it was there. */
int
agent_blk_remove(uint64_t addr, struct agent_blk *b)
{
	uint64_t	 h = agent_blk_hash(addr), mask, i, j, k;
	struct shard	*s = &shards[h >> (64 - SHARD_BITS)];
	struct agent_blk *t;

	agent_spin_lock(&s->lock);
	if ((t = s->tab) == NULL) {
		agent_spin_unlock(&s->lock);
		return (-1);
	}
	mask = ((uint64_t)1 << s->logcap) - 1;
	i = agent_blk_slot(h, s->logcap);
	for (;;) {
		if (t[i].addr == addr)
			break;
		if (t[i].addr == 0) {
			agent_spin_unlock(&s->lock);
			return (-1);
		}
		i = (i + 1) & mask;
	}
	*b = t[i];
	/* Backward-shift deletion: no tombstones, probes stay short. */
	j = i;
	for (;;) {
		j = (j + 1) & mask;
		if (t[j].addr == 0)
			break;
		k = agent_blk_slot(agent_blk_hash(t[j].addr), s->logcap);
		if ((j > i && (k <= i || k > j)) ||
		    (j < i && (k <= i && k > j))) {
			t[i] = t[j];
			i = j;
		}
	}
	t[i].addr = 0;
	s->n--;
	agent_spin_unlock(&s->lock);
	return (0);
}

/*
 * Copy every live block into b (struct agent_blk each); the count.  Only
 * called with every other thread stopped outside the hooks.
 */
size_t
agent_blocks(struct abuf *b)
{
	struct agent_blk	*d;
	size_t			 n = 0, i, k, cap, total = 0;

	for (k = 0; k < SHARDS; k++)
		total += shards[k].n;
	if ((d = abuf_grow(b, total * sizeof *d)) == NULL)
		return (0);
	for (k = 0; k < SHARDS; k++) {
		if (shards[k].tab == NULL)
			continue;
		cap = (size_t)1 << shards[k].logcap;
		for (i = 0; i < cap && n < total; i++) {
			if (shards[k].tab[i].addr != 0)
				d[n++] = shards[k].tab[i];
		}
	}
	b->len = n * sizeof *d;
	return (n);
}

/* Around a fork: every shard's lock, so the child's tables are whole. */
void
agent_blocks_lock(void)
{
	int	k;

	for (k = 0; k < SHARDS; k++)
		agent_spin_lock(&shards[k].lock);
}

void
agent_blocks_unlock(void)
{
	int	k;

	for (k = SHARDS - 1; k >= 0; k--)
		agent_spin_unlock(&shards[k].lock);
}
