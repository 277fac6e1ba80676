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

/* A colour that is the terminal's own background (or black). */
#define DRAW_DEFAULT	-1

/*
 * Every colour pair, in one place: foreground and background on a
 * 256-colour terminal, the same on an 8-colour one, the attribute added
 * to the pair, and the attribute on a terminal without colours.  The
 * histogram's, the timeline's and the tables' colours are the eight
 * basic ones in both columns, so every colour terminal draws them alike;
 * the heap map's palette uses the 256 where it can, to tell eight type
 * marks apart.
 * Without colours, type marks and overlays are only a hint: the heap map
 * draws a cell's mark as a character, as the timeline draws its units'
 * letters.
 */
static const struct draw_color {
	short	fg, bg;		/* 256 colours */
	short	fg8, bg8;	/* 8 colours */
	int	attr;		/* with the colours */
	int	mono;		/* instead of them */
} draw_table[TUI_C_COUNT] = {
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
	/*
	 * The timeline's cursor: a column through every lane and the band,
	 * and in it the cursor's own cell, a notch that no unit's colour
	 * (the list cursor's green is one) can hide.
	 */
	[TUI_C_MARK] = { COLOR_BLACK, COLOR_WHITE, COLOR_BLACK, COLOR_WHITE,
	    0, A_REVERSE },
	[TUI_C_MARK_HERE] = { COLOR_WHITE, COLOR_BLACK, COLOR_WHITE,
	    COLOR_BLACK, A_BOLD, A_BOLD | A_UNDERLINE },

	/* Black on the unit's colour; on vt100 the letters tell. */
	[TUI_C_UNIT1] = { COLOR_BLACK, COLOR_BLUE, COLOR_BLACK, COLOR_BLUE,
	    0, A_NORMAL },
	[TUI_C_UNIT2] = { COLOR_BLACK, COLOR_GREEN, COLOR_BLACK, COLOR_GREEN,
	    0, A_NORMAL },
	[TUI_C_UNIT3] = { COLOR_BLACK, COLOR_MAGENTA, COLOR_BLACK,
	    COLOR_MAGENTA, 0, A_NORMAL },
	[TUI_C_UNIT4] = { COLOR_BLACK, COLOR_CYAN, COLOR_BLACK, COLOR_CYAN,
	    0, A_NORMAL },
	[TUI_C_UNIT5] = { COLOR_BLACK, COLOR_YELLOW, COLOR_BLACK,
	    COLOR_YELLOW, 0, A_NORMAL },
	[TUI_C_UNIT6] = { COLOR_BLACK, COLOR_RED, COLOR_BLACK, COLOR_RED,
	    0, A_NORMAL },

	/*
	 * Type marks: black on eight backgrounds (xterm's 256 palette:
	 * blue, green, orange, violet, teal, pink, olive, grey); eight
	 * colours have only six hues that black reads on, so the last two
	 * are white on blue and black on white.
	 */
	[TUI_C_TYPE1] = { COLOR_BLACK, 33, COLOR_BLACK, COLOR_BLUE,
	    0, A_REVERSE },
	[TUI_C_TYPE2] = { COLOR_BLACK, 40, COLOR_BLACK, COLOR_GREEN,
	    0, A_REVERSE },
	[TUI_C_TYPE3] = { COLOR_BLACK, 208, COLOR_BLACK, COLOR_YELLOW,
	    0, A_REVERSE },
	[TUI_C_TYPE4] = { COLOR_BLACK, 141, COLOR_BLACK, COLOR_MAGENTA,
	    0, A_REVERSE },
	[TUI_C_TYPE5] = { COLOR_BLACK, 37, COLOR_BLACK, COLOR_CYAN,
	    0, A_REVERSE },
	[TUI_C_TYPE6] = { COLOR_BLACK, 211, COLOR_BLACK, COLOR_RED,
	    0, A_REVERSE },
	[TUI_C_TYPE7] = { COLOR_BLACK, 143, COLOR_WHITE, COLOR_BLUE,
	    A_BOLD, A_REVERSE },
	[TUI_C_TYPE8] = { COLOR_BLACK, 250, COLOR_BLACK, COLOR_WHITE,
	    0, A_REVERSE },

	/*
	 * Overlays, over the blocks they pick out: collectable (garbage)
	 * red, reachable green, reached from the selection yellow, the
	 * selection itself bold white.
	 */
	[TUI_C_COLLECTABLE] = { 231, 160, COLOR_WHITE, COLOR_RED,
	    A_BOLD, A_BOLD | A_UNDERLINE },
	[TUI_C_REACHABLE] = { COLOR_BLACK, 34, COLOR_BLACK, COLOR_GREEN,
	    0, A_UNDERLINE },
	[TUI_C_REACHED_FROM] = { COLOR_BLACK, 220, COLOR_BLACK, COLOR_YELLOW,
	    0, A_BOLD },
	[TUI_C_SELECTED] = { COLOR_BLACK, 231, COLOR_BLACK, COLOR_WHITE,
	    A_BOLD, A_REVERSE | A_BOLD },

	/*
	 * The heap map's other marks: a block nothing picks out grey, one
	 * freed since the snapshot compared dark grey, a new one cyan, one
	 * not collectable sea green, possibly lost orange, freed by a test
	 * unload purple; and its cursor, hot pink, a colour no mark has.
	 * Eight colours repeat some: the map then draws each mark's letter.
	 */
	[TUI_C_BLOCK] = { COLOR_BLACK, 245, COLOR_BLACK, COLOR_WHITE,
	    0, A_NORMAL },
	[TUI_C_FREED] = { COLOR_WHITE, 238, COLOR_WHITE, COLOR_BLACK,
	    0, A_DIM },
	[TUI_C_BORN] = { COLOR_BLACK, 51, COLOR_BLACK, COLOR_CYAN,
	    0, A_BOLD },
	[TUI_C_KEPT] = { COLOR_BLACK, 115, COLOR_BLACK, COLOR_GREEN,
	    0, A_NORMAL },
	[TUI_C_POSSIBLE] = { COLOR_BLACK, 208, COLOR_BLACK, COLOR_YELLOW,
	    0, A_UNDERLINE },
	[TUI_C_UNLOAD] = { 231, 90, COLOR_WHITE, COLOR_MAGENTA,
	    A_BOLD, A_BOLD },
	[TUI_C_HEAP_CURSOR] = { COLOR_BLACK, 201, COLOR_WHITE, COLOR_BLACK,
	    A_BOLD, A_REVERSE | A_BOLD },
	/* Source lines among the instructions, as perf annotate dims them. */
	[TUI_C_SOURCE] = { COLOR_CYAN, DRAW_DEFAULT, COLOR_CYAN, DRAW_DEFAULT,
	    0, A_DIM },
	/*
	 * The objects of an info table's row: white on a blue no other mark
	 * has.  ModuleHierarchy's names as the seed's: not imported red,
	 * test-unloaded blue, imported by those green (a mark column says
	 * the same without colours).
	 */
	[TUI_C_PICKED] = { 231, 27, COLOR_WHITE, COLOR_BLUE,
	    A_BOLD, A_REVERSE | A_UNDERLINE },
	[TUI_C_HIER_TOP] = { 196, DRAW_DEFAULT, COLOR_RED, DRAW_DEFAULT,
	    0, A_BOLD },
	[TUI_C_HIER_UNLOAD] = { 75, DRAW_DEFAULT, COLOR_BLUE, DRAW_DEFAULT,
	    A_BOLD, A_UNDERLINE },
	[TUI_C_HIER_NEEDED] = { 40, DRAW_DEFAULT, COLOR_GREEN, DRAW_DEFAULT,
	    0, A_DIM },
};

static int	draw_colors;	/* pairs made: 0 none, 8 or 256 */
static short	draw_bg;	/* the background colour pairs use */
static int	draw_utf8;	/* the locale's characters are UTF-8 */
/* Half-block pairs made so far (tui_put_halves). */
static unsigned char draw_halves[TUI_C_COUNT][TUI_C_COUNT];

/*
 * Make every pair, from the 256-colour column where the terminal has
 * them, else the 8-colour one; nothing on a terminal without colours.
 */
void
tui_draw_init(void)
{
	const struct draw_color	*c;
	short			 bg = COLOR_BLACK, f, b;
	int			 i;

	draw_colors = 0;
	memset(draw_halves, 0, sizeof draw_halves);
	draw_utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	if (!has_colors())
		return;
	start_color();
	if (use_default_colors() == OK)
		bg = -1;
	draw_bg = bg;
	draw_colors = COLORS >= 256 ? 256 : 8;
	for (i = TUI_C_NONE + 1; i < TUI_C_COUNT && i < COLOR_PAIRS; i++) {
		c = &draw_table[i];
		f = draw_colors == 256 ? c->fg : c->fg8;
		b = draw_colors == 256 ? c->bg : c->bg8;
		init_pair(i, f == DRAW_DEFAULT ? bg : f,
		    b == DRAW_DEFAULT ? bg : b);
	}
}

/* The attribute for c: its colour pair, or its monochrome form. */
int
tui_attr(enum tui_color c)
{
	if (c <= TUI_C_NONE || c >= TUI_C_COUNT)
		return (A_NORMAL);
	if (draw_colors != 0 && (int)c < COLOR_PAIRS)
		return ((int)COLOR_PAIR(c) | draw_table[c].attr);
	return (draw_table[c].mono);
}

/*
 * Whether the heap map can draw two rows of cells in a line: half blocks
 * need a UTF-8 locale, and a colour for each half a pair of 256-colour
 * ones made for it (TUI_C_COUNT squared of them, past the table's).
 */
int
tui_halves(void)
{
	return (draw_utf8 && draw_colors == 256 && COLOR_PAIRS >
	    TUI_C_COUNT * (TUI_C_COUNT + 1));
}

/* The colour c gives a cell: its background (the heap map's marks). */
static short
draw_cell_color(enum tui_color c)
{
	if (c <= TUI_C_NONE || c >= TUI_C_COUNT)
		return (draw_bg);
	return (draw_table[c].bg == DRAW_DEFAULT ? draw_bg : draw_table[c].bg);
}

/*
 * Put an upper half block at (y, x): its top half in top's cell colour,
 * its bottom half in bottom's (TUI_C_NONE: the terminal's background).
 * The pair for the two is made the first time it is asked for; pair
 * numbers past 255 do not fit an attribute, so the pair goes to
 * setcchar as a number.  Only when tui_halves() says so.
 */
void
tui_put_halves(int y, int x, enum tui_color top, enum tui_color bottom)
{
	cchar_t	cc;
	short	pair;

	if (y < 0 || y >= LINES || x < 0 || x >= COLS || !tui_halves())
		return;
	if (top < 0 || top >= TUI_C_COUNT)
		top = TUI_C_NONE;
	if (bottom < 0 || bottom >= TUI_C_COUNT)
		bottom = TUI_C_NONE;
	if (top == TUI_C_NONE && bottom == TUI_C_NONE) {
		mvaddch(y, x, ' ');
		return;
	}
	pair = (short)(TUI_C_COUNT + top * TUI_C_COUNT + bottom);
	if (!draw_halves[top][bottom]) {
		init_pair(pair, draw_cell_color(top), draw_cell_color(bottom));
		draw_halves[top][bottom] = 1;
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
