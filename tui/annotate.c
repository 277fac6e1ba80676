/*
 * The annotate view, as perf annotate: a symbol's instructions (or the
 * code of a bucket) disassembled from the image stored with the session,
 * each with its samples and their share, Tab to the next hottest, the
 * listing's source lines above their instructions (s), Enter on a jump
 * or call to its target.  The analysis (analyze/annotate.c) works on the
 * parent view's model, so the numbers are the flat profile's.
 *
 * A linear model (a prfd slot's histogram, or a pvtrace profile's module,
 * which the view owns: tui_annotate_own) is x86-64 code: the first
 * annotation of a function keeps its bytes and DWARF lines from its
 * module in the store (ingest/code.c), refused when the module's
 * build-id is not the profile's; later ones, and the session after the
 * module changed, read what was kept.  A jump or call to another
 * function names it, as objdump does.
 *
 * What is not known is not shown: without a hit table a bucket's samples
 * are known per bucket, so the bucket gets a row of its own with them
 * (its part of the range an estimate, marked ~) and the instructions get
 * none; a sample inside an instruction is counted in it and marked *.
 */
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "bsearch.h"
#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/hist.h"
#include "ingest/ingest.h"
#include "report/report.h"
#include "report/prf.h"
#include "tui/tui.h"
#include "tui/hist.h"

/* The actions of its keys (tui.h: numbered from TUI_ACT_VIEW). */
enum annotate_action {
	ANN_ACT_HOT_NEXT = TUI_ACT_VIEW,
	ANN_ACT_HOT_PREV,
	ANN_ACT_SOURCE,
	ANN_ACT_PCT,
	ANN_ACT_FOLLOW
};

static const struct tui_key annotate_bind[] = {
	TUI_KEY(ANN_ACT_HOT_NEXT, "Tab",
	    "the next hottest instruction (bucket without a hit table)"),
	TUI_KEY(ANN_ACT_HOT_PREV, "S-Tab", "the previous hottest one"),
	TUI_KEY(ANN_ACT_SOURCE, "s", "show or hide the listing's source lines"),
	TUI_KEY(ANN_ACT_PCT, "%",
	    "percentages of the symbol's samples or of all samples"),
	TUI_KEY(ANN_ACT_FOLLOW, "Enter",
	    "on a jump or call: go to its target (q comes back)"),
};
const struct tui_keys tui_keys_annotate = TUI_KEYS("annotate",
    "In the annotate view", annotate_bind);

/* What a row of the view shows. */
enum annotate_kind {
	ANNOTATE_INSN,		/* an instruction: idx into a.insn */
	ANNOTATE_SRC,		/* a listing line: idx into a.src */
	ANNOTATE_SYM,		/* a symbol's start: idx into h->syms */
	ANNOTATE_BUCKET		/* a bucket's samples: idx into a.buckets */
};

struct annotate_row {
	uint32_t	kind;
	uint32_t	idx;
};

struct annotate {
	const struct analyze_hist *h;		/* the parent's model */
	struct analyze_hist	*own;		/* or its own (a call
						   profile's), to free */
	struct analyze_annotate	 a;
	char			*program;
	char			*name;		/* what is annotated */
	int			 source;	/* listing lines shown */
	int			 ofall;		/* % of all samples */
	double			 total;		/* the range's samples */
	uint64_t		 max;		/* hottest row's hits */
	struct annotate_row	*rows;
	size_t			 nrows;
	size_t			*hot;		/* rows, hottest first */
	size_t			 nhot;
};

/* Columns: percent, hits and a mark, seg:off, linear, bytes, text. */
#define ANNOTATE_PCT	0
#define ANNOTATE_HITS	9
#define ANNOTATE_ADDR	19
#define ANNOTATE_LIN	29
#define ANNOTATE_BYTES	35
#define ANNOTATE_NBYTES	6		/* shown; more end in + */
#define ANNOTATE_TEXT	49
#define ANNOTATE_SRCCOL	19		/* where a source line starts */

static int
annotate_bucket_estimated(const struct analyze_ann_bucket *b)
{
	return (!b->whole || b->part != (double)b->hits);
}

/* Whether bucket b gets a row: its samples are not all placed. */
static int
annotate_bucket_row(const struct annotate *an,
    const struct analyze_ann_bucket *b)
{
	return (!an->h->nosamples && !an->a.exact && (b->unplaced != 0 ||
	    !an->a.table));
}

static void
annotate_add(struct annotate *an, enum annotate_kind kind, size_t idx)
{
	an->rows[an->nrows].kind = kind;
	an->rows[an->nrows++].idx = (uint32_t)idx;
}

static int
annotate_hot_cmp(const void *x, const void *y, void *arg)
{
	const struct annotate	*an = arg;
	const struct annotate_row *p = &an->rows[*(const size_t *)x];
	const struct annotate_row *q = &an->rows[*(const size_t *)y];
	double			 u = an->a.buckets[p->idx].part;
	double			 v = an->a.buckets[q->idx].part;

	if (u != v)
		return (u > v ? -1 : 1);
	return (p->idx < q->idx ? -1 : p->idx > q->idx);
}

/* The row of instruction k, from the rows of the hot ones (by k). */
static size_t
annotate_hot_row(const size_t *insn, const size_t *row, size_t n, size_t k)
{
	size_t	i;

	BSEARCH_FIRST(i, 0, n, insn[i] < k);
	return (i < n ? row[i] : 0);
}

/*
 * List the rows: per instruction the symbols that start at it, the row
 * of a bucket it is the first of (when the bucket's samples are not all
 * placed), its listing lines (s) and itself.  Tab's order follows: the
 * instructions hottest first, else the buckets.  A 64 KiB symbol has
 * some 30000 rows: one allocation each, sized before.
 */
static void
annotate_rows(struct annotate *an)
{
	const struct analyze_annotate	*a = &an->a;
	const struct analyze_insn	*in;
	size_t				 i, k, sym, first, n = 0;
	size_t				*insn, *row;
	uint32_t			 bucket = UINT32_MAX;

	/* The symbols from the first at or after the range's start. */
	for (first = 0; first < an->h->nsyms && an->h->syms[first].addr <
	    a->lo; first++)
		;
	for (sym = first; sym < an->h->nsyms && an->h->syms[sym].addr <
	    a->hi; sym++)
		;
	free(an->rows);
	an->rows = xreallocarray(NULL, a->ninsn + a->nsrc + a->nbuckets +
	    (sym - first) + 1, sizeof *an->rows);
	an->nrows = 0;
	insn = xreallocarray(NULL, a->nhot + 1, sizeof *insn);
	row = xreallocarray(NULL, a->nhot + 1, sizeof *row);
	for (i = 0, sym = first; i < a->ninsn; i++) {
		in = &a->insn[i];
		for (; sym < an->h->nsyms && an->h->syms[sym].addr < in->addr +
		    in->len && an->h->syms[sym].addr < a->hi; sym++)
			annotate_add(an, ANNOTATE_SYM, sym);
		if (in->bucket != bucket) {
			bucket = in->bucket;
			if (bucket != UINT32_MAX && annotate_bucket_row(an,
			    &a->buckets[bucket]))
				annotate_add(an, ANNOTATE_BUCKET, bucket);
		}
		for (k = 0; an->source && k < in->nsrc; k++)
			annotate_add(an, ANNOTATE_SRC, in->src + k);
		if (in->hits != 0 && n < a->nhot) {
			insn[n] = i;
			row[n++] = an->nrows;
		}
		annotate_add(an, ANNOTATE_INSN, i);
	}
	free(an->hot);
	an->nhot = 0;
	if (a->nhot != 0) {
		an->hot = xreallocarray(NULL, a->nhot, sizeof *an->hot);
		for (i = 0; i < a->nhot; i++)
			an->hot[an->nhot++] = annotate_hot_row(insn, row, n,
			    a->hot[i]);
	} else {
		an->hot = xreallocarray(NULL, a->nbuckets + 1,
		    sizeof *an->hot);
		for (i = 0; i < an->nrows; i++) {
			if (an->rows[i].kind == ANNOTATE_BUCKET &&
			    a->buckets[an->rows[i].idx].part > 0)
				an->hot[an->nhot++] = i;
		}
		qsort_r(an->hot, an->nhot, sizeof *an->hot, annotate_hot_cmp,
		    an);
	}
	free(insn);
	free(row);
}

/* The instruction row i is, or is above; a->ninsn if none. */
static size_t
annotate_insn_of(const struct annotate *an, size_t i)
{
	for (; i < an->nrows; i++) {
		if (an->rows[i].kind == ANNOTATE_INSN)
			return (an->rows[i].idx);
	}
	return (an->a.ninsn);
}

/* The row of instruction k, or 0. */
static size_t
annotate_row_of(const struct annotate *an, size_t k)
{
	size_t	i;

	for (i = 0; i < an->nrows; i++) {
		if (an->rows[i].kind == ANNOTATE_INSN && an->rows[i].idx == k)
			return (i);
	}
	return (0);
}

static double
annotate_pct(const struct annotate *an, double hits)
{
	if (an->ofall)
		return (analyze_hist_pct(an->h, hits));
	return (an->total > 0 ? 100.0 * hits / an->total : 0.0);
}

static char *
annotate_title(struct tui_view *tv)
{
	struct annotate	*an = tv->data;

	return (xasprintf("profview: %s: annotate %s, %zu instructions%s",
	    an->program, an->name, an->a.ninsn - (an->a.ninsn != 0 &&
	    (an->a.insn[an->a.ninsn - 1].flags & ANALYZE_INSN_GAP)),
	    an->ofall ? ", % of all samples" : ""));
}

/* The two header lines: the range and its samples, then how exact. */
static void
annotate_header(struct annotate *an, int y, int w)
{
	const struct analyze_annotate	*a = &an->a;
	char				*lo, *hi;
	int				 x;

	lo = analyze_hist_segoff(an->h, a->lo);
	hi = analyze_hist_segoff(an->h, a->hi > a->lo ? a->hi - 1 : a->lo);
	/* 1000:011E-0121: the segment once when both have it. */
	if (!an->h->linear)
		x = tui_putf(y, 0, w, A_BOLD, "%s  %s-%s (%05llX-%05llX)"
		    "  %llu bytes", an->name, lo, strncmp(lo, hi, 5) == 0 ?
		    hi + 5 : hi, (unsigned long long)a->lo,
		    (unsigned long long)(a->hi > a->lo ? a->hi - 1 : a->lo),
		    (unsigned long long)(a->hi - a->lo));
	else
		x = tui_putf(y, 0, w, A_BOLD, "%s  %s-%s  %llu bytes",
		    an->name, lo, hi, (unsigned long long)(a->hi - a->lo));
	free(lo);
	free(hi);
	if (an->h->nosamples)
		tui_put(y, x, w - x, A_BOLD, a->cut ? "  cut at 64 KiB" : "");
	else
		tui_putf(y, x, w - x, A_BOLD, "  %s%.0f samples (%.2f%% of"
		    " all)%s", a->estimated > 0 ? "~" : "", an->total,
		    analyze_hist_pct(an->h, an->total), a->cut ?
		    "  cut at 64 KiB" : "");
	if (an->h->nosamples)
		x = tui_put(y + 1, 0, w, TUI_PLAIN, "a call profile: no"
		    " samples per instruction (Enter on a call: the callee)");
	else if (!a->table)
		x = tui_put(y + 1, 0, w, tui_attr(TUI_C_ERROR), "no hit table:"
		    " samples known per bucket only (~: estimates), not per"
		    " instruction");
	else if (!a->exact)
		x = tui_putf(y + 1, 0, w, tui_attr(TUI_C_ERROR), "hit table"
		    " full: %llu samples exact per instruction, ~%.1f per"
		    " bucket only", (unsigned long long)a->hits,
		    a->estimated);
	else
		x = tui_put(y + 1, 0, w, TUI_PLAIN, "exact: the hit table"
		    " places each sample");
	if (a->mid != 0)
		x += tui_putf(y + 1, x, w - x, tui_attr(TUI_C_ERROR), "; %llu"
		    " inside an instruction (*)", (unsigned long long)a->mid);
	if (an->source && a->nsrc == 0)
		tui_put(y + 1, x, w - x, TUI_PLAIN, an->h->linear ?
		    "; no source lines (no DWARF)" : "; no listing stored");
}

/* A listing line's text with tabs expanded, into buf. */
static void
annotate_untab(const char *s, char *buf, size_t len)
{
	size_t	n = 0;

	for (; *s != '\0' && n + 1 < len; s++) {
		if (*s != '\t') {
			buf[n++] = *s;
			continue;
		}
		do
			buf[n++] = ' ';
		while (n % 8 != 0 && n + 1 < len);
	}
	buf[n] = '\0';
}

/* The symbol holding target (the last at or below it), or SIZE_MAX. */
static size_t
annotate_sym_at(const struct analyze_hist *h, uint64_t target)
{
	size_t	s;

	BSEARCH_FIRST(s, 0, h->nsyms, h->syms[s].addr <= target);
	if (s == 0 || target - h->syms[s - 1].addr >= h->syms[s - 1].size)
		return (SIZE_MAX);
	return (s - 1);
}

/*
 * Row k's text, and where its jump or call goes when that is another
 * symbol, as objdump writes it: "call 0x401136 <mix>".
 */
static const char *
annotate_insn_text(const struct annotate *an, size_t k, char *buf,
    size_t len)
{
	const char	*t = analyze_insn_text(&an->a, k);
	uint64_t	 target;
	size_t		 s;

	if (!an->h->linear || analyze_insn_target(an->h, &an->a, k,
	    &target) != 0 || (target >= an->a.lo && target < an->a.hi) ||
	    (s = annotate_sym_at(an->h, target)) == SIZE_MAX)
		return (t);
	if (target == an->h->syms[s].addr)
		snprintf(buf, len, "%s <%s>", t, an->h->syms[s].name);
	else
		snprintf(buf, len, "%s <%s+%#llx>", t, an->h->syms[s].name,
		    (unsigned long long)(target - an->h->syms[s].addr));
	return (buf);
}

static void
annotate_draw_insn(struct tui_view *tv, const struct analyze_insn *in,
    size_t k, int yy, int w, int attr)
{
	struct annotate	*an = tv->data;
	const char	*marks = tui_search_marks(tv);
	char		 bytes[32], text[512], *segoff;
	size_t		 j, off;
	int		 hattr, n;

	if (in->hits != 0) {
		hattr = attr != TUI_PLAIN ? attr : tui_attr(tui_heat(
		    an->max != 0 ? (double)in->hits / (double)an->max : 0));
		tui_putf(yy, ANNOTATE_PCT, w - ANNOTATE_PCT, hattr, "%7.2f%%",
		    annotate_pct(an, (double)in->hits));
		tui_putf(yy, ANNOTATE_HITS, w - ANNOTATE_HITS, attr, "%8llu%s",
		    (unsigned long long)in->hits, in->mid != 0 ? "*" : "");
	}
	segoff = analyze_hist_segoff(an->h, in->addr);
	tui_putf(yy, ANNOTATE_ADDR, w - ANNOTATE_ADDR, marks != NULL &&
	    tui_search_in(&tv->search, in->addr, in->addr + in->len) ?
	    tui_attr(TUI_C_MATCH) : attr, "%s", segoff);
	free(segoff);
	/* A linear address is one column, as wide as both. */
	if (!an->h->linear)
		tui_putf(yy, ANNOTATE_LIN, w - ANNOTATE_LIN, attr, "%05llX",
		    (unsigned long long)in->addr);
	bytes[0] = '\0';
	if (!(in->flags & ANALYZE_INSN_GAP)) {
		off = (size_t)(in->addr - an->a.dlo);
		for (j = n = 0; j < in->len && j < ANNOTATE_NBYTES; j++)
			n += snprintf(bytes + n, sizeof bytes - (size_t)n,
			    "%02X", an->a.bytes[off + j]);
		if (in->len > ANNOTATE_NBYTES)
			snprintf(bytes + n, sizeof bytes - (size_t)n, "+");
	} else
		snprintf(bytes, sizeof bytes, "%u bytes", in->len);
	tui_put(yy, ANNOTATE_BYTES, w - ANNOTATE_BYTES, attr, bytes);
	tui_put_marks(yy, ANNOTATE_TEXT, w - ANNOTATE_TEXT, attr == TUI_PLAIN &&
	    (in->flags & (ANALYZE_INSN_BAD | ANALYZE_INSN_GAP)) ?
	    tui_attr(TUI_C_ERROR) : attr, annotate_insn_text(an, k, text,
	    sizeof text), marks);
}

static void
annotate_draw_bucket(struct tui_view *tv, const struct analyze_ann_bucket *b,
    int yy, int w, int attr)
{
	struct annotate	*an = tv->data;
	double		 v = b->part - (double)b->exact;
	char		*lo, *hi;
	int		 x, est = annotate_bucket_estimated(b);

	if (v > 0) {
		tui_putf(yy, ANNOTATE_PCT, w, attr != TUI_PLAIN ? attr :
		    tui_attr(TUI_C_HEADER), "%s%6.2f%%", est ? "~" : " ",
		    annotate_pct(an, v));
		tui_putf(yy, ANNOTATE_HITS, w - ANNOTATE_HITS, attr, "%s%7.0f",
		    est ? "~" : " ", v);
	}
	lo = analyze_hist_segoff(an->h, b->lo);
	hi = analyze_hist_segoff(an->h, b->hi - 1);
	/* 1000:0170-017F: the segment once when both have it. */
	x = tui_putf(yy, ANNOTATE_ADDR, w - ANNOTATE_ADDR, attr != TUI_PLAIN ?
	    attr : tui_attr(TUI_C_HEADER), "bucket %s-%s: %llu samples", lo,
	    strncmp(lo, hi, 5) == 0 ? hi + 5 : hi,
	    (unsigned long long)b->hits);
	free(lo);
	free(hi);
	x += ANNOTATE_ADDR;
	if (an->a.table)
		x += tui_putf(yy, x, w - x, attr, ", %llu not in the table",
		    (unsigned long long)b->unplaced);
	if (est)
		tui_putf(yy, x, w - x, attr, ", ~%.1f of them here", v);
	else
		tui_put(yy, x, w - x, attr, ", all here");
}

static void
annotate_draw(struct tui_view *tv, int y, int h, int w)
{
	struct annotate			*an = tv->data;
	const struct annotate_row	*r;
	const struct analyze_sym	*s;
	const char			*marks = tui_search_marks(tv);
	char				 buf[2048], *segoff;
	size_t				 i;
	int				 top = 0, row, attr, yy, x;

	if (h >= 6) {
		annotate_header(an, y, w);
		top = 2;
	}
	if (h >= 3) {
		if (an->h->linear)
			tui_putf(y + top, 0, w, tui_attr(TUI_C_HEADER), "%8s"
			    " %9s %-15s %-13s %s", an->ofall ? "% all" :
			    "% sym", "hits", "address", "bytes",
			    "instruction");
		else
			tui_putf(y + top, 0, w, tui_attr(TUI_C_HEADER), "%8s"
			    " %9s %-9s %-5s %-13s %s", an->ofall ? "% all" :
			    "% sym", "hits", "seg:off", "addr", "bytes",
			    "instruction");
		top++;
	}
	tv->list.y = y + top;
	tui_list_fit(&tv->list, h - top);
	if (tv->list.n == 0) {
		tui_put(y + top, 0, w, TUI_PLAIN, "No code in this range.");
		return;
	}
	for (row = 0; row < tv->list.height; row++) {
		if ((i = tv->list.top + (size_t)row) >= an->nrows)
			break;
		r = &an->rows[i];
		yy = y + top + row;
		attr = i == tv->list.cur ? tui_attr(TUI_C_CURSOR) : TUI_PLAIN;
		if (attr != TUI_PLAIN)
			tui_fill(yy, 0, w, attr);
		switch (r->kind) {
		case ANNOTATE_INSN:
			annotate_draw_insn(tv, &an->a.insn[r->idx], r->idx, yy,
			    w, attr);
			break;
		case ANNOTATE_SRC:
			annotate_untab(analyze_src_text(&an->a, r->idx), buf,
			    sizeof buf);
			tui_putf(yy, ANNOTATE_SRCCOL - 7, 6, attr != TUI_PLAIN ?
			    attr : tui_attr(TUI_C_SOURCE), "%6lld",
			    (long long)an->a.src[r->idx].line);
			tui_put_marks(yy, ANNOTATE_SRCCOL, w - ANNOTATE_SRCCOL,
			    attr != TUI_PLAIN ? attr : tui_attr(TUI_C_SOURCE),
			    buf, marks);
			break;
		case ANNOTATE_SYM:
			/* As objdump heads a routine: 1000:0179 <spin>: */
			s = &an->h->syms[r->idx];
			if (attr == TUI_PLAIN)
				attr = (int)A_BOLD;
			segoff = analyze_hist_segoff(an->h, s->addr);
			x = ANNOTATE_ADDR + tui_putf(yy, ANNOTATE_ADDR,
			    w - ANNOTATE_ADDR, attr, "%s <", segoff);
			free(segoff);
			snprintf(buf, sizeof buf, "%s>:", s->name);
			tui_put_marks(yy, x, w - x, attr, buf, marks);
			break;
		case ANNOTATE_BUCKET:
			annotate_draw_bucket(tv, &an->a.buckets[r->idx], yy, w,
			    attr);
			break;
		}
	}
}

/*
 * Put the cursor on the hottest row of [lo, hi), else its first.  The
 * list starts at the top, as perf annotate's, and scrolls only when the
 * first frame finds the cursor below the screen.
 */
static void
annotate_focus(struct tui_view *tv, uint64_t lo, uint64_t hi)
{
	struct annotate	*an = tv->data;
	size_t		 i, k, at = SIZE_MAX;

	for (i = 0; i < an->nhot && at == SIZE_MAX; i++) {
		k = annotate_insn_of(an, an->hot[i]);
		if (k < an->a.ninsn && an->a.insn[k].addr >= lo &&
		    an->a.insn[k].addr < hi)
			at = an->hot[i];
	}
	for (i = 0; i < an->nrows && at == SIZE_MAX; i++) {
		k = annotate_insn_of(an, i);
		if (an->rows[i].kind == ANNOTATE_INSN && k < an->a.ninsn &&
		    an->a.insn[k].addr + an->a.insn[k].len > lo)
			at = i;
	}
	tv->list.top = 0;
	tv->list.cur = at != SIZE_MAX ? at : 0;
}

/* Tab and S-Tab: the next (dir 1) or previous hottest row. */
static int
annotate_hot(struct tui_view *tv, int dir)
{
	struct annotate	*an = tv->data;
	size_t		 i, at;
	double		 v;

	if (an->nhot == 0) {
		tui_message("no samples in this range");
		return (TUI_R_DRAW);
	}
	for (i = 0; i < an->nhot && an->hot[i] != tv->list.cur; i++)
		;
	if (i == an->nhot)
		at = dir > 0 ? 0 : an->nhot - 1;
	else if (dir > 0)
		at = i + 1 < an->nhot ? i + 1 : 0;
	else
		at = i > 0 ? i - 1 : an->nhot - 1;
	tui_list_goto(&tv->list, an->hot[at]);
	if (an->rows[an->hot[at]].kind == ANNOTATE_INSN)
		v = (double)an->a.insn[an->rows[an->hot[at]].idx].hits;
	else
		v = an->a.buckets[an->rows[an->hot[at]].idx].part -
		    (double)an->a.buckets[an->rows[an->hot[at]].idx].exact;
	tui_message("hottest %zu/%zu: %.0f samples (%.2f%%)%s", at + 1,
	    an->nhot, v, annotate_pct(an, v), i != an->nhot && at ==
	    (dir > 0 ? 0 : an->nhot - 1) ? ", wrapped" : "");
	return (TUI_R_DRAW);
}

/* Enter: a jump or call's target, here or in the symbol holding it. */
static int
annotate_follow(struct tui_view *tv)
{
	struct annotate	*an = tv->data;
	struct tui_view	*v;
	uint64_t	 target, lo, hi;
	size_t		 k, r, s;
	char		*cause = NULL, *where;

	k = tv->list.n != 0 ? annotate_insn_of(an, tv->list.cur) :
	    an->a.ninsn;
	if (k >= an->a.ninsn || an->rows[tv->list.cur].kind !=
	    ANNOTATE_INSN || analyze_insn_target(an->h, &an->a, k,
	    &target) != 0) {
		tui_message("Enter follows a jump or call with its target"
		    " written out");
		return (TUI_R_DRAW);
	}
	where = analyze_hist_segoff(an->h, target);
	if ((r = analyze_annotate_row(&an->a, target)) != SIZE_MAX) {
		tui_list_goto(&tv->list, annotate_row_of(an, r));
		tui_message("at %s%s", where, an->a.insn[r].addr != target ?
		    " (inside this instruction)" : "");
		free(where);
		return (TUI_R_DRAW);
	}
	if ((s = annotate_sym_at(an->h, target)) == SIZE_MAX) {
		tui_message("%s is in no symbol", where);
		free(where);
		return (TUI_R_DRAW);
	}
	analyze_annotate_sym_range(an->h, s, &lo, &hi);
	v = tui_annotate_new(tv, lo, hi, target, target + 1,
	    an->h->syms[s].name, &cause);
	if (v == NULL) {
		tui_message("error: %s", cause);
		free(cause);
	} else {
		tui_push(v);
		tui_message("%s in %s (q comes back)", where,
		    an->h->syms[s].name);
	}
	free(where);
	return (TUI_R_DRAW);
}

static int
annotate_key(struct tui_view *tv, int a)
{
	struct annotate	*an = tv->data;
	size_t		 k;

	switch (a) {
	case ANN_ACT_HOT_NEXT:
		return (annotate_hot(tv, 1));
	case ANN_ACT_HOT_PREV:
		return (annotate_hot(tv, -1));
	case ANN_ACT_SOURCE:
		/* The cursor stays on its instruction. */
		k = tv->list.n != 0 ? annotate_insn_of(an, tv->list.cur) :
		    an->a.ninsn;
		an->source = !an->source;
		annotate_rows(an);
		tv->list.n = an->nrows;
		tv->search.stale = 1;
		if (k < an->a.ninsn)
			tui_list_goto(&tv->list, annotate_row_of(an, k));
		tui_message("%s", !an->source ? "source lines hidden" :
		    an->a.nsrc != 0 ? "source lines shown" : an->h->linear ?
		    "no DWARF lines for this code (its module has no debug"
		    " info)" : "no listing stored for this session (NAME.LST,"
		    " --listing)");
		return (TUI_R_DRAW);
	case ANN_ACT_PCT:
		an->ofall = !an->ofall;
		if (an->ofall)
			tui_message("percentages of all %llu samples",
			    (unsigned long long)an->h->total);
		else
			tui_message("percentages of the %.0f samples of %s",
			    an->total, an->name);
		return (TUI_R_DRAW);
	case ANN_ACT_FOLLOW:
		return (annotate_follow(tv));
	default:
		return (TUI_R_UNUSED);
	}
}

/* Instructions, listing lines, symbols; addresses inside a row. */
static int
annotate_match(struct tui_view *tv, size_t row, const char *pattern)
{
	struct annotate			*an = tv->data;
	const struct annotate_row	*r = &an->rows[row];
	const struct analyze_insn	*in;
	const struct analyze_ann_bucket	*b;
	char				 text[512];

	switch (r->kind) {
	case ANNOTATE_INSN:
		in = &an->a.insn[r->idx];
		return (tui_strcasestr(annotate_insn_text(an, r->idx, text,
		    sizeof text), pattern) || tui_search_in(&tv->search,
		    in->addr, in->addr + in->len));
	case ANNOTATE_SRC:
		return (tui_strcasestr(analyze_src_text(&an->a, r->idx),
		    pattern));
	case ANNOTATE_SYM:
		return (tui_strcasestr(an->h->syms[r->idx].name, pattern));
	default:
		b = &an->a.buckets[r->idx];
		return (tui_search_in(&tv->search, b->lo, b->hi));
	}
}

/* The rows of the view: its instructions, and buckets where needed. */
static int
annotate_export(struct tui_view *tv, int format, FILE *f, char **cause)
{
	struct annotate	*an = tv->data;

	return (report_annotate(an->h, &an->a, an->name, format, f, cause));
}

/* Views this one opens (a call's target) annotate the same model. */
static const void *
annotate_model(struct tui_view *tv)
{
	return (((struct annotate *)tv->data)->h);
}

static void
annotate_free(struct tui_view *tv)
{
	struct annotate	*an = tv->data;

	analyze_annotate_free(&an->a);
	if (an->own != NULL) {
		analyze_hist_free(an->own);
		free(an->own);
	}
	free(an->rows);
	free(an->hot);
	free(an->program);
	free(an->name);
	free(an);
}

static const struct tui_view_ops annotate_ops = {
	.name = "annotate",
	.keys = &tui_keys_annotate,
	.help = "a symbol's instructions with their samples, as perf annotate",
	.draw = annotate_draw,
	.key = annotate_key,
	.title = annotate_title,
	.match = annotate_match,
	.export = annotate_export,
	.model = annotate_model,
	.free = annotate_free,
};

static struct tui_view	*annotate_open(struct tui_view *,
			    const struct analyze_hist *, struct analyze_hist *,
			    uint64_t, uint64_t, uint64_t, uint64_t,
			    const char *, char **);

/*
 * Have the store keep [lo, hi) of linear model h's code, from its
 * module, unless it does: what the annotation decodes.
 */
static int
annotate_keep(int64_t session, const struct analyze_hist *h, uint64_t lo,
    uint64_t hi, char **cause)
{
	struct ingest_code_req	q;

	if (hi - lo > ANALYZE_ANNOTATE_MAX)
		hi = lo + ANALYZE_ANNOTATE_MAX;
	memset(&q, 0, sizeof q);
	q.module = h->module;
	q.build_id = h->build_id;
	q.have_bias = h->bias_known;
	q.bias = h->bias;
	q.map = h->base;
	q.map_size = h->map_size;
	q.lo = h->base + lo;
	q.hi = h->base + hi;
	return (ingest_code_keep(tui_store(), session, &q, cause));
}

/*
 * Annotate [lo, hi) of the session parent shows (its model op gives the
 * histogram's model), named name, with the cursor on the hottest
 * instruction of [flo, fhi).  NULL with *cause when the session has no
 * program image.
 */
struct tui_view *
tui_annotate_new(struct tui_view *parent, uint64_t lo, uint64_t hi,
    uint64_t flo, uint64_t fhi, const char *name, char **cause)
{
	if (parent->ops->model == NULL) {
		*cause = xstrdup("nothing to annotate here");
		return (NULL);
	}
	return (annotate_open(parent, parent->ops->model(parent), NULL, lo,
	    hi, flo, fhi, name, cause));
}

/*
 * Push the annotate view of the function at addr (as the profile has it:
 * h->base plus the symbol's offset) of model h, which the view takes (a
 * model no view below it has: a call profile's code, a module's).  On
 * failure the message says why and h is freed.
 */
int
tui_annotate_own(struct tui_view *parent, struct analyze_hist *h,
    uint64_t addr)
{
	struct tui_view	*v;
	uint64_t	 lo, hi;
	char		*cause = NULL;
	size_t		 k;

	for (k = 0; k < h->nsyms && h->syms[k].addr + h->base != addr; k++)
		;
	if (k == h->nsyms) {
		tui_message("error: no function at %llx in %s",
		    (unsigned long long)addr, h->module != NULL ? h->module :
		    "the profile");
		analyze_hist_free(h);
		free(h);
		return (TUI_R_DRAW);
	}
	analyze_annotate_sym_range(h, k, &lo, &hi);
	if ((v = annotate_open(parent, h, h, lo, hi, lo, hi, h->syms[k].name,
	    &cause)) == NULL) {
		tui_message("error: %s", cause);
		free(cause);
		return (TUI_R_DRAW);
	}
	tui_push(v);
	return (TUI_R_DRAW);
}

static struct tui_view *
annotate_open(struct tui_view *parent, const struct analyze_hist *h,
    struct analyze_hist *own, uint64_t lo, uint64_t hi, uint64_t flo,
    uint64_t fhi, const char *name, char **cause)
{
	struct annotate	*an;
	struct tui_view	*tv;
	size_t		 i;

	an = xcalloc(1, sizeof *an);
	an->h = h;
	an->own = own;
	if ((h->linear && annotate_keep(parent->session, h, lo, hi,
	    cause) != 0) || analyze_annotate_load(tui_store(), h, lo, hi,
	    &an->a, cause) != 0) {
		if (own != NULL) {
			analyze_hist_free(own);
			free(own);
		}
		free(an);
		return (NULL);
	}
	an->program = tui_session_name(parent->session);
	an->name = xstrdup(name);
	an->source = 1;
	an->total = (double)an->a.hits + an->a.estimated;
	for (i = 0; i < an->a.ninsn; i++) {
		if (an->a.insn[i].hits > an->max)
			an->max = an->a.insn[i].hits;
	}
	annotate_rows(an);
	tv = tui_view_new(&annotate_ops, an);
	tv->parent = parent;
	tv->session = parent->session;
	tv->list.n = an->nrows;
	annotate_focus(tv, flo, fhi);
	return (tv);
}
