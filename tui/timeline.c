/*
 * The timeline of an OVD session: a time axis in seconds, one lane per
 * overlay unit (loads, reprieves, residency), the overlay buffer's
 * paragraphs over time coloured by the unit in them, and a cursor on the
 * events with a detail pane.
 *
 * Everything comes from an analyze_ovd load at open, done in steps by the
 * view's work() so that the screen, keys and signals stay live while
 * millions of events load.  When it is done each unit also gets its events' times and its stays' times as sorted arrays
 * with prefix sums, so what any window of time holds (loads, reprieves,
 * resident ticks, the load list in effect) is a few binary searches: a
 * frame costs columns x lanes x log(events) at every zoom, exact at any
 * column width and origin, and never walks the events.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "xmalloc.h"
#include "analyze/analyze.h"
#include "report/report.h"
#include "tui/tui.h"

#define TL_DETAIL	3	/* rows of the detail pane */
#define TL_BAND_MAX	16	/* rows of the buffer band */
#define TL_STRIDE	32
#define TL_STEP_ROWS	2048	/* rows between looks at the clock */
#define TL_STEP_INDEX	16384	/* events or stays, likewise */

enum tl_state {
	TL_LOADING,
	TL_READY,
	TL_CANCELLED,
	TL_FAILED
};

struct tl_idx {
	const char	*base;
	size_t		 esz;
	size_t		 n;
	int64_t		*s;		/* base[i * TL_STRIDE] */
	size_t		 ns;
};

/* One unit's events and stays, by time. */
struct tl_lane {
	int64_t		*ev_ticks;
	uint32_t	*ev;		/* indices into o.events */
	uint32_t	*loads;		/* loads among ev[0..i), nev + 1 */
	size_t		 nev;
	int64_t		*sp_start;
	int64_t		*sp_end;
	int64_t		*sp_cum;	/* ticks of stays [0..i), nsp + 1 */
	int64_t		*sp_first;	/* seqs */
	int64_t		*sp_last;
	uint16_t	*sp_seg;
	size_t		 nsp;
	uint16_t	 paras;		/* size in the buffer */
	struct tl_idx	 ev_idx;
	struct tl_idx	 start_idx;
	struct tl_idx	 first_idx;
};

struct timeline {
	struct analyze_ovd	 o;
	char			*program;
	enum tl_state		 state;
	struct analyze_ovd_loader *ld;
	int			 pct;		/* of the load, for the frame */
	const char		*what;
	char			*error;
	struct tl_lane		*lanes;
	struct tl_idx		 ev_idx;	/* events by ticks */
	uint64_t		 nloads;
	int			 ix_phase;	/* tl_index_step's */
	size_t			 ix;

	int			 zoom;		/* log2 of ticks per column */
	int			 fit;		/* zoom to fit at the next draw */
	int64_t			 t0;		/* time at the first column */
	size_t			 shown;		/* cursor at the last draw */
	size_t			 lane_top;
	uint16_t		 porg;		/* band: lowest OvrHeapOrg */
	uint16_t		 pend;		/* highest OvrHeapEnd */

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

	uint32_t		*active;	/* scratch: units and load segs */

	/* The columns of the last frame (see tl_cache). */
	struct tl_cell		*c_cell;	/* [column * nunits + unit] */
	uint32_t		*c_band;	/* [column * band_h + row] */
	char			*c_ok;
	int64_t			 c_t0;
	int			 c_zoom;
	int			 c_cols;
	int			 c_bh;
	size_t			*c_p;		/* per unit, chaining columns */
	int64_t			*c_r;
};

/* What a column's window holds for one unit. */
struct tl_cell {
	uint32_t	n;		/* events */
	uint32_t	loads;
	int64_t		res;		/* resident ticks */
};

static int64_t	tl_idx_get(const struct tl_idx *, size_t);

/* The attribute of unit k's cells: its colour, or nothing on vt100. */
static int
tl_unit_attr(uint32_t k)
{
	return (tui_attr(TUI_C_UNIT1 + k % TUI_NUNIT_COLORS));
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

/*
 * A sorted array of int64 (maybe a field of larger records) with every
 * TL_STRIDE-th value copied out: a search runs in the small copy, which
 * stays in cache, and then in one stride of the big array.  On 5M events
 * that is a few cache misses per search instead of twenty.
 */
static void
tl_idx_init(struct tl_idx *x, const void *base, size_t esz, size_t n)
{
	size_t	i;

	x->base = base;
	x->esz = esz;
	x->n = n;
	x->ns = (n + TL_STRIDE - 1) / TL_STRIDE;
	x->s = xcalloc(x->ns + 1, sizeof *x->s);
	for (i = 0; i < x->ns; i++)
		x->s[i] = tl_idx_get(x, i * TL_STRIDE);
}

static int64_t
tl_idx_get(const struct tl_idx *x, size_t i)
{
	int64_t	v;

	memcpy(&v, x->base + i * x->esz, sizeof v);
	return (v);
}

/* The first i with a[i] >= t (n if none). */
static size_t
tl_lb(const struct tl_idx *x, int64_t t)
{
	size_t	lo = 0, hi = x->ns, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (x->s[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return (0);
	/* a[(lo - 1) * stride] < t, and a[lo * stride] >= t if there. */
	hi = lo * TL_STRIDE < x->n ? lo * TL_STRIDE : x->n;
	lo = (lo - 1) * TL_STRIDE + 1;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (tl_idx_get(x, mid) < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo);
}

/* The first event at or after t. */
static size_t
tl_event_at(const struct timeline *tl, int64_t t)
{
	return (tl_lb(&tl->ev_idx, t));
}

/* Unit k's stay in effect at event seq, or -1. */
static long
tl_stay(const struct tl_lane *ln, int64_t seq)
{
	size_t	i = tl_lb(&ln->first_idx, seq + 1);

	if (i == 0 || ln->sp_last[i - 1] < seq)
		return (-1);
	return ((long)i - 1);
}

/* Ticks unit ln was resident before t. */
static int64_t
tl_resident(const struct tl_lane *ln, int64_t t)
{
	size_t	i;
	int64_t	end;

	if ((i = tl_lb(&ln->start_idx, t)) == 0)
		return (0);
	end = ln->sp_end[i - 1] < t ? ln->sp_end[i - 1] : t;
	return (ln->sp_cum[i - 1] + end - ln->sp_start[i - 1]);
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

/* Position of event i in its unit's lane. */
static size_t
tl_lane_pos(const struct timeline *tl, size_t i)
{
	const struct tl_lane	*ln = &tl->lanes[tl->o.events[i].unit];
	size_t			 lo = 0, hi = ln->nev, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ln->ev[mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo);
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
	i = tl_event_at(tl, tl->t0);
	if (n < 0 && (i = tl_event_at(tl, end)) > 0)
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

/* Band cells: nothing (outside the run or the buffer), free, unit + 2. */
#define TL_BAND_OUT	0
#define TL_BAND_FREE	1

/* Column x's window, for every unit and the band. */
static void
tl_column(struct timeline *tl, int x, int chained)
{
	const struct analyze_ovd_event	*e;
	const struct tl_lane		*ln;
	struct tl_cell			*c = &tl->c_cell[(size_t)x * tl->o.nunits];
	uint32_t			*band = &tl->c_band[(size_t)x * (size_t)
					    tl->band_h];
	int64_t				 w = tl_width(tl), a, b, t, r1;
	uint32_t			 paras = tl->pend - tl->porg, para, run;
	uint32_t			 k, lo;
	size_t				 i, p1, nact;
	long				 s;
	int				 r;

	a = tl->t0 + (int64_t)x * w;
	b = a + w;
	for (k = 0; k < tl->o.nunits; k++) {
		ln = &tl->lanes[k];
		if (!chained) {
			tl->c_p[k] = tl_lb(&ln->ev_idx, a);
			tl->c_r[k] = tl_resident(ln, a);
		}
		p1 = tl_lb(&ln->ev_idx, b);
		r1 = tl_resident(ln, b);
		c[k].n = (uint32_t)(p1 - tl->c_p[k]);
		c[k].loads = ln->loads[p1] - ln->loads[tl->c_p[k]];
		c[k].res = r1 - tl->c_r[k];
		tl->c_p[k] = p1;
		tl->c_r[k] = r1;
	}

	/* The band: the load list in effect in the middle of the window. */
	for (r = 0; r < tl->band_h; r++)
		band[r] = TL_BAND_OUT;
	if (tl->band_h == 0 || paras == 0 || a > tl->o.t_last ||
	    b <= tl->o.t_first)
		return;
	t = a + w / 2;
	if (t < tl->o.t_first)
		t = tl->o.t_first;
	if (t > tl->o.t_last)
		t = tl->o.t_last;
	if ((i = tl_event_at(tl, t + 1)) == 0)
		return;
	e = &tl->o.events[i - 1];
	for (nact = 0, k = 0; k < tl->o.nunits; k++) {
		if ((s = tl_stay(&tl->lanes[k], e->seq)) < 0)
			continue;
		tl->active[nact] = k;
		tl->active[tl->o.nunits + nact] = tl->lanes[k].sp_seg[s];
		nact++;
	}
	run = (paras + (uint32_t)tl->band_h - 1) / (uint32_t)tl->band_h;
	for (r = 0; r < tl->band_h; r++) {
		para = tl->porg + (uint32_t)((uint64_t)paras * (unsigned)r /
		    (unsigned)tl->band_h);
		if (para >= e->heap_org && para < e->heap_end)
			band[r] = TL_BAND_FREE;
		for (i = 0; i < nact; i++) {
			k = tl->active[i];
			lo = tl->active[tl->o.nunits + i];
			/* A row shows a unit anywhere in its run. */
			if (lo < para + run && lo + tl->lanes[k].paras > para) {
				band[r] = k + 2;
				break;
			}
		}
	}
}

/*
 * Fill the columns not yet known.  The cache survives a cursor move and
 * shifts with a pan, so only a zoom or a resize computes every column.
 */
static void
tl_cache(struct timeline *tl)
{
	size_t	nu = tl->o.nunits, bh = (size_t)tl->band_h, n, m;
	int64_t	w = tl_width(tl), d;
	int	x, chained = 0;

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
	for (x = 0; x < tl->cols; x++) {
		if (tl->c_ok[x]) {
			chained = 0;
			continue;
		}
		tl_column(tl, x, chained);
		tl->c_ok[x] = 1;
		chained = 1;
	}
}

/* One lane: what each column's window holds for unit k. */
static void
tl_draw_lane(struct tui_view *tv, uint32_t k, int y, int w)
{
	struct timeline			*tl = tv->data;
	const struct analyze_ovd_unit	*u = &tl->o.units[k];
	const struct analyze_ovd_event	*cur = tl_cur(tv);
	const struct tl_cell		*c;
	int64_t				 width = tl_width(tl);
	int				 x, attr, curx = -1;
	char				 ch, name[64];

	if (cur->unit == k && tl_visible(tl, cur->ticks))
		curx = (int)((cur->ticks - tl->t0) >> tl->zoom);
	snprintf(name, sizeof name, "%c %s", tl_letter(k), u->name);
	tui_put(y, 0, tl->gw - 1, cur->unit == k ? A_BOLD : TUI_PLAIN, name);
	move(y, tl->gw);
	for (x = 0; x < tl->cols && tl->gw + x < w; x++) {
		c = &tl->c_cell[(size_t)x * tl->o.nunits + k];
		attr = c->res > 0 ? tl_unit_attr(k) : TUI_PLAIN;
		if (c->loads != 0) {
			ch = 'L';
			attr |= A_BOLD;
		} else if (c->n != 0)
			ch = 'r';
		else if (c->res >= width)
			ch = '=';
		else if (c->res > 0)
			ch = '-';
		else
			ch = ' ';
		if (x == curx)
			attr = tui_attr(TUI_C_CURSOR) | A_BOLD;
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
	uint32_t	 paras = tl->pend - tl->porg, v;
	int		 x, r;

	tui_putf(y - 1, 0, w, tui_attr(TUI_C_HEADER), "buffer %04Xh..%04Xh,"
	    " %u paragraphs, low at top", tl->porg, tl->pend, paras);
	for (r = 0; r < h; r++) {
		tui_putf(y + r, 0, tl->gw - 1, TUI_PLAIN, "%04Xh", tl->porg +
		    (unsigned)((uint64_t)paras * (unsigned)r / (unsigned)h));
		move(y + r, tl->gw);
		for (x = 0; x < tl->cols && tl->gw + x < w; x++) {
			v = tl->c_band[(size_t)x * (size_t)h + (size_t)r];
			if (v == TL_BAND_OUT)
				addch(' ');
			else if (v == TL_BAND_FREE)
				addch('.');
			else
				addch((chtype)(unsigned char)tl_letter(v - 2) |
				    (chtype)tl_unit_attr(v - 2));
		}
	}
}

/* The load list in effect at event e: "UNIT1@2000h UNIT3@2080h". */
static char *
tl_load_list(struct timeline *tl, const struct analyze_ovd_event *e)
{
	char		*out = xstrdup(""), *tmp;
	uint32_t	 k, best;
	uint16_t	 seg;
	long		 s;
	size_t		 n = 0, i;
	uint32_t	*act = tl->active;

	for (k = 0; k < tl->o.nunits; k++) {
		if ((s = tl_stay(&tl->lanes[k], e->seq)) >= 0) {
			act[n] = k;
			act[tl->o.nunits + n] = tl->lanes[k].sp_seg[s];
			n++;
		}
	}
	/* By load segment; a selection sort, the list is short. */
	for (i = 0; i < n; i++) {
		best = (uint32_t)i;
		for (k = (uint32_t)i + 1; k < n; k++) {
			if (act[tl->o.nunits + k] < act[tl->o.nunits + best])
				best = k;
		}
		seg = (uint16_t)act[tl->o.nunits + best];
		k = act[best];
		act[best] = act[i];
		act[tl->o.nunits + best] = act[tl->o.nunits + i];
		act[i] = k;
		act[tl->o.nunits + i] = seg;
		tmp = xasprintf("%s%s%s@%04Xh", out, i != 0 ? " " : "",
		    tl->o.units[k].name, seg);
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
	char				*site, *list;

	site = analyze_ovd_site(&tl->o, e->unit, e->ovr_ofs);
	if (h == 1) {
		tui_putf(y, 0, w, A_BOLD, "%.3fs %s %s %s",
		    analyze_ovd_seconds(e->ticks), e->reprieve ? "reprieve" :
		    "load", u->name, site);
		free(site);
		return;
	}
	tui_putf(y, 0, w, A_BOLD, "event %lld: %s of %s at %.3f s (tick"
	    " %lld), called from %s (%04Xh:%04Xh)", (long long)e->seq,
	    e->reprieve ? "reprieve" : "load", u->name,
	    analyze_ovd_seconds(e->ticks), (long long)e->ticks, site,
	    u->stat_seg, e->ovr_ofs);
	free(site);
	tui_putf(y + 1, 0, w, TUI_PLAIN, "buffer OvrHeapOrg %04Xh..OvrHeapEnd"
	    " %04Xh (%u bytes); %s %llu loads, %llu reprieves", e->heap_org,
	    e->heap_end, e->heap_end > e->heap_org ?
	    ((unsigned)e->heap_end - e->heap_org) * 16 : 0, u->name,
	    (unsigned long long)u->loads, (unsigned long long)u->reprieves);
	list = tl_load_list(tl, e);
	tui_putf(y + 2, 0, w, TUI_PLAIN, "loaded: %s", list);
	free(list);
}

static void
tl_draw(struct tui_view *tv, int y, int h, int w)
{
	struct timeline	*tl = tv->data;
	size_t		 k;
	int		 hdr, axis, detail, rest, i;

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
		    tl->o.nevents, (unsigned long long)tl->nloads,
		    (unsigned long long)(tl->o.nevents - tl->nloads),
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
	if (detail)
		tl_draw_detail(tv, y + h - detail, detail, w);
}

static int
tl_key(struct tui_view *tv, enum tui_action a)
{
	struct timeline		*tl = tv->data;
	const struct tl_lane	*ln;
	struct tui_view		*u;
	size_t			 p;
	int			 page = tl->cols > 8 ? tl->cols / 8 : 1;

	/* Until the load is done only the keys that leave work. */
	if (tl->state != TL_READY) {
		switch (a) {
		case TUI_ACT_BACK:
		case TUI_ACT_QUIT:
		case TUI_ACT_HELP:
		case TUI_ACT_PROMPT:
		case TUI_ACT_REDRAW:
			return (TUI_R_UNUSED);
		default:
			return (TUI_R_NONE);
		}
	}
	if (a == TUI_ACT_TL_UNITS) {
		tui_push(tui_units_new(tv));
		return (TUI_R_DRAW);
	}
	if (tl->o.nevents == 0)
		return (TUI_R_UNUSED);
	switch (a) {
	case TUI_ACT_TL_NEXT:
		tl_goto(tv, tv->list.cur + 1);
		return (TUI_R_DRAW);
	case TUI_ACT_TL_PREV:
		tl_goto(tv, tv->list.cur > 0 ? tv->list.cur - 1 : 0);
		return (TUI_R_DRAW);
	case TUI_ACT_TL_FIRST:
		tl_goto(tv, 0);
		return (TUI_R_DRAW);
	case TUI_ACT_TL_LAST:
		tl_goto(tv, tl->o.nevents - 1);
		return (TUI_R_DRAW);
	case TUI_ACT_TL_LEFT:
		tl_pan(tv, -page);
		return (TUI_R_DRAW);
	case TUI_ACT_TL_RIGHT:
		tl_pan(tv, page);
		return (TUI_R_DRAW);
	case TUI_ACT_TL_PAGE_LEFT:
		tl_pan(tv, -(tl->cols > 1 ? tl->cols - 1 : 1));
		return (TUI_R_DRAW);
	case TUI_ACT_TL_PAGE_RIGHT:
		tl_pan(tv, tl->cols > 1 ? tl->cols - 1 : 1);
		return (TUI_R_DRAW);
	case TUI_ACT_TL_MERGE:
		tl_zoom(tv, 1);
		return (TUI_R_DRAW);
	case TUI_ACT_TL_SPLIT:
		tl_zoom(tv, -1);
		return (TUI_R_DRAW);
	case TUI_ACT_TL_UNIT:
		/* The unit table, on the cursor's unit. */
		u = tui_units_new(tv);
		tui_push(u);
		u->ops->jump(u, tl_cur(tv)->unit);
		return (TUI_R_DRAW);
	case TUI_ACT_TL_UNIT_NEXT:
	case TUI_ACT_TL_UNIT_PREV:
		ln = &tl->lanes[tl_cur(tv)->unit];
		p = tl_lane_pos(tl, tv->list.cur);
		if (a == TUI_ACT_TL_UNIT_NEXT ? p + 1 >= ln->nev : p == 0) {
			tui_message("no %s event of %s", a ==
			    TUI_ACT_TL_UNIT_NEXT ? "later" : "earlier",
			    tl->o.units[tl_cur(tv)->unit].name);
			return (TUI_R_DRAW);
		}
		tl_goto(tv, ln->ev[a == TUI_ACT_TL_UNIT_NEXT ? p + 1 : p - 1]);
		return (TUI_R_DRAW);
	default:
		return (TUI_R_UNUSED);
	}
}

/* A click puts the cursor on an event in that column; the wheel pans. */
static int
tl_mouse(struct tui_view *tv, int button, int y, int x)
{
	struct timeline		*tl = tv->data;
	const struct tl_lane	*ln;
	int64_t			 a, b;
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
		ln = &tl->lanes[k];
		p = tl_lb(&ln->ev_idx, a);
		if (p < ln->nev && ln->ev_ticks[p] < b) {
			tl_goto(tv, ln->ev[p]);
			return (TUI_R_DRAW);
		}
		tui_message("no event of %s there", tl->o.units[k].name);
		return (TUI_R_DRAW);
	}
	if (y == tl->axis_y || (tl->band_y >= 0 && y >= tl->band_y &&
	    y < tl->band_y + tl->band_h)) {
		i = tl_event_at(tl, a);
		if (i < tl->o.nevents && tl->o.events[i].ticks < b) {
			tl_goto(tv, i);
			return (TUI_R_DRAW);
		}
		tui_message("no event there");
		return (TUI_R_DRAW);
	}
	return (TUI_R_NONE);
}

/* Search: events of the units whose name has the pattern. */
static int
tl_match(struct tui_view *tv, size_t row, const char *pattern)
{
	struct timeline	*tl = tv->data;
	size_t		 k;

	if (tl->state != TL_READY)
		return (0);
	if (tl->mpat == NULL || strcmp(tl->mpat, pattern) != 0) {
		free(tl->mpat);
		tl->mpat = xstrdup(pattern);
		for (k = 0; k < tl->o.nunits; k++)
			tl->mhit[k] = (char)tui_strcasestr(tl->o.units[k].name,
			    pattern);
	}
	return (tl->mhit[tl->o.events[row].unit]);
}

static int
tl_export(struct tui_view *tv, int format, FILE *f, char **cause)
{
	return (report_session(tui_store(), tv->session, format, f, cause));
}

static void
tl_free(struct tui_view *tv)
{
	struct timeline	*tl = tv->data;
	struct tl_lane	*ln;
	size_t		 k;

	analyze_ovd_end(tl->ld);	/* frees an unfinished o */
	for (k = 0; tl->lanes != NULL && k < tl->o.nunits; k++) {
		ln = &tl->lanes[k];
		free(ln->ev_ticks);
		free(ln->ev);
		free(ln->loads);
		free(ln->sp_start);
		free(ln->sp_end);
		free(ln->sp_cum);
		free(ln->sp_first);
		free(ln->sp_last);
		free(ln->sp_seg);
		free(ln->ev_idx.s);
		free(ln->start_idx.s);
		free(ln->first_idx.s);
	}
	free(tl->ev_idx.s);
	free(tl->lanes);
	free(tl->active);
	free(tl->c_cell);
	free(tl->c_band);
	free(tl->c_ok);
	free(tl->c_p);
	free(tl->c_r);
	free(tl->mpat);
	free(tl->mhit);
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
	.help = "an OVD session's overlay units and buffer over time",
	.draw = tl_draw,
	.key = tl_key,
	.title = tl_title,
	.match = tl_match,
	.export = tl_export,
	.mouse = tl_mouse,
	.work = tl_work,
	.model = tl_model,
	.jump = tl_jump,
	.free = tl_free,
};

/*
 * Per unit: its events and stays as sorted arrays.  Millions of events
 * take most of a second, so this too goes in steps of about n items:
 * count, allocate, fill, then the search indexes.  1: more to do.
 */
static int
tl_index_step(struct timeline *tl, size_t n)
{
	const struct analyze_ovd	*o = &tl->o;
	const struct analyze_ovd_span	*sp;
	const struct analyze_ovd_event	*e;
	struct tl_lane			*ln;
	size_t				 i, k, end;

	switch (tl->ix_phase) {
	case 0:
		tl->lanes = xcalloc(o->nunits + 1, sizeof *tl->lanes);
		tl->ix_phase++;
		/* FALLTHROUGH */
	case 1:
		end = tl->ix + n < o->nevents ? tl->ix + n : o->nevents;
		for (i = tl->ix; i < end; i++) {
			tl->lanes[o->events[i].unit].nev++;
			if (!o->events[i].reprieve)
				tl->nloads++;
		}
		if ((tl->ix = end) < o->nevents)
			return (1);
		tl->ix = 0;
		tl->ix_phase++;
		return (1);
	case 2:
		end = tl->ix + n < o->nspans ? tl->ix + n : o->nspans;
		for (i = tl->ix; i < end; i++)
			tl->lanes[o->spans[i].unit].nsp++;
		if ((tl->ix = end) < o->nspans)
			return (1);
		tl->ix = 0;
		tl->ix_phase++;
		return (1);
	case 3:
		/* A lane a step: zeroing them all at once took 40 ms. */
		if ((k = tl->ix++) < o->nunits) {
			ln = &tl->lanes[k];
			ln->ev_ticks = xcalloc(ln->nev + 1,
			    sizeof *ln->ev_ticks);
			ln->ev = xcalloc(ln->nev + 1, sizeof *ln->ev);
			ln->loads = xcalloc(ln->nev + 1, sizeof *ln->loads);
			ln->sp_start = xcalloc(ln->nsp + 1,
			    sizeof *ln->sp_start);
			ln->sp_end = xcalloc(ln->nsp + 1, sizeof *ln->sp_end);
			ln->sp_cum = xcalloc(ln->nsp + 1, sizeof *ln->sp_cum);
			ln->sp_first = xcalloc(ln->nsp + 1,
			    sizeof *ln->sp_first);
			ln->sp_last = xcalloc(ln->nsp + 1,
			    sizeof *ln->sp_last);
			ln->sp_seg = xcalloc(ln->nsp + 1, sizeof *ln->sp_seg);
			ln->paras = (uint16_t)((o->units[k].code_size + 15u) /
			    16u);
			ln->nev = ln->nsp = 0;
			return (1);
		}
		tl->ix = 0;
		tl->ix_phase++;
		return (1);
	case 4:
		end = tl->ix + n < o->nevents ? tl->ix + n : o->nevents;
		for (i = tl->ix; i < end; i++) {
			e = &o->events[i];
			ln = &tl->lanes[e->unit];
			ln->ev_ticks[ln->nev] = e->ticks;
			ln->ev[ln->nev] = (uint32_t)i;
			ln->loads[ln->nev + 1] = ln->loads[ln->nev] +
			    (e->reprieve ? 0 : 1);
			ln->nev++;
			if (i == 0 || e->heap_org < tl->porg)
				tl->porg = e->heap_org;
			if (i == 0 || e->heap_end > tl->pend)
				tl->pend = e->heap_end;
		}
		if ((tl->ix = end) < o->nevents)
			return (1);
		if (tl->pend < tl->porg)
			tl->pend = tl->porg;
		tl->ix = 0;
		tl->ix_phase++;
		return (1);
	case 5:
		/* Spans come by first_seq, so each unit's are in time order. */
		end = tl->ix + n < o->nspans ? tl->ix + n : o->nspans;
		for (i = tl->ix; i < end; i++) {
			sp = &o->spans[i];
			ln = &tl->lanes[sp->unit];
			ln->sp_start[ln->nsp] = sp->start_ticks;
			ln->sp_end[ln->nsp] = sp->end_ticks;
			ln->sp_cum[ln->nsp + 1] = ln->sp_cum[ln->nsp] +
			    (sp->end_ticks - sp->start_ticks);
			ln->sp_first[ln->nsp] = sp->first_seq;
			ln->sp_last[ln->nsp] = sp->last_seq;
			ln->sp_seg[ln->nsp] = sp->load_seg;
			ln->nsp++;
		}
		if ((tl->ix = end) < o->nspans)
			return (1);
		tl->ix = 0;
		tl->ix_phase++;
		return (1);
	case 6:
		/* The search indexes, a lane a step. */
		if ((k = tl->ix++) < o->nunits) {
			ln = &tl->lanes[k];
			tl_idx_init(&ln->ev_idx, ln->ev_ticks,
			    sizeof *ln->ev_ticks, ln->nev);
			tl_idx_init(&ln->start_idx, ln->sp_start,
			    sizeof *ln->sp_start, ln->nsp);
			tl_idx_init(&ln->first_idx, ln->sp_first,
			    sizeof *ln->sp_first, ln->nsp);
			return (1);
		}
		tl->ix = 0;
		tl->ix_phase++;
		return (1);
	default:
		break;
	}
	tl_idx_init(&tl->ev_idx, (const char *)o->events +
	    offsetof(struct analyze_ovd_event, ticks), sizeof *o->events,
	    o->nevents);
	return (0);
}

/* The load is done: check it; the index comes next. */
static int
tl_loaded(struct tui_view *tv)
{
	struct timeline	*tl = tv->data;

	if (tl->o.nevents > UINT32_MAX) {
		tl->error = xasprintf("session %lld: %zu events is more than"
		    " the timeline holds", (long long)tv->session,
		    tl->o.nevents);
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

	tl->active = xcalloc(2 * tl->o.nunits + 1, sizeof *tl->active);
	tl->mhit = xcalloc(tl->o.nunits + 1, 1);
	tl->c_p = xcalloc(tl->o.nunits + 1, sizeof *tl->c_p);
	tl->c_r = xcalloc(tl->o.nunits + 1, sizeof *tl->c_r);
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
	while ((r = tl_index_step(tl, TL_STEP_INDEX)) > 0 &&
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
struct tui_view *
tui_timeline_new(int64_t id, char **cause)
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

	if (k >= tl->o.nunits || tl->lanes[k].nev == 0)
		return (-1);
	tl_goto(tv, tl->lanes[k].ev[0]);
	return (0);
}
