/*
 * The per-unit table of an OVD session, opened from its timeline: loads,
 * reprieves, resident share and mean time between reloads, the most
 * thrashed units first.  Enter puts the timeline's cursor on the unit's
 * first event and goes back to it.  The timeline is the view's parent:
 * the units come from its model and the jump is its jump op, so neither
 * view knows the other's insides.
 */
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "analyze/ovd.h"
#include "report/report.h"
#include "tui/tui.h"
#include "tui/timeline.h"

/* The actions of its keys (tui.h: numbered from TUI_ACT_VIEW). */
enum units_action {
	UNITS_ACT_SORT = TUI_ACT_VIEW,
	UNITS_ACT_OPEN,
	UNITS_ACT_BACK
};

static const struct tui_key units_bind[] = {
	TUI_KEY(UNITS_ACT_SORT, "s",
	    "cycle the sort (thrash, resident, reloads, segment)"),
	TUI_KEY(UNITS_ACT_OPEN, "Enter",
	    "back to the timeline, on the unit's first event"),
	TUI_KEY(UNITS_ACT_BACK, "u Tab", "back to the timeline"),
};
const struct tui_keys tui_keys_units = TUI_KEYS("units",
    "In the unit table", units_bind);

enum units_sort {
	UNITS_THRASH,		/* loads, then reprieves, then reload time */
	UNITS_RESIDENT,
	UNITS_RELOAD,		/* mean time between reloads, shortest first */
	UNITS_SEGMENT,
	UNITS_NSORT
};

static const char *units_sort_name[UNITS_NSORT] = {
	"thrash (loads, reprieves)", "resident share", "time between reloads",
	"segment"
};

struct units {
	const struct analyze_ovd	*o;	/* the parent's model */
	char				*program;
	size_t				*order;
	int				 sort;
	uint64_t			 maxloads;
};

static int
units_cmp(const void *a, const void *b, void *arg)
{
	const struct units		*us = arg;
	const struct analyze_ovd_unit	*x = &us->o->units[*(const size_t *)a];
	const struct analyze_ovd_unit	*y = &us->o->units[*(const size_t *)b];
	double				 rx, ry;

	switch (us->sort) {
	case UNITS_THRASH:
		if (x->loads != y->loads)
			return (x->loads > y->loads ? -1 : 1);
		if (x->reprieves != y->reprieves)
			return (x->reprieves > y->reprieves ? -1 : 1);
		/* Then the one reloaded more often. */
		rx = x->mean_reload_ticks;
		ry = y->mean_reload_ticks;
		if (rx != ry && rx >= 0 && ry >= 0)
			return (rx < ry ? -1 : 1);
		break;
	case UNITS_RESIDENT:
		if (x->resident_share != y->resident_share)
			return (x->resident_share > y->resident_share ? -1 : 1);
		break;
	case UNITS_RELOAD:
		/* Units reloaded fewer than twice have none: last. */
		rx = x->mean_reload_ticks;
		ry = y->mean_reload_ticks;
		if ((rx < 0) != (ry < 0))
			return (rx < 0 ? 1 : -1);
		if (rx != ry)
			return (rx < ry ? -1 : 1);
		break;
	}
	return (x->stat_seg < y->stat_seg ? -1 : x->stat_seg > y->stat_seg);
}

static void
units_sort(struct units *us)
{
	size_t	i;

	for (i = 0; i < us->o->nunits; i++)
		us->order[i] = i;
	qsort_r(us->order, us->o->nunits, sizeof *us->order, units_cmp, us);
}

static char *
units_title(struct tui_view *tv)
{
	struct units	*us = tv->data;

	return (xasprintf("profview: %s: %zu overlay units by %s",
	    us->program, us->o->nunits,
	    units_sort_name[us->sort]));
}

/*
 * Whether the search's number is the unit's static segment, as the table
 * shows it (its code has no address of its own: it is loaded where the
 * buffer has room).
 */
static int
units_addr(struct tui_view *tv, const struct analyze_ovd_unit *u)
{
	return (tui_search_in(&tv->search, u->stat_seg, u->stat_seg + 1));
}

static void
units_draw(struct tui_view *tv, int y, int h, int w)
{
	struct units			*us = tv->data;
	const struct analyze_ovd_unit	*u;
	size_t				 i;
	int				 row, attr, yy, namew = 14, barw;
	char				 reload[32];

	barw = w - namew - 58;
	tui_putf(y, 0, w, tui_attr(TUI_C_HEADER), "%-*s %7s %6s %8s %9s %8s"
	    " %9s", namew, "unit", "StatSeg", "code", "loads", "reprieves",
	    "resident", "reload s");
	tv->list.y = y + 1;
	tui_list_fit(&tv->list, h - 1);
	for (row = 0; row < tv->list.height; row++) {
		if ((i = tv->list.top + (size_t)row) >= tv->list.n)
			break;
		u = &us->o->units[us->order[i]];
		yy = y + 1 + row;
		attr = i == tv->list.cur ? tui_attr(TUI_C_CURSOR) : TUI_PLAIN;
		if (attr != TUI_PLAIN)
			tui_fill(yy, 0, w, attr);
		if (u->mean_reload_ticks < 0)
			snprintf(reload, sizeof reload, "-");
		else
			snprintf(reload, sizeof reload, "%.3f",
			    analyze_ovd_seconds(1) * u->mean_reload_ticks);
		tui_put_marks(yy, 0, namew, attr, u->name,
		    tui_search_marks(tv));
		tui_putf(yy, namew + 3, 5, tui_search_marks(tv) != NULL &&
		    units_addr(tv, u) ? tui_attr(TUI_C_MATCH) : attr,
		    "%04Xh", u->stat_seg);
		tui_putf(yy, namew + 8, w - namew - 8, attr, " %6u %8llu %9llu"
		    " %7.1f%% %9s", u->code_size,
		    (unsigned long long)u->loads,
		    (unsigned long long)u->reprieves,
		    100.0 * u->resident_share, reload);
		tui_bar(yy, namew + 58, barw, us->maxloads != 0 ?
		    (double)u->loads / (double)us->maxloads : 0,
		    attr != TUI_PLAIN);
	}
}

static int
units_key(struct tui_view *tv, int a)
{
	struct units	*us = tv->data;
	size_t		 unit, i;

	switch (a) {
	case UNITS_ACT_SORT:
		unit = tv->list.n != 0 ? us->order[tv->list.cur] : 0;
		us->sort = (us->sort + 1) % UNITS_NSORT;
		units_sort(us);
		tv->search.stale = 1;
		/* The cursor stays on its unit. */
		for (i = 0; i < tv->list.n; i++) {
			if (us->order[i] == unit)
				tui_list_goto(&tv->list, i);
		}
		tui_message("sorted by %s", units_sort_name[us->sort]);
		return (TUI_R_DRAW);
	case UNITS_ACT_OPEN:
	case UNITS_ACT_BACK:
		if (tv->list.n == 0 || a == UNITS_ACT_BACK) {
			tui_pop();
			return (TUI_R_DRAW);
		}
		unit = us->order[tv->list.cur];
		if (tv->parent->ops->jump(tv->parent, unit) != 0) {
			tui_message("%s has no events",
			    us->o->units[unit].name);
			return (TUI_R_DRAW);
		}
		tui_message("first event of %s", us->o->units[unit].name);
		tui_pop();
		return (TUI_R_DRAW);
	default:
		return (TUI_R_UNUSED);
	}
}

static int
units_match(struct tui_view *tv, size_t row, const char *pattern)
{
	struct units			*us = tv->data;
	const struct analyze_ovd_unit	*u = &us->o->units[us->order[row]];

	return (tui_strcasestr(u->name, pattern) || units_addr(tv, u));
}

static int
units_export(struct tui_view *tv, int format, FILE *f, char **cause)
{
	struct units	*us = tv->data;

	return (tui_export_model(tv, us->o, format, f, cause));
}

static void
units_free(struct tui_view *tv)
{
	struct units	*us = tv->data;

	free(us->order);
	free(us->program);
	free(us);
}

static int	units_jump(struct tui_view *, size_t);

static const struct tui_view_ops units_ops = {
	.name = "units",
	.keys = &tui_keys_units,
	.help = "an OVD session's overlay units, the most thrashed first",
	.draw = units_draw,
	.key = units_key,
	.title = units_title,
	.match = units_match,
	.export = units_export,
	.jump = units_jump,
	.free = units_free,
};

/* Put the cursor on unit k's row. */
static int
units_jump(struct tui_view *tv, size_t k)
{
	struct units	*us = tv->data;
	size_t		 i;

	for (i = 0; i < tv->list.n; i++) {
		if (us->order[i] == k) {
			tui_list_goto(&tv->list, i);
			return (0);
		}
	}
	return (-1);
}

/* The unit table of parent, an OVD session's view with model and jump. */
struct tui_view *
tui_units_new(struct tui_view *parent)
{
	struct units	*us = xcalloc(1, sizeof *us);
	struct tui_view	*tv;
	size_t		 i;

	us->o = parent->ops->model(parent);
	us->program = tui_session_name(parent->session);
	us->order = xcalloc(us->o->nunits + 1, sizeof *us->order);
	for (i = 0; i < us->o->nunits; i++) {
		if (us->o->units[i].loads > us->maxloads)
			us->maxloads = us->o->units[i].loads;
	}
	units_sort(us);
	tv = tui_view_new(&units_ops, us);
	tv->parent = parent;
	tv->session = parent->session;
	tv->list.n = us->o->nunits;
	return (tv);
}
