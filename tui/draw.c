/*
 * Drawing helpers: colours (only where the terminal has them), clipped
 * text that never wraps into the next line, heat bars.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <curses.h>

#include "xmalloc.h"
#include "tui/tui.h"

static int	draw_colors;

void
tui_draw_init(void)
{
	static const short heat[5] = {
		COLOR_BLUE, COLOR_CYAN, COLOR_GREEN, COLOR_YELLOW, COLOR_RED
	};
	short	bg = COLOR_BLACK;
	int	i;

	draw_colors = has_colors();
	if (!draw_colors)
		return;
	start_color();
	if (use_default_colors() == OK)
		bg = -1;
	for (i = 0; i < 5; i++)
		init_pair(TUI_C_HEAT1 + i, heat[i], bg);
	init_pair(TUI_C_TITLE, COLOR_BLACK, COLOR_CYAN);
	init_pair(TUI_C_HEADER, COLOR_YELLOW, bg);
	init_pair(TUI_C_CURSOR, COLOR_BLACK, COLOR_GREEN);
	init_pair(TUI_C_NULL, COLOR_MAGENTA, bg);
	init_pair(TUI_C_ERROR, COLOR_RED, bg);
}

/* The attribute for c: a colour pair, or a plain attribute without colour. */
int
tui_attr(enum tui_color c)
{
	if (c == TUI_C_NONE)
		return (A_NORMAL);
	if (draw_colors) {
		switch (c) {
		case TUI_C_TITLE:
		case TUI_C_HEADER:
		case TUI_C_ERROR:
			return (COLOR_PAIR(c) | A_BOLD);
		case TUI_C_HEAT5:
			return (COLOR_PAIR(c) | A_BOLD);
		default:
			return (COLOR_PAIR(c));
		}
	}
	switch (c) {
	case TUI_C_TITLE:
	case TUI_C_CURSOR:
		return (A_REVERSE);
	case TUI_C_HEADER:
	case TUI_C_ERROR:
	case TUI_C_HEAT5:
		return (A_BOLD);
	case TUI_C_NULL:
		return (A_DIM);
	default:
		return (A_NORMAL);
	}
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
		if ((cw = wcwidth(wc)) < 0) {
			wc = L'?';
			cw = 1;
		}
		if (used + cw > width)
			break;
		setcchar(&cc, (wchar_t[]){ wc, L'\0' }, attr, 0, NULL);
		add_wch(&cc);
		used += cw;
		s += n;
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
