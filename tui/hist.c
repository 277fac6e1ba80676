/*
 * The histogram view of a PRF session: address buckets at any of the zoom
 * levels analyze/ precomputed, or the per-symbol flat profile; sorted by
 * address or hits.  Everything a frame needs is in memory: a key press
 * never runs SQL.  Enter on a bucket pushes the list of its symbols.  The
 * shares, names and orders come from analyze/; this file draws them.
 */
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "report/report.h"
#include "tui/tui.h"

struct hist {
	struct analyze_hist	  h;
	char			 *program;
	int			  flat;		/* per-symbol rows */
	int			  byhits;	/* else by address */
	size_t			  level;	/* zoom level of bucket rows */
	size_t			**order;	/* per level, rows by hits */
	uint64_t		 *max;		/* per level, largest bucket */
	double			  flatmax;
};

/* The symbols of one bucket, with their share of its hits. */
struct bsyms {
	struct hist		*hs;		/* the parent view's, below us */
	struct analyze_bucket	 b;
	struct analyze_share	*sh;		/* largest first */
	size_t			 n;
	double			 max;
};

static const struct analyze_level *
hist_lv(struct hist *hs)
{
	return (&hs->h.levels[hs->level]);
}

static size_t *
hist_order(struct hist *hs)
{
	return (hs->order[hs->level]);
}

/* The bucket or symbol index shown on row. */
static size_t
hist_item(struct hist *hs, size_t row)
{
	if (hs->flat)
		return (hs->byhits ? hs->h.flat[row] : row);
	return (hs->byhits ? hist_order(hs)[row] : row);
}

/* The row that shows item. */
static size_t
hist_row(struct hist *hs, size_t item)
{
	size_t	n, i, *o;

	if (!hs->byhits)
		return (item);
	if (hs->flat) {
		n = hs->h.nsyms;
		o = hs->h.flat;
	} else {
		n = hist_lv(hs)->n;
		o = hist_order(hs);
	}
	for (i = 0; i < n; i++) {
		if (o[i] == item)
			return (i);
	}
	return (0);
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

static void
hist_rows(struct tui_view *tv)
{
	struct hist	*hs = tv->data;

	tv->list.n = hs->flat ? hs->h.nsyms : hist_lv(hs)->n;
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

static char *
hist_title(struct tui_view *tv)
{
	struct hist	*hs = tv->data;

	if (hs->flat)
		return (xasprintf("profview: %s: flat profile, %zu symbols by"
		    " %s", hs->program, hs->h.nsyms, hs->byhits ? "hits" :
		    "address"));
	return (xasprintf("profview: %s: %zu buckets x%u by %s", hs->program,
	    hist_lv(hs)->n, hist_lv(hs)->factor, hs->byhits ? "hits" :
	    "address"));
}

static void
hist_header(struct hist *hs, int y, int w)
{
	const struct store_prf	*p = &hs->h.prf;
	int			 x;

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
	tui_putf(y + 1, x, w - x, TUI_PLAIN, "  high %llu (%.1f%%)",
	    (unsigned long long)p->hit_high, analyze_hist_pct(&hs->h,
	    (double)p->hit_high));
}

static void
hist_draw_buckets(struct tui_view *tv, int y, int w)
{
	struct hist			*hs = tv->data;
	const struct analyze_level	*lv = hist_lv(hs);
	const struct analyze_bucket	*b;
	char				 names[512];
	size_t				 i;
	int				 row, attr, rest, barw, symw, yy;
	double				 f;

	rest = w - 40;
	barw = rest > 12 ? rest / 3 : 0;
	symw = rest > 0 ? rest - barw : 0;
	for (row = 0; row < tv->list.height; row++) {
		if ((i = tv->list.top + (size_t)row) >= lv->n)
			break;
		b = &lv->b[hist_item(hs, i)];
		yy = y + row;
		attr = i == tv->list.cur ? tui_attr(TUI_C_CURSOR) : TUI_PLAIN;
		if (attr != TUI_PLAIN)
			tui_fill(yy, 0, w, attr);
		/* A coarse bucket holds thousands: only what fits. */
		analyze_bucket_names_fit(&hs->h, b, (size_t)symw, names,
		    sizeof names);
		tui_putf(yy, 0, w, attr, "%04llX:0000 %05llX-%05llX",
		    (unsigned long long)(b->lo >> 4),
		    (unsigned long long)b->lo,
		    (unsigned long long)(b->hi - 1));
		tui_put(yy, 22, symw, attr, names);
		tui_putf(yy, 22 + symw, w - 22 - symw, attr, " %9llu %6.2f%%",
		    (unsigned long long)b->hits, analyze_hist_pct(&hs->h,
		    (double)b->hits));
		f = hs->max[hs->level] != 0 ? (double)b->hits /
		    (double)hs->max[hs->level] : 0;
		tui_bar(yy, 41 + symw, barw, f, attr != TUI_PLAIN);
	}
}

static void
hist_draw_flat(struct tui_view *tv, int y, int w)
{
	struct hist		*hs = tv->data;
	const struct analyze_sym *s;
	size_t			 i;
	int			 row, attr, rest, barw, namew, yy, est, x;
	double			 f;

	rest = w - 50;
	barw = rest > 12 ? rest / 3 : 0;
	namew = rest > 0 ? rest - barw : 0;
	for (row = 0; row < tv->list.height; row++) {
		if ((i = tv->list.top + (size_t)row) >= hs->h.nsyms)
			break;
		s = &hs->h.syms[hist_item(hs, i)];
		yy = y + row;
		attr = i == tv->list.cur ? tui_attr(TUI_C_CURSOR) : TUI_PLAIN;
		if (attr != TUI_PLAIN)
			tui_fill(yy, 0, w, attr);
		tui_put(yy, 0, namew, attr, s->name);
		/* An estimate (analyze/hist.c): ~ and its bounds by its bar. */
		est = s->hits_lo != s->hits_hi;
		tui_putf(yy, namew, w - namew, attr, " %-12.12s %05llX %6llu"
		    " %9.0f%c%6.2f%%", s->module != NULL ? s->module : "",
		    (unsigned long long)s->addr, (unsigned long long)s->size,
		    s->hits, est ? '~' : ' ', analyze_hist_pct(&hs->h,
		    s->hits));
		f = hs->flatmax > 0 ? s->hits / hs->flatmax : 0;
		tui_bar(yy, namew + 45, barw, f, attr != TUI_PLAIN);
		if (est && (x = (int)(f * barw) + 2) + 14 <= barw)
			tui_putf(yy, namew + 45 + x, barw - x, attr,
			    "%.1f-%.1f%%", analyze_hist_pct(&hs->h, s->hits_lo),
			    analyze_hist_pct(&hs->h, s->hits_hi));
	}
}

static void
hist_draw(struct tui_view *tv, int y, int h, int w)
{
	struct hist	*hs = tv->data;
	int		 top = 0, rest;

	/* Small screens lose the header first, then the column names. */
	if (h >= 6) {
		hist_header(hs, y, w);
		top = 2;
	}
	if (h >= 3) {
		if (hs->flat) {
			rest = w - 50;
			rest = rest > 0 ? rest - (rest > 12 ? rest / 3 : 0) : 0;
			tui_putf(y + top, 0, w, tui_attr(TUI_C_HEADER),
			    "%-*s %-12s %5s %6s %9s %7s", rest, "symbol",
			    "module", "addr", "size", "hits", "share");
		} else {
			rest = w - 40;
			rest = rest > 0 ? rest - (rest > 12 ? rest / 3 : 0) : 0;
			tui_putf(y + top, 0, w, tui_attr(TUI_C_HEADER),
			    "%-9s %-11s %-*s %9s %7s", "seg:off", "linear",
			    rest, "symbols", "hits", "share");
		}
		top++;
	}
	tv->list.y = y + top;
	tui_list_fit(&tv->list, h - top);
	if (tv->list.n == 0) {
		tui_put(y + top, 0, w, TUI_PLAIN, hs->flat ? "No symbols: load"
		    " a map (--map FILE) to see the flat profile." :
		    "No buckets.");
		return;
	}
	if (hs->flat)
		hist_draw_flat(tv, y + top, w);
	else
		hist_draw_buckets(tv, y + top, w);
}

static struct tui_view *bsyms_new(struct hist *, const struct analyze_bucket *);

static int
hist_key(struct tui_view *tv, enum tui_action a)
{
	struct hist	*hs = tv->data;
	uint64_t	 addr = hist_cursor_addr(tv);
	size_t		 level = hs->level;

	switch (a) {
	case TUI_ACT_HIST_SORT:
		hs->byhits = !hs->byhits;
		hist_rows(tv);
		/* Sorting by hits starts at the top; by address, in place. */
		if (hs->byhits)
			tui_list_goto(&tv->list, 0);
		else
			hist_cursor_to(tv, addr);
		tui_message("sorted by %s", hs->byhits ? "hits" : "address");
		return (TUI_R_DRAW);
	case TUI_ACT_HIST_FLAT:
		hs->flat = !hs->flat;
		hist_rows(tv);
		hist_cursor_to(tv, addr);
		tui_message("%s", hs->flat ? "flat profile by symbol" :
		    "buckets");
		return (TUI_R_DRAW);
	case TUI_ACT_HIST_MERGE:
	case TUI_ACT_HIST_SPLIT:
		if (hs->flat) {
			tui_message("zoom works on buckets: press t first");
			return (TUI_R_DRAW);
		}
		if (a == TUI_ACT_HIST_MERGE && hs->level + 1 < hs->h.nlevels)
			hs->level++;
		else if (a == TUI_ACT_HIST_SPLIT && hs->level > 0)
			hs->level--;
		if (level == hs->level) {
			tui_message("zoom x%u is the %s", hist_lv(hs)->factor,
			    a == TUI_ACT_HIST_MERGE ? "coarsest" : "finest");
			return (TUI_R_DRAW);
		}
		hist_rows(tv);
		hist_cursor_to(tv, addr);
		tui_message("zoom x%u: %zu rows", hist_lv(hs)->factor,
		    hist_lv(hs)->n);
		return (TUI_R_DRAW);
	case TUI_ACT_HIST_OPEN:
		if (tv->list.n == 0)
			return (TUI_R_NONE);
		if (hs->flat) {
			/* A symbol: show where its buckets are. */
			hs->flat = 0;
			hist_rows(tv);
			hist_cursor_to(tv, addr);
			tui_message("buckets at %05llX",
			    (unsigned long long)addr);
			return (TUI_R_DRAW);
		}
		tui_push(bsyms_new(hs, &hist_lv(hs)->b[hist_item(hs,
		    tv->list.cur)]));
		return (TUI_R_DRAW);
	default:
		return (TUI_R_UNUSED);
	}
}

static int
hist_match(struct tui_view *tv, size_t row, const char *pattern)
{
	struct hist			*hs = tv->data;
	const struct analyze_bucket	*b;
	size_t				 k, end;

	if (hs->flat)
		return (tui_strcasestr(hs->h.syms[hist_item(hs, row)].name,
		    pattern));
	b = &hist_lv(hs)->b[hist_item(hs, row)];
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

static void
hist_free(struct tui_view *tv)
{
	struct hist	*hs = tv->data;
	size_t		 i;

	for (i = 0; i < hs->h.nlevels; i++)
		free(hs->order[i]);
	free(hs->order);
	free(hs->max);
	free(hs->program);
	analyze_hist_free(&hs->h);
	free(hs);
}

static const struct tui_view_ops hist_ops = {
	.name = "histogram",
	.help = "a PRF session's address buckets or flat profile",
	.draw = hist_draw,
	.key = hist_key,
	.title = hist_title,
	.match = hist_match,
	.export = hist_export,
	.free = hist_free,
};

struct tui_view *
tui_hist_new(int64_t id, char **cause)
{
	struct hist		*hs = xcalloc(1, sizeof *hs);
	struct tui_view		*tv;
	size_t			 i, k;

	if (analyze_hist_load(tui_store(), id, &hs->h, cause) != 0) {
		free(hs);
		return (NULL);
	}
	hs->program = tui_session_name(id);
	hs->order = xcalloc(hs->h.nlevels, sizeof *hs->order);
	hs->max = xcalloc(hs->h.nlevels, sizeof *hs->max);
	for (i = 0; i < hs->h.nlevels; i++) {
		for (k = 0; k < hs->h.levels[i].n; k++) {
			if (hs->h.levels[i].b[k].hits > hs->max[i])
				hs->max[i] = hs->h.levels[i].b[k].hits;
		}
	}
	for (i = 0; i < hs->h.nlevels; i++)
		hs->order[i] = analyze_level_by_hits(&hs->h.levels[i]);
	for (i = 0; i < hs->h.nsyms; i++) {
		if (hs->h.syms[i].hits > hs->flatmax)
			hs->flatmax = hs->h.syms[i].hits;
	}
	tv = tui_view_new(&hist_ops, hs);
	tv->session = id;
	hist_rows(tv);
	return (tv);
}

/* The symbols of one bucket. */

static char *
bsyms_title(struct tui_view *tv)
{
	struct bsyms	*bs = tv->data;

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
			tui_put(yy, 0, namew, attr, s->name);
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
bsyms_key(struct tui_view *tv, enum tui_action a)
{
	return (TUI_R_UNUSED);
}

static int
bsyms_match(struct tui_view *tv, size_t row, const char *pattern)
{
	struct bsyms	*bs = tv->data;

	return (bs->sh[row].sym != SIZE_MAX &&
	    tui_strcasestr(bs->hs->h.syms[bs->sh[row].sym].name, pattern));
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
	.help = "the symbols inside one bucket and their share of its hits",
	.draw = bsyms_draw,
	.key = bsyms_key,
	.title = bsyms_title,
	.match = bsyms_match,
	.export = hist_export,
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
