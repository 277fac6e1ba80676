/*
 * The live blocks: a hash table of every block's address, size, site,
 * thread and sequence number, split into 64 shards, each with its own
 * spinlock, so threads rarely meet.
 *
 * A table of a million blocks is most of what the agent costs a program
 * (issue 25: at most 64 bytes a live block, all included).  A 32-byte
 * entry in a table that doubles at 70 % full is 46 to 91 bytes a block;
 * one that grows by half at 5/6 full is 38 to 58, and over its life
 * faults in and copies no more than the doubling one did (a quarter at a
 * time was 40 to 50 bytes but twice the page faults).  So a shard's
 * capacity is any number of slots, and a hash is mapped onto it by a
 * multiply, not a mask.
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
	uint32_t		 cap;
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
agent_blk_slot(uint64_t h, uint32_t cap)
{
	return (((h << SHARD_BITS) >> 32) * cap >> 32);
}

static inline uint64_t
agent_blk_next(uint64_t i, uint32_t cap)
{
	return (i + 1 == cap ? 0 : i + 1);
}

static int
agent_shard_grow(struct shard *s)
{
	struct agent_blk	*old = s->tab, *tab;
	uint64_t		 cap, i, j;

	cap = old != NULL ? (uint64_t)s->cap + s->cap / 2 : SHARD_CAP0;
	if (cap > UINT32_MAX || (tab = agent_mmap(cap * sizeof *tab)) == NULL)
		return (-1);
	/* Every slot is written below or soon: fault the pages in at once. */
	madvise(tab, cap * sizeof *tab, MADV_POPULATE_WRITE);
	if (old != NULL) {
		for (i = 0; i < s->cap; i++) {
			if (old[i].addr == 0)
				continue;
			j = agent_blk_slot(agent_blk_hash(old[i].addr),
			    (uint32_t)cap);
			while (tab[j].addr != 0)
				j = agent_blk_next(j, (uint32_t)cap);
			tab[j] = old[i];
		}
		agent_munmap(old, s->cap * sizeof *old);
	}
	s->tab = tab;
	s->cap = (uint32_t)cap;
	return (0);
}

void
agent_blk_insert(const struct agent_blk *b)
{
	uint64_t	 h = agent_blk_hash(b->addr), i;
	struct shard	*s = &shards[h >> (64 - SHARD_BITS)];

	agent_spin_lock(&s->lock);
	if (s->tab == NULL || (s->n + 1) * 6 > (uint64_t)s->cap * 5) {
		if (agent_shard_grow(s) != 0) {
			agent_spin_unlock(&s->lock);
			return;
		}
	}
	i = agent_blk_slot(h, s->cap);
	while (s->tab[i].addr != 0)
		i = agent_blk_next(i, s->cap);
	s->tab[i] = *b;
	s->n++;
	agent_spin_unlock(&s->lock);
}

/* Take addr's entry out into *b; 0 if it was there. */
int
agent_blk_remove(uint64_t addr, struct agent_blk *b)
{
	uint64_t	 h = agent_blk_hash(addr), i, j, k;
	struct shard	*s = &shards[h >> (64 - SHARD_BITS)];
	struct agent_blk *t;

	agent_spin_lock(&s->lock);
	if ((t = s->tab) == NULL) {
		agent_spin_unlock(&s->lock);
		return (-1);
	}
	i = agent_blk_slot(h, s->cap);
	for (;;) {
		if (t[i].addr == addr)
			break;
		if (t[i].addr == 0) {
			agent_spin_unlock(&s->lock);
			return (-1);
		}
		i = agent_blk_next(i, s->cap);
	}
	*b = t[i];
	/* Backward-shift deletion: no tombstones, probes stay short. */
	j = i;
	for (;;) {
		j = agent_blk_next(j, s->cap);
		if (t[j].addr == 0)
			break;
		k = agent_blk_slot(agent_blk_hash(t[j].addr), s->cap);
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
		cap = shards[k].cap;
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
