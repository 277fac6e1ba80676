/*
 * The sessions view: every session in the store, one line each.  Enter
 * opens a session's natural view, d deletes one after a y/n question.
 */
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "xmalloc.h"
#include "vis.h"
#include "report/report.h"
#include "tui/tui.h"

/* The actions of its keys (tui.h: numbered from TUI_ACT_VIEW). */
enum sessions_action {
	SESSIONS_ACT_OPEN = TUI_ACT_VIEW,
	SESSIONS_ACT_DELETE
};

static const struct tui_key sessions_bind[] = {
	TUI_KEY(SESSIONS_ACT_OPEN, "Enter", "open the session in its view"),
	TUI_KEY(SESSIONS_ACT_DELETE, "d", "delete the session (asks y/n)"),
};
const struct tui_keys tui_keys_sessions = TUI_KEYS("sessions",
    "In the sessions view", sessions_bind);

struct sessions {
	struct store_session	*v;
	size_t			 n;
	char			*error;
	int			 loaded;
};

static void
sessions_safe(char **s)
{
	char	*t = vis(*s);

	free(*s);
	*s = t;
}

static void
sessions_load(struct tui_view *tv)
{
	struct sessions	*s = tv->data;
	size_t		 i;

	store_sessions_free(s->v, s->n);
	s->v = NULL;
	s->n = 0;
	free(s->error);
	s->error = NULL;
	s->loaded = 1;
	if (store_sessions(tui_store(), &s->v, &s->n) != 0)
		s->error = xasprintf("error: reading sessions: %s",
		    store_error(tui_store()));
	/* Shown, searched and asked about as drawn: made safe (vis.c). */
	for (i = 0; i < s->n; i++) {
		sessions_safe(&s->v[i].source);
		sessions_safe(&s->v[i].program);
		sessions_safe(&s->v[i].summary);
	}
	tv->list.n = s->n;
	tv->search.stale = 1;
	tui_list_fit(&tv->list, tv->list.height);
}

/*
 * The summaries cost a scan of every bucket, so a view that starts under
 * a histogram loads when it is first needed, not before the first frame.
 */
static struct sessions *
sessions_get(struct tui_view *tv)
{
	struct sessions	*s = tv->data;

	if (!s->loaded)
		sessions_load(tv);
	return (s);
}

int64_t
tui_sessions_id(struct tui_view *tv, size_t row)
{
	struct sessions	*s = sessions_get(tv);

	return (row < s->n ? s->v[row].id : 0);
}

static char *
sessions_title(struct tui_view *tv)
{
	struct sessions	*s = sessions_get(tv);

	return (xasprintf("profview: %zu session%s in %s", s->n,
	    s->n == 1 ? "" : "s", store_path(tui_store())));
}

/* "2024-01-02T03:04:05Z" as "2024-01-02 03:04". */
static const char *
sessions_when(const char *iso, char *buf, size_t len)
{
	if (iso == NULL)
		return ("");
	snprintf(buf, len, "%.10s %.5s", iso, strlen(iso) > 11 ? iso + 11 :
	    "");
	return (buf);
}

/* A path that does not fit keeps its end, where the file name is. */
static void
sessions_source(int y, int x, int w, int attr, const char *src,
    const char *marks)
{
	const char	*p = src;

	if (w < 2)
		return;
	while (*p != '\0' && tui_strwidth(p) > w) {
		p++;
		while ((*p & 0xc0) == 0x80)
			p++;
	}
	if (p == src) {
		tui_put_marks(y, x, w, attr, src, marks);
		return;
	}
	/* Make room for the marker. */
	p++;
	while ((*p & 0xc0) == 0x80)
		p++;
	tui_put(y, x, 1, attr, "<");
	tui_put_marks(y, x + 1, w - 1, attr, p, marks);
}

static void
sessions_draw(struct tui_view *tv, int y, int h, int w)
{
	struct sessions		*s = tv->data;
	struct store_session	*ss;
	size_t			 i;
	char			 when[32];
	int			 row, attr, srcw;

	srcw = w > 60 ? (w - 30) / 3 : 16;
	tui_putf(y, 0, w, tui_attr(TUI_C_HEADER), "%5s %-5s %-16s %-*s %s",
	    "id", "kind", "ingested", srcw, "source", "summary");
	tv->list.y = y + 1;
	tui_list_fit(&tv->list, h - 1);
	if (s->error != NULL) {
		tui_put(y + 1, 0, w, tui_attr(TUI_C_ERROR), s->error);
		return;
	}
	if (s->n == 0) {
		tui_put(y + 1, 0, w, TUI_PLAIN, "The store is empty: run"
		    " \"profview FILE.PRF\" to load a file.");
		return;
	}
	for (row = 0; row < tv->list.height; row++) {
		i = tv->list.top + (size_t)row;
		if (i >= s->n)
			break;
		ss = &s->v[i];
		attr = i == tv->list.cur ? tui_attr(TUI_C_CURSOR) : TUI_PLAIN;
		if (attr != TUI_PLAIN)
			tui_fill(y + 1 + row, 0, w, attr);
		tui_putf(y + 1 + row, 0, w, attr, "%5lld %-4s%c %-16.16s",
		    (long long)ss->id, ss->kind, ss->warnings != 0 ? '!' : ' ',
		    sessions_when(ss->ingested, when, sizeof when));
		sessions_source(y + 1 + row, 29, srcw, attr, ss->source,
		    tui_search_marks(tv));
		tui_put_marks(y + 1 + row, 30 + srcw, w - 30 - srcw, attr,
		    ss->summary != NULL ? ss->summary : "",
		    tui_search_marks(tv));
	}
}

static void
sessions_delete(void *arg)
{
	struct tui_view	*tv = arg;
	int64_t		 id = tui_sessions_id(tv, tv->list.cur);
	char		*cause = NULL;

	if (store_session_delete(tui_store(), id, &cause) != 0) {
		tui_message("error: %s", cause);
		free(cause);
		return;
	}
	tui_message("deleted session %lld", (long long)id);
	sessions_load(tv);
}

static int
sessions_key(struct tui_view *tv, int a)
{
	struct sessions	*s = sessions_get(tv);

	switch (a) {
	case SESSIONS_ACT_OPEN:
		if (s->n != 0)
			tui_open_session(s->v[tv->list.cur].id, 1);
		return (TUI_R_DRAW);
	case SESSIONS_ACT_DELETE:
		if (s->n == 0)
			return (TUI_R_NONE);
		tui_confirm(sessions_delete, tv, "delete session %lld (%s)?"
		    " y/n", (long long)s->v[tv->list.cur].id,
		    s->v[tv->list.cur].source);
		return (TUI_R_DRAW);
	default:
		return (TUI_R_UNUSED);
	}
}

static int
sessions_match(struct tui_view *tv, size_t row, const char *pattern)
{
	struct store_session	*ss = &sessions_get(tv)->v[row];

	return (tui_strcasestr(ss->source, pattern) ||
	    tui_strcasestr(ss->program, pattern) ||
	    tui_strcasestr(ss->summary, pattern) ||
	    tui_strcasestr(ss->kind, pattern));
}

/* The report of the session under the cursor. */
static int
sessions_export(struct tui_view *tv, int format, FILE *f, char **cause)
{
	struct sessions	*s = sessions_get(tv);

	if (s->n == 0) {
		*cause = xstrdup("no session to export");
		return (-1);
	}
	return (report_session(tui_store(), s->v[tv->list.cur].id, format, f,
	    cause));
}

static void
sessions_free(struct tui_view *tv)
{
	struct sessions	*s = sessions_get(tv);

	store_sessions_free(s->v, s->n);
	free(s->error);
	free(s);
}

static const struct tui_view_ops sessions_ops = {
	.name = "sessions",
	.keys = &tui_keys_sessions,
	.help = "every session in the store; Enter opens one, d deletes one",
	.draw = sessions_draw,
	.key = sessions_key,
	.title = sessions_title,
	.match = sessions_match,
	.export = sessions_export,
	.free = sessions_free,
};

struct tui_view *
tui_sessions_new(void)
{
	return (tui_view_new(&sessions_ops, xcalloc(1,
	    sizeof (struct sessions))));
}
