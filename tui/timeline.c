/*
 * The timeline of an OVD session: a time axis in seconds, one lane per
 * overlay unit (loads, reprieves, residency), the overlay buffer's
 * paragraphs over time coloured by the unit in them, and a cursor on the
 * events with a detail pane.
 *
 * Everything comes from an analyze_ovd load at open and its timeline
 * index (analyze_ovd_index_*), both done in steps by the view's work() so
 * that the screen, keys and signals stay live while millions of events
 * load.  The index answers what any window of time holds in a few binary
 * searches; this file lays out, draws, and keeps the columns of the last
 * frame.
 */
#include <stddef.h>
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
enum tl_action {
	TL_ACT_NEXT = TUI_ACT_VIEW,
	TL_ACT_PREV,
	TL_ACT_FIRST,
	TL_ACT_LAST,
	TL_ACT_LEFT,
	TL_ACT_RIGHT,
	TL_ACT_PAGE_LEFT,
	TL_ACT_PAGE_RIGHT,
	TL_ACT_MERGE,
	TL_ACT_SPLIT,
	TL_ACT_UNIT_PREV,
	TL_ACT_UNIT_NEXT,
	TL_ACT_UNITS,
	TL_ACT_UNIT
};

static const struct tui_key tl_bind[] = {
	TUI_KEY(TL_ACT_NEXT, "j Down C-n", "the next event"),
	TUI_KEY(TL_ACT_PREV, "k Up C-p", "the previous event"),
	TUI_KEY(TL_ACT_FIRST, "Home g", "the first event"),
	TUI_KEY(TL_ACT_LAST, "End G", "the last event"),
	TUI_KEY(TL_ACT_LEFT, "h Left", "pan an eighth of a screen left"),
	TUI_KEY(TL_ACT_RIGHT, "l Right", "pan an eighth of a screen right"),
	TUI_KEY(TL_ACT_PAGE_LEFT, "PageUp C-b", "pan a screen left"),
	TUI_KEY(TL_ACT_PAGE_RIGHT, "PageDown C-f Space", "pan a screen right"),
	TUI_KEY(TL_ACT_MERGE, "+", "merge time columns (zoom out)"),
	TUI_KEY(TL_ACT_SPLIT, "-", "split time columns (zoom in)"),
	TUI_KEY(TL_ACT_UNIT_PREV, "[",
	    "previous event of the unit under the cursor"),
	TUI_KEY(TL_ACT_UNIT_NEXT, "]",
	    "next event of the unit under the cursor"),
	TUI_KEY(TL_ACT_UNITS, "u Tab", "the per-unit table"),
	TUI_KEY(TL_ACT_UNIT, "Enter",
	    "the per-unit table, on the cursor's unit"),
};
static const struct tui_keys tl_keys = TUI_KEYS("timeline",
    "In the timeline", tl_bind);

/*
 * Its colours (draw.c makes them after the browser's): the cursor's
 * column and cell, and the units', taking turns (TL_C_UNIT1 + k % 6).
 */
enum tl_colour {
	TL_C_MARK,
	TL_C_MARK_HERE,
	TL_C_UNIT1, TL_C_UNIT2, TL_C_UNIT3, TL_C_UNIT4, TL_C_UNIT5,
	TL_C_UNIT6,
	TL_C_COUNT
};
#define TL_NUNIT_COLOURS	(TL_C_UNIT6 - TL_C_UNIT1 + 1)
static const struct tui_colour tl_colour[TL_C_COUNT] = {
	/*
	 * The timeline's cursor: a column through every lane and the band,
	 * and in it the cursor's own cell, a notch that no unit's colour
	 * (the list cursor's green is one) can hide.
	 */
	[TL_C_MARK] = { COLOR_BLACK, COLOR_WHITE, COLOR_BLACK, COLOR_WHITE,
	    0, A_REVERSE },
	[TL_C_MARK_HERE] = { COLOR_WHITE, COLOR_BLACK, COLOR_WHITE,
	    COLOR_BLACK, A_BOLD, A_BOLD | A_UNDERLINE },

	/* Black on the unit's colour; on vt100 the letters tell. */
	[TL_C_UNIT1] = { COLOR_BLACK, COLOR_BLUE, COLOR_BLACK, COLOR_BLUE,
	    0, A_NORMAL },
	[TL_C_UNIT2] = { COLOR_BLACK, COLOR_GREEN, COLOR_BLACK, COLOR_GREEN,
	    0, A_NORMAL },
	[TL_C_UNIT3] = { COLOR_BLACK, COLOR_MAGENTA, COLOR_BLACK,
	    COLOR_MAGENTA, 0, A_NORMAL },
	[TL_C_UNIT4] = { COLOR_BLACK, COLOR_CYAN, COLOR_BLACK, COLOR_CYAN,
	    0, A_NORMAL },
	[TL_C_UNIT5] = { COLOR_BLACK, COLOR_YELLOW, COLOR_BLACK,
	    COLOR_YELLOW, 0, A_NORMAL },
	[TL_C_UNIT6] = { COLOR_BLACK, COLOR_RED, COLOR_BLACK, COLOR_RED,
	    0, A_NORMAL },
};
static struct tui_colours tl_colours = { tl_colour, TL_C_COUNT, 0 };
#define TL_COLOUR(c)	(tl_colours.base + (int)(c))

#define TL_DETAIL	3	/* rows of the detail pane */
#define TL_BAND_MAX	16	/* rows of the buffer band */
#define TL_STEP_ROWS	2048	/* rows between looks at the clock */
#define TL_STEP_INDEX	16384	/* events or stays, likewise */
#define TL_CURSOR_CH	'|'	/* the cursor's column, where blank */

/* Whether a call site's name has the search's pattern (tl_site_hit). */
struct tl_site {
	uint64_t	key;		/* unit << 16 | offset, + 1; 0: free */
	int		hit;
};

enum tl_state {
	TL_LOADING,
	TL_READY,
	TL_CANCELLED,
	TL_FAILED
};

struct timeline {
	struct analyze_ovd	 o;
	char			*program;
	enum tl_state		 state;
	struct analyze_ovd_loader *ld;
	int			 pct;		/* of the load, for the frame */
	const char		*what;
	char			*error;
	struct analyze_ovd_index *ix;

	int			 zoom;		/* log2 of ticks per column */
	int			 fit;		/* zoom to fit at the next draw */
	int64_t			 t0;		/* time at the first column */
	size_t			 shown;		/* cursor at the last draw */
	size_t			 lane_top;

	/* Where the last frame put things, for the mouse and panning. */
	int			 gw;		/* gutter width */
	int			 cols;		/* time columns */
	int			 axis_y;
	int			 lane_y;
	int			 nlane;
	int			 band_y;
	int			 band_h;

	char			*mpat;		/* search: per-unit match cache */
	char			*mhit;
	struct tl_site		*sites;		/* and per site */
	size_t			 nsites;
	size_t			 sitecap;	/* a power of two */

	struct analyze_ovd_slot	*slots;		/* scratch: a load list */

	/* The columns of the last frame (see tl_cache). */
	struct analyze_ovd_cell	*c_cell;	/* [column * nunits + unit] */
	uint32_t		*c_band;	/* [column * band_h + row] */
	char			*c_ok;
	int64_t			 c_t0;
	int			 c_zoom;
	int			 c_cols;
	int			 c_bh;
};


static uint64_t	tl_site_addr(struct timeline *,
		    const struct analyze_ovd_event *);

/* The attribute of unit k's cells: its colour, or nothing on vt100. */
static int
tl_unit_attr(uint32_t k)
{
	return (tui_attr(TL_COLOUR(TL_C_UNIT1 + k % TL_NUNIT_COLOURS)));
}

/* The letter that stands for unit k in the band and the gutter. */
static char
tl_letter(uint32_t k)
{
	if (k < 26)
		return ((char)('A' + k));
	if (k < 52)
		return ((char)('a' + k - 26));
	return ('#');
}

static int64_t
tl_width(const struct timeline *tl)
{
	return ((int64_t)1 << tl->zoom);
}

static int64_t
tl_span(const struct timeline *tl)
{
	return (tl->o.t_last - tl->o.t_first + 1);
}

/* The coarsest zoom needed: the whole run in cols columns. */
static int
tl_zmax(const struct timeline *tl, int cols)
{
	int	z = 0;

	if (cols < 1)
		cols = 1;
	while (z < 40 && ((int64_t)cols << z) < tl_span(tl))
		z++;
	return (z);
}

/* Keep the view inside the run (all of it at the coarsest zoom). */
static void
tl_clamp(struct timeline *tl)
{
	int64_t	view = (int64_t)(tl->cols > 0 ? tl->cols : 1) << tl->zoom;

	if (view >= tl_span(tl)) {
		tl->t0 = tl->o.t_first;
		return;
	}
	if (tl->t0 > tl->o.t_last + 1 - view)
		tl->t0 = tl->o.t_last + 1 - view;
	if (tl->t0 < tl->o.t_first)
		tl->t0 = tl->o.t_first;
}

static int
tl_visible(const struct timeline *tl, int64_t t)
{
	return (t >= tl->t0 && t < tl->t0 + ((int64_t)tl->cols << tl->zoom));
}

static void
tl_center(struct timeline *tl, int64_t t)
{
	tl->t0 = t - ((int64_t)(tl->cols / 2) << tl->zoom);
	tl_clamp(tl);
}

static const struct analyze_ovd_event *
tl_cur(struct tui_view *tv)
{
	struct timeline	*tl = tv->data;

	return (&tl->o.events[tv->list.cur]);
}

/* Move the cursor to event i and bring it into view. */
static void
tl_goto(struct tui_view *tv, size_t i)
{
	struct timeline	*tl = tv->data;

	if (tl->o.nevents == 0)
		return;
	if (i >= tl->o.nevents)
		i = tl->o.nevents - 1;
	tv->list.cur = i;
	if (!tl_visible(tl, tl->o.events[i].ticks))
		tl_center(tl, tl->o.events[i].ticks);
	tl->shown = i;
}

/* Pan by n columns; a cursor that leaves the screen comes along. */
static void
tl_pan(struct tui_view *tv, int n)
{
	struct timeline	*tl = tv->data;
	int64_t		 t, end, was = tl->t0;
	size_t		 i;

	if (tl->o.nevents == 0)
		return;
	tl->t0 += (int64_t)n * tl_width(tl);
	tl_clamp(tl);
	if (tl->t0 == was)
		tui_message("%s", n < 0 ? "at the start of the run" :
		    "at the end of the run");
	if (tl_visible(tl, tl_cur(tv)->ticks))
		return;
	end = tl->t0 + ((int64_t)tl->cols << tl->zoom);
	i = analyze_ovd_event_at(tl->ix, tl->t0);
	if (n < 0 && (i = analyze_ovd_event_at(tl->ix, end)) > 0)
		i--;
	if (i >= tl->o.nevents)
		i = tl->o.nevents - 1;
	t = tl->o.events[i].ticks;
	if (t >= tl->t0 && t < end)
		tv->list.cur = i;
	tl->shown = tv->list.cur;	/* stay here, even with no event */
}

static void
tl_zoom(struct tui_view *tv, int dir)
{
	struct timeline	*tl = tv->data;
	int64_t		 t = tl_cur(tv)->ticks, x;
	int		 zmax = tl_zmax(tl, tl->cols), z = tl->zoom + dir;

	if (z < 0 || z > zmax) {
		tui_message("zoom %lld tick%s/column is the %s",
		    (long long)tl_width(tl), tl->zoom == 0 ? "" : "s",
		    dir > 0 ? "coarsest" : "finest");
		return;
	}
	/* The cursor stays in its column. */
	x = tl_visible(tl, t) ? (t - tl->t0) >> tl->zoom : tl->cols / 2;
	tl->zoom = z;
	tl->t0 = t - (x << z);
	tl_clamp(tl);
	if (!tl_visible(tl, t))
		tl_center(tl, t);
	tui_message("zoom %lld tick%s/column (%.3f s)",
	    (long long)tl_width(tl), z == 0 ? "" : "s",
	    analyze_ovd_seconds(tl_width(tl)));
}

/* Gutter, columns and zoom for a screen w wide. */
static void
tl_layout(struct timeline *tl, int w)
{
	size_t	k, maxname = 0;

	for (k = 0; k < tl->o.nunits; k++) {
		if (strlen(tl->o.units[k].name) > maxname)
			maxname = strlen(tl->o.units[k].name);
	}
	tl->gw = (int)maxname + 3 < 15 ? (int)maxname + 3 : 15;
	if (tl->gw < 8)
		tl->gw = 8;
	if (tl->gw > w / 3)
		tl->gw = w / 3;
	tl->cols = w - tl->gw > 1 ? w - tl->gw : 1;
	if (tl->o.nevents == 0)
		return;
	if (tl->fit) {
		tl->zoom = tl_zmax(tl, tl->cols);
		tl->fit = 0;
	} else if (tl->zoom > tl_zmax(tl, tl->cols))
		tl->zoom = tl_zmax(tl, tl->cols);
	tl_clamp(tl);
}

static char *
tl_title(struct tui_view *tv)
{
	struct timeline	*tl = tv->data;

	if (tl->state != TL_READY)
		return (xasprintf("profview: %s: overlay timeline, %s",
		    tl->program, tl->state == TL_LOADING ? "loading" :
		    tl->state == TL_CANCELLED ? "interrupted" : "failed"));
	/* The title is drawn first: lay out for this frame now. */
	tl_layout(tl, COLS);

	return (xasprintf("profview: %s: overlay timeline, %lld tick%s/column",
	    tl->program, (long long)tl_width(tl), tl->zoom == 0 ? "" : "s"));
}

/* Tick labels: a round number of seconds about every 12 columns. */
static void
tl_draw_axis(struct timeline *tl, int y, int w)
{
	static const double	nice[] = { 1, 2, 5 };
	double			spc, step = 0, p, s;
	char			label[32];
	int			x, last = -1, dec = 0, i, n;
	int64_t			t;

	tui_put(y, 0, tl->gw, tui_attr(TUI_C_HEADER), tl->gw >= 8 ? "seconds" :
	    "s");
	spc = analyze_ovd_seconds(tl_width(tl));
	for (p = 1e-4; step == 0 && p < 1e9; p *= 10) {
		for (i = 0; i < 3; i++) {
			if (nice[i] * p >= 12 * spc) {
				step = nice[i] * p;
				break;
			}
		}
		if (step == 0 && p < 1)
			dec++;
	}
	if (step == 0)
		return;
	dec = step >= 1 ? 0 : (step >= 0.1 ? 1 : (step >= 0.01 ? 2 : 3));
	s = (double)(long long)(analyze_ovd_seconds(tl->t0) / step) * step;
	for (; ; s += step) {
		t = (int64_t)(s * ANALYZE_OVD_TICKS_PER_S + 0.999999);
		if (t < tl->t0)
			continue;
		x = (int)((t - tl->t0) >> tl->zoom);
		if (x >= tl->cols)
			break;
		if (x <= last)
			continue;
		n = snprintf(label, sizeof label, "|%.*f", dec, s);
		if (x + n > tl->cols)
			break;
		tui_put(y, tl->gw + x, w - tl->gw - x, TUI_PLAIN, label);
		last = x + n;
	}
}

/*
 * Fill the columns not yet known.  The cache survives a cursor move and
 * shifts with a pan, so only a zoom or a resize computes every column.
 */
static void
tl_cache(struct timeline *tl)
{
	size_t	nu = tl->o.nunits, bh = (size_t)tl->band_h, n, m, x, end;
	int64_t	w = tl_width(tl), d, a;

	n = (size_t)tl->cols;
	if (tl->c_cols != tl->cols || tl->c_zoom != tl->zoom ||
	    tl->c_bh != tl->band_h || (tl->t0 - tl->c_t0) % w != 0) {
		tl->c_cell = xreallocarray(tl->c_cell, n * nu + 1,
		    sizeof *tl->c_cell);
		tl->c_band = xreallocarray(tl->c_band, n * bh + 1,
		    sizeof *tl->c_band);
		tl->c_ok = xreallocarray(tl->c_ok, n + 1, 1);
		memset(tl->c_ok, 0, n);
		tl->c_cols = tl->cols;
		tl->c_zoom = tl->zoom;
		tl->c_bh = tl->band_h;
	} else if ((d = (tl->t0 - tl->c_t0) / w) >= (int64_t)n ||
	    -d >= (int64_t)n)
		memset(tl->c_ok, 0, n);
	else if (d > 0) {
		m = (size_t)d;
		memmove(tl->c_cell, tl->c_cell + m * nu, (n - m) * nu *
		    sizeof *tl->c_cell);
		memmove(tl->c_band, tl->c_band + m * bh, (n - m) * bh *
		    sizeof *tl->c_band);
		memmove(tl->c_ok, tl->c_ok + m, n - m);
		memset(tl->c_ok + n - m, 0, m);
	} else if (d < 0) {
		m = (size_t)-d;
		memmove(tl->c_cell + m * nu, tl->c_cell, (n - m) * nu *
		    sizeof *tl->c_cell);
		memmove(tl->c_band + m * bh, tl->c_band, (n - m) * bh *
		    sizeof *tl->c_band);
		memmove(tl->c_ok + m, tl->c_ok, n - m);
		memset(tl->c_ok, 0, m);
	}
	tl->c_t0 = tl->t0;
	/* Each run of unknown columns is one call: its windows chain. */
	for (x = 0; x < n; x = end) {
		if (tl->c_ok[x]) {
			end = x + 1;
			continue;
		}
		for (end = x + 1; end < n && !tl->c_ok[end]; end++)
			/* nothing */;
		analyze_ovd_windows(tl->ix, tl->t0 + (int64_t)x * w, w,
		    end - x, tl->c_cell + x * nu);
		for (; x < end; x++) {
			a = tl->t0 + (int64_t)x * w;
			analyze_ovd_band(tl->ix, a, a + w, tl->c_band + x * bh,
			    bh);
			tl->c_ok[x] = 1;
		}
	}
}

/* One lane: what each column's window holds for unit k. */
static void
tl_draw_lane(struct tui_view *tv, uint32_t k, int y, int w)
{
	struct timeline			*tl = tv->data;
	const struct analyze_ovd_unit	*u = &tl->o.units[k];
	const struct analyze_ovd_event	*cur = tl_cur(tv);
	const struct analyze_ovd_cell	*c;
	int64_t				 width = tl_width(tl);
	int				 x, attr, curx = -1;
	char				 ch, name[64];

	if (tl_visible(tl, cur->ticks))
		curx = (int)((cur->ticks - tl->t0) >> tl->zoom);
	snprintf(name, sizeof name, "%c %s", tl_letter(k), u->name);
	x = tui_put(y, 0, tl->gw - 1, cur->unit == k ? A_BOLD : TUI_PLAIN,
	    name);
	/* The unit's name, not the letter, is what a search looks at. */
	tui_put_marks(y, 2, x - 2, cur->unit == k ? A_BOLD : TUI_PLAIN,
	    u->name, tui_search_marks(tv));
	move(y, tl->gw);
	for (x = 0; x < tl->cols && tl->gw + x < w; x++) {
		c = &tl->c_cell[(size_t)x * tl->o.nunits + k];
		attr = c->resident_ticks > 0 ? tl_unit_attr(k) : TUI_PLAIN;
		if (c->loads != 0) {
			ch = 'L';
			attr |= A_BOLD;
		} else if (c->reprieves != 0)
			ch = 'r';
		else if (c->resident_ticks >= width)
			ch = '=';
		else if (c->resident_ticks > 0)
			ch = '-';
		else
			ch = ' ';
		/* The cursor's column runs through every lane. */
		if (x == curx && cur->unit == k)
			attr = tui_attr(TL_COLOUR(TL_C_MARK_HERE));
		else if (x == curx) {
			attr = tui_attr(TL_COLOUR(TL_C_MARK));
			ch = ch == ' ' ? TL_CURSOR_CH : ch;
		}
		addch((chtype)(unsigned char)ch | (chtype)attr);
	}
}

/*
 * The buffer band: row r is a run of paragraphs from the lowest
 * OvrHeapOrg, column x the load list in effect in the middle of its
 * window.  Outside the buffer's limits of the moment is blank, free
 * paragraphs are '.', a unit's are its letter in its colour.
 */
static void
tl_draw_band(struct tui_view *tv, int y, int h, int w)
{
	struct timeline	*tl = tv->data;
	const struct analyze_ovd_event *cur = tl_cur(tv);
	uint16_t	 porg = tl->ix->porg, pend = tl->ix->pend;
	uint32_t	 paras = pend - porg, v;
	int		 x, r, curx = -1;
	chtype		 ch;

	if (tl_visible(tl, cur->ticks))
		curx = (int)((cur->ticks - tl->t0) >> tl->zoom);

	tui_putf(y - 1, 0, w, tui_attr(TUI_C_HEADER), "buffer %04Xh..%04Xh,"
	    " %u paragraphs, low at top", porg, pend, paras);
	for (r = 0; r < h; r++) {
		tui_putf(y + r, 0, tl->gw - 1, TUI_PLAIN, "%04Xh", porg +
		    (unsigned)((uint64_t)paras * (unsigned)r / (unsigned)h));
		move(y + r, tl->gw);
		for (x = 0; x < tl->cols && tl->gw + x < w; x++) {
			v = tl->c_band[(size_t)x * (size_t)h + (size_t)r];
			if (v == ANALYZE_OVD_BAND_OUT)
				ch = ' ';
			else if (v == ANALYZE_OVD_BAND_FREE)
				ch = '.';
			else
				ch = (chtype)(unsigned char)tl_letter(v - 2) |
				    (chtype)tl_unit_attr(v - 2);
			/* And through the buffer, as through the lanes. */
			if (x == curx)
				ch = ((ch & A_CHARTEXT) == ' ' ? TL_CURSOR_CH :
				    (ch & A_CHARTEXT)) | (chtype)tui_attr(
				    TL_COLOUR(TL_C_MARK));
			addch(ch);
		}
	}
}

/* What the glyphs of the lanes and the band mean, drawn as they are. */
static void
tl_draw_legend(int y, int w)
{
	static const struct {
		char		 glyph[2];
		int		 cursor;
		const char	*what;
	} legend[] = {
		{ "L", 0, "load" },
		{ "r", 0, "reprieve" },
		{ "=", 0, "resident" },
		{ "-", 0, "resident in part" },
		{ ".", 0, "free" },
		{ { TL_CURSOR_CH, '\0' }, 1, "cursor" },
	};
	size_t	i;
	int	x = 0;

	for (i = 0; i < sizeof legend / sizeof legend[0] && x < w; i++) {
		x += tui_put(y, x, w - x, legend[i].cursor ?
		    tui_attr(TL_COLOUR(TL_C_MARK)) : (int)A_BOLD,
		    legend[i].glyph);
		x += tui_putf(y, x, w - x, TUI_PLAIN, " %s  ", legend[i].what);
	}
}

/* The load list in effect at event i: "UNIT1@2000h UNIT3@2080h". */
static char *
tl_load_list(struct timeline *tl, size_t i)
{
	char	*out = xstrdup(""), *tmp;
	size_t	 n, j;

	n = analyze_ovd_load_list(tl->ix, i, tl->slots);
	for (j = 0; j < n; j++) {
		tmp = xasprintf("%s%s%s@%04Xh", out, j != 0 ? " " : "",
		    tl->o.units[tl->slots[j].unit].name, tl->slots[j].load_seg);
		free(out);
		out = tmp;
	}
	if (n == 0) {
		free(out);
		out = xstrdup("(empty)");
	}
	return (out);
}

static void
tl_draw_detail(struct tui_view *tv, int y, int h, int w)
{
	struct timeline			*tl = tv->data;
	const struct analyze_ovd_event	*e = tl_cur(tv);
	const struct analyze_ovd_unit	*u = &tl->o.units[e->unit];
	const struct analyze_ovd_buffer	*bf;
	const char			*marks = tui_search_marks(tv);
	char				*site, *list;
	int				 x;

	site = analyze_ovd_site(&tl->o, e->unit, e->ovr_ofs);
	if (h == 1) {
		tui_putf(y, 0, w, A_BOLD, "%.3fs %s %s %s",
		    analyze_ovd_seconds(e->ticks), e->reprieve ? "reprieve" :
		    "load", u->name, site);
		free(site);
		return;
	}
	/* In pieces: a search marks the unit, the site, its address. */
	x = tui_putf(y, 0, w, A_BOLD, "event %zu: %s of ", tv->list.cur,
	    e->reprieve ? "reprieve" : "load");
	x += tui_put_marks(y, x, w - x, A_BOLD, u->name, marks);
	x += tui_putf(y, x, w - x, A_BOLD, " at %.3f s (tick %lld), called"
	    " from ", analyze_ovd_seconds(e->ticks), (long long)e->ticks);
	x += tui_put_marks(y, x, w - x, A_BOLD, site, marks);
	x += tui_put(y, x, w - x, A_BOLD, " (");
	x += tui_putf(y, x, w - x, marks != NULL && tui_search_in(&tv->search,
	    tl_site_addr(tl, e), tl_site_addr(tl, e) + 1) ?
	    tui_attr(TUI_C_MATCH) : (int)A_BOLD, "%04Xh:%04Xh", u->stat_seg,
	    e->ovr_ofs);
	tui_put(y, x, w - x, A_BOLD, ")");
	free(site);
	bf = analyze_ovd_buffer_of(&tl->o, e);
	tui_putf(y + 1, 0, w, TUI_PLAIN, "buffer OvrHeapOrg %04Xh..OvrHeapEnd"
	    " %04Xh (%u bytes); %s %llu loads, %llu reprieves", bf->heap_org,
	    bf->heap_end, bf->heap_end > bf->heap_org ?
	    ((unsigned)bf->heap_end - bf->heap_org) * 16 : 0, u->name,
	    (unsigned long long)u->loads, (unsigned long long)u->reprieves);
	list = tl_load_list(tl, tv->list.cur);
	tui_putf(y + 2, 0, w, TUI_PLAIN, "loaded: %s", list);
	free(list);
}

static void
tl_draw(struct tui_view *tv, int y, int h, int w)
{
	struct timeline	*tl = tv->data;
	size_t		 k;
	int		 hdr, axis, detail, legend, rest, i;

	tv->list.y = y;
	tv->list.height = h;
	switch (tl->state) {
	case TL_LOADING:
		tui_putf(y + h / 2, 2, w - 2, TUI_PLAIN, "loading the overlay"
		    " timeline of session %lld: %d%% (%s)", (long long)
		    tv->session, tl->pct, tl->what);
		return;
	case TL_CANCELLED:
		tui_putf(y + h / 2, 2, w - 2, TUI_PLAIN, "loading session %lld"
		    " was interrupted; q closes the view, :open %lld loads it"
		    " again", (long long)tv->session, (long long)tv->session);
		return;
	case TL_FAILED:
		tui_putf(y + h / 2, 2, w - 2, tui_attr(TUI_C_ERROR), "%s",
		    tl->error);
		return;
	case TL_READY:
		break;
	}
	if (tl->o.nevents == 0) {
		tui_putf(y, 0, w, TUI_PLAIN, "%s: %zu units, no events.",
		    tl->program, tl->o.nunits);
		return;
	}
	tl_layout(tl, w);
	/* A cursor moved by search or a jump comes into view. */
	if (tv->list.cur != tl->shown)
		tl_goto(tv, tv->list.cur);

	/* Small screens lose the header, then the band and the detail. */
	hdr = h >= 14;
	axis = h >= 3;
	detail = h >= 14 ? TL_DETAIL : (h >= 4 ? 1 : 0);
	rest = h - hdr - axis - detail;
	legend = hdr && rest >= 9;
	rest -= legend;
	tl->band_h = 0;
	tl->nlane = rest < (int)tl->o.nunits ? rest : (int)tl->o.nunits;
	if (rest >= 8) {
		if (tl->nlane > rest - 4)
			tl->nlane = rest - 4;
		tl->band_h = rest - 1 - tl->nlane;
		if (tl->band_h > TL_BAND_MAX)
			tl->band_h = TL_BAND_MAX;
	}
	if (tl->nlane < 0)
		tl->nlane = 0;
	if (hdr)
		tui_putf(y, 0, w, tui_attr(TUI_C_HEADER), "%zu units, %zu"
		    " events (%llu loads, %llu reprieves), %.2f-%.2f s,"
		    " %.3f s/column", tl->o.nunits,
		    tl->o.nevents, (unsigned long long)tl->ix->nloads,
		    (unsigned long long)(tl->o.nevents - tl->ix->nloads),
		    analyze_ovd_seconds(tl->o.t_first),
		    analyze_ovd_seconds(tl->o.t_last),
		    analyze_ovd_seconds(tl_width(tl)));
	tl->axis_y = axis ? y + hdr : -1;
	if (axis)
		tl_draw_axis(tl, tl->axis_y, w);
	tl->lane_y = y + hdr + axis;
	k = tl_cur(tv)->unit;
	if (k < tl->lane_top)
		tl->lane_top = k;
	else if (tl->nlane > 0 && k >= tl->lane_top + (size_t)tl->nlane)
		tl->lane_top = k - (size_t)tl->nlane + 1;
	if (tl->lane_top + (size_t)tl->nlane > tl->o.nunits)
		tl->lane_top = tl->o.nunits - (size_t)tl->nlane;
	tl_cache(tl);
	for (i = 0; i < tl->nlane; i++)
		tl_draw_lane(tv, (uint32_t)(tl->lane_top + (size_t)i),
		    tl->lane_y + i, w);
	tl->band_y = tl->lane_y + tl->nlane + 1;
	if (tl->band_h > 0)
		tl_draw_band(tv, tl->band_y, tl->band_h, w);
	else
		tl->band_y = -1;
	if (legend)
		tl_draw_legend(y + h - detail - 1, w);
	if (detail)
		tl_draw_detail(tv, y + h - detail, detail, w);
}

/* Until the load is done only the keys that work while loading. */
static int
tl_is_ready(struct tui_view *tv)
{
	return (((struct timeline *)tv->data)->state == TL_READY);
}

static int
tl_key(struct tui_view *tv, int a)
{
	struct timeline			*tl = tv->data;
	const struct analyze_ovd_lane	*ln;
	struct tui_view			*u;
	size_t			 p;
	int			 page = tl->cols > 8 ? tl->cols / 8 : 1;

	if (a == TL_ACT_UNITS) {
		tui_push(tui_units_new(tv));
		return (TUI_R_DRAW);
	}
	if (tl->o.nevents == 0)
		return (TUI_R_UNUSED);
	switch (a) {
	case TL_ACT_NEXT:
		tl_goto(tv, tv->list.cur + 1);
		return (TUI_R_DRAW);
	case TL_ACT_PREV:
		tl_goto(tv, tv->list.cur > 0 ? tv->list.cur - 1 : 0);
		return (TUI_R_DRAW);
	case TL_ACT_FIRST:
		tl_goto(tv, 0);
		return (TUI_R_DRAW);
	case TL_ACT_LAST:
		tl_goto(tv, tl->o.nevents - 1);
		return (TUI_R_DRAW);
	case TL_ACT_LEFT:
		tl_pan(tv, -page);
		return (TUI_R_DRAW);
	case TL_ACT_RIGHT:
		tl_pan(tv, page);
		return (TUI_R_DRAW);
	case TL_ACT_PAGE_LEFT:
		tl_pan(tv, -(tl->cols > 1 ? tl->cols - 1 : 1));
		return (TUI_R_DRAW);
	case TL_ACT_PAGE_RIGHT:
		tl_pan(tv, tl->cols > 1 ? tl->cols - 1 : 1);
		return (TUI_R_DRAW);
	case TL_ACT_MERGE:
		tl_zoom(tv, 1);
		return (TUI_R_DRAW);
	case TL_ACT_SPLIT:
		tl_zoom(tv, -1);
		return (TUI_R_DRAW);
	case TL_ACT_UNIT:
		/* The unit table, on the cursor's unit. */
		u = tui_units_new(tv);
		tui_push(u);
		u->ops->jump(u, tl_cur(tv)->unit);
		return (TUI_R_DRAW);
	case TL_ACT_UNIT_NEXT:
	case TL_ACT_UNIT_PREV:
		ln = &tl->ix->lanes[tl_cur(tv)->unit];
		p = analyze_ovd_lane_pos(tl->ix, tv->list.cur);
		if (a == TL_ACT_UNIT_NEXT ? p + 1 >= ln->nev : p == 0) {
			tui_message("no %s event of %s", a ==
			    TL_ACT_UNIT_NEXT ? "later" : "earlier",
			    tl->o.units[tl_cur(tv)->unit].name);
			return (TUI_R_DRAW);
		}
		tl_goto(tv, ln->ev[a == TL_ACT_UNIT_NEXT ? p + 1 : p - 1]);
		return (TUI_R_DRAW);
	default:
		return (TUI_R_UNUSED);
	}
}

/* A click puts the cursor on an event in that column; the wheel pans. */
static int
tl_mouse(struct tui_view *tv, int button, int y, int x)
{
	struct timeline			*tl = tv->data;
	const struct analyze_ovd_lane	*ln;
	int64_t				 a, b;
	size_t			 i, p;
	uint32_t		 k;

	if (tl->state != TL_READY || tl->o.nevents == 0)
		return (TUI_R_NONE);
	if (button == 4 || button == 5) {
		tl_pan(tv, (button == 4 ? -1 : 1) * (tl->cols > 8 ?
		    tl->cols / 8 : 1));
		return (TUI_R_DRAW);
	}
	if (button != 1 || x < tl->gw || x >= tl->gw + tl->cols)
		return (TUI_R_NONE);
	a = tl->t0 + ((int64_t)(x - tl->gw) << tl->zoom);
	b = a + tl_width(tl);
	if (y >= tl->lane_y && y < tl->lane_y + tl->nlane) {
		k = (uint32_t)(tl->lane_top + (size_t)(y - tl->lane_y));
		ln = &tl->ix->lanes[k];
		p = analyze_ovd_lane_at(tl->ix, k, a);
		if (p < ln->nev && tl->o.events[ln->ev[p]].ticks < b) {
			tl_goto(tv, ln->ev[p]);
			return (TUI_R_DRAW);
		}
		tui_message("no event of %s there", tl->o.units[k].name);
		return (TUI_R_DRAW);
	}
	if (y == tl->axis_y || (tl->band_y >= 0 && y >= tl->band_y &&
	    y < tl->band_y + tl->band_h)) {
		i = analyze_ovd_event_at(tl->ix, a);
		if (i < tl->o.nevents && tl->o.events[i].ticks < b) {
			tl_goto(tv, i);
			return (TUI_R_DRAW);
		}
		tui_message("no event there");
		return (TUI_R_DRAW);
	}
	return (TUI_R_NONE);
}

/*
 * Whether the name of the call site at unit:ofs has pattern.  Millions of
 * events come from a few thousand sites at most: each site's name is
 * made and looked at once per search, then found in an open-addressing
 * table.
 */
static int
tl_site_hit(struct timeline *tl, uint32_t unit, uint16_t ofs,
    const char *pattern)
{
	struct tl_site	*old = tl->sites;
	uint64_t	 key = ((uint64_t)unit << 16 | ofs) + 1;
	size_t		 i, j, cap = tl->sitecap, mask;
	char		*site;

	if (2 * (tl->nsites + 1) > cap) {
		tl->sitecap = cap != 0 ? cap * 2 : 256;
		tl->sites = xcalloc(tl->sitecap, sizeof *tl->sites);
		for (j = 0; j < cap; j++) {
			if (old[j].key == 0)
				continue;
			mask = tl->sitecap - 1;
			for (i = (old[j].key * 0x9e3779b97f4a7c15ULL >> 32) &
			    mask; tl->sites[i].key != 0; i = (i + 1) & mask)
				/* nothing */;
			tl->sites[i] = old[j];
		}
		free(old);
	}
	mask = tl->sitecap - 1;
	for (i = (key * 0x9e3779b97f4a7c15ULL >> 32) & mask;
	    tl->sites[i].key != 0; i = (i + 1) & mask) {
		if (tl->sites[i].key == key)
			return (tl->sites[i].hit);
	}
	site = analyze_ovd_site(&tl->o, unit, ofs);
	tl->sites[i].key = key;
	tl->sites[i].hit = tui_strcasestr(site, pattern);
	tl->nsites++;
	free(site);
	return (tl->sites[i].hit);
}

/* The call site's address as the search reads one: seg * 16 + ofs. */
static uint64_t
tl_site_addr(struct timeline *tl, const struct analyze_ovd_event *e)
{
	return ((uint64_t)tl->o.units[e->unit].stat_seg * 16 + e->ovr_ofs);
}

/*
 * Search: the events of the units whose name has the pattern, and those
 * called from a site whose name has it or at its address (seg:off as the
 * detail pane shows it).
 */
static int
tl_match(struct tui_view *tv, size_t row, const char *pattern)
{
	struct timeline			*tl = tv->data;
	const struct analyze_ovd_event	*e;
	size_t				 k;

	if (tl->state != TL_READY)
		return (0);
	if (tl->mpat == NULL || strcmp(tl->mpat, pattern) != 0) {
		free(tl->mpat);
		tl->mpat = xstrdup(pattern);
		for (k = 0; k < tl->o.nunits; k++)
			tl->mhit[k] = (char)tui_strcasestr(tl->o.units[k].name,
			    pattern);
		if (tl->sites != NULL)
			memset(tl->sites, 0, tl->sitecap * sizeof *tl->sites);
		tl->nsites = 0;
	}
	e = &tl->o.events[row];
	return (tl->mhit[e->unit] || tui_search_in(&tv->search,
	    tl_site_addr(tl, e), tl_site_addr(tl, e) + 1) ||
	    tl_site_hit(tl, e->unit, e->ovr_ofs, pattern));
}

static int
tl_export(struct tui_view *tv, int format, FILE *f, char **cause)
{
	struct timeline	*tl = tv->data;

	/* Until the model is whole, the report loads its own. */
	if (tl->ld != NULL)
		return (report_session(tui_store(), tv->session, format, f,
		    cause));
	return (tui_export_model(tv, &tl->o, format, f, cause));
}

static void
tl_free(struct tui_view *tv)
{
	struct timeline	*tl = tv->data;

	analyze_ovd_end(tl->ld);	/* frees an unfinished o */
	analyze_ovd_index_free(tl->ix);	/* before the o it points into */
	free(tl->slots);
	free(tl->c_cell);
	free(tl->c_band);
	free(tl->c_ok);
	free(tl->mpat);
	free(tl->mhit);
	free(tl->sites);
	free(tl->program);
	free(tl->error);
	analyze_ovd_free(&tl->o);
	free(tl);
}

static int	tl_work(struct tui_view *, uint64_t);
static const void *tl_model(struct tui_view *);
static int	tl_jump(struct tui_view *, size_t);

static const struct tui_view_ops tl_ops = {
	.name = "timeline",
	.keys = &tl_keys,
	.help = "an OVD session's overlay units and buffer over time",
	.draw = tl_draw,
	.key = tl_key,
	.title = tl_title,
	.match = tl_match,
	.ready = tl_is_ready,
	.export = tl_export,
	.mouse = tl_mouse,
	.work = tl_work,
	.model = tl_model,
	.jump = tl_jump,
	.free = tl_free,
};

/* The load is done: the index comes next. */
static int
tl_loaded(struct tui_view *tv)
{
	struct timeline	*tl = tv->data;
	char		*cause = NULL;

	if ((tl->ix = analyze_ovd_index_begin(&tl->o, &cause)) == NULL) {
		tl->error = cause;
		analyze_ovd_free(&tl->o);
		tl->state = TL_FAILED;
		tui_message("error: %s", tl->error);
		return (-1);
	}
	tl->pct = 99;
	tl->what = "indexing";
	return (0);
}

/* The index is done: show the timeline. */
static void
tl_ready(struct tui_view *tv)
{
	struct timeline	*tl = tv->data;

	tl->slots = xcalloc(tl->o.nunits + 1, sizeof *tl->slots);
	tl->mhit = xcalloc(tl->o.nunits + 1, 1);
	tl->c_cols = -1;
	tl->fit = 1;
	tl->t0 = tl->o.t_first;
	tl->state = TL_READY;
	tv->list.n = tl->o.nevents;
	tv->list.cur = 0;
	tui_message("loaded %zu events, %zu stays", tl->o.nevents,
	    tl->o.nspans);
}

/* A slice of the load; a deadline of 0 (^C) abandons it. */
static int
tl_work(struct tui_view *tv, uint64_t deadline)
{
	struct timeline	*tl = tv->data;
	char		*cause = NULL;
	int		 r;

	if (tl->state != TL_LOADING)
		return (0);
	if (deadline == 0) {
		analyze_ovd_end(tl->ld);
		tl->ld = NULL;
		tl->state = TL_CANCELLED;
		return (0);
	}
	if (tl->ld != NULL) {
		do
			r = analyze_ovd_step(tl->ld, TL_STEP_ROWS, &cause);
		while (r > 0 && tui_now_ns() < deadline);
		if (r > 0) {
			tl->pct = analyze_ovd_progress(tl->ld, &tl->what);
			tui_message("loading %d%% (%s)", tl->pct, tl->what);
			return (1);
		}
		analyze_ovd_end(tl->ld);
		tl->ld = NULL;
		if (r < 0) {
			tl->error = cause;
			tl->state = TL_FAILED;
			tui_message("error: %s", cause);
			return (0);
		}
		if (tl_loaded(tv) != 0)
			return (0);
	}
	while ((r = analyze_ovd_index_step(tl->ix, TL_STEP_INDEX)) > 0 &&
	    tui_now_ns() < deadline)
		/* nothing */;
	if (r > 0) {
		tui_message("loading %d%% (%s)", tl->pct, tl->what);
		return (1);
	}
	tl_ready(tv);
	return (0);
}

/* Open the view at once; the events come from tl_work. */
static struct tui_view *
tl_open(int64_t id, char **cause)
{
	struct timeline	*tl = xcalloc(1, sizeof *tl);
	struct tui_view	*tv;

	if ((tl->ld = analyze_ovd_begin(tui_store(), id, &tl->o,
	    cause)) == NULL) {
		free(tl);
		return (NULL);
	}
	tl->program = tui_session_name(id);
	tl->state = TL_LOADING;
	tl->what = "events";
	tv = tui_view_new(&tl_ops, tl);
	tv->session = id;
	tv->busy = 1;
	tui_message("loading 0%% (events)");
	return (tv);
}

/* The session's analyze_ovd, for the unit table this view opens. */
static const void *
tl_model(struct tui_view *tv)
{
	return (&((struct timeline *)tv->data)->o);
}

/* Put the cursor on unit k's first event; -1 if it has none. */
static int
tl_jump(struct tui_view *tv, size_t k)
{
	struct timeline	*tl = tv->data;

	if (k >= tl->o.nunits || tl->ix->lanes[k].nev == 0)
		return (-1);
	tl_goto(tv, tl->ix->lanes[k].ev[0]);
	return (0);
}

static const struct tui_keys *const tl_groups[] = {
	&tl_keys, &tui_keys_units, NULL
};

const struct tui_mode tui_mode_timeline = {
	.open = tl_open,
	.keys = tl_groups,
	.what = "the timeline",
	.colours = &tl_colours,
};
