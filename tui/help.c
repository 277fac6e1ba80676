/*
 * The help view, generated from the key table and the command table so
 * it cannot drift from what the keys do.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "xmalloc.h"
#include "tui/tui.h"

struct help {
	char	**line;
	int	 *header;
	size_t	  n;
};

static void
help_add(struct help *h, int header, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
help_add(struct help *h, int header, const char *fmt, ...)
{
	va_list	ap;

	h->line = xreallocarray(h->line, h->n + 1, sizeof *h->line);
	h->header = xreallocarray(h->header, h->n + 1, sizeof *h->header);
	va_start(ap, fmt);
	h->line[h->n] = xvasprintf(fmt, ap);
	va_end(ap);
	h->header[h->n++] = header;
}

static char *
help_title(struct tui_view *tv)
{
	return (xstrdup("profview: help (q closes)"));
}

static void
help_draw(struct tui_view *tv, int y, int h, int w)
{
	struct help	*hp = tv->data;
	size_t		 i;
	int		 row, attr;

	tv->list.y = y;
	tui_list_fit(&tv->list, h);
	for (row = 0; row < tv->list.height; row++) {
		i = tv->list.top + (size_t)row;
		if (i >= hp->n)
			break;
		attr = hp->header[i] ? tui_attr(TUI_C_HEADER) : TUI_PLAIN;
		if (i == tv->list.cur) {
			attr = tui_attr(TUI_C_CURSOR);
			tui_fill(y + row, 0, w, attr);
		}
		tui_put(y + row, 0, w, attr, hp->line[i]);
	}
}

static int
help_key(struct tui_view *tv, enum tui_action a)
{
	return (TUI_R_UNUSED);
}

static int
help_match(struct tui_view *tv, size_t row, const char *pattern)
{
	return (tui_strcasestr(((struct help *)tv->data)->line[row], pattern));
}

static void
help_free(struct tui_view *tv)
{
	struct help	*h = tv->data;
	size_t		 i;

	for (i = 0; i < h->n; i++)
		free(h->line[i]);
	free(h->line);
	free(h->header);
	free(h);
}

static const struct tui_view_ops help_ops = {
	.name = "help",
	.help = "the keys and commands",
	.draw = help_draw,
	.key = help_key,
	.title = help_title,
	.match = help_match,
	.free = help_free,
};

struct tui_view *
tui_help_new(void)
{
	struct help	*h = xcalloc(1, sizeof *h);
	struct tui_view	*tv;
	size_t		 i;
	char		*args;

	help_add(h, 1, "Keys");
	for (i = 1; i < TUI_ACT_COUNT; i++)
		help_add(h, 0, "  %-22s %s", tui_actions[i].keys,
		    tui_actions[i].help);
	help_add(h, 0, "  %-22s %s", "mouse", "click selects a row, the"
	    " wheel scrolls");
	help_add(h, 0, "  %-22s %s", "", "timeline: click an event to put"
	    " the cursor on it, the wheel pans");
	help_add(h, 0, "%s", "");
	help_add(h, 1, "Commands (: opens the prompt; Tab completes, Up/Down"
	    " recall)");
	for (i = 0; i < tui_ncommands; i++) {
		args = xasprintf(":%s %s", tui_commands[i].name,
		    tui_commands[i].args);
		help_add(h, 0, "  %-22s %s", args, tui_commands[i].help);
		free(args);
	}
	help_add(h, 0, "%s", "");
	help_add(h, 1, "Prompt editing");
	help_add(h, 0, "  %-22s %s", "Left Right C-b C-f", "move the cursor");
	help_add(h, 0, "  %-22s %s", "Home End C-a C-e", "start, end");
	help_add(h, 0, "  %-22s %s", "Backspace Delete", "delete a character");
	help_add(h, 0, "  %-22s %s", "C-u C-k C-w", "delete to the start, to"
	    " the end, the word before");
	help_add(h, 0, "  %-22s %s", "Up Down", "history");
	help_add(h, 0, "  %-22s %s", "Enter Escape", "run, cancel");
	tv = tui_view_new(&help_ops, h);
	tv->list.n = h->n;
	return (tv);
}
