/*
 * The slots view of a Dos32Profile dump (prfd sessions), as OS/2's
 * profile tools printed one: the global counters with their shares at
 * the top, then a row per slot (module, address, size, mode, count,
 * share), sorted by count or address.  Enter opens a slot's detail
 * counters in the histogram view (tui/hist.c over analyze/hist.c), named
 * by its module's symbols; t the exact flat profile by function of every
 * module (the hit table and the modules' samples), whose Enter opens the
 * row's slot on its symbol.  A dump with modules (version 2) opens on
 * that profile, as perf report does, v showing the slots.  Shares are of
 * the run time, as perf's; % makes them of every period of the dump, as
 * OS/2's (analyze/prfd.c).
 */
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/hist.h"
#include "analyze/prfd.h"
#include "tui/tui.h"
#include "tui/hist.h"
#include "store/prfd.h"

/* The actions of its keys (tui.h: numbered from TUI_ACT_VIEW). */
enum slots_action {
	SLOTS_ACT_SORT = TUI_ACT_VIEW,
	SLOTS_ACT_OPEN,
	SLOTS_ACT_HITS,
	SLOTS_ACT_PCT,
	HITS_ACT_SORT,
	HITS_ACT_OPEN,
	HITS_ACT_SLOTS,
	HITS_ACT_PCT
};

static const struct tui_key slots_bind[] = {
	TUI_KEY(SLOTS_ACT_SORT, "s", "cycle the sort (count, address)"),
	TUI_KEY(SLOTS_ACT_OPEN, "Enter",
	    "the slot's detail counters in the histogram, named by its "
	    "module's symbols"),
	TUI_KEY(SLOTS_ACT_HITS, "t",
	    "the exact flat profile by function of every module"),
	TUI_KEY(SLOTS_ACT_PCT, "%",
	    "shares of the run time or of every period (idle too)"),
};
static const struct tui_keys slots_keys = TUI_KEYS("slots",
    "In the slots view", slots_bind);

static const struct tui_key hits_bind[] = {
	TUI_KEY(HITS_ACT_SORT, "s", "cycle the sort (hits, address)"),
	TUI_KEY(HITS_ACT_OPEN, "Enter", "the row's slot in the histogram,"
	    " on its symbol; a module's function: its code annotated"),
	TUI_KEY(HITS_ACT_SLOTS, "v", "the slots and the global counters"),
	TUI_KEY(HITS_ACT_PCT, "%",
	    "shares of the run time or of every period (idle too)"),
};
static const struct tui_keys hits_keys = TUI_KEYS("hits",
    "In the flat profile by function", hits_bind);

/* The dump's model, shared by its views: the last one frees it. */
struct slots {
	int			 refs;
	struct analyze_prfd	*m;
	char			*program;
	char			*key;		/* the file's SHA-256 */
	size_t			*order;
	int			 byaddr;	/* else by count */
};

struct hits {
	struct slots		*ss;		/* the parent view's */
	size_t			*order;
	int			 byaddr;	/* else by hits */
};

/* A slot's module name, or what it is without one. */
static const char *
slots_module(const struct analyze_prfd *m, size_t k)
{
	const char	*mod = analyze_prfd_module(m, k);

	return (mod != NULL ? mod : "(no module)");
}

static int
slots_cmp(const void *a, const void *b, void *arg)
{
	const struct slots		*ss = arg;
	const struct store_prfd_slot	*x = &ss->m->slots[*(const size_t *)a];
	const struct store_prfd_slot	*y = &ss->m->slots[*(const size_t *)b];

	if (!ss->byaddr && x->cnt != y->cnt)
		return (x->cnt > y->cnt ? -1 : 1);
	if (x->vaddr != y->vaddr)
		return (x->vaddr < y->vaddr ? -1 : 1);
	return (x->idx < y->idx ? -1 : x->idx > y->idx);
}

static void
slots_sort(struct slots *ss)
{
	size_t	i;

	for (i = 0; i < ss->m->nslots; i++)
		ss->order[i] = i;
	qsort_r(ss->order, ss->m->nslots, sizeof *ss->order, slots_cmp, ss);
}

static char *
slots_title(struct tui_view *tv)
{
	struct slots	*ss = tv->data;

	return (xasprintf("profview: %s: %zu slot%s by %s, %llu samples",
	    ss->program, ss->m->nslots, ss->m->nslots == 1 ? "" : "s",
	    ss->byaddr ? "address" : "count",
	    (unsigned long long)ss->m->total));
}

/* The two lines over the table: the dump, and the global counters. */
static char *
slots_head(const struct analyze_prfd *m, const char *program)
{
	char	*period, *s;

	if (m->d.period_ns > 0)
		period = xasprintf("period %lld us", (long long)
		    (m->d.period_ns / 1000));
	else
		period = xasprintf("timval %u us", m->d.timval);
	s = xasprintf("%s  pid %u  %s  %llu samples  counters of %llu bytes%s",
	    program, m->d.pid, period, (unsigned long long)m->total,
	    (unsigned long long)1 << m->d.shift, m->unresolved != 0 ?
	    "  modules unresolved (see warnings)" : "");
	free(period);
	return (s);
}

/*
 * The global counters, each with its share: of the run time (idle's is
 * then of every period, as it is no part of the run) or of every period.
 */
static char *
slots_counters(const struct analyze_prfd *m)
{
	return (xasprintf("%s: run %llu  idle %llu (%.1f%% of all)  kernel"
	    " %llu (%.1f%%)  shrmem %llu (%.1f%%)  unknown %llu (%.1f%%)  vm86"
	    " %llu", m->all ? "shares of every period" : "shares of run time",
	    (unsigned long long)m->run, (unsigned long long)m->d.idle,
	    m->total != 0 ? 100.0 * (double)m->d.idle / (double)m->total : 0,
	    (unsigned long long)m->d.kernel,
	    analyze_prfd_pct(m, (double)m->d.kernel),
	    (unsigned long long)m->d.shrmem, analyze_prfd_pct(m,
	    (double)m->d.shrmem), (unsigned long long)m->d.unknown,
	    analyze_prfd_pct(m, (double)m->d.unknown),
	    (unsigned long long)m->d.vm86));
}

/* % in either view: the shares' base switched, said. */
static int
slots_pct(struct analyze_prfd *m)
{
	m->all = !m->all;
	tui_message("shares of %s", m->all ? "every period (idle too)" :
	    "the run time (idle aside)");
	return (TUI_R_DRAW);
}

static void
slots_unref(struct slots *ss)
{
	if (--ss->refs > 0)
		return;
	analyze_prfd_model_free(ss->m);
	free(ss->order);
	free(ss->program);
	free(ss->key);
	free(ss);
}

static void
slots_draw(struct tui_view *tv, int y, int h, int w)
{
	struct slots			*ss = tv->data;
	const struct store_prfd_slot	*s;
	char				*t;
	size_t				 i;
	int				 row, attr, yy, top = 0;

	/* Small screens lose the counters first, as the histogram. */
	if (h >= 6) {
		t = slots_head(ss->m, ss->program);
		tui_put(y, 0, w, A_BOLD, t);
		free(t);
		t = slots_counters(ss->m);
		tui_put(y + 1, 0, w, TUI_PLAIN, t);
		free(t);
		top = 2;
	}
	if (h >= 3) {
		tui_putf(y + top, 0, w, tui_attr(TUI_C_HEADER), "%-16s %12s"
		    " %10s %6s %10s %7s", "module", "address", "size", "mode",
		    "count", "share");
		top++;
	}
	tv->list.y = y + top;
	tui_list_fit(&tv->list, h - top);
	if (tv->list.n == 0) {
		tui_put(y + top, 0, w, TUI_PLAIN, "No slots.");
		return;
	}
	for (row = 0; row < tv->list.height; row++) {
		if ((i = tv->list.top + (size_t)row) >= tv->list.n)
			break;
		s = &ss->m->slots[ss->order[i]];
		yy = y + top + row;
		attr = i == tv->list.cur ? tui_attr(TUI_C_CURSOR) : TUI_PLAIN;
		if (attr != TUI_PLAIN)
			tui_fill(yy, 0, w, attr);
		tui_fill(yy, 0, 16, attr);
		tui_put_marks(yy, 0, 16, attr, slots_module(ss->m,
		    ss->order[i]), tui_search_marks(tv));
		tui_putf(yy, 16, w - 16, attr, " %012llX %10llu %#6llx %10llu"
		    " %6.2f%%", (unsigned long long)s->vaddr,
		    (unsigned long long)s->size, (unsigned long long)s->flags,
		    (unsigned long long)s->cnt, analyze_prfd_pct(ss->m,
		    (double)s->cnt));
	}
}

/*
 * Open slot k's detail counters in the histogram, the cursor on address
 * at (UINT64_MAX: where the histogram opens).
 */
static int
slots_open(struct tui_view *tv, struct slots *ss, size_t k, uint64_t at)
{
	struct analyze_hist	 h;
	struct tui_view		*v;
	char			*cause = NULL, *name, *key, *head;

	if (analyze_prfd_slot_hist(tui_store(), ss->m, k, &h, &cause) != 0) {
		tui_message("%s", cause);
		free(cause);
		return (TUI_R_DRAW);
	}
	name = xasprintf("%s %012llX", slots_module(ss->m, k),
	    (unsigned long long)ss->m->slots[k].vaddr);
	key = xasprintf("%s:slot%zu", ss->key, k);
	head = xasprintf("%s  %llu samples (%.2f%% of %s) in %lld counters of"
	    " %llu bytes", name, (unsigned long long)ss->m->slots[k].cnt,
	    analyze_prfd_pct(ss->m, (double)ss->m->slots[k].cnt),
	    ss->m->all ? "every period" : "the run",
	    (long long)ss->m->slots[k].nbuckets,
	    (unsigned long long)1 << ss->m->d.shift);
	v = tui_hist_open(&h, tv->session, name, key, head,
	    slots_counters(ss->m), at == UINT64_MAX ? at : at -
	    ss->m->slots[k].vaddr);
	free(name);
	free(key);
	tui_push(v);
	return (TUI_R_DRAW);
}

static struct tui_view	*tui_hits_new(int64_t, struct slots *);

/* After a sort: the search again, the cursor on item k where it went. */
static void
slots_resorted(struct tui_view *tv, const size_t *order, size_t k)
{
	size_t	i;

	tv->search.stale = 1;
	for (i = 0; i < tv->list.n; i++) {
		if (order[i] == k)
			tui_list_goto(&tv->list, i);
	}
}

static int
slots_key(struct tui_view *tv, int a)
{
	struct slots	*ss = tv->data;
	char		*cause = NULL;
	size_t		 k;

	switch (a) {
	case SLOTS_ACT_SORT:
		k = tv->list.n != 0 ? ss->order[tv->list.cur] : 0;
		ss->byaddr = !ss->byaddr;
		slots_sort(ss);
		slots_resorted(tv, ss->order, k);
		tui_message("sorted by %s", ss->byaddr ? "address" : "count");
		return (TUI_R_DRAW);
	case SLOTS_ACT_OPEN:
		if (tv->list.n == 0)
			return (TUI_R_NONE);
		return (slots_open(tv, ss, ss->order[tv->list.cur],
		    UINT64_MAX));
	case SLOTS_ACT_HITS:
		if (!ss->m->d.hit_table && ss->m->nmods == 0) {
			tui_message("no hit table and no module in this dump");
			return (TUI_R_DRAW);
		}
		if (analyze_prfd_table(tui_store(), ss->m, &cause) != 0) {
			tui_message("error: %s", cause);
			free(cause);
			return (TUI_R_DRAW);
		}
		tui_push(tui_hits_new(tv->session, ss));
		return (TUI_R_DRAW);
	case SLOTS_ACT_PCT:
		return (slots_pct(ss->m));
	default:
		return (TUI_R_UNUSED);
	}
}

/* The module's name, or an address inside the slot. */
static int
slots_match(struct tui_view *tv, size_t row, const char *pattern)
{
	struct slots			*ss = tv->data;
	const struct store_prfd_slot	*s = &ss->m->slots[ss->order[row]];

	return (tui_strcasestr(slots_module(ss->m, ss->order[row]),
	    pattern) || tui_search_in(&tv->search, s->vaddr, s->vaddr +
	    s->size));
}

static int
slots_export(struct tui_view *tv, int format, FILE *f, char **cause)
{
	struct slots	*ss = tv->data;

	if (analyze_prfd_table(tui_store(), ss->m, cause) != 0)
		return (-1);
	return (tui_export_model(tv, ss->m, format, f, cause));
}

static const void *
slots_model(struct tui_view *tv)
{
	return (((struct slots *)tv->data)->m);
}

static void
slots_free(struct tui_view *tv)
{
	slots_unref(tv->data);
}

static const struct tui_view_ops slots_ops = {
	.name = "slots",
	.keys = &slots_keys,
	.help = "a Dos32Profile dump's slots and global counters, with"
	    " their shares",
	.draw = slots_draw,
	.key = slots_key,
	.title = slots_title,
	.match = slots_match,
	.export = slots_export,
	.model = slots_model,
	.free = slots_free,
};

static struct tui_view *
slots_view(int64_t id, struct slots *ss)
{
	struct tui_view	*tv;

	ss->refs++;
	tv = tui_view_new(&slots_ops, ss);
	tv->session = id;
	tv->list.n = ss->m->nslots;
	return (tv);
}

static struct tui_view *
slots_new(int64_t id, char **cause)
{
	struct slots		*ss = xcalloc(1, sizeof *ss);
	struct store_session	 sess;

	/* The hit table waits for t, Enter or :export: it may be big. */
	ss->m = xcalloc(1, sizeof *ss->m);
	if (analyze_prfd_load_head(tui_store(), id, ss->m, cause) != 0) {
		free(ss->m);
		free(ss);
		return (NULL);
	}
	ss->program = tui_session_name(id);
	ss->key = xstrdup("");
	if (store_session_get(tui_store(), id, &sess) == 0) {
		free(ss->key);
		ss->key = xstrdup(sess.sha256);
		store_session_free(&sess);
	}
	ss->order = xcalloc(ss->m->nslots + 1, sizeof *ss->order);
	slots_sort(ss);
	/* Modules' samples: the functions of all of them first, as perf. */
	if (ss->m->nmods != 0 && analyze_prfd_table(tui_store(), ss->m,
	    cause) == 0)
		return (tui_hits_new(id, ss));
	free(*cause);
	*cause = NULL;
	return (slots_view(id, ss));
}

/* The exact flat profile by symbol, from the hit table. */

static int
hits_cmp(const void *a, const void *b, void *arg)
{
	const struct hits		*hv = arg;
	const struct analyze_prfd_flat	*x, *y;

	x = &hv->ss->m->flat[*(const size_t *)a];
	y = &hv->ss->m->flat[*(const size_t *)b];
	if (!hv->byaddr && x->hits != y->hits)
		return (x->hits > y->hits ? -1 : 1);
	if (x->addr != y->addr)
		return (x->addr < y->addr ? -1 : 1);
	return (*(const size_t *)a < *(const size_t *)b ? -1 : 1);
}

static void
hits_sort(struct hits *hv)
{
	size_t	i;

	for (i = 0; i < hv->ss->m->nflat; i++)
		hv->order[i] = i;
	qsort_r(hv->order, hv->ss->m->nflat, sizeof *hv->order, hits_cmp, hv);
}

static char *
hits_title(struct tui_view *tv)
{
	struct hits	*hv = tv->data;

	return (xasprintf("profview: %s: functions, %llu samples in %zu rows"
	    " by %s", hv->ss->program, (unsigned long long)
	    hv->ss->m->flat_total, hv->ss->m->nflat, hv->byaddr ? "address" :
	    "hits"));
}

static void
hits_draw(struct tui_view *tv, int y, int h, int w)
{
	struct hits			*hv = tv->data;
	const struct analyze_prfd	*m = hv->ss->m;
	const struct analyze_prfd_flat	*f;
	const char			*mod;
	char				*name;
	size_t				 i;
	int				 row, attr, yy, x, top = 0;

	/* The dump and its counters over the table, as the slots view. */
	if (h >= 6) {
		name = slots_head(m, hv->ss->program);
		tui_put(y, 0, w, A_BOLD, name);
		free(name);
		name = slots_counters(m);
		tui_put(y + 1, 0, w, TUI_PLAIN, name);
		free(name);
		top = 2;
	}
	tui_putf(y + top, 0, w, tui_attr(TUI_C_HEADER), "%8s %8s %9s %-12s"
	    " %-18s %s", m->all ? "of all" : "of run", "of these", "samples",
	    "address", "module", "function");
	top++;
	tv->list.y = y + top;
	tui_list_fit(&tv->list, h - top);
	for (row = 0; row < tv->list.height; row++) {
		if ((i = tv->list.top + (size_t)row) >= tv->list.n)
			break;
		f = &m->flat[hv->order[i]];
		yy = y + top + row;
		attr = i == tv->list.cur ? tui_attr(TUI_C_CURSOR) : TUI_PLAIN;
		if (attr != TUI_PLAIN)
			tui_fill(yy, 0, w, attr);
		x = tui_putf(yy, 0, w, attr != TUI_PLAIN ? attr :
		    tui_attr(tui_heat(m->flat[0].hits != 0 ? (double)f->hits /
		    (double)m->flat[0].hits : 0)), "%7.2f%%",
		    analyze_prfd_pct(m, (double)f->hits));
		x += tui_putf(yy, x, w - x, attr, " %7.2f%% %9llu %012llX ",
		    m->flat_total != 0 ? 100.0 * (double)f->hits /
		    (double)m->flat_total : 0, (unsigned long long)f->hits,
		    (unsigned long long)f->addr);
		mod = analyze_prfd_flat_module(m, f);
		/* "[kernel.kallsyms]" fits. */
		tui_fill(yy, x, 18, attr);
		tui_put_marks(yy, x, 18, attr, mod != NULL ? mod : "",
		    tui_search_marks(tv));
		x += 19;
		name = analyze_prfd_flat_name(m, f);
		tui_put_marks(yy, x, w - x, attr, name, tui_search_marks(tv));
		free(name);
	}
}

/*
 * A module's function has no detail counters: Enter shows its code, its
 * samples by instruction (tui/annotate.c, over a model the view owns).
 */
static int
hits_annotate(struct tui_view *tv, struct analyze_prfd *m,
    const struct analyze_prfd_flat *f)
{
	struct analyze_hist	*h = xcalloc(1, sizeof *h);
	char			*cause = NULL;

	if (analyze_prfd_module_hist(tui_store(), m, f, h, &cause) != 0) {
		free(h);
		tui_message("%s", cause);
		free(cause);
		return (TUI_R_DRAW);
	}
	return (tui_annotate_own(tv, h, f->addr));
}

static int
hits_key(struct tui_view *tv, int a)
{
	struct hits			*hv = tv->data;
	const struct analyze_prfd_flat	*f;
	size_t				 k;

	switch (a) {
	case HITS_ACT_SORT:
		k = tv->list.n != 0 ? hv->order[tv->list.cur] : 0;
		hv->byaddr = !hv->byaddr;
		hits_sort(hv);
		slots_resorted(tv, hv->order, k);
		tui_message("sorted by %s", hv->byaddr ? "address" : "hits");
		return (TUI_R_DRAW);
	case HITS_ACT_OPEN:
		if (tv->list.n == 0)
			return (TUI_R_NONE);
		f = &hv->ss->m->flat[hv->order[tv->list.cur]];
		if (f->slot == SIZE_MAX)
			return (hits_annotate(tv, hv->ss->m, f));
		return (slots_open(tv, hv->ss, f->slot, f->addr));
	case HITS_ACT_SLOTS:
		tui_push(slots_view(tv->session, hv->ss));
		return (TUI_R_DRAW);
	case HITS_ACT_PCT:
		return (slots_pct(hv->ss->m));
	default:
		return (TUI_R_UNUSED);
	}
}

static int
hits_match(struct tui_view *tv, size_t row, const char *pattern)
{
	struct hits			*hv = tv->data;
	const struct analyze_prfd_flat	*f = &hv->ss->m->flat[hv->order[row]];
	char				*name;
	int				 rc;

	name = analyze_prfd_flat_name(hv->ss->m, f);
	rc = tui_strcasestr(name, pattern) || (f->sym != SIZE_MAX &&
	    tui_search_in(&tv->search, f->addr, f->addr +
	    (hv->ss->m->syms[f->sym].size != 0 ?
	    hv->ss->m->syms[f->sym].size : 1)));
	free(name);
	return (rc);
}

static int
hits_export(struct tui_view *tv, int format, FILE *f, char **cause)
{
	struct hits	*hv = tv->data;

	return (tui_export_model(tv, hv->ss->m, format, f, cause));
}

static const void *
hits_model(struct tui_view *tv)
{
	return (((struct hits *)tv->data)->ss->m);
}

static void
hits_free(struct tui_view *tv)
{
	struct hits	*hv = tv->data;

	slots_unref(hv->ss);
	free(hv->order);
	free(hv);
}

static const struct tui_view_ops hits_ops = {
	.name = "hits",
	.keys = &hits_keys,
	.help = "the exact flat profile by function of every module",
	.draw = hits_draw,
	.key = hits_key,
	.title = hits_title,
	.match = hits_match,
	.export = hits_export,
	.model = hits_model,
	.free = hits_free,
};

static struct tui_view *
tui_hits_new(int64_t session, struct slots *ss)
{
	struct hits	*hv = xcalloc(1, sizeof *hv);
	struct tui_view	*tv;

	ss->refs++;
	hv->ss = ss;
	hv->order = xcalloc(ss->m->nflat + 1, sizeof *hv->order);
	hits_sort(hv);
	tv = tui_view_new(&hits_ops, hv);
	tv->session = session;
	tv->list.n = ss->m->nflat;
	return (tv);
}

static const struct tui_keys *const slots_groups[] = {
	&slots_keys, &hits_keys, NULL
};

const struct tui_mode tui_mode_slots = {
	.open = slots_new,
	.keys = slots_groups,
	.what = "the slots view",
};
