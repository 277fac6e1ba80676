/*
 * Bucket histograms: load a PRF session's buckets and symbols, share each
 * bucket's hits among the symbols it overlaps (the flat profile), and
 * precompute every zoom level so a key press never rescans the buckets;
 * and what the histogram view and the PRF report show of them: shares of
 * all samples, rows by hits, the names in a bucket, each symbol's part of
 * a bucket.
 *
 * Attribution.  A sample the file's hit table places (its exact CS:IP)
 * belongs to the symbol holding that address, exactly.  The rest of a
 * bucket's samples, all of them without a table, are shared among the
 * parties of the bucket (the symbols overlapping it, and its bytes that
 * no symbol covers) by how many instructions start in each part, decoded
 * from the stored program image, else by bytes: code that runs once and
 * data beside it get little, where by bytes they got their width.  Such a
 * share is an estimate; its bounds are the unplaced samples of only the
 * buckets the symbol has to itself, and of every bucket it touches.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <capstone.h>

#include "bsearch.h"
#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/hist.h"
#include "store/prf.h"

/* How one raw bucket's unplaced samples are split among its parties. */
struct hist_split {
	double		 resid;		/* samples the table does not place */
	int		 bytes;		/* weigh by bytes, not starts */
	uint64_t	 wsum;		/* weight of every party */
	uint64_t	 gap_bytes;	/* bytes no symbol covers */
	uint64_t	 gap_w;		/* and their weight */
	uint64_t	 gap_exact;	/* and the table's samples there */
};

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
	size_t	lo, hi, first;

	/* First symbol starting at or after b->lo ... */
	BSEARCH_FIRST(lo, 0, h->nsyms, h->syms[lo].addr < b->lo);
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

/* The first hit-table entry at or above addr. */
static size_t
hist_hit_at(const struct analyze_hist *h, uint64_t addr)
{
	size_t	i;

	BSEARCH_FIRST(i, 0, h->nhit, h->hit_addr[i] < addr);
	return (i);
}

/* The hit table's samples in [lo, hi). */
static uint64_t
hist_exact(const struct analyze_hist *h, uint64_t lo, uint64_t hi)
{
	if (h->nhit == 0 || hi <= lo)
		return (0);
	return (h->hit_cum[hist_hit_at(h, hi)] - h->hit_cum[hist_hit_at(h,
	    lo)]);
}

/* The first hit-table entry at or above addr (annotate.c's too). */
size_t
analyze_hit_at(const struct analyze_hist *h, uint64_t addr)
{
	return (hist_hit_at(h, addr));
}

/* The hit table's samples in [lo, hi). */
uint64_t
analyze_hit_sum(const struct analyze_hist *h, uint64_t lo, uint64_t hi)
{
	return (hist_exact(h, lo, hi));
}

/* Set bits of the starts bitmap from bit a to bit b (not included). */
static uint64_t
hist_popcount(const uint64_t *v, uint64_t a, uint64_t b)
{
	uint64_t	n = 0, w;

	while (a < b) {
		w = v[a / 64] >> (a % 64);
		if (b - a < 64 - a % 64) {
			w &= ((uint64_t)1 << (b - a)) - 1;
			n += (uint64_t)__builtin_popcountll(w);
			break;
		}
		n += (uint64_t)__builtin_popcountll(w);
		a += 64 - a % 64;
	}
	return (n);
}

/* What [lo, hi) weighs in a split: its instruction starts, or bytes. */
static uint64_t
hist_weight(const struct analyze_hist *h, int bytes, uint64_t lo,
    uint64_t hi)
{
	if (hi <= lo)
		return (0);
	if (bytes || h->starts == NULL)
		return (hi - lo);
	/* Bytes the program file did not fill hold no instruction. */
	if (lo < h->image_lo)
		lo = h->image_lo;
	if (hi > h->image_hi)
		hi = h->image_hi;
	if (hi <= lo)
		return (0);
	return (hist_popcount(h->starts, lo - h->image_lo, hi - h->image_lo));
}

/*
 * The weights of the parties of [lo, hi), whose candidate symbols are
 * b's: each symbol's part, and the gaps between them.
 */
static uint64_t
hist_weigh(const struct analyze_hist *h, const struct analyze_bucket *b,
    uint64_t lo, uint64_t hi, struct hist_split *sp)
{
	const struct analyze_sym	*s;
	uint64_t			 cur = lo, slo, shi, w = 0;
	size_t				 k, end;

	sp->gap_bytes = sp->gap_w = sp->gap_exact = 0;
	end = (size_t)b->sym_first + b->sym_count;
	for (k = b->sym_first; k < end; k++) {
		s = &h->syms[k];
		slo = s->addr > lo ? s->addr : lo;
		shi = s->addr + s->size < hi ? s->addr + s->size : hi;
		if (shi <= slo)
			continue;
		w += hist_weight(h, sp->bytes, slo, shi);
		/* Candidates come by address: a gap ends where one starts. */
		if (slo > cur) {
			sp->gap_bytes += slo - cur;
			sp->gap_w += hist_weight(h, sp->bytes, cur, slo);
			sp->gap_exact += hist_exact(h, cur, slo);
		}
		if (shi > cur)
			cur = shi;
	}
	if (hi > cur) {
		sp->gap_bytes += hi - cur;
		sp->gap_w += hist_weight(h, sp->bytes, cur, hi);
		sp->gap_exact += hist_exact(h, cur, hi);
	}
	return (w + sp->gap_w);
}

/*
 * How raw bucket b's samples split: what the table places, and the
 * weights the rest is shared by.  Instruction starts where the image has
 * any in the bucket, else bytes.
 */
static void
hist_split_of(const struct analyze_hist *h, const struct analyze_bucket *b,
    struct hist_split *sp)
{
	uint64_t	exact = hist_exact(h, b->lo, b->hi);

	sp->resid = b->hits > exact ? (double)(b->hits - exact) : 0;
	sp->bytes = (h->starts == NULL);
	sp->wsum = hist_weigh(h, b, b->lo, b->hi, sp);
	if (sp->wsum == 0 && !sp->bytes) {
		sp->bytes = 1;
		sp->wsum = hist_weigh(h, b, b->lo, b->hi, sp);
	}
}

/* The samples of [lo, hi), a part of a raw bucket split as sp says. */
static double
hist_part(const struct analyze_hist *h, const struct hist_split *sp,
    uint64_t lo, uint64_t hi)
{
	double	v = (double)hist_exact(h, lo, hi);

	if (sp->wsum != 0 && sp->resid != 0)
		v += sp->resid * (double)hist_weight(h, sp->bytes, lo, hi) /
		    (double)sp->wsum;
	return (v);
}

/* The samples of raw bucket b that no symbol takes. */
static double
hist_outside(const struct hist_split *sp)
{
	if (sp->wsum == 0)
		return ((double)sp->gap_exact + sp->resid);
	return ((double)sp->gap_exact + sp->resid * (double)sp->gap_w /
	    (double)sp->wsum);
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
hist_load_buckets(struct store *st, struct analyze_hist *h, char **cause)
{
	struct store_cursor	*c;
	struct store_bucket	 row;
	struct analyze_level	*l0 = &h->levels[0];
	uint64_t		 end = (uint64_t)h->prf.prog_high_pa * 16;
	size_t			 n = 0;
	int			 rc = 0;

	l0->factor = 1;
	l0->b = xcalloc((size_t)h->prf.bucket_num + 1, sizeof *l0->b);
	if ((c = store_buckets(st, h->session)) == NULL)
		return (-1);
	while (n < h->prf.bucket_num + 1 &&
	    (rc = store_bucket_next(c, &row)) == 1) {
		/* What a PRF can hold; a store edited by hand may not. */
		if (row.hits > UINT32_MAX || row.hi > UINT32_MAX ||
		    row.lo > row.hi) {
			*cause = xasprintf("session %lld: bucket %u: lo %llu,"
			    " hi %llu, hits %llu: not what a PRF holds",
			    (long long)h->session, row.idx,
			    (unsigned long long)row.lo,
			    (unsigned long long)row.hi,
			    (unsigned long long)row.hits);
			rc = -1;
			break;
		}
		l0->b[n].idx = row.idx;
		l0->b[n].lo = row.lo;
		/* Stores from before ingest clipped it: the last bucket. */
		l0->b[n].hi = row.hi > end ? (end > row.lo ? end : row.lo) :
		    row.hi;
		l0->b[n].hits = row.hits;
		h->in_program += row.hits;
		n++;
	}
	store_cursor_close(c);
	l0->n = n;
	return (rc < 0 ? -1 : 0);
}

/*
 * Zoom level k, which merges pairs of level k - 1 (the last has one
 * row), made when first asked for: a 65535-bucket session's levels are
 * as big as its buckets, and the page faults of making them all at load
 * were a fifth of the browser's first frame.
 */
const struct analyze_level *
analyze_hist_level(struct analyze_hist *h, size_t k)
{
	struct analyze_level	*prev, *cur;
	struct analyze_bucket	*r;
	size_t			 i, l;

	if (k >= h->nlevels)
		return (NULL);
	for (l = 1; l <= k; l++) {
		prev = &h->levels[l - 1];
		cur = &h->levels[l];
		if (cur->b != NULL)
			continue;
		cur->factor = prev->factor * 2;
		cur->n = (prev->n + 1) / 2;
		cur->b = xcalloc(cur->n + 1, sizeof *cur->b);
		/*
		 * A pair's candidates run from the left one's first to the
		 * right one's last: the same lo, the same hi, no search.
		 */
		for (i = 0; i < cur->n; i++) {
			cur->b[i] = prev->b[2 * i];
			if (2 * i + 1 < prev->n) {
				r = &prev->b[2 * i + 1];
				cur->b[i].hi = r->hi;
				cur->b[i].hits += r->hits;
				cur->b[i].sym_count = r->sym_first +
				    r->sym_count - cur->b[i].sym_first;
			}
		}
	}
	return (&h->levels[k]);
}

/* The hit table, by address, with running sums. */
static int
hist_load_hits(struct store *st, struct analyze_hist *h)
{
	struct store_cursor	*c;
	struct store_prf_hit	 e;
	size_t			 cap = h->prf.hit_table_capacity + 1;
	int			 rc;

	if (!h->prf.hit_table)
		return (0);
	if ((c = store_prf_hits(st, h->session)) == NULL)
		return (-1);
	h->hit_addr = xreallocarray(NULL, cap, sizeof *h->hit_addr);
	h->hit_cum = xreallocarray(NULL, cap + 1, sizeof *h->hit_cum);
	h->hit_cum[0] = 0;
	while ((rc = store_prf_hit_next(c, &e)) == 1) {
		if (h->nhit + 1 >= cap) {
			cap *= 2;
			h->hit_addr = xreallocarray(h->hit_addr, cap,
			    sizeof *h->hit_addr);
			h->hit_cum = xreallocarray(h->hit_cum, cap + 1,
			    sizeof *h->hit_cum);
		}
		h->hit_addr[h->nhit] = e.addr;
		h->hit_cum[h->nhit + 1] = h->hit_cum[h->nhit] + e.hits;
		h->nhit++;
	}
	store_cursor_close(c);
	return (rc < 0 ? -1 : 0);
}

static int
hist_u64_cmp(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

/*
 * The image's instruction starts, decoded lazily: the image is cut at
 * every symbol's start and end, and each piece is swept from its own
 * start (a label is where control arrives), when a bucket that needs a
 * split first touches it.
 */
struct hist_decoder {
	csh		 cs;
	cs_insn		*insn;
	uint8_t		*image;
	uint64_t	*cut;		/* piece boundaries, sorted */
	size_t		 ncut;
	uint8_t		*done;		/* per piece */
};

static int
hist_decoder_open(struct store *st, struct analyze_hist *h,
    struct hist_decoder *d)
{
	uint64_t	addr, a;
	size_t		len, i, n = 0;

	memset(d, 0, sizeof *d);
	if (store_prf_image_get(st, h->session, &addr, &d->image, &len) != 1)
		return (0);
	if (len == 0 || cs_open(CS_ARCH_X86, CS_MODE_16, &d->cs) !=
	    CS_ERR_OK) {
		free(d->image);
		d->image = NULL;
		return (0);
	}
	d->insn = cs_malloc(d->cs);
	h->image_lo = addr;
	h->image_hi = addr + len;
	h->starts = xcalloc(len / 64 + 1, sizeof *h->starts);
	d->cut = xreallocarray(NULL, 2 * h->nsyms + 2, sizeof *d->cut);
	d->cut[n++] = h->image_lo;
	d->cut[n++] = h->image_hi;
	for (i = 0; i < h->nsyms; i++) {
		a = h->syms[i].addr;
		if (a > h->image_lo && a < h->image_hi)
			d->cut[n++] = a;
		a += h->syms[i].size;
		if (a > h->image_lo && a < h->image_hi)
			d->cut[n++] = a;
	}
	qsort(d->cut, n, sizeof *d->cut, hist_u64_cmp);
	for (i = 0; i < n; i++) {
		if (d->ncut == 0 || d->cut[i] != d->cut[d->ncut - 1])
			d->cut[d->ncut++] = d->cut[i];
	}
	d->done = xcalloc(d->ncut, 1);
	return (1);
}

/* Sweep piece i: each instruction's first byte gets its bit. */
static void
hist_decode_piece(struct analyze_hist *h, struct hist_decoder *d, size_t i)
{
	const uint8_t	*p;
	uint64_t	 at, off, next;
	size_t		 left;

	d->done[i] = 1;
	at = d->cut[i];
	off = at - h->image_lo;
	p = d->image + off;
	/* The last instruction may run on past the piece. */
	left = (size_t)(h->image_hi - at);
	while (at < d->cut[i + 1]) {
		off = at - h->image_lo;
		next = at;
		if (cs_disasm_iter(d->cs, &p, &left, &next, d->insn)) {
			h->starts[off / 64] |= (uint64_t)1 << (off % 64);
			at = next;
		} else {
			/* Not an instruction: on to the next byte. */
			p++;
			left--;
			at++;
		}
	}
}

/* Decode every piece that [lo, hi) touches. */
static void
hist_decode(struct analyze_hist *h, struct hist_decoder *d, uint64_t lo,
    uint64_t hi)
{
	size_t	a;

	if (hi <= h->image_lo || lo >= h->image_hi)
		return;
	/* The last boundary at or below lo, or the first: the piece of lo. */
	BSEARCH_FIRST(a, 1, d->ncut - 1, d->cut[a] <= lo);
	for (a = a - 1; a + 1 < d->ncut && d->cut[a] < hi; a++) {
		if (!d->done[a])
			hist_decode_piece(h, d, a);
	}
}

static void
hist_decoder_close(struct hist_decoder *d)
{
	if (d->image == NULL)
		return;
	cs_free(d->insn, 1);
	cs_close(&d->cs);
	free(d->image);
	free(d->cut);
	free(d->done);
}

/* Whether raw bucket b's unplaced samples have more than one taker. */
static int
hist_contested(const struct analyze_hist *h, const struct analyze_bucket *b)
{
	size_t		k, end = (size_t)b->sym_first + b->sym_count, n = 0;
	uint64_t	covered = 0;

	for (k = b->sym_first; k < end && n < 2; k++) {
		if (analyze_overlap(b, &h->syms[k]) != 0) {
			covered += analyze_overlap(b, &h->syms[k]);
			n++;
		}
	}
	return (n > 1 || (n == 1 && covered < b->hi - b->lo));
}

/*
 * Share each raw bucket's samples among its symbols (d: the decoder of
 * the image, or NULL), sort the flat profile, and count the zoom levels.
 */
static void
hist_attribute(struct analyze_hist *h, struct hist_decoder *d)
{
	struct analyze_level	*l0 = &h->levels[0];
	struct analyze_bucket	*b;
	struct analyze_sym	*s;
	struct hist_split	 sp;
	size_t			 i, k, end;
	uint64_t		 lo, hi, ex;
	double			 share;

	for (i = 0; i < l0->n; i++) {
		b = &l0->b[i];
		hist_syms_of(h, b);
		/* Decode only where a split needs it: the image may be big. */
		if (d != NULL && b->hits != 0 && hist_contested(h, b))
			hist_decode(h, d, b->lo, b->hi);
		hist_split_of(h, b, &sp);
		end = (size_t)b->sym_first + b->sym_count;
		for (k = b->sym_first; k < end; k++) {
			s = &h->syms[k];
			lo = s->addr > b->lo ? s->addr : b->lo;
			hi = s->addr + s->size < b->hi ? s->addr + s->size :
			    b->hi;
			if (hi <= lo)
				continue;
			ex = hist_exact(h, lo, hi);
			share = hist_part(h, &sp, lo, hi);
			s->hits += share;
			s->hits_hi += (double)ex + sp.resid;
			s->hits_lo += (double)ex;
			if (hi - lo == b->hi - b->lo)
				s->hits_lo += sp.resid;
		}
		h->unattributed += hist_outside(&sp);
	}
	if (h->nsyms != 0) {
		h->flat = xcalloc(h->nsyms, sizeof *h->flat);
		for (i = 0; i < h->nsyms; i++)
			h->flat[i] = i;
		qsort_r(h->flat, h->nsyms, sizeof *h->flat, hist_flat_cmp, h);
	}
	/* The zoom levels, to make when shown (analyze_hist_level). */
	h->nlevels = 1;
	for (i = l0->n; i > 1; i = (i + 1) / 2)
		h->nlevels++;
	h->levels = xreallocarray(h->levels, h->nlevels, sizeof *h->levels);
	memset(h->levels + 1, 0, (h->nlevels - 1) * sizeof *h->levels);
}

/* Load PRF session id into h. */
int
analyze_hist_load(struct store *st, int64_t id, struct analyze_hist *h,
    char **cause)
{
	struct hist_decoder	 d;
	char			*why = NULL;
	int			 decoding = 0;

	memset(h, 0, sizeof *h);
	h->session = id;
	if (store_prf_get(st, id, &h->prf) != 0) {
		*cause = xasprintf("session %lld has no PRF data",
		    (long long)id);
		return (-1);
	}
	h->levels = xcalloc(1, sizeof *h->levels);
	h->nlevels = 1;
	if (hist_load_buckets(st, h, &why) != 0 ||
	    hist_load_hits(st, h) != 0 ||
	    analyze_syms_load(st, h->session, &h->syms, &h->nsyms) != 0) {
		*cause = why != NULL ? why : xasprintf("session %lld: %s",
		    (long long)id, store_error(st));
		analyze_hist_free(h);
		return (-1);
	}
	h->total = h->in_program + h->prf.hit_io + h->prf.hit_dos +
	    h->prf.hit_high;
	/* A table that missed nothing leaves nothing to split. */
	h->split = ANALYZE_SPLIT_NONE;
	if (!h->prf.hit_table || h->prf.hit_missed != 0) {
		h->split = ANALYZE_SPLIT_BYTES;
		if (hist_decoder_open(st, h, &d)) {
			h->split = ANALYZE_SPLIT_STARTS;
			decoding = 1;
		}
	}

	hist_attribute(h, decoding ? &d : NULL);
	if (decoding)
		hist_decoder_close(&d);
	return (0);
}

/*
 * A histogram a caller filled: the raw buckets (levels[0], one level),
 * the hit table, the symbols, total and in_program.  Attribute it as a
 * PRF session's (shares by bytes: there is no image to decode).  Another
 * kind's detail counters (prfd) come this way.
 */
void
analyze_hist_build(struct analyze_hist *h)
{
	h->split = h->nhit != 0 && h->hit_cum[h->nhit] >= h->in_program ?
	    ANALYZE_SPLIT_NONE : ANALYZE_SPLIT_BYTES;
	hist_attribute(h, NULL);
}

void
analyze_hist_free(struct analyze_hist *h)
{
	size_t	i;

	analyze_syms_free(h->syms, h->nsyms);
	free(h->flat);
	free(h->hit_addr);
	free(h->hit_cum);
	free(h->starts);
	for (i = 0; i < h->nlevels; i++)
		free(h->levels[i].b);
	free(h->levels);
	free(h->module);
	free(h->build_id);
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
	size_t	i;

	BSEARCH_FIRST(i, 0, lv->n, lv->b[i].hi <= addr);
	return (i < lv->n ? i : (lv->n != 0 ? lv->n - 1 : 0));
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
		/* Once full, only counted: no strlen of every name left. */
		if (more != 0) {
			more++;
			continue;
		}
		name = h->syms[k].name;
		n = strlen(name) + (used != 0 ? 2 : 0);
		if (used + n >= fit) {
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

/* The raw buckets a bucket of any level spans: [*first, *last]. */
static int
hist_raw_span(const struct analyze_hist *h, const struct analyze_bucket *b,
    uint64_t lo, uint64_t hi, size_t *first, size_t *last)
{
	const struct analyze_level	*l0 = &h->levels[0];

	if (l0->n == 0 || hi <= lo)
		return (0);
	*first = analyze_level_at(l0, lo > b->lo ? lo : b->lo);
	*last = analyze_level_at(l0, (hi < b->hi ? hi : b->hi) - 1);
	return (1);
}

/*
 * Symbol k's part of bucket b's hits (b of any level: the parts of the
 * raw buckets it spans), as the flat profile counts them.
 */
double
analyze_bucket_share(const struct analyze_hist *h,
    const struct analyze_bucket *b, size_t k)
{
	const struct analyze_sym	*s = &h->syms[k];
	const struct analyze_bucket	*r;
	struct hist_split		 sp;
	uint64_t			 lo, hi;
	size_t				 i, first, last;
	double				 v = 0;

	if (!hist_raw_span(h, b, s->addr, s->addr + s->size, &first, &last))
		return (0);
	for (i = first; i <= last; i++) {
		r = &h->levels[0].b[i];
		lo = s->addr > r->lo ? s->addr : r->lo;
		hi = s->addr + s->size < r->hi ? s->addr + s->size : r->hi;
		if (hi <= lo)
			continue;
		hist_split_of(h, r, &sp);
		v += hist_part(h, &sp, lo, hi);
	}
	return (v);
}

/*
 * The samples of raw bucket b in [lo, hi), as the flat profile counts
 * them: the hit table's there, exactly, and a share of those it does not
 * place, by instruction starts or bytes.
 */
double
analyze_bucket_part(const struct analyze_hist *h,
    const struct analyze_bucket *b, uint64_t lo, uint64_t hi)
{
	struct hist_split	sp;

	if (lo < b->lo)
		lo = b->lo;
	if (hi > b->hi)
		hi = b->hi;
	if (hi <= lo)
		return (0);
	hist_split_of(h, b, &sp);
	return (hist_part(h, &sp, lo, hi));
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
	struct hist_split	 sp;
	size_t			 k, n = 0, i, first, last;
	size_t			 end = (size_t)b->sym_first + b->sym_count;
	double			 outside = 0;

	v = xcalloc((size_t)b->sym_count + 2, sizeof *v);
	for (k = analyze_bucket_sym(h, b, 0); k < end;
	    k = analyze_bucket_sym(h, b, k + 1)) {
		v[n].sym = k;
		v[n].bytes = analyze_overlap(b, &h->syms[k]);
		v[n].hits = analyze_bucket_share(h, b, k);
		n++;
	}
	/* The gaps' bytes over b, their samples raw bucket by raw bucket. */
	sp.bytes = 1;
	hist_weigh(h, b, b->lo, b->hi, &sp);
	if (sp.gap_bytes != 0) {
		if (hist_raw_span(h, b, b->lo, b->hi, &first, &last)) {
			for (i = first; i <= last; i++) {
				hist_split_of(h, &h->levels[0].b[i], &sp);
				outside += hist_outside(&sp);
			}
		}
		hist_weigh(h, b, b->lo, b->hi, &sp);
		v[n].sym = SIZE_MAX;
		v[n].bytes = sp.gap_bytes;
		v[n].hits = outside;
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

/*
 * A DOS address as every view and report writes it: PSP-relative seg:off,
 * or, in a linear histogram (prfd's detail counters), the address in hex
 * (base + a: the model's addresses are the slot's offsets),
 * the segment prog_low_pa (the PSP) plus whole 64 KiB steps, so that a
 * COM program's addresses read as its CS:IP.  The linear address goes
 * beside it.
 */
char *
analyze_hist_segoff(const struct analyze_hist *h, uint64_t a)
{
	uint64_t	seg = analyze_hist_seg(h, a);

	if (h->linear)
		return (xasprintf("%012llX", (unsigned long long)(h->base +
		    a)));
	return (xasprintf("%04llX:%04llX", (unsigned long long)seg,
	    (unsigned long long)(a - seg * 16)));
}

/* The segment of that notation for address a (a paragraph). */
uint64_t
analyze_hist_seg(const struct analyze_hist *h, uint64_t a)
{
	uint64_t	base = (uint64_t)h->prf.prog_low_pa * 16;

	if (a >= base)
		return (h->prf.prog_low_pa + ((a - base) >> 16) * 0x1000);
	return ((a >> 4) & ~(uint64_t)0xfff);
}
