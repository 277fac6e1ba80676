/*
 * The .mon file: what p2 leaves, readable like the Amiga profiler's
 * foo.mon (one line per routine: calls, time in self, time in self plus
 * children; here real and CPU, sorted by self) and exact enough for
 * profview to load.  Layout in profview-formats(5), MON FILES.
 *
 * Every thread's call tree (in the shared memory) is merged into one;
 * the functions and call edges are derived from it, so that recursion is
 * counted once in self+children: a node's time goes to its function's
 * total only when no node above it on its path is the same function
 * (and to an edge's total only when no edge above it is the same edge).
 * With -a the old file's paths are merged in first and everything is
 * derived again.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "monname.h"
#include "capture/pvtrace/pvtrace.h"

static const char *const mon_stat_name[PVT_ST_COUNT] = {
	"processes", "inert_processes", "threads", "traps", "tail_calls",
	"self_jumps", "unwound", "abandoned", "exit_closed", "kill_closed",
	"missed", "no_memory", "clock_backwards", "cpu_resyncs", "unreachable",
	"samples_lost", "remote_looks"
};

/*
 * enum pvt_how's names, then a leaf's: jumped, with the light probe
 * (the sampler ran), so its trap-measured times are its caller's.
 */
static const char *const mon_how[] = { "jump", "trap", "out", "plt",
    "leaf" };
#define MON_HOW_LEAF	4

struct mon_fn {
	char		*name;		/* raw */
	char		*module;	/* raw short name */
	char		*key;		/* escaped, unique */
	uint64_t	 addr, size;
	int		 how;
	uint64_t	 calls;
	int64_t		 self, total, scpu, tcpu;
	double		 eself, etotal;		/* uncertainty, ns */
	uint32_t	 active;
	uint32_t	 paths;			/* on this many paths */
};

struct mon_node {
	uint32_t	 parent, func, child, sib;
	uint64_t	 calls, fresh;		/* fresh: this run's */
	int64_t		 self, total, scpu, tcpu;
	double		 eself, etotal;
	uint64_t	 samp[PVT_SA_COUNT];	/* the sampler's, at it */
};

struct mon_edge {
	uint32_t	 caller, callee;	/* PVT_NOFUNC: no traced caller */
	uint64_t	 calls;
	int64_t		 total, tcpu;
	double		 etotal;
	uint32_t	 active;
};

struct mon_map {
	uint32_t	*v;		/* index + 1, 0 empty */
	size_t		 mask, n;
};

struct mon {
	struct mon_fn	*fn;
	size_t		 nfn, capfn;
	struct mon_map	 fnkey;
	struct mon_node	*node;
	size_t		 nnode, capnode;
	struct mon_map	 nodekey;
	struct mon_edge	*edge;
	size_t		 nedge, capedge;
	struct mon_map	 edgekey;
	/* Carried over from an old file (-a). */
	uint64_t	 runs, real_ns;
	uint64_t	 stat[PVT_ST_COUNT];
	uint64_t	 probe[PVT_SA_COUNT];	/* samples in the agent */
	char		*first;		/* when the first run started */
	double		 ns_per_tsc;
};

static uint64_t
mon_hash_str(const char *s)
{
	uint64_t	h = 1469598103934665603ULL;

	while (*s != '\0')
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return (h);
}

/*
 * The maps take the low bits, and a product's low 32 bits depend on b's
 * alone: every node of one function (a deep recursion's thousands) fell
 * into one run of the table.  The high half, folded in, depends on a.
 */
static uint64_t
mon_hash2(uint32_t a, uint32_t b)
{
	uint64_t	h = ((uint64_t)a << 32 | b) * 0x9e3779b97f4a7c15ULL;

	return (h ^ h >> 32);
}

/* Grow a map to keep it at most half full; rehash with hashfn. */
static void
mon_map_room(struct mon *m, struct mon_map *map,
    uint64_t (*hashfn)(struct mon *, uint32_t))
{
	struct mon_map	nm;
	size_t		i, h;

	if (map->v != NULL && (map->n + 1) * 2 <= map->mask + 1)
		return;
	nm.mask = map->v != NULL ? map->mask * 2 + 1 : 1023;
	nm.n = map->n;
	if ((nm.v = calloc(nm.mask + 1, sizeof *nm.v)) == NULL) {
		fputs("pvtrace: out of memory\n", stderr);
		exit(127);
	}
	for (i = 0; map->v != NULL && i <= map->mask; i++) {
		if (map->v[i] == 0)
			continue;
		h = hashfn(m, map->v[i] - 1) & nm.mask;
		while (nm.v[h] != 0)
			h = (h + 1) & nm.mask;
		nm.v[h] = map->v[i];
	}
	free(map->v);
	*map = nm;
}

static uint64_t
mon_fn_hash(struct mon *m, uint32_t i)
{
	return (mon_hash_str(m->fn[i].key));
}

static uint64_t
mon_node_hash(struct mon *m, uint32_t i)
{
	return (mon_hash2(m->node[i].parent, m->node[i].func));
}

static uint64_t
mon_edge_hash(struct mon *m, uint32_t i)
{
	return (mon_hash2(m->edge[i].caller, m->edge[i].callee));
}

static int
mon_fn_find(struct mon *m, const char *key, uint32_t *out)
{
	size_t	h;

	if (m->fnkey.v == NULL)
		return (0);
	for (h = mon_hash_str(key) & m->fnkey.mask; m->fnkey.v[h] != 0;
	    h = (h + 1) & m->fnkey.mask) {
		if (strcmp(m->fn[m->fnkey.v[h] - 1].key, key) == 0) {
			*out = m->fnkey.v[h] - 1;
			return (1);
		}
	}
	return (0);
}

static void
mon_fn_index(struct mon *m, uint32_t i)
{
	size_t	h;

	mon_map_room(m, &m->fnkey, mon_fn_hash);
	for (h = mon_fn_hash(m, i) & m->fnkey.mask; m->fnkey.v[h] != 0;
	    h = (h + 1) & m->fnkey.mask)
		;
	m->fnkey.v[h] = i + 1;
	m->fnkey.n++;
}

static uint32_t
mon_child(struct mon *m, uint32_t parent, uint32_t func)
{
	struct mon_node	*n;
	size_t		 h;
	uint32_t	 i;

	mon_map_room(m, &m->nodekey, mon_node_hash);
	for (h = mon_hash2(parent, func) & m->nodekey.mask;
	    m->nodekey.v[h] != 0; h = (h + 1) & m->nodekey.mask) {
		n = &m->node[m->nodekey.v[h] - 1];
		if (n->parent == parent && n->func == func)
			return (m->nodekey.v[h] - 1);
	}
	m->node = pvt_grow(m->node, &m->capnode, m->nnode, sizeof *m->node);
	i = (uint32_t)m->nnode++;
	n = &m->node[i];
	memset(n, 0, sizeof *n);
	n->parent = parent;
	n->func = func;
	n->child = n->sib = UINT32_MAX;
	m->nodekey.v[h] = i + 1;
	m->nodekey.n++;
	return (i);
}

static uint32_t
mon_edge_get(struct mon *m, uint32_t caller, uint32_t callee)
{
	struct mon_edge	*e;
	size_t		 h;

	mon_map_room(m, &m->edgekey, mon_edge_hash);
	for (h = mon_hash2(caller, callee) & m->edgekey.mask;
	    m->edgekey.v[h] != 0; h = (h + 1) & m->edgekey.mask) {
		e = &m->edge[m->edgekey.v[h] - 1];
		if (e->caller == caller && e->callee == callee)
			return (m->edgekey.v[h] - 1);
	}
	m->edge = pvt_grow(m->edge, &m->capedge, m->nedge, sizeof *m->edge);
	e = &m->edge[m->nedge];
	memset(e, 0, sizeof *e);
	e->caller = caller;
	e->callee = callee;
	m->edgekey.v[h] = (uint32_t)++m->nedge;
	m->edgekey.n++;
	return ((uint32_t)(m->nedge - 1));
}

/* An escaped string, in memory. */
static char *
mon_esc(const char *s)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*f = open_memstream(&buf, &len);

	if (f == NULL) {
		fputs("pvtrace: out of memory\n", stderr);
		exit(127);
	}
	monname_put(f, s);
	fclose(f);
	return (buf);
}

/*
 * The plan's functions, keyed by name; a name that two functions share
 * is qualified by module and address (static functions of the same name
 * in different files are common).
 */
static void
mon_plan_fns(struct mon *m, const struct pvt_plan *p)
{
	struct mon_fn	*f;
	size_t		 i;
	char		*key, *mod;
	uint32_t	 dup;

	for (i = 0; i < p->nfn; i++) {
		m->fn = pvt_grow(m->fn, &m->capfn, m->nfn, sizeof *m->fn);
		f = &m->fn[m->nfn];
		memset(f, 0, sizeof *f);
		f->name = strdup(p->str + p->fn[i].name);
		f->module = strdup(p->str + p->mod[p->fn[i].module].name);
		f->addr = p->fn[i].addr;
		f->size = p->fn[i].size;
		f->how = p->fn[i].how;
		f->key = mon_esc(f->name);
		m->nfn++;
	}
	/* Qualify every name used twice (a first pass finds them). */
	for (i = 0; i < m->nfn; i++) {
		if (mon_fn_find(m, m->fn[i].key, &dup)) {
			m->fn[dup].how |= 0x100;
			m->fn[i].how |= 0x100;
		} else
			mon_fn_index(m, (uint32_t)i);
	}
	free(m->fnkey.v);
	memset(&m->fnkey, 0, sizeof m->fnkey);
	for (i = 0; i < m->nfn; i++) {
		f = &m->fn[i];
		if (f->how & 0x100) {
			f->how &= 0xff;
			mod = mon_esc(f->module);
			if (asprintf(&key, "%s@%s+0x%" PRIx64, f->key, mod,
			    f->addr) < 0)
				exit(127);
			free(mod);
			free(f->key);
			f->key = key;
		}
		if (mon_fn_find(m, f->key, &dup))
			continue;	/* an alias at one address: kept once */
		mon_fn_index(m, (uint32_t)i);
	}
}

/* Close what a dead thread left open, at the best time known. */
static void
mon_close_open(struct pvt_shm *shm, struct pvt_slot *s,
    const struct pvt_run *run)
{
	char		*base = (char *)shm;
	struct pvt_frame *fr = (struct pvt_frame *)(base + s->frames);
	struct pvt_node	*nodes = (struct pvt_node *)(base + s->nodes);
	uint64_t	 end = s->end_tsc, back = 0;
	size_t		 i;
	uint32_t	 d;

	if (s->depth == 0 || s->depth > s->fcap)
		return;
	if (end == 0) {
		for (i = 0; i < run->ndeaths; i++) {
			if (run->deaths[i].pid == s->pid)
				end = run->deaths[i].tsc;
		}
	}
	if (end == 0 || (int64_t)(end - s->last_tsc) < 0)
		end = s->last_tsc;
	for (d = s->depth; d > 0; d--) {
		if (fr[d - 1].node >= s->nnode)
			break;
		pvt_close(fr, d - 1, nodes, end, s->last_cpu, shm->cal_a,
		    shm->cal_b, &back);
		shm->stat[PVT_ST_KILLCLOSED]++;
	}
	s->depth = 0;
	shm->stat[PVT_ST_BACKWARDS] += back;
}

/* Merge every slot's call tree into m's. */
static void
mon_merge_shm(struct mon *m, struct pvt_shm *shm, const struct pvt_run *run)
{
	char		*base = (char *)shm;
	struct pvt_slot	*s;
	struct pvt_node	*nodes, *sn;
	struct pvt_samp	*sa;
	struct mon_node	*n;
	uint32_t	*map = NULL;
	size_t		 cap = 0, i, j;
	uint64_t	 off;
	double		 k = m->ns_per_tsc;

	for (off = shm->slot_first; off != 0 && off < shm->size;
	    off = s->next) {
		s = (struct pvt_slot *)(base + off);
		if (s->state == PVT_SLOT_CAL || s->nnode > s->ncap)
			continue;
		mon_close_open(shm, s, run);
		nodes = (struct pvt_node *)(base + s->nodes);
		if (s->nnode > cap) {
			cap = s->nnode;
			if ((map = reallocarray(map, cap, sizeof *map)) ==
			    NULL)
				exit(127);
		}
		map[0] = 0;
		for (i = 1; i < s->nnode; i++) {
			sn = &nodes[i];
			map[i] = UINT32_MAX;
			if (sn->parent >= i || map[sn->parent] == UINT32_MAX ||
			    sn->func >= m->nfn)
				continue;
			map[i] = mon_child(m, map[sn->parent], sn->func);
			n = &m->node[map[i]];
			n->calls += sn->calls;
			n->fresh += sn->calls;
			n->self += llround(sn->self * k);
			n->total += llround(sn->total * k);
			n->scpu += llround(sn->self_cpu * k);
			n->tcpu += llround(sn->total_cpu * k);
		}
		/* The sampler's counts, by the same nodes (0: outside). */
		if (s->scap == 0 || s->samp >= shm->size)
			continue;
		sa = (struct pvt_samp *)(base + s->samp);
		for (i = 0; i < s->nnode && i < s->scap; i++) {
			if (map[i] == UINT32_MAX)
				continue;
			for (j = 0; j < PVT_SA_COUNT; j++)
				m->node[map[i]].samp[j] += sa[i].v[j];
		}
	}
	free(map);
}

static int
mon_cmp_child(const void *a, const void *b, void *arg)
{
	const struct mon *m = arg;
	const struct mon_node *x = &m->node[*(const uint32_t *)a];
	const struct mon_node *y = &m->node[*(const uint32_t *)b];

	if (x->total != y->total)
		return (x->total > y->total ? -1 : 1);
	return (strcmp(m->fn[x->func].key, m->fn[y->func].key));
}

/*
 * How uncertain this run's times are: each call's subtracted overhead is
 * known to within half the calibration's 10th-90th percentile range, but
 * never better than a quarter of the overhead itself (in long runs of
 * bench/trace's workload the stubs cost up to that much more than in
 * the calibration's short batches), and those errors add up (they are
 * not independent): self carries its own calls' and its direct
 * children's, self+children every call below.
 */
static void
mon_errors(struct mon *m, const struct pvt_shm *shm)
{
	double		*w, *sub, *kids, d[2];
	size_t		 i;
	struct mon_node	*n;
	int		 how;

	for (i = 0; i < 2; i++) {
		d[i] = (shm->cal_hi[i] - shm->cal_lo[i]) / 2.0;
		if (d[i] < (shm->cal_a[i] + shm->cal_b[i]) / 4.0)
			d[i] = (shm->cal_a[i] + shm->cal_b[i]) / 4.0;
		d[i] *= 1e9 / shm->tsc_hz;
	}
	w = calloc(m->nnode, sizeof *w);
	sub = calloc(m->nnode, sizeof *sub);
	kids = calloc(m->nnode, sizeof *kids);
	if (w == NULL || sub == NULL || kids == NULL)
		exit(127);
	for (i = 1; i < m->nnode; i++) {
		how = m->fn[m->node[i].func].how == PVT_TRAP;
		w[i] = sub[i] = d[how] * (double)m->node[i].fresh;
	}
	/* A parent is always made before its children. */
	for (i = m->nnode - 1; i >= 1; i--) {
		sub[m->node[i].parent] += sub[i];
		kids[m->node[i].parent] += w[i];
	}
	for (i = 1; i < m->nnode; i++) {
		n = &m->node[i];
		n->eself += w[i] + kids[i];
		n->etotal += sub[i];
	}
	free(w);
	free(sub);
	free(kids);
}

/* Link each node's children, sorted by total, for the depth-first walk. */
static void
mon_link(struct mon *m)
{
	uint32_t	*v, *start, *fill, i, p;
	size_t		 n = m->nnode;

	if (n <= 1)
		return;
	v = calloc(n, sizeof *v);
	start = calloc(n + 1, sizeof *start);
	fill = calloc(n + 1, sizeof *fill);
	if (v == NULL || start == NULL || fill == NULL)
		exit(127);
	for (i = 1; i < n; i++)
		start[m->node[i].parent + 1]++;
	for (i = 1; i <= n; i++)
		start[i] += start[i - 1];
	for (i = 1; i < n; i++) {
		p = m->node[i].parent;
		v[start[p] + fill[p]++] = i;
	}
	for (p = 0; p < n; p++) {
		m->node[p].child = UINT32_MAX;
		if (fill[p] == 0)
			continue;
		qsort_r(v + start[p], fill[p], sizeof *v, mon_cmp_child, m);
		m->node[p].child = v[start[p]];
		for (i = 0; i + 1 < fill[p]; i++)
			m->node[v[start[p] + i]].sib = v[start[p] + i + 1];
		m->node[v[start[p] + fill[p] - 1]].sib = UINT32_MAX;
	}
	free(v);
	free(start);
	free(fill);
}

/*
 * One walk over the tree: functions and edges, each activation's time
 * counted in self+children only where it is the outermost of its kind.
 * Visit is called for each node in depth-first order with its depth.
 */
static void
mon_derive(struct mon *m, void (*visit)(struct mon *, uint32_t, void *),
    void *arg)
{
	uint32_t	 *st, *es, d = 0, i, caller, ei;
	struct mon_node	 *n;
	struct mon_fn	 *f;
	struct mon_edge	 *e;

	if (m->nnode <= 1)
		return;
	st = calloc(m->nnode + 1, sizeof *st);
	es = calloc(m->nnode + 1, sizeof *es);
	if (st == NULL || es == NULL)
		exit(127);
	i = m->node[0].child;
	while (i != UINT32_MAX) {
		n = &m->node[i];
		f = &m->fn[n->func];
		caller = n->parent == 0 ? PVT_NOFUNC : m->node[n->parent].func;
		ei = mon_edge_get(m, caller, n->func);
		e = &m->edge[ei];
		n = &m->node[i];
		if (visit == NULL) {
			f->paths++;
			f->calls += n->calls;
			f->self += n->self;
			f->scpu += n->scpu;
			f->eself += n->eself;
			if (f->active == 0) {
				f->total += n->total;
				f->tcpu += n->tcpu;
				f->etotal += n->etotal;
			}
			e->calls += n->calls;
			if (e->active == 0) {
				e->total += n->total;
				e->tcpu += n->tcpu;
				e->etotal += n->etotal;
			}
		} else
			visit(m, i, arg);
		f->active++;
		e->active++;
		st[d] = i;
		es[d++] = ei;
		/* Next: first child, else the next sibling up the path. */
		if (n->child != UINT32_MAX) {
			i = n->child;
			continue;
		}
		for (;;) {
			if (d == 0) {
				i = UINT32_MAX;
				break;
			}
			i = st[--d];
			m->fn[m->node[i].func].active--;
			m->edge[es[d]].active--;
			if ((i = m->node[i].sib) != UINT32_MAX)
				break;
		}
	}
	free(st);
	free(es);
}

/*
 * Times are printed as measured, overhead subtracted, even below zero
 * (a function that did less than the overhead's uncertainty): so that
 * self plus the children's self+children is exactly self+children.
 */
static void
mon_put_time(FILE *f, int64_t v, int cpu_ok)
{
	if (!cpu_ok)
		fprintf(f, " %15s", "-");
	else
		fprintf(f, " %15" PRId64, v);
}

static void
mon_put_err(FILE *f, double v)
{
	fprintf(f, " %11.0f", v);
}

/*
 * [paths] is written as a tree, each path its parent's number (its place
 * in the section, from 0) and one function: a path written out in full
 * made the file grow with the square of the recursion's depth (10,000
 * levels were half a GB).  The walk is depth first, so a parent is
 * always numbered before its children.
 */
struct mon_pathw {
	FILE		*f;
	uint32_t	*id;		/* by node: its number in [paths] */
	uint32_t	 next;
	int		 cpu_ok;
};

static void
mon_path_visit(struct mon *m, uint32_t i, void *arg)
{
	struct mon_pathw	*w = arg;
	struct mon_node		*n = &m->node[i];

	w->id[i] = w->next++;
	fprintf(w->f, "%11" PRIu64, n->calls);
	mon_put_time(w->f, n->self, 1);
	mon_put_time(w->f, n->total, 1);
	mon_put_time(w->f, n->scpu, w->cpu_ok);
	mon_put_time(w->f, n->tcpu, w->cpu_ok);
	mon_put_err(w->f, n->eself);
	mon_put_err(w->f, n->etotal);
	if (n->parent == 0)
		fputs(" -", w->f);
	else
		fprintf(w->f, " %" PRIu32, w->id[n->parent]);
	fprintf(w->f, " %s\n", m->fn[n->func].key);
}

static int
mon_cmp_fn(const void *a, const void *b, void *arg)
{
	const struct mon	*m = arg;
	const struct mon_fn	*x = &m->fn[*(const uint32_t *)a];
	const struct mon_fn	*y = &m->fn[*(const uint32_t *)b];

	if (x->self != y->self)
		return (x->self > y->self ? -1 : 1);
	return (strcmp(x->key, y->key));
}

static int
mon_cmp_edge(const void *a, const void *b, void *arg)
{
	const struct mon	*m = arg;
	const struct mon_edge	*x = &m->edge[*(const uint32_t *)a];
	const struct mon_edge	*y = &m->edge[*(const uint32_t *)b];
	int			 c;

	if (x->total != y->total)
		return (x->total > y->total ? -1 : 1);
	if (x->caller != y->caller) {
		if (x->caller == PVT_NOFUNC || y->caller == PVT_NOFUNC)
			return (x->caller == PVT_NOFUNC ? -1 : 1);
		if ((c = strcmp(m->fn[x->caller].key,
		    m->fn[y->caller].key)) != 0)
			return (c);
	}
	return (strcmp(m->fn[x->callee].key, m->fn[y->callee].key));
}

static void
mon_put_samp(FILE *f, const char *what, const uint64_t *v)
{
	fprintf(f, "%s %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n",
	    what, v[PVT_SA_CPU_N], v[PVT_SA_CPU_NS], v[PVT_SA_REAL_N],
	    v[PVT_SA_REAL_NS]);
}

static int
mon_has_samp(const struct mon_node *n)
{
	return (n->samp[PVT_SA_CPU_N] != 0 || n->samp[PVT_SA_REAL_N] != 0);
}

/*
 * [samples]: the sampler's counts of each path that has any, by its
 * number in [paths], in that order (id maps a node to its number).
 */
static void
mon_put_samples(FILE *f, struct mon *m, const uint32_t *id)
{
	uint32_t	*by;
	size_t		 i, n = 0;

	if ((by = calloc(m->nnode, sizeof *by)) == NULL)
		exit(127);
	for (i = 1; i < m->nnode; i++) {
		by[id[i]] = (uint32_t)i;
		n += mon_has_samp(&m->node[i]);
	}
	fprintf(f, "\n[samples] %zu\n", n);
	fprintf(f, "#%10s %11s %15s %11s %15s\n", "path", "cpu_samples",
	    "cpu_ns", "real_samples", "real_ns");
	for (i = 0; i + 1 < m->nnode; i++) {
		const uint64_t *v = m->node[by[i]].samp;

		if (!mon_has_samp(&m->node[by[i]]))
			continue;
		fprintf(f, "%11zu %11" PRIu64 " %15" PRIu64 " %11" PRIu64
		    " %15" PRIu64 "\n", i, v[PVT_SA_CPU_N], v[PVT_SA_CPU_NS],
		    v[PVT_SA_REAL_N], v[PVT_SA_REAL_NS]);
	}
	free(by);
}

static double
mon_ns(struct pvt_shm *shm, int64_t v)
{
	return (v * 1e9 / shm->tsc_hz);
}

/* Read an old .mon's runs and paths into m (for -a). */
static int mon_read_old(struct mon *, const char *, const struct pvt_plan *,
    char **);

/*
 * Why a planned function went uncounted, or NULL: the plan's reason, or
 * what the agents found (the first process's word for a GOT slot; one
 * patched anywhere counts).
 */
static const char *
mon_left_out(const struct pvt_func *fn, uint8_t state)
{
	if (fn->how == PVT_OUT)
		return ("");
	switch (state) {
	case PVT_FS_UNREACH:
		return (fn->how == PVT_PLT ? "its GOT slot is not in a"
		    " writable segment" : "no trampoline within reach of a"
		    " 32-bit displacement");
	case PVT_FS_AGENT:
		return ("bound to the agent, which stands in for it: its"
		    " calls are not counted");
	case PVT_FS_TRACED:
		return ("bound to the code of a traced module: counted at"
		    " that function's entry");
	case PVT_FS_UNBOUND:
		return ("its GOT slot was not bound when the agent started"
		    " (a weak symbol, or LD_BIND_NOW undone)");
	}
	return (NULL);
}

int
pvt_mon_write(struct pvt_shm *shm, const struct pvt_plan *p,
    const struct pvt_run *run, const char *path, char **cause)
{
	struct mon		 m;
	struct mon_pathw	 w;
	const struct pvt_module	*mod;
	const uint8_t		*fstate;
	FILE			*f;
	uint32_t		*order;
	size_t			 i, nfn = 0, nout = 0;
	const char		*why;
	struct outfile		 o;
	char			 when[64];
	const char		*state;
	time_t			 now = time(NULL);
	int			 cpu_ok = shm->cpu_errno == 0, rv = -1;

	memset(&m, 0, sizeof m);
	m.ns_per_tsc = 1e9 / shm->tsc_hz;
	mon_plan_fns(&m, p);
	for (i = 0; i < p->nfn; i++) {
		/* As agent_tramp() decides. */
		if ((p->fn[i].flags & PVT_F_LEAF) && shm->samp_hz != 0)
			m.fn[i].how = MON_HOW_LEAF;
	}
	mon_child(&m, UINT32_MAX, PVT_NOFUNC);	/* node 0: the root */
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	if (run->accumulate && mon_read_old(&m, path, p, cause) != 0)
		goto out;
	mon_merge_shm(&m, shm, run);
	mon_errors(&m, shm);
	for (i = 0; i < PVT_ST_COUNT; i++)
		m.stat[i] += shm->stat[i];
	m.runs++;
	m.real_ns += run->real_ns;
	mon_link(&m);
	mon_derive(&m, NULL, NULL);

	if ((f = pvt_create(&o, path, cause)) == NULL)
		goto out;
	fprintf(f, "pvtrace-mon %d\n", PVT_MON_VERSION);
	fputs("# pvtrace(1)'s p2 profile: calls, time in self and in"
	    " self+children\n# (real and CPU, ns); layout in"
	    " profview-formats(5), MON FILES.\n", f);
	fputs("program ", f);
	monname_put(f, p->str + p->mod[0].path);
	fputs("\nbuild_id ", f);
	if (p->mod[0].build_id_len == 0)
		fputc('-', f);
	for (i = 0; i < p->mod[0].build_id_len; i++)
		fprintf(f, "%02x", p->mod[0].build_id[i]);
	fputs("\ncommand", f);
	for (i = 0; run->argv[i] != NULL; i++) {
		fputc(' ', f);
		monname_put(f, run->argv[i]);
	}
	fprintf(f, "\nfirst_run %s\nlast_run %s\n", m.first != NULL ?
	    m.first : when, when);
	fprintf(f, "runs %" PRIu64 "\nreal_ns %" PRIu64 "\n", m.runs,
	    m.real_ns);
	if (WIFSIGNALED(run->status))
		fprintf(f, "status signal %d\n", WTERMSIG(run->status));
	else
		fprintf(f, "status exit %d\n", WEXITSTATUS(run->status));
	if (shm->clock_mono)
		fputs("clock monotonic 1000000000\n", f);
	else
		fprintf(f, "clock tsc %.0f\n", shm->tsc_hz);
	if (cpu_ok)
		fputs("cpu perf-task-clock\n", f);
	else
		fprintf(f, "cpu unavailable %s\n", strerror(shm->cpu_errno));
	for (i = 0; i < 2; i++)
		fprintf(f, "overhead %s %.1f %.1f %.1f %.1f %u\n", mon_how[i],
		    mon_ns(shm, shm->cal_a[i]), mon_ns(shm, shm->cal_b[i]),
		    mon_ns(shm, shm->cal_lo[i]), mon_ns(shm, shm->cal_hi[i]),
		    i == 0 ? shm->cal_calls : shm->cal_traps);
	for (i = 0; i < PVT_ST_COUNT; i++)
		fprintf(f, "stat %s %" PRIu64 "\n", mon_stat_name[i],
		    m.stat[i]);
	for (i = 0; i < PVT_SA_COUNT; i++)
		m.probe[i] += shm->probe[i];
	fprintf(f, "sample_rate %" PRIu32 "\n", shm->samp_hz);
	mon_put_samp(f, "samples probe", m.probe);
	mon_put_samp(f, "samples outside", m.node[0].samp);
	for (i = 0; i < p->nmod; i++) {
		mod = &p->mod[i];
		switch (shm->mod_state[i]) {
		case PVT_MOD_PATCHED:
			state = "patched";
			break;
		case PVT_MOD_MISMATCH:
			state = "mismatch";
			break;
		case PVT_MOD_FAILED:
			state = "failed";
			break;
		default:
			state = "not-loaded";
		}
		fputs("module ", f);
		monname_put(f, p->str + mod->name);
		fprintf(f, " %s ", state);
		monname_put(f, p->str + mod->path);
		fputc('\n', f);
	}
	if (shm->error_set) {
		fputs("error ", f);
		for (i = 0; shm->error[i] != '\0' && i < sizeof shm->error;
		    i++)
			fputc(shm->error[i] == '\n' ? ' ' : shm->error[i], f);
		fputc('\n', f);
	}

	if ((order = calloc(m.nfn + m.nedge + 1, sizeof *order)) == NULL)
		exit(127);
	for (i = 0; i < m.nfn; i++) {
		if (m.fn[i].paths != 0)
			order[nfn++] = (uint32_t)i;
	}
	qsort_r(order, nfn, sizeof *order, mon_cmp_fn, &m);
	fprintf(f, "\n[functions] %zu\n", nfn);
	fprintf(f, "#%10s %15s %15s %15s %15s %11s %11s %-4s %s\n", "calls",
	    "self_ns", "total_ns", "self_cpu_ns", "total_cpu_ns", "self_err",
	    "total_err", "how", "module addr size function");
	for (i = 0; i < nfn; i++) {
		struct mon_fn *fn = &m.fn[order[i]];

		fprintf(f, "%11" PRIu64, fn->calls);
		mon_put_time(f, fn->self, 1);
		mon_put_time(f, fn->total, 1);
		mon_put_time(f, fn->scpu, cpu_ok);
		mon_put_time(f, fn->tcpu, cpu_ok);
		mon_put_err(f, fn->eself);
		mon_put_err(f, fn->etotal);
		fprintf(f, " %-4s ", mon_how[fn->how]);
		monname_put(f, fn->module);
		fprintf(f, " 0x%" PRIx64 " %" PRIu64 " %s\n", fn->addr,
		    fn->size, fn->key);
	}
	for (i = 0; i < m.nedge; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, m.nedge, sizeof *order, mon_cmp_edge, &m);
	fprintf(f, "\n[calls] %zu\n", m.nedge);
	fprintf(f, "#%10s %15s %15s %11s %s\n", "calls", "total_ns",
	    "total_cpu_ns", "total_err", "caller callee");
	for (i = 0; i < m.nedge; i++) {
		struct mon_edge *e = &m.edge[order[i]];

		fprintf(f, "%11" PRIu64, e->calls);
		mon_put_time(f, e->total, 1);
		mon_put_time(f, e->tcpu, cpu_ok);
		mon_put_err(f, e->etotal);
		fprintf(f, " %s %s\n", e->caller == PVT_NOFUNC ? "-" :
		    m.fn[e->caller].key, m.fn[e->callee].key);
	}
	free(order);

	fprintf(f, "\n[paths] %zu\n", m.nnode - 1);
	fprintf(f, "#%10s %15s %15s %15s %15s %11s %11s %s\n", "calls",
	    "self_ns", "total_ns", "self_cpu_ns", "total_cpu_ns", "self_err",
	    "total_err", "parent function");
	memset(&w, 0, sizeof w);
	w.f = f;
	w.cpu_ok = cpu_ok;
	if ((w.id = calloc(m.nnode, sizeof *w.id)) == NULL)
		exit(127);
	mon_derive(&m, mon_path_visit, &w);
	mon_put_samples(f, &m, w.id);
	free(w.id);

	fstate = (const uint8_t *)((char *)shm + shm->fn_state_off);
	for (i = 0; i < p->nfn; i++)
		nout += mon_left_out(&p->fn[i], fstate[i]) != NULL;
	fprintf(f, "\n[left out] %zu\n", nout);
	fputs("# module addr size function reason\n", f);
	for (i = 0; i < p->nfn; i++) {
		if ((why = mon_left_out(&p->fn[i], fstate[i])) == NULL)
			continue;
		monname_put(f, p->str + p->mod[p->fn[i].module].name);
		fprintf(f, " 0x%" PRIx64 " %" PRIu64 " %s %s\n",
		    p->fn[i].addr, p->fn[i].size, m.fn[i].key,
		    p->fn[i].how == PVT_OUT ? p->str + p->fn[i].reason : why);
	}
	fputs("\n[end]\n", f);
	if (pvt_commit(f, &o, path, cause) != 0)
		goto out;
	rv = 0;
out:
	for (i = 0; i < m.nfn; i++) {
		free(m.fn[i].name);
		free(m.fn[i].module);
		free(m.fn[i].key);
	}
	free(m.fn);
	free(m.fnkey.v);
	free(m.node);
	free(m.nodekey.v);
	free(m.edge);
	free(m.edgekey.v);
	free(m.first);
	return (rv);
}

/*
 * The old file, for -a: the same program (path and build-id), its runs,
 * time and statistics, and its call paths (everything else is derived
 * from those).  A function the plan no longer has is taken from the old
 * [functions] section.
 */
static int __attribute__((format(printf, 4, 5)))
mon_bad(char **cause, const char *path, size_t line, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	if (asprintf(cause, "-a: %s: line %zu: %s", path, line,
	    msg != NULL ? msg : "?") < 0)
		*cause = NULL;
	free(msg);
	return (-1);
}

static int
mon_num(const char *s, int64_t *v, int sign)
{
	char	*end;

	if (strcmp(s, "-") == 0) {
		*v = 0;
		return (0);
	}
	errno = 0;
	*v = strtoll(s, &end, 10);
	return (errno != 0 || *end != '\0' || end == s || (!sign && *v < 0) ?
	    -1 : 0);
}

static void
mon_samp_add(uint64_t *to, const int64_t *x)
{
	size_t	i;

	for (i = 0; i < PVT_SA_COUNT; i++)
		to[i] += (uint64_t)x[i];
}

static int
mon_read_old(struct mon *m, const char *path, const struct pvt_plan *p,
    char **cause)
{
	FILE		*f;
	char		*line = NULL, *v[14], *s, *key, *save;
	size_t		 cap = 0, ln = 0, n, i;
	ssize_t		 len;
	int		 sect = 0, rv = -1, version = 0;
	int64_t		 x[5], up;
	double		 e[2];
	uint32_t	 node, fi, *pnode = NULL;
	size_t		 npath = 0, cappath = 0;
	char		 bid[80];
	struct stat	 st;
	int		 fd;

	/*
	 * A FIFO or device named with -o holds no profile to add to (and
	 * reading a FIFO would wait for a writer that never comes): the run
	 * is written to it alone, as a first run is.
	 */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1 &&
	    errno == ENOENT)
		return (0);	/* the first run */
	if (fd != -1 && fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		close(fd);
		return (0);
	}
	if (fd == -1 || (f = fdopen(fd, "r")) == NULL) {
		if (asprintf(cause, "-a: %s: %s", path, strerror(errno)) < 0)
			*cause = NULL;
		if (fd != -1)
			close(fd);
		return (-1);
	}
	bid[0] = '\0';
	for (i = 0; i < p->mod[0].build_id_len; i++)
		sprintf(bid + 2 * i, "%02x", p->mod[0].build_id[i]);
	while ((len = getline(&line, &cap, f)) >= 0) {
		ln++;
		if (len > 0 && line[len - 1] == '\n')
			line[--len] = '\0';
		if (ln == 1) {
			if (strcmp(line, "pvtrace-mon 1") == 0)
				version = 1;
			else if (strcmp(line, "pvtrace-mon 2") == 0)
				version = 2;
			else if (strcmp(line, "pvtrace-mon 3") == 0)
				version = 3;
			else {
				mon_bad(cause, path, ln, "not a pvtrace .mon"
				    " file of version 1 to 3");
				goto out;
			}
		}
		if (line[0] == '#' || line[0] == '\0' || ln == 1)
			continue;
		if (line[0] == '[') {
			sect = strncmp(line, "[functions]", 11) == 0 ? 1 :
			    strncmp(line, "[paths]", 7) == 0 ? 2 :
			    strncmp(line, "[samples]", 9) == 0 ? 4 : 3;
			continue;
		}
		for (n = 0, s = strtok_r(line, " ", &save); s != NULL &&
		    n < 14; s = strtok_r(NULL, " ", &save))
			v[n++] = s;
		if (n == 0)
			continue;
		if (sect == 0) {
			if (strcmp(v[0], "program") == 0 && n == 2) {
				s = mon_esc(p->str + p->mod[0].path);
				if (strcmp(s, v[1]) != 0) {
					free(s);
					mon_bad(cause, path, ln, "is a profile"
					    " of another program");
					goto out;
				}
				free(s);
			} else if (strcmp(v[0], "build_id") == 0 && n == 2 &&
			    strcmp(v[1], bid[0] != '\0' ? bid : "-") != 0) {
				mon_bad(cause, path, ln, "the program changed"
				    " since (build-id); remove the file or"
				    " write another with -o");
				goto out;
			} else if (strcmp(v[0], "runs") == 0 && n == 2) {
				if (mon_num(v[1], &x[0], 0) != 0)
					goto bad;
				m->runs = (uint64_t)x[0];
			} else if (strcmp(v[0], "real_ns") == 0 && n == 2) {
				if (mon_num(v[1], &x[0], 0) != 0)
					goto bad;
				m->real_ns = (uint64_t)x[0];
			} else if (strcmp(v[0], "samples") == 0 && n == 6) {
				for (i = 0; i < PVT_SA_COUNT; i++) {
					if (mon_num(v[2 + i], &x[i], 0) != 0)
						goto bad;
				}
				if (strcmp(v[1], "probe") == 0)
					mon_samp_add(m->probe, x);
				else if (strcmp(v[1], "outside") == 0)
					mon_samp_add(m->node[0].samp, x);
			} else if (strcmp(v[0], "first_run") == 0 && n == 2) {
				free(m->first);
				m->first = strdup(v[1]);
			} else if (strcmp(v[0], "stat") == 0 && n == 3) {
				for (i = 0; i < PVT_ST_COUNT; i++) {
					if (strcmp(v[1], mon_stat_name[i]) != 0)
						continue;
					if (mon_num(v[2], &x[0], 0) != 0)
						goto bad;
					m->stat[i] = (uint64_t)x[0];
				}
			}
		} else if (sect == 1) {
			/*
			 * calls self total scpu tcpu eself etotal how module
			 * addr size key
			 */
			if (n != 12)
				goto bad;
			if (mon_fn_find(m, v[11], &fi)) {
				/* A leaf in any run: its trap times are part. */
				if (strcmp(v[7], "leaf") == 0 &&
				    m->fn[fi].how == PVT_JUMP)
					m->fn[fi].how = MON_HOW_LEAF;
				continue;
			}
			m->fn = pvt_grow(m->fn, &m->capfn, m->nfn,
			    sizeof *m->fn);
			memset(&m->fn[m->nfn], 0, sizeof m->fn[0]);
			m->fn[m->nfn].key = strdup(v[11]);
			m->fn[m->nfn].name = strdup(v[11]);
			m->fn[m->nfn].module = pvt_name_get(v[8],
			    strlen(v[8]));
			if (m->fn[m->nfn].module == NULL)
				goto bad;
			m->fn[m->nfn].addr = strtoull(v[9], NULL, 16);
			m->fn[m->nfn].size = strtoull(v[10], NULL, 10);
			m->fn[m->nfn].how = strcmp(v[7], "trap") == 0 ?
			    PVT_TRAP : strcmp(v[7], "plt") == 0 ? PVT_PLT :
			    strcmp(v[7], "leaf") == 0 ? MON_HOW_LEAF :
			    PVT_JUMP;
			mon_fn_index(m, (uint32_t)m->nfn++);
		} else if (sect == 2) {
			if (n != (version == 1 ? 8 : 9))
				goto bad;
			for (i = 0; i < 5; i++) {
				if (mon_num(v[i], &x[i], i > 0) != 0)
					goto bad;
			}
			if (sscanf(v[5], "%lf", &e[0]) != 1 ||
			    sscanf(v[6], "%lf", &e[1]) != 1)
				goto bad;
			node = 0;
			if (version == 1) {
				/* The path in full, from the outermost. */
				for (key = strtok_r(v[7], ";", &save);
				    key != NULL;
				    key = strtok_r(NULL, ";", &save)) {
					if (!mon_fn_find(m, key, &fi)) {
						mon_bad(cause, path, ln,
						    "function %s is in no"
						    " [functions] line", key);
						goto out;
					}
					node = mon_child(m, node, fi);
				}
			} else {
				/* Its parent's number, above it, or '-'. */
				if (strcmp(v[7], "-") != 0) {
					if (mon_num(v[7], &up, 0) != 0 ||
					    (uint64_t)up >= npath) {
						mon_bad(cause, path, ln,
						    "parent %s is not a path"
						    " above it", v[7]);
						goto out;
					}
					node = pnode[up];
				}
				if (!mon_fn_find(m, v[8], &fi)) {
					mon_bad(cause, path, ln, "function %s"
					    " is in no [functions] line", v[8]);
					goto out;
				}
				node = mon_child(m, node, fi);
				pnode = pvt_grow(pnode, &cappath, npath,
				    sizeof *pnode);
				pnode[npath++] = node;
			}
			if (node == 0)
				goto bad;
			m->node[node].calls += (uint64_t)x[0];
			m->node[node].self += x[1];
			m->node[node].total += x[2];
			m->node[node].scpu += x[3];
			m->node[node].tcpu += x[4];
			m->node[node].eself += e[0];
			m->node[node].etotal += e[1];
		} else if (sect == 4) {
			/* path cpu_samples cpu_ns real_samples real_ns */
			if (n != 5 || mon_num(v[0], &up, 0) != 0 ||
			    (uint64_t)up >= npath)
				goto bad;
			for (i = 0; i < PVT_SA_COUNT; i++) {
				if (mon_num(v[1 + i], &x[i], 0) != 0)
					goto bad;
			}
			mon_samp_add(m->node[pnode[up]].samp, x);
		}
	}
	rv = 0;
	goto out;
bad:
	mon_bad(cause, path, ln, "malformed line");
out:
	free(pnode);
	free(line);
	fclose(f);
	return (rv);
}
