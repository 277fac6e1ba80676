/*
 * Drawing helpers: colours (only where the terminal has them), clipped
 * text that never wraps into the next line, heat bars.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <langinfo.h>

#include <curses.h>

#include "xmalloc.h"
#include "vis.h"
#include "tui/tui.h"

#define DRAW_DEFAULT	TUI_COLOUR_DEFAULT

/*
 * The browser's colour pairs: foreground and background on a 256-colour
 * terminal, the same on an 8-colour one, the attribute added to the
 * pair, and the attribute on a terminal without colours.  The
 * histogram's, the timeline's and the tables' colours are the eight
 * basic ones in both columns, so every colour terminal draws them alike.
 * A kind's view brings its own (its mode's colours: the timeline's units
 * and cursor; the heap map's palette, which uses the 256 where it can),
 * made here after these.
 */
static const struct tui_colour draw_table[TUI_C_COUNT] = {
	[TUI_C_HEAT1] = { COLOR_BLUE, DRAW_DEFAULT, COLOR_BLUE, DRAW_DEFAULT,
	    0, A_NORMAL },
	[TUI_C_HEAT2] = { COLOR_CYAN, DRAW_DEFAULT, COLOR_CYAN, DRAW_DEFAULT,
	    0, A_NORMAL },
	[TUI_C_HEAT3] = { COLOR_GREEN, DRAW_DEFAULT, COLOR_GREEN,
	    DRAW_DEFAULT, 0, A_NORMAL },
	[TUI_C_HEAT4] = { COLOR_YELLOW, DRAW_DEFAULT, COLOR_YELLOW,
	    DRAW_DEFAULT, 0, A_NORMAL },
	[TUI_C_HEAT5] = { COLOR_RED, DRAW_DEFAULT, COLOR_RED, DRAW_DEFAULT,
	    A_BOLD, A_BOLD },
	[TUI_C_TITLE] = { COLOR_BLACK, COLOR_CYAN, COLOR_BLACK, COLOR_CYAN,
	    A_BOLD, A_REVERSE },
	[TUI_C_HEADER] = { COLOR_YELLOW, DRAW_DEFAULT, COLOR_YELLOW,
	    DRAW_DEFAULT, A_BOLD, A_BOLD },
	[TUI_C_CURSOR] = { COLOR_BLACK, COLOR_GREEN, COLOR_BLACK, COLOR_GREEN,
	    0, A_REVERSE },
	[TUI_C_NULL] = { COLOR_MAGENTA, DRAW_DEFAULT, COLOR_MAGENTA,
	    DRAW_DEFAULT, 0, A_DIM },
	[TUI_C_ERROR] = { COLOR_RED, DRAW_DEFAULT, COLOR_RED, DRAW_DEFAULT,
	    A_BOLD, A_BOLD },
	/*
	 * Search matches, also inside the cursor row; underlined, since a
	 * unit of the timeline is black on yellow too.
	 */
	[TUI_C_MATCH] = { COLOR_BLACK, COLOR_YELLOW, COLOR_BLACK, COLOR_YELLOW,
	    A_BOLD | A_UNDERLINE, A_BOLD | A_UNDERLINE },
	/* Source lines among the instructions, as perf annotate dims them. */
	[TUI_C_SOURCE] = { COLOR_CYAN, DRAW_DEFAULT, COLOR_CYAN, DRAW_DEFAULT,
	    0, A_DIM },
};

static int	draw_colors;	/* pairs made: 0 none, 8 or 256 */
static short	draw_bg;	/* the background colour pairs use */
static int	draw_utf8;	/* the locale's characters are UTF-8 */
/* Every pair's colours: draw_table's, then the views' (tui_draw_init). */
static const struct tui_colour	**draw_all;
static int			  draw_n;
/* Half-block pairs made so far (tui_put_halves), draw_n by draw_n. */
static unsigned char		 *draw_halves;

/*
 * Every pair in one list: the browser's, then each kind's view's, whose
 * first pair number its colours are told.
 */
static void
draw_list(void)
{
	const struct tui_kind	*k;
	struct tui_colours	*c;
	size_t			 i, j;

	if (draw_all != NULL)
		return;
	draw_n = TUI_C_COUNT;
	for (i = 0; (k = tui_kind_at(i)) != NULL; i++) {
		if ((c = k->mode->colours) != NULL)
			draw_n += (int)c->n;
	}
	draw_all = xcalloc((size_t)draw_n, sizeof *draw_all);
	for (j = 0; j < TUI_C_COUNT; j++)
		draw_all[j] = &draw_table[j];
	for (i = 0; (k = tui_kind_at(i)) != NULL; i++) {
		if ((c = k->mode->colours) == NULL)
			continue;
		c->base = (int)j;
		for (; j < (size_t)c->base + c->n; j++)
			draw_all[j] = &c->colour[j - (size_t)c->base];
	}
	draw_halves = xcalloc((size_t)draw_n * (size_t)draw_n, 1);
}

/*
 * Make every pair, from the 256-colour column where the terminal has
 * them, else the 8-colour one; nothing on a terminal without colours.
 */
void
tui_draw_init(void)
{
	const struct tui_colour	*c;
	short			 bg = COLOR_BLACK, f, b;
	int			 i;

	draw_list();
	draw_colors = 0;
	memset(draw_halves, 0, (size_t)draw_n * (size_t)draw_n);
	draw_utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	if (!has_colors())
		return;
	start_color();
	if (use_default_colors() == OK)
		bg = -1;
	draw_bg = bg;
	draw_colors = COLORS >= 256 ? 256 : 8;
	for (i = TUI_C_NONE + 1; i < draw_n && i < COLOR_PAIRS; i++) {
		c = draw_all[i];
		f = draw_colors == 256 ? c->fg : c->fg8;
		b = draw_colors == 256 ? c->bg : c->bg8;
		init_pair(i, f == DRAW_DEFAULT ? bg : f,
		    b == DRAW_DEFAULT ? bg : b);
	}
}

/*
 * The attribute for pair c (an enum tui_color, or a view's: its colours'
 * base and the colour's index): its colour pair, or its monochrome form.
 */
int
tui_attr(int c)
{
	if (c <= TUI_C_NONE || c >= draw_n)
		return (A_NORMAL);
	if (draw_colors != 0 && c < COLOR_PAIRS)
		return ((int)COLOR_PAIR(c) | draw_all[c]->attr);
	return (draw_all[c]->mono);
}

/*
 * Whether the heap map can draw two rows of cells in a line: half blocks
 * need a UTF-8 locale, and a colour for each half a pair of 256-colour
 * ones made for it (draw_n squared of them, past the table's).
 */
int
tui_halves(void)
{
	return (draw_utf8 && draw_colors == 256 && COLOR_PAIRS >
	    draw_n * (draw_n + 1));
}

/* The colour c gives a cell: its background (the heap map's marks). */
static short
draw_cell_color(int c)
{
	if (c <= TUI_C_NONE || c >= draw_n)
		return (draw_bg);
	return (draw_all[c]->bg == DRAW_DEFAULT ? draw_bg : draw_all[c]->bg);
}

/*
 * Put an upper half block at (y, x): its top half in top's cell colour,
 * its bottom half in bottom's (TUI_C_NONE: the terminal's background).
 * The pair for the two is made the first time it is asked for; pair
 * numbers past 255 do not fit an attribute, so the pair goes to
 * setcchar as a number.  Only when tui_halves() says so.
 */
void
tui_put_halves(int y, int x, int top, int bottom)
{
	cchar_t	cc;
	short	pair;

	if (y < 0 || y >= LINES || x < 0 || x >= COLS || !tui_halves())
		return;
	if (top < 0 || top >= draw_n)
		top = TUI_C_NONE;
	if (bottom < 0 || bottom >= draw_n)
		bottom = TUI_C_NONE;
	if (top == TUI_C_NONE && bottom == TUI_C_NONE) {
		mvaddch(y, x, ' ');
		return;
	}
	pair = (short)(draw_n + top * draw_n + bottom);
	if (!draw_halves[top * draw_n + bottom]) {
		init_pair(pair, draw_cell_color(top), draw_cell_color(bottom));
		draw_halves[top * draw_n + bottom] = 1;
	}
	setcchar(&cc, L"\u2580", A_NORMAL, pair, NULL);
	mvadd_wch(y, x, &cc);
}

/* Columns s takes on screen (bytes that are not valid count as one). */
int
tui_strwidth(const char *s)
{
	mbstate_t	ps;
	wchar_t		wc;
	size_t		n;
	int		w = 0, cw;

	memset(&ps, 0, sizeof ps);
	while (*s != '\0') {
		n = mbrtowc(&wc, s, MB_CUR_MAX, &ps);
		if (n == (size_t)-1 || n == (size_t)-2) {
			memset(&ps, 0, sizeof ps);
			n = 1;
			cw = 1;
		} else
			cw = (cw = wcwidth(wc)) < 0 ? 1 : cw;
		w += cw;
		s += n;
	}
	return (w);
}

/*
 * Put s at (y, x) in at most width columns (and never past the screen's
 * edge, where curses would wrap).  Control and invalid bytes show as '?'.
 * Returns the columns used.
 */
int
tui_put(int y, int x, int width, int attr, const char *s)
{
	mbstate_t	ps;
	wchar_t		wc;
	cchar_t		cc;
	size_t		n;
	int		used = 0, cw;

	if (y < 0 || y >= LINES || x < 0 || x >= COLS)
		return (0);
	if (width > COLS - x)
		width = COLS - x;
	memset(&ps, 0, sizeof ps);
	move(y, x);
	while (*s != '\0' && used < width) {
		n = mbrtowc(&wc, s, MB_CUR_MAX, &ps);
		if (n == (size_t)-1 || n == (size_t)-2) {
			memset(&ps, 0, sizeof ps);
			n = 1;
			wc = L'?';
		}
		/*
		 * Names come from hostile files: no control character or
		 * bidi override may reach the terminal (vis.c says which).
		 */
		if (vis_unsafe((int)wc) || (cw = wcwidth(wc)) < 0) {
			wc = L'?';
			cw = 1;
		}
		if (used + cw > width)
			break;
		/*
		 * setcchar takes the pair apart from the attributes and
		 * sets it over whatever pair attr carries: pass attr's own,
		 * or every cell loses its colour.
		 */
		setcchar(&cc, (wchar_t[]){ wc, L'\0' }, (attr_t)attr &
		    ~A_COLOR, (short)PAIR_NUMBER(attr), NULL);
		add_wch(&cc);
		used += cw;
		s += n;
	}
	return (used);
}

/*
 * tui_put, with every case-insensitive occurrence of pattern (none when
 * NULL) in the match colour, so a search shows where each row matched.
 */
int
tui_put_marks(int y, int x, int width, int attr, const char *s,
    const char *pattern)
{
	const char	*p, *m;
	char		*t;
	size_t		 n;
	int		 used, px;

	used = tui_put(y, x, width, attr, s);
	if (pattern == NULL || (n = strlen(pattern)) == 0)
		return (used);
	for (p = s; (m = strcasestr(p, pattern)) != NULL; p = m + n) {
		t = xasprintf("%.*s", (int)(m - s), s);
		px = tui_strwidth(t);
		free(t);
		if (px >= used)
			break;
		t = xasprintf("%.*s", (int)n, m);
		tui_put(y, x + px, used - px, tui_attr(TUI_C_MATCH), t);
		free(t);
	}
	return (used);
}

int
tui_putf(int y, int x, int width, int attr, const char *fmt, ...)
{
	va_list	 ap;
	char	*s;
	int	 n;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	n = tui_put(y, x, width, attr, s);
	free(s);
	return (n);
}

/*
 * v with prec decimals in at most width columns (len bytes of buf): fewer
 * decimals when it is wider, else in exponent form, else '#'s, as a
 * spreadsheet does.  A number from a hostile file must never run into
 * the column after it (the name a row is about).
 */
void
tui_num_fit(char *buf, size_t len, int width, double v, int prec)
{
	int	p;

	for (p = prec; p >= 0; p--) {
		if (snprintf(buf, len, "%.*f", p, v) <= width)
			return;
	}
	for (p = 6; p >= 0; p--) {
		if (snprintf(buf, len, "%.*e", p, v) <= width)
			return;
	}
	snprintf(buf, len, "%.*s", width, "################################");
}

/* A count, as tui_num_fit: exact when it fits. */
void
tui_count_fit(char *buf, size_t len, int width, uint64_t v)
{
	if (snprintf(buf, len, "%llu", (unsigned long long)v) > width)
		tui_num_fit(buf, len, width, (double)v, 0);
}

/* Fill width columns from (y, x) with blanks in attr. */
void
tui_fill(int y, int x, int width, int attr)
{
	if (y < 0 || y >= LINES || x < 0 || x >= COLS)
		return;
	if (width > COLS - x)
		width = COLS - x;
	for (; width > 0; width--, x++)
		mvaddch(y, x, ' ' | attr);
}

/* Five heat steps for a share of the largest row, 0 to 1. */
enum tui_color
tui_heat(double f)
{
	if (f >= 0.8)
		return (TUI_C_HEAT5);
	if (f >= 0.6)
		return (TUI_C_HEAT4);
	if (f >= 0.4)
		return (TUI_C_HEAT3);
	if (f >= 0.2)
		return (TUI_C_HEAT2);
	return (TUI_C_HEAT1);
}

/* A bar of f (0 to 1) times width columns, coloured by heat. */
void
tui_bar(int y, int x, int width, double f, int cursor)
{
	int	n, attr, i;

	if (width <= 0 || y < 0 || y >= LINES || x >= COLS)
		return;
	if (width > COLS - x)
		width = COLS - x;
	if (f < 0)
		f = 0;
	if (f > 1)
		f = 1;
	n = (int)(f * width + 0.5);
	if (n == 0 && f > 0)
		n = 1;
	attr = cursor ? tui_attr(TUI_C_CURSOR) : tui_attr(tui_heat(f));
	move(y, x);
	for (i = 0; i < n; i++)
		addch('#' | attr);
}
