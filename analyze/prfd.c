/*
 * A Dos32Profile dump (the prfd kind's model): the header and global
 * counters, the threads, the slots with their shares, the hit table and
 * the symbols, and two analyses of them.  The exact flat profile: each
 * address of the hit table goes to the symbol holding it, else to its
 * slot's bytes outside symbols, else to no slot; no estimate, the table
 * names every sample it kept.  A slot's histogram: its detail counters
 * as analyze/hist.c's raw buckets, with its symbols and its part of the
 * hit table, so that the histogram view and report serve them.
 *
 * The modules samples fell in outside the slots (dump version 2) join
 * the flat profile: each sample address to the symbol holding it, else
 * to its module's bytes outside symbols.  The kernel's are the kernel
 * counter's samples named, not more samples.  They stay in the model by
 * address, as the hit table does, for pprof's locations.
 *
 * Shares are of the run time, as perf shows them: every sample taken
 * while the process ran, all but idle.  With all set they are of every
 * period of the dump: the global counters (idle, vm86, kernel, shrmem,
 * unknown) plus the slots' and the modules' counts, as OS/2's profile
 * tools printed them.
 */
#include <stdlib.h>
#include <string.h>

#include "bsearch.h"
#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/hist.h"
#include "analyze/prfd.h"
#include "store/prfd.h"

static int
prfd_sym_cmp(const void *a, const void *b)
{
	const struct analyze_sym	*x = a, *y = b;

	if (x->addr != y->addr)
		return (x->addr < y->addr ? -1 : 1);
	return (0);
}

static int
prfd_flat_cmp(const void *a, const void *b)
{
	const struct analyze_prfd_flat	*x = a, *y = b;

	if (x->hits != y->hits)
		return (x->hits > y->hits ? -1 : 1);
	if (x->addr != y->addr)
		return (x->addr < y->addr ? -1 : 1);
	return (x->slot < y->slot ? -1 : x->slot > y->slot);
}

/*
 * The slot holding addr, or SIZE_MAX: the one starting nearest below it,
 * by a binary search of the slots by address (a hit table of millions
 * against thousands of slots).  Where slots overlap (the reader warns),
 * one that starts later and ends before addr hides one that holds it.
 */
size_t
analyze_prfd_slot_at(const struct analyze_prfd *m, uint64_t addr)
{
	size_t	i, k;

	BSEARCH_FIRST(i, 0, m->nslots, m->slots[m->by_addr[i]].vaddr <= addr);
	if (i == 0)
		return (SIZE_MAX);
	k = m->by_addr[i - 1];
	return (addr - m->slots[k].vaddr < m->slots[k].size ? k : SIZE_MAX);
}

static int
prfd_slot_cmp(const void *a, const void *b, void *arg)
{
	const struct analyze_prfd	*m = arg;
	uint64_t			 x, y;

	x = m->slots[*(const size_t *)a].vaddr;
	y = m->slots[*(const size_t *)b].vaddr;
	return (x < y ? -1 : x > y);
}

/* The symbol holding addr (the last starting at or below it), or SIZE_MAX. */
size_t
analyze_prfd_sym_at(const struct analyze_prfd *m, uint64_t addr)
{
	size_t	lo, k;

	BSEARCH_FIRST(lo, 0, m->nsyms, m->syms[lo].addr <= addr);
	/* Symbols may nest (aliases): the nearest that holds it. */
	for (k = lo; k > 0; k--) {
		if (addr - m->syms[k - 1].addr < (m->syms[k - 1].size != 0 ?
		    m->syms[k - 1].size : 1))
			return (k - 1);
		if (lo - k > 16)
			break;
	}
	return (SIZE_MAX);
}

/* A flat row for key, made the first time. */
static struct analyze_prfd_flat *
prfd_row(struct analyze_prfd *m, size_t *row, size_t key, size_t k,
    size_t slot, size_t mod)
{
	struct analyze_prfd_flat	*f;

	if (row[key] == SIZE_MAX) {
		row[key] = m->nflat++;
		f = &m->flat[row[key]];
		f->sym = k;
		f->slot = slot;
		f->mod = mod;
		f->hits = 0;
		f->addr = k != SIZE_MAX ? m->syms[k].addr : slot != SIZE_MAX ?
		    m->slots[slot].vaddr : mod != SIZE_MAX ? m->mods[mod].lo :
		    0;
	}
	return (&m->flat[row[key]]);
}

/*
 * The exact flat profile: a row a symbol with hits, a slot's rest, a
 * module's rest, none.
 */
static void
prfd_flat(struct analyze_prfd *m)
{
	size_t	*row, i, k, slot, key, n, mod;

	n = m->nsyms + m->nslots + m->nmods + 1;
	row = xreallocarray(NULL, n, sizeof *row);
	for (i = 0; i < n; i++)
		row[i] = SIZE_MAX;
	m->flat = xreallocarray(NULL, n, sizeof *m->flat);
	m->nflat = 0;
	for (i = 0; i < m->nhit; i++) {
		k = analyze_prfd_sym_at(m, m->hit_addr[i]);
		slot = analyze_prfd_slot_at(m, m->hit_addr[i]);
		key = k != SIZE_MAX ? k : slot != SIZE_MAX ? m->nsyms + slot :
		    n - 1;
		prfd_row(m, row, key, k, slot, SIZE_MAX)->hits += m->hit_n[i];
	}
	for (i = 0; i < m->nmh; i++) {
		mod = analyze_prfd_mh_module(m, i);
		k = analyze_prfd_sym_at(m, m->mh_addr[i]);
		key = k != SIZE_MAX ? k : mod != SIZE_MAX ? m->nsyms +
		    m->nslots + mod : n - 1;
		prfd_row(m, row, key, k, SIZE_MAX, mod)->hits += m->mh_n[i];
		m->flat_total += m->mh_n[i];
		if (mod != SIZE_MAX && m->mods[mod].kernel)
			m->kernel_named += m->mh_n[i];
	}
	free(row);
	qsort(m->flat, m->nflat, sizeof *m->flat, prfd_flat_cmp);
}

static int
prfd_load_slots(struct store *st, struct analyze_prfd *m)
{
	struct store_cursor	*c;
	struct store_prfd_slot	 s;
	size_t			 cap = 0;
	int			 rc;

	if ((c = store_prfd_slots(st, m->session)) == NULL)
		return (-1);
	while ((rc = store_prfd_slot_next(c, &s)) == 1) {
		if (m->nslots == cap) {
			cap = cap != 0 ? cap * 2 : 16;
			m->slots = xreallocarray(m->slots, cap,
			    sizeof *m->slots);
		}
		m->slots[m->nslots++] = s;
		m->slots_total += s.cnt;
	}
	store_cursor_close(c);
	return (rc < 0 ? -1 : 0);
}

static int
prfd_load_mods(struct store *st, struct analyze_prfd *m)
{
	struct store_cursor		*c;
	struct store_prfd_module	 md;
	size_t				 cap = 0;
	int				 rc;

	if ((c = store_prfd_modules(st, m->session)) == NULL)
		return (-1);
	while ((rc = store_prfd_module_next(c, &md)) == 1) {
		if (m->nmods == cap) {
			cap = cap != 0 ? cap * 2 : 16;
			m->mods = xreallocarray(m->mods, cap, sizeof *m->mods);
		}
		m->mods[m->nmods++] = md;
		if (!md.kernel)
			m->mods_total += md.samples;
		if (md.unresolved != NULL)
			m->unresolved++;
	}
	store_cursor_close(c);
	return (rc < 0 ? -1 : 0);
}

static int
prfd_load_threads(struct store *st, struct analyze_prfd *m)
{
	struct store_cursor		*c;
	struct store_prfd_thread	 t;
	int				 rc;

	if ((c = store_prfd_threads(st, m->session)) == NULL)
		return (-1);
	while ((rc = store_prfd_thread_next(c, &t)) == 1) {
		m->threads = xreallocarray(m->threads, m->nthreads + 1,
		    sizeof *m->threads);
		m->threads[m->nthreads++] = t;
	}
	store_cursor_close(c);
	return (rc < 0 ? -1 : 0);
}

static int
prfd_load_hits(struct store *st, struct analyze_prfd *m)
{
	struct store_cursor	*c;
	uint64_t		 a, n;
	size_t			 cap = 0;
	int			 rc;

	if ((c = store_prfd_hits(st, m->session)) == NULL)
		return (-1);
	while ((rc = store_prfd_hit_next(c, &a, &n)) == 1) {
		if (m->nhit == cap) {
			cap = cap != 0 ? cap * 2 : 256;
			m->hit_addr = xreallocarray(m->hit_addr, cap,
			    sizeof *m->hit_addr);
			m->hit_n = xreallocarray(m->hit_n, cap,
			    sizeof *m->hit_n);
		}
		m->hit_addr[m->nhit] = a;
		m->hit_n[m->nhit++] = n;
		m->hit_total += n;
	}
	store_cursor_close(c);
	return (rc < 0 ? -1 : 0);
}

/* Hit addresses by address as unsigned numbers (the store's are signed). */
static int
prfd_u64_pair_sorted(const struct analyze_prfd *m)
{
	size_t	i;

	for (i = 1; i < m->nhit; i++) {
		if (m->hit_addr[i - 1] > m->hit_addr[i])
			return (0);
	}
	return (1);
}

static void
prfd_sort_hits(struct analyze_prfd *m)
{
	size_t		i, j;
	uint64_t	a, n;

	/* Only addresses at or above 2^63 (a kernel's) come out of order. */
	if (prfd_u64_pair_sorted(m))
		return;
	for (i = 1; i < m->nhit; i++) {
		a = m->hit_addr[i];
		n = m->hit_n[i];
		for (j = i; j > 0 && m->hit_addr[j - 1] > a; j--) {
			m->hit_addr[j] = m->hit_addr[j - 1];
			m->hit_n[j] = m->hit_n[j - 1];
		}
		m->hit_addr[j] = a;
		m->hit_n[j] = n;
	}
}

/*
 * The header, the threads and the slots of session id: what the slots
 * view's first frame needs.  The hit table and the symbols, which may be
 * millions of rows, come with analyze_prfd_table.
 */
int
analyze_prfd_load_head(struct store *st, int64_t id, struct analyze_prfd *m,
    char **cause)
{
	size_t	i;

	memset(m, 0, sizeof *m);
	m->session = id;
	if (store_prfd_get(st, id, &m->d) != 0) {
		*cause = xasprintf("session %lld has no Dos32Profile dump",
		    (long long)id);
		return (-1);
	}
	if (prfd_load_slots(st, m) != 0 || prfd_load_threads(st, m) != 0 ||
	    prfd_load_mods(st, m) != 0) {
		*cause = xasprintf("session %lld: %s", (long long)id,
		    store_error(st));
		analyze_prfd_free(m);
		return (-1);
	}
	m->by_addr = xcalloc(m->nslots + 1, sizeof *m->by_addr);
	for (i = 0; i < m->nslots; i++)
		m->by_addr[i] = i;
	qsort_r(m->by_addr, m->nslots, sizeof *m->by_addr, prfd_slot_cmp, m);
	m->counters = m->d.idle + m->d.vm86 + m->d.kernel + m->d.shrmem +
	    m->d.unknown;
	m->total = m->counters + m->slots_total + m->mods_total;
	m->run = m->total - m->d.idle;
	return (0);
}

/* The modules' samples, by module and address. */
static int
prfd_load_mod_hits(struct store *st, struct analyze_prfd *m)
{
	struct store_cursor	*c;
	int64_t			 k;
	uint64_t		 a, h;
	size_t			 cap = 0;
	int			 rc;

	if ((c = store_prfd_module_hits(st, m->session)) == NULL)
		return (-1);
	while ((rc = store_prfd_module_hit_next(c, &k, &a, &h)) == 1) {
		if (m->nmh == cap) {
			cap = cap != 0 ? cap * 2 : 256;
			m->mh_mod = xreallocarray(m->mh_mod, cap,
			    sizeof *m->mh_mod);
			m->mh_addr = xreallocarray(m->mh_addr, cap,
			    sizeof *m->mh_addr);
			m->mh_n = xreallocarray(m->mh_n, cap, sizeof *m->mh_n);
		}
		m->mh_mod[m->nmh] = k;
		m->mh_addr[m->nmh] = a;
		m->mh_n[m->nmh++] = h;
	}
	store_cursor_close(c);
	return (rc < 0 ? -1 : 0);
}

/* The module of the modules' sample i, or SIZE_MAX: in none loaded. */
size_t
analyze_prfd_mh_module(const struct analyze_prfd *m, size_t i)
{
	return (m->mh_mod[i] >= 0 && (size_t)m->mh_mod[i] < m->nmods ?
	    (size_t)m->mh_mod[i] : SIZE_MAX);
}

/* The hit table, the symbols and the exact flat profile, once. */
int
analyze_prfd_table(struct store *st, struct analyze_prfd *m, char **cause)
{
	if (m->table)
		return (0);
	if (prfd_load_hits(st, m) != 0 || prfd_load_mod_hits(st, m) != 0 ||
	    analyze_syms_load(st, m->session, &m->syms, &m->nsyms) != 0) {
		*cause = xasprintf("session %lld: %s", (long long)m->session,
		    store_error(st));
		free(m->mh_mod);
		free(m->mh_addr);
		free(m->mh_n);
		m->mh_mod = NULL;
		m->mh_addr = m->mh_n = NULL;
		m->nmh = 0;
		free(m->hit_addr);
		free(m->hit_n);
		m->hit_addr = m->hit_n = NULL;
		m->nhit = 0;
		m->hit_total = 0;
		return (-1);
	}
	prfd_sort_hits(m);
	if (m->nsyms > 1)
		qsort(m->syms, m->nsyms, sizeof *m->syms, prfd_sym_cmp);
	m->flat_total = m->hit_total;
	prfd_flat(m);
	m->table = 1;
	return (0);
}

/* Session id whole: the kind's model, as reports want it. */
int
analyze_prfd_load(struct store *st, int64_t id, struct analyze_prfd *m,
    char **cause)
{
	if (analyze_prfd_load_head(st, id, m, cause) != 0)
		return (-1);
	if (analyze_prfd_table(st, m, cause) != 0) {
		analyze_prfd_free(m);
		return (-1);
	}
	return (0);
}

void
analyze_prfd_free(struct analyze_prfd *m)
{
	size_t	i;

	for (i = 0; i < m->nslots; i++) {
		free(m->slots[i].module);
		free(m->slots[i].build_id);
	}
	free(m->slots);
	for (i = 0; i < m->nmods; i++) {
		free(m->mods[i].path);
		free(m->mods[i].build_id);
		free(m->mods[i].unresolved);
	}
	free(m->mods);
	free(m->by_addr);
	free(m->threads);
	free(m->hit_addr);
	free(m->hit_n);
	free(m->mh_mod);
	free(m->mh_addr);
	free(m->mh_n);
	free(m->flat);
	analyze_syms_free(m->syms, m->nsyms);
	free(m->d.command);
	memset(m, 0, sizeof *m);
}

void *
analyze_prfd_model(struct store *st, int64_t session, char **cause)
{
	struct analyze_prfd	*m = xcalloc(1, sizeof *m);

	if (analyze_prfd_load(st, session, m, cause) != 0) {
		free(m);
		return (NULL);
	}
	return (m);
}

void
analyze_prfd_model_free(void *m)
{
	if (m == NULL)
		return;
	analyze_prfd_free(m);
	free(m);
}

/* Samples as a percentage of the run time, or (all) of every period. */
double
analyze_prfd_pct(const struct analyze_prfd *m, double n)
{
	uint64_t	d = m->all ? m->total : m->run;

	return (d != 0 ? 100.0 * n / (double)d : 0.0);
}

/* A path's file name. */
const char *
analyze_prfd_basename(const char *p)
{
	const char	*b = strrchr(p, '/');

	return (b != NULL && b[1] != '\0' ? b + 1 : p);
}

/* A slot's module file name, or NULL. */
const char *
analyze_prfd_module(const struct analyze_prfd *m, size_t slot)
{
	const char	*p = m->slots[slot].module;

	return (p != NULL ? analyze_prfd_basename(p) : NULL);
}

/* A flat row's module file name, or NULL. */
const char *
analyze_prfd_flat_module(const struct analyze_prfd *m,
    const struct analyze_prfd_flat *f)
{
	if (f->sym != SIZE_MAX && m->syms[f->sym].module != NULL)
		return (m->syms[f->sym].module);
	if (f->mod != SIZE_MAX)
		return (analyze_prfd_basename(m->mods[f->mod].path));
	if (f->slot != SIZE_MAX)
		return (analyze_prfd_module(m, f->slot));
	return (NULL);
}

/* The name of a flat profile row, to free. */
char *
analyze_prfd_flat_name(const struct analyze_prfd *m,
    const struct analyze_prfd_flat *f)
{
	const char	*mod;

	if (f->sym != SIZE_MAX)
		return (xstrdup(m->syms[f->sym].name));
	if (f->mod != SIZE_MAX)
		return (xasprintf("(%s, outside symbols)",
		    analyze_prfd_basename(m->mods[f->mod].path)));
	if (f->slot == SIZE_MAX)
		return (xstrdup("(outside slots)"));
	mod = analyze_prfd_module(m, f->slot);
	if (mod != NULL)
		return (xasprintf("(%s, outside symbols)", mod));
	return (xasprintf("(slot %012llX)", (unsigned long long)
	    m->slots[f->slot].vaddr));
}

/*
 * The code of flat row f, a function of a module outside the slots, as
 * a histogram the annotate view shows: no detail counters, the module's
 * samples by address as the hit table (every one of them: exact), the
 * module's functions named, offsets from the mapping's start (h->base)
 * and the load bias the dump recorded.
 */
int
analyze_prfd_module_hist(struct store *st, struct analyze_prfd *m,
    const struct analyze_prfd_flat *f, struct analyze_hist *h,
    char **cause)
{
	const struct store_prfd_module	*md;
	struct store_cursor		*c;
	struct analyze_sym		*y;
	int64_t				 k;
	uint64_t			 a, n;
	size_t				 i, cap = 0;
	int				 rc;

	*cause = NULL;
	memset(h, 0, sizeof *h);
	if (f->mod == SIZE_MAX || f->sym == SIZE_MAX) {
		*cause = xstrdup("these samples are in no function of a"
		    " module: nothing to annotate");
		return (-1);
	}
	md = &m->mods[f->mod];
	if (md->kernel) {
		*cause = xasprintf("%s is the kernel's: its code is not read",
		    m->syms[f->sym].name);
		return (-1);
	}
	if (md->hi - md->lo > UINT32_MAX) {
		*cause = xasprintf("%s's mapping is more than the histogram's"
		    " 4 GiB", md->path);
		return (-1);
	}
	h->session = m->session;
	h->linear = 1;
	h->base = md->lo;
	h->map_size = md->hi - md->lo;
	h->module = md->path != NULL ? xstrdup(md->path) : NULL;
	h->build_id = md->build_id != NULL ? xstrdup(md->build_id) : NULL;
	h->bias_known = 1;
	h->bias = md->bias;
	h->prf.hit_table = 1;
	h->total = m->all ? m->total : m->run;
	h->levels = xcalloc(1, sizeof *h->levels);
	h->nlevels = 1;
	h->levels[0].factor = 1;
	h->levels[0].b = xcalloc(1, sizeof *h->levels[0].b);
	h->hit_cum = xcalloc(1, sizeof *h->hit_cum);
	if ((c = store_prfd_module_hits(st, m->session)) == NULL)
		goto fail;
	/* By module, then address: this module's, in order. */
	while ((rc = store_prfd_module_hit_next(c, &k, &a, &n)) == 1) {
		if (k != md->idx || a < md->lo || a >= md->hi)
			continue;
		if (h->nhit == cap) {
			cap = cap != 0 ? cap * 2 : 256;
			h->hit_addr = xreallocarray(h->hit_addr, cap,
			    sizeof *h->hit_addr);
			h->hit_cum = xreallocarray(h->hit_cum, cap + 1,
			    sizeof *h->hit_cum);
		}
		h->hit_addr[h->nhit] = a - md->lo;
		h->hit_cum[h->nhit + 1] = h->hit_cum[h->nhit] + n;
		h->in_program += n;
		h->nhit++;
	}
	store_cursor_close(c);
	if (rc < 0)
		goto fail;
	/*
	 * One counter over the mapping holding every sample, as a slot of
	 * one bucket: the hit table, which missed none, splits it exactly.
	 */
	h->levels[0].b[0].hi = (uint32_t)h->map_size;
	h->levels[0].b[0].hits = h->in_program;
	h->levels[0].n = 1;
	h->syms = xreallocarray(NULL, m->nsyms + 1, sizeof *h->syms);
	for (i = 0; i < m->nsyms; i++) {
		if (m->syms[i].addr < md->lo || m->syms[i].addr >= md->hi)
			continue;
		y = &h->syms[h->nsyms++];
		*y = m->syms[i];
		y->module = m->syms[i].module != NULL ?
		    xstrdup(m->syms[i].module) : NULL;
		y->name = xstrdup(m->syms[i].name);
		y->addr -= md->lo;
		if (y->size > h->map_size - y->addr)
			y->size = h->map_size - y->addr;
		y->hits = y->hits_lo = y->hits_hi = 0;
	}
	analyze_hist_build(h);
	return (0);
fail:
	*cause = xasprintf("session %lld: %s", (long long)m->session,
	    store_error(st));
	analyze_hist_free(h);
	return (-1);
}

/*
 * Slot k's detail counters as a histogram: its bucket rows, its symbols
 * and its hit-table entries, offsets from the slot's address (h->base).
 * Shares are of the model's base when it is made: the run time, or
 * (all) every period of the dump.
 */
int
analyze_prfd_slot_hist(struct store *st, struct analyze_prfd *m,
    size_t k, struct analyze_hist *h, char **cause)
{
	const struct store_prfd_slot	*s = &m->slots[k];
	struct store_cursor		*c;
	struct store_bucket		 row;
	struct analyze_level		*l0;
	struct analyze_sym		*y;
	size_t				 i, n = 0;
	int				 rc = 0;

	*cause = NULL;
	memset(h, 0, sizeof *h);
	if (analyze_prfd_table(st, m, cause) != 0)
		return (-1);
	h->session = m->session;
	h->linear = 1;
	h->base = s->vaddr;
	h->module = s->module != NULL ? xstrdup(s->module) : NULL;
	h->build_id = s->build_id != NULL ? xstrdup(s->build_id) : NULL;
	h->map_size = s->size;
	h->prf.hit_table = m->d.hit_table;
	if (s->bucket_first < 0 || s->nbuckets == 0) {
		*cause = xasprintf("the slot at %012llX has no detail counters",
		    (unsigned long long)s->vaddr);
		return (-1);
	}
	/* The model keeps 32-bit offsets (analyze_bucket). */
	if (s->size > UINT32_MAX) {
		*cause = xasprintf("the slot at %012llX is %llu bytes, more"
		    " than the histogram's 4 GiB", (unsigned long long)s->vaddr,
		    (unsigned long long)s->size);
		return (-1);
	}
	h->levels = xcalloc(1, sizeof *h->levels);
	h->nlevels = 1;
	l0 = &h->levels[0];
	l0->factor = 1;
	l0->b = xcalloc((size_t)s->nbuckets + 1, sizeof *l0->b);
	if ((c = store_prfd_buckets(st, m->session, s->bucket_first,
	    s->nbuckets)) == NULL)
		goto fail;
	while ((rc = store_bucket_next(c, &row)) == 1) {
		if (row.lo < s->vaddr || row.hi > s->vaddr + s->size ||
		    row.lo > row.hi || n == (size_t)s->nbuckets) {
			rc = -1;
			*cause = xasprintf("session %lld: bucket %u is not in"
			    " the slot at %012llX", (long long)m->session,
			    row.idx, (unsigned long long)s->vaddr);
			break;
		}
		l0->b[n].idx = row.idx;
		l0->b[n].lo = (uint32_t)(row.lo - s->vaddr);
		l0->b[n].hi = (uint32_t)(row.hi - s->vaddr);
		l0->b[n].hits = row.hits;
		h->in_program += row.hits;
		n++;
	}
	store_cursor_close(c);
	if (rc < 0)
		goto fail;
	l0->n = n;
	/* The shares' base the views show: the run, or every period. */
	h->total = m->all ? m->total : m->run;
	/* The hit table's entries in the counters, with running sums. */
	h->hit_addr = xreallocarray(NULL, m->nhit + 1, sizeof *h->hit_addr);
	h->hit_cum = xreallocarray(NULL, m->nhit + 2, sizeof *h->hit_cum);
	h->hit_cum[0] = 0;
	for (i = 0; i < m->nhit; i++) {
		if (n == 0 || m->hit_addr[i] < s->vaddr ||
		    m->hit_addr[i] - s->vaddr >= l0->b[n - 1].hi)
			continue;
		h->hit_addr[h->nhit] = m->hit_addr[i] - s->vaddr;
		h->hit_cum[h->nhit + 1] = h->hit_cum[h->nhit] + m->hit_n[i];
		h->nhit++;
	}
	h->syms = xreallocarray(NULL, m->nsyms + 1, sizeof *h->syms);
	for (i = 0; i < m->nsyms; i++) {
		if (m->syms[i].addr < s->vaddr ||
		    m->syms[i].addr - s->vaddr >= s->size)
			continue;
		y = &h->syms[h->nsyms++];
		*y = m->syms[i];
		y->module = m->syms[i].module != NULL ?
		    xstrdup(m->syms[i].module) : NULL;
		y->name = xstrdup(m->syms[i].name);
		y->addr -= s->vaddr;
		if (y->size > s->size - y->addr)
			y->size = s->size - y->addr;
		y->hits = y->hits_lo = y->hits_hi = 0;
	}
	/*
	 * A table that puts more samples in a counter than it holds
	 * contradicts the counters (the reader warned): shares come from
	 * the counters alone, by bytes.
	 */
	for (i = 0; i < n && h->nhit != 0; i++) {
		if (analyze_hit_sum(h, l0->b[i].lo, l0->b[i].hi) >
		    l0->b[i].hits)
			h->nhit = h->prf.hit_table = 0;
	}
	analyze_hist_build(h);
	return (0);
fail:
	if (*cause == NULL)
		*cause = xasprintf("session %lld: %s", (long long)m->session,
		    store_error(st));
	analyze_hist_free(h);
	return (-1);
}
