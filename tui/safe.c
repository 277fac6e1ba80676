/*
 * Text that came from data, drawn safe: names from hostile files and
 * file names from anywhere go through vis.c before tui_put, so that no
 * control character or bidi override reaches the terminal, whatever
 * tui_put lets through.
 */
#include <stdarg.h>
#include <stdlib.h>

#include "xmalloc.h"
#include "vis.h"
#include "tui/tui.h"

/* tui_putf, with the formatted text made safe. */
int
tui_putf_safe(int y, int x, int width, int attr, const char *fmt, ...)
{
	va_list	 ap;
	char	*s, *t;
	int	 n;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	t = vis(s);
	n = tui_put(y, x, width, attr, t);
	free(t);
	free(s);
	return (n);
}
