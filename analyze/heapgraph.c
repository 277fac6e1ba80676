/*
 * The heap graph of a heap session, as HeapInspector asks questions of it:
 * which blocks nothing reaches (memcheck's leak kinds), what one object
 * reaches, what reaches it, what only it (or one root) keeps alive, and
 * what unloading modules would free.
 *
 * Nodes: 0 stands for every root at once, 1..nroots the roots (module
 * variables, thread stacks and registers), then the blocks.  The edges
 * are kept both ways in CSR arrays, made once by counting sorts, so every
 * question is one or two linear passes; the dominator tree (Lengauer and
 * Tarjan, with path compression) answers "only anchored by" for every
 * node at once, and gives each its retained bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/heap.h"

#define HG_NONE		UINT32_MAX
/* In out[]/in[]: the pointer is interior and no heuristic excuses it. */
#define HG_WEAK		ANALYZE_HEAP_T_WEAK
#define HG_NODE(x)	((x) & ~HG_WEAK)

/* Free everything; h is all zeros after. */
void
analyze_heap_free(struct analyze_heap *h)
{
	free(h->out_off);
	free(h->out);
	free(h->in_off);
	free(h->in);
	free(h->size);
	free(h->state);
	free(h->idom);
	free(h->retained);
	free(h->dom_in);
	free(h->dom_out);
	free(h->dom_order);
	memset(h, 0, sizeof *h);
}

/*
 * The edges in, from the edges out: a counting sort by target.  The
 * targets are all over the heap: their counts and their in edges are
 * asked for edges ahead.  On 1M blocks with 3M pointers the misses were
 * most of the build's time.
 */
static void
hg_inverse(struct analyze_heap *h)
{
	uint32_t	*fill, src, dst;
	size_t		 i, m = h->nedges;

	h->in_off = xcalloc((size_t)h->nnodes + 1, sizeof *h->in_off);
	h->in = xreallocarray(NULL, m + 1, sizeof *h->in);
	for (i = 0; i < m; i++) {
		if (i + 16 < m)
			__builtin_prefetch(&h->in_off[HG_NODE(h->out[i + 16]) +
			    1]);
		h->in_off[HG_NODE(h->out[i]) + 1]++;
	}
	for (i = 1; i <= h->nnodes; i++)
		h->in_off[i] += h->in_off[i - 1];
	fill = xreallocarray(NULL, (size_t)h->nnodes + 1, sizeof *fill);
	memcpy(fill, h->in_off, h->nnodes * sizeof *fill);
	for (i = 0, src = 0; i < m; i++) {
		while (i >= h->out_off[src + 1])
			src++;
		if (i + 16 < m)
			__builtin_prefetch(&fill[HG_NODE(h->out[i + 16])]);
		if (i + 8 < m)
			__builtin_prefetch(&h->in[fill[HG_NODE(h->out[i +
			    8])]]);
		dst = HG_NODE(h->out[i]);
		h->in[fill[dst]++] = src | (h->out[i] & HG_WEAK);
	}
	free(fill);
}

/*
 * A graph of nroots roots, nblocks blocks of the given sizes and nedges
 * edges besides node 0's, its arrays made and node 0's edges in place;
 * -1 and cause if it is more than a graph holds.
 */
static int
hg_alloc(struct analyze_heap *h, uint32_t nroots, uint32_t nblocks,
    const uint64_t *sizes, size_t nedges, char **cause)
{
	uint64_t	n = 1 + (uint64_t)nroots + nblocks;
	uint32_t	i;

	memset(h, 0, sizeof *h);
	/* HG_WEAK takes the top bit; a node count must leave it free. */
	if (n >= ANALYZE_HEAP_MAX || nedges + nroots >= ANALYZE_HEAP_MAX) {
		*cause = xasprintf("heap graph: %llu nodes, %zu edges: too many",
		    (unsigned long long)n, nedges);
		return (-1);
	}
	h->nroots = nroots;
	h->nblocks = nblocks;
	h->nnodes = (uint32_t)n;
	h->nedges = nedges + nroots;
	h->size = xcalloc(h->nnodes, sizeof *h->size);
	if (nblocks != 0)
		memcpy(h->size + 1 + nroots, sizes, nblocks * sizeof *sizes);
	h->out_off = xcalloc((size_t)h->nnodes + 1, sizeof *h->out_off);
	h->out = xreallocarray(NULL, h->nedges + 1, sizeof *h->out);
	h->out_off[1] = nroots;
	for (i = 0; i < nroots; i++)
		h->out[i] = 1 + i;
	return (0);
}

/*
 * The graph of nroots roots and nblocks blocks of the given sizes, and
 * nedges edges, each from a root or a block to a block.  An index out of
 * range is the caller's data being wrong: -1 and cause says which edge.
 */
int
analyze_heap_build(struct analyze_heap *h, uint32_t nroots, uint32_t nblocks,
    const uint64_t *sizes, const struct analyze_heap_edge *e, size_t nedges,
    char **cause)
{
	uint32_t	*fill, src, dst, w;
	size_t		 i;

	if (hg_alloc(h, nroots, nblocks, sizes, nedges, cause) != 0)
		return (-1);
	for (i = 0; i < nedges; i++) {
		if (e[i].dst >= nblocks || ((e[i].flags & ANALYZE_HEAP_E_ROOT) ?
		    e[i].src >= nroots : e[i].src >= nblocks)) {
			*cause = xasprintf("heap graph: edge %zu: %s %u to block"
			    " %u: no such %s (%u roots, %u blocks)", i,
			    (e[i].flags & ANALYZE_HEAP_E_ROOT) ? "root" :
			    "block", e[i].src, e[i].dst,
			    e[i].dst >= nblocks ? "block" : "source", nroots,
			    nblocks);
			analyze_heap_free(h);
			return (-1);
		}
	}

	/* Counts, then offsets, then the edges in place, after node 0's. */
	for (i = 0; i < nedges; i++) {
		src = (e[i].flags & ANALYZE_HEAP_E_ROOT) ? 1 + e[i].src :
		    1 + nroots + e[i].src;
		h->out_off[src + 1]++;
	}
	for (i = 2; i <= h->nnodes; i++)
		h->out_off[i] += h->out_off[i - 1];
	fill = xreallocarray(NULL, (size_t)h->nnodes + 1, sizeof *fill);
	memcpy(fill, h->out_off, h->nnodes * sizeof *fill);
	for (i = 0; i < nedges; i++) {
		src = (e[i].flags & ANALYZE_HEAP_E_ROOT) ? 1 + e[i].src :
		    1 + nroots + e[i].src;
		dst = 1 + nroots + e[i].dst;
		w = (e[i].flags & ANALYZE_HEAP_E_INTERIOR) &&
		    !(e[i].flags & ANALYZE_HEAP_E_EXCUSED) ? HG_WEAK : 0;
		h->out[fill[src]++] = dst | w;
	}
	free(fill);
	hg_inverse(h);
	return (0);
}

/*
 * memcheck's leak kinds.  From a root, or a block already reachable, a
 * pointer to a block's start makes it reachable and an interior one
 * possible; from a possible block any pointer makes it possible (a block
 * that turns reachable later is scanned again).  What is left is lost:
 * one block of each group that no other lost block reaches is definitely
 * lost (the first by index, as memcheck takes the first by address), the
 * rest indirectly.
 *
 * The roots' pointers are rto[0..nrto), block b's adj[off[b]] up to
 * adj[off[b + 1]], and a target names block HG_NODE(x) - tbase: the
 * graph's (targets are nodes) and a snapshot's (targets are blocks,
 * with no graph made) both.  s has nblocks bytes, all UNREACHED.
 */
static void
hg_states(uint8_t *s, const uint32_t *rto, size_t nrto, uint32_t nblocks,
    const uint32_t *off, const uint32_t *adj, uint32_t tbase)
{
	uint32_t	*stack, top = 0, v, b, tb;
	size_t		 r, i;
	int		 definite;

	/* A block goes on the stack at most twice: possible, reachable. */
	stack = xreallocarray(NULL, 2 * (size_t)nblocks + 1, sizeof *stack);
	for (r = 0; r < nrto; r++) {
		tb = HG_NODE(rto[r]) - tbase;
		if (!(rto[r] & HG_WEAK) && s[tb] != ANALYZE_HEAP_REACHABLE) {
			s[tb] = ANALYZE_HEAP_REACHABLE;
			stack[top++] = tb;
		} else if (s[tb] == ANALYZE_HEAP_UNREACHED) {
			s[tb] = ANALYZE_HEAP_POSSIBLE;
			stack[top++] = tb;
		}
		/* Each root's search to its end: the stack's bound holds. */
		while (top > 0) {
			v = stack[--top];
			definite = s[v] == ANALYZE_HEAP_REACHABLE;
			for (i = off[v]; i < off[v + 1]; i++) {
				tb = HG_NODE(adj[i]) - tbase;
				if (definite && !(adj[i] & HG_WEAK) &&
				    s[tb] != ANALYZE_HEAP_REACHABLE) {
					s[tb] = ANALYZE_HEAP_REACHABLE;
					stack[top++] = tb;
				} else if (s[tb] == ANALYZE_HEAP_UNREACHED) {
					s[tb] = ANALYZE_HEAP_POSSIBLE;
					stack[top++] = tb;
				}
			}
		}
	}

	/*
	 * The lost ones, leaders in index order: whatever a leader reaches
	 * through lost blocks is indirectly lost, an earlier leader too.
	 */
	for (b = 0; b < nblocks; b++) {
		if (s[b] != ANALYZE_HEAP_UNREACHED)
			continue;
		s[b] = ANALYZE_HEAP_DEFINITE;
		top = 0;
		stack[top++] = b;
		while (top > 0) {
			v = stack[--top];
			for (i = off[v]; i < off[v + 1]; i++) {
				tb = HG_NODE(adj[i]) - tbase;
				if (tb == b || (s[tb] != ANALYZE_HEAP_UNREACHED &&
				    s[tb] != ANALYZE_HEAP_DEFINITE))
					continue;
				s[tb] = ANALYZE_HEAP_INDIRECT;
				stack[top++] = tb;
			}
		}
	}
	free(stack);
}

/* The graph's leak kinds, with their counts and bytes. */
void
analyze_heap_states(struct analyze_heap *h)
{
	uint32_t	b, base = 1 + h->nroots;

	free(h->state);
	h->state = xcalloc((size_t)h->nblocks + 1, 1);
	memset(h->counts, 0, sizeof h->counts);
	memset(h->bytes, 0, sizeof h->bytes);
	/* Node 0's edges are the roots; the roots' edges come next. */
	hg_states(h->state, h->out + h->out_off[1], h->out_off[base] -
	    h->out_off[1], h->nblocks, h->out_off + base, h->out, base);
	for (b = 0; b < h->nblocks; b++) {
		h->counts[h->state[b]]++;
		h->bytes[h->state[b]] += h->size[base + b];
	}
}

/*
 * The leak kinds (state[], nblocks bytes) straight from a snapshot's
 * pointers, as it has them, with no graph made: the ingest's one
 * question of the graph.  The roots' pointers are roots[0..nroots),
 * block b's to[first[b]] up to to[first[b + 1]], each a block's index,
 * ANALYZE_HEAP_T_WEAK or'd in for an interior pointer no heuristic
 * excuses.  A graph made of them (the edges again, out and in, offsets,
 * sizes) was more fresh memory than the pointers themselves, and its
 * making a tenth of a million-block ingest.  Wrong offsets or targets
 * are the caller's data being wrong: -1 and cause says where.
 */
int
analyze_heap_states_csr(uint8_t *state, const uint32_t *roots,
    size_t nroots, uint32_t nblocks, const uint32_t *first,
    const uint32_t *to, char **cause)
{
	size_t	i;

	if (nblocks >= ANALYZE_HEAP_MAX) {
		*cause = xasprintf("heap graph: %u blocks: too many", nblocks);
		return (-1);
	}
	for (i = 0; i <= nblocks; i++) {
		if (i == 0 ? first[0] != 0 : first[i] < first[i - 1]) {
			*cause = xasprintf("heap graph: block %zu: its edges"
			    " start at %u, before block %zu's", i, first[i],
			    i == 0 ? i : i - 1);
			return (-1);
		}
	}
	for (i = 0; i < nroots + first[nblocks]; i++) {
		if (HG_NODE(i < nroots ? roots[i] : to[i - nroots]) >=
		    nblocks) {
			*cause = xasprintf("heap graph: %s %zu: to block %u:"
			    " no such block (%u blocks)", i < nroots ? "root" :
			    "edge", i < nroots ? i : i - nroots,
			    HG_NODE(i < nroots ? roots[i] : to[i - nroots]),
			    nblocks);
			return (-1);
		}
	}
	memset(state, ANALYZE_HEAP_UNREACHED, nblocks);
	hg_states(state, roots, nroots, nblocks, first, to, 0);
	return (0);
}

/*
 * A search that can stop and go on (the browser's overlays, a step a
 * slice, with Esc to cancel): mark (1 in mark[], nnodes bytes, cleared
 * here) every node reachable from the n nodes of from, those included,
 * following pointers forwards or, with reverse, backwards (what reaches
 * them).  A node in skip (if not NULL, nnodes bytes) is neither entered
 * nor passed.  The stack holds each node at most once, so nnodes words.
 */
void
analyze_heap_walk_begin(struct analyze_heap_walk *w,
    const struct analyze_heap *h, const uint32_t *from, size_t n,
    int reverse, const uint8_t *skip, uint8_t *mark)
{
	uint32_t	v;
	size_t		i;

	memset(w, 0, sizeof *w);
	w->h = h;
	w->reverse = reverse;
	w->skip = skip;
	w->mark = mark;
	memset(mark, 0, h->nnodes);
	w->stack = xreallocarray(NULL, (size_t)h->nnodes + 1,
	    sizeof *w->stack);
	for (i = 0; i < n; i++) {
		v = from[i];
		if (v >= h->nnodes || mark[v] || (skip != NULL && skip[v]))
			continue;
		mark[v] = 1;
		w->count++;
		w->stack[w->top++] = v;
	}
}

/*
 * Go on for about budget pointers (a node's are never split): 1 while
 * there is more, 0 when the search is done (its stack freed; count and
 * mark are the answer).
 */
int
analyze_heap_walk_step(struct analyze_heap_walk *w, size_t budget)
{
	const struct analyze_heap *h = w->h;
	const uint32_t	*off = w->reverse ? h->in_off : h->out_off;
	const uint32_t	*adj = w->reverse ? h->in : h->out;
	const uint8_t	*skip = w->skip;
	uint8_t		*mark = w->mark;
	uint32_t	*stack = w->stack, top = w->top, v, x;
	size_t		 i, done = 0, count = w->count;

	if (stack == NULL)
		return (0);
	while (top > 0 && done < budget) {
		v = stack[--top];
		done += off[v + 1] - off[v];
		for (i = off[v]; i < off[v + 1]; i++) {
			x = HG_NODE(adj[i]);
			if (mark[x] || (skip != NULL && skip[x]))
				continue;
			mark[x] = 1;
			count++;
			stack[top++] = x;
		}
	}
	w->top = top;
	w->count = count;
	if (top > 0)
		return (1);
	analyze_heap_walk_end(w);
	return (0);
}

/* Stop a search (done or not); what it marked so far stays marked. */
void
analyze_heap_walk_end(struct analyze_heap_walk *w)
{
	free(w->stack);
	w->stack = NULL;
	w->top = 0;
}

/* The whole search at once: the count marked. */
size_t
analyze_heap_reach(const struct analyze_heap *h, const uint32_t *from,
    size_t n, int reverse, const uint8_t *skip, uint8_t *mark)
{
	struct analyze_heap_walk	w;

	analyze_heap_walk_begin(&w, h, from, n, reverse, skip, mark);
	while (analyze_heap_walk_step(&w, SIZE_MAX))
		continue;
	return (w.count);
}

/*
 * Path compression for eval(), without recursion (a list of a million
 * blocks is a path of a million): the chain of ancestors up to the
 * forest's root is gathered, then compressed from the top down.
 */
static void
hg_compress(uint32_t v, uint32_t *ancestor, uint32_t *label,
    const uint32_t *semi, uint32_t *path)
{
	uint32_t	n = 0, x, a;

	for (x = v; ancestor[ancestor[x]] != HG_NONE; x = ancestor[x])
		path[n++] = x;
	while (n > 0) {
		x = path[--n];
		a = ancestor[x];
		if (semi[label[a]] < semi[label[x]])
			label[x] = label[a];
		ancestor[x] = ancestor[a];
	}
}

static uint32_t
hg_eval(uint32_t v, uint32_t *ancestor, uint32_t *label, const uint32_t *semi,
    uint32_t *path)
{
	if (ancestor[v] == HG_NONE)
		return (v);
	hg_compress(v, ancestor, label, semi, path);
	return (label[v]);
}

/*
 * The dominator tree from node 0 (Lengauer and Tarjan), in DFS preorder
 * numbers, then back in node ids: idom[] (HG_NONE where nothing reaches),
 * each node's retained bytes (itself and all it dominates), and each
 * node's span [dom_in, dom_out) in the tree's preorder dom_order[], so
 * that "dominated by x" is a slice.
 */
void
analyze_heap_dominators(struct analyze_heap *h)
{
	uint32_t	 N = h->nnodes, n = 0, k, v, w, u, p, top;
	uint32_t	*num, *vertex, *parent, *semi, *idom, *ancestor, *label;
	uint32_t	*bhead, *bnext, *stack, *edge, *path, *kids, *koff;
	size_t		 i;

	num = xreallocarray(NULL, N, sizeof *num);
	memset(num, 0xff, (size_t)N * sizeof *num);
	vertex = xreallocarray(NULL, N, sizeof *vertex);
	parent = xreallocarray(NULL, N, sizeof *parent);
	stack = xreallocarray(NULL, N, sizeof *stack);
	edge = xreallocarray(NULL, N, sizeof *edge);

	/* Preorder numbers by an iterative DFS from node 0. */
	top = 0;
	num[0] = n;
	vertex[n] = 0;
	parent[n++] = HG_NONE;
	stack[top] = 0;
	edge[top++] = h->out_off[0];
	while (top > 0) {
		v = stack[top - 1];
		if (edge[top - 1] == h->out_off[v + 1]) {
			top--;
			continue;
		}
		w = HG_NODE(h->out[edge[top - 1]++]);
		if (num[w] != HG_NONE)
			continue;
		num[w] = n;
		vertex[n] = w;
		parent[n++] = num[v];
		stack[top] = w;
		edge[top++] = h->out_off[w];
	}
	free(edge);

	semi = xreallocarray(NULL, n, sizeof *semi);
	idom = xreallocarray(NULL, n, sizeof *idom);
	ancestor = xreallocarray(NULL, n, sizeof *ancestor);
	label = xreallocarray(NULL, n, sizeof *label);
	bhead = xreallocarray(NULL, n, sizeof *bhead);
	bnext = xreallocarray(NULL, n, sizeof *bnext);
	path = stack;
	for (k = 0; k < n; k++) {
		semi[k] = label[k] = k;
		ancestor[k] = bhead[k] = HG_NONE;
		idom[k] = 0;
	}
	for (k = n - 1; k > 0; k--) {
		w = vertex[k];
		for (i = h->in_off[w]; i < h->in_off[w + 1]; i++) {
			v = num[HG_NODE(h->in[i])];
			if (v == HG_NONE)
				continue;
			u = hg_eval(v, ancestor, label, semi, path);
			if (semi[u] < semi[k])
				semi[k] = semi[u];
		}
		bnext[k] = bhead[semi[k]];
		bhead[semi[k]] = k;
		p = parent[k];
		ancestor[k] = p;
		for (v = bhead[p]; v != HG_NONE; v = bnext[v]) {
			u = hg_eval(v, ancestor, label, semi, path);
			idom[v] = semi[u] < semi[v] ? u : p;
		}
		bhead[p] = HG_NONE;
	}
	for (k = 1; k < n; k++) {
		if (idom[k] != semi[k])
			idom[k] = idom[idom[k]];
	}
	free(semi);
	free(ancestor);
	free(label);
	free(bhead);
	free(bnext);
	free(parent);

	/* Back to node ids; retained bytes bottom up (parents first in k). */
	free(h->idom);
	free(h->retained);
	h->idom = xreallocarray(NULL, N, sizeof *h->idom);
	memset(h->idom, 0xff, (size_t)N * sizeof *h->idom);
	h->retained = xcalloc(N, sizeof *h->retained);
	for (k = 1; k < n; k++)
		h->idom[vertex[k]] = vertex[idom[k]];
	for (k = n; k-- > 0;) {
		h->retained[vertex[k]] += h->size[vertex[k]];
		if (k > 0)
			h->retained[vertex[idom[k]]] +=
			    h->retained[vertex[k]];
	}

	/* The tree's children (CSR), then its preorder and each span. */
	koff = xcalloc((size_t)N + 1, sizeof *koff);
	for (k = 1; k < n; k++)
		koff[vertex[idom[k]] + 1]++;
	for (v = 0; v < N; v++)
		koff[v + 1] += koff[v];
	kids = xreallocarray(NULL, n + 1, sizeof *kids);
	memcpy(num, koff, (size_t)N * sizeof *num);
	for (k = 1; k < n; k++)
		kids[num[vertex[idom[k]]]++] = vertex[k];
	free(h->dom_in);
	free(h->dom_out);
	free(h->dom_order);
	h->dom_in = xreallocarray(NULL, N, sizeof *h->dom_in);
	h->dom_out = xreallocarray(NULL, N, sizeof *h->dom_out);
	memset(h->dom_in, 0xff, (size_t)N * sizeof *h->dom_in);
	memset(h->dom_out, 0xff, (size_t)N * sizeof *h->dom_out);
	h->dom_order = xreallocarray(NULL, n + 1, sizeof *h->dom_order);
	h->ndom = n;
	/* stack holds nodes; num[] reused as the next child to visit. */
	memcpy(num, koff, (size_t)N * sizeof *num);
	k = 0;
	top = 0;
	stack[top++] = 0;
	h->dom_in[0] = k;
	h->dom_order[k++] = 0;
	while (top > 0) {
		v = stack[top - 1];
		if (num[v] == koff[v + 1]) {
			h->dom_out[v] = k;
			top--;
			continue;
		}
		w = kids[num[v]++];
		h->dom_in[w] = k;
		h->dom_order[k++] = w;
		stack[top++] = w;
	}
	free(kids);
	free(koff);
	free(stack);
	free(num);
	free(vertex);
	free(idom);
}

/*
 * What clearing node x (a root, or a block's every pointer to it) would
 * free: the nodes it dominates, itself included, as a slice of
 * h->dom_order (*first, count returned); 0 when nothing reaches x.
 * analyze_heap_dominators must have run.
 */
size_t
analyze_heap_anchored(const struct analyze_heap *h, uint32_t x,
    const uint32_t **first)
{
	*first = NULL;
	if (x >= h->nnodes || h->dom_in == NULL || h->dom_in[x] == HG_NONE)
		return (0);
	*first = h->dom_order + h->dom_in[x];
	return (h->dom_out[x] - h->dom_in[x]);
}

/*
 * OnlyAnchoredBy x for one x, without the dominator tree: mark (nnodes
 * bytes) what the roots reach now but no longer reach with x taken out,
 * x included; one search, as what they reach now is in h->state.  In
 * two halves so the browser can run the search in steps: _begin starts
 * it from the super-root with x marked beforehand, so it is neither
 * entered nor passed (no skip array); _finish turns its marks into the
 * answer and gives the count.
 */
void
analyze_heap_anchored_begin(struct analyze_heap_walk *w,
    const struct analyze_heap *h, uint32_t x, uint8_t *mark)
{
	uint32_t	zero = 0;
	int		st;

	/* x = 0 anchors everything reached; nothing to search. */
	analyze_heap_walk_begin(w, h, &zero, x == 0 ? 0 : 1, 0, NULL, mark);
	if (x == 0 || x >= h->nnodes || h->state == NULL) {
		analyze_heap_walk_end(w);
		return;
	}
	st = x >= 1 + h->nroots ? h->state[x - 1 - h->nroots] :
	    ANALYZE_HEAP_REACHABLE;
	if (st != ANALYZE_HEAP_REACHABLE && st != ANALYZE_HEAP_POSSIBLE) {
		analyze_heap_walk_end(w);
		return;
	}
	/* Begin marked the super-root; x goes in before anything passes. */
	mark[x] = 1;
}

size_t
analyze_heap_anchored_finish(const struct analyze_heap *h, uint32_t x,
    uint8_t *mark)
{
	uint32_t	 v, base = 1 + h->nroots;
	size_t		 count = 0;
	int		 st;

	if (x >= h->nnodes || h->state == NULL) {
		memset(mark, 0, h->nnodes);
		return (0);
	}
	if (x >= base && ((st = h->state[x - base]) != ANALYZE_HEAP_REACHABLE &&
	    st != ANALYZE_HEAP_POSSIBLE)) {
		memset(mark, 0, h->nnodes);
		return (0);
	}
	if (x == 0)
		memset(mark, 0, h->nnodes);
	else
		mark[x] = 0;	/* set by _begin: x itself is not reached */
	for (v = 1; v < h->nnodes; v++) {
		if (v < base)
			mark[v] = !mark[v];
		else {
			st = h->state[v - base];
			mark[v] = !mark[v] && (st == ANALYZE_HEAP_REACHABLE ||
			    st == ANALYZE_HEAP_POSSIBLE);
		}
		count += mark[v];
	}
	mark[0] = x == 0;
	count += mark[0];
	return (count);
}

size_t
analyze_heap_anchored_by(const struct analyze_heap *h, uint32_t x,
    uint8_t *mark)
{
	struct analyze_heap_walk	w;

	analyze_heap_anchored_begin(&w, h, x, mark);
	while (analyze_heap_walk_step(&w, SIZE_MAX))
		continue;
	return (analyze_heap_anchored_finish(h, x, mark));
}

/*
 * TestUnloadModules: with the roots in drop (nroots bytes) gone, mark in
 * lost (nnodes bytes) the blocks the other roots no longer reach but the
 * roots did.  The count marked.
 */
size_t
analyze_heap_unload(const struct analyze_heap *h, const uint8_t *drop,
    uint8_t *lost)
{
	uint8_t		*before;
	uint32_t	*from, nfrom = 0, r, b, base = 1 + h->nroots;
	size_t		 count = 0;

	before = xreallocarray(NULL, h->nnodes + 1, 1);
	from = xreallocarray(NULL, (size_t)h->nroots + 1, sizeof *from);
	r = 0;
	analyze_heap_reach(h, &r, 1, 0, NULL, before);
	for (r = 0; r < h->nroots; r++) {
		if (!drop[r])
			from[nfrom++] = 1 + r;
	}
	analyze_heap_reach(h, from, nfrom, 0, NULL, lost);
	for (b = base; b < h->nnodes; b++) {
		lost[b] = before[b] && !lost[b];
		count += lost[b];
	}
	for (r = 0; r < base; r++)
		lost[r] = 0;
	free(from);
	free(before);
	return (count);
}
