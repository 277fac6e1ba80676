/*
 * What list views share: cursor movement that keeps the cursor on screen,
 * and search with a match count.
 */
#include <stdlib.h>
#include <string.h>

#include "hex.h"
#include "xmalloc.h"
#include "tui/tui.h"

/* Set the visible height and scroll so the cursor stays on screen. */
void
tui_list_fit(struct tui_list *l, int height)
{
	size_t	h;

	l->height = height > 0 ? height : 0;
	if (l->n == 0) {
		l->cur = l->top = 0;
		return;
	}
	if (l->cur >= l->n)
		l->cur = l->n - 1;
	h = l->height > 0 ? (size_t)l->height : 1;
	if (l->cur < l->top)
		l->top = l->cur;
	else if (l->cur >= l->top + h)
		l->top = l->cur - h + 1;
	/* No blank rows below the last one while there are rows above. */
	if (l->top + h > l->n)
		l->top = l->n > h ? l->n - h : 0;
}

void
tui_list_goto(struct tui_list *l, size_t row)
{
	size_t	h = l->height > 0 ? (size_t)l->height : 1;

	if (l->n == 0)
		return;
	l->cur = row < l->n ? row : l->n - 1;
	/* A jump puts the target in the middle, as less and tig do. */
	if (l->cur < l->top || l->cur >= l->top + h)
		l->top = l->cur > h / 2 ? l->cur - h / 2 : 0;
	tui_list_fit(l, l->height);
}

int
tui_list_action(struct tui_list *l, enum tui_action a)
{
	size_t	page = l->height > 1 ? (size_t)l->height - 1 : 1;

	if (l->n == 0) {
		switch (a) {
		case TUI_ACT_DOWN:
		case TUI_ACT_UP:
		case TUI_ACT_PAGE_DOWN:
		case TUI_ACT_PAGE_UP:
		case TUI_ACT_FIRST:
		case TUI_ACT_LAST:
			return (TUI_R_NONE);
		default:
			return (TUI_R_UNUSED);
		}
	}
	switch (a) {
	case TUI_ACT_DOWN:
		if (l->cur + 1 < l->n)
			l->cur++;
		break;
	case TUI_ACT_UP:
		if (l->cur > 0)
			l->cur--;
		break;
	case TUI_ACT_PAGE_DOWN:
		l->cur = l->cur + page < l->n ? l->cur + page : l->n - 1;
		l->top = l->top + page < l->n ? l->top + page : l->top;
		break;
	case TUI_ACT_PAGE_UP:
		l->cur = l->cur > page ? l->cur - page : 0;
		l->top = l->top > page ? l->top - page : 0;
		break;
	case TUI_ACT_FIRST:
		l->cur = 0;
		break;
	case TUI_ACT_LAST:
		l->cur = l->n - 1;
		break;
	default:
		return (TUI_R_UNUSED);
	}
	tui_list_fit(l, l->height);
	return (TUI_R_DRAW);
}

/*
 * One hex number of an address, as DOS tools and the man page write them:
 * with or without 0x before it or h after it.  Returns its end, or NULL.
 */
static const char *
search_hex(const char *s, uint64_t *v)
{
	const char	*p;
	size_t		 n;
	int		 x = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		x = 1;
	}
	/* At most 16 digits, leading zeros too. */
	if ((n = hex_scan(s, SIZE_MAX, v)) == 0 || n > 16)
		return (NULL);
	p = s + n;
	if (!x && (*p == 'h' || *p == 'H'))
		p++;
	return (p);
}

/*
 * Whether pattern reads as an address: one hex number (the linear
 * address) or seg:off, each part 16 bits, which is seg * 16 + off.
 * Names are searched as well, so "/add" finds both.
 */
int
tui_search_addr(const char *pattern, uint64_t *addr)
{
	const char	*p;
	uint64_t	 seg, off;

	if ((p = search_hex(pattern, &seg)) == NULL)
		return (0);
	if (*p == '\0') {
		*addr = seg;
		return (1);
	}
	if (*p != ':' || seg > 0xffff ||
	    (p = search_hex(p + 1, &off)) == NULL || *p != '\0' ||
	    off > 0xffff)
		return (0);
	*addr = seg * 16 + off;
	return (1);
}

/* Whether the search reads as an address in [lo, hi). */
int
tui_search_in(const struct tui_search *s, uint64_t lo, uint64_t hi)
{
	return (s->isaddr && s->addr >= lo && s->addr < hi);
}

/* The pattern whose matches a view marks, or NULL. */
const char *
tui_search_marks(const struct tui_view *v)
{
	return (v->search.hidden ? NULL : v->search.pattern);
}

/*
 * What to search for in a session's own view for a diff row: the row's
 * last name (a call path's function, module!function's function, a
 * stack's innermost frame), which those views list.
 */
static char *
find_short(const char *name)
{
	const char	*p;
	size_t		 n;

	if ((p = strrchr(name, ';')) != NULL)
		name = p + 1;
	if ((p = strrchr(name, '!')) != NULL)
		name = p + 1;
	n = strcspn(name, " ");
	if (strncmp(name + n, " < ", 3) != 0)
		n = strlen(name);
	return (xasprintf("%.*s", (int)n, name));
}

/* Show v's item of a diff row's name now, if it can; whether it did. */
static int
find_now(struct tui_view *v, const char *name)
{
	char	*what;

	if (v->ops->find != NULL)
		return (v->ops->find(v, name) == 0);
	if (v->ops->ready != NULL && !v->ops->ready(v))
		return (0);
	if (v->ops->match == NULL)
		return (1);
	what = find_short(name);
	tui_search_start(v, what);
	free(what);
	return (1);
}

/*
 * Show the item of a diff row's name in v, a session's view the diff
 * opened: now, else once v has loaded it (the loop asks after each slice
 * of v's work, tui_find_pending), so a view that loads in the background
 * finds it as one that loads at once.
 */
void
tui_find(struct tui_view *v, const char *name)
{
	free(v->find);
	v->find = NULL;
	if (!find_now(v, name))
		v->find = xstrdup(name);
}

/* v's find, if it has one waiting and can now; whether it ran. */
int
tui_find_pending(struct tui_view *v)
{
	if (v->find == NULL || !find_now(v, v->find))
		return (0);
	free(v->find);
	v->find = NULL;
	return (1);
}

/* Case-insensitive: does s contain pattern? */
int
tui_strcasestr(const char *s, const char *pattern)
{
	return (s != NULL && strcasestr(s, pattern) != NULL);
}

void
tui_search_free(struct tui_search *s)
{
	free(s->pattern);
	free(s->rows);
	memset(s, 0, sizeof *s);
}

/* Scan every row once; n/N then only walk the matches. */
static void
search_scan(struct tui_view *v)
{
	struct tui_search	*s = &v->search;
	size_t			 i, cap = 0;

	free(s->rows);
	s->rows = NULL;
	s->n = 0;
	s->stale = 0;
	for (i = 0; i < v->list.n; i++) {
		if (!v->ops->match(v, i, s->pattern))
			continue;
		if (s->n == cap) {
			cap = cap != 0 ? cap * 2 : 64;
			s->rows = xreallocarray(s->rows, cap, sizeof *s->rows);
		}
		s->rows[s->n++] = i;
	}
}

/* "3/17" for the status line, or NULL when there is no search. */
char *
tui_search_status(struct tui_view *v)
{
	struct tui_search	*s = &v->search;

	if (s->pattern == NULL)
		return (NULL);
	if (s->n == 0)
		return (xasprintf("/%s: no match", s->pattern));
	return (xasprintf("/%s: %zu/%zu", s->pattern, s->at + 1, s->n));
}

/* Search from the cursor on for pattern. */
int
tui_search_start(struct tui_view *v, const char *pattern)
{
	struct tui_search	*s = &v->search;
	char			*msg;
	size_t			 i;

	if (v->ops->match == NULL) {
		tui_message("this view has nothing to search");
		return (TUI_R_DRAW);
	}
	tui_search_free(s);
	s->pattern = xstrdup(pattern);
	s->isaddr = tui_search_addr(pattern, &s->addr);
	if (v->ops->reveal != NULL)
		v->ops->reveal(v, pattern);
	search_scan(v);
	if (s->n != 0) {
		for (i = 0; i < s->n && s->rows[i] < v->list.cur; i++)
			;
		s->at = i < s->n ? i : 0;
		tui_list_goto(&v->list, s->rows[s->at]);
	}
	msg = tui_search_status(v);
	tui_message("%s", msg);
	free(msg);
	return (TUI_R_DRAW);
}

/* The next (dir 1) or previous (dir -1) match, wrapping around. */
int
tui_search_step(struct tui_view *v, int dir)
{
	struct tui_search	*s = &v->search;
	char			*msg;
	size_t			 i;

	if (s->pattern == NULL) {
		tui_message("no search yet: press / first");
		return (TUI_R_DRAW);
	}
	s->hidden = 0;
	if (s->stale)
		search_scan(v);
	if (s->n != 0) {
		/* Step from the cursor, which may have moved since. */
		if (dir > 0) {
			for (i = 0; i < s->n && s->rows[i] <= v->list.cur; i++)
				;
			s->at = i < s->n ? i : 0;
		} else {
			for (i = s->n; i > 0 && s->rows[i - 1] >= v->list.cur;
			    i--)
				;
			s->at = i > 0 ? i - 1 : s->n - 1;
		}
		tui_list_goto(&v->list, s->rows[s->at]);
	}
	msg = tui_search_status(v);
	tui_message("%s", msg);
	free(msg);
	return (TUI_R_DRAW);
}
