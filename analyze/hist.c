/*
 * Bucket histograms: load a PRF session's buckets and symbols, share each
 * bucket's hits among the symbols it overlaps (the flat profile), and
 * precompute every zoom level so a key press never rescans the buckets;
 * and what the histogram view and the PRF report show of them: shares of
 * all samples, rows by hits, the names in a bucket, each symbol's part of
 * a bucket.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"
#include "analyze/analyze.h"

#define ANALYZE_NAMES_MAX	4	/* names in a report's bucket row */
#define ANALYZE_NAMES_ROOM	24	/* bytes kept for " +N" */

/* Bytes of [lo, hi) that symbol s covers. */
uint64_t
analyze_overlap(const struct analyze_bucket *b, const struct analyze_sym *s)
{
	uint64_t	lo = b->lo > s->addr ? b->lo : s->addr;
	uint64_t	hi = b->hi < s->addr + s->size ? b->hi : s->addr + s->size;

	return (hi > lo ? hi - lo : 0);
}

/* The candidate symbol range of one bucket. */
static void
hist_syms_of(struct analyze_hist *h, struct analyze_bucket *b)
{
	size_t	lo = 0, hi = h->nsyms, mid, first;

	/* First symbol starting at or after b->lo ... */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (h->syms[mid].addr < b->lo)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	/* ... and earlier ones that still reach into it. */
	while (first > 0 && h->syms[first - 1].addr + h->syms[first - 1].size >
	    b->lo)
		first--;
	hi = lo;
	while (hi < h->nsyms && h->syms[hi].addr < b->hi)
		hi++;
	b->sym_first = (uint32_t)first;
	b->sym_count = (uint32_t)(hi - first);
}

static int
hist_flat_cmp(const void *a, const void *b, void *arg)
{
	const struct analyze_hist	*h = arg;
	const struct analyze_sym	*x = &h->syms[*(const size_t *)a];
	const struct analyze_sym	*y = &h->syms[*(const size_t *)b];

	if (x->hits != y->hits)
		return (x->hits > y->hits ? -1 : 1);
	return (x->addr < y->addr ? -1 : x->addr > y->addr);
}

/* A session's symbols, by address (ties in map order). */
int
analyze_syms_load(struct store *st, int64_t session,
    struct analyze_sym **out, size_t *n)
{
	struct store_cursor	*c;
	struct store_symbol	 row;
	struct analyze_sym	*v = NULL, *y;
	size_t			 cap = 0, len = 0;
	int			 rc;

	*out = NULL;
	*n = 0;
	if ((c = store_symbols(st, session)) == NULL)
		return (-1);
	while ((rc = store_symbol_next(c, &row)) == 1) {
		if (len == cap) {
			cap = cap != 0 ? cap * 2 : 64;
			v = xreallocarray(v, cap, sizeof *v);
		}
		y = &v[len++];
		y->module = row.module != NULL ? xstrdup(row.module) : NULL;
		y->name = xstrdup(row.name != NULL ? row.name : "?");
		y->addr = row.addr;
		y->size = row.size;
		y->hits = y->hits_lo = y->hits_hi = 0;
	}
	store_cursor_close(c);
	if (rc != 0) {
		analyze_syms_free(v, len);
		return (-1);
	}
	*out = v;
	*n = len;
	return (0);
}

void
analyze_syms_free(struct analyze_sym *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(v[i].module);
		free(v[i].name);
	}
	free(v);
}

static int
hist_load_buckets(struct store *st, struct analyze_hist *h)
{
	struct store_cursor	*c;
	struct store_bucket	 row;
	struct analyze_level	*l0 = &h->levels[0];
	size_t			 n = 0;
	int			 rc = 0;

	l0->factor = 1;
	l0->b = xcalloc((size_t)h->prf.bucket_num + 1, sizeof *l0->b);
	if ((c = store_buckets(st, h->session)) == NULL)
		return (-1);
	while (n < h->prf.bucket_num + 1 &&
	    (rc = store_bucket_next(c, &row)) == 1) {
		l0->b[n].idx = row.idx;
		l0->b[n].lo = row.lo;
		l0->b[n].hi = row.hi;
		l0->b[n].hits = row.hits;
		h->in_program += row.hits;
		n++;
	}
	store_cursor_close(c);
	l0->n = n;
	return (rc < 0 ? -1 : 0);
}

/* Level k merges pairs of level k - 1 until one row is left. */
static void
hist_levels(struct analyze_hist *h)
{
	struct analyze_level	*prev, *cur;
	size_t			 i, max = 1;

	for (i = h->levels[0].n; i > 1; i = (i + 1) / 2)
		max++;
	h->levels = xreallocarray(h->levels, max, sizeof *h->levels);
	while (h->nlevels < max) {
		prev = &h->levels[h->nlevels - 1];
		cur = &h->levels[h->nlevels];
		cur->factor = prev->factor * 2;
		cur->n = (prev->n + 1) / 2;
		cur->b = xcalloc(cur->n + 1, sizeof *cur->b);
		h->nlevels++;
		for (i = 0; i < cur->n; i++) {
			cur->b[i] = prev->b[2 * i];
			if (2 * i + 1 < prev->n) {
				cur->b[i].hi = prev->b[2 * i + 1].hi;
				cur->b[i].hits += prev->b[2 * i + 1].hits;
			}
			hist_syms_of(h, &cur->b[i]);
		}
	}
}

/* Load PRF session id into h. */
int
analyze_hist_load(struct store *st, int64_t id, struct analyze_hist *h,
    char **cause)
{
	struct analyze_level	*l0;
	struct analyze_bucket	*b;
	size_t			 i, k;
	double			 shared, share;

	memset(h, 0, sizeof *h);
	h->session = id;
	if (store_prf_get(st, id, &h->prf) != 0) {
		*cause = xasprintf("session %lld has no PRF data",
		    (long long)id);
		return (-1);
	}
	h->levels = xcalloc(1, sizeof *h->levels);
	h->nlevels = 1;
	if (hist_load_buckets(st, h) != 0 ||
	    analyze_syms_load(st, h->session, &h->syms, &h->nsyms) != 0) {
		*cause = xasprintf("session %lld: %s", (long long)id,
		    store_error(st));
		analyze_hist_free(h);
		return (-1);
	}
	h->total = h->in_program + h->prf.hit_io + h->prf.hit_dos +
	    h->prf.hit_high;

	l0 = &h->levels[0];
	for (i = 0; i < l0->n; i++) {
		b = &l0->b[i];
		hist_syms_of(h, b);
		shared = 0;
		for (k = b->sym_first; k < b->sym_first + b->sym_count; k++) {
			if (analyze_overlap(b, &h->syms[k]) == 0)
				continue;
			share = analyze_bucket_share(b, &h->syms[k]);
			h->syms[k].hits += share;
			h->syms[k].hits_hi += (double)b->hits;
			if (analyze_overlap(b, &h->syms[k]) == b->hi - b->lo)
				h->syms[k].hits_lo += (double)b->hits;
			shared += share;
		}
		/* Nested symbols can over-share; never report negative. */
		if (shared < (double)b->hits)
			h->unattributed += (double)b->hits - shared;
	}
	if (h->nsyms != 0) {
		h->flat = xcalloc(h->nsyms, sizeof *h->flat);
		for (i = 0; i < h->nsyms; i++)
			h->flat[i] = i;
		qsort_r(h->flat, h->nsyms, sizeof *h->flat, hist_flat_cmp, h);
	}
	hist_levels(h);
	return (0);
}

void
analyze_hist_free(struct analyze_hist *h)
{
	size_t	i;

	analyze_syms_free(h->syms, h->nsyms);
	free(h->flat);
	for (i = 0; i < h->nlevels; i++)
		free(h->levels[i].b);
	free(h->levels);
	memset(h, 0, sizeof *h);
}

/* Hits as a percentage of all samples (I/O, DOS and high included). */
double
analyze_hist_pct(const struct analyze_hist *h, double hits)
{
	return (h->total != 0 ? 100.0 * hits / (double)h->total : 0.0);
}

/*
 * A level's rows by hits, descending, ties by address: a stable LSD
 * radix sort of the address order on the complemented hit counts, one
 * pass per byte the largest count needs.  Linear, so a view can sort
 * every level at open.  n + 1 indices, to free.
 */
size_t *
analyze_level_by_hits(const struct analyze_level *lv)
{
	size_t		*o, *tmp, *sw, i, count[256], sum, c;
	uint64_t	 max = 0;
	unsigned	 shift;

	for (i = 0; i < lv->n; i++) {
		if (lv->b[i].hits > max)
			max = lv->b[i].hits;
	}
	o = xcalloc(lv->n + 1, sizeof *o);
	tmp = xcalloc(lv->n + 1, sizeof *tmp);
	for (i = 0; i < lv->n; i++)
		o[i] = i;
	for (shift = 0; shift < 64 && (max >> shift) != 0; shift += 8) {
		memset(count, 0, sizeof count);
		for (i = 0; i < lv->n; i++)
			count[0xff - ((lv->b[i].hits >> shift) & 0xff)]++;
		for (sum = 0, c = 0; c < 256; c++) {
			i = count[c];
			count[c] = sum;
			sum += i;
		}
		for (i = 0; i < lv->n; i++) {
			c = 0xff - ((lv->b[o[i]].hits >> shift) & 0xff);
			tmp[count[c]++] = o[i];
		}
		sw = o;
		o = tmp;
		tmp = sw;
	}
	free(tmp);
	return (o);
}

/* The row of a level that holds addr (the nearest end if none does). */
size_t
analyze_level_at(const struct analyze_level *lv, uint64_t addr)
{
	size_t	lo = 0, hi = lv->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (lv->b[mid].hi <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo < lv->n ? lo : (lv->n != 0 ? lv->n - 1 : 0));
}

/*
 * The first of b's candidate symbols from k on that overlaps it, or
 * sym_first + sym_count: candidates are only near (a symbol that starts
 * before the bucket may end before it too).
 */
size_t
analyze_bucket_sym(const struct analyze_hist *h,
    const struct analyze_bucket *b, size_t k)
{
	size_t	end = (size_t)b->sym_first + b->sym_count;

	if (k < b->sym_first)
		k = b->sym_first;
	while (k < end && analyze_overlap(b, &h->syms[k]) == 0)
		k++;
	return (k < end ? k : end);
}

/*
 * "name1, name2" for the symbols a bucket overlaps, or "".  A coarse zoom
 * level can span thousands of symbols: name the first few and count the
 * rest, so a frame costs the same at every level.
 */
char *
analyze_bucket_names(const struct analyze_hist *h,
    const struct analyze_bucket *b)
{
	char	*out = NULL, *next;
	size_t	 k, end = (size_t)b->sym_first + b->sym_count;
	size_t	 named = 0, more = 0;

	for (k = analyze_bucket_sym(h, b, 0); k < end;
	    k = analyze_bucket_sym(h, b, k + 1)) {
		if (named == ANALYZE_NAMES_MAX) {
			more++;
			continue;
		}
		next = xasprintf("%s%s%s", out != NULL ? out : "",
		    out != NULL ? ", " : "", h->syms[k].name);
		free(out);
		out = next;
		named++;
	}
	if (more != 0) {
		next = xasprintf("%s (+%zu)", out, more);
		free(out);
		out = next;
	}
	return (out != NULL ? out : xstrdup(""));
}

/*
 * The same names cut to fit a column of width bytes: "a, b, c +12" in
 * buf, the names that fit and then the count of the others, which is all
 * a row of the view has room for.  Its length.
 */
size_t
analyze_bucket_names_fit(const struct analyze_hist *h,
    const struct analyze_bucket *b, size_t width, char *buf, size_t len)
{
	const char	*name;
	size_t		 k, end = (size_t)b->sym_first + b->sym_count;
	size_t		 used = 0, more = 0, n, fit;
	int		 w;

	if (len == 0)
		return (0);
	buf[0] = '\0';
	/* The count must fit in buf after the names. */
	fit = len > ANALYZE_NAMES_ROOM ? len - ANALYZE_NAMES_ROOM : 0;
	if (width < fit)
		fit = width;
	for (k = analyze_bucket_sym(h, b, 0); k < end;
	    k = analyze_bucket_sym(h, b, k + 1)) {
		name = h->syms[k].name;
		n = strlen(name) + (used != 0 ? 2 : 0);
		if (more != 0 || used + n >= fit) {
			more++;
			continue;
		}
		w = snprintf(buf + used, len - used, "%s%s", used != 0 ?
		    ", " : "", name);
		used += w > 0 ? (size_t)w : 0;
	}
	if (more != 0 && (w = snprintf(buf + used, len - used, " +%zu",
	    more)) > 0)
		used += (size_t)w;
	return (used < len ? used : len - 1);
}

/* Symbol s's part of bucket b's hits: by the bytes of b it covers. */
double
analyze_bucket_share(const struct analyze_bucket *b,
    const struct analyze_sym *s)
{
	uint64_t	width = b->hi - b->lo;

	return (width != 0 ? (double)b->hits * analyze_overlap(b, s) / width :
	    0);
}

/* Hits as a percentage of bucket b's. */
double
analyze_bucket_pct(const struct analyze_bucket *b, double hits)
{
	return (b->hits != 0 ? 100.0 * hits / (double)b->hits : 0.0);
}

static int
hist_share_cmp(const void *a, const void *b)
{
	const struct analyze_share	*x = a, *y = b;

	if (x->hits != y->hits)
		return (x->hits > y->hits ? -1 : 1);
	return (x->sym < y->sym ? -1 : x->sym > y->sym);
}

/*
 * Bucket b's hits by symbol: one entry for each symbol it overlaps and
 * one (sym SIZE_MAX) for the bytes no symbol covers, largest share first,
 * ties by address.  *out is to free; the count.
 */
size_t
analyze_bucket_shares(const struct analyze_hist *h,
    const struct analyze_bucket *b, struct analyze_share **out)
{
	struct analyze_share	*v;
	size_t			 k, n = 0;
	size_t			 end = (size_t)b->sym_first + b->sym_count;
	uint64_t		 width = b->hi - b->lo, covered = 0;

	v = xcalloc((size_t)b->sym_count + 2, sizeof *v);
	for (k = analyze_bucket_sym(h, b, 0); k < end;
	    k = analyze_bucket_sym(h, b, k + 1)) {
		v[n].sym = k;
		v[n].bytes = analyze_overlap(b, &h->syms[k]);
		v[n].hits = analyze_bucket_share(b, &h->syms[k]);
		covered += v[n].bytes;
		n++;
	}
	/* Nested symbols can cover more than the bucket: nothing left. */
	if (covered < width) {
		v[n].sym = SIZE_MAX;
		v[n].bytes = width - covered;
		v[n].hits = (double)b->hits * (width - covered) / width;
		n++;
	}
	qsort(v, n, sizeof *v, hist_share_cmp);
	*out = v;
	return (n);
}

/* The prf kind's model (kind.h): a loaded histogram, or NULL. */
void *
analyze_hist_model(struct store *st, int64_t session, char **cause)
{
	struct analyze_hist	*h = xcalloc(1, sizeof *h);

	if (analyze_hist_load(st, session, h, cause) != 0) {
		free(h);
		return (NULL);
	}
	return (h);
}

void
analyze_hist_model_free(void *h)
{
	if (h == NULL)
		return;
	analyze_hist_free(h);
	free(h);
}
