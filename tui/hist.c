/*
 * The histogram view of a PRF session: the per-symbol flat profile, where
 * it opens (the hot spots first, as perf report), or the address buckets
 * at any of the zoom levels analyze/ precomputed; sorted by hits or
 * address, rows without hits hidden or not, percentages of all samples
 * or of the rows listed, each row with the cumulative share down to it.
 * How the session was last shown is kept (tui_state).  Everything a
 * frame needs is in memory: a key press never runs SQL.  Enter on a
 * bucket pushes the list of its symbols.  The shares, names and orders
 * come from analyze/; this file draws them.
 *
 * Another view may open it over a model it built (tui_hist_open): the
 * slots view, a prfd slot's detail counters.  Such a histogram is
 * linear (analyze_hist.linear): addresses in hex, no DOS header, and its
 * code is x86-64 read from the slot's module when first annotated.
 */
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/hist.h"
#include "report/report.h"
#include "report/prf.h"
#include "tui/tui.h"
#include "tui/hist.h"
#include "store/prf.h"

/* The actions of its keys (tui.h: numbered from TUI_ACT_VIEW). */
enum hist_action {
	HIST_ACT_SORT = TUI_ACT_VIEW,
	HIST_ACT_FLAT,
	HIST_ACT_ZERO,
	HIST_ACT_PCT,
	HIST_ACT_MERGE,
	HIST_ACT_SPLIT,
	HIST_ACT_OPEN,
	HIST_ACT_ANNOTATE,
	BUCKET_ACT_ANNOTATE
};

static const struct tui_key hist_bind[] = {
	TUI_KEY(HIST_ACT_SORT, "s", "cycle the sort (hits, address)"),
	TUI_KEY(HIST_ACT_FLAT, "t", "buckets or per-symbol flat profile"),
	TUI_KEY(HIST_ACT_ZERO, "z", "hide or show the rows without hits"),
	TUI_KEY(HIST_ACT_PCT, "%",
	    "percentages of all samples or of the rows listed"),
	TUI_KEY(HIST_ACT_MERGE, "+", "merge adjacent buckets (zoom out)"),
	TUI_KEY(HIST_ACT_SPLIT, "-", "split merged buckets (zoom in)"),
	TUI_KEY(HIST_ACT_OPEN, "Enter",
	    "the symbols in the bucket; on a symbol, its annotation"),
	TUI_KEY(HIST_ACT_ANNOTATE, "a",
	    "annotate the symbol, or the code in the bucket"),
};
static const struct tui_keys hist_keys = TUI_KEYS("histogram",
    "In the histogram", hist_bind);

static const struct tui_key bucket_bind[] = {
	TUI_KEY(BUCKET_ACT_ANNOTATE, "Enter a", "annotate the symbol"),
};
static const struct tui_keys bucket_keys = TUI_KEYS("bucket",
    "In a bucket's symbols", bucket_bind);

struct hist {
	struct analyze_hist	  h;
	char			 *program;
	char			 *key;		/* file's SHA-256 (tui_state) */
	int			  flat;		/* per-symbol rows */
	int			  byhits;	/* else by address */
	int			  nozero;	/* rows without hits out */
	int			  oflisted;	/* % of rows listed, else of
						   every sample */
	size_t			  level;	/* zoom level of bucket rows */
	size_t			**order;	/* per level, rows by hits */
	uint64_t		 *max;		/* per level, largest bucket */
	double			  flatmax;
	size_t			  estimates;	/* symbols estimated */

	/* The rows listed (hist_rows): each one's item, hits down to it. */
	size_t			 *rows;
	double			 *cum;
	size_t			  nrows;
	double			  listed;	/* hits of all of them */
	char			 *head[2];	/* the header's lines, or NULL:
						   the PRF header */
};

/* The symbols of one bucket, with their share of its hits. */
struct bsyms {
	struct hist		*hs;		/* the parent view's, below us */
	struct analyze_bucket	 b;
	struct analyze_share	*sh;		/* largest first */
	size_t			 n;
	double			 max;
};

/*
 * Where the flat profile's columns go, share first as in perf report,
 * the name last to take what is left; the bounds of estimated shares
 * where the name keeps HIST_NAMEW columns.
 */
#define HIST_FIXED	53	/* share, cum, hits, seg:off, size, module */
#define HIST_BOUNDS	14	/* " 12.34-56.78", 100.00 at most */
#define HIST_NAMEW	12

static const struct analyze_level *
hist_lv(struct hist *hs)
{
	return (analyze_hist_level(&hs->h, hs->level));
}

/*
 * Whether the search's address is in [lo, hi) of the model: a linear
 * model's addresses are offsets from its base, a search's are not.
 */
static int
hist_search_in(const struct tui_view *tv, const struct analyze_hist *h,
    uint64_t lo, uint64_t hi)
{
	return (tui_search_in(&tv->search, lo + h->base, hi + h->base));
}

/*
 * The current level's rows by hits and its largest count, made when the
 * level is first shown: sorting every level at open cost a 65535-bucket
 * session a third of its first frame.
 */
static void
hist_level_ready(struct hist *hs)
{
	const struct analyze_level	*lv = hist_lv(hs);
	size_t				 k;

	if (hs->order[hs->level] != NULL)
		return;
	hs->order[hs->level] = analyze_level_by_hits(lv);
	for (k = 0; k < lv->n; k++) {
		if (lv->b[k].hits > hs->max[hs->level])
			hs->max[hs->level] = lv->b[k].hits;
	}
}

static size_t *
hist_order(struct hist *hs)
{
	hist_level_ready(hs);
	return (hs->order[hs->level]);
}

static uint64_t
hist_max(struct hist *hs)
{
	hist_level_ready(hs);
	return (hs->max[hs->level]);
}

/* The bucket or symbol index shown on row. */
static size_t
hist_item(struct hist *hs, size_t row)
{
	return (hs->rows[row]);
}

static double
hist_hits(struct hist *hs, size_t item)
{
	if (hs->flat)
		return (hs->h.syms[item].hits);
	return ((double)hist_lv(hs)->b[item].hits);
}

/* A row z leaves out: no hits, and (a symbol) none it may have had. */
static int
hist_zero(struct hist *hs, size_t item)
{
	if (hs->flat)
		return (hs->h.syms[item].hits == 0 &&
		    hs->h.syms[item].hits_hi == 0);
	return (hist_lv(hs)->b[item].hits == 0);
}

/* hits as a percentage of what % says is the whole. */
static double
hist_pct(struct hist *hs, double hits)
{
	if (hs->oflisted)
		return (hs->listed > 0 ? 100.0 * hits / hs->listed : 0.0);
	return (analyze_hist_pct(&hs->h, hits));
}

/*
 * The row that shows item; one that z leaves out gives the next row in
 * address order, or the first by hits.
 */
static size_t
hist_row(struct hist *hs, size_t item)
{
	size_t	r;

	for (r = 0; r < hs->nrows; r++) {
		if (hs->rows[r] == item || (!hs->byhits && hs->rows[r] > item))
			return (r);
	}
	return (hs->byhits || hs->nrows == 0 ? 0 : hs->nrows - 1);
}

/* The first symbol that overlaps bucket b, or the nearest one. */
static size_t
hist_sym_at(struct hist *hs, const struct analyze_bucket *b)
{
	size_t	k = analyze_bucket_sym(&hs->h, b, 0);

	if (k < (size_t)b->sym_first + b->sym_count)
		return (k);
	return (b->sym_first < hs->h.nsyms ? b->sym_first : 0);
}

/* List the rows of the view, sort and filter of the moment. */
static void
hist_rows(struct tui_view *tv)
{
	struct hist	*hs = tv->data;
	size_t		 n, i, k, *o;
	double		 sum = 0;

	n = hs->flat ? hs->h.nsyms : hist_lv(hs)->n;
	o = !hs->byhits ? NULL : hs->flat ? hs->h.flat : hist_order(hs);
	hs->rows = xreallocarray(hs->rows, n + 1, sizeof *hs->rows);
	hs->cum = xreallocarray(hs->cum, n + 1, sizeof *hs->cum);
	hs->nrows = 0;
	for (i = 0; i < n; i++) {
		k = o != NULL ? o[i] : i;
		if (hs->nozero && hist_zero(hs, k))
			continue;
		sum += hist_hits(hs, k);
		hs->rows[hs->nrows] = k;
		hs->cum[hs->nrows++] = sum;
	}
	hs->listed = sum;
	tv->list.n = hs->nrows;
	tv->search.stale = 1;
}

/* The address the cursor is on, to keep it there across changes. */
static uint64_t
hist_cursor_addr(struct tui_view *tv)
{
	struct hist	*hs = tv->data;

	if (tv->list.n == 0)
		return (0);
	if (hs->flat)
		return (hs->h.syms[hist_item(hs, tv->list.cur)].addr);
	return (hist_lv(hs)->b[hist_item(hs, tv->list.cur)].lo);
}

static void
hist_cursor_to(struct tui_view *tv, uint64_t addr)
{
	struct hist	*hs = tv->data;
	size_t		 item;

	if (tv->list.n == 0)
		return;
	if (hs->flat)
		item = hist_sym_at(hs, &hist_lv(hs)->b[analyze_level_at(
		    hist_lv(hs), addr)]);
	else
		item = analyze_level_at(hist_lv(hs), addr);
	tui_list_goto(&tv->list, hist_row(hs, item));
}

/*
 * The view, sort, filter, percentages and zoom, kept for the session
 * (tui_state) so that it opens again as it was left.
 */
static void
hist_save(struct hist *hs)
{
	char	*s;

	s = xasprintf("view=%s sort=%s zero=%s pct=%s zoom=%zu",
	    hs->flat ? "flat" : "buckets", hs->byhits ? "hits" : "address",
	    hs->nozero ? "hide" : "show", hs->oflisted ? "listed" : "all",
	    hs->level);
	tui_state_put(hs->key, s);
	free(s);
}

/*
 * What hist_save kept, else the hot spots first: the flat profile by
 * hits, as perf report opens (the buckets by hits without symbols).
 */
static void
hist_restore(struct hist *hs)
{
	char		*s, *w, *save;
	unsigned long	 z;

	hs->flat = hs->h.nsyms != 0;
	hs->byhits = 1;
	if ((s = tui_state_get(hs->key)) == NULL)
		return;
	for (w = strtok_r(s, " ", &save); w != NULL;
	    w = strtok_r(NULL, " ", &save)) {
		if (strncmp(w, "view=", 5) == 0)
			hs->flat = strcmp(w + 5, "flat") == 0 &&
			    hs->h.nsyms != 0;
		else if (strncmp(w, "sort=", 5) == 0)
			hs->byhits = strcmp(w + 5, "address") != 0;
		else if (strncmp(w, "zero=", 5) == 0)
			hs->nozero = strcmp(w + 5, "hide") == 0;
		else if (strncmp(w, "pct=", 4) == 0)
			hs->oflisted = strcmp(w + 4, "listed") == 0;
		else if (strncmp(w, "zoom=", 5) == 0 &&
		    (z = strtoul(w + 5, NULL, 10)) < hs->h.nlevels)
			hs->level = z;
	}
	free(s);
}

static char *
hist_title(struct tui_view *tv)
{
	struct hist	*hs = tv->data;
	char		*n, *t;

	if (hs->flat)
		n = hs->nozero ? xasprintf("%zu of %zu symbols", hs->nrows,
		    hs->h.nsyms) : xasprintf("%zu symbols", hs->nrows);
	else
		n = hs->nozero ? xasprintf("%zu of %zu buckets x%u",
		    hs->nrows, hist_lv(hs)->n, hist_lv(hs)->factor) :
		    xasprintf("%zu buckets x%u", hs->nrows,
		    hist_lv(hs)->factor);
	t = xasprintf("profview: %s: %s%s by %s%s", hs->program, hs->flat ?
	    "flat profile, " : "", n, hs->byhits ? "hits" : "address",
	    hs->oflisted ? ", % of those listed" : "");
	free(n);
	return (t);
}

static void
hist_header(struct hist *hs, int y, int w)
{
	const struct store_prf	*p = &hs->h.prf;
	int			 x;

	if (hs->head[0] != NULL) {
		tui_put(y, 0, w, A_BOLD, hs->head[0]);
		tui_put(y + 1, 0, w, TUI_PLAIN, hs->head[1]);
		return;
	}
	tui_putf(y, 0, w, A_BOLD, "%s  grain %u us  bucket %u para (%u bytes)"
	    "  %llu samples%s", hs->program, p->clock_grain, p->bucket_siz,
	    p->bucket_siz * 16, (unsigned long long)hs->h.total,
	    p->saturated ? "  (saturated)" : "");
	x = tui_putf(y + 1, 0, w, TUI_PLAIN, "program %llu (%.1f%%)",
	    (unsigned long long)hs->h.in_program,
	    analyze_hist_pct(&hs->h, (double)hs->h.in_program));
	x += tui_putf(y + 1, x, w - x, p->hit_io ? tui_attr(TUI_C_ERROR) :
	    TUI_PLAIN, "  I/O %llu (%.1f%%)", (unsigned long long)p->hit_io,
	    analyze_hist_pct(&hs->h, (double)p->hit_io));
	x += tui_putf(y + 1, x, w - x, TUI_PLAIN, "  DOS %llu (%.1f%%)",
	    (unsigned long long)p->hit_dos, analyze_hist_pct(&hs->h,
	    (double)p->hit_dos));
	x += tui_putf(y + 1, x, w - x, TUI_PLAIN, "  high %llu (%.1f%%)",
	    (unsigned long long)p->hit_high, analyze_hist_pct(&hs->h,
	    (double)p->hit_high));
	/* What the flat profile's ~ means, where there is one. */
	if (hs->flat && hs->estimates != 0 && x + 15 <= w)
		tui_put(y + 1, x, w - x, TUI_PLAIN, "  ~ estimated");
}

/* Columns of the bucket names: the bar takes a third of the rest. */
static int
hist_symw(int w)
{
	int	rest = w - 49;

	return (rest > 0 ? rest - (rest > 12 ? rest / 3 : 0) : 0);
}

static void
hist_draw_buckets(struct tui_view *tv, int y, int w)
{
	struct hist			*hs = tv->data;
	const struct analyze_level	*lv = hist_lv(hs);
	const struct analyze_bucket	*b;
	const char			*marks = tui_search_marks(tv);
	char				 names[512], share[16], cum[16];
	char				*segoff;
	size_t				 i;
	int				 row, attr, symw, yy;
	double				 f;

	symw = hist_symw(w);
	for (row = 0; row < tv->list.height; row++) {
		if ((i = tv->list.top + (size_t)row) >= hs->nrows)
			break;
		b = &lv->b[hist_item(hs, i)];
		yy = y + row;
		attr = i == tv->list.cur ? tui_attr(TUI_C_CURSOR) : TUI_PLAIN;
		if (attr != TUI_PLAIN)
			tui_fill(yy, 0, w, attr);
		/* A coarse bucket holds thousands: only what fits. */
		analyze_bucket_names_fit(&hs->h, b, (size_t)symw, names,
		    sizeof names);
		/* seg:off from the PSP, as the reports write it. */
		segoff = analyze_hist_segoff(&hs->h, b->lo);
		if (hs->h.linear)
			tui_putf(yy, 0, w, marks != NULL && hist_search_in(tv,
			    &hs->h, b->lo, b->hi) ? tui_attr(TUI_C_MATCH) :
			    attr, "%s +%07llX", segoff, (unsigned long long)
			    b->lo);
		else
			tui_putf(yy, 0, w, marks != NULL && hist_search_in(tv,
			    &hs->h, b->lo, b->hi) ? tui_attr(TUI_C_MATCH) :
			    attr, "%s %05llX-%05llX", segoff,
			    (unsigned long long)b->lo,
			    (unsigned long long)(b->hi - 1));
		free(segoff);
		tui_put_marks(yy, 22, symw, attr, names, marks);
		snprintf(share, sizeof share, "%.2f%%", hist_pct(hs,
		    (double)b->hits));
		snprintf(cum, sizeof cum, "%.2f%%", hist_pct(hs, hs->cum[i]));
		tui_putf(yy, 22 + symw, w - 22 - symw, attr, " %9llu %7s %7s",
		    (unsigned long long)b->hits, share, cum);
		f = hist_max(hs) != 0 ? (double)b->hits /
		    (double)hist_max(hs) : 0;
		tui_bar(yy, 49 + symw, w - 49 - symw, f, attr != TUI_PLAIN);
	}
}

/* Whether the flat profile has room for the bounds of its estimates. */
static int
hist_bounds(struct hist *hs, int w)
{
	return (hs->estimates != 0 && w - HIST_FIXED - HIST_BOUNDS >=
	    HIST_NAMEW);
}

/* One symbol's row: its share (~ when estimated), heat-coloured. */
static void
hist_draw_sym(struct tui_view *tv, size_t i, int yy, int w, int attr)
{
	struct hist			*hs = tv->data;
	const struct analyze_sym	*s = &hs->h.syms[hist_item(hs, i)];
	const char			*marks = tui_search_marks(tv);
	char				 share[16], bounds[32], *segoff;
	int				 x, hasb, est;

	hasb = hist_bounds(hs, w);
	est = s->hits_lo != s->hits_hi;
	snprintf(share, sizeof share, "%s%.2f%%", est ? "~" : "",
	    hist_pct(hs, s->hits));
	x = tui_putf(yy, 0, w, attr != TUI_PLAIN ? attr :
	    tui_attr(tui_heat(hs->flatmax > 0 ? s->hits / hs->flatmax : 0)),
	    "%8s", share);
	x += tui_putf(yy, x, w - x, attr, " %6.2f%% %9.0f", hist_pct(hs,
	    hs->cum[i]), s->hits);
	if (hasb) {
		bounds[0] = '\0';
		if (est)
			snprintf(bounds, sizeof bounds, "%.2f-%.2f",
			    hist_pct(hs, s->hits_lo), hist_pct(hs,
			    s->hits_hi));
		x += tui_putf(yy, x, w - x, attr, " %13.13s", bounds);
	}
	x += tui_put(yy, x, w - x, attr, " ");
	segoff = analyze_hist_segoff(&hs->h, s->addr);
	x += tui_putf(yy, x, w - x, marks != NULL && hist_search_in(tv,
	    &hs->h, s->addr, s->addr + (s->size != 0 ? s->size : 1)) ?
	    tui_attr(TUI_C_MATCH) : attr, "%s", segoff);
	free(segoff);
	x += tui_putf(yy, x, w - x, attr, " %5llu ", (unsigned long long)
	    s->size);
	tui_fill(yy, x, 8, attr);
	tui_put_marks(yy, x, 8, attr, s->module != NULL ? s->module : "",
	    marks);
	x += 9;
	tui_put_marks(yy, x, w - x, attr, s->name, marks);
}

static void
hist_draw_flat(struct tui_view *tv, int y, int w)
{
	struct hist	*hs = tv->data;
	size_t		 i;
	int		 row, attr;

	for (row = 0; row < tv->list.height; row++) {
		if ((i = tv->list.top + (size_t)row) >= hs->nrows)
			break;
		attr = i == tv->list.cur ? tui_attr(TUI_C_CURSOR) : TUI_PLAIN;
		if (attr != TUI_PLAIN)
			tui_fill(y + row, 0, w, attr);
		hist_draw_sym(tv, i, y + row, w, attr);
	}
}

static void
hist_draw(struct tui_view *tv, int y, int h, int w)
{
	struct hist	*hs = tv->data;
	int		 top = 0, hasb;

	/* Small screens lose the header first, then the column names. */
	if (h >= 6) {
		hist_header(hs, y, w);
		top = 2;
	}
	if (h >= 3) {
		if (hs->flat) {
			hasb = hist_bounds(hs, w);
			tui_putf(y + top, 0, w, tui_attr(TUI_C_HEADER),
			    "%8s %7s %9s%s%s %-*s %5s %-8s %s", "share", "cum",
			    "hits", hasb ? " " : "", hasb ? "     bounds %" : "",
			    hs->h.linear ? 12 : 9, hs->h.linear ? "address" :
			    "seg:off", "size", "module", "symbol");
		} else
			tui_putf(y + top, 0, w, tui_attr(TUI_C_HEADER),
			    "%-*s %-*s %-*s %9s %7s %7s", hs->h.linear ? 12 : 9,
			    hs->h.linear ? "address" : "seg:off",
			    hs->h.linear ? 8 : 11, hs->h.linear ? "offset" :
			    "linear", hist_symw(w), "symbols", "hits", "share",
			    "cum");
		top++;
	}
	tv->list.y = y + top;
	tui_list_fit(&tv->list, h - top);
	if (tv->list.n == 0) {
		tui_put(y + top, 0, w, TUI_PLAIN, hs->flat ? "No symbols: load"
		    " a map (--map FILE) to see the flat profile." :
		    hs->nozero ? "No bucket has hits (z shows them all)." :
		    "No buckets.");
		return;
	}
	if (hs->flat)
		hist_draw_flat(tv, y + top, w);
	else
		hist_draw_buckets(tv, y + top, w);
}

static struct tui_view *bsyms_new(struct hist *, const struct analyze_bucket *);

/* Push the annotate view of symbol k, over tv. */
static int
hist_annotate_sym(struct tui_view *tv, const struct analyze_hist *h,
    size_t k)
{
	struct tui_view	*v;
	uint64_t	 lo, hi;
	char		*cause = NULL;

	analyze_annotate_sym_range(h, k, &lo, &hi);
	if ((v = tui_annotate_new(tv, lo, hi, lo, hi, h->syms[k].name,
	    &cause)) == NULL) {
		tui_message("error: %s", cause);
		free(cause);
		return (TUI_R_DRAW);
	}
	tui_push(v);
	return (TUI_R_DRAW);
}

/*
 * Push the annotate view of the code in bucket b: the symbols it
 * overlaps, whole, and its bytes outside them; the bucket alone when
 * they would make more than one view holds.
 */
static int
hist_annotate_bucket(struct tui_view *tv, struct hist *hs,
    const struct analyze_bucket *b)
{
	struct tui_view	*v;
	uint64_t	 lo = b->lo, hi = b->hi;
	size_t		 k, end = (size_t)b->sym_first + b->sym_count;
	char		*cause = NULL, *name, *segoff;

	for (k = analyze_bucket_sym(&hs->h, b, 0); k < end;
	    k = analyze_bucket_sym(&hs->h, b, k + 1)) {
		if (hs->h.syms[k].addr < lo)
			lo = hs->h.syms[k].addr;
		if (hs->h.syms[k].addr + hs->h.syms[k].size > hi)
			hi = hs->h.syms[k].addr + hs->h.syms[k].size;
	}
	if (hi - lo > ANALYZE_ANNOTATE_MAX) {
		lo = b->lo;
		hi = b->hi;
	}
	segoff = analyze_hist_segoff(&hs->h, b->lo);
	name = xasprintf("bucket %s", segoff);
	free(segoff);
	v = tui_annotate_new(tv, lo, hi, b->lo, b->hi, name, &cause);
	free(name);
	if (v == NULL) {
		tui_message("error: %s", cause);
		free(cause);
		return (TUI_R_DRAW);
	}
	tui_push(v);
	return (TUI_R_DRAW);
}

static int
hist_key(struct tui_view *tv, int a)
{
	struct hist	*hs = tv->data;
	uint64_t	 addr = hist_cursor_addr(tv);
	size_t		 level = hs->level;

	switch (a) {
	case HIST_ACT_SORT:
		hs->byhits = !hs->byhits;
		hist_rows(tv);
		/* Sorting by hits starts at the top; by address, in place. */
		if (hs->byhits)
			tui_list_goto(&tv->list, 0);
		else
			hist_cursor_to(tv, addr);
		hist_save(hs);
		tui_message("sorted by %s", hs->byhits ? "hits" : "address");
		return (TUI_R_DRAW);
	case HIST_ACT_FLAT:
		hs->flat = !hs->flat;
		hist_rows(tv);
		hist_cursor_to(tv, addr);
		hist_save(hs);
		tui_message("%s", hs->flat ? "flat profile by symbol" :
		    "buckets");
		return (TUI_R_DRAW);
	case HIST_ACT_ZERO:
		hs->nozero = !hs->nozero;
		hist_rows(tv);
		hist_cursor_to(tv, addr);
		hist_save(hs);
		tui_message("%s", hs->nozero ? "rows without hits hidden" :
		    "rows without hits shown");
		return (TUI_R_DRAW);
	case HIST_ACT_PCT:
		hs->oflisted = !hs->oflisted;
		hist_save(hs);
		if (hs->oflisted)
			tui_message("percentages of the %.0f hits listed",
			    hs->listed);
		else
			tui_message("percentages of all %llu samples",
			    (unsigned long long)hs->h.total);
		return (TUI_R_DRAW);
	case HIST_ACT_MERGE:
	case HIST_ACT_SPLIT:
		if (hs->flat) {
			tui_message("zoom works on buckets: press t first");
			return (TUI_R_DRAW);
		}
		if (a == HIST_ACT_MERGE && hs->level + 1 < hs->h.nlevels)
			hs->level++;
		else if (a == HIST_ACT_SPLIT && hs->level > 0)
			hs->level--;
		if (level == hs->level) {
			tui_message("zoom x%u is the %s", hist_lv(hs)->factor,
			    a == HIST_ACT_MERGE ? "coarsest" : "finest");
			return (TUI_R_DRAW);
		}
		hist_rows(tv);
		hist_cursor_to(tv, addr);
		hist_save(hs);
		tui_message("zoom x%u: %zu rows", hist_lv(hs)->factor,
		    hs->nrows);
		return (TUI_R_DRAW);
	case HIST_ACT_OPEN:
	case HIST_ACT_ANNOTATE:
		if (tv->list.n == 0)
			return (TUI_R_NONE);
		/* A symbol: its instructions, as perf report's Enter. */
		if (hs->flat)
			return (hist_annotate_sym(tv, &hs->h,
			    hist_item(hs, tv->list.cur)));
		if (a == HIST_ACT_ANNOTATE)
			return (hist_annotate_bucket(tv, hs,
			    &hist_lv(hs)->b[hist_item(hs, tv->list.cur)]));
		tui_push(bsyms_new(hs, &hist_lv(hs)->b[hist_item(hs,
		    tv->list.cur)]));
		return (TUI_R_DRAW);
	default:
		return (TUI_R_UNUSED);
	}
}

/* Names (and modules), and addresses inside the row's range. */
static int
hist_match(struct tui_view *tv, size_t row, const char *pattern)
{
	struct hist			*hs = tv->data;
	const struct analyze_bucket	*b;
	const struct analyze_sym	*s;
	size_t				 k, end;

	if (hs->flat) {
		s = &hs->h.syms[hist_item(hs, row)];
		return (tui_strcasestr(s->name, pattern) ||
		    tui_strcasestr(s->module, pattern) ||
		    hist_search_in(tv, &hs->h, s->addr, s->addr +
		    (s->size != 0 ? s->size : 1)));
	}
	b = &hist_lv(hs)->b[hist_item(hs, row)];
	if (hist_search_in(tv, &hs->h, b->lo, b->hi))
		return (1);
	end = (size_t)b->sym_first + b->sym_count;
	for (k = analyze_bucket_sym(&hs->h, b, 0); k < end;
	    k = analyze_bucket_sym(&hs->h, b, k + 1)) {
		if (tui_strcasestr(hs->h.syms[k].name, pattern))
			return (1);
	}
	return (0);
}

/*
 * The rows the view shows: the flat profile, or the buckets at the zoom
 * level on screen (the whole session's report is :export from the
 * sessions view, or profview export).
 */
static int
hist_export(struct tui_view *tv, int format, FILE *f, char **cause)
{
	struct hist	*hs = tv->data;

	return (report_hist(&hs->h, hs->level, hs->flat ? REPORT_HIST_FLAT : 0,
	    format, f, cause));
}

/* The views this one opens (annotate) draw from its model. */
static const void *
hist_model(struct tui_view *tv)
{
	return (&((struct hist *)tv->data)->h);
}

static void
hist_free(struct tui_view *tv)
{
	struct hist	*hs = tv->data;
	size_t		 i;

	for (i = 0; i < hs->h.nlevels; i++)
		free(hs->order[i]);
	free(hs->order);
	free(hs->max);
	free(hs->rows);
	free(hs->cum);
	free(hs->program);
	free(hs->key);
	free(hs->head[0]);
	free(hs->head[1]);
	analyze_hist_free(&hs->h);
	free(hs);
}

static const struct tui_view_ops hist_ops = {
	.name = "histogram",
	.keys = &hist_keys,
	.help = "a PRF session's flat profile or address buckets",
	.draw = hist_draw,
	.key = hist_key,
	.title = hist_title,
	.match = hist_match,
	.export = hist_export,
	.model = hist_model,
	.free = hist_free,
};

/* What a view over a loaded model keeps beside it, and its state. */
static void
hist_setup(struct hist *hs)
{
	size_t	i;

	hs->order = xcalloc(hs->h.nlevels, sizeof *hs->order);
	hs->max = xcalloc(hs->h.nlevels, sizeof *hs->max);
	for (i = 0; i < hs->h.nsyms; i++) {
		if (hs->h.syms[i].hits > hs->flatmax)
			hs->flatmax = hs->h.syms[i].hits;
		hs->estimates += hs->h.syms[i].hits_lo !=
		    hs->h.syms[i].hits_hi;
	}
	hist_restore(hs);
}

static struct tui_view *
hist_open(int64_t id, char **cause)
{
	struct hist		*hs = xcalloc(1, sizeof *hs);
	struct store_session	 ss;
	struct tui_view		*tv;

	if (analyze_hist_load(tui_store(), id, &hs->h, cause) != 0) {
		free(hs);
		return (NULL);
	}
	hs->program = tui_session_name(id);
	hs->key = xstrdup("");
	if (store_session_get(tui_store(), id, &ss) == 0) {
		free(hs->key);
		hs->key = xstrdup(ss.sha256);
		store_session_free(&ss);
	}
	hist_setup(hs);
	tv = tui_view_new(&hist_ops, hs);
	tv->session = id;
	hist_rows(tv);
	return (tv);
}

/*
 * A histogram over h, a model another view built (prfd's slot detail
 * counters), which the view takes; program names it in the title, key
 * is what its state is kept under, head0 and head1 its header's lines
 * (taken too), and the cursor starts on the row of address at.
 */
struct tui_view *
tui_hist_open(struct analyze_hist *h, int64_t id, const char *program,
    const char *key, char *head0, char *head1, uint64_t at)
{
	struct hist	*hs = xcalloc(1, sizeof *hs);
	struct tui_view	*tv;
	size_t		 i;

	hs->h = *h;
	memset(h, 0, sizeof *h);
	hs->program = xstrdup(program);
	hs->key = xstrdup(key);
	hs->head[0] = head0;
	hs->head[1] = head1;
	hist_setup(hs);
	/* Asked for a symbol's place: the flat profile shows it. */
	if (at != UINT64_MAX && hs->h.nsyms != 0)
		hs->flat = 1;
	tv = tui_view_new(&hist_ops, hs);
	tv->session = id;
	hist_rows(tv);
	if (at == UINT64_MAX)
		return (tv);
	/* A symbol of the flat profile exactly, else the row holding at. */
	for (i = 0; hs->flat && i < hs->h.nsyms; i++) {
		if (hs->h.syms[i].addr == at) {
			tui_list_goto(&tv->list, hist_row(hs, i));
			return (tv);
		}
	}
	hist_cursor_to(tv, at);
	return (tv);
}

/* The symbols of one bucket. */

static char *
bsyms_title(struct tui_view *tv)
{
	struct bsyms	*bs = tv->data;

	if (bs->hs->h.linear)
		return (xasprintf("profview: %s: bucket %012llX-%012llX, %llu"
		    " hits in %zu part%s", bs->hs->program,
		    (unsigned long long)(bs->hs->h.base + bs->b.lo),
		    (unsigned long long)(bs->hs->h.base + bs->b.hi - 1),
		    (unsigned long long)bs->b.hits, bs->n, bs->n == 1 ? "" :
		    "s"));
	return (xasprintf("profview: %s: bucket %05llX-%05llX, %llu hits in"
	    " %zu part%s", bs->hs->program, (unsigned long long)bs->b.lo,
	    (unsigned long long)(bs->b.hi - 1),
	    (unsigned long long)bs->b.hits, bs->n, bs->n == 1 ? "" : "s"));
}

static void
bsyms_draw(struct tui_view *tv, int y, int h, int w)
{
	struct bsyms			*bs = tv->data;
	const struct analyze_share	*sh;
	const struct analyze_sym	*s;
	size_t				 i;
	int				 row, attr, namew, barw, rest, yy;

	rest = w - 48;
	barw = rest > 12 ? rest / 3 : 0;
	namew = rest > 0 ? rest - barw : 0;
	tui_putf(y, 0, w, tui_attr(TUI_C_HEADER), "%-*s %-12s %5s %6s %10s"
	    " %8s", namew, "symbol", "module", "addr", "bytes", "hits",
	    "of bucket");
	tv->list.y = y + 1;
	tui_list_fit(&tv->list, h - 1);
	for (row = 0; row < tv->list.height; row++) {
		if ((i = tv->list.top + (size_t)row) >= bs->n)
			break;
		yy = y + 1 + row;
		attr = i == tv->list.cur ? tui_attr(TUI_C_CURSOR) : TUI_PLAIN;
		if (attr != TUI_PLAIN)
			tui_fill(yy, 0, w, attr);
		sh = &bs->sh[i];
		if (sh->sym == SIZE_MAX) {
			tui_put(yy, 0, namew, attr, "(outside symbols)");
			tui_putf(yy, namew, w - namew, attr, " %-12s %5s %6llu",
			    "", "", (unsigned long long)sh->bytes);
		} else {
			s = &bs->hs->h.syms[sh->sym];
			tui_put_marks(yy, 0, namew, attr, s->name,
			    tui_search_marks(tv));
			tui_putf(yy, namew, w - namew, attr, " %-12.12s %05llX"
			    " %6llu", s->module != NULL ? s->module : "",
			    (unsigned long long)s->addr,
			    (unsigned long long)sh->bytes);
		}
		tui_putf(yy, namew + 26, w - namew - 26, attr, " %10.1f %7.2f%%",
		    sh->hits, analyze_bucket_pct(&bs->b, sh->hits));
		tui_bar(yy, namew + 47, barw, bs->max > 0 ? sh->hits /
		    bs->max : 0, attr != TUI_PLAIN);
	}
}

static int
bsyms_key(struct tui_view *tv, int a)
{
	struct bsyms	*bs = tv->data;

	if (a != BUCKET_ACT_ANNOTATE || tv->list.n == 0)
		return (TUI_R_UNUSED);
	if (bs->sh[tv->list.cur].sym == SIZE_MAX) {
		tui_message("no symbol: a on the bucket in the histogram"
		    " annotates these bytes");
		return (TUI_R_DRAW);
	}
	return (hist_annotate_sym(tv, &bs->hs->h, bs->sh[tv->list.cur].sym));
}

static const void *
bsyms_model(struct tui_view *tv)
{
	return (&((struct bsyms *)tv->data)->hs->h);
}

/* The histogram's rows, as :export from the histogram writes them. */
static int
bsyms_export(struct tui_view *tv, int format, FILE *f, char **cause)
{
	struct hist	*hs = ((struct bsyms *)tv->data)->hs;

	return (report_hist(&hs->h, hs->level, hs->flat ? REPORT_HIST_FLAT :
	    0, format, f, cause));
}

static int
bsyms_match(struct tui_view *tv, size_t row, const char *pattern)
{
	struct bsyms			*bs = tv->data;
	const struct analyze_sym	*s;

	if (bs->sh[row].sym == SIZE_MAX)
		return (0);
	s = &bs->hs->h.syms[bs->sh[row].sym];
	return (tui_strcasestr(s->name, pattern) ||
	    tui_strcasestr(s->module, pattern) || hist_search_in(tv,
	    &bs->hs->h, s->addr, s->addr + (s->size != 0 ? s->size : 1)));
}

static void
bsyms_free(struct tui_view *tv)
{
	struct bsyms	*bs = tv->data;

	free(bs->sh);
	free(bs);
}

static const struct tui_view_ops bsyms_ops = {
	.name = "bucket",
	.keys = &bucket_keys,
	.help = "the symbols inside one bucket and their share of its hits",
	.draw = bsyms_draw,
	.key = bsyms_key,
	.title = bsyms_title,
	.match = bsyms_match,
	.export = bsyms_export,
	.model = bsyms_model,
	.free = bsyms_free,
};

static struct tui_view *
bsyms_new(struct hist *hs, const struct analyze_bucket *b)
{
	struct bsyms	*bs = xcalloc(1, sizeof *bs);
	struct tui_view	*tv;

	bs->hs = hs;
	bs->b = *b;
	bs->n = analyze_bucket_shares(&hs->h, b, &bs->sh);
	bs->max = bs->n != 0 ? bs->sh[0].hits : 0;
	tv = tui_view_new(&bsyms_ops, bs);
	tv->session = hs->h.session;
	tv->list.n = bs->n;
	return (tv);
}

static const struct tui_keys *const hist_groups[] = {
	&hist_keys, &bucket_keys, &tui_keys_annotate, NULL
};

const struct tui_mode tui_mode_hist = {
	.open = hist_open,
	.keys = hist_groups,
	.what = "the histogram",
};
