/*
 * The help view, generated from the key table and the command table so
 * it cannot drift from what the keys do: the keys of the view it was
 * opened from first, then the global ones that view leaves alone, the
 * commands, the prompt's and the y/n question's keys, and last every
 * other view's.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "xmalloc.h"
#include "tui/tui.h"

#define HELP_WIDTH	80	/* columns a help line keeps to */

struct help {
	char	**line;
	int	 *header;
	size_t	  n;
	char	 *view;		/* the name of the view it was opened from */
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

/*
 * An entry: keys (or a command) and what it does, the text wrapped at
 * HELP_WIDTH on spaces under its own column, so a long one reads whole
 * rather than running off a terminal's edge; keys too wide for their
 * column stand on a line of their own, as in a man page's list.
 */
static void
help_item(struct help *h, const char *keys, const char *text)
{
	const size_t	 room = HELP_WIDTH - 25;
	const char	*p = text, *sp;
	size_t		 n;

	if (strlen(keys) > 22) {
		help_add(h, 0, "  %s", keys);
		keys = "";
	}
	do {
		n = strlen(p);
		if (n > room) {
			/* The last space that fits, else the first after. */
			for (sp = p + room; sp > p && *sp != ' '; sp--)
				;
			if (sp == p && (sp = strchr(p + room, ' ')) == NULL)
				sp = p + n;
			n = (size_t)(sp - p);
		}
		help_add(h, 0, "  %-22s %.*s", keys, (int)n, p);
		keys = "";
		p += n;
		p += strspn(p, " ");
	} while (*p != '\0');
}

static char *
help_title(struct tui_view *tv)
{
	struct help	*h = tv->data;

	/* A topic's help is its header's; a view's names the view. */
	if (h->n > 0 && strncmp(h->line[0], ":help ", 6) == 0)
		return (xasprintf("profview: help for :%s (q closes)",
		    h->line[0] + 6));
	return (xasprintf("profview: help for the %s view (q closes)",
	    h->view));
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
		tui_put_marks(y + row, 0, w, attr, hp->line[i],
		    tui_search_marks(tv));
	}
}

static int
help_key(struct tui_view *tv, int a)
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
	free(h->view);
	free(h);
}

/* Its own group has no keys: those of every view work. */
const struct tui_keys tui_keys_help = { "help", "In the help view", NULL,
    0 };

static const struct tui_view_ops help_ops = {
	.name = "help",
	.help = "the keys and commands",
	.keys = &tui_keys_help,
	.draw = help_draw,
	.key = help_key,
	.title = help_title,
	.match = help_match,
	.free = help_free,
};

/* Whether group g binds the key the table spells word. */
static int
help_bound(const struct tui_keys *g, const char *word)
{
	const char	*p;
	size_t		 i, n = strlen(word);

	for (i = 0; i < g->n; i++) {
		p = g->key[i].keys;
		for (; *p != '\0'; p += strcspn(p, " ")) {
			p += strspn(p, " ");
			if (strncmp(p, word, n) == 0 &&
			    (p[n] == ' ' || p[n] == '\0'))
				return (1);
		}
	}
	return (0);
}

/*
 * Group g's keys.  With shadow, keys that group also binds are left out
 * (the global keys a view gives its own meaning), and an action whose
 * keys are all left out goes.
 */
static void
help_group(struct help *h, const struct tui_keys *g,
    const struct tui_keys *shadow)
{
	char	*copy, *word, *save, *keys;
	size_t	 i, n = 0;

	help_add(h, 1, "%s", g->title);
	for (i = 0; i < g->n; i++) {
		keys = xstrdup("");
		copy = xstrdup(g->key[i].keys);
		for (word = strtok_r(copy, " ", &save); word != NULL;
		    word = strtok_r(NULL, " ", &save)) {
			if (shadow != NULL && help_bound(shadow, word))
				continue;
			word = xasprintf("%s%s%s", keys, *keys != '\0' ? " " :
			    "", word);
			free(keys);
			keys = word;
		}
		free(copy);
		if (*keys != '\0') {
			help_item(h, keys, g->key[i].help);
			n++;
		}
		free(keys);
	}
	if (g == &tui_keys_global) {
		help_item(h, "mouse", "click selects a row, the wheel"
		    " scrolls");
		help_item(h, "", "the timeline: a click picks an event, the"
		    " wheel pans");
		n++;
	}
	if (n == 0)
		help_item(h, "", "(no keys of its own: those of every view"
		    " work)");
	help_add(h, 0, "%s", "");
}

/*
 * :help NAME: the command's usage and line, and at length the topic (the
 * seed's name, what it did there and what it is here) when there is one.
 */
struct tui_view *
tui_help_topic(const char *name, const struct tui_topic *t,
    const struct tui_command *c)
{
	struct help	*h = xcalloc(1, sizeof *h);
	struct tui_view	*tv;
	char		*args;

	h->view = xstrdup(name);
	help_add(h, 1, ":help %s", name);
	if (c != NULL) {
		args = xasprintf(":%s %s", c->name, c->args);
		help_item(h, args, c->help);
		free(args);
	}
	if (t != NULL) {
		help_item(h, "seed's name", t->seed);
		help_item(h, "in profview", t->ours != NULL ? t->ours :
		    "none (see below)");
		help_add(h, 0, "%s", "");
		help_add(h, 1, "What it did in the seed");
		help_item(h, "", t->seed_does);
		help_add(h, 0, "%s", "");
		help_add(h, 1, "In C and C++, here");
		help_item(h, "", t->here);
	}
	tv = tui_view_new(&help_ops, h);
	tv->list.n = h->n;
	return (tv);
}

/* Help for view from: its keys first. */
struct tui_view *
tui_help_new(struct tui_view *from)
{
	struct help			 *h = xcalloc(1, sizeof *h);
	struct tui_view			 *tv;
	const struct tui_keys		 *own = from->keys;
	const struct tui_keys *const	 *groups;
	const struct tui_command *const	 *cmds;
	const struct tui_command	 *c;
	size_t				  i, n;
	char				 *args, *cand;

	h->view = xstrdup(own->name);
	help_group(h, own, NULL);
	help_group(h, &tui_keys_global, own);
	help_add(h, 1, "Commands (: opens the prompt; Tab completes, Up/Down"
	    " recall)");
	cmds = tui_command_list(&n);
	for (i = 0; i < n; i++) {
		c = cmds[i];
		args = xasprintf(":%s%s%s %s", c->name, c->alias != NULL ?
		    ", :" : "", c->alias != NULL ? c->alias : "", c->args);
		help_item(h, args, c->help);
		free(args);
		cand = tui_command_complete(c->name, from, 0);
		if (cand != NULL) {
			args = xasprintf("  %-22s %.*s here: %s", "",
			    (int)strcspn(c->args, " "), c->args, cand);
			/* The store's names are many: what fits. */
			if (strlen(args) > HELP_WIDTH)
				strcpy(args + HELP_WIDTH - 3, "...");
			help_add(h, 0, "%s", args);
			free(args);
			free(cand);
		}
	}
	help_add(h, 0, "%s", "");
	help_group(h, &tui_keys_prompt, NULL);
	help_group(h, &tui_keys_confirm, NULL);
	groups = tui_keymap_groups(&n);
	for (i = 0; i < n; i++) {
		if (groups[i] == own || groups[i] == &tui_keys_global ||
		    groups[i] == &tui_keys_prompt ||
		    groups[i] == &tui_keys_confirm || groups[i]->n == 0)
			continue;
		help_group(h, groups[i], NULL);
	}
	tv = tui_view_new(&help_ops, h);
	tv->list.n = h->n;
	return (tv);
}
