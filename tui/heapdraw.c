/*
 * The heap map's frame (tui/heapmap.c is the view): the title, the map
 * itself, the legend, the info pane (the inspector or an info table) and
 * the status line, laid out for the screen's size.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curses.h>

#include "outfile.h"
#include "xmalloc.h"
#include "analyze/analyze.h"
#include "report/report.h"
#include "tui/tui.h"
#include "tui/heap.h"

/*
 * The map's colours, as draw.c's (tui.h), in the 256 where the terminal
 * has them, to tell eight type marks apart.  Without colours, type marks
 * and overlays are only a hint: the map draws a cell's mark as a
 * character, as the timeline draws its units' letters.
 */
static const struct tui_colour hm_colour[HM_C_COUNT] = {
	/*
	 * Type marks: black on eight backgrounds (xterm's 256 palette:
	 * blue, green, orange, violet, teal, pink, olive, grey); eight
	 * colours have only six hues that black reads on, so the last two
	 * are white on blue and black on white.
	 */
	[HM_C_TYPE1] = { COLOR_BLACK, 33, COLOR_BLACK, COLOR_BLUE,
	    0, A_REVERSE },
	[HM_C_TYPE2] = { COLOR_BLACK, 40, COLOR_BLACK, COLOR_GREEN,
	    0, A_REVERSE },
	[HM_C_TYPE3] = { COLOR_BLACK, 208, COLOR_BLACK, COLOR_YELLOW,
	    0, A_REVERSE },
	[HM_C_TYPE4] = { COLOR_BLACK, 141, COLOR_BLACK, COLOR_MAGENTA,
	    0, A_REVERSE },
	[HM_C_TYPE5] = { COLOR_BLACK, 37, COLOR_BLACK, COLOR_CYAN,
	    0, A_REVERSE },
	[HM_C_TYPE6] = { COLOR_BLACK, 211, COLOR_BLACK, COLOR_RED,
	    0, A_REVERSE },
	[HM_C_TYPE7] = { COLOR_BLACK, 143, COLOR_WHITE, COLOR_BLUE,
	    A_BOLD, A_REVERSE },
	[HM_C_TYPE8] = { COLOR_BLACK, 250, COLOR_BLACK, COLOR_WHITE,
	    0, A_REVERSE },

	/*
	 * Overlays, over the blocks they pick out: collectable (garbage)
	 * red, reachable green, reached from the selection yellow, the
	 * selection itself bold white.
	 */
	[HM_C_COLLECTABLE] = { 231, 160, COLOR_WHITE, COLOR_RED,
	    A_BOLD, A_BOLD | A_UNDERLINE },
	[HM_C_REACHABLE] = { COLOR_BLACK, 34, COLOR_BLACK, COLOR_GREEN,
	    0, A_UNDERLINE },
	[HM_C_REACHED_FROM] = { COLOR_BLACK, 220, COLOR_BLACK, COLOR_YELLOW,
	    0, A_BOLD },
	[HM_C_SELECTED] = { COLOR_BLACK, 231, COLOR_BLACK, COLOR_WHITE,
	    A_BOLD, A_REVERSE | A_BOLD },

	/*
	 * The heap map's other marks: a block nothing picks out grey, one
	 * freed since the snapshot compared dark grey, a new one cyan, one
	 * not collectable sea green, possibly lost orange, freed by a test
	 * unload purple; and its cursor, hot pink, a colour no mark has.
	 * Eight colours repeat some: the map then draws each mark's letter.
	 */
	[HM_C_BLOCK] = { COLOR_BLACK, 245, COLOR_BLACK, COLOR_WHITE,
	    0, A_NORMAL },
	[HM_C_FREED] = { COLOR_WHITE, 238, COLOR_WHITE, COLOR_BLACK,
	    0, A_DIM },
	[HM_C_BORN] = { COLOR_BLACK, 51, COLOR_BLACK, COLOR_CYAN,
	    0, A_BOLD },
	[HM_C_KEPT] = { COLOR_BLACK, 115, COLOR_BLACK, COLOR_GREEN,
	    0, A_NORMAL },
	[HM_C_POSSIBLE] = { COLOR_BLACK, 208, COLOR_BLACK, COLOR_YELLOW,
	    0, A_UNDERLINE },
	[HM_C_UNLOAD] = { 231, 90, COLOR_WHITE, COLOR_MAGENTA,
	    A_BOLD, A_BOLD },
	[HM_C_HEAP_CURSOR] = { COLOR_BLACK, 201, COLOR_WHITE, COLOR_BLACK,
	    A_BOLD, A_REVERSE | A_BOLD },
	/*
	 * The objects of an info table's row: white on a blue no other mark
	 * has.  ModuleHierarchy's names as HeapInspector's: not imported red,
	 * test-unloaded blue, imported by those green (a mark column says
	 * the same without colours).
	 */
	[HM_C_PICKED] = { 231, 27, COLOR_WHITE, COLOR_BLUE,
	    A_BOLD, A_REVERSE | A_UNDERLINE },
	[HM_C_HIER_TOP] = { 196, TUI_COLOUR_DEFAULT, COLOR_RED,
	    TUI_COLOUR_DEFAULT, 0, A_BOLD },
	[HM_C_HIER_UNLOAD] = { 75, TUI_COLOUR_DEFAULT, COLOR_BLUE,
	    TUI_COLOUR_DEFAULT, A_BOLD, A_UNDERLINE },
	[HM_C_HIER_NEEDED] = { 40, TUI_COLOUR_DEFAULT, COLOR_GREEN,
	    TUI_COLOUR_DEFAULT, 0, A_DIM },
	/* The allocator's own blocks: tan, apart from the program's grey. */
	[HM_C_DEFAULT] = { COLOR_BLACK, 137, COLOR_BLACK, COLOR_YELLOW,
	    0, A_DIM },
};
struct tui_colours hm_colours = { hm_colour, HM_C_COUNT, 0 };

/* Each mark's colour, letter (without colours) and name in the legend. */
static const struct {
	enum hm_colour	 color;
	char		 glyph;
	const char	*name;
} hm_marks[HM_NM] = {
	[ANALYZE_HEAPMAP_PLAIN] = { HM_C_BLOCK, '#', "unmarked" },
	[ANALYZE_HEAPMAP_DEFAULT] = { HM_C_DEFAULT, 'd', "libc's own" },
	[ANALYZE_HEAPMAP_TYPE1] = { HM_C_TYPE1, '1', NULL },
	[ANALYZE_HEAPMAP_TYPE2] = { HM_C_TYPE2, '2', NULL },
	[ANALYZE_HEAPMAP_TYPE3] = { HM_C_TYPE3, '3', NULL },
	[ANALYZE_HEAPMAP_TYPE4] = { HM_C_TYPE4, '4', NULL },
	[ANALYZE_HEAPMAP_TYPE5] = { HM_C_TYPE5, '5', NULL },
	[ANALYZE_HEAPMAP_TYPE6] = { HM_C_TYPE6, '6', NULL },
	[ANALYZE_HEAPMAP_TYPE7] = { HM_C_TYPE7, '7', NULL },
	[ANALYZE_HEAPMAP_TYPE8] = { HM_C_TYPE8, '8', NULL },
	[ANALYZE_HEAPMAP_FREED] = { HM_C_FREED, '-', "freed" },
	[ANALYZE_HEAPMAP_BORN] = { HM_C_BORN, '+', "born" },
	[ANALYZE_HEAPMAP_KEPT] = { HM_C_KEPT, 'k', "not collectable" },
	[ANALYZE_HEAPMAP_POSSIBLE] = { HM_C_POSSIBLE, 'p', "possibly lost" },
	[ANALYZE_HEAPMAP_COLLECTABLE] = { HM_C_COLLECTABLE, 'c',
	    "collectable" },
	[ANALYZE_HEAPMAP_UNLOAD] = { HM_C_UNLOAD, 'u', "freed by unload" },
	[ANALYZE_HEAPMAP_REACHABLE] = { HM_C_REACHABLE, 'r', "reachable" },
	[ANALYZE_HEAPMAP_REACHED_FROM] = { HM_C_REACHED_FROM, 'f',
	    "reached from" },
	[ANALYZE_HEAPMAP_PICKED] = { HM_C_PICKED, 'i', NULL },
	[ANALYZE_HEAPMAP_SELECTED] = { HM_C_SELECTED, '@', "selected" },
};

/* Where a live map is: what an update does, or the program's state. */
static const char *
hm_live_title(struct heapmap *hm)
{
	static char	buf[128];
	const char	*doing = tui_heaplive_doing(hm->live);

	if (doing != NULL)
		snprintf(buf, sizeof buf, ", updating: %s", doing);
	else if (tui_heaplive_socket(hm->live) == NULL)
		buf[0] = '\0';		/* a stored snapshot's, from files */
	else if (tui_heaplive_ended(hm->live))
		snprintf(buf, sizeof buf, ", the program has ended");
	else if (tui_heaplive_every_secs(hm->live) != 0)
		snprintf(buf, sizeof buf, ", live (pid %ld, every %gs)",
		    (long)tui_heaplive_pid(hm->live),
		    tui_heaplive_every_secs(hm->live));
	else
		snprintf(buf, sizeof buf, ", live (pid %ld)",
		    (long)tui_heaplive_pid(hm->live));
	return (buf);
}

char *
hm_title(struct tui_view *tv)
{
	struct heapmap	*hm = tv->data;
	char		*b, *t;

	if (!hm_shown(hm))
		return (xasprintf("profview: %s: heap map, %s",
		    hm->s->program != NULL ? hm->s->program : "session",
		    hm->loading ? "loading" : "failed"));
	if (hm->s->nregions != 0)
		hm_layout(hm, LINES - 2, COLS);
	b = hm_size(analyze_heapmap_cell_bytes(hm->v.zoom));
	t = xasprintf("profview: %s: heap map, %zu objects, %s a cell%s",
	    hm->s->program, hm->s->nblocks, b, hm->live != NULL ?
	    hm_live_title(hm) : "");
	free(b);
	return (t);
}

/* Mark k's name in the legend; NULL: it has no line there. */
static const char *
hm_mark_name(struct heapmap *hm, int k)
{
	const char	*name = hm_marks[k].name;

	if (k >= ANALYZE_HEAPMAP_TYPE1 && k <= ANALYZE_HEAPMAP_TYPE8)
		name = hm->specs[k - ANALYZE_HEAPMAP_TYPE1];
	if (k == ANALYZE_HEAPMAP_PICKED &&
	    tui_heapinfo_picked(hm->hi, &name) == NULL)
		return (NULL);
	return (name);
}

/*
 * The legend: each mark with a block, its colour, in view and in all, and
 * the cells in view that show it (a cell shows its highest mark, so the
 * blocks of a mark may be many more than its cells, or fewer).
 */
static int
hm_legend(struct heapmap *hm, int y, int lines, int w, int draw)
{
	struct analyze_heapmap_count tot[HM_NM];
	char		*line, *vb, *tb;
	const char	*name;
	int		 x = 0, k, used = 1, n;
	/* As many cells as the screen can show: the widest count. */
	unsigned long long most = (unsigned long long)LINES * COLS * 2;

	memcpy(tot, hm->m->total, sizeof tot);
	/* Freed objects are no blocks of this snapshot's map. */
	analyze_heapdiff_cmp_totals(hm->cmp, tot);
	for (k = HM_NM - 1; k >= 0; k--) {
		if (tot[k].blocks == 0 || (name = hm_mark_name(hm, k)) == NULL)
			continue;
		/* Measured with the totals, so the lines stay put. */
		tb = hm_size(tot[k].bytes);
		line = xasprintf(" %s %llu (%s) of %llu (%s), %llu cells",
		    name, (unsigned long long)tot[k].blocks, tb,
		    (unsigned long long)tot[k].blocks, tb, most);
		n = 2 + tui_strwidth(line) + 2;
		free(line);
		vb = hm_size(hm->inview[k].bytes);
		line = xasprintf(" %s %llu (%s) of %llu (%s), %llu cell%s",
		    name, (unsigned long long)hm->inview[k].blocks, vb,
		    (unsigned long long)tot[k].blocks, tb,
		    (unsigned long long)hm->incells[k], hm->incells[k] == 1 ?
		    "" : "s");
		free(vb);
		free(tb);
		if (x > 0 && x + n > w) {
			if (used == lines) {
				free(line);
				break;
			}
			used++;
			x = 0;
		}
		if (draw) {
			if (hm->halves) {
				tui_put_halves(y + used - 1, x,
				    HM_COLOUR(hm_marks[k].color),
				    HM_COLOUR(hm_marks[k].color));
				tui_put_halves(y + used - 1, x + 1,
				    HM_COLOUR(hm_marks[k].color),
				    HM_COLOUR(hm_marks[k].color));
			} else {
				mvaddch(y + used - 1, x, (chtype)(unsigned char)
				    hm_marks[k].glyph |
				    (chtype)tui_attr(HM_COLOUR(
				    hm_marks[k].color)));
				mvaddch(y + used - 1, x + 1,
				    (chtype)(unsigned char)hm_marks[k].glyph |
				    (chtype)tui_attr(HM_COLOUR(
				    hm_marks[k].color)));
			}
			tui_put(y + used - 1, x + 2, w - x - 2, TUI_PLAIN,
			    line);
		}
		x += n;
		free(line);
	}
	return (used);
}

/* One cell as a character, for terminals without half blocks. */
static chtype
hm_glyph(const struct heapmap *hm, const struct analyze_heapmap_cell *c,
    int cursor)
{
	chtype	ch;
	int	attr;

	if (c->mark >= HM_NM) {
		ch = ' ';
		attr = TUI_PLAIN;
	} else {
		ch = (chtype)(unsigned char)hm_marks[c->mark].glyph;
		/* Unmarked: '#' where a block starts, '=' on, ':' sparse. */
		if (c->mark == ANALYZE_HEAPMAP_PLAIN)
			ch = c->flags & ANALYZE_HEAPMAP_SPARSE ? ':' :
			    c->flags & ANALYZE_HEAPMAP_START ? '#' : '=';
		attr = tui_attr(HM_COLOUR(hm_marks[c->mark].color));
	}
	if (cursor) {
		attr = tui_attr(HM_COLOUR(HM_C_HEAP_CURSOR));
		if (ch == ' ')
			ch = '_';
	}
	return (ch | (chtype)attr);
}

/* A cell's pair for a half block; TUI_C_NONE: the background. */
static int
hm_color(const struct analyze_heapmap_cell *c)
{
	return (c->mark < HM_NM ? HM_COLOUR(hm_marks[c->mark].color) :
	    TUI_C_NONE);
}

/*
 * Lines of a map (the heap's, or the descriptors'): a label for each
 * line, then its cells; the cursor's cell at cur_row, cur_col, the rows
 * [lo, hi] marked if rows_on.
 */
static void
hm_draw_rows(struct heapmap *hm, struct analyze_heapmap *m,
    const struct analyze_heapmap_view *v,
    const struct analyze_heapmap_cell *cells, int y, int lines, int w,
    uint64_t cur_row, uint32_t cur_col, int rows_on, uint64_t lo,
    uint64_t hi)
{
	const struct analyze_heapmap_cell *c0, *c1;
	uint64_t			 row, a;
	uint32_t			 x;
	long				 r;
	int				 i, per = hm->halves ? 2 : 1, attr, sel;
	int				 top, bot;
	char				 label[32];

	for (i = 0; i < lines; i++) {
		row = v->top + (uint64_t)i * (uint64_t)per;
		c0 = cells + (size_t)i * (size_t)per * v->cols;
		c1 = hm->halves ? c0 + v->cols : NULL;
		sel = rows_on && row + (uint64_t)per - 1 >= lo && row <= hi;
		if (hm->gw > 0 && (r = analyze_heapmap_row_addr(m, v, row,
		    &a)) >= 0) {
			snprintf(label, sizeof label, "%*llx", hm->gw - 1,
			    (unsigned long long)a);
			/* A region's first row: its start, in bold. */
			attr = sel ? tui_attr(TUI_C_MATCH) :
			    a == m->regions[r].lo ? (int)A_BOLD :
			    TUI_PLAIN;
			tui_put(y + i, 0, hm->gw - 1, attr, label);
		}
		for (x = 0; x < v->cols && hm->gw + (int)x < w; x++) {
			if (!hm->halves) {
				mvaddch(y + i, hm->gw + (int)x,
				    hm_glyph(hm, &c0[x], row == cur_row &&
				    x == cur_col));
				continue;
			}
			top = row == cur_row && x == cur_col ?
			    HM_COLOUR(HM_C_HEAP_CURSOR) : hm_color(&c0[x]);
			bot = row + 1 == cur_row && x == cur_col ?
			    HM_COLOUR(HM_C_HEAP_CURSOR) : hm_color(&c1[x]);
			tui_put_halves(y + i, hm->gw + (int)x, top, bot);
		}
	}
}

/* The map: the heap's lines, then the descriptors' if any. */
static void
hm_draw_map(struct heapmap *hm, int w)
{
	uint64_t	cur_row = UINT64_MAX, lo, hi;
	uint32_t	cur_col = 0;
	int		y;
	char		*b;

	if (hm->cur != SIZE_MAX)
		cur_row = hm_block_row(hm, hm->cur, &cur_col);
	lo = hm->rows_from < hm->rows_to ? hm->rows_from : hm->rows_to;
	hi = hm->rows_from < hm->rows_to ? hm->rows_to : hm->rows_from;
	hm_draw_rows(hm, hm->m, &hm->v, hm->cells, hm->map_y, hm->map_lines,
	    w, cur_row, cur_col, hm->rows_on, lo, hi);
	if (hm->desc_lines == 0)
		return;
	/* Not the heap: said on a line of its own, and no cursor. */
	y = hm->map_y + hm->map_lines;
	b = hm_size(analyze_heapmap_cell_bytes(hm->dv.zoom));
	tui_putf(y, 0, w, (int)A_BOLD, "not heap (%s a cell%s): %s", b,
	    hm->desc_more ? ", its first rows: no room for more" : "",
	    hm->desc_label);
	free(b);
	hm_draw_rows(hm, hm->dm, &hm->dv, hm->dcells, y + 1,
	    hm->desc_lines - 1, w, UINT64_MAX, 0, 0, 0, 0);
}

/* The inspector: the selected object (or the cursor's). */
static void
hm_draw_object(struct heapmap *hm, int y, int h, int w)
{
	const struct analyze_heapview	*s = hm->s;
	const struct analyze_heap	*g = &s->graph;
	size_t				 b = hm->sel != SIZE_MAX ? hm->sel :
					    hm->cur, i, n;
	uint32_t			 node, t, v, roots = 0;
	uint64_t			 len;
	char				*stack, *hex, *txt, *p, *q;
	const char			*mod = "";
	int				 line = 0;

	if (b == SIZE_MAX) {
		tui_put(y, 0, w, TUI_PLAIN, "no object: the heap is empty");
		return;
	}
	node = hm_node(hm, b);
	t = s->type[b];
	if (t != HM_SNONE && s->types[t].module != HM_SNONE)
		mod = s->modules[s->types[t].module].name;
	tui_putf(y + line++, 0, w, A_BOLD, "%s %#llx: %s%s%s%s, %llu bytes"
	    " asked, %llu usable, %s", hm->sel == b ? "selected" : "cursor",
	    (unsigned long long)s->addr[b], hm_type_name(hm, b), *mod ? " (" :
	    "", mod, *mod ? ")" : "", (unsigned long long)s->size[b],
	    (unsigned long long)s->usable[b], s->graph_ready ?
	    hm_state_name(g->state[b]) : "state not known yet");
	if (line >= h)
		return;
	if (s->graph_ready) {
		for (i = g->in_off[node]; i < g->in_off[node + 1]; i++) {
			v = g->in[i] & 0x7fffffffu;
			if (v >= 1 && v <= s->nroots)
				roots++;
		}
		n = g->in_off[node + 1] - g->in_off[node];
		tui_putf(y + line++, 0, w, TUI_PLAIN, "referrers %zu (%u"
		    " roots), referents %u; block %zu of %zu", n, roots,
		    g->out_off[node + 1] - g->out_off[node], b + 1,
		    s->nblocks);
	} else
		tui_putf(y + line++, 0, w, TUI_PLAIN, "the heap graph is"
		    " being made; block %zu of %zu", b + 1, s->nblocks);
	stack = analyze_heapview_stack(s, s->site[b], (size_t)(h > 0 ? h : 1) *
	    (size_t)(w > 0 ? w : 1));
	p = xasprintf("allocated at %s", stack);
	free(stack);
	/* The stack over the lines left, the contents keeping the last. */
	for (q = p; *q != '\0' && line < h - (s->data_off != NULL ? 1 : 0);
	    line++) {
		n = strlen(q);
		tui_put(y + line, 0, w, TUI_PLAIN, q);
		q += n < (size_t)w ? n : (size_t)w;
	}
	free(p);
	if (s->data_off == NULL || line >= h)
		return;
	len = s->data_off[b + 1] - s->data_off[b];
	hex = xstrdup("");
	txt = xstrdup("");
	for (i = 0; i < len && i < 16; i++) {
		uint8_t	c = s->data[s->data_off[b] + i];

		p = xasprintf("%s%02x ", hex, c);
		free(hex);
		hex = p;
		p = xasprintf("%s%c", txt, isprint(c) ? c : '.');
		free(txt);
		txt = p;
	}
	tui_putf(y + line, 0, w, TUI_PLAIN, "contents (%llu of %llu bytes"
	    " kept): %s|%s|", (unsigned long long)(len < 16 ? len : 16),
	    (unsigned long long)len, hex, txt);
	free(hex);
	free(txt);
}

static void
hm_draw_info(struct tui_view *tv, int y, int h, int w)
{
	struct heapmap	*hm = tv->data;

	struct tui_list	*l;
	size_t		 of = hm->sel;

	if (hm->info == HM_INFO_OBJECT) {
		hm_draw_object(hm, y, h, w);
		return;
	}
	if (!HM_IS_TABLE(hm->info))
		return;
	if (hm->info == HM_INFO_STATUS)
		hm_status_rows(hm);
	l = hm->focus ? &tv->list : tui_heapinfo_list(hm->hi,
	    HM_TABLE(hm->info));
	/* The roots table takes R's search, which may still be going on. */
	if (HM_IS_ROOTS(hm->info) && hm->sel != SIZE_MAX &&
	    hm->s->graph_ready) {
		hm_reach(hm);
		if ((of = hm->rfrom_of) == SIZE_MAX) {
			tui_putf(y, 0, w, A_BOLD, "%s: searching for what"
			    " reaches %#llx: %zu objects so far (Esc"
			    " cancels)", tui_heapinfo_name(HM_TABLE(hm->info)),
			    (unsigned long long)hm->s->addr[hm->sel],
			    hm->walking == HM_WALK_RFROM ? hm->walk.count :
			    0);
			l->n = 0;
			return;
		}
	}
	tui_heapinfo_draw(hm->hi, HM_TABLE(hm->info), l, of, hm->rfrom_of ==
	    SIZE_MAX ? NULL : hm->rfrom, hm->focus, y, h, w);
}

/* The status line: what is in view, a cell's bytes, the selection. */
static void
hm_draw_status(struct heapmap *hm, int y, int w)
{
	const struct analyze_heapmap_region *rg;
	uint64_t	 lo = 0, hi = 0, row, heap = 0;
	char		*span, *cell, *sz, *sel;
	long		 r = -1;
	size_t		 i;

	if (hm->rows_on) {
		tui_putf(y, 0, w, tui_attr(TUI_C_MATCH), "rows %llu-%llu"
		    " marked: v or Enter zooms into them, Escape cancels",
		    (unsigned long long)(hm->rows_from < hm->rows_to ?
		    hm->rows_from : hm->rows_to) + 1, (unsigned long long)
		    (hm->rows_from < hm->rows_to ? hm->rows_to :
		    hm->rows_from) + 1);
		return;
	}
	if (analyze_heapmap_span(hm->m, &hm->v, &lo, &hi) == 0)
		r = analyze_heapmap_row_addr(hm->m, &hm->v, hm->v.top, &row);
	/* The heap's bytes in the span, not the gaps between regions. */
	for (i = 0; i < hm->m->nregions; i++) {
		rg = &hm->m->regions[i];
		if (rg->hi > lo && rg->lo < hi)
			heap += (rg->hi < hi ? rg->hi : hi) - (rg->lo > lo ?
			    rg->lo : lo);
	}
	span = hm_size(heap);
	cell = hm_size(analyze_heapmap_cell_bytes(hm->v.zoom));
	if (hm->sel != SIZE_MAX) {
		sz = hm_size(hm->s->usable[hm->sel]);
		sel = xasprintf("selected %#llx %s (%s)", (unsigned long long)
		    hm->s->addr[hm->sel], hm_type_name(hm, hm->sel), sz);
		free(sz);
	} else
		sel = xstrdup("nothing selected");
	tui_putf(y, 0, w, tui_attr(TUI_C_HEADER), "%#llx-%#llx in view (%s"
	    " of heap%s%s), %s a cell | %s", (unsigned long long)lo,
	    (unsigned long long)hi, span, r >= 0 ? ", from " : "", r >= 0 ?
	    hm->m->regions[r].name : "", cell, sel);
	free(span);
	free(cell);
	free(sel);
}

/* The descriptors' map's lines at most, with its label. */
#define HM_DESC_LINES	5

/*
 * The descriptors' map, below the heap's, from the lines the map has: a
 * label and up to HM_DESC_LINES - 1 lines, zoomed to fit them, while the
 * heap keeps at least as many; the lines it takes.
 */
static int
hm_desc_layout(struct heapmap *hm, int lines, int w, int per)
{
	uint64_t	nrows;
	int		dl;

	hm->desc_lines = 0;
	if (hm->dm == NULL || lines < 2 * HM_DESC_LINES)
		return (0);
	hm->dv.cols = (uint32_t)(w - hm->gw > 0 ? w - hm->gw : 1);
	hm->dv.rows = (uint32_t)((HM_DESC_LINES - 1) * per);
	hm->dv.align = (uint32_t)per;
	hm->dv.phase = 0;
	hm->dv.top = 0;
	hm->dv.zoom = analyze_heapmap_fit(hm->dm, &hm->dv);
	nrows = analyze_heapmap_nrows(hm->dm, &hm->dv);
	dl = (int)((nrows + (uint64_t)per - 1) / (uint64_t)per);
	if (dl > HM_DESC_LINES - 1)
		dl = HM_DESC_LINES - 1;
	hm->desc_more = nrows > (uint64_t)dl * (uint64_t)per;
	hm->dv.rows = (uint32_t)(dl * per);
	hm->dcells = xreallocarray(hm->dcells, (size_t)hm->dv.rows *
	    hm->dv.cols + 1, sizeof *hm->dcells);
	analyze_heapmap_frame(hm->dm, &hm->dv, hm->dcells);
	hm->desc_lines = dl + 1;
	return (hm->desc_lines);
}

/*
 * Where things go on a screen h lines by w: the map's lines (the legend,
 * the info pane and the status line below it), its gutter, its cells;
 * the zoom that shows it all on the first time.  The title, drawn first,
 * lays out too, so that it says what the frame shows.
 */
void
hm_layout(struct heapmap *hm, int h, int w)
{
	int		 legend, info, status, lines, per, digits;
	uint64_t	 top;

	/* The legend's lines depend on the marks there are. */
	if (hm->dirty)
		hm_make_marks(hm);
	hm->halves = tui_halves();
	per = hm->halves ? 2 : 1;
	/* Small screens keep the map and the status line first. */
	status = h >= 2;
	info = hm->info != HM_INFO_OFF && h >= 14 ? HM_INFO_H : 0;
	/* A table with the keys gets half the screen, to show rows. */
	if (info != 0 && hm->focus && h / 2 > info)
		info = h / 2;
	legend = h >= 8 ? hm_legend(hm, 0, HM_LEGEND_MAX, w, 0) : 0;
	lines = h - status - info - legend;
	if (lines < 1)
		lines = 1;
	if (hm->maxh != 0 && (uint32_t)lines * (uint32_t)per > hm->maxh)
		lines = (int)((hm->maxh + (uint32_t)per - 1) / (uint32_t)per);
	top = hm->m->regions[hm->m->nregions - 1].hi;
	if (hm->dm != NULL && hm->dm->regions[hm->dm->nregions - 1].hi > top)
		top = hm->dm->regions[hm->dm->nregions - 1].hi;
	for (digits = 1; digits < 16 && (top >> (4 * digits)) != 0; digits++)
		/* nothing */;
	hm->gw = w >= 2 * (digits + 1) + 8 ? digits + 1 : 0;
	lines -= hm_desc_layout(hm, lines, w, per);
	hm->room = (uint32_t)(lines * per);
	if (hm->zrows != 0 && hm->zrows < hm->room)
		lines = (int)((hm->zrows + (uint32_t)per - 1) / (uint32_t)per);
	hm->map_lines = lines;
	hm->legend_lines = legend;
	hm->info_lines = info;
	hm->status_line = status;
	hm->v.cols = (uint32_t)(w - hm->gw > 0 ? w - hm->gw : 1);
	hm->v.rows = (uint32_t)(lines * per);
	/* A region starts a line, so its start address labels it. */
	hm->v.align = (uint32_t)per;
	if (hm->fit) {
		hm->zrows = 0;
		hm->v.zoom = analyze_heapmap_fit(hm->m, &hm->v);
		hm->v.phase = 0;
		hm->v.top = 0;
		hm->fit = 0;
	}
	analyze_heapmap_clamp(hm->m, &hm->v);
}

/* The cells of the view and what the legend counts of them. */
static void
hm_frame(struct heapmap *hm)
{
	size_t	n, i;

	if (hm->dirty)
		hm_make_marks(hm);
	n = (size_t)hm->v.rows * hm->v.cols;
	if (n > hm->ncells) {
		hm->cells = xreallocarray(hm->cells, n, sizeof *hm->cells);
		hm->ncells = n;
	}
	analyze_heapmap_frame(hm->m, &hm->v, hm->cells);
	analyze_heapmap_counts(hm->m, &hm->v, hm->inview);
	/* Freed objects where they were, in the cells now free. */
	analyze_heapdiff_cmp_frame(hm->cmp, &hm->v, hm->cells, hm->inview);
	memset(hm->incells, 0, sizeof hm->incells);
	for (i = 0; i < n; i++) {
		if (hm->cells[i].mark < HM_NM)
			hm->incells[hm->cells[i].mark]++;
	}
}

/* A colour of xterm's 256 as red, green and blue. */
static void
hm_rgb(int c, unsigned char *rgb)
{
	static const unsigned char base[16][3] = {
		{ 0, 0, 0 }, { 205, 0, 0 }, { 0, 205, 0 }, { 205, 205, 0 },
		{ 0, 0, 238 }, { 205, 0, 205 }, { 0, 205, 205 },
		{ 229, 229, 229 }, { 127, 127, 127 }, { 255, 0, 0 },
		{ 0, 255, 0 }, { 255, 255, 0 }, { 92, 92, 255 },
		{ 255, 0, 255 }, { 0, 255, 255 }, { 255, 255, 255 }
	};
	int	v;

	if (c < 0 || c > 255)
		c = 0;
	if (c < 16)
		memcpy(rgb, base[c], 3);
	else if (c < 232) {
		c -= 16;
		v = c / 36;
		rgb[0] = (unsigned char)(v != 0 ? 55 + 40 * v : 0);
		v = c / 6 % 6;
		rgb[1] = (unsigned char)(v != 0 ? 55 + 40 * v : 0);
		v = c % 6;
		rgb[2] = (unsigned char)(v != 0 ? 55 + 40 * v : 0);
	} else
		rgb[0] = rgb[1] = rgb[2] = (unsigned char)(8 + 10 * (c - 232));
}

/* s as a JSON string. */
static void
hm_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

#define HM_STORE_PX	4	/* a cell's pixels a side in the picture */

/*
 * HeapInspector's Store: the map as it is in view, base.ppm (a cell
 * HM_STORE_PX pixels square, in its mark's colour, free cells black),
 * and its statistics, the legend's and the status line's numbers, as
 * base.json; each file whole or not at all, 0600, through outfile.c.
 * 0, or -1 with a cause.
 */
int
hm_store(struct heapmap *hm, const char *base, char **cause)
{
	struct analyze_heapmap_count	 tot[HM_NM];
	struct outfile			 o;
	FILE				*f;
	unsigned char			 rgb[3], *line;
	uint64_t			 lo = 0, hi = 0;
	uint32_t			 r, c, p, q;
	char				*path;
	const char			*name;
	int				 k, first = 1;

	hm_frame(hm);
	path = xasprintf("%s.ppm", base);
	if ((f = outfile_fopen(&o, path, "wb")) == NULL) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		free(path);
		return (-1);
	}
	fprintf(f, "P6\n%u %u\n255\n", hm->v.cols * HM_STORE_PX,
	    hm->v.rows * HM_STORE_PX);
	line = xreallocarray(NULL, (size_t)hm->v.cols * HM_STORE_PX, 3);
	for (r = 0; r < hm->v.rows; r++) {
		for (c = 0; c < hm->v.cols; c++) {
			k = hm->cells[(size_t)r * hm->v.cols + c].mark;
			if (k < HM_NM)
				hm_rgb(hm_colour[hm_marks[k].color].bg, rgb);
			else
				rgb[0] = rgb[1] = rgb[2] = 0;
			for (p = 0; p < HM_STORE_PX; p++)
				memcpy(line + 3 * (c * HM_STORE_PX + p), rgb,
				    3);
		}
		for (q = 0; q < HM_STORE_PX; q++)
			fwrite(line, 3, (size_t)hm->v.cols * HM_STORE_PX, f);
	}
	free(line);
	if (outfile_fclose(&o, f) != 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		free(path);
		return (-1);
	}
	free(path);

	path = xasprintf("%s.json", base);
	if ((f = outfile_fopen(&o, path, "w")) == NULL) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		free(path);
		return (-1);
	}
	analyze_heapmap_span(hm->m, &hm->v, &lo, &hi);
	memcpy(tot, hm->m->total, sizeof tot);
	analyze_heapdiff_cmp_totals(hm->cmp, tot);
	fputs("{\"program\": ", f);
	hm_json_str(f, hm->s->program != NULL ? hm->s->program : "");
	fprintf(f, ", \"objects\": %zu, \"cell_bytes\": %llu,"
	    " \"rows\": %u, \"cols\": %u, \"pixels_per_cell\": %d,"
	    " \"view\": [%llu, %llu],\n \"marks\": [", hm->s->nblocks,
	    (unsigned long long)analyze_heapmap_cell_bytes(hm->v.zoom),
	    hm->v.rows, hm->v.cols, HM_STORE_PX, (unsigned long long)lo,
	    (unsigned long long)hi);
	for (k = HM_NM - 1; k >= 0; k--) {
		if (tot[k].blocks == 0 || (name = hm_mark_name(hm, k)) == NULL)
			continue;
		hm_rgb(hm_colour[hm_marks[k].color].bg, rgb);
		fprintf(f, "%s\n  {\"mark\": ", first ? "" : ",");
		hm_json_str(f, name);
		fprintf(f, ", \"colour\": \"#%02x%02x%02x\","
		    " \"objects_in_view\": %llu, \"bytes_in_view\": %llu,"
		    " \"objects\": %llu, \"bytes\": %llu, \"cells\": %llu}",
		    rgb[0], rgb[1], rgb[2],
		    (unsigned long long)hm->inview[k].blocks,
		    (unsigned long long)hm->inview[k].bytes,
		    (unsigned long long)tot[k].blocks,
		    (unsigned long long)tot[k].bytes,
		    (unsigned long long)hm->incells[k]);
		first = 0;
	}
	fputs("\n ]}\n", f);
	if (outfile_fclose(&o, f) != 0) {
		*cause = xasprintf("%s: %s", path, strerror(errno));
		free(path);
		return (-1);
	}
	free(path);
	return (0);
}

void
hm_draw(struct tui_view *tv, int y, int h, int w)
{
	struct heapmap	*hm = tv->data;

	tv->list.y = y;
	tv->list.height = h;
	if (!hm_shown(hm)) {
		if (hm->loading)
			hm_draw_loading(hm, tv->session, y + h / 2, w);
		else
			tui_putf(y + h / 2, 2, w - 2, tui_attr(TUI_C_ERROR),
			    "%s", hm->load_error);
		return;
	}
	if (hm->s->nregions == 0) {
		tui_put(y, 0, w, TUI_PLAIN, "an empty heap: no region, no"
		    " object");
		return;
	}
	hm_layout(hm, h, w);
	hm->map_y = y;
	/* The screen got too small for the pane: the keys to the map. */
	if (hm->focus && hm->info_lines == 0)
		hm_focus(tv, 0);
	/* A search moved the list's cursor: the map's follows. */
	if (!hm->focus && tv->list.cur != hm->shown && tv->list.cur <
	    hm->s->nblocks)
		hm_goto(hm, tv->list.cur);
	if (hm->cur == SIZE_MAX || hm->cur >= hm->s->nblocks)
		hm_follow(hm);
	hm->shown = hm->cur != SIZE_MAX ? hm->cur : 0;
	if (!hm->focus)
		tv->list.cur = hm->shown;
	hm_frame(hm);
	hm_draw_map(hm, w);
	y += hm->map_lines + hm->desc_lines;
	if (hm->legend_lines > 0)
		hm_legend(hm, y, hm->legend_lines, w, 1);
	if (hm->info_lines > 0)
		hm_draw_info(tv, y + hm->legend_lines, hm->info_lines, w);
	if (hm->status_line)
		hm_draw_status(hm, hm->map_y + h - 1, w);
	/* A search that did not finish at once goes on in the loop's slices. */
	if (hm->walking != HM_WALK_NONE)
		tv->busy = 1;
	if (hm->swapped != 0) {
		tui_trace("update_frame_us %llu", (unsigned long long)
		    (tui_now_ns() - hm->swapped) / 1000);
		hm->swapped = 0;
	}
}

/* While a stored session loads: how far, and how to leave. */
void
hm_draw_loading(struct heapmap *hm, int64_t session, int y, int w)
{
	uint64_t	rows = 0, total = 0;

	if (hm->loader != NULL)
		tui_heapload_progress(hm->loader, &rows, &total);
	if (total != 0 && rows <= total)
		tui_putf(y, 2, w - 2, TUI_PLAIN, "loading the heap snapshot"
		    " of session %lld: %llu of %llu objects, pointers and"
		    " roots read (%llu%%); q leaves", (long long)session,
		    (unsigned long long)rows, (unsigned long long)total,
		    (unsigned long long)(rows * 100 / total));
	else
		tui_putf(y, 2, w - 2, TUI_PLAIN, "loading the heap snapshot"
		    " of session %lld: its objects, the pointers between"
		    " them, the map; q leaves", (long long)session);
}
